"""Loaders for the released data of the source papers (MT-InfoSeek, QuestBench, the
incomplete-questions study) and the contract every format follows.

A format turns one released row into one of our problem records (`docs/contracts.md`),
keeping the released id, and re-verifies a record's released ground truth with our exact
engines. Nothing is "fixed": a record carries the released values (k, MSS family, ...)
and verification reports each disagreement with its reason.

    from infoseek.builders.published import load_published
    records = load_published("logic_q_mt.csv")            # format detected from columns
    records = load_published(url, format="questbench-logic", limit=20)
    records = load_published("genereg.jsonl", "mt-infoseek-genereg",
                             inputs={"rules": "networks/"})

Extra inputs: a format may need more than the file, e.g. the folder of rule files its
rows name (`PublishedFormat.inputs`). Every such input has one generic name in `INPUTS`
(the command line offers `--<name>`, the tasks `-T <name>=`); `check_inputs` refuses a
missing one, and one given to a format that takes none, with a one-line message.

Corrections: a format may offer `correct(row, record, disagreements)`, which writes a
row back in the released layout with our recomputed ground truth (`infoseek verify
--write-corrected`); a format without it refuses that option.

Posing: a format may offer `pose(record)`, the domain's rule for whether a released
problem can be run as a task (`-T source=`) and in what form: the math formats check that
the released values give the released answer and pose a rounded one exactly
(`infoseek.builders.math.released.pose`); a format without it poses every record as read.
"""

from __future__ import annotations

import logging
import os
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from infoseek.builders.published.cells import RowRef, released_id, unique_ids
from infoseek.builders.published.reading import (
    PublishedDataError,
    check_not_empty,
    file_kind,
    is_url,
    peek_columns,
    read_rows,
    resolve_source,
    source_name,
)
from infoseek.domains import format_home, resolve
from infoseek.domains import format_names as domain_format_names

Record = dict[str, Any]
Disagreement = dict[str, Any]
Correction = tuple[dict[str, Any], dict[str, Any]]
"""What `PublishedFormat.correct` returns: (the corrected row in the released layout, a
JSON-safe note of what changed, with at least `changed`: the fields rewritten)."""

INPUTS: dict[str, str] = {
    "rules": "a folder of rule files, for formats that need one",
}
"""Extra inputs a released format may need besides the file, by generic name: each is a
local folder. `infoseek verify` offers `--<name> DIR`, the tasks `-T <name>=DIR`."""

logger = logging.getLogger(__name__)


class Unposable(ValueError):
    """A released problem that cannot be run as a task; the message says why."""


@dataclass(frozen=True)
class PublishedFormat:
    """One released file format.

    `record_from_row(row, ref)` maps a row to a record (without `id`; the loader sets it
    from `id_fields`) or raises `PublishedDataError` via `ref.error(field, ...)`.
    `verify(record)` recomputes the ground truth and returns the disagreements, each a
    JSON-safe dict with at least `check` (a short name) and `reason` (a sentence), and
    where useful `released` and `computed`.
    `signature` are columns whose presence identifies the format; `required` must all
    be present (checked once per file, before any row). `notes` names checks that
    describe the file without deciding its ground truth (e.g. an offered-questions list
    that differs from U(P)): they are reported, but a row with only notes agrees.

    `inputs` names the extra inputs (keys of `INPUTS`) the format needs; such a format's
    `record_from_row` is called as `record_from_row(row, ref, inputs)` with a mapping of
    each input to its (checked) value. `correct(row, record, disagreements)`, when given,
    returns the row rewritten with the recomputed ground truth and a note (`Correction`);
    it is called for every row that could be read, agreeing or not. `pose(record)`, when
    given, returns the record a task runs (the same, or with a released value replaced by
    the exact one it stands for) or raises `Unposable` saying why the problem cannot be
    posed."""

    name: str
    domain: str
    description: str
    required: tuple[str, ...]
    signature: tuple[str, ...]
    id_fields: tuple[str, ...]
    record_from_row: Callable[[dict[str, Any], RowRef], Record]
    verify: Callable[[Record], list[Disagreement]]
    excludes: tuple[str, ...] = field(default=())  # columns that rule the format out
    notes: tuple[str, ...] = field(default=())  # checks reported as notes only
    inputs: tuple[str, ...] = field(default=())  # extra inputs needed (keys of INPUTS)
    correct: Callable[[dict[str, Any], Record, list[Disagreement]], Correction] | None = None
    pose: Callable[[Record], Record] | None = None


def _input_path(value: Any, name: str) -> str:
    """An input's folder as an absolute path (a relative one is tried against the working
    directory, then `$PWD`, as `resolve_source` does for files)."""
    if isinstance(value, Path):
        value = str(value)
    if not isinstance(value, str) or not value.strip():
        raise PublishedDataError(f"{name}: expected a folder path; got {value!r}")
    path = Path(value.strip()).expanduser()
    candidates = [path]
    if not path.is_absolute() and os.environ.get("PWD"):
        candidates.append(Path(os.environ["PWD"]) / path)
    for candidate in candidates:
        if candidate.is_dir():
            return str(candidate.resolve())
    raise PublishedDataError(f"{name}: no such folder: {value} ({INPUTS.get(name, name)})")


def check_inputs(fmt: PublishedFormat, inputs: Mapping[str, Any] | None) -> dict[str, str]:
    """The extra inputs `fmt` needs, checked: each present and an existing folder; an
    input the format does not take is refused too."""
    given = {name: value for name, value in (inputs or {}).items() if value is not None}
    unknown = [name for name in given if name not in INPUTS]
    if unknown:
        raise PublishedDataError(f"unknown input {unknown[0]!r}; inputs are "
                                 f"{', '.join(INPUTS)}")
    extra = [name for name in given if name not in fmt.inputs]
    if extra:
        raise PublishedDataError(f"format {fmt.name} takes no {extra[0]}; leave it out "
                                 f"({extra[0]}: {INPUTS[extra[0]]})")
    missing = [name for name in fmt.inputs if name not in given]
    if missing:
        name = missing[0]
        raise PublishedDataError(
            f"format {fmt.name} needs {name} (infoseek verify --{name} DIR, or a task's "
            f"-T {name}=DIR): {INPUTS[name]}")
    return {name: _input_path(given[name], name) for name in fmt.inputs}


_HOW_TO_NAME = "infoseek verify --format, or a task's -T source_format="


def format_names() -> tuple[str, ...]:
    """Every released format of every registered domain (`infoseek.domains`)."""
    return domain_format_names()


def formats_of_domain(domain: str) -> tuple[str, ...]:
    """The published formats whose rows become records of `domain` ("logic", "math")."""
    return domain_format_names(domain)


def get_format(name: str) -> PublishedFormat:
    """The released format called `name`, as its domain declares it."""
    home = format_home(name)
    if home is None:
        raise PublishedDataError(
            f"unknown format {name!r}; choose one of {', '.join(format_names())}")
    return resolve(home[1])


def detect_format(columns: list[str], source: str = "file",
                  candidates: tuple[str, ...] | None = None) -> PublishedFormat:
    """The one format among `candidates` whose signature columns are all present (and
    whose excluded columns are absent); an error naming the choices otherwise."""
    candidates = format_names() if candidates is None else candidates
    present = set(columns)
    matches = []
    for name in candidates:
        fmt = get_format(name)
        if set(fmt.signature) <= present and not present & set(fmt.excludes):
            matches.append(fmt)
    if len(matches) == 1:
        return matches[0]
    choices = ", ".join(candidates)
    if not matches:
        shown = ", ".join(columns[:12]) + (" ..." if len(columns) > 12 else "")
        raise PublishedDataError(
            f"{source_name(source)}: columns ({shown}) match no released format; "
            f"name the format ({_HOW_TO_NAME}): one of {choices}")
    raise PublishedDataError(
        f"{source_name(source)}: columns match several formats "
        f"({', '.join(m.name for m in matches)}); name the format ({_HOW_TO_NAME})")


def read_published(source: str, format: str | None = None, *,
                   candidates: tuple[str, ...] | None = None, limit: int | None = None,
                   inputs: Mapping[str, Any] | None = None,
                   ) -> tuple[str, PublishedFormat, list[dict[str, Any]]]:
    """Resolve and read `source`; return (resolved source, format, raw rows), the first
    `limit` rows only when given (read as a stream). The format is told, and its required
    columns and extra `inputs` checked (`check_inputs`), from the header or first rows of
    a local file before the rest is read, so a file of another kind is refused at once,
    however large."""
    candidates = format_names() if candidates is None else candidates
    resolved = resolve_source(source, "published data file")
    kind = file_kind(resolved)
    if format:
        fmt = get_format(format)
        if fmt.name not in candidates:
            raise PublishedDataError(
                f"format {fmt.name!r} does not fit here; choose one of {', '.join(candidates)}")
        check_inputs(fmt, inputs)
    else:
        fmt = None
    if not is_url(resolved):
        check_not_empty(resolved, kind)
    columns = peek_columns(resolved, kind)
    if columns is not None:
        fmt = _format_for_columns(fmt, columns, resolved, candidates)
        check_inputs(fmt, inputs)
    rows = read_rows(resolved, kind, limit=limit)
    if not rows:
        raise PublishedDataError(f"{source_name(resolved)}: holds no rows")
    if columns is None:
        fmt = _format_for_columns(fmt, list(rows[0].keys()), resolved, candidates)
    assert fmt is not None
    check_inputs(fmt, inputs)
    return resolved, fmt, rows


def _format_for_columns(fmt: PublishedFormat | None, columns: list[str], resolved: str,
                        candidates: tuple[str, ...]) -> PublishedFormat:
    """`fmt` (or the format detected from `columns`) once its required columns are
    found among `columns`."""
    if fmt is None:
        fmt = detect_format(columns, resolved, candidates)
    missing = [c for c in fmt.required if c not in columns]
    if missing:
        raise PublishedDataError(
            f"{source_name(resolved)}: not a {fmt.name} file: missing column(s) "
            f"{', '.join(repr(c) for c in missing)}")
    return fmt


def identify_rows(resolved: str, fmt: PublishedFormat, rows: list[dict[str, Any]]
                  ) -> list[tuple[RowRef, str]]:
    """Each row's reference (file, 1-based row, released id) and record id: the released
    id (a repeated one gets `~row<N>`), or `<format>-row<N>` for a row without one."""
    refs = []
    for index, row in enumerate(rows, 1):
        rid = released_id(row, fmt.id_fields)
        label = f"{fmt.id_fields[0]} {rid}" if rid is not None else None
        refs.append(RowRef(resolved, index, label, rid))
    ids = unique_ids([ref.released_id or f"{fmt.name}-row{ref.row}" for ref in refs], refs)
    return list(zip(refs, ids, strict=True))


def make_record(fmt: PublishedFormat, row: dict[str, Any], ref: RowRef, record_id: str,
                inputs: Mapping[str, str] | None = None) -> Record:
    """One row -> record, with `id` first and provenance (source file, format, row,
    released id) last. `inputs`: the format's extra inputs (`check_inputs`)."""
    if fmt.inputs:
        body = fmt.record_from_row(row, ref, dict(inputs or {}))  # type: ignore[call-arg]
    else:
        body = fmt.record_from_row(row, ref)
    record: Record = {"id": record_id, **body}
    record["provenance"] = {
        "format": fmt.name, "source": source_name(ref.source), "row": ref.row,
        "released_id": ref.released_id,
    }
    return record


def load_published(source: str, format: str | None = None, *, limit: int | None = None,
                   candidates: tuple[str, ...] | None = None,
                   inputs: Mapping[str, Any] | None = None,
                   skip_refused: bool = False) -> list[Record]:
    """Every row of a released file as a problem record (the first `limit` rows when
    given). Stops at the first malformed row with a message naming file, row and field.
    `inputs`: the format's extra inputs (`INPUTS`). `skip_refused`: a row the format
    refuses with a check of its own (`PublishedDataError.check`) is left out with a
    warning instead."""
    resolved, fmt, rows = read_published(source, format, candidates=candidates, limit=limit,
                                         inputs=inputs)
    checked = check_inputs(fmt, inputs)
    records, refused = [], []
    for row, (ref, rid) in zip(rows, identify_rows(resolved, fmt, rows), strict=True):
        try:
            records.append(make_record(fmt, row, ref, rid, checked))
        except PublishedDataError as exc:
            if not skip_refused or exc.check is None:
                raise
            refused.append(str(exc))
    if refused:
        logger.warning("%s: %d row(s) refused and left out: %s (run `infoseek verify` for "
                       "the full report)", source_name(resolved), len(refused),
                       "; ".join(refused[:5]) + (" ..." if len(refused) > 5 else ""))
    if not records:
        raise PublishedDataError(f"{source_name(resolved)}: every row is refused "
                                 f"({refused[0]})")
    return records


__all__ = [
    "INPUTS", "Correction", "Disagreement", "PublishedDataError", "PublishedFormat", "Record",
    "RowRef", "Unposable", "check_inputs", "detect_format", "format_names", "formats_of_domain",
    "get_format", "identify_rows", "load_published", "make_record", "read_published",
]
