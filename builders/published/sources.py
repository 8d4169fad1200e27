"""`-T source=...` for the tasks: records from a JSONL file of our own problem records
or from a released file in one of the published formats of the task's domain.

    source_records("logic_q_mt.csv", domain="logic", ks=[1, 2, 3])
    source_records("x.csv", domain="logic", source_format="questbench-logic", limit=50)

Rules: `source_format` names a published format (it must belong to the domain) or
`records` (our JSONL); without it, a `.jsonl` file holds our records and anything else is
a released file whose format is detected from its columns; with extra `inputs` (a
format's rule folder, `infoseek.builders.published.INPUTS`) the file is a released one, since our
records take none, and so is a JSON Lines file whose first rows match a released format
of the domain rather than our records. `limit` keeps the first N problems of the file
(before the k filter); the file is read only that far. A row the format refuses with a
check of its own (names that do not match its rule file, ...) is left out with a warning.

A released problem that cannot be posed is dropped with a warning naming it (run
`infoseek verify` for the full report): observations that contradict the rules (no task
instance), or, for a record with a hidden world (math), a hidden world (the released
values) that contradicts the revealed values or does not give the released answer. A
released answer written as a rounded decimal that the exact value rounds to at the places
written (3.33 for 10/3: within 0.005) is replaced by the exact value so the episode can
check it; `released.answer` keeps what the file says.
"""

from __future__ import annotations

import logging
from collections.abc import Mapping
from itertools import islice
from typing import Any

from infoseek.builders.published import (
    PublishedDataError,
    detect_format,
    format_names,
    formats_of_domain,
    load_published,
)
from infoseek.builders.published.cells import close_enough
from infoseek.builders.published.gsme_parse import rounding_note
from infoseek.builders.published.reading import is_url, peek_columns, resolve_source
from infoseek.engines.arith.expr import encode_rational, parse_rational
from infoseek.records import engine_from_record, read_jsonl

RECORDS_FORMAT = "records"
INTERACTION_FORMATS = ("tool", "text")
logger = logging.getLogger(__name__)


def check_source_format(source_format: Any, domain: str) -> str | None:
    if source_format is None or (isinstance(source_format, str) and not source_format.strip()):
        return None
    allowed = (*formats_of_domain(domain), RECORDS_FORMAT)
    if source_format not in allowed:
        raise PublishedDataError(
            f"source_format must be one of {', '.join(allowed)}; got {source_format!r}")
    return source_format


def check_interaction_format(format: Any) -> None:
    """`format` is the interaction format; a data format name there is a common slip."""
    if format in format_names() or format == RECORDS_FORMAT:
        raise ValueError(
            f"format={format!r} is a data file format: pass it as source_format={format} "
            f"(format= chooses the interaction: {' or '.join(INTERACTION_FORMATS)})")


def source_records(source: str, *, domain: str, source_format: str | None = None,
                   ks: list[int] | None = None, limit: int | None = None,
                   inputs: Mapping[str, Any] | None = None) -> list[dict[str, Any]]:
    """Problem records of `source` for a task of `domain`, with k in `ks` (all when
    None); `inputs`: a released format's extra inputs."""
    source_format = check_source_format(source_format, domain)
    if limit is not None and (isinstance(limit, bool) or not isinstance(limit, int)
                              or limit < 1):
        raise ValueError(f"limit must be a positive integer; got {limit!r}")
    resolved = resolve_source(source, "source")
    inputs = {name: value for name, value in (inputs or {}).items() if value is not None}
    ours = source_format == RECORDS_FORMAT or (
        source_format is None and not inputs
        and resolved.split("?", 1)[0].lower().endswith(".jsonl")
        and not _released_jsonl(resolved, domain))
    if ours and inputs:
        raise PublishedDataError(f"{source}: our problem records take no {next(iter(inputs))}"
                                 " (it is for released files in a format that needs one)")
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
        records = load_published(resolved, source_format, limit=limit,
                                 candidates=formats_of_domain(domain), inputs=inputs,
                                 skip_refused=True)
    if ks is not None:
        records = [r for r in records if r["k"] in ks]
        if not records:
            raise PublishedDataError(f"{source}: no problems with k in {list(ks)}")
    kept, dropped = [], []
    for record in records:
        problem = unposable_reason(record)
        if problem is None:
            kept.append(record)
        elif problem == "rounded answer":
            kept.append(with_exact_answer(record))
        else:
            dropped.append(f"{record['id']} ({problem})")
    if dropped:
        shown = ", ".join(dropped[:10]) + (" ..." if len(dropped) > 10 else "")
        logger.warning("%s: %d problem(s) cannot be posed and are left out: %s "
                       "(run `infoseek verify` for the full report)", source, len(dropped),
                       shown)
    if not kept:
        raise PublishedDataError(f"{source}: no problem can be posed ({dropped[0]})")
    return kept


def _released_jsonl(path: str, domain: str) -> bool:
    """Whether a local JSONL file's first rows are not our records (no ``domain`` /
    ``engine``) but match a released format of `domain` (then read as released)."""
    if is_url(path):
        return False
    columns = peek_columns(path, "json")
    if not columns or {"domain", "engine"} <= set(columns):
        return False
    try:
        detect_format(columns, path, formats_of_domain(domain))
    except PublishedDataError:
        return False
    return True


def first_records(path: str, limit: int | None) -> list[dict[str, Any]]:
    """The records of our JSONL file at `path`, only the first `limit` when given: the
    file is read line by line and no further than the last record kept."""
    return list(islice(read_jsonl(path), limit))


def unposable_reason(record: dict[str, Any]) -> str | None:
    """Why `record` cannot be run as a task, or None; "rounded answer" when only the
    released answer's rounding stands in the way."""
    if "target_values" in record and not record["target_values"]:
        return "the observations contradict the rules"
    world = record.get("hidden_world")
    if world is None or "answer" not in record:
        return None
    for name, value in record["observed"].items():
        if name in world and parse_rational(world[name]) != parse_rational(value):
            return f"the released values disagree with the revealed {name}"
    try:
        computed = engine_from_record(record).world_target(world)
    except ValueError as exc:
        return f"the released values give no answer: {exc}"
    answer = parse_rational(record["answer"])
    if computed == answer:
        return None
    # a released decimal written with d places stands for the exact value when that
    # rounds to it at d places (3.33 for 10/3); anything else is a disagreement
    places = (record.get("released") or {}).get("answer_decimal_places")
    if close_enough(answer, computed, places):
        return "rounded answer"
    return ("the released answer differs from the one its values give ("
            + rounding_note("answer", answer, computed, places) + ")")


def with_exact_answer(record: dict[str, Any]) -> dict[str, Any]:
    """`record` with its answer replaced by the exact value its hidden world gives (for a
    released answer that is that value rounded; `released` keeps the written one)."""
    computed = engine_from_record(record).world_target(record["hidden_world"])
    released = dict(record.get("released") or {})
    if released.get("answer_decimal_places") is not None:
        released["answer_rounding"] = rounding_note(
            "answer", parse_rational(record["answer"]), computed,
            released["answer_decimal_places"])
    return {**record, "answer": encode_rational(computed), "released": released}
