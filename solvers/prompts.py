"""Protocol prompts, written for this project.

Each builder renders the problem itself (`builders.logic.logic_text.render_problem`); these
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
    "{question_template}\n"
    "with the attribute's name in place of <attribute>, or a single final answer line, "
    "which is one of these two:\n"
    "Answer: {entity} is {target}.\n"
    "Answer: {entity} is not {target}.\n"
    "Giving an answer ends the episode."
)
QUESTION_TEMPLATE = "Question: Is {entity} <attribute>?"

BUDGET_LINE = (
    "Budget: you have at most {turns} turn(s) of questions, with up to {per_turn} "
    "question(s) per turn."
)
NO_BUDGET_LINE = "You may take up to {turns} turns in total."
FORCE_ASK_LINE = "You must ask at least {k} question(s) before you may answer."

# How to act, said after every invalid turn (after a sentence saying what was wrong).
REMINDER_TEXT = (
    f"End your message with question line(s) like `{QUESTION_TEMPLATE}` "
    "(with an attribute's name in place of <attribute>) or with one line starting with "
    "`Answer:`."
)
REMINDER_TOOL = "Call `ask` with an attribute name, or `answer` with yes or no."
FINAL_TURN = "You have no questions left. Give your final answer now."
EARLY_ANSWER = "You may not answer yet: ask at least {k} question(s) first ({asked} asked so far)."

K_PREDICTION = (
    "Read the problem below. Do not solve it. Decide how many more attributes of "
    "{entity} would have to be revealed, at the least, before the goal could be "
    "determined whatever their values turn out to be.\n\n{problem}\n\n"
    "Reply with your reasoning if you like, and end with one line that is exactly one of:\n"
    "{options}"
)
K_PREDICTION_MAX = 4
"""The largest count the k-prediction prompts offer unless told otherwise (SPEC 3.2)."""

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
    "{question_template}\n"
    "or a single final answer line with the value of {target} as a number, written "
    "exactly like\n"
    "{answer_template}\n"
    "with the quantity's name and your number in place of the words in angle brackets. "
    "Giving an answer ends the episode."
)
QUESTION_TEMPLATE_QUANTITY = "Question: What is <quantity name>?"
ANSWER_TEMPLATE_QUANTITY = "Answer: <number>"

REMINDER_TEXT_QUANTITY = (
    f"End your message with question line(s) like `{QUESTION_TEMPLATE_QUANTITY}` "
    "(with a quantity's name in place of <quantity name>) or with one line "
    "`Answer:` followed by your number."
)
REMINDER_TOOL_QUANTITY = "Call `ask` with a quantity name, or `answer` with a number."

K_PREDICTION_QUANTITY = (
    "Read the problem below. Do not solve it. Decide how many more quantities would have "
    "to be revealed, at the least, before the goal could be computed whatever their "
    "values turn out to be.\n\n{problem}\n\n"
    "Reply with your reasoning if you like, and end with one line that is exactly one of:\n"
    "{options}"
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
    """How to act, said after an invalid turn, for a format and answer kind
    ("boolean"/"number"); ``{entity}`` is left to fill in."""
    if answer_kind == "number":
        return REMINDER_TOOL_QUANTITY if fmt == "tool" else REMINDER_TEXT_QUANTITY
    return REMINDER_TOOL if fmt == "tool" else REMINDER_TEXT


# What was wrong with a turn, in plain words, for every turn-level invalid reason
# (`solvers.parsing.INVALID_REASONS`). Keyed by reason, then optionally by format
# ("text"/"tool") or answer kind ("boolean"/"number"); "*" is the fallback.
INVALID_TURN_PROBLEMS: dict[str, dict[str, str]] = {
    "empty": {"*": "Your last message was empty."},
    "no_action": {
        "text": "Your last message did not end with a question line or an answer line.",
        "tool": "Your last message did not call the `ask` tool or the `answer` tool.",
    },
    "multiple_actions": {"*": "Your last message both asked and answered, or gave more "
                              "than one answer; each turn must do exactly one of the two."},
    "malformed": {
        "boolean": "Your answer could not be read as a yes or a no about the goal.",
        "number": "Your answer could not be read as a number.",
    },
    "ambiguous": {"*": "Your answer held more than one possible value (two values, a range, "
                       "a calculation or a hedge), so it was not accepted; give exactly "
                       "one."},
    "template": {"*": "Your last message copied an example line from the instructions word "
                      "for word instead of filling it in."},
    "out_of_range": {"*": "The number in your answer is too large to be read."},
    "too_long": {"*": "Your last message was too long to be read."},
    "bad_arguments": {"*": "The arguments of your tool call could not be read."},
    "unknown_tool": {"*": "You called a tool that does not exist."},
    "not_boolean": {"*": "Your answer was not a yes or a no."},
    "too_many": {"*": "Your last message asked more questions than one turn allows."},
}
INVALID_TURN_FALLBACK = "Your last message held no action that could be accepted."


def invalid_turn_problem(reason: str | None, *, fmt: str, answer_kind: str = "boolean") -> str:
    """One plain sentence saying what was wrong with an invalid turn (never the code)."""
    wording = INVALID_TURN_PROBLEMS.get(reason or "", {})
    return (wording.get(fmt) or wording.get(answer_kind) or wording.get("*")
            or INVALID_TURN_FALLBACK)


def invalid_turn_message(reason: str | None, *, fmt: str, answer_kind: str = "boolean",
                         entity: str = "") -> str:
    """The correction sent after an invalid turn: what was wrong, then how to act."""
    problem = invalid_turn_problem(reason, fmt=fmt, answer_kind=answer_kind)
    return f"{problem} {reminder(fmt, answer_kind).format(entity=entity)}"


def k_prediction_options(max_k: int = K_PREDICTION_MAX) -> str:
    """The answer lines a k-prediction prompt offers: not ambiguous, every count 1..max_k,
    and ambiguous but not sure how many."""
    counts = "".join(f"Answer: {k}\n" for k in range(1, max_k + 1))
    return f"Answer: not ambiguous\n{counts}Answer: ambiguous but not sure how many"


def template_lines(*, entity: str, fmt: str, answer_kind: str = "boolean") -> tuple[str, ...]:
    """The example lines the seek prompts (system prompt and corrections) show with a
    placeholder in angle brackets: a reply line copying one verbatim is not an action.
    The logic answer lines are shown whole and are real answers, so they are not here."""
    if fmt != "text":
        return ()
    if answer_kind == "number":
        return (question_template(entity, answer_kind), ANSWER_TEMPLATE_QUANTITY)
    return (question_template(entity, answer_kind),)


def question_template(entity: str, answer_kind: str) -> str:
    """The example question line the text-format prompts show."""
    if answer_kind == "number":
        return QUESTION_TEMPLATE_QUANTITY
    return QUESTION_TEMPLATE.format(entity=entity)


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
    lines = [intro, rules.format(
        per_turn=per_turn, entity=entity, target=target,
        question_template=question_template(entity, answer_kind),
        answer_template=ANSWER_TEMPLATE_QUANTITY)]
    if budget:
        lines.append(BUDGET_LINE.format(turns=max_turns, per_turn=per_turn))
    else:
        lines.append(NO_BUDGET_LINE.format(turns=max_turns))
    if force_ask_k:
        lines.append(FORCE_ASK_LINE.format(k=force_ask_k))
    return "\n\n".join(lines)
