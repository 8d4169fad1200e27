"""Reading the recorded turns of a seek episode: the turn records the solver stored under
``infoseek:turns`` (``docs/contracts.md``), read the same way by every seek metric
(:mod:`infoseek.scorers.seek_metrics`), explanation (:mod:`infoseek.scorers.seek_explanations`)
and the ordered and planning scorers.

What a turn asked (:func:`queries_of`, :func:`valid_query_variables`), whether it was an
attempt to ask (:func:`is_query_turn`), whether the target was Known after it
(:func:`known_after`), the final answer (:func:`final_answer_turn`, :func:`final_answer`),
the invalid records by reason (:func:`invalid_reason_counts`), the turn count
(:func:`turns_before_answer`) and the per-turn uncertainty (:func:`uncertainty_curves`).
Nothing the model *claims* is read, only what the solver recorded. Pure: no Inspect
imports.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

from infoseek import contract

INVALID_REASONS: tuple[str, ...] = contract.INVALID_REASONS
"""Invalid-query reasons (`infoseek.contract`); each gets an ``invalid_<reason>`` count. A
reason outside this list is counted under ``invalid_other``."""

NON_ASKING_REASONS: frozenset[str] = contract.NON_ASKING_REASONS
"""Invalid records that are not attempts to ask anything (a rejected early answer, a turn
with no action). They still count as invalid, but do not make a turn a *query turn* for
over-questioning."""

UNBOUNDED = contract.UNBOUNDED
"""The turn-record marker for "infinitely many target values are possible"."""


def possible_count(possible: Any) -> int | None:
    """How many target values a ``possible_target_values`` entry allows: the list's
    length, or None for the `UNBOUNDED` marker (infinitely many)."""
    if possible == UNBOUNDED:
        return None
    return len(possible)


# ---------------------------------------------------------------------------
# reading turn records


def queries_of(turn: dict) -> list[dict]:
    """The query records of a turn (``queries``), skipping anything that is not a dict."""
    queries = turn.get("queries") or []
    return [query for query in queries if isinstance(query, dict)]


def is_valid(query: dict) -> bool:
    """Whether a query record was valid (answered by the oracle)."""
    return query.get("valid") is True


def valid_query_variables(turns: Sequence[dict]) -> list[str]:
    """Variables of the valid queries, in the order they were asked (repeats kept)."""
    return [
        str(query.get("variable"))
        for turn in turns
        for query in queries_of(turn)
        if is_valid(query) and query.get("variable") is not None
    ]


def is_query_turn(turn: dict) -> bool:
    """A turn in which the model tried to ask something (validly or not)."""
    if turn.get("action") == "answer":
        return False
    return any(
        is_valid(query) or query.get("reason") not in NON_ASKING_REASONS
        for query in queries_of(turn)
    )


def known_after(turn: dict, previous: bool) -> bool:
    """The recorded Known flag after ``turn``; falls back to the possible-values count,
    then to the previous state when the record carries neither."""
    known = turn.get("known")
    if isinstance(known, bool):
        return known
    possible = turn.get("possible_target_values")
    if isinstance(possible, list):
        return len(possible) == 1
    if possible == UNBOUNDED:
        return False
    return previous


def final_answer_turn(turns: Sequence[dict]) -> dict | None:
    """The last turn whose action is ``"answer"`` (else ``None``)."""
    for turn in reversed(turns):
        if turn.get("action") == "answer":
            return turn
    return None


def final_answer(turns: Sequence[dict]) -> Any:
    """The parsed answer of the last turn whose action is ``"answer"`` (else ``None``)."""
    turn = final_answer_turn(turns)
    return None if turn is None else turn.get("answer")


def invalid_reason_counts(turns: Sequence[dict]) -> dict[str, int]:
    """Counts of invalid query records by reason (only reasons that occur).

    A turn whose action is ``"invalid"`` or ``"none"`` and that recorded no invalid query
    still cost a turn; it is counted once under the turn's own ``reason`` (for example
    ``empty``, ``no_action``, ``early_answer``), as ``no_action`` for ``"none"`` without a
    reason, and under ``other`` when no known reason was recorded.
    """
    counts: dict[str, int] = {}
    for turn in turns:
        invalid_queries = 0
        for query in queries_of(turn):
            if is_valid(query):
                continue
            invalid_queries += 1
            reason = query.get("reason")
            key = reason if reason in INVALID_REASONS else "other"
            counts[key] = counts.get(key, 0) + 1
        if not invalid_queries and turn.get("action") in ("invalid", "none"):
            reason = turn.get("reason")
            if reason in INVALID_REASONS:
                key = reason
            else:
                key = "no_action" if turn.get("action") == "none" else "other"
            counts[key] = counts.get(key, 0) + 1
    return counts


# ---------------------------------------------------------------------------
# turn counts and per-turn curves


def turns_before_answer(turns: Sequence[dict]) -> int:
    """The ``total_turns`` count: turns whose action is not ``"answer"``, the final turn
    aside (the one after the turn cap, in which only an answer counts: the prompt offers
    ``max_turns`` turns to ask and then that one, so the count never exceeds what the
    prompt said)."""
    return sum(1 for turn in turns
               if turn.get("action") != "answer" and turn.get("final_turn") is not True)


def uncertainty_curves(
    turns: list[dict], *, initial_possible: list | str
) -> dict[str, list[float | None]]:
    """Per-turn uncertainty about the target.

    Returns ``{"uncertainty_curve": [...], "entropy_curve": [...]}``: the number of target
    values still possible, first before any turn (``len(initial_possible)``) and then
    after each turn (a turn record without ``possible_target_values`` repeats the
    previous count), and ``log2`` of each count (uniform prior over the remaining values;
    a count of 0, which only an infeasible record could give, has entropy 0).
    Infinitely many values (the `UNBOUNDED` marker ``"many"``, unbounded engines) are
    None in both curves (JSON null), so the curves stay JSON-safe.
    """
    counts: list[int | None] = [possible_count(initial_possible)]
    for turn in turns:
        possible = turn.get("possible_target_values")
        if isinstance(possible, list) or possible == UNBOUNDED:
            counts.append(possible_count(possible))
        else:
            counts.append(counts[-1])
    return {
        "uncertainty_curve": [None if count is None else float(count) for count in counts],
        "entropy_curve": [
            None if count is None else (math.log2(count) if count > 0 else 0.0)
            for count in counts
        ],
    }
