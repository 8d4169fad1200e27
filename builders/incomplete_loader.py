"""Incomplete-question records (SPEC 3.7) from a JSON file of published-style objects.

Each object holds an original `question`, one `condition` taken out of it, the
`new_question` without that condition, and the `answer` (a number or a choice letter).
The file is read with the `datasets` library's json builder, so a local path (offline) or
a URL works, and so does a JSON Lines file. Every row becomes one record

    {"id": ..., "question": str, "condition": str, "new_question": str, "answer": ...}

with the `id` field of the row when present, else the row index. A malformed row stops
the load with a message naming the row index and the field.

Without a source, `incomplete_records()` serves the records that
`builders.incomplete_math.build_incomplete(seed, count)` builds from the grade-school
story templates (each verified with the arithmetic engine; they also carry a
`provenance` field), cached under the builder's name and version (`builders.cache`).
"""

from __future__ import annotations

import math
import os
from pathlib import Path
from typing import Any

from builders.cache import cache_dir, load_or_build
from builders.incomplete_math import (
    BUILDER_NAME,
    BUILDER_VERSION,
    DEFAULT_COUNT,
    build_incomplete,
)

TEXT_FIELDS: tuple[str, ...] = ("question", "condition", "new_question")
REQUIRED_FIELDS: tuple[str, ...] = (*TEXT_FIELDS, "answer")
RECORD_FIELDS: tuple[str, ...] = ("id", *REQUIRED_FIELDS)

_URL_PREFIXES = ("http://", "https://", "hf://", "s3://", "gs://")


class IncompleteDataError(ValueError):
    """A source file that cannot be read, or a row that is not a valid record."""


def is_url(source: str) -> bool:
    return source.startswith(_URL_PREFIXES)


def incomplete_records(
    source: str | None = None, seed: int = 0, count: int = DEFAULT_COUNT,
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
    seed: int = 0, count: int = DEFAULT_COUNT,
) -> list[dict[str, Any]]:
    """`count` records built by `builders.incomplete_math` for `seed`, through the cache;
    every row (cached or fresh) is validated like a file row and keeps its provenance."""
    for name, value, low in (("seed", seed, 0), ("count", count, 1)):
        if isinstance(value, bool) or not isinstance(value, int) or value < low:
            raise IncompleteDataError(f"{name} must be an integer >= {low}; got {value!r}")
    rows = load_or_build(
        BUILDER_NAME, BUILDER_VERSION, {"seed": seed, "count": count},
        lambda: build_incomplete(seed=seed, count=count),
    )
    if len(rows) != count:
        raise IncompleteDataError(
            f"built incomplete questions: expected {count} records, got {len(rows)}")
    return [{**record_from_row(row, index), "provenance": row.get("provenance")}
            for index, row in enumerate(rows)]


def load_incomplete_questions(source: str) -> list[dict[str, Any]]:
    """Read `source` with `datasets.load_dataset("json", ...)` and validate every row."""
    if not is_url(source):
        source = str(resolve_local_source(source))
    rows = _read_rows(source)
    if not rows:
        raise IncompleteDataError(f"{source}: holds no incomplete-question rows")
    records = [record_from_row(row, index) for index, row in enumerate(rows)]
    seen: dict[str, int] = {}
    for index, record in enumerate(records):
        key = str(record["id"])
        if key in seen:
            raise IncompleteDataError(
                f"{source}: row {index}: field 'id' repeats the id {record['id']!r} "
                f"of row {seen[key]}"
            )
        seen[key] = index
    return records


def resolve_local_source(source: str) -> Path:
    """The file `source` names. A relative path is tried against the working directory
    and then against the shell's directory (`$PWD`): `inspect eval inspect_tasks/x.py`
    creates the task inside `inspect_tasks/`, so `-T source=data.json` typed in the
    repository root is still found."""
    path = Path(source).expanduser()
    candidates = [path]
    shell_dir = os.environ.get("PWD")
    if not path.is_absolute() and shell_dir:
        candidates.append(Path(shell_dir) / path)
    for candidate in candidates:
        if candidate.is_file():
            return candidate.resolve()
    tried = ", ".join(str(c.resolve()) for c in candidates)
    raise IncompleteDataError(f"incomplete-question source not found: {source} (tried {tried})")


def _read_rows(source: str) -> list[dict[str, Any]]:
    import datasets  # imported lazily: heavy, and only this loader needs it

    try:
        loaded = datasets.load_dataset(
            "json", data_files=source, split="train",
            cache_dir=str(cache_dir() / "hf-datasets"),
        )
    except Exception as error:  # datasets wraps parse errors in several types
        if "corresponds to no data" in str(error):
            return []
        raise IncompleteDataError(
            f"could not read incomplete-question source {source}: "
            f"{type(error).__name__}: {error}"
        ) from error
    return loaded.to_list()


def record_from_row(row: Any, index: int) -> dict[str, Any]:
    """One validated record from row `index`; raises naming the row and the field."""
    if not isinstance(row, dict):
        raise IncompleteDataError(f"row {index}: expected an object, got {type(row).__name__}")
    record: dict[str, Any] = {}
    for field in TEXT_FIELDS:
        value = row.get(field)
        if value is None:
            raise IncompleteDataError(f"row {index}: field '{field}' is missing")
        if not isinstance(value, str) or not value.strip():
            raise IncompleteDataError(
                f"row {index}: field '{field}' must be a non-empty string; got {value!r}"
            )
        record[field] = value.strip()
    record["answer"] = _answer(row.get("answer"), index)
    record_id = row.get("id")
    if record_id is None:
        record_id = index
    elif isinstance(record_id, bool) or not isinstance(record_id, str | int) or (
        isinstance(record_id, str) and not record_id.strip()
    ):
        raise IncompleteDataError(
            f"row {index}: field 'id' must be a non-empty string or an integer; got {record_id!r}"
        )
    if record["new_question"] == record["question"]:
        raise IncompleteDataError(
            f"row {index}: field 'new_question' equals 'question' (no condition was removed)"
        )
    return {"id": record_id, **{field: record[field] for field in REQUIRED_FIELDS}}


def _answer(value: Any, index: int) -> int | float | str:
    if value is None:
        raise IncompleteDataError(f"row {index}: field 'answer' is missing")
    if isinstance(value, bool):
        raise IncompleteDataError(
            f"row {index}: field 'answer' must be a number or a choice letter; got {value!r}"
        )
    if isinstance(value, int):
        return value
    if isinstance(value, float):
        if not math.isfinite(value):
            raise IncompleteDataError(f"row {index}: field 'answer' is not finite: {value!r}")
        # a JSON column mixing 3 and 2.5 arrives as floats: keep integral values integral
        return int(value) if value.is_integer() else value
    if isinstance(value, str) and value.strip():
        return value.strip()
    raise IncompleteDataError(
        f"row {index}: field 'answer' must be a number or a choice letter; got {value!r}"
    )
