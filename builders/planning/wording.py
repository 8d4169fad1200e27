"""How the planning domain talks to the model: atoms of a Blocks World initial state,
questions ``Question: Is (on a b) true?``, a plan as the answer, one action per line.

Written for this project; placeholders as listed on `infoseek.domains.Wording`.
"""

from __future__ import annotations

from typing import Any

from infoseek.domains import Wording

QUESTION_TEMPLATE = "Question: Is (<atom>) true?"
ANSWER_TEMPLATE = "Answer: <first action>"


def reply(entity: str, variable: str, value: Any) -> str:
    """The oracle's answer about one atom of the initial state."""
    if value is True:
        return f"Yes, ({variable}) is true in the initial state."
    if value is False:
        return f"No, ({variable}) is false in the initial state."
    return f"{variable} = {value}"


WORDING = Wording(
    noun="atom",
    intro=("You are planning in Blocks World, but the initial state is only partly "
           "observed. You can ask whether an atom of the initial state is true. Ask only "
           "for what you need to know which plans are shortest, stop asking as soon as "
           "the answers settle it, and then give a shortest plan."),
    tool_rules=("Each turn, either call the `ask` tool with one atom, written like (on a b) "
                "(at most {per_turn} call(s) per turn), or call the `answer` tool with your "
                "plan: the actions in order, one per line, like (unstack a b). Answering "
                "ends the episode."),
    text_rules=("Each turn, you may think first, then end your message with either question "
                "lines, one per atom (at most {per_turn} per turn), written exactly like\n"
                "{question_template}\nwith an atom such as on a b in place of <atom>, or "
                "with your final answer: a line starting with \"Answer:\" and the first "
                "action of a shortest plan, then each further action on its own line, "
                "like\nAnswer: (unstack c b)\n(put-down c)\n(pick-up b)\n"
                "(write \"Answer: none\" if the goal already holds). Giving an answer ends "
                "the episode."),
    question_template=QUESTION_TEMPLATE,
    answer_template=ANSWER_TEMPLATE,
    reminder_text=(f"End your message with question line(s) like `{QUESTION_TEMPLATE}` "
                   "(an atom such as on a b in place of <atom>) or with your plan after "
                   "`Answer:`, one action per line, like (unstack a b)."),
    reminder_tool=("Call `ask` with one atom such as (on a b), or `answer` with your plan, "
                   "one action per line."),
    k_prediction=("Read the planning problem below. Do not solve it. Decide how many more "
                  "atoms of the initial state would have to be revealed, at the least, "
                  "before the shortest plans to the goal are settled whatever the answers."
                  "\n\n{problem}\n\nReply with your reasoning if you like, and end with one "
                  "line that is exactly one of:\n{options}"),
    mss_identification=("Read the planning problem below. Name the smallest set of atoms of "
                        "the initial state you would ask about so that, whatever the "
                        "answers, the shortest plans to the goal would be settled. "
                        "{size_rule}\n\n{problem}\n\nReply with your reasoning if you like, "
                        "and end with one line listing the atoms separated by commas, "
                        "like:\nAnswer: (on a b), (clear c)"),
    size_given="Exactly {k} atom(s) are needed.",
    size_free="Name between 1 and {max_size} atoms.",
    reply=reply,
    unsure="I am not sure whether ({variable}) is true.",
    question_example="Question: Is (on a b) true?",
    answer_example="Answer: (unstack c b)",
)
