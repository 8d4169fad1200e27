"""What the examiner says when it does not reply with a value: the refusal of one query,
and the correction after a turn that held no acceptable action.

A refusal names the reason in plain words and calls a variable what the domain calls it
(`infoseek.domains.Wording.noun`: "attribute" in logic, "quantity" in math, "gene",
"clinical variable"). A correction says what was wrong with the turn, then how to act
(the domain's reminder for the format). Neither ever names a value.
"""

from __future__ import annotations

from collections.abc import Sequence

from infoseek.answers import answer_kind as get_answer_kind
from infoseek.domains import Wording

# ------------------------------------------------------------------- one query refused

REFUSAL_REASONS: dict[str, str] = {
    "unknown": "there is no {noun} with that name in this problem",
    "forbidden": "that {noun} may not be asked about",
    "observed": "that {noun} is already given in the problem",
    "target": "that is the question you must answer yourself",
    "repeated": "that {noun} was already asked about",
    "malformed": "the question could not be understood as asking about one {noun}",
    "too_many": "more questions than allowed in one turn",
    "not_leaf": "that {noun} is derived from others and cannot be asked about",
    "bad_arguments": "the tool arguments could not be read (call ask with one {noun} name)",
    "unknown_tool": "there is no such tool (use ask or answer)",
    "too_long": "the request is too long to process",
    "empty": "the message was empty",
    "multiple_actions": "a turn must either ask or answer, not both",
    "no_action": "no question or answer was found",
    "template": "that line is the example from the instructions, not a question about "
                "{a_noun} (put a name in place of the words in angle brackets)",
    "ambiguous": "the question names more than one thing at once",
    "out_of_range": "the request holds a number too large to read",
    "early_answer": "you may not answer yet",
    "not_boolean": "the answer must be yes or no",
    "not_sure": "not sure which listed item the question asks about (ask by its exact name)",
}
"""Why a query is refused, by reason; ``{noun}`` / ``{a_noun}`` is the domain's word for
a variable (without / with its article)."""


def with_article(noun: str) -> str:
    """``noun`` after "a" or "an" ("an attribute", "a gene")."""
    return f"{'an' if noun[:1].lower() in 'aeiou' else 'a'} {noun}"


def refusal_text(reason: str, name: str | None = None, *, noun: str) -> str:
    """The reply to a refused query about `name` (or "that"), in the domain's `noun`."""
    why = REFUSAL_REASONS.get(reason, "the question is not valid")
    subject = f"'{name}'" if name else "that"
    return f"Cannot answer about {subject}: {why.format(noun=noun, a_noun=with_article(noun))}."


def check_query(
    name: str, *, variables: Sequence[str], askable: Sequence[str], observed: Sequence[str],
    target: str, asked: Sequence[str], not_leaf: Sequence[str] = (),
) -> str | None:
    """The refusal reason for asking about `name`, or None when it may be asked.

    `not_leaf` lists derived quantities of problems where only leaves may be asked
    (`infoseek.record_views.not_leaf_variables`); they are refused with "not_leaf"."""
    if name not in variables:
        return "unknown"
    if name == target:
        return "target"
    if name in observed:
        return "observed"
    if name in not_leaf:
        return "not_leaf"
    if name not in askable:
        return "forbidden"
    if name in asked:
        return "repeated"
    return None


# ------------------------------------------------------------ a whole turn corrected

EARLY_ANSWER = "You may not answer yet: ask at least {k} question(s) first ({asked} asked so far)."
"""The correction after an answer given before k questions under force-ask."""
EARLY_ANSWER_LAST = ("That answer came before {k} question(s) were asked ({asked} asked so "
                     "far), so it was not accepted.")
"""The same, when the next turn is the final one (where any answer counts): it says what
was wrong and tells nothing to do, so it never contradicts the final turn's message."""

# What was wrong with a turn, in plain words, for every turn-level invalid reason
# (`infoseek.contract.INVALID_REASONS`). Keyed by reason, then optionally by format
# ("text"/"tool"); "*" is the fallback. An unreadable answer ("malformed") is worded by
# its answer kind (`infoseek.answers`, the kind's ``malformed`` sentence).
INVALID_TURN_PROBLEMS: dict[str, dict[str, str]] = {
    "empty": {"*": "Your last message was empty."},
    "no_action": {
        "text": "Your last message did not end with a question line or an answer line.",
        "tool": "Your last message did not call the `ask` tool or the `answer` tool.",
    },
    "multiple_actions": {"*": "Your last message both asked and answered, or gave more "
                              "than one answer; each turn must do exactly one of the two."},
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


def reminder(wording: Wording, fmt: str) -> str:
    """How to act, said after an invalid turn in format `fmt`; ``{entity}`` is left to
    fill in. In the text format the domain's filled examples follow (the reminder shows
    its templates), so the model sees a line written in full."""
    if fmt == "tool":
        return wording.reminder_tool
    examples = [f"`{e}`" for e in (wording.question_example, wording.answer_example) if e]
    if not examples:
        return wording.reminder_text
    return f"{wording.reminder_text} For example: {' or '.join(examples)}."


def invalid_turn_problem(reason: str | None, *, fmt: str, answer_kind: str = "boolean") -> str:
    """One plain sentence saying what was wrong with an invalid turn (never the code)."""
    if reason == "malformed":
        return get_answer_kind(answer_kind).malformed
    wording = INVALID_TURN_PROBLEMS.get(reason or "", {})
    return wording.get(fmt) or wording.get("*") or INVALID_TURN_FALLBACK


def invalid_turn_message(reason: str | None, *, wording: Wording, fmt: str,
                         answer_kind: str, entity: str = "") -> str:
    """The correction sent after an invalid turn: what was wrong, then how to act."""
    problem = invalid_turn_problem(reason, fmt=fmt, answer_kind=answer_kind)
    return f"{problem} {reminder(wording, fmt).format(entity=entity)}"
