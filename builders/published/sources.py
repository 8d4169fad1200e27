"""`-T source=...` for the tasks: records from a JSONL file of our own problem records
or from a released file in one of the source formats of the task's domain.

    source_records("logic_q_mt.csv", domain="logic", ks=[1, 2, 3])
    source_records("x.csv", domain="logic", source_format="questbench-logic", limit=50)

Rules: `source_format` names a source format of the domain's released data or `records`
(our JSONL, `RECORDS_SOURCE_FORMAT`); without it, a `.jsonl` file holds our records and
anything else is a released file whose source format is detected from its columns (a file
not named `.jsonl` that holds our records, or any file for a domain without source
formats, is refused with the advice to name it `.jsonl` or pass `source_format=records`);
with extra `inputs` (a source format's rule folder, `infoseek.builders.published.INPUTS`)
the file is a released one, since our records take none, and so is a JSON Lines file whose
first rows match a source format of the domain rather than our records. `limit` keeps the
first N problems of the file (before the k filter); the file is read only that far. A row
the source format refuses with a check of its own (names that do not match its rule file,
...) is left out with a warning.

A problem that cannot be posed is dropped with a warning naming it (run `infoseek
verify` for the full report): observations that contradict the rules (no task instance),
or what the source format's own rule refuses (`SourceFormat.pose`, applied to every record
read from, or written from, a released file: its provenance names the source format,
under ``format``). The math source formats refuse a hidden world (the released values)
that contradicts the revealed values or does not give the released answer, and pose a
released answer written as a rounded decimal with the exact value it stands for
(`infoseek.builders.math.released.pose`).
"""

from __future__ import annotations

import logging
from collections.abc import Mapping
from itertools import islice
from typing import Any

from infoseek.builders.published import (
    PublishedDataError,
    SourceFormat,
    Unposable,
    detect_source_format,
    get_source_format,
    load_published,
    source_format_names,
)
from infoseek.builders.published.reading import is_url, peek_columns, resolve_source
from infoseek.jsonl import read_jsonl

RECORDS_SOURCE_FORMAT = "records"
"""The source format of our own problem records (JSON Lines, as `infoseek build` writes)."""
logger = logging.getLogger(__name__)


def check_source_format(source_format: Any, domain: str) -> str | None:
    if source_format is None or (isinstance(source_format, str) and not source_format.strip()):
        return None
    allowed = (*source_format_names(domain), RECORDS_SOURCE_FORMAT)
    if source_format not in allowed:
        raise PublishedDataError(
            f"source_format must be one of {', '.join(allowed)}; got {source_format!r}")
    return source_format


def source_records(source: str, *, domain: str, source_format: str | None = None,
                   ks: list[int] | None = None, limit: int | None = None,
                   inputs: Mapping[str, Any] | None = None) -> list[dict[str, Any]]:
    """Problem records of `source` for a task of `domain`, with k in `ks` (all when
    None); `inputs`: a source format's extra inputs."""
    source_format = check_source_format(source_format, domain)
    if limit is not None and (isinstance(limit, bool) or not isinstance(limit, int)
                              or limit < 1):
        raise ValueError(f"limit must be a positive integer; got {limit!r}")
    resolved = resolve_source(source, "source")
    inputs = {name: value for name, value in (inputs or {}).items() if value is not None}
    ours = source_format == RECORDS_SOURCE_FORMAT or (
        source_format is None and not inputs
        and resolved.split("?", 1)[0].lower().endswith(".jsonl")
        and not _released_jsonl(resolved, domain))
    if ours and inputs:
        raise PublishedDataError(f"{source}: our problem records take no {next(iter(inputs))}"
                                 " (it is for released files in a source format that needs one)")
    if ours:
        if is_url(resolved):
            raise PublishedDataError(
                f"{source}: problem-record JSONL is read from a local file, not a URL")
        records = first_records(resolved, limit)
        if not records:
            raise PublishedDataError(f"{source}: the file is empty (expected one problem "
                                     "record per line, as `infoseek build` writes)")
        wrong = sorted({r.get("domain") for r in records} - {domain}, key=str)
        if wrong:
            raise PublishedDataError(
                f"{source}: holds {wrong} problem records; this task needs {domain!r} ones")
    else:
        if source_format is None:
            refuse_unnamed_records(source, resolved, domain)
        records = load_published(resolved, source_format, limit=limit,
                                 candidates=source_format_names(domain), inputs=inputs,
                                 skip_refused=True)
    if ks is not None:
        records = [r for r in records if r["k"] in ks]
        if not records:
            raise PublishedDataError(f"{source}: no problems with k in {list(ks)}")
    kept, dropped = [], []
    for record in records:
        try:
            kept.append(posed(record))
        except Unposable as exc:
            dropped.append(f"{record['id']} ({exc})")
    if dropped:
        shown = ", ".join(dropped[:10]) + (" ..." if len(dropped) > 10 else "")
        logger.warning("%s: %d problem(s) cannot be posed and are left out: %s "
                       "(run `infoseek verify` for the full report)", source, len(dropped),
                       shown)
    if not kept:
        raise PublishedDataError(f"{source}: no problem can be posed ({dropped[0]})")
    return kept


def refuse_unnamed_records(source: str, path: str, domain: str) -> None:
    """A file not named ``.jsonl`` is read as a released file; say what to do instead
    when it cannot be one: the domain has no source format, or the file's first rows
    are our problem records (``domain`` and ``engine`` fields)."""
    if not source_format_names(domain):
        raise PublishedDataError(
            f"{source}: the {domain} domain has no source format of released data, so a file "
            "holds our problem records (JSON Lines, as `infoseek build` writes): name the "
            f"file *.jsonl or pass source_format={RECORDS_SOURCE_FORMAT}")
    columns = peek_columns(path, "json")
    if columns and {"domain", "engine"} <= set(columns):
        raise PublishedDataError(
            f"{source}: holds problem records (JSON Lines with 'domain' and 'engine') but is "
            "not named .jsonl, so it would be read as a released file: name it *.jsonl or "
            f"pass source_format={RECORDS_SOURCE_FORMAT}")


def _released_jsonl(path: str, domain: str) -> bool:
    """Whether a local JSONL file's first rows are not our records (no ``domain`` /
    ``engine``) but match a source format of `domain` (then read as released)."""
    if is_url(path):
        return False
    columns = peek_columns(path, "json")
    if not columns or {"domain", "engine"} <= set(columns):
        return False
    try:
        detect_source_format(columns, path, source_format_names(domain))
    except PublishedDataError:
        return False
    return True


def first_records(path: str, limit: int | None) -> list[dict[str, Any]]:
    """The records of our JSONL file at `path`, only the first `limit` when given: the
    file is read line by line and no further than the last record kept."""
    return list(islice(read_jsonl(path), limit))


def posed(record: dict[str, Any]) -> dict[str, Any]:
    """The record a task runs for `record`; raises `Unposable` when it cannot be posed: its
    observations contradict the rules, or its source format's rule refuses it."""
    if "target_values" in record and not record["target_values"]:
        raise Unposable("the observations contradict the rules")
    source_format = source_format_of(record)
    if source_format is None or source_format.pose is None:
        return record
    return source_format.pose(record)


def source_format_of(record: dict[str, Any]) -> SourceFormat | None:
    """The source format `record` was read from (its provenance's ``format``), if any."""
    provenance = record.get("provenance")
    name = provenance.get("format") if isinstance(provenance, dict) else None
    if not isinstance(name, str) or name not in source_format_names():
        return None
    return get_source_format(name)
