"""Per-episode metrics of the multi-turn seek protocol (protocols §4).

Everything here is computed from the recorded interaction only: the turn records the
solver stored under ``infoseek:turns`` (see ``docs/contracts.md``), the problem record
and the hidden target value. Nothing the model *claims* (for instance "I now know the
answer") enters a metric. The module is pure: no Inspect imports, so reports and tests
can call it on logs read back from disk.

:func:`episode_metrics` returns the scalar metrics of one episode as a flat dict of
``float | None`` (``None`` means "not applicable", e.g. the turn to sufficiency of an
episode that never became sufficient). The turn records are read by
:mod:`infoseek.scorers.seek_turns`, which also gives the per-turn lists
(:func:`~infoseek.scorers.seek_turns.uncertainty_curves`: number of target values still
possible, and its uniform-prior entropy), kept apart so the scalar dict stays flat.

The same metrics come in the four groups the Inspect scorers report
(:data:`SEEK_SCORE_GROUPS`): :func:`answer_metrics`, :func:`sufficiency_metrics`,
:func:`query_metrics` and :func:`invalid_metrics`, each with a one-line ``*_explanation``
beside it (:mod:`infoseek.scorers.seek_explanations`); :func:`episode_metrics` is their union.
The answer comparison (:func:`answers_match`) lives in :mod:`infoseek.scorers.answer_match` and
is re-exported here.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

from rapidfuzz.distance import DamerauLevenshtein

from infoseek.contract import UNDETERMINED
from infoseek.domains import UnknownDomain, domain_of
from infoseek.scorers.answer_match import answers_match
from infoseek.scorers.seek_turns import (
    INVALID_REASONS,
    final_answer_turn,
    invalid_reason_counts,
    is_query_turn,
    known_after,
    possible_count,
    queries_of,
    turns_before_answer,
    valid_query_variables,
)

SCALAR_METRIC_NAMES: tuple[str, ...] = (
    "accuracy",
    "final_sufficiency",
    "turn_to_sufficiency",
    "total_turns",
    "over_questioning",
    "first_turn_hit",
    "second_turn_hit",
    "query_correctness",
    "query_coverage",
    "best_mss_hits",
    "order_correctness",
    *(f"invalid_{reason}" for reason in INVALID_REASONS),
    "invalid_other",
    "invalid_total",
)
"""Every key :func:`episode_metrics` returns, in a stable order."""

INVALID_METRIC_NAMES: tuple[str, ...] = (
    "invalid_total",
    *(f"invalid_{reason}" for reason in INVALID_REASONS),
    "invalid_other",
)
"""The keys of :func:`invalid_metrics`: the total first, then one count per reason."""

SEEK_SCORE_GROUPS: dict[str, tuple[str, ...]] = {
    "final_answer": ("accuracy",),
    "sufficiency": ("final_sufficiency", "turn_to_sufficiency", "total_turns",
                    "over_questioning"),
    "queries": ("first_turn_hit", "second_turn_hit", "query_correctness", "query_coverage",
                "best_mss_hits", "order_correctness"),
    "invalid": INVALID_METRIC_NAMES,
}
"""The scalar metrics by the seek scorer that reports them (one scorer per group, named
after the group). Together they are :data:`SCALAR_METRIC_NAMES`; ``order_correctness``
is present only for problems with a ``required_order``."""


# ---------------------------------------------------------------------------
# MSS comparisons


def mss_family(problem: dict) -> list[list[str]]:
    """The problem's MSS family (canonical MSS first), its names as strings."""
    family = problem.get("mss_family") or []
    return [[str(name) for name in member] for member in family]


def _coverage(mss: Sequence[str], asked: Iterable[str]) -> float | None:
    if not mss:
        return None
    asked_set = set(asked)
    return sum(1 for name in set(mss) if name in asked_set) / len(set(mss))


def order_correctness(hits_in_order: Sequence[str], required_order: Sequence[str]) -> float | None:
    """``1 - DL(Q*, Q) / max(|Q*|, |Q|)`` over element sequences (``None`` if both empty).

    ``hits_in_order`` is Q*, already deduplicated; ``required_order`` is Q.
    """
    longest = max(len(hits_in_order), len(required_order))
    if longest == 0:
        return None
    distance = DamerauLevenshtein.distance(list(hits_in_order), list(required_order))
    return 1.0 - distance / longest


def required_order_of(problem: dict, target_value: Any = None) -> list[str] | None:
    """The order Q the queries of an instance should follow: the problem's
    ``required_orders`` entry for the instance's target value (keyed by the value as text)
    when there is one, else the problem's ``required_order`` list; None when the problem
    has neither (unordered domains)."""
    orders = problem.get("required_orders")
    if isinstance(orders, dict) and target_value is not None:
        order = orders.get(str(target_value))
        if isinstance(order, list):
            return [str(v) for v in order]
    order = problem.get("required_order")
    return [str(v) for v in order] if isinstance(order, list) else None


def _dedupe(names: Iterable[str]) -> list[str]:
    seen: set[str] = set()
    ordered: list[str] = []
    for name in names:
        if name not in seen:
            seen.add(name)
            ordered.append(name)
    return ordered


# ---------------------------------------------------------------------------
# public API


def answer_kind_of(problem: dict) -> str | None:
    """The answer kind of the problem's domain (`infoseek.domains`), or None for a record
    of no registered domain (answers are then compared by value alone)."""
    try:
        return domain_of(problem).answer_kind
    except UnknownDomain:
        return None


def answer_metrics(turns: Sequence[dict], target_value: Any, *,
                   kind: str | None = None) -> dict[str, float]:
    """``accuracy``: 1.0 iff the last ``answer`` turn's answer equals ``target_value``
    by the comparison of answer kind `kind` (see :func:`answers_match`; the problem's
    domain gives it, `answer_kind_of`); 0.0 when no answer was given. The answer
    `infoseek.contract.UNDETERMINED` matches only a target that is itself (a problem no
    question can settle, issue 34)."""
    answer_turn = final_answer_turn(turns)
    given = None if answer_turn is None else answer_turn.get("answer")
    if UNDETERMINED in (given, target_value):  # "cannot be determined" matches only itself
        return {"accuracy": 1.0 if given == target_value else 0.0}
    correct = answer_turn is not None and answers_match(given, target_value, kind=kind)
    return {"accuracy": 1.0 if correct else 0.0}


def sufficiency_metrics(
    turns: Sequence[dict], *, initial_possible: list | str
) -> dict[str, float | None]:
    """``final_sufficiency``, ``turn_to_sufficiency``, ``total_turns``, ``over_questioning``
    (definitions in :func:`episode_metrics`)."""
    initially_known = possible_count(initial_possible) == 1
    known = initially_known
    final_known = initially_known
    turn_to_sufficiency: float | None = 0.0 if initially_known else None
    over_questioning = 0.0
    for position, turn in enumerate(turns, start=1):
        if known and is_query_turn(turn):
            over_questioning = 1.0
        known = known_after(turn, known)
        if queries_of(turn):
            final_known = known
        if known and turn_to_sufficiency is None:
            turn_to_sufficiency = float(position)
    return {
        "final_sufficiency": 1.0 if final_known else 0.0,
        "turn_to_sufficiency": turn_to_sufficiency,
        "total_turns": float(turns_before_answer(turns)),
        "over_questioning": over_questioning,
    }


def query_metrics(
    problem: dict, turns: Sequence[dict], *, queryable_for_coverage: list | None = None,
    target_value: Any = None,
) -> dict[str, float | None]:
    """``first_turn_hit``, ``second_turn_hit``, ``query_correctness``, ``query_coverage``,
    ``best_mss_hits``, and ``order_correctness`` only when the problem has a required
    order (:func:`required_order_of` for `target_value`; the key is absent otherwise;
    definitions in :func:`episode_metrics`)."""
    metrics: dict[str, float | None] = {}
    family = mss_family(problem)
    canonical = family[0] if family else []
    canonical_set = set(canonical)
    asked = valid_query_variables(turns)
    metrics["first_turn_hit"] = (1.0 if asked[0] in canonical_set else 0.0) if asked else None
    if len(asked) >= 2:
        metrics["second_turn_hit"] = (
            1.0 if asked[1] in canonical_set and asked[1] != asked[0] else 0.0
        )
    else:
        metrics["second_turn_hit"] = None
    metrics["query_correctness"] = (
        sum(1 for name in asked if name in canonical_set) / len(asked) if asked else None
    )
    metrics["query_coverage"] = _coverage(canonical, asked)

    allowed = None if queryable_for_coverage is None else {str(v) for v in queryable_for_coverage}
    coverages = [
        coverage
        for index, member in enumerate(family)
        if index == 0 or allowed is None or set(member) <= allowed
        if (coverage := _coverage(member, asked)) is not None
    ]
    metrics["best_mss_hits"] = max(coverages) if coverages else None

    required_order = required_order_of(problem, target_value)
    if required_order is not None:
        hits = _dedupe(name for name in asked if name in canonical_set)
        metrics["order_correctness"] = order_correctness(hits, required_order)
    return metrics


def invalid_metrics(turns: Sequence[dict]) -> dict[str, float]:
    """The keys of :data:`INVALID_METRIC_NAMES`: ``invalid_total``, then
    ``invalid_<reason>`` for every reason of :data:`INVALID_REASONS` and ``invalid_other``
    (see :func:`invalid_reason_counts`). Every key is always present, so the values of
    one sample have the same keys in every epoch."""
    counts = invalid_reason_counts(turns)
    metrics = {"invalid_total": float(sum(counts.values()))}
    for reason in INVALID_REASONS:
        metrics[f"invalid_{reason}"] = float(counts.get(reason, 0))
    metrics["invalid_other"] = float(counts.get("other", 0))
    return metrics


def episode_metrics(
    problem: dict,
    turns: list[dict],
    target_value: Any,
    *,
    initial_possible: list | str,
    queryable_for_coverage: list | None = None,
) -> dict[str, float | None]:
    """Scalar metrics of one seek episode: the union of the four groups of
    :data:`SEEK_SCORE_GROUPS`, with every key present.

    Args:
      problem: the problem record (``mss_family`` with the canonical MSS first; optional
        ``required_order``, and ``required_orders`` per target value, for ordered
        domains).
      turns: the recorded turn records, in order.
      target_value: the hidden target value ``y`` of this task instance.
      initial_possible: target values possible before the first turn (under ``A``), or
        the marker ``"many"`` (infinitely many).
      queryable_for_coverage: the variables the model was allowed to ask in this
        episode. When given, MSS family members that need a variable outside it are
        skipped by ``best_mss_hits`` (the model could not have covered them); the
        canonical MSS is always considered. ``None`` considers the whole family.

    Returns:
      A dict with exactly the keys of :data:`SCALAR_METRIC_NAMES`:

      - ``accuracy``: 1.0 iff the last ``answer`` turn's answer equals ``target_value``
        (see :func:`answers_match`); 0.0 when no answer was given.
      - ``final_sufficiency``: the Known flag after the last turn that carried query
        records (an oracle reply or refusal); with no such turn, whether the target was
        Known initially (``len(initial_possible) == 1``).
      - ``turn_to_sufficiency``: 1-based position of the first turn after which Known
        holds; 0.0 if Known before any turn; ``None`` if never.
      - ``total_turns``: number of turns whose action is not ``"answer"``, the final
        (answer-only) turn after the cap aside, so at most ``max_turns`` (see
        :func:`turns_before_answer`).
      - ``over_questioning``: 1.0 if a query turn (one with an asking attempt, valid or
        not) came after Known already held (initially or after an earlier turn).
      - ``first_turn_hit`` / ``second_turn_hit``: whether the first valid query is in
        the canonical MSS; whether the second valid query is a canonical MSS variable
        different from the first. ``None`` with fewer than 1 / 2 valid queries.
      - ``query_correctness``: share of valid queries that are canonical MSS variables
        (``None`` with no valid query).
      - ``query_coverage``: share of canonical MSS variables validly queried (``None``
        when the canonical MSS is empty).
      - ``best_mss_hits``: the highest such coverage over the MSS family.
      - ``order_correctness``: only when the problem has a required order, else
        ``None``; see :func:`order_correctness`, with Q* the deduplicated canonical-MSS
        hits in query order and Q :func:`required_order_of` the instance.
      - ``invalid_<reason>`` for every reason of :data:`INVALID_REASONS`, plus
        ``invalid_other`` and ``invalid_total`` (see :func:`invalid_reason_counts`).
    """
    values: dict[str, float | None] = {
        **answer_metrics(turns, target_value, kind=answer_kind_of(problem)),
        **sufficiency_metrics(turns, initial_possible=initial_possible),
        **query_metrics(problem, turns, queryable_for_coverage=queryable_for_coverage,
                        target_value=target_value),
        **invalid_metrics(turns),
    }
    return {name: values.get(name) for name in SCALAR_METRIC_NAMES}
