"""How Inspect View shows each task's log: the log list's headline number, the sample
list's columns, their labels in words and colours, and the score panel of one sample.

Without a declaration Inspect View takes the first metric of the first scorer as the log's
headline (for single-turn tasks that is the invalid-reply rate, so a run that scored about
1 was listed as 0.0), shows every sample's thirty-odd score values in one row of chips and
names columns by their keys. Each task therefore declares, by its report kind (the
``Task(metadata={"report": ...})`` value, `infoseek.inspect_tasks.report.declarations`):

- ``headline_metric``: the number a reader of the paper looks for first (final sufficiency
  for seeking, accuracy for the one-shot protocols, exact MSS for MSS identification);
- a sample list (`TaskSamplesView`) with the sample id (it carries ``k``: the list is
  sorted by it), the headline scores with labels in words, colour scales with their
  known range (a share from 0 to 1 is green when high; invalid replies red when high);
- a score panel shown as a sortable grid, since every sample carries many scores.

`viewer_arguments` gives the two ``Task`` arguments for a kind. Importing this module drops
Inspect's early "headline metric not found" warning for these names
(`infoseek.inspect_tasks.inspect_private.quiet_early_headline_warning`). The columns name scorer
values the scorers really write; tests/tasks/test_task_logs.py checks them against logs.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from inspect_ai.log import HeadlineMetric
from inspect_ai.viewer import (
    SampleScoreView,
    ScoreColorScale,
    TaskSamplesColumn,
    TaskSamplesSort,
    TaskSamplesView,
    ViewerConfig,
)

from infoseek.inspect_tasks.inspect_private import quiet_early_headline_warning


@dataclass(frozen=True)
class Column:
    """One score column of the sample list: the scorer, the value key it writes, the label
    shown, and how its cells are coloured (``share``: 0..1, high is good; ``bad``: 0..1,
    high is bad; ``count``: a count, no good or bad)."""

    scorer: str
    key: str
    label: str
    scale: str = "share"


_SEEK = (
    Column("sufficiency", "final_sufficiency", "Sufficient"),
    Column("final_answer", "accuracy", "Correct"),
    Column("sufficiency", "total_turns", "Turns", "count"),
    Column("sufficiency", "over_questioning", "Extra questions", "count"),
    Column("queries", "query_correctness", "Asked in MSS"),
    Column("invalid", "invalid_total", "Invalid", "count"),
)
_SINGLE_TURN = (
    Column("single_turn_scorer", "correct", "Correct"),
    Column("single_turn_scorer", "invalid", "Invalid", "bad"),
)
COLUMNS: dict[str, tuple[Column, ...]] = {
    "seek": _SEEK,
    "full_information": _SEEK,
    "k_prediction": (
        Column("k_prediction_scorer", "accuracy", "k right"),
        Column("k_prediction_scorer", "under", "k too low", "bad"),
        Column("k_prediction_scorer", "over", "k too high", "bad"),
        Column("k_prediction_scorer", "unsure", "Said unsure", "bad"),
        Column("k_prediction_scorer", "invalid", "Invalid", "bad"),
    ),
    "mss": (
        Column("mss_identification_scorer", "exact", "Exact MSS"),
        Column("mss_identification_scorer", "jaccard", "Jaccard"),
        Column("mss_identification_scorer", "recall", "MSS recall"),
        Column("mss_identification_scorer", "predicted_size", "Named", "count"),
        Column("mss_identification_scorer", "invalid", "Invalid", "bad"),
    ),
    "question_selection": _SINGLE_TURN,
    "well_specified": _SINGLE_TURN,
    "detection": (
        Column("detection_scorer", "correct", "Correct"),
        Column("detection_scorer", "underspecified", "Underspecified", "count"),
        Column("detection_scorer", "said_not_sure", "Said not sure", "count"),
        Column("detection_scorer", "invalid", "Invalid", "bad"),
    ),
    "incomplete": (
        Column("incomplete_scorer", "accuracy", "Correct"),
        Column("incomplete_scorer", "asked", "Asked"),
        Column("incomplete_scorer", "interactions", "Interactions", "count"),
        Column("incomplete_scorer", "judge_invalid", "Judge invalid", "bad"),
    ),
    "twenty_questions": (
        Column("twenty_questions", "accuracy", "Won"),
        Column("twenty_questions", "turns", "Turns", "count"),
        Column("twenty_questions", "questions", "Questions", "count"),
        Column("twenty_questions", "mean_eig", "Mean EIG", "count"),
        Column("twenty_questions", "invalid_turns", "Invalid", "count"),
    ),
}
"""The sample list's score columns per report kind, the headline first."""

HEADLINES: dict[str, HeadlineMetric] = {
    kind: HeadlineMetric(scorer=columns[0].scorer, metric=columns[0].key)
    for kind, columns in COLUMNS.items()
}
"""The log list's number per report kind: the first column's metric over all samples."""


quiet_early_headline_warning(headline.metric for headline in HEADLINES.values()
                             if headline.metric is not None)


def _scale(column: Column) -> Any:
    if column.scale == "share":
        return ScoreColorScale(palette="good-high", min=0.0, max=1.0)
    if column.scale == "bad":
        return ScoreColorScale(palette="good-low", min=0.0, max=1.0)
    return "neutral"


def viewer_config(kind: str) -> ViewerConfig:
    """The Inspect View configuration of a task of report kind `kind`."""
    columns = COLUMNS[kind]
    samples = TaskSamplesView(
        name="infoseek",
        columns=[TaskSamplesColumn(id="sampleId"),
                 *(TaskSamplesColumn.score(c.scorer, c.key) for c in columns),
                 TaskSamplesColumn(id="tokens"), TaskSamplesColumn(id="error")],
        sort=[TaskSamplesSort(column="sampleId")],
        score_labels={c.key: c.label for c in columns},
        score_color_scales={c.key: _scale(c) for c in columns},
    )
    return ViewerConfig(task_samples_view=samples,
                        sample_score_view=SampleScoreView(default="grid"))


def viewer_arguments(kind: str) -> dict[str, Any]:
    """``Task`` keyword arguments: ``viewer`` and ``headline_metric`` for `kind`."""
    if kind not in COLUMNS:
        raise KeyError(f"no viewer declaration for report kind {kind!r}; "
                       f"known kinds: {', '.join(COLUMNS)}")
    return {"viewer": viewer_config(kind), "headline_metric": HEADLINES[kind]}
