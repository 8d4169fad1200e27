"""How the logic domain talks to the model: attributes of one entity, yes/no goals.

Written for this project. The strings are `str.format` templates whose placeholders are
listed on `infoseek.domains.Wording`; `infoseek.solvers.seek.prompts` composes them with the
protocol's own lines (budget, final turn, corrections).
"""

from __future__ import annotations

from typing import Any

from infoseek.domains import Wording

QUESTION_TEMPLATE = "Question: Is {entity} <attribute>?"


def reply(entity: str, variable: str, value: Any) -> str:
    """The examiner's answer: yes or no about the attribute."""
    if value is True:
        return f"Yes, {entity} is {variable}."
    if value is False:
        return f"No, {entity} is not {variable}."
    return f"{variable} = {value}"


WORDING = Wording(
    noun="attribute",
    intro=(
        "You are solving a reasoning problem in which some facts you need are missing. "
        "You can ask an examiner about attributes that are not given. Ask only for what "
        "you need, stop asking as soon as the answers settle the question, and then give "
        "your answer."
    ),
    tool_rules=(
        "Each turn, either call the `ask` tool with one attribute name (at most {per_turn} "
        "call(s) per turn), or call the `answer` tool with your final answer "
        "(\"yes\" if {entity} is {target}, \"no\" if not). Answering ends the episode."
    ),
    text_rules=(
        "Each turn, you may think first, then end your message with either question lines, "
        "one per attribute (at most {per_turn} per turn), written exactly like\n"
        "{question_template}\n"
        "with the attribute's name in place of <attribute>, or a single final answer line, "
        "which is one of these two:\n"
        "Answer: {entity} is {target}.\n"
        "Answer: {entity} is not {target}.\n"
        "Giving an answer ends the episode."
    ),
    question_template=QUESTION_TEMPLATE,
    answer_template=None,
    reminder_text=(
        f"End your message with question line(s) like `{QUESTION_TEMPLATE}` "
        "(with an attribute's name in place of <attribute>) or with one line starting with "
        "`Answer:`."
    ),
    reminder_tool="Call `ask` with an attribute name, or `answer` with yes or no.",
    k_prediction=(
        "Read the problem below. Do not solve it. Decide how many more attributes of "
        "{entity} would have to be revealed, at the least, before the goal could be "
        "determined whatever their values turn out to be.\n\n{problem}\n\n"
        "Reply with your reasoning if you like, and end with one line that is exactly one "
        "of:\n{options}"
    ),
    mss_identification=(
        "Read the problem below. Name the smallest set of attributes you would ask about so "
        "that, whatever the answers, the goal would be determined. {size_rule}\n\n"
        "{problem}\n\n"
        "Reply with your reasoning if you like, and end with one line listing the attribute "
        "names separated by commas, like:\nAnswer: attribute1, attribute2"
    ),
    size_given="Exactly {k} attribute(s) are needed.",
    size_free="Name between 1 and {max_size} attributes.",
    reply=reply,
    unsure="I am not sure whether {entity} is {variable}.",
    question_example="Question: Is {entity} left-handed?",
)
