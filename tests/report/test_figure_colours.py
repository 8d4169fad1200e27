"""A row keeps one colour in every panel and every figure of its task
(`infoseek.inspect_tasks.report.figures.colour_rows`), whichever rows a panel draws."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import matplotlib.pyplot as plt
import pandas as pd
import pytest

from infoseek.inspect_tasks.report import figures

PALETTE = plt.rcParams["axes.prop_cycle"].by_key()["color"]


def _drawn(monkeypatch: pytest.MonkeyPatch) -> list[Any]:
    """The figures `_save` is handed, kept open instead of written."""
    kept: list[Any] = []
    monkeypatch.setattr(figures, "_save", lambda fig, path: kept.append(fig) or path)
    return kept


def _line_colours(axis: Any) -> dict[str, str]:
    return {line.get_label(): line.get_color() for line in axis.get_lines()}


def test_each_row_gets_the_cycle_colour_of_its_place_in_the_task() -> None:
    figures.colour_rows(["a p=1", "b p=1", "c p=1", "b p=1"])
    assert [figures.colour_of(r) for r in ("a p=1", "b p=1", "c p=1")] == PALETTE[:3]
    assert figures.colour_of("not a row") is None


def test_a_row_missing_from_a_panel_does_not_shift_the_others(monkeypatch) -> None:
    rows = pd.DataFrame({"row": ["first x=1", "second x=2"], "log_id": ["L1", "L2"]})
    samples = pd.DataFrame({
        "log_id": ["L1", "L2", "L2"],
        "metadata_k": [2, 1, 2],
        "score.sufficiency.turn_to_sufficiency": [1, 2, 1],
        "turn_count": [3, 3, 3],
        "error": [False, False, False],
    })
    kept = _drawn(monkeypatch)
    figures.colour_rows(rows["row"])
    assert figures.sufficiency_by_turn_figure(samples, rows, Path("x.png"), "t") is not None
    k1, k2 = kept[0].axes[:2]
    assert _line_colours(k1) == {"second x=2": PALETTE[1]}  # the first row has no k = 1
    assert _line_colours(k2) == {"first x=1": PALETTE[0], "second x=2": PALETTE[1]}
    plt.close(kept[0])


def test_a_figure_of_one_k_range_keeps_the_task_colours(monkeypatch) -> None:
    """The hard split's figure draws only the second row: it keeps the second colour."""
    table = pd.DataFrame({"label": ["default split=default", "hard split=hard"],
                          "kind": ["run", "run"], "accuracy_k5": [None, 0.5]})
    kept = _drawn(monkeypatch)
    figures.colour_rows(table["label"])
    part = table[table["label"] == "hard split=hard"]
    assert figures.headline_figure(part, ("accuracy",), "k", ["5"], Path("x.png"), "t")
    [axis] = kept[0].axes
    [bars] = axis.containers
    assert bars.lines[0].get_color() == PALETTE[1]
    plt.close(kept[0])
