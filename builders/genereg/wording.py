"""How GeneReg-MT talks to the model: genes of a network, the oracle replies
``TGFB = 1``, the answer is an attractor id or a marker gene's value."""

from __future__ import annotations

from typing import Any

from infoseek.domains import Wording

QUESTION_TEMPLATE = "Question: What is the value of <gene>?"
ANSWER_TEMPLATE = "Answer: <attractor or steady state id, or 0 or 1 for a marker gene>"
EXAMPLE_ATTRACTOR = "A99"
EXAMPLE_STEADY_STATE = "S99"
"""Example ids of no problem (a catalogue holds at most 48 entries, `genereg_mt.MAX_CATALOGUE`),
so an example never names one problem's value and a copy of it is never credited."""
GOAL_EXAMPLES = ("(the answer line filled in for each goal: which attractor the cell reaches, "
                 f"Answer: {EXAMPLE_ATTRACTOR}; which steady state it is in, Answer: "
                 f"{EXAMPLE_STEADY_STATE}; a marker gene's value, Answer: 0 or Answer: 1)")
"""A filled answer line for each kind of goal a GeneReg-MT problem states (an attractor's
id, a steady state's id, a marker gene's value), shown under the answer template in the
rules and in the final turn (`infoseek.solvers.seek.prompts.final_turn_prompt`). It opens
with a bracket, so an echo of it is no answer line; it names both marker values, so it
singles out no problem's value."""


def reply(entity: str, variable: str, value: Any) -> str:
    """The examiner's answer: the gene's value."""
    return f"{variable} = {int(value) if isinstance(value, bool) else value}"


WORDING = Wording(
    noun="gene",
    intro=("You are studying a gene regulatory network. Some gene values you need are "
           "missing; you can ask an examiner for them. Ask only for what you need, stop "
           "as soon as the answers settle the question, and then answer."),
    tool_rules=("Each turn, either call the `ask` tool with one gene name (at most "
                "{per_turn} call(s) per turn), or call the `answer` tool with the value the "
                "goal asks for: an attractor's id when it asks which attractor the cell "
                "reaches (for example " + EXAMPLE_ATTRACTOR + "), a steady state's id when "
                "it asks which steady state the cell is in (for example "
                + EXAMPLE_STEADY_STATE + "), or 0 or 1 when it asks for a marker "
                "gene's value. Answering ends the episode."),
    text_rules=("Each turn, you may think first, then end your message with either question "
                "lines, one per gene (at most {per_turn} per turn), written like\n"
                "{question_template}\nwith the gene's name in place of <gene>, or one final "
                "answer line written like\n{answer_template}\n" + GOAL_EXAMPLES + "\nGiving "
                "an answer ends the episode."),
    question_template=QUESTION_TEMPLATE,
    answer_template=ANSWER_TEMPLATE,
    reminder_text=(f"End your message with question line(s) like `{QUESTION_TEMPLATE}` or "
                   "with one line starting with `Answer:`."),
    reminder_tool="Call `ask` with a gene name, or `answer` with your answer.",
    k_prediction=("Read the problem below. Do not solve it. Decide how many more gene values "
                  "would have to be revealed, at the least, before the question is settled "
                  "whatever those values turn out to be.\n\n{problem}\n\nReply with your "
                  "reasoning if you like, and end with one line that is exactly one of:\n"
                  "{options}"),
    mss_identification=("Read the problem below. Name the smallest set of genes you would "
                        "ask about so that, whatever the answers, the question would be "
                        "settled. {size_rule}\n\n{problem}\n\nReply with your reasoning if "
                        "you like, and end with one line listing the gene names separated "
                        "by commas, like:\nAnswer: GENE1, GENE2"),
    size_given="Exactly {k} gene(s) are needed.",
    size_free="Name between 1 and {max_size} genes.",
    reply=reply,
    unsure="I am not sure about {variable}.",
    question_example="Question: What is the value of GENEX?",
    answer_example=f"Answer: {EXAMPLE_ATTRACTOR}",
)
