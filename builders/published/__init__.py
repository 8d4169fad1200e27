"""Loaders for the released data of the source papers (MT-InfoSeek, QuestBench, the
incomplete-questions study) and the contract every source format follows.

A source format (the layout of one kind of released file, `SourceFormat`) turns one
released row into one of our problem records (`docs/contracts.md`), keeping the released
id, and re-verifies a record's released ground truth with our exact engines. Nothing is
"fixed": a record carries the released values (k, MSS family, ...) and verification
reports each disagreement with its reason. (Bare "format" is a task's interaction format,
``-T format=tool|text``; docs/architecture.md, "Names".)

    from infoseek.builders.published import load_published
    records = load_published("logic_q_mt.csv")      # source format detected from columns
    records = load_published(url, source_format="questbench-logic", limit=20)
    records = load_published("genereg.jsonl", "mt-infoseek-genereg",
                             inputs={"rules": "networks/"})

Extra inputs: a source format may need more than the file, e.g. the folder of rule files
its rows name (`SourceFormat.inputs`). Every such input has one generic name in `INPUTS`
(the command line offers `--<name>`, the tasks `-T <name>=`); `check_inputs` refuses a
missing one, and one given to a source format that takes none, with a one-line message.

Corrections: a source format may offer `correct(row, record, disagreements)`, which
writes a row back in the released layout with our recomputed ground truth (`infoseek
verify --write-corrected`); a source format without it refuses that option.

Posing: a source format may offer `pose(record)`, the domain's rule for whether a
released problem can be run as a task (`-T source=`) and in what form: the math source
formats check that the released values give the released answer and pose a rounded one
exactly (`infoseek.builders.math.released.pose`); a source format without it poses every
record as read.
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
from infoseek.domains import resolve, source_format_home, source_format_names

Record = dict[str, Any]
Disagreement = dict[str, Any]
Correction = tuple[dict[str, Any], dict[str, Any]]
"""What `SourceFormat.correct` returns: (the corrected row in the released layout, a
JSON-safe note of what changed, with at least `changed`: the fields rewritten)."""

INPUTS: dict[str, str] = {
    "rules": "a folder of rule files, for source formats that need one",
}
"""Extra inputs a source format may need besides the file, by generic name: each is a
local folder. `infoseek verify` offers `--<name> DIR`, the tasks `-T <name>=DIR`."""

logger = logging.getLogger(__name__)


class Unposable(ValueError):
    """A released problem that cannot be run as a task; the message says why."""


@dataclass(frozen=True)
class SourceFormat:
    """One source format: the layout of one kind of released file.

    `record_from_row(row, ref)` maps a row to a record (without `id`; the loader sets it
    from `id_fields`) or raises `PublishedDataError` via `ref.error(field, ...)`.
    `verify(record)` recomputes the ground truth and returns the disagreements, each a
    JSON-safe dict with at least `check` (a short name) and `reason` (a sentence), and
    where useful `released` and `computed`.
    `signature` are columns whose presence identifies the source format; `required` must all
    be present (checked once per file, before any row). `notes` names checks that
    describe the file without deciding its ground truth (e.g. an offered-questions list
    that differs from U(P)): they are reported, but a row with only notes agrees.

    `inputs` names the extra inputs (keys of `INPUTS`) it needs; such a source format's
    `record_from_row` is called as `record_from_row(row, ref, inputs)` with a mapping of
    each input to its (checked) value. `correct(row, record, disagreements)`, when given,
    returns the row rewritten with the recomputed ground truth and a note (`Correction`);
    it is called for every row that could be read, agreeing or not. `pose(record)`, when
    given, returns the record a task runs (the same, or with a released value replaced by
    the exact one it stands for) or raises `Unposable` saying why the problem cannot be
    posed. `id_from_file`: the record id is ``<file stem>-row<N>`` whatever the released
    id says (for files whose ids repeat); the released id stays in the provenance."""

    name: str
    domain: str
    description: str
    required: tuple[str, ...]
    signature: tuple[str, ...]
    id_fields: tuple[str, ...]
    record_from_row: Callable[[dict[str, Any], RowRef], Record]
    verify: Callable[[Record], list[Disagreement]]
    excludes: tuple[str, ...] = field(default=())  # columns that rule this one out
    notes: tuple[str, ...] = field(default=())  # checks reported as notes only
    inputs: tuple[str, ...] = field(default=())  # extra inputs needed (keys of INPUTS)
    correct: Callable[[dict[str, Any], Record, list[Disagreement]], Correction] | None = None
    pose: Callable[[Record], Record] | None = None
    id_from_file: bool = False  # record ids <file stem>-row<N> (released ids repeat)


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


def check_inputs(source_format: SourceFormat, inputs: Mapping[str, Any] | None
                 ) -> dict[str, str]:
    """The extra inputs `source_format` needs, checked: each present and an existing
    folder; an input it does not take is refused too."""
    given = {name: value for name, value in (inputs or {}).items() if value is not None}
    unknown = [name for name in given if name not in INPUTS]
    if unknown:
        raise PublishedDataError(f"unknown input {unknown[0]!r}; inputs are "
                                 f"{', '.join(INPUTS)}")
    label = source_format.name
    extra = [name for name in given if name not in source_format.inputs]
    if extra:
        raise PublishedDataError(f"source format {label} takes no {extra[0]}; leave it out "
                                 f"({extra[0]}: {INPUTS[extra[0]]})")
    missing = [name for name in source_format.inputs if name not in given]
    if missing:
        raise PublishedDataError(
            f"source format {label} needs {missing[0]} (infoseek verify --{missing[0]} DIR, "
            f"or a task's -T {missing[0]}=DIR): {INPUTS[missing[0]]}")
    return {name: _input_path(given[name], name) for name in source_format.inputs}


_HOW_TO_NAME = "infoseek verify --source-format, or a task's -T source_format="


def get_source_format(name: str) -> SourceFormat:
    """The source format called `name`, as its domain declares it."""
    home = source_format_home(name)
    if home is None:
        raise PublishedDataError(f"unknown source format {name!r}; choose one of "
                                 f"{', '.join(source_format_names())}")
    return resolve(home[1])


def detect_source_format(columns: list[str], source: str = "file",
                         candidates: tuple[str, ...] | None = None) -> SourceFormat:
    """The one source format among `candidates` whose signature columns are all present
    (and whose excluded columns are absent); an error naming the choices otherwise."""
    candidates = source_format_names() if candidates is None else candidates
    present = set(columns)
    matches = []
    for name in candidates:
        source_format = get_source_format(name)
        if (set(source_format.signature) <= present
                and not present & set(source_format.excludes)):
            matches.append(source_format)
    if len(matches) == 1:
        return matches[0]
    choices = ", ".join(candidates)
    if not matches:
        shown = ", ".join(columns[:12]) + (" ..." if len(columns) > 12 else "")
        raise PublishedDataError(
            f"{source_name(source)}: columns ({shown}) match no source format; "
            f"name the source format ({_HOW_TO_NAME}): one of {choices}")
    raise PublishedDataError(
        f"{source_name(source)}: columns match several source formats "
        f"({', '.join(m.name for m in matches)}); name the source format ({_HOW_TO_NAME})")


def read_published(source: str, source_format: str | None = None, *,
                   candidates: tuple[str, ...] | None = None, limit: int | None = None,
                   inputs: Mapping[str, Any] | None = None,
                   ) -> tuple[str, SourceFormat, list[dict[str, Any]]]:
    """Resolve and read `source`; return (resolved source, its source format, raw rows),
    the first `limit` rows only when given (read as a stream). The source format is told
    (`source_format`, a name) or detected, and its required columns and extra `inputs`
    checked (`check_inputs`), from the header or first rows of a local file before the
    rest is read, so a file of another kind is refused at once, however large."""
    candidates = source_format_names() if candidates is None else candidates
    resolved = resolve_source(source, "published data file")
    kind = file_kind(resolved)
    chosen: SourceFormat | None = None
    if source_format:
        chosen = get_source_format(source_format)
        if chosen.name not in candidates:
            raise PublishedDataError(f"source format {chosen.name!r} does not fit here; "
                                     f"choose one of {', '.join(candidates)}")
        check_inputs(chosen, inputs)
    if not is_url(resolved):
        check_not_empty(resolved, kind)
    columns = peek_columns(resolved, kind)
    if columns is not None:
        chosen = _source_format_for_columns(chosen, columns, resolved, candidates)
        check_inputs(chosen, inputs)
    rows = read_rows(resolved, kind, limit=limit)
    if not rows:
        raise PublishedDataError(f"{source_name(resolved)}: holds no rows")
    if columns is None:
        chosen = _source_format_for_columns(chosen, list(rows[0].keys()), resolved,
                                            candidates)
    assert chosen is not None
    check_inputs(chosen, inputs)
    return resolved, chosen, rows


def _source_format_for_columns(chosen: SourceFormat | None, columns: list[str],
                               resolved: str, candidates: tuple[str, ...]) -> SourceFormat:
    """`chosen` (or the source format detected from `columns`) once its required columns
    are found among `columns`."""
    if chosen is None:
        chosen = detect_source_format(columns, resolved, candidates)
    missing = [c for c in chosen.required if c not in columns]
    if missing:
        raise PublishedDataError(
            f"{source_name(resolved)}: not a {chosen.name} file: missing column(s) "
            f"{', '.join(repr(c) for c in missing)}")
    return chosen


def identify_rows(resolved: str, source_format: SourceFormat, rows: list[dict[str, Any]]
                  ) -> list[tuple[RowRef, str]]:
    """Each row's reference (file, 1-based row, released id) and record id: the released
    id (a repeated one gets `~row<N>`), or `<source format>-row<N>` for a row without
    one; `<file stem>-row<N>` for a source format with `id_from_file`."""
    refs = []
    for index, row in enumerate(rows, 1):
        rid = released_id(row, source_format.id_fields)
        label = f"{source_format.id_fields[0]} {rid}" if rid is not None else None
        refs.append(RowRef(resolved, index, label, rid))
    if source_format.id_from_file:
        stem = Path(source_name(resolved).split("?", 1)[0]).stem or "file"
        return [(ref, f"{stem}-row{ref.row}") for ref in refs]
    ids = unique_ids([ref.released_id or f"{source_format.name}-row{ref.row}" for ref in refs],
                     refs)
    return list(zip(refs, ids, strict=True))


def make_record(source_format: SourceFormat, row: dict[str, Any], ref: RowRef,
                record_id: str, inputs: Mapping[str, str] | None = None) -> Record:
    """One row -> record, with `id` first and provenance (source file, source format, row,
    released id) last; the provenance names the source format under ``format`` (a record
    field, kept as released records have it). `inputs`: the source format's extra inputs
    (`check_inputs`)."""
    if source_format.inputs:
        body = source_format.record_from_row(  # type: ignore[call-arg]
            row, ref, dict(inputs or {}))
    else:
        body = source_format.record_from_row(row, ref)
    record: Record = {"id": record_id, **body}
    record["provenance"] = {
        "format": source_format.name, "source": source_name(ref.source), "row": ref.row,
        "released_id": ref.released_id,
    }
    return record


def load_published(source: str, source_format: str | None = None, *,
                   limit: int | None = None,
                   candidates: tuple[str, ...] | None = None,
                   inputs: Mapping[str, Any] | None = None,
                   skip_refused: bool = False) -> list[Record]:
    """Every row of a released file as a problem record (the first `limit` rows when
    given). Stops at the first malformed row with a message naming file, row and field.
    `source_format`: its name (None: detected from the columns). `inputs`: the source
    format's extra inputs (`INPUTS`). `skip_refused`: a row the source format refuses with
    a check of its own (`PublishedDataError.check`) is left out with a warning instead."""
    resolved, chosen, rows = read_published(source, source_format, candidates=candidates,
                                            limit=limit, inputs=inputs)
    checked = check_inputs(chosen, inputs)
    records, refused = [], []
    for row, (ref, rid) in zip(rows, identify_rows(resolved, chosen, rows), strict=True):
        try:
            records.append(make_record(chosen, row, ref, rid, checked))
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
    "INPUTS", "Correction", "Disagreement", "PublishedDataError", "Record", "RowRef",
    "SourceFormat", "Unposable", "check_inputs", "detect_source_format", "get_source_format",
    "identify_rows", "load_published", "make_record", "read_published", "source_format_names",
]
