"""How the math domain talks to the model: quantities, equations, numeric goals.

Written for this project. Only basic input quantities (leaves) may be asked; a quantity
an equation defines must be worked out. The strings are `str.format` templates whose
placeholders are listed on `infoseek.domains.Wording`.
"""

from __future__ import annotations

from typing import Any

from infoseek.domains import Wording

QUESTION_TEMPLATE = "Question: What is <quantity name>?"
ANSWER_TEMPLATE = "Answer: <number>"


def reply(entity: str, variable: str, value: Any) -> str:
    """The examiner's answer: the quantity's value."""
    return f"{variable} = {value}"


WORDING = Wording(
    noun="quantity",
    intro=(
        "You are solving a math problem in which the values of some quantities you need are "
        "missing. You can ask an examiner for the value of a quantity that is not given. "
        "Only basic input quantities can be asked; a quantity defined by an equation must "
        "be worked out from its inputs. Ask only for what you need, stop asking as soon as "
        "the goal can be computed, and then answer with a number."
    ),
    tool_rules=(
        "Each turn, either call the `ask` tool to ask for the value of one quantity by name "
        "(at most {per_turn} call(s) per turn), or call the `answer` tool with the value of "
        "{target} as a number (an integer, a decimal or a fraction like 7/2). Answering "
        "ends the episode."
    ),
    text_rules=(
        "Each turn, you may think first, then end your message with either question lines, "
        "one per quantity (at most {per_turn} per turn), each asking for the value of one "
        "quantity by name, written exactly like\n"
        "{question_template}\n"
        "or a single final answer line with the value of {target} as a number, written "
        "exactly like\n"
        "{answer_template}\n"
        "with the quantity's name and your number in place of the words in angle "
        "brackets. Giving an answer ends the episode."
    ),
    question_template=QUESTION_TEMPLATE,
    answer_template=ANSWER_TEMPLATE,
    reminder_text=(
        f"End your message with question line(s) like `{QUESTION_TEMPLATE}` "
        "(with a quantity's name in place of <quantity name>) or with one line "
        "`Answer:` followed by your number."
    ),
    reminder_tool="Call `ask` with a quantity name, or `answer` with a number.",
    k_prediction=(
        "Read the problem below. Do not solve it. Decide how many more quantities would "
        "have to be revealed, at the least, before the goal could be computed whatever "
        "their values turn out to be.\n\n{problem}\n\n"
        "Reply with your reasoning if you like, and end with one line that is exactly one "
        "of:\n{options}"
    ),
    mss_identification=(
        "Read the problem below. Name the smallest set of quantities whose values you "
        "would ask for so that, whatever the values, the goal could be computed. "
        "{size_rule}\n\n{problem}\n\n"
        "Reply with your reasoning if you like, and end with one line listing the quantity "
        "names separated by commas, like:\nAnswer: quantity1, quantity2"
    ),
    size_given="Exactly {k} quantity value(s) are needed.",
    size_free="Name between 1 and {max_size} quantities.",
    reply=reply,
    question_example="Question: What is pencils_per_box?",
    answer_example="Answer: 42",
)
