"""Protocol prompts, written for this project.

Each domain renders its problems and words its questions itself (`infoseek.domains`:
the renderers and the `Wording` of its declaration); this module composes that wording
with the lines every protocol shares (budget, final turn, corrections, k options).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from infoseek.answers import answer_kind as get_answer_kind
from infoseek.domains import Wording, domain_of

BUDGET_LINE = (
    "Budget: you have at most {turns} turn(s) of questions, with up to {per_turn} "
    "question(s) per turn."
)
NO_BUDGET_LINE = "You may take up to {turns} turns in total."
FORCE_ASK_LINE = "You must ask at least {k} question(s) before you may answer."

# How to act, said after every invalid turn (after a sentence saying what was wrong).
FINAL_TURN = "You have no questions left. Give your final answer now."
EARLY_ANSWER = "You may not answer yet: ask at least {k} question(s) first ({asked} asked so far)."

K_PREDICTION_MAX = 4
"""The largest count the k-prediction prompts offer unless told otherwise (SPEC 3.2)."""

def reminder(wording: Wording, fmt: str) -> str:
    """How to act, said after an invalid turn in format `fmt`; ``{entity}`` is left to
    fill in."""
    return wording.reminder_tool if fmt == "tool" else wording.reminder_text


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


def k_prediction_options(max_k: int = K_PREDICTION_MAX) -> str:
    """The answer lines a k-prediction prompt offers: not ambiguous, every count 1..max_k,
    and ambiguous but not sure how many."""
    counts = "".join(f"Answer: {k}\n" for k in range(1, max_k + 1))
    return f"Answer: not ambiguous\n{counts}Answer: ambiguous but not sure how many"


def template_lines(wording: Wording, *, entity: str, fmt: str) -> tuple[str, ...]:
    """The example lines the seek prompts (system prompt and corrections) show with a
    placeholder in angle brackets: a reply line copying one verbatim is not an action.
    Answer lines the prompt shows whole are real answers, so they are not here."""
    if fmt != "text":
        return ()
    question = wording.question_template.format(entity=entity)
    if wording.answer_template is None:
        return (question,)
    return (question, wording.answer_template)


def problem_level_prompts(problem: Mapping[str, Any]) -> dict[str, str]:
    """The k-prediction / MSS-identification wording of a record's domain."""
    wording = domain_of(problem).wording
    return {"k_prediction": wording.k_prediction,
            "mss_identification": wording.mss_identification,
            "size_given": wording.size_given, "size_free": wording.size_free}


def seek_system_prompt(wording: Wording, *, entity: str, target: str, fmt: str,
                       per_turn: int, max_turns: int, budget: bool,
                       force_ask_k: int | None) -> str:
    """The seek system prompt in the domain's wording."""
    rules = wording.tool_rules if fmt == "tool" else wording.text_rules
    lines = [wording.intro, rules.format(
        per_turn=per_turn, entity=entity, target=target,
        question_template=wording.question_template.format(entity=entity),
        answer_template=wording.answer_template or "")]
    if budget:
        lines.append(BUDGET_LINE.format(turns=max_turns, per_turn=per_turn))
    else:
        lines.append(NO_BUDGET_LINE.format(turns=max_turns))
    if force_ask_k:
        lines.append(FORCE_ASK_LINE.format(k=force_ask_k))
    return "\n\n".join(lines)
