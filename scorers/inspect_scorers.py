"""Inspect scorers of the infoseek protocols (their per-``k`` metric:
:mod:`infoseek.scorers.group_metric`).

Scorers
-------
- :func:`seek_scorers` returns the four scorers of a multi-turn seek episode, one per
  group of :data:`infoseek.scorers.seek_metrics.SEEK_SCORE_GROUPS`, so the Inspect View shows four
  short rows instead of one very wide one:

  ========================  ==================================================================
  scorer (name in the log)  value keys
  ========================  ==================================================================
  ``answer``                ``accuracy``
  ``sufficiency``           ``final_sufficiency, turn_to_sufficiency, total_turns,
                            over_questioning``
  ``queries``               ``first_turn_hit, second_turn_hit, query_correctness,
                            query_coverage, best_mss_hits`` (+ ``order_correctness`` on
                            problems with a required order, absent elsewhere); metadata
                            ``diagnostics`` (reasoning-trace diagnostics, not a value)
  ``invalid``               ``invalid_total``, ``invalid_<reason>`` for every reason
  ========================  ==================================================================

  They read the sample store (``infoseek:turns``, ``infoseek:problem``,
  ``infoseek:initial_possible``, ``infoseek:options``) and the hidden ``target_value`` in
  the sample metadata; the arithmetic is in :mod:`infoseek.scorers.seek_metrics`.
  :func:`seek_values` merges one sample's four values back into one flat dict and
  :func:`log_metrics` merges the metrics of a log.
- :func:`k_prediction_scorer` and :func:`mss_identification_scorer` score the
  problem-level protocols from the model's final completion and the ``problem`` record
  in the sample metadata.

Each returns a :class:`Score` whose value is a flat dict of floats. A metric that does
not apply to a sample (``None`` in :mod:`infoseek.scorers.seek_metrics`) is stored as NaN:
Inspect's epoch reducer would turn ``None`` into 0.0, whereas it skips NaN.

Metric names in the EvalLog
---------------------------
Every scorer uses :func:`infoseek.scorers.group_metric.mean_by_group` (grouped by the sample
metadata key ``k``; importable from here too), so the scorer's entry of
``log.results.scores`` (named after the scorer) holds, for every value key ``<name>``:

- ``<name>``: mean over the samples where the value applies (NaN/None skipped);
- ``<name>_stderr``: its standard error (sample standard deviation / sqrt(n); 0.0 for
  a single value);
- ``<name>_k<k>`` for every ``k`` present.

A name is absent when no sample has a value for it (``second_turn_hit_k1`` when no k = 1
episode made two valid queries). The ``invalid`` scorer reports ``invalid_total`` (with
stderr and per ``k``) and, overall only, the count of each reason that occurred at least
once. Value keys of the problem-level scorers: ``accuracy, under, over, unsure,
invalid`` for k prediction; ``exact, jaccard, recall, invalid, unknown_names,
predicted_size`` for MSS identification.
"""

from __future__ import annotations

import json
import math
from collections.abc import Mapping
from functools import cached_property
from typing import Any

from inspect_ai.log import EvalLog
from inspect_ai.scorer import Score, Scorer, Target, scorer
from inspect_ai.solver import TaskState

from infoseek.contract import (
    STOP_REASONS,
    STORE_INITIAL,
    STORE_OPTIONS,
    STORE_PROBLEM,
    STORE_TURNS,
)
from infoseek.records import problem_from_store, sample_problem, turns_from_store
from infoseek.scorers.group_metric import mean_by_group
from infoseek.scorers.problem_metrics import (
    k_prediction_metrics,
    mss_identification_metrics,
    parse_k_prediction,
    parse_variable_list,
)
from infoseek.scorers.seek_explanations import (
    answer_explanation,
    invalid_explanation,
    query_explanation,
    sufficiency_explanation,
    value_text,
)
from infoseek.scorers.seek_metrics import (
    INVALID_METRIC_NAMES,
    SEEK_SCORE_GROUPS,
    answer_kind_of,
    answer_metrics,
    final_answer,
    invalid_metrics,
    invalid_reason_counts,
    query_metrics,
    sufficiency_metrics,
    uncertainty_curves,
)

# ---------------------------------------------------------------------------
# helpers


def _nan_for_none(values: Mapping[str, float | None]) -> dict[str, float]:
    return {name: (math.nan if value is None else float(value)) for name, value in values.items()}


def _answer_text(value: Any) -> str | None:
    return None if value is None else value_text(value)


def _hidden_target(state: TaskState, target: Target) -> Any:
    if "target_value" in state.metadata:
        return state.metadata["target_value"]
    text = target.text
    try:
        return json.loads(text)
    except (TypeError, ValueError):
        return text


def _forbid_alternatives(state: TaskState) -> bool:
    options = state.store.get(STORE_OPTIONS) or {}
    if isinstance(options, dict) and "forbid_alternatives" in options:
        return bool(options["forbid_alternatives"])
    return bool(state.metadata.get("forbid_alternatives", True))


def _problem_from_metadata(state: TaskState) -> dict:
    return sample_problem(state.metadata) or {}


# ---------------------------------------------------------------------------
# seek protocol


class SeekEpisode:
    """What the seek scorers read from one finished sample.

    ``turns`` is read at once; the problem record (one line of JSON in the store) and
    what derives from it are decoded on first use, so the scorers that need only the
    turns (``answer``, ``invalid``, and ``sufficiency`` when the store holds the initial
    values) never decode it.

    Reads ``infoseek:turns``, ``infoseek:problem`` (falls back to metadata ``problem``),
    ``infoseek:initial_possible`` (falls back to the record's ``target_values``) and
    ``infoseek:options`` from the store, and the hidden value from metadata
    ``target_value`` (falls back to the target text, parsed as JSON when it is JSON).
    ``queryable`` leaves out the alternative-only variables when alternatives are
    forbidden.
    """

    def __init__(self, state: TaskState, target: Target) -> None:
        self._state = state
        self._target = target
        self.turns: list[dict] = turns_from_store(state.store.get(STORE_TURNS)) or []

    @cached_property
    def problem(self) -> dict:
        return (problem_from_store(self._state.store.get(STORE_PROBLEM))
                or _problem_from_metadata(self._state))

    @cached_property
    def initial_possible(self) -> list | str:
        initial_possible = self._state.store.get(STORE_INITIAL)
        if initial_possible is None:
            return list(self.problem.get("target_values") or [])
        if isinstance(initial_possible, str):  # "many": infinitely many values
            return initial_possible
        return list(initial_possible)

    @cached_property
    def target_value(self) -> Any:
        return _hidden_target(self._state, self._target)

    @cached_property
    def queryable(self) -> list | None:
        queryable = self.problem.get("queryable")
        if queryable is not None and _forbid_alternatives(self._state):
            excluded = set(self.problem.get("alternative_only") or [])
            queryable = [name for name in queryable if name not in excluded]
        return queryable


def episode_diagnostics(episode: SeekEpisode) -> dict[str, Any]:
    """Reasoning-trace diagnostics of the episode (`infoseek.scorers.trace_diagnostics`),
    from the evaluated model's events in the sample transcript."""
    from inspect_ai.log import transcript

    from infoseek.scorers.trace_diagnostics import episode_reasoning, trace_diagnostics

    family = [list(m) for m in episode.problem.get("mss_family") or []]
    mss = family[:1] if _forbid_alternatives(episode._state) and family else family
    return trace_diagnostics(episode_reasoning(transcript().events),
                             episode.queryable or [], {v for m in mss for v in m})


def seek_episode(state: TaskState, target: Target) -> SeekEpisode:
    """The recorded episode of a sample (see :class:`SeekEpisode`)."""
    return SeekEpisode(state, target)


@scorer(metrics=[mean_by_group()], name="answer")
def answer_scorer() -> Scorer:
    """Seek episode, ``answer``: ``accuracy`` of the final answer against the hidden
    value (:func:`infoseek.scorers.seek_metrics.answer_metrics`)."""

    async def score(state: TaskState, target: Target) -> Score:
        episode = seek_episode(state, target)
        return Score(
            value=answer_metrics(episode.turns, episode.target_value,
                                 kind=answer_kind_of(episode.problem)),
            answer=_answer_text(final_answer(episode.turns)),
            explanation=answer_explanation(episode.turns, episode.target_value),
        )

    return score


@scorer(metrics=[mean_by_group()], name="sufficiency")
def sufficiency_scorer() -> Scorer:
    """Seek episode, ``sufficiency``: ``final_sufficiency, turn_to_sufficiency,
    total_turns, over_questioning`` (:func:`infoseek.scorers.seek_metrics.sufficiency_metrics`);
    the metadata holds ``uncertainty_curve`` and ``entropy_curve``."""

    async def score(state: TaskState, target: Target) -> Score:
        episode = seek_episode(state, target)
        values = sufficiency_metrics(episode.turns, initial_possible=episode.initial_possible)
        return Score(
            value=_nan_for_none(values),
            explanation=sufficiency_explanation(episode.turns, values),
            metadata=uncertainty_curves(episode.turns,
                                        initial_possible=episode.initial_possible),
        )

    return score


@scorer(metrics=[mean_by_group()], name="queries")
def queries_scorer() -> Scorer:
    """Seek episode, ``queries``: hits and coverage of the valid queries against the
    MSS family (:func:`infoseek.scorers.seek_metrics.query_metrics`); ``order_correctness`` only
    on problems with a required order."""

    async def score(state: TaskState, target: Target) -> Score:
        episode = seek_episode(state, target)
        values = query_metrics(episode.problem, episode.turns,
                               queryable_for_coverage=episode.queryable,
                               target_value=episode.target_value)
        return Score(
            value=_nan_for_none(values),
            explanation=query_explanation(episode.problem, episode.turns),
            metadata={"diagnostics": episode_diagnostics(episode)},
        )

    return score


_INVALID_REASON_NAMES = tuple(name for name in INVALID_METRIC_NAMES if name != "invalid_total")


@scorer(
    metrics=[mean_by_group(overall_only=_INVALID_REASON_NAMES, skip_zero=_INVALID_REASON_NAMES)],
    name="invalid",
)
def invalid_scorer() -> Scorer:
    """Seek episode, ``invalid``: ``invalid_total`` and the count of each reason
    (:func:`infoseek.scorers.seek_metrics.invalid_metrics`); the metrics list only the reasons
    that occurred. The metadata holds ``invalid_reasons`` (counts of those that occurred
    in this sample)."""

    async def score(state: TaskState, target: Target) -> Score:
        episode = seek_episode(state, target)
        return Score(
            value=invalid_metrics(episode.turns),
            explanation=invalid_explanation(episode.turns),
            metadata={"invalid_reasons": invalid_reason_counts(episode.turns)},
        )

    return score


SEEK_SCORER_NAMES: tuple[str, ...] = tuple(SEEK_SCORE_GROUPS)
"""The names the seek scorers carry in the log (``sample.scores``, ``results.scores``)."""


def seek_scorers() -> list[Scorer]:
    """The scorers of every seek task, in display order: ``answer``, ``sufficiency``,
    ``queries``, ``invalid``."""
    return [answer_scorer(), sufficiency_scorer(), queries_scorer(), invalid_scorer()]


def seek_values(scores: Mapping[str, Score] | None) -> dict[str, Any]:
    """One sample's seek values as one flat dict (``sample.scores`` of an EvalSample)."""
    merged: dict[str, Any] = {}
    for name in SEEK_SCORER_NAMES:
        score = (scores or {}).get(name)
        if score is not None and isinstance(score.value, dict):
            merged.update(score.value)
    return merged


def log_metrics(log: EvalLog) -> dict[str, float]:
    """Every metric of a log, from all its scorers, as ``{name: value}`` (metric names
    do not repeat across the seek scorers)."""
    if log.results is None:
        return {}
    return {
        name: metric.value
        for eval_score in log.results.scores
        for name, metric in eval_score.metrics.items()
    }


# ---------------------------------------------------------------------------
# problem-level protocols


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

    Parses the final ``Answer:`` line of ``state.output.completion`` and compares it
    with metadata ``k`` (else the ``problem`` record's ``k``). Value keys:
    ``accuracy, under, over, unsure, invalid``.
    """

    async def score(state: TaskState, target: Target) -> Score:
        problem = _problem_from_metadata(state)
        k = state.metadata.get("k", problem.get("k"))
        stop = stopped_reply(state)
        predicted = None if stop else parse_k_prediction(state.output.completion)
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
            explanation=f"predicted {predicted!r}, true k = {int(k)}" + _stop_note(stop),
        )

    return score


@scorer(metrics=[mean_by_group()])
def mss_identification_scorer(canonical_only: bool | None = None) -> Scorer:
    """Score missing-variable identification (protocols §3.3).

    Parses the final ``Answer: a, b, c`` line of ``state.output.completion`` against the
    ``problem`` record's ``variables`` (else ``queryable``) and compares the named set
    with the canonical MSS (``canonical_only``) or the best MSS of the family. With
    ``canonical_only=None`` it follows metadata ``forbid_alternatives`` (default True).
    Forbidding alternatives only singles out the canonical MSS when the record withholds
    them (a non-empty ``alternative_only``): a record that names several MSSs but withholds
    none (QuestBench Logic-Q, whose family is every sufficient single variable) is scored
    against the best member.

    Value keys: ``exact``, ``jaccard``, ``recall`` (0.0 when no answer line),
    ``invalid`` (1.0 when there is no answer line), ``unknown_names`` (items naming no
    variable), ``predicted_size`` (number of distinct variables named).
    """

    async def score(state: TaskState, target: Target) -> Score:
        problem = _problem_from_metadata(state)
        family = [list(member) for member in problem.get("mss_family") or []]
        variables = list(problem.get("variables") or problem.get("queryable") or [])
        use_canonical = (
            canonical_only
            if canonical_only is not None
            else bool(state.metadata.get("forbid_alternatives", True))
        ) and (len(family) <= 1 or bool(problem.get("alternative_only")))
        stop = stopped_reply(state)
        parsed = None if stop else parse_variable_list(state.output.completion, variables)
        names, unknown = parsed if parsed is not None else ([], 0)
        values = mss_identification_metrics(names, family, canonical_only=use_canonical)
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
            ),
            metadata={"canonical_only": use_canonical},
        )

    return score
