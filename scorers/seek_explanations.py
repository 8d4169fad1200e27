"""One-line explanations of the seek scores: what Inspect View shows beside each value
(`infoseek.scorers.seek`), written from the recorded turns only
(`infoseek.scorers.seek_turns`), like the metrics of `infoseek.scorers.seek_metrics` they
explain."""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

from infoseek.contract import TERMINAL_REASONS
from infoseek.scorers.seek_metrics import mss_family
from infoseek.scorers.seek_turns import (
    final_answer_turn,
    invalid_reason_counts,
    turns_before_answer,
    valid_query_variables,
)

_ENDINGS = {"context_overflow": "the prompt no longer fit the model's context",
            "truncated": "the reply was cut at the output token limit"}


def value_text(value: Any) -> str:
    """A target or answer value as the log shows it: ``yes``/``no`` for booleans (the
    labels of the sample targets), strings as they are, anything else as JSON;
    ``none`` for ``None``."""
    if value is None:
        return "none"
    if isinstance(value, bool):  # the yes/no labels of the sample targets
        return "yes" if value else "no"
    return value if isinstance(value, str) else json.dumps(value)


def answer_explanation(turns: Sequence[dict], target_value: Any) -> str:
    """E.g. ``"answer yes vs target no"``; ``"no answer vs target no"``."""
    answer_turn = final_answer_turn(turns)
    if answer_turn is None:
        return f"no answer vs target {value_text(target_value)}"
    return f"answer {value_text(answer_turn.get('answer'))} vs target {value_text(target_value)}"


def turn_count_text(turns: Sequence[dict]) -> str:
    """The turn count in the words of ``total_turns`` and of the transcript's turn numbers:
    ``"5 turn(s) + answer (turn 6)"``, ``"10 turn(s), no answer"``, ``"10 turn(s), no
    answer in the final turn (turn 11)"`` (the answer-only turn after the cap, which
    ``total_turns`` does not count), ``"3 turn(s), no answer: ended by context_overflow
    (...)"``."""
    before = turns_before_answer(turns)
    answer_turn = final_answer_turn(turns)
    if answer_turn is None:
        ended = turns[-1].get("reason") if turns and isinstance(turns[-1], dict) else None
        if ended in TERMINAL_REASONS:
            return f"{before} turn(s), no answer: ended by {ended} ({_ENDINGS[ended]})"
        last = turns[-1] if turns and isinstance(turns[-1], dict) else {}
        if last.get("final_turn") is True:
            return (f"{before} turn(s), no answer in the final turn "
                    f"(turn {last.get('turn', len(turns))})")
        return f"{before} turn(s), no answer"
    number = answer_turn.get("turn")
    if not isinstance(number, int) or isinstance(number, bool):
        number = next(i for i, t in enumerate(turns, start=1) if t is answer_turn)
    return f"{before} turn(s) + answer (turn {number})"


def sufficiency_explanation(turns: Sequence[dict], values: dict[str, float | None]) -> str:
    """E.g. ``"5 turn(s) + answer (turn 6); sufficient after turn 3; kept asking after
    sufficiency"``, from the values of :func:`sufficiency_metrics`."""
    text = f"{turn_count_text(turns)}; "
    text += "sufficient" if values.get("final_sufficiency") == 1.0 else "not sufficient"
    reached = values.get("turn_to_sufficiency")
    if reached is not None:
        text += " from the start" if reached == 0 else f" after turn {int(reached)}"
    if values.get("over_questioning") == 1.0:
        text += "; kept asking after sufficiency"
    return text


def query_explanation(problem: dict, turns: Sequence[dict]) -> str:
    """E.g. ``"valid queries: a, d; canonical MSS: a, b"``."""
    asked = valid_query_variables(turns)
    family = mss_family(problem)
    canonical = ", ".join(family[0]) if family and family[0] else "none"
    return f"valid queries: {', '.join(asked) or 'none'}; canonical MSS: {canonical}"


def invalid_explanation(turns: Sequence[dict]) -> str:
    """E.g. ``"2 invalid: repeated=1, unknown=1"``; ``"0 invalid"``."""
    counts = invalid_reason_counts(turns)
    total = sum(counts.values())
    if not total:
        return "0 invalid"
    return f"{total} invalid: " + ", ".join(f"{k}={v}" for k, v in sorted(counts.items()))
