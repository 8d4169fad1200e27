"""What the incomplete-questions model and its simulated user are told (protocols §3.7):
the system prompt of each variant and format, the corrections and reminders the solver
sends, and the `user` role's system prompt. `PROMPT_ECHOES` collects the tag contents of
these texts, so that a reply copying one of them is read as an echo, never an action
(`infoseek.solvers.incomplete.reading`). Pure; no Inspect imports.
"""

from __future__ import annotations

from infoseek.solvers.incomplete.reading import tag_contents

ANSWER_RULES = (
    "Think inside <think>...</think> if you like, then give your final answer inside "
    "<answer>...</answer>, writing the final value as \\boxed{{...}}: a number, or the "
    "letter of the chosen option."
)
ANSWER_EXAMPLE = (
    "Example. Problem: \"Ben has 3 apples and picks 4 more. How many apples does he have?\" "
    "Reply: <think>3 + 4 = 7.</think><answer>Ben has \\boxed{{7}} apples.</answer>"
)
SOLVE_SYSTEM = "You are solving a math problem.\n" + ANSWER_RULES + "\n" + ANSWER_EXAMPLE

QUESTIONABLE_INTRO = (
    "You are solving a math problem written by a user. If something you need to solve it "
    "is missing or unclear, you may ask the user about it instead of answering; the user "
    "replies and you continue."
)
ASK_TEXT_RULES = (
    "To ask, write one question inside <question>...</question> and no <answer> tag "
    "(one question per reply, at most {max_interactions} questions in all). A reply "
    "with an <answer> tag is final, and any question in it is ignored."
)
ASK_TOOL_RULES = (
    "To ask, call the `ask_question` tool with one question (one call per reply, at most "
    "{max_interactions} questions in all). A reply with an <answer> tag is final."
)
ASK_EXAMPLE_TEXT = (
    "Example of asking. Problem: \"A shelf holds some books in each row. How many books "
    "are on 5 rows?\" Reply: <think>I do not know how many books fit in one row.</think>"
    "<question>How many books does one row hold?</question>"
)
ANSWER_TAG_EXAMPLE = "<answer>Ben has \\boxed{7} apples.</answer>"
"""The system prompt's example answer, shown again beside every correction that asks for
an ``<answer>`` tag (a copy of it is an echo, never an answer: `PROMPT_ECHOES`)."""
QUESTION_TAG_EXAMPLE = "<question>How many books does one row hold?</question>"
"""The system prompt's example question, shown again beside every correction that asks
for a ``<question>`` tag (an echo too)."""
NO_QUESTIONS_LEFT = (
    "You have no questions left. Give your final answer now inside <answer>...</answer> "
    f"with the value in \\boxed{{}}, for example: {ANSWER_TAG_EXAMPLE}"
)
ONE_QUESTION_ONLY = "Only one question per reply is answered; this one was not."
NO_TAG_REMINDER_TEXT = (
    "Your last reply had neither an <answer> tag nor a <question> tag. Either ask one "
    "question inside <question>...</question>, or give your final answer inside "
    "<answer>...</answer> with the value in \\boxed{}. For example: "
    f"{QUESTION_TAG_EXAMPLE} or {ANSWER_TAG_EXAMPLE}"
)
NO_TAG_REMINDER_TOOL = (
    "Your last reply had no <answer> tag and did not call `ask_question`. Either call "
    "`ask_question` with one question, or give your final answer inside <answer>...</answer> "
    f"with the value in \\boxed{{}}, for example: {ANSWER_TAG_EXAMPLE}"
)
NO_TAG_REMINDER_FINAL = (
    "Your last reply had no <answer> tag. Give your final answer now inside "
    f"<answer>...</answer> with the value in \\boxed{{}}, for example: {ANSWER_TAG_EXAMPLE}"
)
"""Every correction that names a tag to write shows it filled in beside the placeholder
(``<answer>...</answer>``), as the system prompt does, so the model sees a whole reply and
not only the form a real model copied word for word (issue 30)."""

PROMPT_ECHOES: frozenset[str] = tag_contents(
    ANSWER_RULES.format(), ANSWER_EXAMPLE.format(), ASK_TEXT_RULES, ASK_TOOL_RULES,
    ASK_EXAMPLE_TEXT, NO_QUESTIONS_LEFT, ONE_QUESTION_ONLY, NO_TAG_REMINDER_TEXT,
    NO_TAG_REMINDER_TOOL, NO_TAG_REMINDER_FINAL)
"""The contents of the tags and boxes of our own prompts and corrections: a reply tag
holding one of them is an echo, never an action (`reading.parse_reply`)."""

USER_SYSTEM = (
    "You are role-playing the person who asked an assistant a math question. When you "
    "wrote the question you left out one piece of information, and that information is "
    "all you know beyond the question itself:\n\n{condition}\n\n"
    "The assistant will ask you something. If the question concerns this information "
    "(asks for it, or for a definition, explanation or clarification of it), answer "
    "from it. Otherwise say that you do not know. Never work out or state the answer to "
    "the math question, and do not make up any other facts. Reply in one or two "
    "sentences."
)

STRUCTURED_USER_SYSTEM = (
    "You help run a conversation in which an assistant solves a math question a user "
    "wrote. The user left out one piece of information:\n\n1. {condition}\n\n"
    "You will see one question the assistant asked the user. If it asks for this piece "
    "of information (or for a definition, explanation or clarification of it), reply "
    "exactly: 1\nIf it asks for anything else, reply exactly: none\n"
    "Reply with that one word and nothing else.\n\n"
    "Example. Information: \"1. The box holds 6 pens.\" Question: \"How many pens fit "
    "in the box?\" Reply: 1"
)
"""The structured `user` role's system prompt: it classifies, never writes to the
model under test (`infoseek.solvers.incomplete.user`)."""


def system_prompt(variant: str, fmt: str, max_interactions: int) -> str:
    """The system prompt: how to answer in every variant, and in `questionable` how to
    ask (a `<question>` tag in the text format, the `ask_question` tool in the tool format)
    and how many questions the user answers."""
    if variant != "questionable":
        return SOLVE_SYSTEM.format()
    rules = ASK_TOOL_RULES if fmt == "tool" else ASK_TEXT_RULES
    parts = [QUESTIONABLE_INTRO, rules.format(max_interactions=max_interactions),
             ANSWER_RULES.format(), ANSWER_EXAMPLE.format()]
    if fmt == "text":
        parts.append(ASK_EXAMPLE_TEXT)
    return "\n".join(parts)
