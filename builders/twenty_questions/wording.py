"""How Twenty Questions talks to the model in the CSP protocols (k-prediction and MSS
identification over the attribute table); the game's prompts are the solver's
(`infoseek.solvers.twenty_questions.prompts`)."""

from __future__ import annotations

from typing import Any

from infoseek.domains import Wording

QUESTION_TEMPLATE = "Question: <attribute>"
ANSWER_TEMPLATE = "Answer: <candidate>"


def reply(entity: str, variable: str, value: Any) -> str:
    """The oracle's answer to an attribute: ``alive: yes``."""
    return f"{variable}: {value}"


WORDING = Wording(
    noun="attribute",
    intro=("I am thinking of a thing, X, one of the candidates listed below. Each "
           "attribute of X is yes, no or pass (pass: partly, or not cleanly yes or no). "
           "You can ask for attributes one at a time, then name X."),
    tool_rules=("Each turn, either call the `ask` tool with the exact name of one attribute "
                "from the list (at most {per_turn} call(s) per turn), or call the `answer` "
                "tool with exactly one candidate. Answering ends the episode."),
    text_rules=("Each turn, end your message with question lines (at most {per_turn} per "
                "turn), each written like\n{question_template}\nwith the exact name of an "
                "attribute from the list, or with one final answer line written like\n"
                "{answer_template}\nwith exactly one candidate. Giving an answer ends the "
                "episode."),
    question_template=QUESTION_TEMPLATE,
    answer_template=ANSWER_TEMPLATE,
    reminder_text=(f"End your message with a question line like `{QUESTION_TEMPLATE}` "
                   "naming one listed attribute, or with one line starting with `Answer:` "
                   "and one candidate."),
    reminder_tool="Call `ask` with one listed attribute, or `answer` with one candidate.",
    k_prediction=("Read the game below. Do not solve it. Decide how many more attributes "
                  "of {entity} must be found out, at the least, before {entity} is settled "
                  "whatever their values.\n\n{problem}\n\nEnd with one line that is exactly "
                  "one of:\n{options}"),
    mss_identification=("Read the game below. Name the smallest set of attributes whose "
                        "values settle which candidate X is, whatever they are. "
                        "{size_rule}\n\n{problem}\n\nEnd with one line listing the "
                        "attribute names separated by commas, like:\nAnswer: first "
                        "attribute, second attribute"),
    size_given="Exactly {k} attribute(s) are needed.",
    size_free="Name between 1 and {max_size} attributes.",
    reply=reply,
    unsure="I am not sure about {variable}.",
    question_example="Question: smells of mint",
    answer_example="Answer: snow globe",
)
