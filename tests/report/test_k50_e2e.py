"""k50 end to end on logic_mt (small, seed 0): `infoseek/random`'s k50 from its runs
agrees with the k50 of its exact chance curve on the same problems (within the bootstrap
interval), and `infoseek/optimal` reaches the builder's cap ("> cap 5"); the report's k50
table and `infoseek k50` say the same.

The exact chance (`benchmarks/random_chance.py`, as `benchmarks/bench_hard_splits.py`
uses it) is the chance that random's uniformly drawn questions, within the turn cap,
hold the canonical MSS (with forbid-alternatives, the logic default, the only MSS that
can be asked); asking a whole MSS makes the target Known against any oracle, so it is a
lower bound on random's final sufficiency, and the test checks that the curve measured
from the runs crosses one half where that exact curve does."""

from __future__ import annotations

import importlib.util
from pathlib import Path

import pandas as pd
import pytest
from inspect_ai import eval as inspect_eval
from inspect_ai import task_with
from inspect_ai.log import read_eval_log, write_eval_log

from infoseek.builders.datasets import domain_records
from infoseek.cli import main
from infoseek.contract import LOGIC_FORBID_ALTERNATIVES
from infoseek.inspect_tasks._registry import PACKAGED_TASKS
from infoseek.inspect_tasks.report import build_report
from infoseek.inspect_tasks.report.k50 import ABOVE, curve_k50

ROOT = Path(__file__).resolve().parents[2]
KS, PER_K, TURNS, SEED = [1, 2, 3, 4], 8, 8, 0


def _random_chance():
    spec = importlib.util.spec_from_file_location(
        "bench_random_chance_k50", ROOT / "benchmarks" / "random_chance.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.fixture(scope="module")
def logs(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("k50-logs")
    task = PACKAGED_TASKS["logic_mt"]
    # one eval call (one start-up): random at k = 1..4, and optimal only at the builder's
    # largest k, where it is sufficient, so its k50 is "> cap 5"
    runs = inspect_eval([task_with(task(k=KS, per_k=PER_K, max_turns=TURNS, seed=SEED),
                                   model="infoseek/random"),
                         task_with(task(k=[5], per_k=2, max_turns=TURNS, seed=SEED),
                                   model="infoseek/optimal")],
                        log_dir=str(folder), display="none")
    assert [log.status for log in runs] == ["success", "success"]
    return folder


def _model(path: Path) -> str:
    return read_eval_log(str(path), header_only=True).eval.model


def _exact_k50() -> float:
    records = domain_records("logic-mt", ks=KS, per_k=PER_K, seed=SEED)
    table = _random_chance().chance_by_k(records, TURNS, LOGIC_FORBID_ALTERNATIVES)
    assert sorted(table) == KS
    # every k has the same number of samples (two target values per record)
    return curve_k50({k: row["chance"] for k, row in table.items()})


def test_random_k50_agrees_with_its_exact_chance_and_optimal_reaches_the_cap(
        logs: Path, tmp_path: Path) -> None:
    report = build_report([logs], tmp_path / "report", bundle=False)
    table = pd.read_csv(report.out / "tables" / "logic_mt.k50.csv", keep_default_na=False,
                        na_values=[""])
    by_model = {line["model"]: line for line in table.to_dict("records")}
    assert set(by_model) == {"infoseek/random", "infoseek/optimal"}
    random_line = by_model["infoseek/random"]
    assert random_line["ks"] == "1 2 3 4"
    assert random_line["samples_per_k"] == " ".join([str(2 * PER_K)] * len(KS))
    exact = _exact_k50()
    assert 1 < exact < 2  # 0.778, 0.344, 0.446, 0.074 at k = 1..4: 1.73
    assert random_line["k50_low"] <= exact <= random_line["k50_high"], (exact, random_line)
    # measured 1.67 [< 1, 3.24] against the exact 1.73: the estimate is close and the
    # interval ends inside the k run (k50 <= 4 is established)
    assert abs(random_line["k50_estimate"] - exact) < 1
    assert random_line["k50_high"] < KS[-1]
    optimal_line = by_model["infoseek/optimal"]
    assert optimal_line["k50_estimate"] == ABOVE and optimal_line["k50"] == "> cap 5"
    assert optimal_line["cap"] == 5 and pd.isna(optimal_line["next_k"])
    markdown = (report.out / "tables" / "logic_mt.k50.md").read_text(encoding="utf-8")
    assert "> cap 5" in markdown and f"{random_line['k50_estimate']:.2f}" in markdown


def test_the_k50_command_names_the_next_k(logs: Path, capsys: pytest.CaptureFixture,
                                         tmp_path: Path) -> None:
    assert main(["k50", str(logs)]) == 0
    out = capsys.readouterr().out
    assert "infoseek/optimal" in out and "k50 > cap 5" in out
    assert "done: k50 > cap" in out
    # a first pass at k = 1 only (the random run's k = 1 samples): above one half there,
    # so run k = 2 and 3 next
    first = tmp_path / "first-pass"
    first.mkdir()
    log = read_eval_log(str(next(p for p in logs.iterdir() if "random" in _model(p))))
    log.samples = [s for s in log.samples or [] if s.metadata.get("k") == 1]
    write_eval_log(log, str(first / "first.eval"))
    assert main(["k50", str(first)]) == 0
    out = capsys.readouterr().out
    assert "k50 > 1" in out and "next: run -T k=[2,3]" in out
    assert main(["k50", str(tmp_path / "missing")]) == 2
    assert "no such log file or folder" in capsys.readouterr().err
