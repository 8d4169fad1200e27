"""Run labels (``L1``, ``L9``): the short names the report gives the logs it read, in the
order it read them, shown in a table's ``source`` column (which logs a row pools). Every
table that shows one is followed by a line naming each label's log file, in the page and
in the Markdown, so a reader never has to look the label up in ``logs.csv``.
"""

from __future__ import annotations

import re

import pandas as pd

LABEL = re.compile(r"(?<![\w/.-])L\d+(?![\w/.-])")
"""A run label standing as a word of its own (not part of a file name or a model name)."""


def labels_shown(display: pd.DataFrame, files: dict[str, str]) -> list[str]:
    """The run labels (keys of `files`) that some text cell of `display` holds as a
    whole word, in the order of their numbers."""
    found: set[str] = set()
    for column in display.columns:
        for text in display[column].astype(str):
            found.update(w for w in LABEL.findall(text) if w in files)
    return sorted(found, key=lambda w: int(w[1:]))


def legend_pairs(display: pd.DataFrame, files: dict[str, str]) -> list[tuple[str, str]]:
    """(label, log file) for every run label `display` shows."""
    return [(label, files[label]) for label in labels_shown(display, files)]


def legend_markdown(pairs: list[tuple[str, str]]) -> str:
    """The Markdown line under a table (empty when it shows no run label)."""
    if not pairs:
        return ""
    return ("\nRuns (`source`): " + "; ".join(f"{label} = `{file}`" for label, file in pairs)
            + "\n")
