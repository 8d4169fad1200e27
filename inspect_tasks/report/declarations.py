"""What the report shows for each task: one declaration per task, looked up by the task
name a log records.

A declaration (:class:`TaskReport`) names the protocol, the task arguments that make a
row's *setting* (oracle, budget, force-ask, prompt mode, ...), the metric tables (each a
list of :class:`MetricSpec`, every metric reported per ``k`` with its standard error and
sample count), the extra tables and the figures. A new task joins the report with one
call, next to its task file or in :data:`TASK_REPORTS`::

    register_task_report("planning_mt", SEEK_REPORT)

A task nobody declared is still reported when its log carries the scorers of a known
protocol (:func:`report_for`): a seek task's four scorers, a k-prediction or MSS scorer,
a single-turn scorer. A log of anything else is "not an infoseek log" and left out with
one line.

Errored samples (``sample.error``): Inspect leaves them out of its metrics. Here every
metric whose higher values are better counts an errored sample as a failure
(``errored_as=0.0``), so an error can never raise it; metrics where lower is better
(turns, invalid queries, under-prediction) leave errored samples out, and every table
shows how many samples errored.
"""

from __future__ import annotations

from dataclasses import dataclass, field


@dataclass(frozen=True)
class MetricSpec:
    """One metric column group: ``scorer``'s value key ``key``, shown as ``label``."""

    scorer: str
    key: str
    label: str
    errored_as: float | None = 0.0
    """The value an errored sample counts as (None: left out)."""


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
    ``filtered``, ``sufficiency_by_turn``, ``uncertainty``, ``k_prediction_bars``,
    ``diagnostics``, ``entropy_by_turn``."""
    group_key: str = "k"
    published: str | None = None
    """The key of the task's published numbers (``published.json``); default the task
    name."""
    headline: tuple[str, ...] = field(default=())
    """Metric keys drawn against ``k`` in the per-model figure."""


def _m(scorer: str, key: str, label: str | None = None, lower_is_better: bool = False
       ) -> MetricSpec:
    return MetricSpec(scorer, key, label or key, None if lower_is_better else 0.0)


SEEK_SETTINGS = ("oracle", "budget", "max_turns", "queries_per_turn", "force_ask",
                 "forbid_alternatives", "format", "carry_reasoning", "distractors", "book",
                 "family", "target")

SEEK_TABLES = (
    TableSpec("headline", "Final sufficiency and accuracy per k", (
        _m("sufficiency", "final_sufficiency"),
        _m("answer", "accuracy"),
    )),
    TableSpec("turns", "Turns, turn to sufficiency and over-questioning per k", (
        _m("sufficiency", "total_turns", lower_is_better=True),
        _m("sufficiency", "turn_to_sufficiency", lower_is_better=True),
        _m("sufficiency", "over_questioning", lower_is_better=True),
    )),
    TableSpec("queries", "Query quality per k", (
        _m("queries", "first_turn_hit"),
        _m("queries", "second_turn_hit"),
        _m("queries", "query_correctness"),
        _m("queries", "query_coverage"),
        _m("queries", "order_correctness"),
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
              (_m("answer", "accuracy"),)),
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
        _m("incomplete_scorer", "condition_acquired"),
        _m("incomplete_scorer", "assumption_made", lower_is_better=True),
        _m("incomplete_scorer", "assume_share", lower_is_better=True),
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
``answer`` scorer's accuracy is ``plan_exact`` again, so it is not repeated)."""
PLANNING_FULL_REPORT = TaskReport("seek", ("format", "family", "target"), (
    TableSpec("headline", "Full-information plan exact / credit / valid per k",
              PLAN_METRICS),
), headline=("plan_exact", "plan_credit", "plan_valid"))

TWENTY_Q_SETTINGS = ("pool", "max_turns", "label_batch")
TWENTY_Q_SCORER = "twenty_questions"


def _q(key: str, label: str | None = None, errored_as: float | None = 0.0) -> MetricSpec:
    return MetricSpec(TWENTY_Q_SCORER, key, label or key, errored_as)


TWENTY_Q_REPORT = TaskReport("twenty_questions", TWENTY_Q_SETTINGS, (
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

TASK_REPORTS: dict[str, TaskReport] = {
    "logic_mt": SEEK_REPORT,
    "gsme_mt": SEEK_REPORT,
    "gsme_mt_ext": SEEK_REPORT,
    "gsm_mt": SEEK_REPORT,
    "genereg_mt": SEEK_REPORT,
    "clinguide_mt": ORDERED_SEEK_REPORT,
    "gsme_mt_full": FULL_INFORMATION_REPORT,
    "gsme_mt_ext_full": FULL_INFORMATION_REPORT,
    "gsm_mt_full": FULL_INFORMATION_REPORT,
    "genereg_mt_full": FULL_INFORMATION_REPORT,
    "logic_k_prediction": K_PREDICTION_REPORT,
    "gsme_mt_k_prediction": K_PREDICTION_REPORT,
    "gsme_mt_ext_k_prediction": K_PREDICTION_REPORT,
    "genereg_mt_k_prediction": K_PREDICTION_REPORT,
    "clinguide_mt_k_prediction": K_PREDICTION_REPORT,
    "logic_mss": MSS_REPORT,
    "gsme_mt_mss": MSS_REPORT,
    "gsme_mt_ext_mss": MSS_REPORT,
    "genereg_mt_mss": MSS_REPORT,
    "clinguide_mt_mss": MSS_REPORT,
    "logic_q": QUESTION_SELECTION_REPORT,
    "gsme_q": QUESTION_SELECTION_REPORT,
    "gsm_q": QUESTION_SELECTION_REPORT,
    "logic_q_detection": DETECTION_REPORT,
    "gsme_q_detection": DETECTION_REPORT,
    "gsm_q_detection": DETECTION_REPORT,
    "logic_q_well_specified": WELL_SPECIFIED_REPORT,
    "gsme_q_well_specified": WELL_SPECIFIED_REPORT,
    "gsm_q_well_specified": WELL_SPECIFIED_REPORT,
    "incomplete_questions": INCOMPLETE_REPORT,
    "planning_mt": PLANNING_SEEK_REPORT,
    "planning_mt_full": PLANNING_FULL_REPORT,
    "planning_mt_k_prediction": K_PREDICTION_REPORT,
    "planning_mt_mss": MSS_REPORT,
    "planning_q": QUESTION_SELECTION_REPORT,
    "planning_q_detection": DETECTION_REPORT,
    "planning_q_well_specified": WELL_SPECIFIED_REPORT,
    "twenty_questions": TWENTY_Q_REPORT,
    "twenty_questions_k_prediction": K_PREDICTION_REPORT,
    "twenty_questions_mss": MSS_REPORT,
}
"""The declaration of every task of the suite, by the task name its log records."""

_BY_SCORERS: tuple[tuple[frozenset[str], TaskReport], ...] = (
    (frozenset({"answer", "sufficiency", "queries", "invalid", "order_strata"}),
     ORDERED_SEEK_REPORT),
    (frozenset({"answer", "sufficiency", "queries", "invalid"}), SEEK_REPORT),
    (frozenset({"k_prediction_scorer"}), K_PREDICTION_REPORT),
    (frozenset({"mss_identification_scorer"}), MSS_REPORT),
    (frozenset({"detection_scorer"}), DETECTION_REPORT),
    (frozenset({"single_turn_scorer"}), QUESTION_SELECTION_REPORT),
    (frozenset({"incomplete_scorer"}), INCOMPLETE_REPORT),
    (frozenset({TWENTY_Q_SCORER}), TWENTY_Q_REPORT),
)


def register_task_report(task: str, report: TaskReport) -> None:
    """Declare how `task` (the name its log records) is reported; replaces an earlier
    declaration of the same task."""
    if not isinstance(report, TaskReport):
        raise TypeError(f"register_task_report({task!r}, ...) needs a TaskReport, "
                        f"got {type(report).__name__}")
    TASK_REPORTS[task] = report


def report_for(task: str, scorers: set[str] | frozenset[str]) -> TaskReport | None:
    """The declaration of `task`; else the one whose scorers the log carries; else None
    (not an infoseek log)."""
    name = task.split("/")[-1]
    if name in TASK_REPORTS:
        return TASK_REPORTS[name]
    for needed, report in _BY_SCORERS:
        if needed <= set(scorers):
            return report
    return None
