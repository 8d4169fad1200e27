"""Repeats (`infoseek.inspect_tasks.report.repeats`): pass@1, pass^j and the aptitude /
unreliability split, by hand and on ``--epochs 3`` logs of both reference models (the
optimal one always right, so pass^3 = pass@1 = 1; the random one's numbers recomputed
from its per-epoch scores; and a copy of it with planted epoch-to-epoch variation)."""

from __future__ import annotations

import math
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from inspect_ai import eval as inspect_eval
from inspect_ai.log import read_eval_log, write_eval_log

from infoseek.inspect_tasks._registry import PACKAGED_TASKS
from infoseek.inspect_tasks.report import build_report
from infoseek.inspect_tasks.report.repeats import repeat_stats


def test_hand_computed_repeats() -> None:
    # three samples, three repeats each: 2 of 3, 3 of 3 and 0 of 3 right
    stats = repeat_stats([[1, 0, 1], [1, 1, 1], [0, 0, 0]])
    assert (stats["samples"], stats["repeats"], stats["scores"]) == (3, 3, "0/1")
    assert stats["pass@1"] == pytest.approx((2 / 3 + 1 + 0) / 3)
    # pass^2 per sample: C(2,2)/C(3,2) = 1/3, 1, 0
    assert stats["pass^2"] == pytest.approx((1 / 3 + 1 + 0) / 3)
    assert stats["pass^3"] == pytest.approx(1 / 3)  # only the second is right every time
    # sorted [0, 1, 1]: the 90th percentile sits at position 1.8 -> 1, the 10th at 0.2 -> 0.2
    assert stats["aptitude"] == pytest.approx((1 + 1 + 0) / 3)
    assert stats["unreliability"] == pytest.approx((0.8 + 0 + 0) / 3)


def test_one_right_in_three_is_aptitude_and_unreliability_point_eight() -> None:
    stats = repeat_stats([[0, 0, 1]])
    assert stats["aptitude"] == pytest.approx(0.8)
    assert stats["unreliability"] == pytest.approx(0.8)
    assert stats["pass^3"] == 0.0 and stats["pass^2"] == 0.0


def test_graded_scores_get_no_pass_hat_and_uneven_repeats_the_fewest() -> None:
    stats = repeat_stats([[0.5, 1.0, 1.0], [0.0, 0.5]])
    assert stats["scores"] == "graded" and stats["repeats"] == 2
    assert math.isnan(stats["pass^2"]) and "pass^3" not in stats
    assert stats["pass@1"] == pytest.approx((2.5 / 3 + 0.25) / 2)
    assert repeat_stats([[1.0], [0.0]]) == {"samples": 0, "repeats": 0}  # no repeats


EPOCHS = 3


@pytest.fixture(scope="module")
def logs(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    folder = tmp_path_factory.mktemp("repeat-logs")
    results = inspect_eval([PACKAGED_TASKS["logic_mt"](k=[1, 2], per_k=2)],
                           model=["infoseek/optimal", "infoseek/random"], epochs=EPOCHS,
                           log_dir=str(folder / "runs"), display="none")
    assert [log.status for log in results] == ["success", "success"]
    paths = {log.eval.model.split("/")[-1]: Path(log.location) for log in results}
    # planted variation: in the random run, each sample's final sufficiency is set to its
    # epoch-1 value in epochs 1 and 3 and flipped in epoch 2, so a sample right in epoch 1
    # is right 2 times of 3, a wrong one 1 (the random reference's own repeats differ)
    planted = read_eval_log(str(paths["random"]))
    first = {s.id: s.scores["sufficiency"].value["final_sufficiency"]
             for s in planted.samples if s.epoch == 1}
    for sample in planted.samples:
        value = dict(sample.scores["sufficiency"].value)
        value["final_sufficiency"] = (1.0 - first[sample.id] if sample.epoch == 2
                                      else first[sample.id])
        sample.scores["sufficiency"].value = value
    paths["planted"] = folder / "planted" / "planted.eval"
    paths["planted"].parent.mkdir()
    write_eval_log(planted, str(paths["planted"]))
    return paths


def _per_sample(path: Path, scorer: str, key: str) -> dict[str, list[float]]:
    out: dict[str, list[float]] = {}
    for sample in read_eval_log(str(path)).samples:
        out.setdefault(str(sample.id), []).append(float(sample.scores[scorer].value[key]))
    return out


def _line(table: pd.DataFrame, model: str, metric: str, k: str = "all") -> pd.Series:
    found = table[(table["label"].str.startswith(model)) & (table["metric"] == metric)
                  & (table["k"].astype(str) == k)]
    assert len(found) == 1, (model, metric, k)
    return found.iloc[0]


def test_the_report_shows_repeats_of_both_reference_models(logs, tmp_path: Path) -> None:
    report = build_report([logs["optimal"], logs["random"]], tmp_path / "r", bundle=False)
    table = pd.read_csv(report.out / "tables" / "logic_mt.repeats.csv",
                        keep_default_na=False, na_values=[""])
    for metric in ("final_sufficiency", "accuracy"):
        for k in ("1", "2", "all"):
            line = _line(table, "infoseek/optimal", metric, k)
            assert line["repeats"] == EPOCHS
            assert line["pass@1"] == line[f"pass^{EPOCHS}"] == line["aptitude"] == 1.0
            assert line["unreliability"] == 0.0
    scores = _per_sample(logs["random"], "sufficiency", "final_sufficiency")
    assert all(len(v) == EPOCHS for v in scores.values()) and len(scores) == 8
    line = _line(table, "infoseek/random", "final_sufficiency")
    assert line["samples"] == 8
    assert line["pass@1"] == pytest.approx(np.mean([np.mean(v) for v in scores.values()]))
    assert line["pass^3"] == pytest.approx(np.mean([min(v) for v in scores.values()]))
    assert line["unreliability"] == pytest.approx(np.mean(
        [np.percentile(v, 90) - np.percentile(v, 10) for v in scores.values()]))
    markdown = (report.out / "tables" / "logic_mt.repeats.md").read_text(encoding="utf-8")
    assert "| pass@1 | pass^2 | pass^3 | aptitude | unreliability |" in markdown
    # the same report pairs the two models (difference, interval, smallest detectable
    # difference) and gives each its k50 (issue 34's two-model, three-epoch report)
    compare = pd.read_csv(report.out / "tables" / "logic_mt.compare.csv")
    line = compare[(compare["metric"] == "final_sufficiency")
                   & (compare["k"].astype(str) == "1")].iloc[0]
    assert line["a"].startswith("infoseek/optimal") and line["b"].startswith("infoseek/random")
    assert line["ci_low"] <= line["difference"] <= line["ci_high"] and line["mde"] > 0
    # k = 1: two problems, each posed as two samples (one per hidden value), paired
    # across the models with their epochs pooled per sample
    assert (line["pairs"], line["problems"]) == (4, 2)
    k50 = pd.read_csv(report.out / "tables" / "logic_mt.k50.csv", keep_default_na=False)
    assert sorted(k50.loc[k50["kind"] == "run", "model"]) == ["infoseek/optimal",
                                                              "infoseek/random"]
    assert k50.loc[k50["model"] == "infoseek/optimal", "k50"].item() == "> 2"
    # the headline counts a sample once (mean of its repeats), as Inspect's reducer does
    headline = pd.read_csv(report.out / "tables" / "logic_mt.headline.csv")
    random_row = headline[headline["label"].str.startswith("infoseek/random")].iloc[0]
    assert random_row["final_sufficiency_n"] == 8 and random_row["samples"] == 8 * EPOCHS
    recorded = read_eval_log(str(logs["random"]), header_only=True).results
    [sufficiency] = [s for s in recorded.scores if s.name == "sufficiency"]
    assert random_row["final_sufficiency"] == pytest.approx(
        sufficiency.metrics["final_sufficiency"].value)
    assert random_row["final_sufficiency_stderr"] == pytest.approx(
        np.std([np.mean(v) for v in scores.values()], ddof=1) / math.sqrt(8))


def test_planted_variation_is_measured(logs, tmp_path: Path) -> None:
    report = build_report([logs["planted"]], tmp_path / "p", bundle=False)
    table = pd.read_csv(report.out / "tables" / "logic_mt.repeats.csv",
                        keep_default_na=False, na_values=[""])
    scores = _per_sample(logs["planted"], "sufficiency", "final_sufficiency")
    # every sample now has 1 or 2 right of 3: never all right, never all wrong
    assert sorted({sum(v) for v in scores.values()}) <= [1.0, 2.0]
    line = _line(table, "infoseek/random", "final_sufficiency")
    right_twice = sum(sum(v) == 2 for v in scores.values())
    assert line["pass@1"] == pytest.approx(sum(sum(v) for v in scores.values()) / 24)
    assert line["pass^3"] == 0.0
    assert line["pass^2"] == pytest.approx(right_twice / 3 / 8)  # C(2,2)/C(3,2) each
    assert line["aptitude"] == pytest.approx((right_twice * 1.0 + (8 - right_twice) * 0.8)
                                             / 8)
    # sorted [0, 1, 1]: 10th percentile 0.2; [0, 0, 1]: 0 -> unreliability 0.8 either way
    assert line["unreliability"] == pytest.approx(0.8)


def test_no_repeats_no_table(logs, tmp_path: Path) -> None:
    single = read_eval_log(str(logs["optimal"]))
    single.samples = [s for s in single.samples if s.epoch == 1]
    path = tmp_path / "single.eval"
    write_eval_log(single, str(path))
    report = build_report([path], tmp_path / "s", bundle=False)
    assert not (report.out / "tables" / "logic_mt.repeats.csv").exists()
    assert "repeats" not in {t.name for s in report.sections for t in s.tables}
