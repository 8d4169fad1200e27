"""k50: the degree of underspecification at which a model's final sufficiency falls to
one half, with a bootstrap interval. One number per model and task that keeps
separating strong models after the fixed splits saturate (issue 34, part 5).

**What is estimated.** For one report row (one model, one setting, one dataset:
`tables.row_table`), let p(k) be the expected final sufficiency of a task instance of
the row's data at degree k (the ``final_sufficiency`` score of the seek protocols, an
errored sample counting 0 as in the headline table). p is only defined at the integer k
the builder makes; k50 is where the *piecewise-linear interpolation* of p between the k
that were run reaches one half:

    k50 = the least x in [k_first, k_last] with P(x) <= 1/2,

P being the line through the points (k, p(k)). It is a point on a continuous scale
("half the instances are settled at about k = 3.4"), not a claim that a problem with
k = 3.4 exists.

**Estimator.** Every sample of the row at every k is used (all logs pooled: the passes
of the recipe below, and every epoch). Per k, p(k) is estimated by the sample mean. The
means are then made non-increasing in k by weighted isotonic regression (pool adjacent
violators, weights = samples per k): harder problems are assumed not to be easier, and
without this a noisy curve could cross one half several times. k50 is the crossing of
the fitted curve as defined above. A logistic fit was not chosen: it imposes one shape
on every model's curve (optimal's is flat at 1, random's has a long tail), and its
parameters do not exist when sufficiency is 1 at every k; the isotonic interpolation
assumes only monotonicity, and coincides with the data wherever the data are already
monotone.

**Censoring.** When the fitted curve stays above one half at the largest k run, k50 is
only known to be larger: ``> k_last`` (and when k_last is the builder's largest k, its
*cap*, the report says ``> cap``: no number is made up; `infoseek/optimal` is there).
When it is already below one half at the smallest k run, k50 is ``< k_first``.

**Interval.** A percentile bootstrap over problems, stratified by k: in each of
:data:`RESAMPLES` resamples (generator seeded with :data:`SEED`, so a report is the same
bytes every time) the problems of each k are drawn with replacement (all the samples
and epochs of a drawn problem come with it: a problem's task instances are correlated),
the fit is redone, and k50 recomputed (censored resamples count as -inf or +inf). The
interval is the 2.5th and 97.5th order statistics; an end that is infinite is reported
as ``< k_first`` or ``> k_last``.

**The recipe that raises k** (two or more passes; all offline with the reference models):
run the task at some k, then ``infoseek k50 LOGS`` (or the report's k50 table) says, per
row, which k to run next (`next_ks`): larger k while the curve stays above one half and
the builder's cap allows, smaller k while it is below at the smallest k run, the k
between two bracketing k that were not run, and one more k beyond an interval end that
runs off the k run. Every pass must keep the row's settings, so its logs pool into the
same row; in particular give the turn cap explicitly (``-T max_turns=N``), since the
default of ``logic_mt`` and ``gsme_mt_ext`` grows with the largest k of the pass. The
hard splits build k = 1..8 (``-T split=hard``); the default splits stop earlier
(`infoseek.domains.BuilderSpec.max_k`). Inspect's ``SampleSource`` (follow-up samples
inside one task) would do the same in one run, but it changes the tasks' datasets, and
a recipe over ordinary logs needs no change to any task.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
import pandas as pd

from infoseek.inspect_tasks.report.declarations import MetricSpec, TaskReport
from infoseek.inspect_tasks.report.repeats import metric_scores

HALF = 0.5
METRIC = "final_sufficiency"
SEED = 50
"""Seed of the bootstrap's generator."""
RESAMPLES = 2000
LEVEL = 0.95
BELOW, ABOVE = -math.inf, math.inf
"""A k50 (or interval end) below the smallest k run, or above the largest."""


def isotonic_non_increasing(values: Sequence[float], weights: Sequence[float]
                            ) -> list[float]:
    """The weighted least-squares non-increasing fit to `values` (pool adjacent
    violators): neighbours that rise are merged into their weighted mean until none do."""
    blocks: list[list[float]] = []  # [weighted mean, weight, length]
    for value, weight in zip(values, weights):
        blocks.append([float(value), float(weight), 1])
        while len(blocks) > 1 and blocks[-2][0] < blocks[-1][0]:
            mean, weight_b, length = blocks.pop()
            last = blocks[-1]
            total = last[1] + weight_b
            last[0] = (last[0] * last[1] + mean * weight_b) / total if total else \
                (last[0] + mean) / 2
            last[1] = total
            last[2] += length
    fitted: list[float] = []
    for mean, _, length in blocks:
        fitted.extend([mean] * int(length))
    return fitted


def crossing(ks: Sequence[int], fitted: Sequence[float]) -> float:
    """The least x in [ks[0], ks[-1]] where the line through (ks, fitted) (non-increasing)
    is at most one half; `BELOW` when it is under one half already at ks[0], `ABOVE` when
    it is over one half at ks[-1]."""
    if fitted[0] < HALF:
        return BELOW
    if fitted[-1] > HALF:
        return ABOVE
    for i, value in enumerate(fitted):
        if value <= HALF:
            if i == 0 or value == HALF:
                return float(ks[i])
            before = fitted[i - 1]
            share = (before - HALF) / (before - value)
            return float(ks[i - 1] + share * (ks[i] - ks[i - 1]))
    raise AssertionError("unreachable: the last point is at most one half")


def curve_k50(points: Mapping[int, float], weights: Mapping[int, float] | None = None
              ) -> float:
    """k50 of a known curve (k -> sufficiency; for an exact chance table), by the same fit
    as `fit_k50` (isotonic with `weights`, equal when None, then `crossing`)."""
    ks = sorted(points)
    if not ks:
        raise ValueError("a curve needs at least one k")
    fitted = isotonic_non_increasing([points[k] for k in ks],
                                     [1.0 if weights is None else weights[k] for k in ks])
    return crossing(ks, fitted)


@dataclass(frozen=True)
class K50Fit:
    """One row's k50 (module docstring)."""

    ks: tuple[int, ...]
    samples: tuple[int, ...]
    """Samples per k (every epoch counted)."""
    problems: tuple[int, ...]
    means: tuple[float, ...]
    fitted: tuple[float, ...]
    estimate: float
    low: float
    high: float


def fit_k50(ks: Sequence[Any], scores: Sequence[float], problems: Sequence[Any],
            resamples: int = RESAMPLES, seed: int = SEED) -> K50Fit:
    """k50 and its bootstrap interval (module docstring) from one value per sample: its
    k, its final sufficiency (0/1, or a mean over epochs) and its problem id. Samples
    whose score is NaN are left out; at least one must remain."""
    frame = pd.DataFrame({"k": list(ks), "score": list(scores), "problem": list(problems)})
    frame = frame[pd.to_numeric(frame["score"], errors="coerce").notna()]
    if frame.empty:
        raise ValueError("no sample with a final sufficiency score")
    frame["k"] = frame["k"].astype(int)
    frame["score"] = frame["score"].astype(float)
    frame["problem"] = frame["problem"].astype(str)
    order = sorted(frame["k"].unique())
    per_problem = [frame[frame["k"] == k].groupby("problem", sort=True)["score"]
                   .agg(["sum", "size"]) for k in order]
    sums = [block["sum"].to_numpy() for block in per_problem]
    sizes = [block["size"].to_numpy().astype(float) for block in per_problem]
    means = [s.sum() / n.sum() for s, n in zip(sums, sizes)]
    weights = [n.sum() for n in sizes]
    fitted = isotonic_non_increasing(means, weights)
    estimate = crossing(order, fitted)
    rng = np.random.default_rng(seed)
    draws = []
    for s, n in zip(sums, sizes):
        picks = rng.integers(0, len(s), size=(resamples, len(s)))
        draws.append((s[picks].sum(axis=1), n[picks].sum(axis=1)))
    replicate = np.empty(resamples)
    for r in range(resamples):
        values = [d[0][r] / d[1][r] for d in draws]
        replicate[r] = crossing(order, isotonic_non_increasing(values,
                                                               [d[1][r] for d in draws]))
    replicate.sort()
    tail = (1 - LEVEL) / 2
    low = float(replicate[int(math.floor(tail * resamples))])
    high = float(replicate[int(math.ceil((1 - tail) * resamples)) - 1])
    return K50Fit(tuple(int(k) for k in order), tuple(int(w) for w in weights),
                  tuple(len(s) for s in sums), tuple(float(m) for m in means),
                  tuple(float(f) for f in fitted), estimate, low, high)


def next_ks(fit: K50Fit, cap: int | None) -> list[int]:
    """The k to run next (module docstring, the recipe): none once the estimate and both
    interval ends lie within the k run with no k missing between the bracketing ones, or
    when what is missing is beyond the builder's k (`cap`; None: unknown, a source file,
    where nothing beyond the k run is proposed)."""
    first, last = fit.ks[0], fit.ks[-1]
    top = last if cap is None else cap
    wanted: set[int] = set()
    if fit.estimate == ABOVE or fit.high == ABOVE:
        wanted.update(range(last + 1, min(top, last + 2) + 1))
    if fit.estimate == BELOW or fit.low == BELOW:
        wanted.update(range(max(1, first - 2), first))
    for end in (fit.estimate, fit.low, fit.high):
        if math.isfinite(end):
            below = max(k for k in fit.ks if k <= end)
            above = min((k for k in fit.ks if k >= end), default=below)
            wanted.update(k for k in range(below + 1, above) if k not in fit.ks)
    return sorted(k for k in wanted if 1 <= k and k not in fit.ks)


def k50_text(value: float, fit: K50Fit, cap: int | None) -> str:
    """A k50 or interval end as text: the number (2 decimals), or ``> cap 8`` / ``> 5``
    / ``< 1`` for a censored one."""
    if value == ABOVE:
        return f"> cap {cap}" if cap is not None and fit.ks[-1] >= cap else f"> {fit.ks[-1]}"
    if value == BELOW:
        return f"< {fit.ks[0]}"
    return f"{value:.2f}"


def builder_cap(builder_version: Any) -> int | None:
    """The largest k the builder named in ``data.builder`` (``logic-mt-hard@1.0.0``)
    makes, or None when no registered builder has that name (an old log, a plug-in not
    installed)."""
    from infoseek.domains import UnknownDomain, get_builder

    name = str(builder_version or "").split("@", 1)[0]
    if not name:
        return None
    try:
        return get_builder(name)[1].max_k
    except UnknownDomain:
        return None


def reports_k50(declaration: TaskReport) -> bool:
    """Whether a task's report has final sufficiency per ``k`` (the seek protocols)."""
    return declaration.group_key == "k" and any(
        m.key == METRIC for table in declaration.tables for m in table.metrics)


def _metric(declaration: TaskReport) -> MetricSpec:
    return next(m for table in declaration.tables for m in table.metrics if m.key == METRIC)


TURN_CAP_NOTE = ("passes with different k left the turn cap to the task, whose default "
                 "may grow with k: give -T max_turns= the same in every pass")


def k50_table(samples: pd.DataFrame, rows: pd.DataFrame, evals: pd.DataFrame,
              declaration: TaskReport, resamples: int = RESAMPLES) -> pd.DataFrame:
    """One line per report row with final sufficiency per k: the k run with their sample
    counts and fitted sufficiency, k50 and its interval as text (``k50``, ``interval``)
    and as numbers (``k50_estimate``, ``k50_low``, ``k50_high``: -inf / +inf when
    censored), the builder's cap and the k to run next (empty: none)."""
    if not reports_k50(declaration) or "metadata_k" not in samples:
        return pd.DataFrame()
    spec = _metric(declaration)
    shown = [c for c in rows.columns if c not in ("log_id", "row", "note")]
    out: list[dict[str, Any]] = []
    for label, block in rows.groupby("row", sort=False):
        mine = samples[samples["log_id"].isin(block["log_id"])]
        mine = mine[pd.to_numeric(mine["metadata_k"], errors="coerce").notna()]
        if mine.empty:
            continue
        scores = metric_scores(mine, spec)
        if not scores.notna().any():  # no sample of the row has the score: no curve
            continue
        fit = fit_k50(mine["metadata_k"], scores, mine["problem_id"], resamples)
        logs = evals[evals["log_id"].isin(block["log_id"])]
        caps = {builder_cap(v) for v in logs.get("data.builder", pd.Series(dtype=object))}
        cap = caps.pop() if len(caps) == 1 else None
        line: dict[str, Any] = {"label": label}
        line.update({c: block.iloc[0][c] for c in shown})
        line.update({
            "kind": "run",
            "ks": " ".join(map(str, fit.ks)),
            "samples_per_k": " ".join(map(str, fit.samples)),
            "fitted_sufficiency": " ".join(f"{v:.3f}" for v in fit.fitted),
            "k50": k50_text(fit.estimate, fit, cap),
            "interval": f"[{k50_text(fit.low, fit, cap)}, {k50_text(fit.high, fit, cap)}]",
            "k50_estimate": fit.estimate, "k50_low": fit.low, "k50_high": fit.high,
            "cap": cap,
            "next_k": " ".join(map(str, next_ks(fit, cap))),
            "k50_note": _turn_cap_problem(logs)})
        out.append(line)
    return pd.DataFrame(out)


def _turn_cap_problem(logs: pd.DataFrame) -> str:
    """`TURN_CAP_NOTE` when the row pools passes of different k that gave no turn cap."""
    if len(logs) < 2 or "setting.k" not in logs:
        return ""
    given = logs.get("setting.max_turns", pd.Series(None, index=logs.index))
    unset = [v is None or (isinstance(v, float) and math.isnan(v)) for v in given]
    if any(unset) and len({str(v) for v in logs["setting.k"]}) > 1:
        return TURN_CAP_NOTE
    return ""


K50_TITLE = (f"k50: the k at which final sufficiency falls to one half (isotonic fit "
             f"over every sample, interpolated between the k run; {LEVEL:.0%} bootstrap "
             f"interval over problems within each k, {RESAMPLES} resamples, seed {SEED}; "
             "'> cap' when sufficiency stays above one half at the builder's largest k; "
             "next_k: the k to run next, empty when none)")


NO_CAP = "n/a (no builder cap: a source file, or a builder not installed)"


def _cap_text(cap: Any) -> str:
    """A row's builder cap as text (a frame holds a missing one as None or NaN)."""
    if cap is None or (isinstance(cap, float) and math.isnan(cap)):
        return "unknown"
    return str(int(cap))


def k50_display(table: pd.DataFrame) -> pd.DataFrame:
    """The k50 table as text cells: k50 and its interval as text (the numbers, censored
    ones infinite, stay in the CSV)."""
    shown = table.drop(columns=["model", "k50_estimate", "k50_low", "k50_high"],
                       errors="ignore")
    shown["cap"] = [NO_CAP if _cap_text(c) == "unknown" else _cap_text(c)
                    for c in table["cap"]]
    if not shown["k50_note"].astype(bool).any():
        shown = shown.drop(columns=["k50_note"])
    return shown.astype(str)


def k50_lines(paths: Sequence[str], resamples: int = RESAMPLES) -> list[str]:
    """`infoseek k50 LOGS`: per task and row, the k run, k50 with its interval, and the
    next step of the recipe (module docstring), as lines of text; then the logs left
    out. A `reading.ReportError` (no logs, a path that is not one) goes to the caller."""
    from infoseek.inspect_tasks.report.reading import read_logs
    from infoseek.inspect_tasks.report.tables import row_table

    logs = read_logs(list(paths))
    lines: list[str] = []
    for task in sorted(logs.declarations):
        declaration = logs.declarations[task]
        if not reports_k50(declaration):
            lines.append(f"{task}: no final sufficiency per k (a {declaration.protocol} "
                         "task); no k50")
            continue
        evals = logs.evals[logs.evals["task"] == task]
        samples = logs.samples[logs.samples["log_id"].isin(evals["log_id"])]
        table = k50_table(samples, row_table(evals, declaration), evals, declaration,
                          resamples)
        for line in table.to_dict("records"):
            lines.append(f"{task}: {line['label']}")
            lines.append(f"  k run: {line['ks']} (samples {line['samples_per_k']}); "
                         f"fitted sufficiency {line['fitted_sufficiency']}")
            lines.append(f"  k50 {line['k50']}, {LEVEL:.0%} interval "
                         f"{line['interval']}; builder cap {_cap_text(line['cap'])}")
            if line["next_k"]:
                lines.append(f"  next: run -T k=[{line['next_k'].replace(' ', ',')}] with "
                             "the same model and settings (and -T max_turns= as before)")
            else:
                lines.append("  " + _done_line(line))
            if line["k50_note"]:
                lines.append(f"  note: {line['k50_note']}")
    lines.extend(f"left out: {line}" for line in logs.skipped)
    return lines


def _done_line(line: Mapping[str, Any]) -> str:
    """Why nothing more needs running for a row of `k50_table` with no next k."""
    if line["k50_estimate"] == ABOVE:
        return ("done: k50 > cap (sufficiency stays above one half at the builder's "
                "largest k)" if _cap_text(line["cap"]) != "unknown" else
                "done as far as the data go: sufficiency stays above one half at the "
                "largest k run (builder cap unknown)")
    if math.isinf(line["k50_low"]) or math.isinf(line["k50_high"]):
        return ("done with k: the interval runs past the k the builder makes; more "
                "problems per k (-T per_k=) would narrow it")
    return "done: the estimate and its interval lie within the k run"
