"""What a built report holds: its sections (one per task), each with its tables and
figures. `build` fills them in; `page` writes them as one HTML page."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

import pandas as pd


@dataclass
class Table:
    name: str
    title: str
    frame: pd.DataFrame
    """The numbers, as written to CSV."""
    display: pd.DataFrame
    """The text cells, as written to Markdown and HTML."""
    csv: Path
    md: Path
    runs: list[tuple[str, str]] = field(default_factory=list)
    """(run label, log file) for every run label the table shows (`run_labels`)."""


@dataclass
class Section:
    task: str
    protocol: str
    tables: list[Table] = field(default_factory=list)
    figures: list[tuple[str, Path]] = field(default_factory=list)
    links: dict[str, str] = field(default_factory=dict)
    """Row label -> transcript URL (its first log in the viewer bundle)."""
    left_out: list[str] = field(default_factory=list)
    """One line per declared table or figure left out for want of data, saying why."""


@dataclass
class Report:
    out: Path
    sections: list[Section]
    skipped: list[str]
    logs: pd.DataFrame
    samples: int
    errored: int
    bundle: Path | None
    notes: list[str] = field(default_factory=list)
    """One line per comparison refused or partly unpaired (`compare`)."""
