"""Inspect scorers of the multi-turn seek protocol (their per-``k`` metric:
:mod:`infoseek.scorers.group_metric`).

:func:`seek_scorers` returns the four scorers of a seek episode, one per group of
:data:`infoseek.scorers.seek_metrics.SEEK_SCORE_GROUPS`, so the Inspect View shows four
short rows instead of one very wide one:

========================  ==================================================================
scorer (name in the log)  value keys
========================  ==================================================================
``final_answer``          ``accuracy``
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
the sample metadata (:class:`SeekEpisode`); the arithmetic is in
:mod:`infoseek.scorers.seek_metrics`. :func:`seek_values` merges one sample's four values
back into one flat dict.

Each returns a :class:`Score` whose value is a flat dict of floats. A metric that does
not apply to a sample (``None`` in :mod:`infoseek.scorers.seek_metrics`) is stored as NaN:
Inspect's epoch reducer would turn ``None`` into 0.0, whereas it skips NaN.

Metric names in the EvalLog
---------------------------
Every scorer uses :func:`infoseek.scorers.group_metric.mean_by_group` (grouped by the sample
metadata key ``k``), so the scorer's entry of ``log.results.scores`` (named after the
scorer) holds, for every value key ``<name>``:

- ``<name>``: mean over the samples where the value applies (NaN/None skipped);
- ``<name>_stderr``: its standard error (sample standard deviation / sqrt(n); 0.0 for
  a single value);
- ``<name>_k<k>`` for every ``k`` present.

A name is absent when no sample has a value for it (``second_turn_hit_k1`` when no k = 1
episode made two valid queries). The ``invalid`` scorer reports ``invalid_total`` (with
stderr and per ``k``) and, overall only, the count of each reason that occurred at least
once. :func:`infoseek.scorers.group_metric.log_metrics` merges the metrics of a log.
"""

from __future__ import annotations

import json
import math
from collections.abc import Mapping
from functools import cached_property
from typing import Any

from inspect_ai.scorer import Score, Scorer, Target, scorer
from inspect_ai.solver import TaskState

from infoseek.contract import (
    STORE_INITIAL,
    STORE_OPTIONS,
    STORE_PROBLEM,
    STORE_ROLES,
    STORE_TURNS,
    UNDETERMINED,
)
from infoseek.scorers.group_metric import mean_by_group
from infoseek.scorers.recorded_names import current_scorer_name
from infoseek.scorers.role_metrics import role_error_rates, role_values
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
    invalid_metrics,
    query_metrics,
    sufficiency_metrics,
)
from infoseek.scorers.seek_turns import final_answer, invalid_reason_counts, uncertainty_curves
from infoseek.stored_forms import (
    problem_from_store,
    sample_problem,
    stored_option,
    turns_from_store,
)


def _nan_for_none(values: Mapping[str, float | None]) -> dict[str, float]:
    return {name: (math.nan if value is None else float(value)) for name, value in values.items()}


def _answer_text(value: Any) -> str | None:
    return None if value is None else value_text(value)


def no_question_settles(state: TaskState) -> bool:
    """No question can settle the target: an unanswerable problem, or an episode whose
    withheld set closes every route (``-T oracle=withholding_all``, issue 34)."""
    if state.metadata.get("unanswerable"):
        return True
    options = state.store.get(STORE_OPTIONS)
    withholding = options.get("withholding") if isinstance(options, dict) else None
    return bool(withholding and withholding.get("none_learnable"))


def _hidden_target(state: TaskState, target: Target) -> Any:
    if no_question_settles(state):  # no question can settle it (issue 34)
        return UNDETERMINED
    if "target_value" in state.metadata:
        return state.metadata["target_value"]
    text = target.text
    try:
        return json.loads(text)
    except (TypeError, ValueError):
        return text


def _forbid_alternatives(state: TaskState) -> bool:
    return bool(stored_option(state.store, "forbid_alternatives"))


class SeekEpisode:
    """What the seek scorers read from one finished sample.

    ``turns`` is read at once; the problem record (one line of JSON in the store) and
    what derives from it are decoded on first use, so the scorers that need only the
    turns (``final_answer``, ``invalid``, and ``sufficiency`` when the store holds the
    initial values) never decode it.

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
                or sample_problem(self._state.metadata) or {})

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


@scorer(metrics=[mean_by_group()], name="final_answer")
def final_answer_scorer() -> Scorer:
    """Seek episode, ``final_answer``: ``accuracy`` of the final answer against the hidden
    value (:func:`infoseek.scorers.seek_metrics.answer_metrics`; protocols §4)."""

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
        if no_question_settles(state):  # nothing to reach: sufficiency does not apply
            values.update(final_sufficiency=None, turn_to_sufficiency=None,
                          over_questioning=None)
        return Score(
            value=_nan_for_none(values),
            explanation=sufficiency_explanation(episode.turns, values),
            metadata=uncertainty_curves(episode.turns,
                                        initial_possible=episode.initial_possible),
        )

    return score


def _learnable_problem(state: TaskState, problem: dict) -> dict:
    """The problem as the query metrics score it: under the withholding oracle its MSS
    family is the one over what can still be learned (`infoseek.oracles.withholding`,
    the kept set first), else the record's."""
    options = state.store.get(STORE_OPTIONS)
    withholding = options.get("withholding") if isinstance(options, dict) else None
    if not withholding:
        return problem
    return {**problem, "mss_family": withholding["learnable_family"]}


@scorer(metrics=[mean_by_group()], name="queries")
def queries_scorer() -> Scorer:
    """Seek episode, ``queries``: hits and coverage of the valid queries against the
    MSS family (:func:`infoseek.scorers.seek_metrics.query_metrics`; under the withholding
    oracle the family over what can still be learned); ``order_correctness`` only on
    problems with a required order."""

    async def score(state: TaskState, target: Target) -> Score:
        episode = seek_episode(state, target)
        values = query_metrics(_learnable_problem(state, episode.problem), episode.turns,
                               queryable_for_coverage=episode.queryable,
                               target_value=episode.target_value)
        if no_question_settles(state):  # no MSS to hit
            values = dict.fromkeys(values)
        return Score(
            value=_nan_for_none(values),
            explanation=query_explanation(episode.problem, episode.turns),
            metadata={"diagnostics": episode_diagnostics(episode)},
        )

    return score


_INVALID_REASON_NAMES = tuple(name for name in INVALID_METRIC_NAMES if name != "invalid_total")


@scorer(
    metrics=[mean_by_group(overall_only=(*_INVALID_REASON_NAMES, "role_"),
                           skip_zero=_INVALID_REASON_NAMES),
             role_error_rates()],
    name="invalid",
)
def invalid_scorer() -> Scorer:
    """Seek episode, ``invalid``: ``invalid_total`` and the count of each reason
    (:func:`infoseek.scorers.seek_metrics.invalid_metrics`); the metrics list only the reasons
    that occurred. The metadata holds ``invalid_reasons`` (counts of those that occurred
    in this sample). With a ``matcher`` model bound, the matcher's role counts
    (`infoseek.scorers.role_metrics`: ``role_matcher_measured``, ``_wrong``, ``_raised``,
    ``role_error_episodes``) and its pooled ``matcher_error_rate`` sit here too."""

    async def score(state: TaskState, target: Target) -> Score:
        episode = seek_episode(state, target)
        return Score(
            value={**invalid_metrics(episode.turns),
                   **role_values(state.store.get(STORE_ROLES) or [])},
            explanation=invalid_explanation(episode.turns),
            metadata={"invalid_reasons": invalid_reason_counts(episode.turns)},
        )

    return score


SEEK_SCORER_NAMES: tuple[str, ...] = tuple(SEEK_SCORE_GROUPS)
"""The names the seek scorers carry in the log (``sample.scores``, ``results.scores``)."""


def seek_scorers(*, withholding: bool = False, undetermined: bool = False
                 ) -> list[Scorer]:
    """The scorers of every seek task, in display order: ``final_answer``,
    ``sufficiency``, ``queries``, ``invalid``; with problems no question can settle mixed
    in (`undetermined`) then ``undetermined`` (`infoseek.scorers.undetermined`); under the
    withholding oracle (`withholding`) then ``withholding`` (`infoseek.scorers.withholding`)."""
    scorers = [final_answer_scorer(), sufficiency_scorer(), queries_scorer(), invalid_scorer()]
    if undetermined:  # problems no question can settle (issue 34)
        from infoseek.scorers.undetermined import undetermined_scorer

        scorers.append(undetermined_scorer())
    if withholding:
        from infoseek.scorers.withholding import withholding_scorer

        scorers.append(withholding_scorer())
    return scorers


def seek_values(scores: Mapping[str, Score] | None) -> dict[str, Any]:
    """One sample's seek values as one flat dict (``sample.scores`` of an EvalSample; a
    log of an earlier eval version may record a seek scorer under its old name,
    :mod:`infoseek.scorers.recorded_names`)."""
    current = {current_scorer_name(name): score for name, score in (scores or {}).items()}
    merged: dict[str, Any] = {}
    for name in SEEK_SCORER_NAMES:
        score = current.get(name)
        if score is not None and isinstance(score.value, dict):
            merged.update(score.value)
    return merged
