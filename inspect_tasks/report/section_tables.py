"""The tables a task's section adds beyond its declared metric tables, each when its
protocol's declaration asks for it: ClinGuide's coverage x order strata, filtered
accuracy, repeats and the paired comparison, and reasoning-trace diagnostics; with the
notes on the cells that can have no number. `build._section` calls them with its
`add` (`Add`)."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from pathlib import Path

import pandas as pd

from infoseek.inspect_tasks.report import figures
from infoseek.inspect_tasks.report.compare import (
    COMPARE_BLANKS,
    COMPARE_TITLE,
    comparison_pairs,
    comparison_table,
    row_infos,
    unique_metrics,
)
from infoseek.inspect_tasks.report.declarations import TaskReport
from infoseek.inspect_tasks.report.extra_tables import (
    filtered_table,
    order_strata_display,
    order_strata_table,
)
from infoseek.inspect_tasks.report.published import DIFFERENT_DATA, PUBLISHED, reference_strata
from infoseek.inspect_tasks.report.reading import Logs
from infoseek.inspect_tasks.report.repeats import repeats_display, repeats_table
from infoseek.inspect_tasks.report.report_files import order_columns
from infoseek.inspect_tasks.report.section_figures import place
from infoseek.inspect_tasks.report.sections import Section
from infoseek.inspect_tasks.report.tables import data_text, display_frame

DIFFERENT_DATA_NOTE = ("published numbers of the same task and setting, measured on "
                       "different data than every run above (shown apart: not comparable)")


Add = Callable[..., None]
"""`build._add_table` bound to a section, its report folder and its run labels."""


def add_order_strata(section: Section, samples: pd.DataFrame, rows: pd.DataFrame,
                  runs: list[dict[str, str]], shown: list[str], add: Add,
                  figure_dir: Path) -> None:
    """ClinGuide's accuracy by coverage x order (published strata below the runs, or apart
    when on different data) and its figure."""
    task = section.task
    table = order_strata_table(samples, rows)
    refs = reference_strata(task, runs)
    apart = refs.iloc[0:0]
    if not refs.empty:
        refs["label"] = refs["model"]
        apart = refs[refs["kind"] == DIFFERENT_DATA]
        table = pd.concat([table, refs[refs["kind"] == PUBLISHED]], ignore_index=True)
    table = order_columns(table, ["label", "model", *shown, "kind", "source", "k",
                                   "samples", "errored"])
    add("order_strata", "Accuracy by coverage x order (N per stratum; '-' under 5 samples)",
        table, order_strata_display(table), why="no row")
    if not apart.empty:
        apart = order_columns(apart, ["label", "model", "kind", "data", "source", "k"])
        add(f"order_strata.{DIFFERENT_DATA.replace(' ', '_')}",
            f"Accuracy by coverage x order: {DIFFERENT_DATA_NOTE}", apart,
            order_strata_display(apart))
    path = (figures.order_strata_figure(table, figure_dir / f"{task}.order_strata.png",
                                        f"{task}: accuracy by coverage x order")
            if not table.empty else None)
    place(section, "Accuracy by coverage x order", path, "no run row over all k")


def add_filtered(section: Section, logs: Logs, samples: pd.DataFrame, rows: pd.DataFrame,
              add: Add) -> None:
    """Filtered accuracy: needs the matching ``*_well_specified`` logs among the inputs."""
    task = section.task
    solving = [(t, logs.samples[logs.samples["task"] == t])
               for t in sorted(logs.declarations)
               if logs.declarations[t].protocol == "well_specified" and t.startswith(task)]
    data_of = {entry["log_id"]: data_text(entry) for _, entry in logs.evals.iterrows()}
    table = filtered_table(samples, rows, solving, data_of)
    if not table.empty:
        table = table.rename(columns={"row": "label"})
    add("filtered", "Filtered accuracy: problems whose well-specified version was solved "
        "(lenient: one value; strict: every value)", table,
        display_frame(plain(table), {"*_accuracy": "no problem kept"}),
        why=f"no {task}_well_specified log of the same model and data among the inputs "
            "(its answers decide which problems count)")


def add_repeats_and_comparison(section: Section, samples: pd.DataFrame, rows: pd.DataFrame,
                            declaration: TaskReport, add: Add,
                            compare: Sequence[tuple[str, str]] | None,
                            notes: list[str]) -> None:
    """The repeats table (rows that ran a sample more than once: `repeats`) and the paired
    comparison (`compare`: the pairs `compare` names, or every two rows of one setting
    that ran the same samples); a pair refused or partly unpaired adds a line to
    `notes`."""
    task = section.task
    if declaration.tables:
        table = repeats_table(samples, rows, declaration.tables[0], declaration.group_key)
        if not table.empty:
            add("repeats", "Repeats: pass@1 (mean over repeats), pass^j (all j repeats "
                "right) and aptitude / unreliability (90th percentile; 90th minus 10th) per "
                "sample, averaged", table, repeats_display(table))
    pairs, refused = comparison_pairs(row_infos(samples, rows), compare)
    notes.extend(f"{task}: {line}" for line in refused)
    if not pairs:
        return
    table, lines = comparison_table(samples, rows, unique_metrics(declaration.tables),
                                    declaration.group_key, pairs)
    notes.extend(f"{task}: {line}" for line in lines)
    if not table.empty:
        add("compare", COMPARE_TITLE, table, display_frame(table, COMPARE_BLANKS))


AXES_BLANKS = {"rho_*": "under 3 samples with the axis, or a constant series",
               "p_*": "under 3 samples with the axis, or a constant series"}


BY_TURN_BLANKS = {"entropy": "no game recorded this turn",
                  "neig": "no question asked at this turn",
                  "pass_mass": "no question asked at this turn"}
"""Why a cell of these plain tables can have no number (`display_frame`)."""


def plain(table: pd.DataFrame) -> pd.DataFrame:
    """A table of plain numbers: shown as they are (3 decimals), no stderr."""
    return table


def diagnostics_table(samples: pd.DataFrame, rows: pd.DataFrame) -> pd.DataFrame | None:
    """Mean reasoning-trace diagnostics per row over the episodes that exposed reasoning
    (score metadata ``diagnostics`` of the ``queries`` scorer), or None when none did."""
    column = "meta.queries.diagnostics"
    if column not in samples:
        return None
    out = []
    for label, block in rows.groupby("row", sort=False):
        mine = samples[samples["log_id"].isin(block["log_id"])]
        traced = [d for d in mine[column] if isinstance(d, dict) and d.get("reasoning_turns")]
        line = {"label": label, "model": block.iloc[0]["model"], "kind": "run",
                "samples": len(mine), "episodes_with_reasoning": len(traced)}
        for key in ("mss_mention_rate", "awareness_statements", "awareness_episode"):
            values = [float(d[key]) for d in traced if isinstance(d.get(key), int | float)]
            line[key] = sum(values) / len(values) if values else float("nan")
        out.append(line)
    table = pd.DataFrame(out)
    if not table["episodes_with_reasoning"].any():
        return None
    return table
