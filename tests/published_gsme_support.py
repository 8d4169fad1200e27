"""Shared pieces of the GSME published-format tests: the fixture files, the project's
fixture writer (loaded from its script), and small load/write helpers."""

from __future__ import annotations

import importlib.util
from pathlib import Path

from builders.published import load_published

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
