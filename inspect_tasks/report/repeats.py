"""Repeats (``--epochs N``, or several logs of one row): how often, and how reliably, a
model gets the same sample right.

The repeats of a sample are every score the row holds for it: each epoch of each log
pooled into the row (an errored repeat counts as the metric's ``errored_as``, a failure
for the headline metrics). For each row, metric and group (``k`` = 1, 2, ..., and all
samples), over the samples with at least two repeats:

- ``pass@1``: the mean over samples of the mean over its repeats (the chance one run is
  right; Inspect's default ``mean`` epoch reducer gives the same number);
- ``pass^j`` for j = 2 .. R (R: the fewest repeats any of those samples has): the chance
  that j runs are *all* right, estimated per sample as ``C(c, j) / C(n, j)`` (``c`` of
  its ``n`` repeats right; the unbiased estimator tau-bench uses) and averaged; with
  ``n = j`` it is simply "every repeat right". Only for 0/1 scores (`NOT_BINARY`);
- ``aptitude`` and ``unreliability`` as "LLMs Get Lost in Multi-Turn Conversation"
  (Laban et al., 2025) defines them over repeated simulations of one instruction: per
  sample, aptitude is the 90th percentile of its repeat scores and unreliability the 90th
  minus the 10th percentile; both averaged over samples. A sample is one task instance,
  the unit that paper repeats. Percentiles interpolate linearly between order statistics
  (numpy's default), so with three 0/1 repeats of which one is right the 90th percentile
  is 0.8 and the 10th 0: aptitude 0.8, unreliability 0.8. A model that is always right
  or always wrong on a sample has unreliability 0 there.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from math import comb
from typing import Any

import numpy as np
import pandas as pd

from infoseek.inspect_tasks.report.declarations import MetricSpec, TableSpec
from infoseek.inspect_tasks.report.tables import display_frame, group_label, groups_of

HIGH, LOW = 90, 10
"""The percentiles of aptitude (HIGH) and of unreliability (HIGH - LOW)."""
NOT_BINARY = "not a 0/1 score"
FEWER_REPEATS = "fewer repeats in this row"
"""Why a ``pass^j`` cell has no number."""


def repeat_stats(repeats: Sequence[Sequence[float]]) -> dict[str, Any]:
    """``samples``, ``repeats`` (R), ``scores`` ("0/1" or "graded"), ``pass@1``,
    ``pass^2`` .. ``pass^R`` (NaN for a score that is not 0/1), ``aptitude`` and
    ``unreliability`` over the samples' repeat scores (one list per sample; samples with
    under two repeats are left out: module docstring)."""
    kept = [[float(v) for v in values] for values in repeats if len(values) >= 2]
    if not kept:
        return {"samples": 0, "repeats": 0}
    most = min(len(values) for values in kept)
    binary = all(v in (0.0, 1.0) for values in kept for v in values)
    out: dict[str, Any] = {"samples": len(kept), "repeats": most,
                           "scores": "0/1" if binary else "graded",
                           "pass@1": float(np.mean([np.mean(v) for v in kept]))}
    for j in range(2, most + 1):
        out[f"pass^{j}"] = float(np.mean([
            comb(int(sum(values)), j) / comb(len(values), j) for values in kept])) \
            if binary else math.nan
    high = [float(np.percentile(values, HIGH)) for values in kept]
    low = [float(np.percentile(values, LOW)) for values in kept]
    out["aptitude"] = float(np.mean(high))
    out["unreliability"] = float(np.mean([h - lo for h, lo in zip(high, low)]))
    return out


def metric_scores(samples: pd.DataFrame, spec: MetricSpec) -> pd.Series:
    """The metric's value per sample repeat: errored ones as ``spec.errored_as`` (NaN when
    None), NaN where it does not apply."""
    column = f"score.{spec.scorer}.{spec.key}"
    values = pd.to_numeric(samples[column], errors="coerce") if column in samples \
        else pd.Series(math.nan, index=samples.index, dtype=float)
    errored = samples["error"].astype(bool)
    fill = math.nan if spec.errored_as is None else float(spec.errored_as)
    return values.where(~errored, fill)


def repeats_table(samples: pd.DataFrame, rows: pd.DataFrame, spec: TableSpec,
                  group_key: str) -> pd.DataFrame:
    """One line per row (with repeats), metric and group (a column named `group_key`,
    ``all`` for every sample): `repeat_stats` of the metrics of `spec` whose higher values
    are better. Empty when no row repeats a sample."""
    groups = groups_of(samples, group_key)
    column = f"metadata_{group_key}"
    shown = [c for c in rows.columns if c not in ("log_id", "row", "note")]
    metrics = [m for m in spec.metrics if m.errored_as is not None]
    out: list[dict[str, Any]] = []
    for label, block in rows.groupby("row", sort=False):
        mine = samples[samples["log_id"].isin(block["log_id"])]
        if mine.empty or mine.groupby("id").size().max() < 2:
            continue
        labels = mine[column].map(group_label) if column in mine \
            else pd.Series(None, index=mine.index, dtype=object)
        for metric in metrics:
            scores = metric_scores(mine, metric)
            for group in [*groups, None]:
                part = scores if group is None else scores[labels == group]
                part = part.dropna()
                repeats = [list(values) for _, values in
                           part.groupby(mine.loc[part.index, "id"], sort=True)]
                stats = repeat_stats(repeats)
                if not stats["samples"]:
                    continue
                line: dict[str, Any] = {"label": label}
                line.update({c: block.iloc[0][c] for c in shown})
                line.update({"kind": "run", "metric": metric.key,
                             group_key: "all" if group is None else group, **stats})
                out.append(line)
    table = pd.DataFrame(out)
    if table.empty:
        return table
    passes = sorted((c for c in table.columns if c.startswith("pass^")),
                    key=lambda c: int(c[5:]))
    lead = [c for c in table.columns if c not in passes
            and c not in ("pass@1", "aptitude", "unreliability")]
    return table[[*lead, "pass@1", *passes, "aptitude", "unreliability"]]


def repeats_display(table: pd.DataFrame) -> pd.DataFrame:
    """The repeats table as text cells; a ``pass^j`` cell with no number says why."""
    shown = display_frame(table)
    for column in (c for c in table.columns if c.startswith("pass^")):
        shown[column] = [
            text if not (isinstance(v, float) and math.isnan(v)) else
            f"n/a ({NOT_BINARY if kind != '0/1' else FEWER_REPEATS})"
            for text, v, kind in zip(shown[column], table[column], table["scores"])]
    return shown
