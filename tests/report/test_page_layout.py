"""The report page reads well at any size (issue 33, item 3): the label column stays in
view while a wide table scrolls, legends are never cut off, turn and k axes have integer
ticks, a declared table or figure with no data is left out with one line saying why, run
labels (``L1``) are named under every table that shows them, and rows on different k
ranges get a figure each.

One module-scoped set of small reference-model logs: logic_mt at k = 1, 2 for both models
under the adversarial oracle and at k = 3, 4 under the cooperative one (two k ranges and
a table wide enough to scroll at 800 px), and logic_q without its well-specified sibling
(its filtered-accuracy table has nothing to filter by).
"""

from __future__ import annotations

import html
import json
import re
from pathlib import Path

import matplotlib.pyplot as plt
import pandas as pd
import pytest
from inspect_ai import eval as inspect_eval

from infoseek.inspect_tasks._registry import PACKAGED_TASKS
from infoseek.inspect_tasks.report import build_report, figures
from infoseek.inspect_tasks.report.declarations import SEEK_REPORT
from infoseek.inspect_tasks.report.section_figures import k_figures, k_ranges
from infoseek.inspect_tasks.report.sections import Section
from tests.report.test_report import _chromium
from tests.support.browser import load_page

MODELS = ["infoseek/optimal", "infoseek/random"]
CLOSE = plt.close
"""pyplot's own close (the tests below replace it to keep figures open)."""


@pytest.fixture(scope="module")
def report(tmp_path_factory: pytest.TempPathFactory):
    folder = tmp_path_factory.mktemp("page-logs")
    tasks = [PACKAGED_TASKS["logic_mt"](k=[1, 2], per_k=1, oracle="adversarial"),
             PACKAGED_TASKS["logic_mt"](k=[3, 4], per_k=1, oracle="cooperative"),
             PACKAGED_TASKS["logic_q"](per_k=2)]
    results = inspect_eval(tasks, model=MODELS, log_dir=str(folder), display="none")
    assert [log.status for log in results] == ["success"] * len(results)
    return build_report([folder], tmp_path_factory.mktemp("page-report"), bundle=False)


def _kept_figures(monkeypatch) -> list:
    """Keep every figure `figures._save` writes open (it closes them), to inspect it."""
    kept: list = []
    monkeypatch.setattr(figures.plt, "close", kept.append)
    return kept


def _png_size(path: Path) -> tuple[int, int]:
    data = path.read_bytes()
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    return int.from_bytes(data[16:20], "big"), int.from_bytes(data[20:24], "big")


# ------------------------------------------------------------------ legends


def test_a_legend_wider_than_the_panels_is_inside_the_image(tmp_path: Path,
                                                           monkeypatch) -> None:
    kept = _kept_figures(monkeypatch)
    labels = [f"vendor/a-model-with-a-long-name-{i} oracle=adversarial budget=10x1 "
              f"split=default source=problems-{i}.jsonl#0123456789ab" for i in range(9)]
    rows = pd.DataFrame({"log_id": [f"L{i}" for i in range(9)], "row": labels})
    samples = pd.DataFrame({"log_id": [f"L{i}" for i in range(9)], "metadata_k": [1] * 9,
                            "error": [""] * 9, "turn_count": [3] * 9,
                            "score.sufficiency.turn_to_sufficiency": [2.0] * 9})
    path = figures.sufficiency_by_turn_figure(samples, rows, tmp_path / "s.png", "t")
    [fig] = kept
    fig.canvas.draw()
    renderer = fig.canvas.get_renderer()
    [legend] = fig.legends
    box = legend.get_window_extent(renderer)
    assert box.width > fig.get_size_inches()[0] * fig.dpi  # wider than the panel
    # the saved image is cropped to everything drawn (legend included), plus the padding
    tight = fig.get_tightbbox(renderer)
    width, height = _png_size(path)
    assert width == pytest.approx((tight.width + 0.2) * figures.DPI, abs=2)
    assert height == pytest.approx((tight.height + 0.2) * figures.DPI, abs=2)
    left, bottom = (tight.x0 - 0.1) * fig.dpi, (tight.y0 - 0.1) * fig.dpi
    assert box.x0 >= left - 1 and box.x1 <= left + width + 1
    assert box.y0 >= bottom - 1 and box.y1 <= bottom + height + 1
    # below the panels, their tick labels and axis titles: nothing overlaps it
    for axis in fig.axes:
        if axis.get_visible():
            assert axis.get_tightbbox(renderer).y0 >= box.y1 - 1
    CLOSE(fig)


# ------------------------------------------------------------------ integer ticks


def _integral_ticks(axis, along: str) -> list[float]:
    low, high = axis.get_xlim() if along == "x" else axis.get_ylim()
    ticks = axis.get_xticks() if along == "x" else axis.get_yticks()
    return [t for t in ticks if low - 1e-9 <= t <= high + 1e-9]


def test_turn_axes_have_integer_ticks_even_over_one_turn(tmp_path: Path,
                                                         monkeypatch) -> None:
    kept = _kept_figures(monkeypatch)
    rows = pd.DataFrame({"log_id": ["L1"], "row": ["m"]})
    samples = pd.DataFrame({"log_id": ["L1", "L1"], "metadata_k": [1, 1], "error": ["", ""],
                            "turn_count": [1, 1],
                            "score.sufficiency.turn_to_sufficiency": [1.0, 1.0],
                            "meta.sufficiency.uncertainty_curve": [[4, 1], [2, 1]]})
    figures.sufficiency_by_turn_figure(samples, rows, tmp_path / "s.png", "t")
    figures.uncertainty_figure(samples, rows, tmp_path / "u.png", "t")
    table = pd.DataFrame({"label": ["m"] * 2, "kind": ["run"] * 2, "turn": [1, 2],
                          "entropy": [2.0, 1.0], "neig": [0.5, 0.4],
                          "pass_mass": [0.1, 0.2]})
    figures.entropy_by_turn_figure(table, tmp_path / "e.png", "t")
    axes = [a for fig in kept for a in fig.axes if a.get_xlabel() == "turn"]
    assert len(axes) == 5
    for axis in axes:
        ticks = _integral_ticks(axis, "x")
        assert len(ticks) >= 2 and all(float(t).is_integer() for t in ticks), ticks
    for fig in kept:
        CLOSE(fig)


def test_every_turn_and_k_axis_of_a_report_has_integer_ticks(report, monkeypatch,
                                                             tmp_path: Path) -> None:
    kept = _kept_figures(monkeypatch)
    logs = sorted({Path(p) for p in report.logs["log"]})
    build_report(logs, tmp_path / "again", bundle=False)
    axes = [a for fig in kept for a in fig.axes if a.get_xlabel() in ("turn", "k")]
    assert {a.get_xlabel() for a in axes} == {"turn", "k"}
    for axis in axes:
        ticks = _integral_ticks(axis, "x")
        assert ticks and all(float(t).is_integer() for t in ticks), (axis.get_title(), ticks)
    for fig in kept:
        CLOSE(fig)


# ------------------------------------------------------------------ a figure per k range


def test_rows_on_different_k_ranges_get_a_figure_each(report) -> None:
    [section] = [s for s in report.sections if s.task == "logic_mt"]
    names = sorted(Path(p).name for _t, p in section.figures)
    assert names == sorted(f"logic_mt.{f}.k{r}.png" for f in
                           ("headline", "sufficiency_by_turn", "uncertainty")
                           for r in ("1-2", "3-4"))
    titles = [t for t, _p in section.figures]
    assert "Headline metrics vs k (k=1..2)" in titles
    assert "Headline metrics vs k (k=3..4)" in titles


def test_k_ranges_are_named_by_split_when_it_tells_them_apart() -> None:
    rows = pd.DataFrame({"log_id": ["L1", "L2", "L3"],
                         "row": ["m split=default", "m split=hard", "n split=hard"],
                         "split": ["default", "hard", "hard"]})
    samples = pd.DataFrame({"log_id": ["L1", "L1", "L2", "L2", "L3"],
                            "metadata_k": [1, 2, 5, 8, 5]})
    parts = k_ranges(samples, rows)
    # two ranges on the hard split: every range is named by its k values
    assert [(p.name, p.ks, list(p.rows["log_id"])) for p in parts] == [
        ("k=1..2", ["1", "2"], ["L1"]), ("k=5", ["5"], ["L3"]), ("k=5,8", ["5", "8"], ["L2"])]
    assert [p.suffix for p in k_ranges(samples, rows.iloc[:2])] == [".split-default",
                                                                     ".split-hard"]
    same = k_ranges(samples[samples["log_id"] != "L1"].assign(metadata_k=5), rows)
    assert len(same) == 1 and same[0].name == "" and same[0].suffix == ""


# ------------------------------------------------------------------ left out, with why


def test_a_declared_table_with_no_data_is_left_out_with_its_reason(report) -> None:
    [section] = [s for s in report.sections if s.task == "logic_q"]
    assert "filtered" not in {t.name for t in section.tables}
    assert not (report.out / "tables" / "logic_q.filtered.csv").exists()
    [line] = [x for x in section.left_out if "Filtered accuracy" in x]
    assert "left out, no logic_q_well_specified log" in line
    assert f"- logic_q: {line}" in (report.out / "report.md").read_text(encoding="utf-8")
    assert html.escape(line) in (report.out / "index.html").read_text(encoding="utf-8")


def test_a_figure_with_no_data_is_left_out_with_its_reason(tmp_path: Path) -> None:
    section = Section("t", "seek")
    rows = pd.DataFrame({"log_id": ["L1"], "row": ["m"]})
    samples = pd.DataFrame({"log_id": ["L1"], "metadata_k": [1], "error": [""],
                            "turn_count": [1],
                            "score.sufficiency.turn_to_sufficiency": [1.0]})
    k_figures(section, SEEK_REPORT, samples, rows, None, tmp_path)
    assert [t for t, _p in section.figures] == ["Share of episodes sufficient by turn"]
    assert section.left_out == ["figure 'Uncertainty curves (target values still possible)':"
                                " left out, no sample recorded an uncertainty curve"]


# ------------------------------------------------------------------ run labels


def test_every_table_showing_a_run_label_names_its_log(report) -> None:
    files = dict(zip(report.logs["log_id"], report.logs["file"]))
    page = (report.out / "index.html").read_text(encoding="utf-8")
    shown = 0
    for section in report.sections:
        for table in section.tables:
            cells = " ".join(table.display.astype(str).to_numpy().ravel())
            labels = sorted(set(re.findall(r"\bL\d+\b", cells)) & set(files))
            assert [label for label, _f in table.runs] == sorted(
                labels, key=lambda x: int(x[1:])), table.name
            markdown = table.md.read_text(encoding="utf-8")
            block = page.split(f'id="{section.task}.{table.name}"', 1)[1]
            block = block.split("</table></div>", 1)[1].split("<h", 1)[0]
            for label in labels:
                assert f"{label} = `{files[label]}`" in markdown
                assert f"<b>{label}</b> = {html.escape(files[label])}" in block
                shown += 1
            if not labels:
                assert "Runs (" not in markdown and 'class="runs"' not in block
    assert shown >= 10


# ------------------------------------------------------------------ in a real browser

SCROLLED = """JSON.stringify(Array.from(document.querySelectorAll('.scroll')).map(box => {
  const table = box.querySelector('table');
  box.scrollIntoView();
  const before = Array.from(table.rows).map(r => r.cells[0].getBoundingClientRect().left);
  const last = table.rows[0].cells[table.rows[0].cells.length - 1];
  const lastBefore = last.getBoundingClientRect().left;
  box.scrollLeft = box.scrollWidth;
  const after = Array.from(table.rows).map(r => r.cells[0].getBoundingClientRect().left);
  const cell = table.rows[1].cells[0];
  const x = cell.getBoundingClientRect().left + 3, y = cell.getBoundingClientRect().top + 3;
  return {id: table.id, wide: box.scrollWidth > box.clientWidth,
          box: box.getBoundingClientRect().left,
          before: before, after: after, moved: lastBefore - last.getBoundingClientRect().left,
          onTop: box.contains(document.elementFromPoint(x, y)) &&
                 cell.contains(document.elementFromPoint(x, y))};
}))"""


def test_the_label_column_stays_in_view_while_a_wide_table_scrolls(report) -> None:
    page = load_page(report.out / "index.html", _chromium(), width=800, script=SCROLLED)
    assert page.errors == []
    boxes = json.loads(page.measured)
    wide = [b for b in boxes if b["wide"]]
    assert len(wide) >= 5, [b["id"] for b in boxes]
    for b in wide:
        assert b["moved"] > 100, b["id"]  # the table did scroll
        assert b["after"] == pytest.approx(b["before"], abs=1), b["id"]
        assert all(abs(x - b["box"]) <= 1 for x in b["after"]), b["id"]
        assert b["onTop"], b["id"]  # the label cell is drawn over the scrolled cells
