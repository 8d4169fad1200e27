"""Incomplete-question records (protocols §3.7) from a JSON file of published-style objects.

Each object holds an original `question`, one `condition` taken out of it, the
`new_question` without that condition, and the `answer` (a number or a choice letter).
The file is read with the `datasets` library's json builder, so a local path (offline) or
a URL works, and so does a JSON Lines file. Every row becomes one record

    {"id": ..., "question": str, "condition": str, "new_question": str, "answer": ...}

with the `id` field of the row when present, else the row number (rows count from 1). A
malformed row stops the load with a message naming the file, the row and the field.

Without a source, `incomplete_records()` serves the records that
`infoseek.builders.math.incomplete_math.build_split(seed, count)` builds from the
grade-school story templates (each verified with the arithmetic engine; they also carry a
`provenance` field), cached under the builder's name and data version (its version plus
the story templates' content hash: ``SPEC.data_version``; `infoseek.builders.cache`).
"""

from __future__ import annotations

import math
from pathlib import Path
from typing import Any

from infoseek.builders.cache import load_or_build
from infoseek.builders.math.incomplete_math import SPEC, build_split
from infoseek.builders.published.cells import RowRef
from infoseek.builders.published.reading import (
    PublishedDataError,
    read_rows,
    resolve_source,
    source_name,
)

TEXT_FIELDS: tuple[str, ...] = ("question", "condition", "new_question")
REQUIRED_FIELDS: tuple[str, ...] = (*TEXT_FIELDS, "answer")
RECORD_FIELDS: tuple[str, ...] = ("id", *REQUIRED_FIELDS)


class IncompleteDataError(PublishedDataError):
    """A source file that cannot be read, or a row that is not a valid record."""


def incomplete_records(
    source: str | None = None, seed: int = 0, count: int = SPEC.default_per_k,
) -> list[dict[str, Any]]:
    """Records for the incomplete-questions task.

    Args:
        source: a JSON (or JSON Lines) file or URL of objects with the fields `question`,
            `condition`, `new_question`, `answer` (and optionally `id`). None (or an
            empty string): the records built from the math templates.
        seed, count: the build parameters of the math records (ignored with a source).
    """
    if source is None or (isinstance(source, str) and not source.strip()):
        return built_incomplete_records(seed=seed, count=count)
    if not isinstance(source, str | Path):
        raise IncompleteDataError(f"source must be a file path or URL; got {source!r}")
    return load_incomplete_questions(str(source))


def built_incomplete_records(
    seed: int = 0, count: int = SPEC.default_per_k,
) -> list[dict[str, Any]]:
    """`count` records built by `infoseek.builders.math.incomplete_math` for `seed`, through the
    cache;
    every row (cached or fresh) is validated like a file row and keeps its provenance."""
    for name, value, low in (("seed", seed, 0), ("count", count, 1)):
        if isinstance(value, bool) or not isinstance(value, int) or value < low:
            raise IncompleteDataError(f"{name} must be an integer >= {low}; got {value!r}")
    rows = load_or_build(
        SPEC.name, SPEC.data_version, {"seed": seed, "count": count},
        lambda: build_split(seed, count),
    )
    if len(rows) != count:
        raise IncompleteDataError(
            f"built incomplete questions: expected {count} records, got {len(rows)}")
    return [{**record_from_row(row, RowRef("built incomplete questions", index + 1)),
             "provenance": row.get("provenance")}
            for index, row in enumerate(rows)]


def load_incomplete_questions(source: str) -> list[dict[str, Any]]:
    """Read `source` with `datasets.load_dataset("json", ...)` and validate every row."""
    try:
        resolved = resolve_source(source, "incomplete-question source")
        rows = read_rows(resolved, "json")
    except IncompleteDataError:
        raise
    except PublishedDataError as exc:
        raise IncompleteDataError(str(exc)) from None
    if not rows:
        raise IncompleteDataError(f"{source_name(resolved)}: holds no incomplete-question rows")
    refs = [RowRef(resolved, index) for index in range(1, len(rows) + 1)]
    records = [record_from_row(row, ref) for row, ref in zip(rows, refs, strict=True)]
    seen: dict[str, int] = {}
    for record, ref in zip(records, refs, strict=True):
        key = str(record["id"])
        if key in seen:
            raise IncompleteDataError(
                f"{ref.where('id')}: repeats the id {record['id']!r} of row {seen[key]}")
        seen[key] = ref.row
    return records


def record_from_row(row: Any, ref: RowRef) -> dict[str, Any]:
    """One validated record from the row at `ref`; raises naming the file, the row and
    the field. Without an `id` field the record's id is the row number."""
    def error(field: str | None, problem: str) -> IncompleteDataError:
        return IncompleteDataError(f"{ref.where(field)}: {problem}")

    if not isinstance(row, dict):
        raise error(None, f"expected an object, got {type(row).__name__}")
    record: dict[str, Any] = {}
    for field in TEXT_FIELDS:
        value = row.get(field)
        if value is None:
            raise error(field, "is missing")
        if not isinstance(value, str) or not value.strip():
            raise error(field, f"must be a non-empty string; got {value!r}")
        record[field] = value.strip()
    record["answer"] = _answer(row.get("answer"), error)
    record_id = row.get("id")
    if record_id is None:
        record_id = ref.row
    elif isinstance(record_id, bool) or not isinstance(record_id, str | int) or (
        isinstance(record_id, str) and not record_id.strip()
    ):
        raise error("id", f"must be a non-empty string or an integer; got {record_id!r}")
    if record["new_question"] == record["question"]:
        raise error("new_question", "equals 'question' (no condition was removed)")
    return {"id": record_id, **{field: record[field] for field in REQUIRED_FIELDS}}


def _answer(value: Any, error) -> int | float | str:
    if value is None:
        raise error("answer", "is missing")
    if isinstance(value, bool):
        raise error("answer", f"must be a number or a choice letter; got {value!r}")
    if isinstance(value, int):
        return value
    if isinstance(value, float):
        if not math.isfinite(value):
            raise error("answer", f"is not finite: {value!r}")
        # a JSON column mixing 3 and 2.5 arrives as floats: keep integral values integral
        return int(value) if value.is_integer() else value
    if isinstance(value, str) and value.strip():
        return value.strip()
    raise error("answer", f"must be a number or a choice letter; got {value!r}")
