"""The report's one self-contained HTML page: every table and figure, figures embedded as
PNG data URIs, no script and no external resource. Each table cell holds exactly the
text of the Markdown table (the same display frame), so the page, the Markdown and the
CSV agree. Run rows link to their transcripts in the static Inspect View bundle
(``viewer/``; serve the report folder over HTTP to browse it, e.g. ``python -m
http.server -d DIR``).
"""

from __future__ import annotations

import base64
import html
from pathlib import Path

import pandas as pd

from infoseek.inspect_tasks.report.sections import Report, Section

STYLE = """
body { font-family: system-ui, sans-serif; margin: 1.5em; color: #222; }
table { border-collapse: separate; border-spacing: 0; margin: 0.5em 0 0.3em;
        font-size: 12px; }
th, td { border: 1px solid #ccc; border-width: 0 1px 1px 0; padding: 2px 6px;
         text-align: right; white-space: nowrap; background: #fff; }
tr:first-child th { border-top-width: 1px; }
th:first-child, td:first-child { border-left-width: 1px; }
th { background: #f0f0f0; }
td.text, th.text { text-align: left; }
tr.published td { background: #fbf7e8; font-style: italic; }
tr.different-data td { background: #eeeeee; font-style: italic; color: #555; }
td.text { white-space: normal; min-width: 8em; }
td.note { min-width: 22em; }
.scroll { overflow-x: auto; max-width: 100%; }
.scroll th:first-child, .scroll td:first-child { position: sticky; left: 0; z-index: 1;
  min-width: 8em; max-width: 18em; white-space: normal; box-shadow: 2px 0 2px -1px #999; }
p.runs, ul.left-out { font-size: 12px; color: #555; margin: 0 0 1.5em; }
ul.left-out { color: #8a4b00; }
img { max-width: 100%; border: 1px solid #ddd; margin: 0.3em 0 1em; }
.skipped { color: #8a4b00; }
"""
"""The first column (the row label) of every table stays in view while a table wider
than the window scrolls sideways inside its ``.scroll`` box (``position: sticky``; the
borders are drawn per cell, ``border-collapse: separate``, since collapsed borders would
scroll away from a sticky cell)."""

TEXT_COLUMNS = {"label", "model", "kind", "source", "solving_task", "data", "roles", "note",
                "split", "ties", "role", "role_model", "a", "b", "metric", "better",
                "scores", "excludes_0"}


def _image(path: Path) -> str:
    data = base64.b64encode(path.read_bytes()).decode("ascii")
    return f"data:image/png;base64,{data}"


def table_html(display: pd.DataFrame, frame: pd.DataFrame, table_id: str,
               links: dict[str, str]) -> str:
    """One table: header = the display frame's columns; every cell of a run row links to
    its transcripts (the row's first log in the viewer bundle) when the bundle exists."""
    head = "".join(
        f'<th class="{"text" if c in TEXT_COLUMNS else "num"}">{html.escape(str(c))}</th>'
        for c in display.columns)
    body = []
    kinds = list(frame["kind"]) if "kind" in frame else ["run"] * len(display)
    labels = list(frame["label"]) if "label" in frame else [""] * len(display)
    for (_, row), kind, label in zip(display.iterrows(), kinds, labels):
        url = links.get(label) if kind == "run" else None
        cells = []
        for column, value in row.items():
            text = html.escape(str(value))
            if url and text:
                text = f'<a href="{html.escape(url)}">{text}</a>'
            css = ("text note" if column == "note" else "text") if column in TEXT_COLUMNS \
                else "num"
            cells.append(f'<td class="{css}">{text}</td>')
        css_kind = html.escape(str(kind).replace(" ", "-"))
        body.append(f'<tr class="{css_kind}">' + "".join(cells) + "</tr>")
    return (f'<div class="scroll"><table id="{html.escape(table_id)}" '
            f'data-csv="{html.escape(table_id)}.csv"><thead><tr>{head}</tr></thead>'
            f'<tbody>{"".join(body)}</tbody></table></div>')


def runs_html(runs: list[tuple[str, str]]) -> str:
    """The line under a table naming the log of every run label it shows (`run_labels`)."""
    if not runs:
        return ""
    return ('<p class="runs">Runs (<code>source</code>): '
            + "; ".join(f"<b>{html.escape(label)}</b> = {html.escape(file)}"
                        for label, file in runs) + "</p>")


def _section_html(section: Section) -> str:
    parts = [f'<h2 id="{html.escape(section.task)}">{html.escape(section.task)} '
             f'<small>({html.escape(section.protocol)})</small></h2>']
    for table in section.tables:
        parts.append(f"<h3>{html.escape(table.title)}</h3>")
        parts.append(table_html(table.display, table.frame, f"{section.task}.{table.name}",
                                section.links))
        parts.append(runs_html(table.runs))
    for title, path in section.figures:
        parts.append(f"<h3>{html.escape(title)}</h3>")
        parts.append(f'<img id="{html.escape(path.stem)}" '
                     f'alt="{html.escape(section.task)}: {html.escape(title)}" '
                     f'src="{_image(path)}">')
    if section.left_out:
        parts.append('<ul class="left-out">' + "".join(
            f"<li>{html.escape(line)}</li>" for line in section.left_out) + "</ul>")
    return "\n".join(p for p in parts if p)


def write_page(report: Report, path: Path) -> Path:
    """Write ``index.html`` (module docstring)."""
    contents = "".join(f'<li><a href="#{html.escape(s.task)}">{html.escape(s.task)}</a></li>'
                       for s in report.sections)
    summary = (f"<p>{len(report.logs)} log(s), {report.samples} sample(s), "
               f"{report.errored} errored (errored samples count as failures in every "
               "metric where higher is better, and are left out of the others).</p>")
    skipped = ""
    if report.skipped:
        skipped = ('<h2>Logs left out</h2><ul class="skipped">'
                   + "".join(f"<li>{html.escape(line)}</li>" for line in report.skipped)
                   + "</ul>")
    viewer = ('<p>The cells of each run row link to its transcripts in '
              '<a href="viewer/index.html">Inspect View</a> (serve this folder over HTTP '
              "to browse them, e.g. <code>python -m http.server -d .</code>).</p>"
              if report.bundle else "")
    from infoseek.inspect_tasks.report.published import published

    data = published()
    references = ("<h2>Published numbers</h2><p>Rows marked <i>(published)</i> are copied "
                  "from the papers' tables for the same task, setting and data; those "
                  "measured on other data than every run are shown apart, marked "
                  "<i>(published, different data)</i>, and their <code>data</code> column "
                  "names what they were measured on. Sources:</p><ul>"
                  + "".join(f"<li>{html.escape(data['sources'][key])}: "
                            f"{html.escape(cite)}</li>"
                            for key, cite in data["citations"].items()) + "</ul>")
    page = ("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">"
            "<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; "
            "img-src data:; style-src 'unsafe-inline'\">"
            "<title>infoseek report</title>"
            f"<style>{STYLE}</style></head><body><h1>infoseek report</h1>{summary}{viewer}"
            f"<ul>{contents}</ul>"
            + "\n".join(_section_html(s) for s in report.sections)
            + skipped + references + "</body></html>\n")
    path.write_text(page, encoding="utf-8")
    return path
