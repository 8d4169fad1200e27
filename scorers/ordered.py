"""Accuracy stratified by coverage and order, for domains with a required query order
(ClinGuide-MT; protocols §4 and the MT-InfoSeek coverage x order tables).

For each seek episode the scorer ``infoseek/order_strata`` records:

- ``accuracy`` (as the ``final_answer`` scorer computes it);
- ``coverage_all``: 1.0 when every variable of the instance's required order Q was
  validly asked (`infoseek.scorers.seek_metrics.required_order_of`), else 0.0 (partial);
- ``order_correct``: 1.0 when ``order_correctness`` is 1.0 (the MSS hits came in the
  required order), else 0.0.

Its metric :func:`stratified_accuracy` reports, for each stratum ``all_correct``,
``all_incorrect``, ``partial_correct``, ``partial_incorrect``: ``accuracy_<stratum>``
(mean accuracy of the episodes in it; absent when it is empty) and ``n_<stratum>`` (its
size), overall and per group ``k<k>_d<distractors>`` of the sample metadata (``k`` and
the problem's ``distractors``; ``k<k>`` when the problem has no distractor level).
"""

from __future__ import annotations

from collections import defaultdict
from typing import Any

from inspect_ai.scorer import Metric, SampleScore, Score, Scorer, Target, metric, scorer
from inspect_ai.solver import TaskState

from infoseek.scorers.seek import seek_episode
from infoseek.scorers.seek_metrics import (
    answer_kind_of,
    answer_metrics,
    query_metrics,
    required_order_of,
)
from infoseek.scorers.seek_turns import valid_query_variables
from infoseek.stored_forms import sample_problem

STRATA: tuple[str, ...] = ("all_correct", "all_incorrect", "partial_correct",
                           "partial_incorrect")


def stratum_values(problem: dict[str, Any], turns: list[dict[str, Any]],
                   target_value: Any) -> dict[str, float]:
    """``accuracy``, ``coverage_all`` and ``order_correct`` of one episode (module
    docstring)."""
    accuracy = answer_metrics(turns, target_value, kind=answer_kind_of(problem))["accuracy"]
    required = required_order_of(problem, target_value) or []
    asked = set(valid_query_variables(turns))
    order = query_metrics(problem, turns, target_value=target_value).get("order_correctness")
    return {"accuracy": accuracy,
            "coverage_all": 1.0 if all(v in asked for v in required) else 0.0,
            "order_correct": 1.0 if order == 1.0 else 0.0}


def stratum_of(values: dict[str, Any]) -> str:
    coverage = "all" if values.get("coverage_all") == 1.0 else "partial"
    order = "correct" if values.get("order_correct") == 1.0 else "incorrect"
    return f"{coverage}_{order}"


def _group_label(metadata: dict[str, Any] | None) -> str | None:
    if not metadata or metadata.get("k") is None:
        return None
    level = (sample_problem(metadata) or {}).get("distractors")
    return f"k{metadata['k']}" + ("" if level is None else f"_d{level}")


@metric
def stratified_accuracy() -> Metric:
    """Accuracy and size of each coverage x order stratum, overall and per
    ``k<k>_d<distractors>`` group (module docstring)."""

    def compute(scores: list[SampleScore]) -> dict[str, float]:
        cells: dict[tuple[str | None, str], list[float]] = defaultdict(list)
        groups: set[str] = set()
        for sample_score in scores:
            values = sample_score.score.value
            if not isinstance(values, dict):
                continue
            stratum = stratum_of(values)
            accuracy = float(values.get("accuracy") or 0.0)
            cells[(None, stratum)].append(accuracy)
            group = _group_label(sample_score.sample_metadata)
            if group is not None:
                groups.add(group)
                cells[(group, stratum)].append(accuracy)
        result: dict[str, float] = {}
        for group in [None, *sorted(groups)]:
            suffix = "" if group is None else f"_{group}"
            for stratum in STRATA:
                found = cells.get((group, stratum), [])
                result[f"n_{stratum}{suffix}"] = float(len(found))
                if found:
                    result[f"accuracy_{stratum}{suffix}"] = sum(found) / len(found)
        return result

    return compute


@scorer(metrics=[stratified_accuracy()], name="order_strata")
def order_strata_scorer() -> Scorer:
    """Seek episode, ``order_strata``: the coverage x order stratum of the episode and its
    accuracy (module docstring)."""

    async def score(state: TaskState, target: Target) -> Score:
        episode = seek_episode(state, target)
        values = stratum_values(episode.problem, episode.turns, episode.target_value)
        return Score(value=values, explanation=f"stratum {stratum_of(values)}")

    return score
