"""The ``undetermined`` scorer: the seek tasks add it to their scorers when they mix in
problems no question can settle (``-T unanswerable=<share>``,
`infoseek.inspect_tasks.unanswerable`).

Per sample (:func:`undetermined_values`):

- ``said_undetermined``: 1.0 when the final answer is `infoseek.contract.UNDETERMINED`;
- ``unanswerable``: 1.0 on a sample no question can settle (metadata ``unanswerable``);
- ``stopped_before_cap``: on unanswerable samples only, 1.0 when the model answered
  (anything) before the turn cap ran out, i.e. not in the final turn that only takes an
  answer, and not never; NaN on ordinary samples. It says whether the model *did not ask
  forever*.

Over samples (:func:`undetermined_detection`, "cannot be determined" as the detected
class): ``undetermined_precision`` (of the samples where the model said it, the share
that were unanswerable), ``undetermined_recall`` (of the unanswerable samples, the share
where it said so: the accuracy on them), ``undetermined_f1``, and
``stopped_before_cap``, its mean over the unanswerable samples. A precision or recall
with nothing to divide by (never said; no unanswerable sample) is 0.0, and so is F1 when
both are 0.

The headline ``accuracy`` (the ``final_answer`` scorer) already credits an unanswerable
sample only for this answer and counts it wrong on an ordinary one
(`infoseek.scorers.seek_metrics.answer_metrics`).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

from inspect_ai.scorer import Metric, SampleScore, Score, Scorer, Target, metric, scorer
from inspect_ai.solver import TaskState

from infoseek.contract import UNDETERMINED
from infoseek.scorers.seek import seek_episode
from infoseek.scorers.seek_turns import final_answer_turn

DETECTION_METRICS: tuple[str, ...] = ("undetermined_precision", "undetermined_recall",
                                      "undetermined_f1", "stopped_before_cap")
"""The metric names of the ``undetermined`` scorer in the log."""


def undetermined_values(turns: Sequence[dict], unanswerable: bool) -> dict[str, float]:
    """One sample's values (module docstring)."""
    answer_turn = final_answer_turn(turns)
    said = answer_turn is not None and answer_turn.get("answer") == UNDETERMINED
    stopped = answer_turn is not None and answer_turn.get("final_turn") is not True
    return {"said_undetermined": 1.0 if said else 0.0,
            "unanswerable": 1.0 if unanswerable else 0.0,
            "stopped_before_cap": (1.0 if stopped else 0.0) if unanswerable else math.nan}


def detection_rates(pairs: Sequence[tuple[bool, bool]]) -> dict[str, float]:
    """Precision, recall and F1 of "cannot be determined" over ``(said, unanswerable)``
    pairs (module docstring)."""
    said = sum(1 for s, _ in pairs if s)
    truth = sum(1 for _, u in pairs if u)
    hits = sum(1 for s, u in pairs if s and u)
    precision = hits / said if said else 0.0
    recall = hits / truth if truth else 0.0
    f1 = 2 * precision * recall / (precision + recall) if precision + recall else 0.0
    return {"undetermined_precision": precision, "undetermined_recall": recall,
            "undetermined_f1": f1}


def _value(score: Any, name: str) -> float | None:
    value = score.value.get(name) if isinstance(score.value, dict) else None
    if isinstance(value, int | float) and not math.isnan(value):
        return float(value)
    return None


@metric
def undetermined_detection() -> Metric:
    """Precision, recall and F1 of "cannot be determined", and the mean of
    ``stopped_before_cap`` over the unanswerable samples (module docstring)."""

    def compute(scores: list[SampleScore]) -> dict[str, float]:
        pairs = [(_value(s.score, "said_undetermined") == 1.0,
                  _value(s.score, "unanswerable") == 1.0) for s in scores]
        stopped = [v for s in scores
                   if (v := _value(s.score, "stopped_before_cap")) is not None]
        return {**detection_rates(pairs),
                "stopped_before_cap": sum(stopped) / len(stopped) if stopped else 0.0}

    return compute


@scorer(metrics=[undetermined_detection()], name="undetermined")
def undetermined_scorer() -> Scorer:
    """Seek episode with unanswerable samples mixed in, ``undetermined``: whether the
    model said "cannot be determined", whether it was right to, and whether it stopped
    before the turn cap (module docstring)."""

    async def score(state: TaskState, target: Target) -> Score:
        episode = seek_episode(state, target)
        unanswerable = bool(state.metadata.get("unanswerable"))
        values = undetermined_values(episode.turns, unanswerable)
        said = "said" if values["said_undetermined"] else "did not say"
        truth = "no question can settle it" if unanswerable else "it can be settled"
        return Score(value=values, explanation=f"{said} '{UNDETERMINED}'; {truth}")

    return score
