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


def seek_system_prompt(*, entity: str, target: str, fmt: str, per_turn: int, max_turns: int,
                       budget: bool, force_ask_k: int | None) -> str:
    rules = SEEK_TOOL_RULES if fmt == "tool" else SEEK_TEXT_RULES
    lines = [SEEK_INTRO, rules.format(per_turn=per_turn, entity=entity, target=target)]
    if budget:
        lines.append(BUDGET_LINE.format(turns=max_turns, per_turn=per_turn))
    else:
        lines.append(NO_BUDGET_LINE.format(turns=max_turns))
    if force_ask_k:
        lines.append(FORCE_ASK_LINE.format(k=force_ask_k))
    return "\n\n".join(lines)
