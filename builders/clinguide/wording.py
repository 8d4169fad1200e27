"""How ClinGuide-MT talks to the model: clinical variables, a recommendation to choose,
oracle replies like ``Duration of pain: more than 6 months``."""

from __future__ import annotations

from typing import Any

from infoseek.domains import Wording

QUESTION_TEMPLATE = "Question: <clinical variable>"
ANSWER_TEMPLATE = "Answer: <recommendation>"


def reply(entity: str, variable: str, value: Any) -> str:
    """The oracle's answer: the variable's name and its value."""
    return f"{variable}: {value}"


WORDING = Wording(
    noun="clinical variable",
    intro=("You are a clinician following a clinical guideline for a patient. Some "
           "findings needed to decide are not known yet; you can ask for them one at a "
           "time. Ask only for what the guideline needs, in the order it needs them, then "
           "give the guideline's recommendation."),
    tool_rules=("Each turn, either call the `ask` tool with the exact name of one clinical "
                "variable from the list (at most {per_turn} call(s) per turn), or call the "
                "`answer` tool with exactly one recommendation from the list. Answering "
                "ends the episode."),
    text_rules=("Each turn, end your message with question lines (at most {per_turn} per "
                "turn), each written like\n{question_template}\nwith the exact name of a "
                "clinical variable from the list in place of <clinical variable>, or with "
                "one final answer line written like\n{answer_template}\nwith exactly one "
                "recommendation from the list. Giving an answer ends the episode."),
    question_template=QUESTION_TEMPLATE,
    answer_template=ANSWER_TEMPLATE,
    reminder_text=(f"End your message with a question line like `{QUESTION_TEMPLATE}` "
                   "naming one listed clinical variable, or with one line starting with "
                   "`Answer:` and one listed recommendation."),
    reminder_tool=("Call `ask` with one listed clinical variable, or `answer` with one "
                   "listed recommendation."),
    k_prediction=("Read the case below. Do not solve it. Decide how many more clinical "
                  "variables about {entity} must be found out, at the least, before the "
                  "guideline's recommendation is settled whatever their values.\n\n"
                  "{problem}\n\nEnd with one line that is exactly one of:\n{options}"),
    mss_identification=("Read the case below. Name the smallest set of clinical variables "
                        "whose values settle the guideline's recommendation whatever they "
                        "are. {size_rule}\n\n{problem}\n\nEnd with one line listing the "
                        "variable names separated by commas, like:\nAnswer: first "
                        "variable, second variable"),
    size_given="Exactly {k} variable(s) are needed.",
    size_free="Name between 1 and {max_size} variables.",
    reply=reply,
    unsure="I am not sure about {variable}.",
    question_example="Question: Blood group",
    answer_example="Answer: Arrange a dental review",
)
