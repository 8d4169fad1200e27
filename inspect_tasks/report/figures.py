"""The report's PNG figures (matplotlib, Agg backend: no display needed).

Each function draws one figure for one task from the same frames the tables come from
and returns the PNG path, or None when the task's logs hold nothing to draw.
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from pathlib import Path
from typing import Any

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt
import pandas as pd
from matplotlib.ticker import MaxNLocator

from infoseek.inspect_tasks.report.tables import (
    AXES,
    MIN_STRATUM,
    STRATA,
    axis_correlations,
    correctness,
    groups_of,
)

DPI = 100


def short_labels(labels: list[str]) -> dict[str, str]:
    """Row labels without the ``name=value`` words every row shares (the legend names
    only what tells the rows apart)."""
    words = [label.split(" ") for label in labels]
    common = set.intersection(*(set(w[1:]) for w in words)) if words else set()
    return {label: " ".join([w[0], *(x for x in w[1:] if x not in common)])
            for label, w in zip(labels, words)}


_COLOURS: dict[str, str] = {}
"""Row label -> its colour in every figure of the task being drawn (`colour_rows`)."""


def colour_rows(labels: Iterable[str]) -> None:
    """Give each of a task's rows (its labels, in table order) one colour of matplotlib's
    cycle for all the task's figures: a row keeps its colour in every panel and in every
    figure of a k range, whichever other rows a panel or figure draws or leaves out.
    Each task's section sets its own (`build._section`)."""
    palette = plt.rcParams["axes.prop_cycle"].by_key()["color"]
    _COLOURS.clear()
    _COLOURS.update({label: palette[index % len(palette)]
                     for index, label in enumerate(dict.fromkeys(map(str, labels)))})


def colour_of(label: Any) -> str | None:
    """The colour of the row labelled `label` (None: matplotlib's next one)."""
    return _COLOURS.get(str(label))


LEGEND_FONT = 8
"""Legend text size (points)."""


def legend_columns(labels: list[str], width_inches: float) -> int:
    """How many legend entries fit side by side in `width_inches`: each entry is its
    handle (about 3 em) and its text (about 0.6 em a character, the longest label);
    at least one, at most three."""
    longest = max((len(label) for label in labels), default=1)
    entry = (longest * 0.6 + 3.5) * LEGEND_FONT / 72
    return max(1, min(3, len(labels), int(width_inches // entry)))


def _save(fig: Any, path: Path) -> Path:
    """Lay out, add one legend for every panel below them all, and write the PNG. The
    image is cropped to what was drawn (``bbox_inches="tight"``), so a legend wider or
    taller than the panels widens or lengthens the image instead of being cut off."""
    handles, labels = [], []
    for axis in fig.axes:
        for handle, label in zip(*axis.get_legend_handles_labels()):
            if label not in labels:
                handles.append(handle)
                labels.append(label)
    fig.tight_layout(rect=(0, 0, 1, 0.95))
    if handles:
        fig.legend(handles, labels, loc="upper center", bbox_to_anchor=(0.5, 0.0),
                   ncol=legend_columns(labels, fig.get_size_inches()[0]),
                   fontsize=LEGEND_FONT, frameon=False)
    fig.savefig(path, dpi=DPI, bbox_inches="tight", pad_inches=0.1)
    plt.close(fig)
    return path


PANELS_PER_LINE = 4
"""Most panels side by side; more (k = 1..8) wrap onto further lines."""


def panel_grid(count: int, width: float = 3.6, height: float = 3.0) -> tuple[Any, list[Any]]:
    """A figure of `count` panels, at most :data:`PANELS_PER_LINE` to a line (k = 1..8 is
    two lines of four, each panel as large as with one k), and its panels in reading
    order; unused cells of the last line are hidden."""
    columns = min(count, PANELS_PER_LINE)
    lines = -(-count // columns)
    fig, grid = plt.subplots(lines, columns, figsize=(width * columns, height * lines + 0.6),
                             squeeze=False)
    panels = [axis for line in grid for axis in line]
    for axis in panels[count:]:
        axis.set_visible(False)
    return fig, panels[:count]


def steady_scale(axis: Any, span: float = 0.1) -> None:
    """Keep an axis from scaling to float noise: a y range narrower than 1e-9 (values equal
    but for noise) is widened to `span` around its middle."""
    low, high = axis.get_ylim()
    if high - low < 1e-9:
        middle = (low + high) / 2
        axis.set_ylim(middle - span / 2, middle + span / 2)


def _run_rows(table: pd.DataFrame) -> pd.DataFrame:
    return table[table["kind"] == "run"] if "kind" in table else table


def _row_name(line: pd.Series, rows: pd.DataFrame) -> str:
    return str(line.get("row") or line.get("model"))


def headline_figure(table: pd.DataFrame, metrics: tuple[str, ...], group_key: str,
                    groups: list[str], path: Path, title: str) -> Path | None:
    """Each headline metric against k, one line (with standard-error bars) per row, over
    a grey band spanning the published numbers for the same task and setting."""
    metrics = tuple(m for m in metrics if any(f"{m}_{group_key}{g}" in table for g in groups))
    if not metrics or not groups or group_key != "k":
        return None
    fig, axes = plt.subplots(1, len(metrics), figsize=(4.2 * len(metrics), 3.4), squeeze=False)
    xs = [float(g) for g in groups]
    names = short_labels(list(_run_rows(table)["label"].astype(str)))
    for axis, metric in zip(axes[0], metrics):
        for _, line in _run_rows(table).iterrows():
            ys = [line.get(f"{metric}_{group_key}{g}", math.nan) for g in groups]
            es = [line.get(f"{metric}_{group_key}{g}_stderr", math.nan) for g in groups]
            axis.errorbar(xs, ys, yerr=es, marker="o", capsize=3, label=names[str(line["label"])],
                          color=colour_of(line["label"]))
        _published_band(axis, table, metric, group_key, groups)
        axis.set_xlabel("k")
        axis.set_ylabel(metric)
        axis.set_xticks(xs)
        if metric not in ("total_turns", "turn_to_sufficiency"):
            axis.set_ylim(-0.05, 1.05)
        steady_scale(axis, span=1.0)
        axis.set_title(metric.replace("_", " "))
    fig.suptitle(title, fontsize=10)
    return _save(fig, path)


def _published_band(axis: Any, table: pd.DataFrame, metric: str, group_key: str,
                    groups: list[str]) -> None:
    """The range the published rows span at each k, as a grey band (the papers' models
    for the same task and setting)."""
    if "kind" not in table:
        return
    published = table[table["kind"] == "published"]
    xs, lows, highs = [], [], []
    for g in groups:
        column = f"{metric}_{group_key}{g}"
        if column not in published:
            continue
        values = [v for v in published[column] if isinstance(v, int | float)
                  and not math.isnan(v)]
        if values:
            xs.append(float(g))
            lows.append(min(values))
            highs.append(max(values))
    if xs:
        sources = ", ".join(sorted({str(s) for s in published["source"]}))
        axis.fill_between(xs, lows, highs, color="grey", alpha=0.2,
                          label=f"published range ({sources})")
        if len(xs) == 1:
            axis.plot(xs * 2, [lows[0], highs[0]], color="grey", alpha=0.5, linewidth=6)


def _by_row(samples: pd.DataFrame, rows: pd.DataFrame):
    """(short label, colour, samples) of every row."""
    names = short_labels(list(rows["row"].drop_duplicates()))
    for label, block in rows.groupby("row", sort=False):
        yield names[label], colour_of(label), samples[samples["log_id"].isin(block["log_id"])]


def sufficiency_by_turn_figure(samples: pd.DataFrame, rows: pd.DataFrame, path: Path,
                               title: str) -> Path | None:
    """Share of episodes already sufficient after turn t, per k (errored episodes count
    as never sufficient)."""
    column = "score.sufficiency.turn_to_sufficiency"
    if column not in samples or samples[column].isna().all() and not len(samples):
        return None
    ks = groups_of(samples, "k")
    if not ks:
        return None
    horizon = int(max(samples["turn_count"].max(), 1))
    fig, panels = panel_grid(len(ks))
    for axis, k in zip(panels, ks):
        for label, colour, mine in _by_row(samples, rows):
            part = mine[mine["metadata_k"].astype(str).str.replace(".0", "", regex=False) == k]
            if part.empty:
                continue
            reached = [math.inf if err or not isinstance(t, int | float) or math.isnan(t)
                       else t for t, err in zip(part[column], part["error"].astype(bool))]
            turns = list(range(0, horizon + 1))
            share = [sum(1 for r in reached if r <= t) / len(reached) for t in turns]
            axis.step(turns, share, where="post", label=label, color=colour)
        axis.set_title(f"k = {k}")
        axis.set_xlabel("turn")
        axis.xaxis.set_major_locator(MaxNLocator(integer=True))
        axis.set_ylim(-0.05, 1.05)
    for axis in panels[::PANELS_PER_LINE]:
        axis.set_ylabel("share sufficient")
    fig.suptitle(title, fontsize=10)
    return _save(fig, path)


def uncertainty_figure(samples: pd.DataFrame, rows: pd.DataFrame, path: Path,
                       title: str) -> Path | None:
    """Mean number of target values still possible after each turn, per k (an episode's
    last count carried forward after it ends)."""
    column = "meta.sufficiency.uncertainty_curve"
    if column not in samples:
        return None
    ks = groups_of(samples, "k")
    if not ks:
        return None
    fig, panels = panel_grid(len(ks))
    drawn = False
    for axis, k in zip(panels, ks):
        for label, colour, mine in _by_row(samples, rows):
            part = mine[mine["metadata_k"].astype(str).str.replace(".0", "", regex=False) == k]
            curves = [c for c in part[column] if isinstance(c, list) and c
                      and all(isinstance(v, int | float) for v in c)]
            if not curves:
                continue
            length = max(len(c) for c in curves)
            padded = [c + [c[-1]] * (length - len(c)) for c in curves]
            means = [sum(c[t] for c in padded) / len(padded) for t in range(length)]
            axis.plot(range(length), means, marker=".", label=label, color=colour)
            drawn = True
        axis.set_title(f"k = {k}")
        axis.set_xlabel("turn")
        axis.xaxis.set_major_locator(MaxNLocator(integer=True))
        steady_scale(axis, span=2.0)
    if not drawn:
        plt.close(fig)
        return None
    for axis in panels[::PANELS_PER_LINE]:
        axis.set_ylabel("target values still possible")
    fig.suptitle(title, fontsize=10)
    return _save(fig, path)


K_OUTCOMES = ("under", "over", "unsure", "invalid")
"""The k-prediction outcomes drawn (besides accuracy, in the headline): an all-invalid run
shows as invalid bars, never as empty panels."""


def k_prediction_figure(table: pd.DataFrame, groups: list[str], path: Path,
                        title: str) -> Path | None:
    """Under-, over-prediction, "not sure" and invalid-answer rates per k, one bar per row
    in each (a 2 x 2 grid of panels); a k a row has no sample of is marked ``n/a``."""
    runs = _run_rows(table)
    outcomes = [m for m in K_OUTCOMES if any(f"{m}_k{g}" in runs for g in groups)]
    if runs.empty or not groups or not outcomes:
        return None
    names = short_labels(list(runs["label"].astype(str)))
    columns = 2 if len(outcomes) > 2 else len(outcomes)
    lines = -(-len(outcomes) // columns)
    panel_width = max(4.2, 0.45 * len(groups) * len(runs))
    fig, grid = plt.subplots(lines, columns, figsize=(panel_width * columns, 3.1 * lines + 0.6),
                             squeeze=False)
    panels = [axis for line in grid for axis in line]
    for axis in panels[len(outcomes):]:
        axis.set_visible(False)
    width = 0.8 / max(len(runs), 1)
    for axis, metric in zip(panels, outcomes):
        for index, (_, line) in enumerate(runs.iterrows()):
            xs = [i + index * width for i in range(len(groups))]
            ys = [line.get(f"{metric}_k{g}", math.nan) for g in groups]
            bars = axis.bar(xs, [0.0 if math.isnan(y) else y for y in ys], width=width,
                            label=names[str(line["label"])], color=colour_of(line["label"]))
            for x, y, bar in zip(xs, ys, bars):
                if math.isnan(y):
                    bar.set_visible(False)
                    axis.text(x, 0.02, "n/a", ha="center", va="bottom", fontsize=6,
                              rotation=90)
        axis.set_xticks([i + 0.4 - width / 2 for i in range(len(groups))])
        axis.set_xticklabels([f"k={g}" for g in groups])
        axis.set_ylim(0, 1.05)
        axis.set_title(f"{metric} rate" if metric in ("unsure", "invalid")
                       else f"{metric}-prediction rate", fontsize=9)
    fig.suptitle(title, fontsize=10)
    return _save(fig, path)


def order_strata_figure(table: pd.DataFrame, path: Path, title: str) -> Path | None:
    """Accuracy by coverage x order over all k, one group of bars per row (strata with
    fewer than five samples are not drawn)."""
    runs = table[(table["kind"] == "run") & (table["k"] == "all")]
    if runs.empty:
        return None
    names = short_labels(list(runs["label"].astype(str)))
    fig, axis = plt.subplots(figsize=(7, 3.6))
    width = 0.8 / max(len(runs), 1)
    for index, (_, line) in enumerate(runs.iterrows()):
        xs, ys = [], []
        for i, stratum in enumerate(STRATA):
            if line[f"n_{stratum}"] >= MIN_STRATUM:
                xs.append(i + index * width)
                ys.append(line[f"accuracy_{stratum}"])
        axis.bar(xs, ys, width=width, label=names[str(line["label"])],
                 color=colour_of(line["label"]))
    axis.set_xticks([i + 0.4 - width / 2 for i in range(len(STRATA))])
    axis.set_xticklabels([s.replace("_", "/") for s in STRATA])
    axis.set_ylim(0, 1.05)
    axis.set_ylabel("accuracy")
    axis.set_title(title, fontsize=10)
    return _save(fig, path)


def axes_figure(samples: pd.DataFrame, rows: pd.DataFrame, scorer: str, path: Path,
                title: str) -> Path | None:
    """Mean correctness at each value of each difficulty axis, one line per row, with
    Spearman's rho of correctness with the axis above each panel (rows in legend
    order; n/a where either series is constant)."""
    present = [a for a in AXES if f"metadata_{a}" in samples]
    if not present:
        return None
    fig, axes = plt.subplots(1, len(present), figsize=(3.6 * len(present), 3.3),
                             squeeze=False)
    for axis, name in zip(axes[0], present):
        rhos = []
        for label, colour, mine in _by_row(samples, rows):
            correct = correctness(mine, scorer)
            values = list(mine[f"metadata_{name}"])
            rho, _p = axis_correlations(correct, values)
            points: dict[float, list[float]] = {}
            for c, v in zip(correct, values):
                if isinstance(v, int | float) and not math.isnan(float(v)) and not math.isnan(c):
                    points.setdefault(float(v), []).append(c)
            if not points:
                continue
            xs = sorted(points)
            ys = [sum(points[x]) / len(points[x]) for x in xs]
            rhos.append("n/a" if math.isnan(rho) else f"{rho:.2f}")
            axis.plot(xs, ys, marker="o", linestyle="-", label=label, color=colour)
        axis.set_xlabel(name)
        axis.set_title("Spearman rho " + " / ".join(rhos), fontsize=8)
        axis.set_ylim(-0.05, 1.05)
    axes[0][0].set_ylabel("accuracy")
    fig.suptitle(title, fontsize=10)
    return _save(fig, path)


CURVE_TITLES = {"entropy": "remaining entropy (nats)", "neig": "nEIG of the question",
                "pass_mass": "pass mass of the question"}


def entropy_by_turn_figure(table: pd.DataFrame, path: Path, title: str) -> Path | None:
    """Twenty Questions: mean remaining entropy, nEIG and pass mass by turn, one line per
    row (model and pool), from the by-turn table (`extra_tables.by_turn_table`)."""
    runs = _run_rows(table)
    if runs.empty or "turn" not in runs or runs["entropy"].isna().all():
        return None
    curves = [c for c in CURVE_TITLES if c in runs and not runs[c].isna().all()]
    fig, axes = plt.subplots(1, len(curves), figsize=(4.2 * len(curves), 3.4), squeeze=False)
    names = short_labels(list(runs["label"].astype(str).drop_duplicates()))
    for axis, curve in zip(axes[0], curves):
        for label, block in runs.groupby("label", sort=False):
            block = block[block[curve].notna()]
            if block.empty:
                continue
            axis.plot(block["turn"], block[curve], marker=".", label=names[str(label)],
                      color=colour_of(label))
        axis.set_xlabel("turn")
        axis.xaxis.set_major_locator(MaxNLocator(integer=True))
        axis.set_title(CURVE_TITLES[curve], fontsize=9)
        if curve != "entropy":
            axis.set_ylim(-0.05, 1.05)
        else:
            axis.set_ylim(bottom=min(0.0, axis.get_ylim()[0]))
            steady_scale(axis, span=1.0)
    fig.suptitle(title, fontsize=10)
    return _save(fig, path)
