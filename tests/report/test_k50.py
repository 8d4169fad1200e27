"""k50 (`infoseek.inspect_tasks.report.k50`): the fit by hand, censoring and the k to run
next, and a planted curve whose k50 is known: the estimate lands near it and the
bootstrap interval covers it in about the share it claims."""

from __future__ import annotations

import math

import numpy as np
import pandas as pd
import pytest

from infoseek.inspect_tasks.report.declarations import FULL_INFORMATION_REPORT, SEEK_REPORT
from infoseek.inspect_tasks.report.k50 import (
    ABOVE,
    BELOW,
    TURN_CAP_NOTE,
    crossing,
    curve_k50,
    fit_k50,
    isotonic_non_increasing,
    k50_display,
    k50_table,
    k50_text,
    next_ks,
)


def test_isotonic_fit_pools_rising_neighbours_by_weight() -> None:
    assert isotonic_non_increasing([0.9, 0.8, 0.5], [1, 1, 1]) == [0.9, 0.8, 0.5]
    # 0.9 < 0.95 pool to 0.925; 0.5 < 0.6 pool to 0.55
    assert isotonic_non_increasing([0.9, 0.95, 0.5, 0.6, 0.1], [1] * 5) == pytest.approx(
        [0.925, 0.925, 0.55, 0.55, 0.1])
    # weights: (0.2 * 3 + 0.6 * 1) / 4 = 0.3
    assert isotonic_non_increasing([0.2, 0.6], [3, 1]) == pytest.approx([0.3, 0.3])
    # a rise that reaches back over two blocks
    assert isotonic_non_increasing([0.5, 0.4, 0.9], [1, 1, 1]) == pytest.approx([0.6] * 3)


def test_crossing_interpolates_between_the_bracketing_k() -> None:
    assert crossing([1, 2, 3], [0.9, 0.7, 0.3]) == pytest.approx(2.5)
    assert crossing([2, 5], [0.8, 0.2]) == pytest.approx(3.5)  # a gap: 2 + 3 * 0.3 / 0.6
    assert crossing([1, 2, 3], [0.9, 0.5, 0.5]) == 2.0  # the least k reaching one half
    assert crossing([3, 4], [0.5, 0.1]) == 3.0
    assert crossing([1, 2], [0.9, 0.6]) == ABOVE
    assert crossing([3, 4], [0.4, 0.1]) == BELOW
    assert curve_k50({1: 0.9, 2: 0.95, 3: 0.2}) == pytest.approx(2 + 0.425 / 0.725)


def _samples(curve: dict[int, float], problems: int, per_problem: int,
             rng: np.random.Generator) -> tuple[list[int], list[float], list[str]]:
    ks, scores, ids = [], [], []
    for k, p in curve.items():
        for index in range(problems):
            for _ in range(per_problem):
                ks.append(k)
                scores.append(float(rng.random() < p))
                ids.append(f"k{k}-{index}")
    return ks, scores, ids


PLANTED = {1: 0.98, 2: 0.95, 3: 0.88, 4: 0.72, 5: 0.45, 6: 0.25, 7: 0.10, 8: 0.05}
PLANTED_K50 = 4 + (0.72 - 0.5) / (0.72 - 0.45)  # 4.8148...


def test_a_planted_curve_is_recovered_and_covered() -> None:
    assert curve_k50(PLANTED) == pytest.approx(PLANTED_K50)
    covered = near = excluded_wrong = 0
    runs = 40
    for seed in range(runs):
        rng = np.random.default_rng(1000 + seed)
        fit = fit_k50(*_samples(PLANTED, problems=30, per_problem=2, rng=rng),
                      resamples=400)
        assert fit.low <= fit.estimate <= fit.high
        covered += fit.low <= PLANTED_K50 <= fit.high
        near += abs(fit.estimate - PLANTED_K50) < 0.5
        # the interval is informative: a k50 one whole k away is outside it
        excluded_wrong += not (fit.low <= PLANTED_K50 + 1 <= fit.high)
    assert covered >= 34, covered  # a 95% interval: about 38 of 40 expected
    assert near >= 36, near
    assert excluded_wrong >= 36, excluded_wrong


def test_the_fit_is_deterministic_and_resamples_problems_not_samples() -> None:
    rng = np.random.default_rng(7)
    data = _samples(PLANTED, problems=10, per_problem=3, rng=rng)
    assert fit_k50(*data, resamples=300) == fit_k50(*data, resamples=300)
    # the same scores with every sample its own problem: more independent units, so a
    # narrower interval than when the three samples of a problem move together
    # (here each problem's three samples are made identical)
    ks, scores, ids = data
    same = [scores[i - i % 3] for i in range(len(scores))]
    clustered = fit_k50(ks, same, ids, resamples=300)
    apart = fit_k50(ks, same, [f"{p}-{i}" for i, p in enumerate(ids)], resamples=300)
    assert clustered.estimate == apart.estimate
    assert (clustered.high - clustered.low) > (apart.high - apart.low)


def test_censored_rows_say_so_and_name_the_next_k() -> None:
    ks = [k for k in range(1, 9) for _ in range(4)]
    ones = [1.0] * len(ks)
    ids = [f"{k}-{i % 4}" for i, k in enumerate(ks)]
    fit = fit_k50(ks, ones, ids, resamples=50)  # optimal: sufficient at every k
    assert fit.estimate == fit.low == fit.high == ABOVE
    assert k50_text(fit.estimate, fit, cap=8) == "> cap 8"
    assert next_ks(fit, cap=8) == []
    short = fit_k50(ks[:20], ones[:20], ids[:20], resamples=50)  # k = 1..5 only
    assert k50_text(short.estimate, short, cap=8) == "> 5"
    assert next_ks(short, cap=8) == [6, 7]
    assert next_ks(short, cap=6) == [6]
    assert next_ks(short, cap=None) == []
    low = fit_k50([3, 3, 4, 4], [0.0, 0.0, 0.0, 1.0], ["a", "b", "c", "d"], resamples=50)
    assert low.estimate == BELOW and k50_text(low.estimate, low, 8) == "< 3"
    assert next_ks(low, cap=8) == [1, 2]


def test_a_gap_between_the_bracketing_k_is_filled_next() -> None:
    ks = [1] * 20 + [2] * 20 + [6] * 20
    scores = [1.0] * 20 + [1.0] * 18 + [0.0] * 2 + [0.0] * 20
    ids = [f"{k}-{i}" for i, k in enumerate(ks)]
    fit = fit_k50(ks, scores, ids, resamples=200)
    assert 2 < fit.estimate < 6
    assert set(next_ks(fit, cap=8)) >= {3, 4, 5}
    assert set(next_ks(fit, cap=8)) <= {3, 4, 5, 7}


def _frames(with_cap: bool) -> tuple[pd.DataFrame, pd.DataFrame, pd.DataFrame]:
    rows, samples = [], []
    for log_id, ks in (("L1", [1, 2, 3]), ("L2", [4, 5])):
        for k in ks:
            for index in range(6):
                samples.append({"log_id": log_id, "id": f"p{k}-{index}", "epoch": 1,
                                "problem_id": f"p{k}-{index}", "error": "",
                                "metadata_k": k,
                                "score.sufficiency.final_sufficiency":
                                    float(index < 7 - k)})
        rows.append({"log_id": log_id, "row": "m/x", "model": "m/x", "oracle": "adversarial"})
    evals = pd.DataFrame({"log_id": ["L1", "L2"],
                          "data.builder": ["logic-mt@1.1.0"] * 2,
                          "setting.k": ["[1, 2, 3]", "[4, 5]"],
                          "setting.max_turns": [10, 10] if with_cap else [None, None]})
    return pd.DataFrame(samples), pd.DataFrame(rows), evals


def test_the_table_pools_every_pass_of_a_row() -> None:
    samples, rows, evals = _frames(with_cap=True)
    table = k50_table(samples, rows, evals, SEEK_REPORT, resamples=200)
    assert len(table) == 1
    line = table.iloc[0]
    # sufficiency (7 - k) / 6 at k = 1..5: 1, 5/6, 4/6, 3/6, 2/6 -> one half at k = 4
    assert line["ks"] == "1 2 3 4 5" and line["samples_per_k"] == "6 6 6 6 6"
    assert line["k50_estimate"] == pytest.approx(4.0) and line["k50"] == "4.00"
    assert line["cap"] == 5 and line["k50_note"] == ""
    shown = k50_display(table)
    assert shown.iloc[0]["k50"] == "4.00" and "k50_note" not in shown
    assert "k50_estimate" not in shown and shown.iloc[0]["cap"] == "5"
    _, _, unset = _frames(with_cap=False)
    assert k50_table(samples, rows, unset, SEEK_REPORT,
                     resamples=50).iloc[0]["k50_note"] == TURN_CAP_NOTE


def test_an_errored_sample_counts_as_insufficient() -> None:
    samples, rows, evals = _frames(with_cap=True)
    samples.loc[samples["metadata_k"] == 4, "error"] = "boom"
    line = k50_table(samples, rows, evals, SEEK_REPORT, resamples=50).iloc[0]
    # k = 4 now 0, below k = 5's 2/6: the two pool to 1/6
    assert line["fitted_sufficiency"] == "1.000 0.833 0.667 0.167 0.167"
    assert line["k50_estimate"] == pytest.approx(3 + (4 / 6 - 0.5) / (4 / 6 - 1 / 6))
    assert not math.isnan(line["k50_low"])


def test_a_report_or_row_without_final_sufficiency_per_k_has_no_k50_table() -> None:
    samples, rows, evals = _frames(with_cap=True)
    assert k50_table(samples, rows, evals, FULL_INFORMATION_REPORT).empty
    assert k50_table(samples.drop(columns=["metadata_k"]), rows, evals, SEEK_REPORT).empty
    # a row none of whose samples has the score (and none errored, which would count 0)
    unscored = samples.assign(**{"score.sufficiency.final_sufficiency": float("nan")})
    assert k50_table(unscored, rows, evals, SEEK_REPORT).empty


def test_epochs_that_repeat_a_sample_exactly_change_nothing() -> None:
    # the bootstrap draws problems, each with all its epochs: three identical epochs of
    # every sample give the same curve, the same k50 and the same interval as one
    rng = np.random.default_rng(3)
    ks, scores, ids = _samples(PLANTED, problems=8, per_problem=2, rng=rng)
    once = fit_k50(ks, scores, ids, resamples=200)
    thrice = fit_k50(ks * 3, scores * 3, ids * 3, resamples=200)
    assert thrice.samples == tuple(3 * n for n in once.samples)
    assert (thrice.estimate, thrice.low, thrice.high) == (once.estimate, once.low, once.high)
