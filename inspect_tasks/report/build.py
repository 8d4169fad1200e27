"""`infoseek report LOGS... --out DIR`: tables, figures and one HTML page from logs.

Writes into DIR:

- ``tables/<task>.<table>.csv`` and ``.md`` for every table of every task (rows = model
  and setting, run rows first, then the published rows that apply, ``kind`` telling them
  apart), ``report.md`` with every table;
- ``figures/<task>.<figure>.png``;
- ``tables/<task>.k50.*`` for a task with final sufficiency per k: each row's k50 (the k at
  which final sufficiency falls to one half) with its bootstrap interval and the k to
  run next (`k50`);
- ``tables/<task>.tokens.*``: each row's tokens per sample from the recorded model usage
  and, with ``prices``, its cost (`tokens`);
- ``samples.csv`` (one row per sample: log, task, model, settings, id, epoch, k, error
  and every score value) and ``turns.csv`` (one row per recorded seek turn), the long
  form for one's own analysis; ``logs.csv`` (one row per log read);
- ``index.html``: every table and figure in one self-contained page (figures as data
  URIs), each run row linked to its transcripts in ``viewer/``, a static Inspect View
  bundle (``inspect view bundle``) of the logs (``bundle=False`` leaves it out).

DIR is checked before any log is read (`infoseek.cli_files.folder_problem`): it must be
named (``--out ""`` would be the working folder), and be a folder or not exist yet under
a writable folder, never a file or a device nor under one. A folder that holds an earlier
report (any of `REPORT_OUTPUTS`) is kept unless ``force``; with it the earlier report's
``tables/``, ``figures/`` and ``viewer/`` are replaced whole (no table of a task no
longer reported stays behind) and its files written over. Other files there are kept.
"""

from __future__ import annotations

import shutil
from collections.abc import Callable, Sequence
from functools import partial
from pathlib import Path

import pandas as pd

from infoseek.cli_files import earlier_results, folder_problem, shown_names
from infoseek.inspect_tasks.report import figures
from infoseek.inspect_tasks.report.compare import (
    named,
    row_infos,
)
from infoseek.inspect_tasks.report.declarations import ADDED_TABLES, TableSpec, TaskReport
from infoseek.inspect_tasks.report.extra_tables import (
    by_turn_table,
    detection_table,
    role_table,
    undetermined_table,
)
from infoseek.inspect_tasks.report.k50 import K50_TITLE, k50_display, k50_table
from infoseek.inspect_tasks.report.page import write_page
from infoseek.inspect_tasks.report.published import (
    DIFFERENT_DATA,
    PUBLISHED,
    reference_rows,
)
from infoseek.inspect_tasks.report.reading import Logs, ReportError, read_logs
from infoseek.inspect_tasks.report.report_files import VIEWER, bundle_logs, order_columns
from infoseek.inspect_tasks.report.report_files import write_long_form as _write_long_form
from infoseek.inspect_tasks.report.run_labels import legend_markdown, legend_pairs
from infoseek.inspect_tasks.report.section_figures import k_figures, place
from infoseek.inspect_tasks.report.section_tables import (
    AXES_BLANKS,
    BY_TURN_BLANKS,
    DIFFERENT_DATA_NOTE,
    add_filtered,
    add_order_strata,
    add_repeats_and_comparison,
    diagnostics_table,
    plain,
)
from infoseek.inspect_tasks.report.sections import Report, Section, Table
from infoseek.inspect_tasks.report.tables import (
    AXES,
    axes_table,
    display_frame,
    markdown,
    metric_columns,
    metric_table,
    row_table,
    run_facts,
)
from infoseek.inspect_tasks.report.tokens import (
    TOKENS_TITLE,
    PricesError,
    load_prices,
    tokens_display,
    tokens_table,
)

REPORT_OUTPUTS = ("report.md", "samples.csv", "turns.csv", "logs.csv", "index.html",
                  "tables", "figures", VIEWER)
"""What a report writes into its folder (an earlier report is told by any of them)."""


def _write_table(out: Path, task: str, name: str, title: str, frame: pd.DataFrame,
                 display: pd.DataFrame, files: dict[str, str] | None = None) -> Table:
    """Write the CSV and the Markdown (with the line naming the log of every run label
    the table shows, `run_labels`)."""
    folder = out / "tables"
    folder.mkdir(parents=True, exist_ok=True)
    csv = folder / f"{task}.{name}.csv"
    md = folder / f"{task}.{name}.md"
    frame.to_csv(csv, index=False)
    runs = legend_pairs(display, files or {})
    md.write_text(f"## {task}: {title}\n\n" + markdown(display) + legend_markdown(runs),
                  encoding="utf-8")
    return Table(name, title, frame, display, csv, md, runs)


def _with_references(table: pd.DataFrame, task: str, declaration: TaskReport,
                     spec: TableSpec, runs: list[dict[str, str]], shown: list[str]
                     ) -> tuple[pd.DataFrame, pd.DataFrame]:
    """The table with the published rows of its own metrics on the same data as a run
    below the runs, and apart the published rows of the same setting measured on
    different data (`published.reference_rows`)."""
    metrics = sorted({m.key for m in spec.metrics})
    refs = reference_rows(declaration.published or task, metrics, declaration.group_key,
                          runs, shown)
    if refs.empty:
        return table, refs
    values = [c for c in refs.columns if f"{c}_n" in refs.columns]
    refs = refs.assign(label=refs["model"])
    same = refs[refs["kind"] == PUBLISHED]
    same = same[[c for c in same.columns if c in table.columns or c in ("model", "kind")]]
    kept = [c for c in values if c in same.columns]
    same = same[same[kept].notna().any(axis=1)] if kept else same.iloc[0:0]
    other = refs[refs["kind"] == DIFFERENT_DATA]
    other = other[[c for c in other.columns if c not in values
                   or other[c].notna().any()]]
    other = other.dropna(axis=1, how="all") if not other.empty else other
    if not same.empty:
        table = pd.concat([table, same], ignore_index=True)
    return table, other


def _section(logs: Logs, task: str, out: Path, links: dict[str, str],
             compare: Sequence[tuple[str, str]] | None = None,
             notes: list[str] | None = None,
             prices: dict[str, dict[str, float]] | None = None) -> Section:
    declaration = logs.declarations[task]
    evals = logs.evals[logs.evals["task"] == task]
    samples = logs.samples[logs.samples["log_id"].isin(evals["log_id"])]
    rows = row_table(evals, declaration)
    figures.colour_rows(rows["row"])
    shown = [c for c in rows.columns if c not in ("log_id", "row", "model", "note")]
    runs = [run_facts(entry, declaration) for _, entry in evals.iterrows()]
    section = Section(task, declaration.protocol)
    for label, block in rows.groupby("row", sort=False):
        url = links.get(block.iloc[0]["log_id"])
        if url:
            section.links[label] = url
    add = partial(_add_table, section, out, dict(zip(logs.evals["log_id"],
                                                      logs.evals["file"])))
    leading = ["label", "model", *shown, "kind", "source", "samples", "errored"]
    figure_dir = out / "figures"
    figure_dir.mkdir(parents=True, exist_ok=True)
    first_table: pd.DataFrame | None = None
    apart_tables: list[tuple[str, str, pd.DataFrame]] = []
    for spec in declaration.tables:
        if spec in ADDED_TABLES:  # only the rows whose runs carry the scorer
            spec_rows = rows_scored_by(samples, rows, spec.metrics[0].scorer)
            if spec_rows.empty:
                continue
        else:
            spec_rows = rows
        table = metric_table(samples, spec_rows, spec, declaration.group_key)
        if not metric_columns(table):
            _leave_out(section, spec.title, "no row has a value for any of its metrics ("
                       + ", ".join(dict.fromkeys(m.key for m in spec.metrics)) + ")")
            continue
        table, apart = _with_references(table, task, declaration, spec, runs, shown)
        table = order_columns(table, leading)
        add(spec.name, spec.title, table, display_frame(table))
        if not apart.empty:
            apart_tables.append((spec.name, spec.title, apart))
        if first_table is None:
            first_table = table
    for name, title, apart in apart_tables:  # after the runs' own tables
        apart = order_columns(apart, ["label", "model", "kind", "data", "source"])
        add(f"{name}.{DIFFERENT_DATA.replace(' ', '_')}", f"{title}: {DIFFERENT_DATA_NOTE}",
            apart, display_frame(apart))
    k_figures(section, declaration, samples, rows, first_table, figure_dir)
    extras = set(declaration.extras)
    if "order_strata" in extras:
        add_order_strata(section, samples, rows, runs, shown, add, figure_dir)
    if "detection" in extras:
        table = detection_table(samples, rows)
        add("detection", "Detection of 'Not sure': precision, recall, F1", table,
            display_frame(plain(table)), why="no row")
    if "undetermined" in extras:
        table = undetermined_table(samples, rows)
        add("undetermined", "Problems no question can settle: precision, recall and F1 of "
            "'cannot be determined', stopped before the turn cap", table,
            display_frame(plain(table)), why="no row")
    if "axes" in extras:
        scorer = "detection_scorer" if declaration.protocol == "detection" \
            else "single_turn_scorer"
        table = axes_table(samples, rows, scorer)
        add("axes", "Spearman's rho (p) of correctness with each difficulty axis", table,
            display_frame(plain(table), AXES_BLANKS), why="no row")
        path = figures.axes_figure(samples, rows, scorer, figure_dir / f"{task}.axes.png",
                                   f"{task}: accuracy vs difficulty axes")
        place(section, "Accuracy vs each difficulty axis", path, "no sample records a "
              "difficulty axis (" + ", ".join(AXES) + ")")
    if "filtered" in extras:
        add_filtered(section, logs, samples, rows, add)
    if "entropy_by_turn" in extras:
        table = order_columns(by_turn_table(samples, rows),
                               ["label", "model", *shown, "kind", "turn", "samples",
                                "errored"])
        title = "Remaining entropy, nEIG and pass mass by turn"
        add("by_turn", "Remaining entropy (nats), nEIG and pass mass by turn (means over "
            "the games with a value)", table, display_frame(plain(table), BY_TURN_BLANKS),
            why="no game recorded a turn")
        path = (figures.entropy_by_turn_figure(table, figure_dir / f"{task}.by_turn.png",
                                               f"{task}: entropy, nEIG and pass mass by "
                                               "turn") if not table.empty else None)
        place(section, title, path, "no game recorded its remaining entropy by turn")
    table = role_table(samples, rows, evals)
    if table is not None:
        add("roles", "Model roles measured against exact truth (error rate = wrong / "
            "measured; role_error_episodes: the seeker's episodes with a wrong role reply, "
            "counted apart)", table,
            display_frame(plain(table), {"error_rate": "nothing measured: every call "
                                                        "raised"}))
    if "diagnostics" in extras:
        table = diagnostics_table(samples, rows)
        if table is not None:
            add("diagnostics", "Reasoning-trace diagnostics (episodes with reasoning)",
                table, display_frame(plain(table),
                                     {"*": "no episode with reasoning has it"}))
    table = k50_table(samples, rows, evals, declaration)
    if not table.empty:
        add("k50", K50_TITLE, table, k50_display(table))
    table = tokens_table(samples, rows, prices)
    if table is not None:
        title = TOKENS_TITLE + ("; cost from the prices file, per million tokens"
                                if prices is not None else "")
        add("tokens", title, table, tokens_display(table))
    add_repeats_and_comparison(section, samples, rows, declaration, add, compare,
                            notes if notes is not None else [])
    return section


def _add_table(section: Section, out: Path, files: dict[str, str], name: str, title: str,
               table: pd.DataFrame, display: pd.DataFrame, why: str | None = None) -> None:
    """Write the table and add it to the section; a table with no row is left out with
    the line saying `why` when one is given (a declared table), silently otherwise."""
    if table.empty:
        if why is not None:
            _leave_out(section, title, why)
        return
    section.tables.append(_write_table(out, section.task, name, title, table, display,
                                       files))


def _leave_out(section: Section, title: str, why: str) -> None:
    section.left_out.append(f"table '{title}': left out, {why}")


def rows_scored_by(samples: pd.DataFrame, rows: pd.DataFrame, scorer: str) -> pd.DataFrame:
    """The `rows` (one line per log) of the logs whose samples carry `scorer`'s values."""
    columns = [c for c in samples.columns if c.startswith(f"score.{scorer}.")]
    if not columns:
        return rows.iloc[0:0]
    scored = samples.loc[samples[columns].notna().any(axis=1), "log_id"]
    return rows[rows["log_id"].isin(set(scored))]


def compare_problem(logs: Logs, compare: Sequence[tuple[str, str]]) -> str | None:
    """Why `--compare` cannot be done on these logs (a name that is no row label nor
    model of any task), or None."""
    known: set[str] = set()
    for task, declaration in logs.declarations.items():
        evals = logs.evals[logs.evals["task"] == task]
        samples = logs.samples[logs.samples["log_id"].isin(evals["log_id"])]
        infos = row_infos(samples, row_table(evals, declaration))
        known.update(name for pair in compare for name in pair if named(infos, name))
    missing = [name for pair in compare for name in pair if name not in known]
    if missing:
        models = ", ".join(sorted(set(logs.evals["model"])))
        return (f"--compare: {missing[0]!r} is neither a row label nor a model of any "
                f"task in these logs (models: {models}; row labels are in the tables' "
                "label column)")
    return None


def _left_out_markdown(sections: list[Section]) -> str:
    """``report.md``'s list of the declared tables and figures left out, each with why."""
    lines = [f"- {s.task}: {line}" for s in sections for line in s.left_out]
    return "\n## Left out for want of data\n\n" + "\n".join(lines) + "\n" if lines else ""


def out_problem(out: str | Path, force: bool) -> str | None:
    """Why the report may not be written into `out` (module docstring), or None."""
    problem = folder_problem(str(out), "--out")
    if problem is not None:
        return problem
    earlier = earlier_results(out, REPORT_OUTPUTS)
    if earlier and not force:
        return (f"--out {out} holds an earlier report ({shown_names(earlier)}); pass "
                "--force to replace it")
    return None


def build_report(paths: Sequence[str | Path], out: str | Path, *, bundle: bool = True,
                 progress: Callable[[int, int], None] | None = None,
                 notice: Callable[[str], None] | None = None, force: bool = False,
                 compare: Sequence[tuple[str, str]] | None = None,
                 prices: str | Path | None = None) -> Report:
    """Read the logs, write every table, figure and page (module docstring); `force`:
    replace an earlier report in `out`; `compare`: the (A, B) pairs of rows or models to
    compare (`compare.comparison_pairs`; None: every two rows of one setting that ran
    the same samples); `prices`: a prices file (model -> price per million tokens,
    `tokens.load_prices`) adding a cost column to each task's tokens table."""
    problem = out_problem(out, force)
    if problem is not None:
        raise ReportError(problem)
    try:
        price_table = load_prices(prices) if prices is not None else None
    except PricesError as exc:
        raise ReportError(str(exc)) from None
    out = Path(out)
    logs = read_logs(paths, progress=progress)
    if logs.evals.empty:
        raise ReportError("none of the logs is an infoseek log:\n" + "\n".join(logs.skipped))
    if compare:
        problem = compare_problem(logs, compare)
        if problem is not None:
            raise ReportError(problem)
    out.mkdir(parents=True, exist_ok=True)
    for folder in ("tables", "figures", VIEWER):
        if (out / folder).is_dir() and not (out / folder).is_symlink():
            shutil.rmtree(out / folder)
    links: dict[str, str] = {}
    bundle_dir = None
    if bundle:
        bundle_dir, links, failure = bundle_logs(list(logs.paths.items()), out)
        if failure and notice:
            notice(f"transcript bundle left out: inspect view bundle failed ({failure})")
    notes: list[str] = []
    sections = [_section(logs, task, out, links, compare or None, notes, price_table)
                for task in sorted(logs.declarations)]
    if notice:
        for line in notes:
            notice(line)
    _write_long_form(logs, out, links)
    from infoseek.inspect_tasks.report.published import published

    citations = "".join(f"- {published()['sources'][k]}: {c}\n"
                        for k, c in published()["citations"].items())
    (out / "report.md").write_text(
        "# infoseek report\n\nRows marked (published) are copied from the papers' "
        "tables for the same task, setting and data; rows marked (published, different "
        "data) were measured on other problems than every run (their `data` column says "
        "which) and sit in tables of their own. Sources:\n\n" + citations
        + "\n" + "\n".join(
            t.md.read_text(encoding="utf-8") for s in sections for t in s.tables)
        + _left_out_markdown(sections)
        + ("\n## Comparisons: samples and pairs left out\n\n"
           + "\n".join(f"- {line}" for line in notes) + "\n" if notes else "")
        + ("\n## Logs left out\n\n" + "\n".join(f"- {line}" for line in logs.skipped) + "\n"
           if logs.skipped else ""), encoding="utf-8")
    report = Report(out, sections, logs.skipped, logs.evals, len(logs.samples),
                    int(logs.samples["error"].astype(bool).sum()) if len(logs.samples) else 0,
                    bundle_dir, notes)
    write_page(report, out / "index.html")
    return report


