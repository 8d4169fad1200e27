"""`-T source=...` for the tasks: records from a JSONL file of our own problem records
or from a released file in one of the published formats of the task's domain.

    source_records("logic_q_mt.csv", domain="logic", ks=[1, 2, 3])
    source_records("x.csv", domain="logic", source_format="questbench-logic", limit=50)

Rules: `source_format` names a published format (it must belong to the domain) or
`records` (our JSONL); without it, a `.jsonl` file holds our records and anything else is
a released file whose format is detected from its columns. `limit` keeps the first N
problems of the file (before the k filter). Problems whose observations contradict the
rules have no task instance; they are dropped with a warning naming them (run
`infoseek verify` for the full report).
"""

from __future__ import annotations

import logging
from typing import Any

from builders.published import (
    FORMAT_NAMES,
    PublishedDataError,
    formats_of_domain,
    load_published,
)
from builders.published.reading import is_url, resolve_source
from infoseek.records import read_jsonl

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
    if format in FORMAT_NAMES or format == RECORDS_FORMAT:
        raise ValueError(
            f"format={format!r} is a data file format: pass it as source_format={format} "
            f"(format= chooses the interaction: {' or '.join(INTERACTION_FORMATS)})")


def source_records(source: str, *, domain: str, source_format: str | None = None,
                   ks: list[int] | None = None, limit: int | None = None
                   ) -> list[dict[str, Any]]:
    """Problem records of `source` for a task of `domain`, with k in `ks` (all when
    None)."""
    source_format = check_source_format(source_format, domain)
    if limit is not None and (isinstance(limit, bool) or not isinstance(limit, int)
                              or limit < 1):
        raise ValueError(f"limit must be a positive integer; got {limit!r}")
    resolved = resolve_source(source, "source")
    ours = source_format == RECORDS_FORMAT or (
        source_format is None and resolved.split("?", 1)[0].lower().endswith(".jsonl"))
    if ours:
        if is_url(resolved):
            raise PublishedDataError(
                f"{source}: problem-record JSONL is read from a local file, not a URL")
        records = list(read_jsonl(resolved))
        if limit is not None:
            records = records[:limit]
        wrong = sorted({r.get("domain") for r in records} - {domain}, key=str)
        if wrong:
            raise PublishedDataError(
                f"{source}: holds {wrong} problem records; this task needs {domain!r} ones")
    else:
        records = load_published(resolved, source_format, limit=limit,
                                 candidates=formats_of_domain(domain))
    if ks is not None:
        records = [r for r in records if r["k"] in ks]
        if not records:
            raise PublishedDataError(f"{source}: no problems with k in {list(ks)}")
    infeasible = [r["id"] for r in records if "target_values" in r and not r["target_values"]]
    if infeasible:
        shown = ", ".join(map(str, infeasible[:10])) + (" ..." if len(infeasible) > 10 else "")
        logger.warning("%s: %d problem(s) have observations that contradict their rules and "
                       "no task instance: %s (see `infoseek verify`)", source,
                       len(infeasible), shown)
        records = [r for r in records if r["id"] not in set(infeasible)]
    return records
