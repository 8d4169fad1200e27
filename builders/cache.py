"""On-demand dataset cache: built splits are stored as JSONL under a key that includes
the builder name, its version and every build parameter, so a changed builder never
serves stale records. Location: $INFOSEEK_CACHE_DIR, else ~/.cache/infoseek.

Each entry is one file: a first line `{"infoseek_cache": CACHE_FORMAT, "records": N, "sha256": H}`
and then the N records, one per line, H being the SHA-256 of those record lines. An entry
is served only when the count and the hash match; a truncated, empty, edited or older
entry is rebuilt with a warning. Entries are written to a temporary file in the same
folder and moved into place (`os.replace`), so a reader never sees half an entry and two
processes building the same entry at once both end with a whole one.
"""

from __future__ import annotations

import hashlib
import json
import logging
import os
from collections.abc import Callable
from pathlib import Path
from typing import Any

from infoseek.jsonl import jsonl_bytes, write_atomically

CACHE_FORMAT = 2
"""Bumped when what an entry holds changes for the same key: 2 since provenance.builder
is the registered builder name (logic-mt, not logic_mt), so entries written before are
rebuilt instead of served with the old spelling."""
logger = logging.getLogger(__name__)


def cache_dir() -> Path:
    root = os.environ.get("INFOSEEK_CACHE_DIR") or Path.home() / ".cache" / "infoseek"
    return Path(root)


def cache_path(builder: str, version: str, params: dict[str, Any]) -> Path:
    key = json.dumps({"builder": builder, "version": version, **params}, sort_keys=True)
    digest = hashlib.sha256(key.encode()).hexdigest()[:16]
    return cache_dir() / f"{builder}-{version}-{digest}.jsonl"


class CacheEntryError(ValueError):
    """A cache entry that does not hold what its header promises."""


def entry_bytes(records: list[dict[str, Any]]) -> bytes:
    """The whole cache entry for `records`: header line, then one record per line."""
    body = jsonl_bytes(records)
    header = {"infoseek_cache": CACHE_FORMAT, "records": len(records),
              "sha256": hashlib.sha256(body).hexdigest()}
    return (json.dumps(header, sort_keys=True) + "\n").encode("utf-8") + body


def read_entry(path: Path) -> list[dict[str, Any]]:
    """The records of the entry at `path`; `CacheEntryError` saying what is wrong when
    the header is missing or the count or hash do not match."""
    data = path.read_bytes()
    first, newline, body = data.partition(b"\n")
    try:
        header = json.loads(first) if newline else None
    except ValueError:
        header = None
    if not isinstance(header, dict) or header.get("infoseek_cache") != CACHE_FORMAT:
        raise CacheEntryError("no cache header (empty, cut short or an older entry)")
    if hashlib.sha256(body).hexdigest() != header.get("sha256"):
        raise CacheEntryError("content hash differs from the header's (cut short or edited)")
    try:
        records = [json.loads(line) for line in body.splitlines() if line.strip()]
    except ValueError as exc:
        raise CacheEntryError(f"a line is not JSON ({exc})") from None
    if len(records) != header.get("records"):
        raise CacheEntryError(f"holds {len(records)} records, the header says "
                              f"{header.get('records')}")
    return records


def write_entry(path: Path, records: list[dict[str, Any]]) -> None:
    """Write the entry atomically: a temporary file beside it, then `os.replace`."""
    path.parent.mkdir(parents=True, exist_ok=True)
    write_atomically(path, entry_bytes(records))


def load_or_build(builder: str, version: str, params: dict[str, Any],
                  build: Callable[[], list[dict[str, Any]]]) -> list[dict[str, Any]]:
    path = cache_path(builder, version, params)
    if path.exists():
        try:
            return read_entry(path)
        except (CacheEntryError, OSError) as exc:
            logger.warning("dataset cache entry %s is damaged (%s); rebuilding it", path, exc)
    records = build()
    try:
        write_entry(path, records)
    except OSError:
        pass  # a read-only home still gets its records, just without a cache
    return records
