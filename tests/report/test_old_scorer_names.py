"""Logs of earlier eval versions still report: a log that recorded the seek protocol's
final-answer scorer as ``answer`` (before eval version 2-A) gives the same report rows as
the same log under today's name ``final_answer``, and so does one that also predates the
report named in the task's metadata (`infoseek.scorers.recorded_names`)."""

from __future__ import annotations

from pathlib import Path

import pandas as pd
import pytest
from inspect_ai import eval as inspect_eval
from inspect_ai.log import EvalLog, read_eval_log, write_eval_log

from infoseek.inspect_tasks._registry import PACKAGED_TASKS
from infoseek.inspect_tasks.report import build_report
from infoseek.inspect_tasks.report.declarations import REPORT_KEY

OLD, NEW = "answer", "final_answer"


def renamed(log: EvalLog, old: str, new: str) -> EvalLog:
    """`log` as if its scorer `old` had been called `new` (header, results, samples)."""
    for spec in log.eval.scorers or []:
        spec.name = new if spec.name == old else spec.name
    for score in log.results.scores if log.results else []:
        score.name = new if score.name == old else score.name
        score.scorer = new if score.scorer == old else score.scorer
    for reduction in log.reductions or []:
        reduction.scorer = new if reduction.scorer == old else reduction.scorer
    for sample in log.samples or []:
        sample.scores = {(new if name == old else name): score
                         for name, score in (sample.scores or {}).items()}
    return log


@pytest.fixture(scope="module")
def logs(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    folder = tmp_path_factory.mktemp("old-names")
    [log] = inspect_eval(PACKAGED_TASKS["logic_mt"](), model="infoseek/optimal", limit=2,
                         log_dir=str(folder / "new"), display="none")
    assert log.status == "success", log.error
    paths = {"new": Path(log.location)}
    old = renamed(read_eval_log(log.location), NEW, OLD)
    paths["old"] = folder / "old" / "old.eval"
    paths["old"].parent.mkdir()
    write_eval_log(old, str(paths["old"]))
    older = renamed(read_eval_log(log.location), NEW, OLD)
    older.eval.metadata = {k: v for k, v in (older.eval.metadata or {}).items()
                           if k != REPORT_KEY}
    paths["older"] = folder / "older" / "older.eval"
    paths["older"].parent.mkdir()
    write_eval_log(older, str(paths["older"]))
    return paths


def test_the_copies_record_the_old_name(logs: dict[str, Path]) -> None:
    new, old, older = (read_eval_log(str(logs[n])) for n in ("new", "old", "older"))
    assert [s.name for s in new.eval.scorers][0] == NEW
    for log in (old, older):
        assert [s.name for s in log.eval.scorers][0] == OLD
        assert all(OLD in s.scores and NEW not in s.scores for s in log.samples)
    assert REPORT_KEY in new.eval.metadata and REPORT_KEY not in (older.eval.metadata or {})


def _tables(out: Path) -> dict[str, pd.DataFrame]:
    """Every table CSV of a report, without the columns that name the log file."""
    tables = {}
    for path in sorted((out / "tables").glob("*.csv")):
        frame = pd.read_csv(path, keep_default_na=False, na_values=[""])
        tables[path.name] = frame.drop(columns=[c for c in ("log", "file", "link")
                                                if c in frame.columns])
    return tables


@pytest.mark.parametrize("name", ["old", "older"])
def test_a_log_with_the_old_name_gives_the_same_rows(logs: dict[str, Path], name: str,
                                                     tmp_path: Path) -> None:
    new = build_report([logs["new"]], tmp_path / "new", bundle=False)
    old = build_report([logs[name]], tmp_path / name, bundle=False)
    assert not new.skipped and not old.skipped
    new_tables, old_tables = _tables(new.out), _tables(old.out)
    assert list(new_tables) == list(old_tables)
    assert "logic_mt.headline.csv" in new_tables
    headline = new_tables["logic_mt.headline.csv"]
    run = headline[headline["kind"] == "run"]
    assert len(run) == 1 and run.iloc[0]["accuracy"] == 1.0  # the renamed scorer's column
    for table, frame in new_tables.items():
        pd.testing.assert_frame_equal(old_tables[table], frame, obj=table)
    samples_new = pd.read_csv(new.out / "samples.csv").drop(columns=["log", "file"],
                                                            errors="ignore")
    samples_old = pd.read_csv(old.out / "samples.csv").drop(columns=["log", "file"],
                                                            errors="ignore")
    assert f"score.{NEW}.accuracy" in samples_old.columns
    assert not any(c.startswith(f"score.{OLD}.") for c in samples_old.columns)
    pd.testing.assert_frame_equal(samples_old, samples_new)
