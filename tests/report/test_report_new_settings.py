"""The report shows what the issue-34 settings measure: a run under the withholding oracle
gets a table of its recovery metrics per k, a run with unanswerable problems mixed in
(``-T unanswerable=``) gets the precision / recall of "cannot be determined", and the
share of unanswerable problems is part of a row's setting, so such a run never pools with
a run without them.

Small real logs of the reference models (`inspect_ai.eval`), one module-scoped report.
"""

from __future__ import annotations

import math

import pandas as pd
import pytest
from inspect_ai import eval as inspect_eval

from infoseek.inspect_tasks.logic_mt import logic_mt
from infoseek.inspect_tasks.report import build_report
from infoseek.inspect_tasks.report.declarations import (
    SEEK_REPORT,
    WITHHOLDING_TABLE,
    report_for,
)

OPTIMAL, RANDOM = "infoseek/optimal", "infoseek/random"
SEEK_SCORERS = {"sufficiency", "final_answer", "queries", "invalid"}


@pytest.fixture(scope="module")
def report(tmp_path_factory: pytest.TempPathFactory):
    runs = tmp_path_factory.mktemp("new-settings") / "runs"
    tasks = [logic_mt(k=[1, 2], per_k=3),
             logic_mt(k=[1, 2], per_k=3, unanswerable=0.25),
             logic_mt(k=[1, 2], per_k=3, oracle="withholding", forbid_alternatives=False),
             logic_mt(k=[1, 2], per_k=3, oracle="withholding_all")]
    for task in tasks:
        for log in inspect_eval(task, model=[OPTIMAL, RANDOM], log_dir=str(runs),
                                display="none"):
            assert log.status == "success", log.error
    return build_report([runs], tmp_path_factory.mktemp("report"), bundle=False)


def table(report, name: str) -> pd.DataFrame:
    path = report.out / "tables" / f"{name}.csv"
    assert path.exists(), sorted(p.name for p in (report.out / "tables").iterdir())
    return pd.read_csv(path, keep_default_na=False, na_values=[""])


def test_the_additions_join_whatever_seek_declaration_the_log_has() -> None:
    plain = report_for("logic_mt", SEEK_SCORERS, {"report": "seek"})
    assert plain is SEEK_REPORT
    both = report_for("planning_mt", SEEK_SCORERS | {"plan", "withholding", "undetermined"},
                      {"report": "seek"})
    assert WITHHOLDING_TABLE in both.tables and "undetermined" in both.extras
    assert any(t.metrics[1].key == "plan_exact" for t in both.tables if t.name == "headline")


def test_unanswerable_share_is_part_of_the_row(report) -> None:
    headline = table(report, "logic_mt.headline")
    runs = headline[headline["kind"] == "run"]
    assert len(runs) == 8  # two models x four settings, nothing pooled
    with_share = runs[runs["label"].str.contains("unanswerable=0.25")]
    assert sorted(with_share["model"]) == [OPTIMAL, RANDOM]
    # the share's off value is no setting: the default run's label does not name it
    assert runs["label"].str.contains("unanswerable").sum() == 2


def test_the_undetermined_table_scores_saying_it(report) -> None:
    rows = table(report, "logic_mt.undetermined")
    by_model = {r["model"]: r for _, r in rows[rows["kind"] == "run"].iterrows()}
    assert set(by_model) == {OPTIMAL, RANDOM}  # only the runs with the share
    optimal, random = by_model[OPTIMAL], by_model[RANDOM]
    # 12 ordinary samples (three problems per k, two task instances each), share 0.25:
    # round(0.25 * 6 / 0.75) = 2 unanswerable problems per k, so 4 of 16 samples
    assert (optimal["unanswerable_samples"], optimal["samples"]) == (4, 16)
    assert (optimal["precision"], optimal["recall"], optimal["f1"]) == (1.0, 1.0, 1.0)
    assert optimal["stopped_before_cap"] == 1.0
    assert optimal["said_rate"] == 0.25
    assert (random["recall"], random["said_rate"]) == (0.0, 0.0)


def test_the_withholding_table_shows_recovery_per_k(report) -> None:
    rows = table(report, "logic_mt.withholding")
    every = rows[rows["kind"] == "run"]
    assert len(every) == 4 and every["label"].str.contains("oracle=withholding").all()
    none_left = every[every["oracle"] == "withholding_all"]
    # nothing can settle the target: the exact strategy says so, the random one guesses
    assert none_left.loc[none_left["model"] == OPTIMAL, "recognised_unlearnable"].item() == 1.0
    assert none_left.loc[none_left["model"] == RANDOM, "recognised_unlearnable"].item() < 1.0
    runs = every[every["oracle"] == "withholding"]
    assert runs["recognised_unlearnable_why"].str.startswith("only under").all()
    columns = set(rows.columns)
    assert {"recovery_k1", "withheld_asked_k2", "withheld_reasked"} <= columns, columns
    optimal = runs[runs["model"] == OPTIMAL].iloc[0]
    # the exact strategy never asks what cannot be learned, so it has nothing to recover
    assert (optimal["withheld_asked"], optimal["recovery_n"]) == (0.0, 0)
    assert optimal["recovery_why"].startswith("no episode asked a withheld variable")
    random = runs[runs["model"] == RANDOM].iloc[0]
    assert random["withheld_asked"] > 0 and random["recovery_n"] > 0
    assert 0.0 <= random["recovery"] <= 1.0 and not math.isnan(random["recovery"])
