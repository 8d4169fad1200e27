"""Scorers and metrics of the single-turn protocols (protocols §3.4-3.6, 4).

The scorer reads only the reading the solver recorded and the sample's metadata.

* question selection: correct iff the pick is one of the sample's correct choices (a
  sufficient variable; "No questions needed" on a well-specified problem);
* detection: correct iff "Not sure" on an underspecified problem or the target's value on
  a well-specified one; the metric `not_sure_f1` reports precision, recall and F1 of the
  "Not sure" class and the proportional random baseline's F1: labelling at random the
  same share of samples "Not sure" as are underspecified gives, in expectation,
  precision = recall = that share, so its F1 is the share of underspecified samples;
* well-specified: correct iff the value equals the target's.

Every score is a dict with ``correct`` and ``invalid`` (0/1; an invalid reading is never
correct); `axis_correlations` reports Spearman's rho of correctness with each difficulty
axis and its p-value (scipy), and leaves out an axis where either series is constant
(rho is undefined there).
"""

from __future__ import annotations

import math
from typing import Any

from inspect_ai.scorer import (
    Metric,
    SampleScore,
    Score,
    Scorer,
    Target,
    metric,
    scorer,
)
from inspect_ai.solver import TaskState
from inspect_ai.util import store
from scipy.stats import spearmanr

from infoseek.answers import answer_kind
from infoseek.contract import STORE_TURNS
from infoseek.domains import UnknownDomain, domain_of
from infoseek.scorers.group_metric import mean_by_group
from infoseek.single_turn import AXES, NOT_SURE
from infoseek.stored_forms import sample_problem, turns_from_store


def _value(score: SampleScore, key: str) -> float | None:
    value = score.score.value
    if isinstance(value, dict) and isinstance(value.get(key), int | float):
        return float(value[key])
    return None


@metric
def axis_correlations() -> Metric:
    """Spearman's rho (and p) of ``correct`` with each difficulty axis (module
    docstring): keys ``rho_<axis>`` and ``p_<axis>``."""

    def compute(scores: list[SampleScore]) -> dict[str, float]:
        out: dict[str, float] = {}
        for axis in AXES:
            pairs = [(_value(s, "correct"), (s.sample_metadata or {}).get(axis))
                     for s in scores]
            pairs = [(c, a) for c, a in pairs if c is not None
                     and isinstance(a, int | float) and not isinstance(a, bool)]
            if len(pairs) < 3 or len({c for c, _ in pairs}) < 2 \
                    or len({a for _, a in pairs}) < 2:
                continue
            result = spearmanr([c for c, _ in pairs], [a for _, a in pairs])
            rho, p = float(result.statistic), float(result.pvalue)
            if math.isnan(rho) or math.isnan(p):
                continue
            out[f"rho_{axis}"], out[f"p_{axis}"] = rho, p
        return out

    return compute


def detection_counts(scores: list[SampleScore]) -> dict[str, float]:
    """Precision, recall and F1 of "Not sure", the random baseline's F1 and the share of
    underspecified samples (module docstring). An undefined ratio (nothing predicted, or
    nothing to find) is 0."""
    said = [_value(s, "said_not_sure") or 0.0 for s in scores]
    under = [_value(s, "underspecified") or 0.0 for s in scores]
    hits = sum(1 for a, b in zip(said, under, strict=True) if a and b)
    predicted, actual = sum(said), sum(under)
    precision = hits / predicted if predicted else 0.0
    recall = hits / actual if actual else 0.0
    f1 = 2 * precision * recall / (precision + recall) if precision + recall else 0.0
    share = actual / len(scores) if scores else 0.0
    return {"precision": precision, "recall": recall, "f1": f1, "random_f1": share,
            "not_sure_rate": predicted / len(scores) if scores else 0.0}


@metric
def not_sure_f1() -> Metric:
    """`detection_counts` over the run."""

    def compute(scores: list[SampleScore]) -> dict[str, float]:
        return detection_counts(scores)

    return compute


def _recorded_turn() -> dict[str, Any]:
    turns = turns_from_store(store().get(STORE_TURNS)) or []
    return turns[-1] if turns else {"answer": None, "reason": "empty"}


def _same_value(record: dict[str, Any], given: Any, expected: Any) -> bool:
    try:
        kind = domain_of(record).answer_kind
    except UnknownDomain:
        kind = "boolean"
    return answer_kind(kind).compare(given, expected) == 1.0


def single_turn_score(protocol: str, turn: dict[str, Any], metadata: dict[str, Any]
                      ) -> Score:
    """The score of one sample from its recorded turn (module docstring)."""
    valid = turn.get("reason") is None
    pick = turn.get("answer") if valid else None
    under = metadata["variant"] == "underspecified"
    values: dict[str, float] = {"invalid": 0.0 if valid else 1.0}
    if protocol == "question_selection":
        correct = valid and pick in metadata["correct"]
    elif protocol == "detection":
        said = valid and pick == NOT_SURE
        correct = said if under else (valid and not said and _same_value(
            sample_problem(metadata), pick, metadata["target_value"]))
        values.update(said_not_sure=float(said), underspecified=float(under))
    else:
        correct = valid and pick != NOT_SURE and _same_value(
            sample_problem(metadata), pick, metadata["target_value"])
    values["correct"] = float(bool(correct))
    return Score(value=values, answer=None if pick is None else str(pick),
                 explanation=turn.get("reason") or "")


@scorer(metrics=[mean_by_group(group_key="variant"), axis_correlations()])
def single_turn_scorer(protocol: str) -> Scorer:
    """Question selection or well-specified solving (module docstring)."""

    async def score(state: TaskState, target: Target) -> Score:
        return single_turn_score(protocol, _recorded_turn(), state.metadata)

    return score


@scorer(metrics=[mean_by_group(group_key="variant"), not_sure_f1(), axis_correlations()])
def detection_scorer() -> Scorer:
    """Underspecification detection (module docstring)."""

    async def score(state: TaskState, target: Target) -> Score:
        return single_turn_score("detection", _recorded_turn(), state.metadata)

    return score
