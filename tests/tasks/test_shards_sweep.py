"""`infoseek sweep --workers N` (issue 33, item 2): N processes, each running one share of
every run's samples (`-T shard=i/N`) as its own eval set under the log folder; the
report of the folder equals the one-process sweep's, table for table."""

from __future__ import annotations

from pathlib import Path

import pandas as pd
import pytest

from infoseek.cli import main as infoseek_main
from infoseek.inspect_tasks.report import build_report
from infoseek.inspect_tasks.report.sweeps import SweepError, run_sweep

MODELS = ["infoseek/random"]


def _tables(report: Path) -> dict[str, pd.DataFrame]:
    """Every table of a report without the column naming the logs behind each row."""
    out = {}
    for path in sorted((report / "tables").glob("*.csv")):
        frame = pd.read_csv(path).drop(columns=["source"], errors="ignore")
        out[path.name] = frame.sort_values(list(frame.columns[:1]), kind="stable") \
            .reset_index(drop=True)
    return out


def _same_report(one: Path, sharded: Path, tmp: Path) -> None:
    a = _tables(build_report([one], tmp / "report-one", bundle=False).out)
    b = _tables(build_report([sharded], tmp / "report-sharded", bundle=False).out)
    assert sorted(a) == sorted(b) and any("headline" in name for name in a)
    for name in a:
        pd.testing.assert_frame_equal(b[name], a[name], obj=name)


@pytest.fixture(scope="module")
def one_process(tmp_path_factory) -> Path:
    folder = tmp_path_factory.mktemp("sweep") / "one"
    assert run_sweep("force_ask", MODELS, str(folder), per_k=1, display="none")
    return folder


def test_a_sweep_run_as_shares_reports_as_the_one_process_sweep(one_process, tmp_path):
    for share in ("1/2", "2/2"):
        assert run_sweep("force_ask", MODELS, str(tmp_path / "shares" / share[0]), per_k=1,
                         display="none", shard=share)
    _same_report(one_process, tmp_path / "shares", tmp_path)


def test_a_bad_share_is_refused_before_any_run(tmp_path) -> None:
    with pytest.raises(SweepError, match=r"^-T shard must be i/n"):
        run_sweep("force_ask", MODELS, str(tmp_path / "logs"), per_k=1, shard="3/2")
    assert not (tmp_path / "logs").exists() or not list((tmp_path / "logs").rglob("*.eval"))


@pytest.mark.slow
def test_workers_run_the_shares_in_processes_and_report_as_one(one_process, tmp_path,
                                                                 capsys) -> None:
    folder = tmp_path / "workers"
    args = ["sweep", "force_ask", "--per-k", "1", "--workers", "2", "--log-dir", str(folder)]
    assert infoseek_main([*args, *(x for m in MODELS for x in ("--model", m))]) == 0
    assert "on 2 workers: every share finished" in capsys.readouterr().out
    assert sorted(p.name for p in folder.iterdir()) == ["shard-1-of-2", "shard-2-of-2"]
    _same_report(one_process, folder, tmp_path)
