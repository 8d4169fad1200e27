"""Paired comparison (`infoseek.inspect_tasks.report.compare`, `infoseek report --compare`).

A hand-computed example (two problems: every bootstrap resample is one of three means, so
the 95 % interval is exactly their extremes), the problem clustering (copies of a
problem's instances change nothing; splitting problems into samples narrows the
interval), a simulation with a planted difference and a null one, the pairing of report
rows (unpaired samples, other data, no common sample) and the command on small logs of
both reference models, its numbers recomputed from the logs sample by sample.
"""

from __future__ import annotations

import math
import random
import statistics
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from inspect_ai import eval as inspect_eval
from inspect_ai.log import read_eval_log, write_eval_log

from infoseek.cli import main
from infoseek.inspect_tasks._registry import PACKAGED_TASKS
from infoseek.inspect_tasks.report.compare import (
    MDE_FACTOR,
    RowInfo,
    comparison_pairs,
    comparison_table,
    paired_difference,
)
from infoseek.inspect_tasks.report.declarations import MetricSpec
from infoseek.inspect_tasks.report.reading import problem_of
from infoseek.stored_forms import metadata_problem

# ------------------------------------------------------------------ the statistics


def test_a_hand_computed_difference_that_excludes_zero() -> None:
    # problem p1: d = 1, 1; problem p2: d = 1, 0.  Mean d = 3/4.
    # A resample draws (p1, p1): 1, (p1, p2) or (p2, p1): 3/4, (p2, p2): 1/2, with
    # chances 1/4, 1/2, 1/4, so the 2.5 and 97.5 percentiles are 1/2 and 1.
    # D_p = 2, 1; n_p = 2, 2; residuals D_p - 3/4 n_p = 1/2, -1/2;
    # SE = sqrt(2/1 * 1/2) / 4 = 1/4; MDE = 2.8016 / 4.
    result = paired_difference([1, 1, 1, 1], [0, 0, 0, 1], ["p1", "p1", "p2", "p2"])
    assert (result.pairs, result.problems) == (4, 2)
    assert (result.mean_a, result.mean_b, result.difference) == (1.0, 0.25, 0.75)
    assert (result.low, result.high) == (0.5, 1.0)
    assert result.excludes_zero
    assert result.stderr == pytest.approx(0.25)
    assert MDE_FACTOR == pytest.approx(1.959964 + 0.841621, abs=1e-5)
    assert result.mde == pytest.approx(0.25 * 2.801585, abs=1e-5)


def test_a_hand_computed_difference_whose_interval_holds_zero() -> None:
    # p1: d = 1, 0 (mean 1/2); p2: d = 0, 0.  Resample means 1/2, 1/4, 0: interval [0, 1/2].
    result = paired_difference([1, 0, 0, 1], [0, 0, 0, 1], ["p1", "p1", "p2", "p2"])
    assert result.difference == 0.25
    assert (result.low, result.high) == (0.0, 0.5)
    assert not result.excludes_zero
    assert result.stderr == pytest.approx(0.25)


def test_one_problem_has_no_interval() -> None:
    result = paired_difference([1, 0], [0, 0], ["p", "p"])
    assert result.difference == 0.5
    assert math.isnan(result.low) and math.isnan(result.high) and math.isnan(result.mde)
    assert not result.excludes_zero


def test_the_interval_is_over_problems_not_samples() -> None:
    rng = random.Random(5)
    problems = [f"p{i}" for i in range(12)]
    a = [float(rng.random() < 0.7) for _ in problems]
    b = [float(rng.random() < 0.4) for _ in problems]
    once = paired_difference(a, b, problems)
    # every problem's instance three times over: same problems, same interval and MDE
    thrice = paired_difference(a * 3, b * 3, problems * 3)
    assert (thrice.difference, thrice.low, thrice.high) == pytest.approx(
        (once.difference, once.low, once.high))
    assert thrice.mde == pytest.approx(once.mde)
    # the same 36 values read as 36 independent problems give a narrower interval
    split = paired_difference(a * 3, b * 3, [f"s{i}" for i in range(36)])
    assert split.high - split.low < 0.75 * (once.high - once.low)
    assert split.mde < 0.75 * once.mde


def test_the_same_pairs_in_any_order_give_the_same_result() -> None:
    a, b = [1, 0, 1, 1, 0, 1], [0, 0, 1, 0, 0, 1]
    problems = ["x", "x", "y", "z", "z", "w"]
    order = [3, 5, 0, 2, 4, 1]
    first = paired_difference(a, b, problems)
    second = paired_difference([a[i] for i in order], [b[i] for i in order],
                               [problems[i] for i in order])
    assert first == second


def _simulated(seed: int, planted: float, problems: int = 40) -> tuple[list, list, list]:
    """Two instances per problem sharing a difficulty; A succeeds `planted` more often."""
    rng = np.random.default_rng(seed)
    a, b, names = [], [], []
    for p in range(problems):
        base = rng.uniform(0.1, 0.6)
        for _ in range(2):
            a.append(float(rng.random() < base + planted))
            b.append(float(rng.random() < base))
            names.append(f"p{p}")
    return a, b, names


def test_a_planted_difference_is_found() -> None:
    runs = [paired_difference(*_simulated(seed, 0.3)) for seed in range(30)]
    found = sum(r.excludes_zero and r.low > 0 for r in runs)
    covered = sum(r.low <= 0.3 <= r.high for r in runs)
    assert found >= 27, found
    assert covered >= 26, covered  # a 95 % interval holds the truth about 95 % of the time
    assert statistics.fmean(r.difference for r in runs) == pytest.approx(0.3, abs=0.03)


def test_no_difference_is_mostly_not_found() -> None:
    runs = [paired_difference(*_simulated(1000 + seed, 0.0)) for seed in range(100)]
    found = sum(r.excludes_zero for r in runs)
    assert found <= 12, found  # 5 % expected


def test_a_difference_of_one_mde_is_found_about_four_times_in_five() -> None:
    design = statistics.fmean(paired_difference(*_simulated(seed, 0.0)).mde
                              for seed in range(50))
    runs = [paired_difference(*_simulated(2000 + seed, design)) for seed in range(100)]
    found = sum(r.excludes_zero and r.low > 0 for r in runs)
    assert 62 <= found <= 95, (design, found)


# ------------------------------------------------------------------ pairing report rows


def test_a_sample_belongs_to_the_problem_its_metadata_names() -> None:
    record = {"id": "logic-7", "k": 2}
    assert problem_of({"problem": metadata_problem(record)}, "logic-7-yes") == "logic-7"
    assert problem_of({"problem_id": "q-3", "problem": metadata_problem(record)},
                      "q-3-full") == "q-3"  # a single-turn variant
    assert problem_of({"record": {"id": "inc-1"}}, "inc-1") == "inc-1"
    assert problem_of({}, "alone") == "alone"


def _rows(*rows: tuple[str, str, str, str]) -> pd.DataFrame:
    """(log_id, label, model, data) per row; the samples come in `_samples`."""
    return pd.DataFrame([{"log_id": log, "row": label, "model": model, "data": data}
                         for log, label, model, data in rows])


def _samples(log_id: str, values: dict[str, float], k: int = 1) -> list[dict]:
    return [{"log_id": log_id, "id": sample, "epoch": 1, "error": "",
             "problem_id": sample.rsplit("-", 1)[0], "metadata_k": k,
             "score.sufficiency.final_sufficiency": value}
            for sample, value in values.items()]


FINAL = MetricSpec("sufficiency", "final_sufficiency", "final_sufficiency")


def test_unpaired_samples_are_left_out_with_one_line() -> None:
    rows = _rows(("L1", "m1 split=x", "m1", "d"), ("L2", "m2 split=x", "m2", "d"))
    samples = pd.DataFrame(
        _samples("L1", {"p1-a": 1, "p1-b": 1, "p2-a": 1, "p9-a": 1})
        + _samples("L2", {"p1-a": 0, "p1-b": 1, "p2-a": 0}))
    infos = {label: RowInfo(label, model, data, frozenset(
        samples[samples["log_id"] == log]["id"])) for log, label, model, data in
        rows.itertuples(index=False)}
    pairs, refused = comparison_pairs(infos, None)
    assert pairs == [("m1 split=x", "m2 split=x")] and refused == []
    table, lines = comparison_table(samples, rows, [FINAL], "k", pairs)
    assert lines == ["m1 split=x vs m2 split=x: 1 sample(s) only A ran and 0 only B ran "
                     "are left out (unpaired)"]
    overall = table[table["k"] == "all"].iloc[0]
    assert (overall["pairs"], overall["problems"]) == (3, 2)
    assert overall["difference"] == pytest.approx(2 / 3)  # p9-a is not in it
    assert overall["note"].startswith("1 sample(s) only A ran")


def test_rows_on_other_data_or_without_common_samples_are_refused() -> None:
    infos = {
        "m1": RowInfo("m1", "m1", "built a", frozenset({"s1"})),
        "m2": RowInfo("m2", "m2", "built b", frozenset({"s1"})),
        "m3": RowInfo("m3", "m3", "built a", frozenset({"s2"})),
    }
    pairs, refused = comparison_pairs(infos, None)
    assert pairs == [] and refused == []  # nothing common: no automatic comparison
    pairs, refused = comparison_pairs(infos, [("m1", "m2"), ("m1", "m3")])
    assert pairs == []
    assert refused == ["m1 vs m2: not compared, they ran on different data (built a; "
                       "built b)", "m1 vs m3: not compared, no sample ran under both"]


def test_models_are_compared_setting_by_setting() -> None:
    ids = frozenset({"s1"})
    infos = {label: RowInfo(label, label.split()[0], "d", ids) for label in (
        "a oracle=x", "a oracle=y", "b oracle=x", "b oracle=y")}
    pairs, _ = comparison_pairs(infos, [("a", "b")])
    assert pairs == [("a oracle=x", "b oracle=x"), ("a oracle=y", "b oracle=y")]
    pairs, _ = comparison_pairs(infos, [("a oracle=x", "b oracle=y")])
    assert pairs == [("a oracle=x", "b oracle=y")]  # two labels: exactly those rows


# ------------------------------------------------------------------ the command on logs


@pytest.fixture(scope="module")
def logs(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    folder = tmp_path_factory.mktemp("compare-logs")
    results = inspect_eval([PACKAGED_TASKS["logic_mt"](k=[1, 2], per_k=2)],
                           model=["infoseek/optimal", "infoseek/random"],
                           log_dir=str(folder / "runs"), display="none")
    assert [log.status for log in results] == ["success", "success"]
    paths = {log.eval.model.split("/")[-1]: Path(log.location) for log in results}
    paths["runs"] = folder / "runs"
    # the random run without its first sample: that sample is unpaired
    partial = read_eval_log(str(paths["random"]))
    partial.samples = partial.samples[1:]
    paths["partial"] = folder / "partial" / "partial.eval"
    paths["partial"].parent.mkdir()
    write_eval_log(partial, str(paths["partial"]))
    return paths


def _by_problem(path: Path) -> dict[str, tuple[str, float]]:
    log = read_eval_log(str(path))
    return {str(s.id): (str(s.id).rsplit("-", 1)[0],
                        float(s.scores["sufficiency"].value["final_sufficiency"]))
            for s in log.samples}


def test_the_command_compares_two_models(logs, tmp_path: Path,
                                         capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "report"
    assert main(["report", str(logs["runs"]), "--out", str(out), "--no-bundle", "--quiet",
                 "--compare", "infoseek/optimal", "infoseek/random"]) == 0
    table = pd.read_csv(out / "tables" / "logic_mt.compare.csv", keep_default_na=False,
                        na_values=[""])
    assert set(table["a"].str.split().str[0]) == {"infoseek/optimal"}
    row = table[(table["metric"] == "final_sufficiency") & (table["k"] == "all")].iloc[0]
    a, b = _by_problem(logs["optimal"]), _by_problem(logs["random"])
    ids = sorted(a)
    expected = paired_difference([a[i][1] for i in ids], [b[i][1] for i in ids],
                                 [a[i][0] for i in ids])
    assert row["pairs"] == len(ids) == 8 and row["problems"] == 4
    assert row["difference"] == pytest.approx(
        statistics.fmean(a[i][1] - b[i][1] for i in ids))
    assert (row["ci_low"], row["ci_high"], row["mde"]) == pytest.approx(
        (expected.low, expected.high, expected.mde))
    assert (row["excludes_0"] == "*") == expected.excludes_zero
    markdown = (out / "tables" / "logic_mt.compare.md").read_text(encoding="utf-8")
    assert "resampling problems" in markdown and "| final_sufficiency | all |" in markdown
    # a second report is the same bytes (seeded bootstrap)
    again = tmp_path / "again"
    assert main(["report", str(logs["runs"]), "--out", str(again), "--no-bundle",
                 "--quiet", "--compare", "infoseek/optimal", "infoseek/random"]) == 0
    assert (again / "tables" / "logic_mt.compare.csv").read_bytes() == \
        (out / "tables" / "logic_mt.compare.csv").read_bytes()


def test_unpaired_samples_are_named_and_unknown_names_refused(
        logs, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    capsys.readouterr()
    out = tmp_path / "partial"
    assert main(["report", str(logs["optimal"]), str(logs["partial"]), "--out", str(out),
                 "--no-bundle", "--quiet"]) == 0
    err = capsys.readouterr().err
    assert "1 sample(s) only A ran and 0 only B ran are left out (unpaired)" in err
    table = pd.read_csv(out / "tables" / "logic_mt.compare.csv")
    assert table[table["k"] == "all"]["pairs"].max() == 7
    assert "## Comparisons: samples and pairs left out" in (out / "report.md").read_text()
    assert main(["report", str(logs["runs"]), "--out", str(tmp_path / "bad"), "--no-bundle",
                 "--quiet", "--compare", "infoseek/optimal", "nobody/else"]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "'nobody/else' is neither a row label nor a model" in err[0]
