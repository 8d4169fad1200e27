"""What the report shows for each task: one declaration per report, found from what a
log records.

A declaration (:class:`TaskReport`) names the protocol, the task arguments that make a
row's *setting* (oracle, budget, force-ask, prompt mode, ...), the metric tables (each a
list of :class:`MetricSpec`, every metric reported per ``k`` with its standard error and
sample count), the extra tables and the figures.

Nobody lists tasks here. Each task names its report in its metadata,
``Task(metadata={"report": "seek"})`` (`REPORT_KEY`; the task assembly of each protocol
sets it), and Inspect records that in the log (``eval.metadata``). :func:`report_for`
finds the declaration in this order:

1. a declaration registered for the task by name (:func:`register_task_report`, for a
   task that wants a report of its own);
2. the report the log's metadata names (:data:`REPORTS`);
3. for a log without it (written before tasks named their report), the report of the
   protocol whose scorers the log carries: a seek task's four scorers, a k-prediction or
   MSS scorer, a single-turn scorer, ...

Scorers go by the names they have now; the reader maps a name an older log recorded
(``answer`` before eval version 2-A) to today's (``final_answer``) before it asks here
(`infoseek.scorers.recorded_names`).

A task that adds a scorer to its protocol's gets that scorer's columns
(:data:`SCORER_VARIANTS`: the seek report with ``order_strata`` for clinguide_mt, with
``plan`` for planning_mt). A log of anything else is "not an infoseek log" and left out
with one line. A declaration found is not yet trust: the reading checks that the log is
an infoseek run (`infoseek.inspect_tasks.report.reading.run_problem`), whatever its task
is named.

Errored samples (``sample.error``): Inspect leaves them out of its metrics. Here every
metric whose higher values are better counts an errored sample as a failure
(``errored_as=0.0``), so an error can never raise it; metrics where lower is better
(turns, invalid queries, under-prediction) leave errored samples out, and every table
shows how many samples errored.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from typing import Any


@dataclass(frozen=True)
class MetricSpec:
    """One metric column group: ``scorer``'s value key ``key``, shown as ``label``."""

    scorer: str
    key: str
    label: str
    errored_as: float | None = 0.0
    """The value an errored sample counts as (None: left out)."""
    blank: str = ""
    """Why a row whose samples exist can have no value of it (shown in such a cell);
    empty: the generic reason, none of its samples has one."""


@dataclass(frozen=True)
class TableSpec:
    """A Markdown/CSV table: rows = model and setting, columns = each metric per group."""

    name: str
    title: str
    metrics: tuple[MetricSpec, ...]


@dataclass(frozen=True)
class TaskReport:
    """How one task is reported (module docstring)."""

    protocol: str
    settings: tuple[str, ...]
    tables: tuple[TableSpec, ...]
    extras: tuple[str, ...] = ()
    """Extra tables and figures by name: ``order_strata``, ``axes``, ``detection``,
    ``undetermined``, ``filtered``, ``sufficiency_by_turn``, ``uncertainty``,
    ``k_prediction_bars``, ``diagnostics``, ``entropy_by_turn``."""
    group_key: str = "k"
    published: str | None = None
    """The key of the task's published numbers (``published.json``); default the task
    name."""
    headline: tuple[str, ...] = field(default=())
    """Metric keys drawn against ``k`` in the per-model figure."""


def _m(scorer: str, key: str, label: str | None = None, lower_is_better: bool = False,
       blank: str = "") -> MetricSpec:
    return MetricSpec(scorer, key, label or key, None if lower_is_better else 0.0, blank)


NO_JUDGE_IN_FULL = "the full variant has nothing missing, so nothing is judged"


SEEK_SETTINGS = ("oracle", "budget", "max_turns", "queries_per_turn", "force_ask",
                 "forbid_alternatives", "format", "carry_reasoning", "distractors", "book",
                 "family", "target", "unanswerable")

SEEK_TABLES = (
    TableSpec("headline", "Final sufficiency and accuracy per k", (
        _m("sufficiency", "final_sufficiency"),
        _m("final_answer", "accuracy"),
    )),
    TableSpec("turns", "Turns, turn to sufficiency and over-questioning per k", (
        _m("sufficiency", "total_turns", lower_is_better=True),
        _m("sufficiency", "turn_to_sufficiency", lower_is_better=True,
           blank="no episode became sufficient"),
        _m("sufficiency", "over_questioning", lower_is_better=True,
           blank="no episode became sufficient"),
    )),
    TableSpec("queries", "Query quality per k", (
        _m("queries", "first_turn_hit"),
        _m("queries", "second_turn_hit", blank="no episode asked a second question"),
        _m("queries", "query_correctness"),
        _m("queries", "query_coverage"),
        _m("queries", "order_correctness", blank="no required order in these problems"),
        _m("invalid", "invalid_total", lower_is_better=True),
    )),
)
SEEK_EXTRAS = ("sufficiency_by_turn", "uncertainty", "diagnostics")

SEEK_REPORT = TaskReport("seek", SEEK_SETTINGS, SEEK_TABLES, SEEK_EXTRAS,
                         headline=("final_sufficiency", "accuracy"))
ORDERED_SEEK_REPORT = TaskReport("seek", SEEK_SETTINGS, SEEK_TABLES,
                                 (*SEEK_EXTRAS, "order_strata"),
                                 headline=("final_sufficiency", "accuracy"))
FULL_INFORMATION_REPORT = TaskReport("seek", ("format", "family", "target"), (
    TableSpec("headline", "Full-information accuracy per k",
              (_m("final_answer", "accuracy"),)),
), headline=("accuracy",))

K_PREDICTION_REPORT = TaskReport("k_prediction", ("distractors", "book", "family", "target"), (
    TableSpec("k_prediction", "k prediction: accuracy, under- and over-prediction per k", (
        _m("k_prediction_scorer", "accuracy"),
        _m("k_prediction_scorer", "under", lower_is_better=True),
        _m("k_prediction_scorer", "over", lower_is_better=True),
        _m("k_prediction_scorer", "unsure", lower_is_better=True),
        _m("k_prediction_scorer", "invalid", lower_is_better=True),
    )),
), ("k_prediction_bars",), headline=("accuracy",))

MSS_REPORT = TaskReport("mss", ("k_given", "max_size", "forbid_alternatives", "distractors",
                                "book", "family", "target"), (
    TableSpec("mss", "MSS identification: exact set, Jaccard and recall per k", (
        _m("mss_identification_scorer", "exact"),
        _m("mss_identification_scorer", "jaccard"),
        _m("mss_identification_scorer", "recall"),
        _m("mss_identification_scorer", "invalid", lower_is_better=True),
    )),
), headline=("exact", "jaccard", "recall"))

QUESTION_SELECTION_REPORT = TaskReport("question_selection", ("prompt", "mix_well_specified"), (
    TableSpec("accuracy", "Single-turn question selection: accuracy by variant", (
        _m("single_turn_scorer", "correct", "accuracy"),
        _m("single_turn_scorer", "invalid", lower_is_better=True),
    )),
), ("axes", "filtered"), group_key="variant", headline=("correct",))
DETECTION_REPORT = TaskReport("detection", ("prompt",), (
    TableSpec("accuracy", "Underspecification detection: accuracy by variant", (
        _m("detection_scorer", "correct", "accuracy"),
        _m("detection_scorer", "invalid", lower_is_better=True),
    )),
), ("detection", "axes"), group_key="variant", headline=("correct",))
WELL_SPECIFIED_REPORT = TaskReport("well_specified", ("prompt",), (
    TableSpec("accuracy", "Well-specified solving: accuracy by variant", (
        _m("single_turn_scorer", "correct", "accuracy"),
        _m("single_turn_scorer", "invalid", lower_is_better=True),
    )),
), ("axes",), group_key="variant", headline=("correct",))
INCOMPLETE_REPORT = TaskReport("incomplete", ("variant", "format", "max_interactions"), (
    TableSpec("accuracy", "Incomplete questions: accuracy and behaviour", (
        _m("incomplete_scorer", "accuracy"),
        _m("incomplete_scorer", "asked"),
        _m("incomplete_scorer", "condition_acquired",
           blank=NO_JUDGE_IN_FULL + ", or no judge reply could be read"),
        _m("incomplete_scorer", "assumption_made", lower_is_better=True,
           blank=NO_JUDGE_IN_FULL + ", or no judge reply could be read"),
        _m("incomplete_scorer", "assume_share", lower_is_better=True),
        _m("incomplete_scorer", "judge_invalid", lower_is_better=True,
           blank=NO_JUDGE_IN_FULL),
        _m("incomplete_scorer", "judge_disagrees", lower_is_better=True,
           blank="no judge model bound (the rule judged), or " + NO_JUDGE_IN_FULL),
    )),
), group_key="variant", headline=("accuracy",))

PLAN_METRICS = (
    _m("plan", "plan_exact"),
    _m("plan", "plan_credit"),
    _m("plan", "plan_valid"),
    _m("plan", "plan_answered"),
)
PLANNING_SEEK_REPORT = TaskReport("seek", SEEK_SETTINGS, (
    TableSpec("headline", "Final sufficiency, plan exact / credit / valid per k", (
        _m("sufficiency", "final_sufficiency"),
        *PLAN_METRICS,
    )),
    *SEEK_TABLES[1:],
), SEEK_EXTRAS, headline=("final_sufficiency", "plan_exact", "plan_credit", "plan_valid"))
"""planning_mt: the seek tables with the plan scorer's columns in the headline (the
``final_answer`` scorer's accuracy is ``plan_exact`` again, so it is not repeated)."""
PLANNING_FULL_REPORT = TaskReport("seek", ("format", "family", "target"), (
    TableSpec("headline", "Full-information plan exact / credit / valid per k",
              PLAN_METRICS),
), headline=("plan_exact", "plan_credit", "plan_valid"))

TWENTY_QUESTIONS_SETTINGS = ("pool", "max_turns", "label_batch")
TWENTY_QUESTIONS_SCORER = "twenty_questions"


def _q(key: str, label: str | None = None, errored_as: float | None = 0.0) -> MetricSpec:
    return MetricSpec(TWENTY_QUESTIONS_SCORER, key, label or key, errored_as)


TWENTY_QUESTIONS_REPORT = TaskReport("twenty_questions", TWENTY_QUESTIONS_SETTINGS, (
    TableSpec("headline", "Twenty Questions per pool: accuracy, turns, nEIG, final "
              "entropy (nats), transfer accuracy", (
                  _q("accuracy"),
                  _q("transfer_accuracy"),
                  _q("turns", errored_as=None),
                  _q("mean_neig", errored_as=None),
                  _q("final_entropy", errored_as=None),
              )),
    TableSpec("examiner", "Twenty Questions per pool: examiner, evaluator labels, pass "
              "mass, EIG (nats)", (
                  _q("examiner_win"),
                  _q("examiner_disagrees", errored_as=None),
                  _q("examiner_invalid", errored_as=None),
                  _q("label_failures", errored_as=None),
                  _q("label_retries", errored_as=None),
                  _q("mean_pass_mass", errored_as=None),
                  _q("mean_eig", errored_as=None),
                  _q("questions", errored_as=None),
                  _q("invalid_turns", errored_as=None),
                  _q("transfer_model", errored_as=None),
              )),
), ("entropy_by_turn",), group_key="pool", headline=("accuracy",))
"""twenty_questions: grouped by pool (common, thing). Information metrics (nEIG, EIG, final
entropy, pass mass) are per-question or per-game measurements, not successes: an errored
game has none and is left out of them, as it is of turns and the counts; accuracy,
transfer accuracy and the examiner's wins count it as a failure."""

REPORT_KEY = "report"
"""The key of ``Task(metadata=...)`` (``eval.metadata`` in the log) naming the report."""

REPORTS: dict[str, TaskReport] = {
    "seek": SEEK_REPORT,
    "full_information": FULL_INFORMATION_REPORT,
    "k_prediction": K_PREDICTION_REPORT,
    "mss": MSS_REPORT,
    "question_selection": QUESTION_SELECTION_REPORT,
    "detection": DETECTION_REPORT,
    "well_specified": WELL_SPECIFIED_REPORT,
    "incomplete": INCOMPLETE_REPORT,
    "twenty_questions": TWENTY_QUESTIONS_REPORT,
}
"""The declarations a task can name, one per protocol (and full-information seek)."""

WITHHOLDING_TABLE = TableSpec(
    "withholding", "Withholding oracle: recovery and asks of withheld variables per k", (
        _m("withholding", "recovery",
           blank="no episode asked a withheld variable while the target was open"),
        _m("withholding", "withheld_asked", lower_is_better=True),
        _m("withholding", "withheld_reasked", lower_is_better=True),
        _m("withholding", "recognised_unlearnable",
           blank="only under -T oracle=withholding_all, where nothing settles the target"),
    ))
"""The table a seek log gets when it carries the ``withholding`` scorer
(``-T oracle=withholding``, `infoseek.scorers.withholding`)."""

SCORER_ADDITIONS: dict[str, tuple[tuple[TableSpec, ...], tuple[str, ...]]] = {
    "withholding": ((WITHHOLDING_TABLE,), ()),
    "undetermined": ((), ("undetermined",)),
}
"""A scorer some settings add to any seek declaration -> the tables and extras it brings:
the withholding oracle's metrics per k, and the precision / recall of "cannot be
determined" (``-T unanswerable=``) per row. Unlike :data:`SCORER_VARIANTS` they add to
whichever declaration the log has (planning_mt under the withholding oracle keeps its
plan columns)."""

ADDED_TABLES: frozenset[TableSpec] = frozenset(
    t for tables, _ in SCORER_ADDITIONS.values() for t in tables)
"""The tables :data:`SCORER_ADDITIONS` brings: shown only for the runs that carry their
scorer."""

SCORER_VARIANTS: dict[tuple[str, str], TaskReport] = {
    ("seek", "order_strata"): ORDERED_SEEK_REPORT,
    ("seek", "plan"): PLANNING_SEEK_REPORT,
    ("full_information", "plan"): PLANNING_FULL_REPORT,
}
"""(report, a scorer the log carries besides the protocol's) -> the declaration used."""

_BY_SCORERS: tuple[tuple[frozenset[str], str], ...] = (
    (frozenset({"final_answer", "sufficiency", "queries", "invalid"}), "seek"),
    (frozenset({"k_prediction_scorer"}), "k_prediction"),
    (frozenset({"mss_identification_scorer"}), "mss"),
    (frozenset({"detection_scorer"}), "detection"),
    (frozenset({"single_turn_scorer"}), "question_selection"),
    (frozenset({"incomplete_scorer"}), "incomplete"),
    (frozenset({TWENTY_QUESTIONS_SCORER}), "twenty_questions"),
)
"""For logs that name no report: the protocol's report by the scorers it carries."""

_BY_TASK: dict[str, TaskReport] = {}
"""Declarations registered for one task by name (`register_task_report`)."""


def joined(first: TaskReport | None, second: TaskReport) -> TaskReport:
    """One task's declaration over two of its logs: `first` with the tables and extras of
    `second` it lacks (logs of one task differ only in the :data:`SCORER_ADDITIONS` their
    settings bring, e.g. one run under the withholding oracle beside one without)."""
    if first is None or first == second or first.protocol != second.protocol:
        return second if first is None else first
    return replace(first,
                   tables=first.tables + tuple(t for t in second.tables
                                               if t not in first.tables),
                   extras=first.extras + tuple(e for e in second.extras
                                               if e not in first.extras))


def register_task_report(task: str, report: TaskReport) -> None:
    """Declare how `task` (the name its log records) is reported, whatever report its
    metadata names; replaces an earlier declaration of the same task."""
    if not isinstance(report, TaskReport):
        raise TypeError(f"register_task_report({task!r}, ...) needs a TaskReport, "
                        f"got {type(report).__name__}")
    _BY_TASK[task] = report


def unregister_task_report(task: str) -> None:
    """Forget a declaration registered for `task` (tests)."""
    _BY_TASK.pop(task, None)


def report_for(task: str, scorers: set[str] | frozenset[str],
               metadata: Mapping[str, Any] | str | None = None) -> TaskReport | None:
    """The declaration of a log of `task` carrying `scorers`, with the log's `metadata`
    (a dict, or the JSON text of one as `evals_df` gives it), found as the module
    docstring says; None: not an infoseek log."""
    name = task.split("/")[-1]
    if name in _BY_TASK:
        return _BY_TASK[name]
    declared = recorded_metadata(metadata).get(REPORT_KEY)
    if declared not in REPORTS:
        declared = next((report for needed, report in _BY_SCORERS if needed <= set(scorers)),
                        None)
        if declared is None:
            return None
    found = REPORTS[declared]
    for scorer in sorted(scorers):
        if (declared, scorer) in SCORER_VARIANTS:
            found = SCORER_VARIANTS[declared, scorer]
            break
    return with_additions(found, scorers)


def with_additions(report: TaskReport, scorers: set[str] | frozenset[str]) -> TaskReport:
    """`report` with the tables and extras of the :data:`SCORER_ADDITIONS` scorers among
    `scorers` (a seek declaration only); unchanged when there are none."""
    if report.protocol != "seek":
        return report
    tables, extras = report.tables, report.extras
    for scorer in sorted(set(scorers) & set(SCORER_ADDITIONS)):
        more_tables, more_extras = SCORER_ADDITIONS[scorer]
        tables += tuple(t for t in more_tables if t not in tables)
        extras += tuple(e for e in more_extras if e not in extras)
    if (tables, extras) == (report.tables, report.extras):
        return report
    return replace(report, tables=tables, extras=extras)


def recorded_metadata(metadata: Mapping[str, Any] | str | None) -> Mapping[str, Any]:
    """A log's metadata as a mapping (empty when it has none or cannot be read)."""
    if isinstance(metadata, str):
        try:
            metadata = json.loads(metadata)
        except ValueError:
            return {}
    return metadata if isinstance(metadata, Mapping) else {}
