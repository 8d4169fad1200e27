"""Shared pieces of the GSME published-format tests: the fixture files, the project's
fixture writer (loaded from its script), and small load/write helpers."""

from __future__ import annotations

import importlib.util
import json
from pathlib import Path

from infoseek.builders.math.released.source_format import verify
from infoseek.builders.published import load_published

FIXTURES = Path(__file__).parent / "fixtures" / "published"
MT_CSV = FIXTURES / "gsme_q_mt.csv"
EXT_CSV = FIXTURES / "gsme_q_mt_ext.csv"
GSME = ("mt-infoseek-gsme", "mt-infoseek-gsme-ext")


def _writer():
    spec = importlib.util.spec_from_file_location(
        "write_gsme_fixtures", FIXTURES / "write_gsme_fixtures.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


W = _writer()


def load_gsme(path, **options):
    return load_published(str(path), candidates=GSME, **options)


def write_gsme_rows(tmp_path, rows, name="rows.csv"):
    columns = list(dict.fromkeys(c for row in rows for c in row))
    path = tmp_path / name
    W.write_csv([{c: row.get(c, "") for c in columns} for row in rows], path, columns)
    return path


def small_row(**changes):
    """A hand-made GSME-Q-MT row: T = A + 3 * B with A revealed, B held out, C a
    distractor; `changes` replace cells."""
    row = {
        "Rewritten Problem": "Variables:\nA: apples\nB: boxes\nC: crates\nA = 4\n"
                             "Equations:\nT = A + 3 * B\nGoal: What is T?",
        "Variables": json.dumps({"A": "apples", "B": "boxes", "C": "crates", "T": "total"}),
        "Equations": json.dumps({"T = A + 3 * B": "the total"}),
        "Heldout Value": '["B"]',
        "Possible Questions": '["B", "C"]',
        "Given_Conditions": "",
        "k": "1",
        "goal_var": "T",
        "answer": "10",
        "Pred Values": json.dumps({"A": 4, "B": 2, "C": 7, "T": 10}),
    }
    row.update(changes)
    return row


def small_row_checks(tmp_path, **changes):
    """The loaded `small_row(**changes)` and what `verify` reports on it."""
    path = write_gsme_rows(tmp_path, [small_row(**changes)])
    (record,) = load_gsme(path, source_format="mt-infoseek-gsme")
    return record, verify(record)
