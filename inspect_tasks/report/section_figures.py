"""The figures of one task's section, and the line that stands in for one with nothing to
draw.

A figure drawn against k (the headline metrics, k-prediction bars, sufficiency by turn,
uncertainty curves) is drawn once per *k range*: rows whose samples cover different sets
of k (the default logic split's k = 1..4 beside the hard split's 5..8) get a figure each,
so no panel or axis spans k values a row never ran. Each figure is named after what tells
its rows apart: their data split when they share one (``logic_mt.headline.split-hard.png``,
titled ``split=hard``), else their k values (``.k5-8``); rows that all cover the same k
get one figure under the plain name, as before.

A figure (or a declared table, `build`) with nothing to draw is left out and the section
says why in one line (`Section.left_out`), in the page and in ``report.md``.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import pandas as pd

from infoseek.inspect_tasks.report import figures
from infoseek.inspect_tasks.report.declarations import TaskReport
from infoseek.inspect_tasks.report.sections import Section
from infoseek.inspect_tasks.report.tables import group_label, groups_of


@dataclass
class KRange:
    """Rows that cover the same k values, with their samples and the words naming them."""

    ks: list[str]
    rows: pd.DataFrame
    """The `row_table` lines (one per log) of these rows."""
    samples: pd.DataFrame
    name: str
    """``""`` when every row of the task covers these k; else ``split=hard`` or
    ``k=5..8``."""

    @property
    def suffix(self) -> str:
        """The figure file's infix: ``""``, ``.split-hard``, ``.k5-8``."""
        if not self.name:
            return ""
        if self.name.startswith("k="):
            return ".k" + self.name[2:].replace("..", "-").replace(",", "-")
        return "." + self.name.replace("=", "-")

    def titled(self, title: str) -> str:
        return f"{title} ({self.name})" if self.name else title


def k_ranges(samples: pd.DataFrame, rows: pd.DataFrame) -> list[KRange]:
    """The task's rows grouped by the set of k their samples cover (module docstring), in
    the order of their lowest k; one group, unnamed, when every row covers the same k.
    Rows with no k at all join the first group."""
    column = "metadata_k"
    covered: dict[str, tuple[str, ...]] = {}
    for label, block in rows.groupby("row", sort=False):
        mine = samples[samples["log_id"].isin(block["log_id"])]
        ks = {group_label(v) for v in mine[column]} if column in mine else set()
        covered[label] = tuple(k for k in groups_of(
            pd.DataFrame({column: sorted(k for k in ks if k is not None)}), "k"))
    sets = list(dict.fromkeys(v for v in covered.values() if v))
    if len(sets) <= 1:
        return [KRange(groups_of(samples, "k"), rows, samples, "")]
    sets.sort(key=lambda ks: (float(ks[0]), len(ks)))
    out = []
    for index, ks in enumerate(sets):
        labels = {label for label, v in covered.items() if v == ks or (not v and index == 0)}
        part = rows[rows["row"].isin(labels)]
        mine = samples[samples["log_id"].isin(part["log_id"])]
        splits = set(part["split"]) if "split" in part else set()
        name = (f"split={splits.pop()}" if len(splits) == 1 and "" not in splits
                else f"k={_span(ks)}")
        out.append(KRange(list(ks), part, mine, name))
    if len({r.name for r in out}) < len(out):  # two ranges on one split: name them by k
        for part in out:
            part.name = f"k={_span(part.ks)}"
    return out


def _span(ks: tuple[str, ...] | list[str]) -> str:
    """``1..4`` for consecutive integers, else the values with commas."""
    try:
        values = [int(k) for k in ks]
    except ValueError:
        return ",".join(ks)
    if len(values) > 1 and values == list(range(values[0], values[-1] + 1)):
        return f"{values[0]}..{values[-1]}"
    return ",".join(ks)


def place(section: Section, title: str, path: Path | None, why: str) -> None:
    """Add a drawn figure to the section, or the line saying why it has none."""
    if path is not None:
        section.figures.append((title, path))
    else:
        section.left_out.append(f"figure '{title}': left out, {why}")


def k_figures(section: Section, declaration: TaskReport, samples: pd.DataFrame,
              rows: pd.DataFrame, first_table: pd.DataFrame | None, folder: Path) -> None:
    """The figures drawn against k (module docstring), one per k range of the rows; the
    ranges' figures of one kind follow each other (both headline figures, then both
    sufficiency-by-turn figures, ...)."""
    task = section.task
    extras = set(declaration.extras)
    parts = k_ranges(samples, rows)

    def each(kind: str, title: str, why: str, draw) -> None:
        for part in parts:
            titled = part.titled(title)
            path = folder / f"{task}.{kind}{part.suffix}.png"
            place(section, titled, draw(part, path, f"{task}: {titled[0].lower()}{titled[1:]}"),
                  why)

    def table_of(part: KRange) -> pd.DataFrame:
        assert first_table is not None
        return first_table[(first_table["kind"] != "run")
                           | first_table["label"].isin(set(part.rows["row"]))]

    if first_table is not None and declaration.group_key == "k":
        each("headline", "Headline metrics vs k",
             f"no row has a headline metric ({', '.join(declaration.headline)}) per k",
             lambda part, path, title: figures.headline_figure(
                 table_of(part), declaration.headline, "k", part.ks, path, title))
    if "k_prediction_bars" in extras and first_table is not None:
        each("k_prediction", "Under-, over-prediction, not sure and invalid answers per k",
             "no row has an under-, over-prediction, not sure or invalid rate per k",
             lambda part, path, title: figures.k_prediction_figure(
                 table_of(part), part.ks, path, title))
    if "sufficiency_by_turn" in extras:
        each("sufficiency_by_turn", "Share of episodes sufficient by turn",
             "no sample records its k and turn to sufficiency",
             lambda part, path, title: figures.sufficiency_by_turn_figure(
                 part.samples, part.rows, path, title))
    if "uncertainty" in extras:
        each("uncertainty", "Uncertainty curves (target values still possible)",
             "no sample recorded an uncertainty curve",
             lambda part, path, title: figures.uncertainty_figure(
                 part.samples, part.rows, path, title))
