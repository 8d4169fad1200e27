"""Paired comparison of two report rows that ran the same samples (`infoseek report
--compare A B`, and a table whenever two models ran the same samples in one setting).

For one metric and one group (``k`` = 1, 2, ..., or all samples), the pairs are the
samples both rows have a value for. A sample run several times (``--epochs``, or logs
pooled into one row) counts once, with the mean of its repeats. The difference is
``d_s = a_s - b_s`` per sample and the reported difference their mean (A minus B).

The task instances of one problem (its target values; a single-turn problem's
variants) share the problem's text and are correlated, so the uncertainty is taken over
*problems*, not samples:

- the confidence interval is a percentile bootstrap that resamples problems with
  replacement (:data:`RESAMPLES` resamples, generator seeded with :data:`SEED`, so the
  same logs give the same interval); each resample's statistic is the mean ``d`` over
  every sample of the problems drawn (a problem drawn twice counts twice), the interval
  the 2.5 and 97.5 percentiles of those statistics (numpy's linear interpolation);
- the standard error is the cluster-robust one of that mean, with ``D_p`` the sum of
  ``d`` over problem ``p``'s samples, ``n_p`` their number, ``N`` their total and ``P``
  the problems: ``SE = sqrt(P / (P - 1) * sum_p (D_p - mean * n_p)^2) / N`` (it is
  ``stdev(d) / sqrt(N)`` up to the factor ``(N - 1) / N`` when every problem has one
  sample);
- the *minimum detectable effect* is ``MDE = (z_0.975 + z_0.80) * SE`` (about 2.80 SE):
  the smallest true difference that a two-sided test at the 5 % level would find with 80 %
  power in a run of this size and this paired spread (normal approximation). A run whose
  differences are all equal has SE 0 and MDE 0: it cannot tell its size from noise
  because it has none.

An interval is *marked* when it excludes 0 (both ends on one side). Under two problems
there is no interval and no MDE (`TOO_FEW`).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from statistics import NormalDist
from typing import Any

import numpy as np
import pandas as pd

from infoseek.inspect_tasks.report.declarations import MetricSpec, TableSpec
from infoseek.inspect_tasks.report.tables import group_label, groups_of

SEED = 34
"""Seed of the bootstrap's generator: a report is the same bytes every time."""
RESAMPLES = 2000
LEVEL = 0.95
POWER = 0.80
MDE_FACTOR = NormalDist().inv_cdf(1 - (1 - LEVEL) / 2) + NormalDist().inv_cdf(POWER)
"""z_0.975 + z_0.80 = 2.8016: the MDE in standard errors."""
TOO_FEW = "under 2 problems: no interval"
"""Why a comparison over fewer than two problems has no interval and no MDE."""


@dataclass(frozen=True)
class PairedDifference:
    """One metric's paired difference A - B (module docstring)."""

    pairs: int
    problems: int
    mean_a: float
    mean_b: float
    difference: float
    low: float
    high: float
    stderr: float
    mde: float

    @property
    def excludes_zero(self) -> bool:
        return (not math.isnan(self.low)) and (self.low > 0 or self.high < 0)


def paired_difference(a: Sequence[float], b: Sequence[float], problems: Sequence[str], *,
                      resamples: int = RESAMPLES, seed: int = SEED,
                      level: float = LEVEL) -> PairedDifference:
    """The paired difference of `a` and `b` (one value each per sample, in the same
    order), the samples grouped into `problems` (one id per sample): module docstring."""
    if not len(a) == len(b) == len(problems):
        raise ValueError(f"a, b and problems must have one entry per sample; got "
                         f"{len(a)}, {len(b)} and {len(problems)}")
    if not a:
        raise ValueError("no paired samples to compare")
    first = np.asarray(a, dtype=float)
    second = np.asarray(b, dtype=float)
    names = sorted(set(problems))  # sorted: the order samples come in changes nothing
    where = {name: i for i, name in enumerate(names)}
    index = np.asarray([where[p] for p in problems])
    d = first - second
    sums = np.bincount(index, weights=d, minlength=len(names))
    counts = np.bincount(index, minlength=len(names)).astype(float)
    n = float(counts.sum())
    mean = float(d.sum() / n)
    count = len(names)
    if count < 2:
        low = high = stderr = mde = math.nan
    else:
        residual = sums - mean * counts
        stderr = math.sqrt(count / (count - 1) * float((residual ** 2).sum())) / n
        mde = MDE_FACTOR * stderr
        draws = np.random.default_rng(seed).integers(0, count, size=(resamples, count))
        stats = sums[draws].sum(axis=1) / counts[draws].sum(axis=1)
        tail = (1 - level) / 2
        low, high = (float(v) for v in np.quantile(stats, [tail, 1 - tail]))
    return PairedDifference(int(n), count, float(first.mean()), float(second.mean()),
                            _clean(mean), _clean(low), _clean(high), _clean(stderr),
                            _clean(mde))


def _clean(value: float) -> float:
    """Float noise (a difference of equal means summed in another order) read as 0."""
    return 0.0 if not math.isnan(value) and abs(value) < 1e-12 else float(value)


# ------------------------------------------------------------------ report rows


def _rest(label: str, model: str) -> str:
    """A row label without its model: the setting and data words two rows share when
    they differ only by model."""
    return label[len(model):].strip() if label.startswith(model) else label


@dataclass(frozen=True)
class RowInfo:
    label: str
    model: str
    data: str
    ids: frozenset[str]


def row_infos(samples: pd.DataFrame, rows: pd.DataFrame) -> dict[str, RowInfo]:
    """label -> what pairing reads of the row: model, data and its sample ids."""
    out = {}
    for label, block in rows.groupby("row", sort=False):
        mine = samples[samples["log_id"].isin(block["log_id"])]
        first = block.iloc[0]
        out[str(label)] = RowInfo(str(label), str(first["model"]), str(first.get("data", "")),
                                  frozenset(map(str, mine["id"])))
    return out


def named(infos: dict[str, RowInfo], name: str) -> list[str]:
    """The rows `name` names: the row whose label it is, else every row of that model."""
    if name in infos:
        return [name]
    return [label for label, info in infos.items() if info.model == name]


def comparison_pairs(infos: dict[str, RowInfo], wanted: Sequence[tuple[str, str]] | None
                     ) -> tuple[list[tuple[str, str]], list[str]]:
    """The (A, B) row pairs to compare, and one line per pair refused (different data,
    or no sample run by both).

    With `wanted` (``--compare A B``, each a row label or a model): every row A names
    against every row B names in the same setting (same label after the model), or the
    two rows themselves when both are labels. Without: every two rows of one setting and
    data that ran a common sample (rows in their table order)."""
    pairs: list[tuple[str, str]] = []
    refused: list[str] = []
    if wanted is None:
        labels = list(infos)
        for i, first in enumerate(labels):
            for second in labels[i + 1:]:
                a, b = infos[first], infos[second]
                if (_rest(a.label, a.model) == _rest(b.label, b.model) and a.data == b.data
                        and a.ids & b.ids):
                    pairs.append((first, second))
        return pairs, refused
    for name_a, name_b in wanted:
        for first in named(infos, name_a):
            for second in named(infos, name_b):
                a, b = infos[first], infos[second]
                both_labels = first == name_a and second == name_b
                if first == second or not (
                        both_labels or _rest(a.label, a.model) == _rest(b.label, b.model)):
                    continue
                if a.data != b.data:
                    refused.append(f"{first} vs {second}: not compared, they ran on "
                                   f"different data ({a.data}; {b.data})")
                elif not a.ids & b.ids:
                    refused.append(f"{first} vs {second}: not compared, no sample ran "
                                   "under both")
                elif (first, second) not in pairs:
                    pairs.append((first, second))
    return pairs, refused


def per_sample(samples: pd.DataFrame, spec: MetricSpec, group_key: str) -> pd.DataFrame:
    """One line per sample id with a value: ``problem_id``, ``group`` (its group label)
    and ``value`` (the mean over its repeats; errored repeats as ``spec.errored_as``, or
    left out when None)."""
    from infoseek.inspect_tasks.report.repeats import metric_scores

    values = metric_scores(samples, spec)
    column = f"metadata_{group_key}"
    frame = pd.DataFrame({
        "id": samples["id"].astype(str), "problem_id": samples["problem_id"].astype(str),
        "group": samples[column].map(group_label) if column in samples else None,
        "value": values}).dropna(subset=["value"])
    return frame.groupby("id", sort=True).agg(problem_id=("problem_id", "first"),
                                              group=("group", "first"),
                                              value=("value", "mean"))


def comparison_table(samples: pd.DataFrame, rows: pd.DataFrame,
                     metrics: Sequence[MetricSpec], group_key: str,
                     pairs: Sequence[tuple[str, str]]) -> tuple[pd.DataFrame, list[str]]:
    """One line per pair, metric and group (each ``k`` and ``all``) with a paired sample:
    `paired_difference` of A and B. Returns the table and one line per pair whose rows
    also ran samples the other did not (left out of every comparison: unpaired)."""
    groups = groups_of(samples, group_key)
    lines: list[str] = []
    out: list[dict[str, Any]] = []
    blocks = {str(label): samples[samples["log_id"].isin(block["log_id"])]
              for label, block in rows.groupby("row", sort=False)}
    for first, second in pairs:
        a_ids, b_ids = set(blocks[first]["id"]), set(blocks[second]["id"])
        only_a, only_b = len(a_ids - b_ids), len(b_ids - a_ids)
        note = ""
        if only_a or only_b:
            note = (f"{only_a} sample(s) only A ran and {only_b} only B ran are left out "
                    "(unpaired)")
            lines.append(f"{first} vs {second}: {note}")
        for metric in metrics:
            a = per_sample(blocks[first], metric, group_key)
            b = per_sample(blocks[second], metric, group_key)
            both = a.merge(b, left_index=True, right_index=True, how="inner",
                           suffixes=("_a", "_b"))
            for group in [*groups, None]:
                part = both if group is None else both[both["group_a"] == group]
                if part.empty:
                    continue
                result = paired_difference(list(part["value_a"]), list(part["value_b"]),
                                           list(part["problem_id_a"]))
                out.append({
                    "a": first, "b": second, "metric": metric.key,
                    group_key: "all" if group is None else group,
                    "better": "lower" if metric.errored_as is None else "higher",
                    "pairs": result.pairs, "problems": result.problems,
                    "mean_a": result.mean_a, "mean_b": result.mean_b,
                    "difference": result.difference, "ci_low": result.low,
                    "ci_high": result.high, "excludes_0": "*" if result.excludes_zero else "",
                    "mde": result.mde, "note": note})
    return pd.DataFrame(out), lines


COMPARE_BLANKS = {"ci_low": TOO_FEW, "ci_high": TOO_FEW, "mde": TOO_FEW}
COMPARE_TITLE = (
    f"Paired differences A - B over the samples both rows ran (repeats averaged per "
    f"sample); {LEVEL:.0%} bootstrap interval resampling problems ({RESAMPLES} resamples, "
    f"seed {SEED}); * the interval excludes 0; mde: the smallest difference this run "
    f"detects with {POWER:.0%} power at the two-sided 5% level ({MDE_FACTOR:.2f} x the "
    "problem-clustered standard error)")


def unique_metrics(specs: Sequence[TableSpec]) -> list[MetricSpec]:
    """Every metric of the tables, once, in order."""
    seen: dict[tuple[str, str], MetricSpec] = {}
    for spec in specs:
        for metric in spec.metrics:
            seen.setdefault((metric.scorer, metric.key), metric)
    return list(seen.values())
