"""Inspect scorers of the problem-level protocols (protocols §3.2, 3.3): the model states the
degree of underspecification (:func:`k_prediction_scorer`) or names a minimal sufficient
set (:func:`mss_identification_scorer`) in one reply.

Both read the model's final completion and the ``problem`` record in the sample metadata;
the parsing and arithmetic are in :mod:`infoseek.scorers.problem_metrics`, the per-``k``
metric in :mod:`infoseek.scorers.group_metric`. A reply Inspect marks as stopped by the
context window or the output limit is not read (:func:`stopped_reply`). Value keys:
``accuracy, under, over, unsure, invalid`` for k prediction; ``exact, jaccard, recall,
invalid, unknown_names, predicted_size`` for MSS identification.
"""

from __future__ import annotations

from inspect_ai.scorer import Score, Scorer, Target, scorer
from inspect_ai.solver import TaskState

from infoseek.contract import STOP_REASONS
from infoseek.scorers.group_metric import mean_by_group
from infoseek.scorers.problem_metrics import (
    k_prediction_metrics,
    mss_identification_metrics,
    read_k_prediction,
    read_variable_list,
)
from infoseek.stored_forms import sample_problem, stored_option


def stopped_reply(state: TaskState) -> str | None:
    """The terminal reason of the sample's reply (`infoseek.contract.STOP_REASONS`:
    ``context_overflow``, ``truncated``) when Inspect marks it stopped by the context
    window or the output limit; such a reply is not read. None otherwise."""
    output = state.output
    if output is None or not output.choices:
        return None
    return STOP_REASONS.get(output.stop_reason)


def _stop_note(stop: str | None) -> str:
    return f"; the reply was not read: {stop}" if stop else ""


@scorer(metrics=[mean_by_group()])
def k_prediction_scorer() -> Scorer:
    """Score a degree-of-underspecification prediction (protocols §3.2).

    Reads the final answer line of ``state.output.completion`` (with everything after
    it, `read_k_prediction`) and compares it with metadata ``k`` (else the ``problem``
    record's ``k``). Value keys: ``accuracy, under, over, unsure, invalid``; why an
    answer was not credited is the score's metadata ``reason``.
    """

    async def score(state: TaskState, target: Target) -> Score:
        problem = sample_problem(state.metadata) or {}
        k = state.metadata.get("k", problem.get("k"))
        stop = stopped_reply(state)
        reading = None if stop else read_k_prediction(state.output.completion)
        predicted = reading.value if reading is not None and reading.valid else None
        reason = stop or (reading.reason if reading is not None else None)
        if k is None:
            return Score.unscored(
                reason="scoring_failed",
                answer=None if predicted is None else str(predicted),
                explanation="no k in the sample metadata or problem record",
            )
        values = k_prediction_metrics(predicted, int(k))
        return Score(
            value=values,
            answer=None if predicted is None else str(predicted),
            explanation=f"predicted {predicted!r}, true k = {int(k)}" + _stop_note(stop)
            + (f"; not credited: {reason}" if reason and not stop else ""),
            metadata={"reason": reason} if reason else None,
        )

    return score


@scorer(metrics=[mean_by_group()])
def mss_identification_scorer(canonical_only: bool | None = None) -> Scorer:
    """Score missing-variable identification (protocols §3.3).

    Parses the final ``Answer: a, b, c`` line of ``state.output.completion`` against the
    ``problem`` record's ``variables`` (else ``queryable``) and compares the named set
    with the canonical MSS (``canonical_only``) or the best MSS of the family. With
    ``canonical_only=None`` it follows the episode's stored ``forbid_alternatives`` option.
    Forbidding alternatives only singles out the canonical MSS when the record withholds
    them (a non-empty ``alternative_only``): a record that names several MSSs but withholds
    none (QuestBench Logic-Q, whose family is every sufficient single variable) is scored
    against the best member.

    Value keys: ``exact``, ``jaccard``, ``recall`` (0.0 when no list is read; names that
    are no variable make a list never exact),
    ``invalid`` (1.0 when no list is read: `read_variable_list`, with its reason in the
    score's metadata ``reason``), ``unknown_names`` (items naming no
    variable), ``predicted_size`` (number of distinct variables named).
    """

    async def score(state: TaskState, target: Target) -> Score:
        problem = sample_problem(state.metadata) or {}
        family = [list(member) for member in problem.get("mss_family") or []]
        variables = list(problem.get("variables") or problem.get("queryable") or [])
        use_canonical = (
            canonical_only
            if canonical_only is not None
            else bool(stored_option(state.store, "forbid_alternatives"))
        ) and (len(family) <= 1 or bool(problem.get("alternative_only")))
        stop = stopped_reply(state)
        reading = None if stop else read_variable_list(state.output.completion, variables,
                                                          family)
        parsed = None if reading is None or reading.names is None else (
            reading.names, reading.unknown)
        reason = stop or (reading.reason if reading is not None else None)
        names, unknown = parsed if parsed is not None else ([], 0)
        if reason is None and unknown:
            reason = "unknown"  # a name that is no variable: never an exact match
        values = mss_identification_metrics(names, family, canonical_only=use_canonical,
                                            unknown=unknown)
        if parsed is None:
            values = dict.fromkeys(values, 0.0)
        values["invalid"] = 1.0 if parsed is None else 0.0
        values["unknown_names"] = float(unknown)
        values["predicted_size"] = float(len(names))
        reference = "canonical MSS" if use_canonical else "best MSS of the family"
        canonical = family[0] if family else []
        return Score(
            value=values,
            answer=", ".join(names) if parsed is not None else None,
            explanation=(
                f"named {names or 'nothing'} ({unknown} unknown) vs {reference}; "
                f"canonical {canonical}" + _stop_note(stop)
                + (f"; not credited as exact: {reason}" if reason and not stop else "")
            ),
            metadata={"canonical_only": use_canonical, **({"reason": reason} if reason else {})},
        )

    return score
