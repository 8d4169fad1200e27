"""Protocol prompts, written for this project.

Each builder renders the problem itself (`builders.logic_text.render_problem`); these
templates wrap it with the instructions of one protocol and interaction format.
"""

from __future__ import annotations

SEEK_INTRO = (
    "You are solving a reasoning problem in which some facts you need are missing. "
    "You can ask an examiner about attributes that are not given. Ask only for what you "
    "need, stop asking as soon as the answers settle the question, and then give your "
    "answer."
)

SEEK_TOOL_RULES = (
    "Each turn, either call the `ask` tool with one attribute name (at most {per_turn} "
    "call(s) per turn), or call the `answer` tool with your final answer "
    "(\"yes\" if {entity} is {target}, \"no\" if not). Answering ends the episode."
)

SEEK_TEXT_RULES = (
    "Each turn, you may think first, then end your message with either question lines, "
    "one per attribute (at most {per_turn} per turn), written exactly like\n"
    "Question: Is {entity} <attribute>?\n"
    "or a single final answer line, written exactly like\n"
    "Answer: {entity} is {target}.   or   Answer: {entity} is not {target}.\n"
    "Giving an answer ends the episode."
)

BUDGET_LINE = (
    "Budget: you have at most {turns} turn(s) of questions, with up to {per_turn} "
    "question(s) per turn."
)
NO_BUDGET_LINE = "You may take up to {turns} turns in total."
FORCE_ASK_LINE = "You must ask at least {k} question(s) before you may answer."

REMINDER_TEXT = (
    "Your last message had no valid action ({reason}). End your message with question "
    "line(s) `Question: Is {entity} <attribute>?` or one line `Answer: ...`."
)
REMINDER_TOOL = (
    "Your last message had no valid action ({reason}). Call `ask` with an attribute name or "
    "`answer` with yes or no."
)
FINAL_TURN = "You have no questions left. Give your final answer now."
EARLY_ANSWER = "You may not answer yet: ask at least {k} question(s) first ({asked} asked so far)."

K_PREDICTION = (
    "Read the problem below. Do not solve it. Decide how many more attributes of "
    "{entity} would have to be revealed, at the least, before the goal could be "
    "determined whatever their values turn out to be.\n\n{problem}\n\n"
    "Reply with your reasoning if you like, and end with one line that is exactly one of:\n"
    "Answer: not ambiguous\nAnswer: 1\nAnswer: 2\nAnswer: 3\nAnswer: 4\n"
    "Answer: ambiguous but not sure how many"
)

MSS_IDENTIFICATION = (
    "Read the problem below. Name the smallest set of attributes you would ask about so "
    "that, whatever the answers, the goal would be determined. {size_rule}\n\n{problem}\n\n"
    "Reply with your reasoning if you like, and end with one line listing the attribute "
    "names separated by commas, like:\nAnswer: attribute1, attribute2"
)
SIZE_GIVEN = "Exactly {k} attribute(s) are needed."
SIZE_FREE = "Name between 1 and {max_size} attributes."


# ---------------------------------------------------------------- quantity (math) wording
# Used when the goal is a number (the answer kind follows the target's domain,
# `solvers.seek.answer_kind_for`), whatever the domain of the record.

SEEK_INTRO_QUANTITY = (
    "You are solving a math problem in which the values of some quantities you need are "
    "missing. You can ask an examiner for the value of a quantity that is not given. Only "
    "basic input quantities can be asked; a quantity defined by an equation must be worked "
    "out from its inputs. Ask only for what you need, stop asking as soon as the goal can "
    "be computed, and then answer with a number."
)

SEEK_TOOL_RULES_QUANTITY = (
    "Each turn, either call the `ask` tool to ask for the value of one quantity by name "
    "(at most {per_turn} call(s) per turn), or call the `answer` tool with the value of "
    "{target} as a number (an integer, a decimal or a fraction like 7/2). Answering ends "
    "the episode."
)

SEEK_TEXT_RULES_QUANTITY = (
    "Each turn, you may think first, then end your message with either question lines, "
    "one per quantity (at most {per_turn} per turn), each asking for the value of one "
    "quantity by name, written exactly like\n"
    "Question: What is <quantity name>?\n"
    "or a single final answer line with the value of {target} as a number, written "
    "exactly like\n"
    "Answer: <number>\n"
    "Giving an answer ends the episode."
)

REMINDER_TEXT_QUANTITY = (
    "Your last message had no valid action ({reason}). End your message with question "
    "line(s) `Question: What is <quantity name>?` or one line `Answer: <number>`."
)
REMINDER_TOOL_QUANTITY = (
    "Your last message had no valid action ({reason}). Call `ask` with a quantity name or "
    "`answer` with a number."
)

K_PREDICTION_QUANTITY = (
    "Read the problem below. Do not solve it. Decide how many more quantities would have "
    "to be revealed, at the least, before the goal could be computed whatever their "
    "values turn out to be.\n\n{problem}\n\n"
    "Reply with your reasoning if you like, and end with one line that is exactly one of:\n"
    "Answer: not ambiguous\nAnswer: <the number of quantities, like 2>\n"
    "Answer: ambiguous but not sure how many"
)

MSS_IDENTIFICATION_QUANTITY = (
    "Read the problem below. Name the smallest set of quantities whose values you would "
    "ask for so that, whatever the values, the goal could be computed. {size_rule}\n\n"
    "{problem}\n\n"
    "Reply with your reasoning if you like, and end with one line listing the quantity "
    "names separated by commas, like:\nAnswer: quantity1, quantity2"
)
SIZE_GIVEN_QUANTITY = "Exactly {k} quantity value(s) are needed."
SIZE_FREE_QUANTITY = "Name between 1 and {max_size} quantities."


def reminder(fmt: str, answer_kind: str = "boolean") -> str:
    """The no-valid-action reminder for a format and answer kind ("boolean"/"number")."""
    if answer_kind == "number":
        return REMINDER_TOOL_QUANTITY if fmt == "tool" else REMINDER_TEXT_QUANTITY
    return REMINDER_TOOL if fmt == "tool" else REMINDER_TEXT


def problem_level_prompts(problem: dict) -> dict[str, str]:
    """The k-prediction / MSS-identification wording for a record: quantity wording for
    problems that describe quantities (`descriptions`, math records), else attributes."""
    if problem.get("descriptions") is not None or problem.get("domain") == "math":
        return {"k_prediction": K_PREDICTION_QUANTITY,
                "mss_identification": MSS_IDENTIFICATION_QUANTITY,
                "size_given": SIZE_GIVEN_QUANTITY, "size_free": SIZE_FREE_QUANTITY}
    return {"k_prediction": K_PREDICTION, "mss_identification": MSS_IDENTIFICATION,
            "size_given": SIZE_GIVEN, "size_free": SIZE_FREE}


def seek_system_prompt(*, entity: str, target: str, fmt: str, per_turn: int, max_turns: int,
                       budget: bool, force_ask_k: int | None,
                       answer_kind: str = "boolean") -> str:
    """The seek system prompt; ``answer_kind="number"`` gives the quantity wording."""
    if answer_kind == "number":
        intro = SEEK_INTRO_QUANTITY
        rules = SEEK_TOOL_RULES_QUANTITY if fmt == "tool" else SEEK_TEXT_RULES_QUANTITY
    else:
        intro = SEEK_INTRO
        rules = SEEK_TOOL_RULES if fmt == "tool" else SEEK_TEXT_RULES
    lines = [intro, rules.format(per_turn=per_turn, entity=entity, target=target)]
    if budget:
        lines.append(BUDGET_LINE.format(turns=max_turns, per_turn=per_turn))
    else:
        lines.append(NO_BUDGET_LINE.format(turns=max_turns))
    if force_ask_k:
        lines.append(FORCE_ASK_LINE.format(k=force_ask_k))
    return "\n\n".join(lines)
