"""Reading released data files: one place for sources, rows and errors.

Released files are read with the `datasets` library (its `csv` and `json` builders), so a
local path works offline and a URL works where the network allows. CSV cells are read as
text (no type guessing, empty cells stay empty strings) and decoded field by field
(`infoseek.builders.published.cells`), so a malformed cell is reported with the file, the row
and the field:

    logic_q_mt.csv, row 7 (sample_id 12), field 'rules': expected a list of clauses ...

Rows count from 1, the header not counted (row 1 is the first data row, as in a
spreadsheet's second line).
"""

from __future__ import annotations

import csv
import json
import os
import re
from itertools import islice
from pathlib import Path
from typing import Any

URL_PREFIXES = ("http://", "https://", "hf://", "s3://", "gs://")
CSV_SUFFIXES = (".csv", ".tsv")
JSON_SUFFIXES = (".json", ".jsonl", ".ndjson")
_MAX_COLUMNS = 256  # CSV columns decoded as text (pandas converters by position)


class PublishedDataError(ValueError):
    """A released file that cannot be read, or a row that cannot become a record. The
    message names the file, and the row and field where there is one. `check` names a
    refusal of its own (a row that reads but that a format refuses, e.g. names that do
    not match its rule file); None for a malformed file or row."""

    def __init__(self, message: str, check: str | None = None) -> None:
        super().__init__(message)
        self.check = check


def is_url(source: str) -> bool:
    return source.startswith(URL_PREFIXES)


def source_name(source: str) -> str:
    """How messages name a source: the file name of a path, the whole URL."""
    return source if is_url(source) else Path(source).name


def resolve_source(source: Any, what: str = "data file") -> str:
    """A URL unchanged, or the absolute path of an existing local file.

    A relative path is tried against the working directory and then against `$PWD`:
    `inspect eval inspect_tasks/x.py` creates the task inside `inspect_tasks/`, so a
    `-T source=data.csv` typed in the repository root is still found."""
    if isinstance(source, Path):
        source = str(source)
    if not isinstance(source, str) or not source.strip():
        raise PublishedDataError(f"{what}: expected a file path or URL; got {source!r}")
    source = source.strip()
    if is_url(source):
        return source
    path = Path(source).expanduser()
    candidates = [path]
    shell_dir = os.environ.get("PWD")
    if not path.is_absolute() and shell_dir:
        candidates.append(Path(shell_dir) / path)
    for candidate in candidates:
        if candidate.is_file():
            return str(candidate.resolve())
    tried = ", ".join(dict.fromkeys(str(c.resolve()) for c in candidates))
    raise PublishedDataError(f"{what} not found: {source} (tried {tried})")


def file_kind(source: str, default: str = "csv") -> str:
    """`csv` or `json`, from the file name (a URL's path, query string ignored)."""
    name = source.split("?", 1)[0].lower()
    if name.endswith(CSV_SUFFIXES):
        return "csv"
    if name.endswith(JSON_SUFFIXES):
        return "json"
    return default


def read_rows(source: str, kind: str | None = None, limit: int | None = None
              ) -> list[dict[str, Any]]:
    """Every row of `source` (already resolved) as a dict, in file order; only the first
    `limit` rows when given, read as a stream (the rest of the file is not read).

    CSV cells arrive as strings; JSON values keep their JSON types. A file that cannot be
    parsed raises `PublishedDataError` naming the line (and CSV row) where it goes wrong
    when that can be found."""
    import datasets  # heavy: imported only when a released file is read

    from infoseek.builders.cache import cache_dir

    kind = kind or file_kind(source)
    options: dict[str, Any] = {}
    if kind == "csv":
        if source.lower().split("?", 1)[0].endswith(".tsv"):
            options["sep"] = "\t"
        options["converters"] = {i: str for i in range(_MAX_COLUMNS)}
        options["keep_default_na"] = False
    if not is_url(source):
        check_not_empty(source, kind)
        if limit is None:
            # a local file is re-read every time: the cache key (path, size, time) can
            # miss an edit, and a stale row would be verified as if it were the file's
            options["download_mode"] = "force_redownload"
    datasets.disable_progress_bars()
    datasets.logging.set_verbosity(datasets.logging.CRITICAL)  # errors are ours to word
    try:
        if limit is None:
            loaded = datasets.load_dataset(
                kind, data_files=source, split="train",
                cache_dir=str(cache_dir() / "hf-datasets"), **options,
            )
            rows = loaded.to_list()
        else:
            stream = datasets.load_dataset(kind, data_files=source, split="train",
                                           streaming=True, **options)
            rows = list(islice(stream, limit))
    except Exception as error:  # datasets wraps parse errors in several types
        if "corresponds to no data" in str(error):
            return []
        raise unreadable_file_error(source, kind, error) from error
    if rows and kind == "csv":
        rows = _clean_header(rows, source)
    return rows


def check_not_empty(source: str, kind: str) -> None:
    """A local file holding nothing but white space is refused with a message saying so."""
    with open(source, "rb") as fh:
        while chunk := fh.read(1 << 16):
            if chunk.strip():
                return
    raise PublishedDataError(f"{source_name(source)}: the file is empty (expected "
                             + ("a header row and data rows)" if kind == "csv"
                                else "JSON rows)"))


def peek_columns(source: str, kind: str | None = None, rows: int = 20) -> list[str] | None:
    """The column names of a local file from its first lines (the CSV header, or the keys
    of the first `rows` JSON Lines objects, in order of appearance), without reading the
    rest; None when they cannot be told that way (a URL, a JSON array, unreadable text):
    the caller then reads the file."""
    if is_url(source):
        return None
    kind = kind or file_kind(source)
    try:
        with open(source, encoding="utf-8-sig", newline="") as fh:
            if kind == "csv":
                delimiter = "\t" if source.lower().endswith(".tsv") else ","
                header = next(csv.reader(fh, delimiter=delimiter), None)
                return [c.strip() for c in header] if header else None
            columns: dict[str, None] = {}
            seen = 0
            for line in fh:
                text = line.strip()
                if not text:
                    continue
                if not text.startswith("{"):
                    return None
                value = json.loads(text)
                if not isinstance(value, dict):
                    return None
                columns.update(dict.fromkeys(value))
                seen += 1
                if seen >= rows:
                    break
            return list(columns) or None
    except (OSError, UnicodeDecodeError, ValueError, RecursionError, csv.Error):
        return None


_FIELD_COUNT = re.compile(r"Expected (\d+) fields in line (\d+), saw (\d+)")


def unreadable_file_error(source: str, kind: str, error: BaseException) -> PublishedDataError:
    """The error for a file the reader failed on, naming the line where one can be found:
    the first line that is not UTF-8, a CSV line with the wrong number of fields, or the
    first JSON Lines line that is not JSON."""
    name = source_name(source)
    root = error
    while root.__cause__ is not None or root.__context__ is not None:
        root = root.__cause__ or root.__context__
    counted = _FIELD_COUNT.search(str(root))
    if counted:
        expected, line, saw = counted.groups()
        return PublishedDataError(
            f"{name}, line {line} (row {int(line) - 1}): expected {expected} fields "
            f"(the header's), saw {saw}")
    found = None if is_url(source) else _first_bad_line(source, kind)
    if found is not None:
        return PublishedDataError(f"{name}, line {found[0]}: {found[1]}")
    return PublishedDataError(f"{name}: could not read it as {kind}: "
                              f"{type(root).__name__}: {_first_line(root)}")


def _first_bad_line(source: str, kind: str) -> tuple[int, str] | None:
    """(line number, problem) of the first line of a local file that is not UTF-8 text
    or, for JSON Lines, not a JSON value; None when every line reads."""
    json_lines = None
    try:
        with open(source, "rb") as fh:
            for lineno, raw in enumerate(fh, 1):
                try:
                    text = raw.decode("utf-8-sig" if lineno == 1 else "utf-8")
                except UnicodeDecodeError:
                    return lineno, f"not UTF-8 text (is this a {kind} file?)"
                if kind != "json" or not text.strip():
                    continue
                if json_lines is None:
                    json_lines = text.lstrip().startswith("{")
                if json_lines:
                    try:
                        json.loads(text)
                    except (ValueError, RecursionError) as exc:
                        return lineno, f"not a JSON value ({_first_line(exc)})"
    except OSError:
        return None
    return None


_MANGLED = re.compile(r"^(.+)\.(\d+)$")  # pandas renames a repeated column `x` to `x.1`


def _clean_header(rows: list[dict[str, Any]], source: str) -> list[dict[str, Any]]:
    """Column names without surrounding spaces; a repeated column is an error (pandas
    would silently keep both as `x` and `x.1`)."""
    columns = list(rows[0])
    stripped = [c.strip() for c in columns]
    for name in stripped:
        mangled = _MANGLED.match(name)
        if mangled and mangled.group(1) in stripped:
            raise PublishedDataError(f"{source_name(source)}: the header names column "
                                     f"{mangled.group(1)!r} more than once")
    if len(set(stripped)) != len(stripped):
        repeated = sorted({c for c in stripped if stripped.count(c) > 1})
        raise PublishedDataError(f"{source_name(source)}: the header names column "
                                 f"{repeated[0]!r} more than once")
    if stripped == columns:
        return rows
    return [{new: row[old] for old, new in zip(columns, stripped, strict=True)}
            for row in rows]


def _first_line(error: Exception) -> str:
    text = str(error).strip()
    return text.splitlines()[0][:300] if text else "no details"
