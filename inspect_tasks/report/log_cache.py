"""What `infoseek report` read of each log, kept so that the next report reads it again
only when the log changed (`reading.read_logs`).

One entry per log file under ``$INFOSEEK_CACHE_DIR/report-logs/`` (else
``~/.cache/infoseek/report-logs/``, the dataset cache's root: `infoseek.builders.cache`),
named by a hash of its key: the log's resolved path, size in bytes and modification time
(nanoseconds), `READ_FORMAT` and the installed Inspect version. A log that is rewritten,
grown or touched gets a new key, so its old entry is simply never asked for again.
Deleting the folder clears the cache; ``INFOSEEK_REPORT_CACHE=0`` turns it off.

An entry is one file of two lines: a header ``{"infoseek_report_cache": READ_FORMAT,
"key": KEY, "sha256": H}``, then the body, the read as compact JSON (keys in their order),
H being the SHA-256 of the body's bytes. It is used only when the header parses, names
the same key and format and the body's bytes match H (the body is parsed only then);
anything else (a cut file, an edited body, another key under the same name, a file that
is not JSON) is ignored, the log read again and the entry written over. Entries are
written to a temporary file and moved into place, so a reader never sees half of one.
pandas' missing value ``pd.NA`` is written as a small tagged object and read back as
itself (non-finite floats as JSON's ``NaN``/``Infinity``, which Python reads back); a log
whose read holds any other kind of value is simply not cached.
"""

from __future__ import annotations

import hashlib
import json
import os
import tempfile
from pathlib import Path
from typing import Any

import pandas as pd

READ_FORMAT = 3
"""Bumped whenever what `reading` keeps of a log changes, so older entries are not used."""
CACHE_FOLDER = "report-logs"
_TAG = "$infoseek"


def cache_enabled() -> bool:
    return os.environ.get("INFOSEEK_REPORT_CACHE", "1").strip() not in ("0", "false", "no")


def cache_folder() -> Path:
    """Where the entries live (module docstring)."""
    from infoseek.builders.cache import cache_dir

    return cache_dir() / CACHE_FOLDER


def log_key(path: Path) -> dict[str, Any] | None:
    """The key of the log at `path` as it is now, or None when it cannot be stat'ed."""
    from importlib.metadata import version

    try:
        stat = path.stat()
        resolved = os.fsencode(path.resolve()).decode("utf-8", "backslashreplace")
    except OSError:
        return None
    return {"path": resolved, "size": stat.st_size, "mtime_ns": stat.st_mtime_ns,
            "format": READ_FORMAT, "inspect_ai": version("inspect_ai")}


def _entry_path(key: dict[str, Any]) -> Path:
    text = json.dumps(key, sort_keys=True)
    return cache_folder() / f"{hashlib.sha256(text.encode()).hexdigest()[:24]}.json"


class _Unstorable(TypeError):
    """A value the entry format does not hold (the log is then not cached)."""


_NA = {_TAG: "NA"}


def _body(value: Any) -> bytes:
    """`value` as the entry's body: compact JSON, ``pd.NA`` as its tag. Python's own
    encoder walks the value (in C); it raises `_Unstorable` on a value JSON does not
    hold, and a mapping of the read that has the tag's key (counted in the text: the key
    never appears inside a JSON string, whose quotes are escaped) makes the whole value
    unstorable. What is cached is a read built from decoded JSON and from frames whose
    columns are named by text, so its mappings have text keys and it holds no tuples
    (which the encoder would turn into text keys and lists)."""
    tags = 0

    def tag(item: Any) -> Any:
        nonlocal tags
        if item is pd.NA:
            tags += 1
            return _NA
        raise _Unstorable(f"a value of type {type(item).__name__}")

    text = json.dumps(value, separators=(",", ":"), default=tag)
    if text.count(_TAG_KEY) != tags:
        raise _Unstorable("a mapping the cache cannot tell from its own tags")
    return text.encode("utf-8")


_TAG_KEY = json.dumps(_TAG) + ":"


def _tagged(mapping: dict[str, Any]) -> Any:
    if _TAG in mapping:
        if mapping == _NA:
            return pd.NA
        raise ValueError("an unknown tag in a cache entry")
    return mapping


def load(key: dict[str, Any] | None) -> Any | None:
    """The value stored under `key`, or None when there is no usable entry (module
    docstring: anything that does not check out is ignored)."""
    if key is None or not cache_enabled():
        return None
    try:
        data = _entry_path(key).read_bytes()
        first, _, body = data.partition(b"\n")
        header = json.loads(first)
        if (not isinstance(header, dict) or header.get("infoseek_report_cache") != READ_FORMAT
                or header.get("key") != key
                or hashlib.sha256(body).hexdigest() != header.get("sha256")):
            return None
        return json.loads(body, object_hook=_tagged)
    except (OSError, ValueError, TypeError, RecursionError):
        return None


def store(key: dict[str, Any] | None, value: Any) -> bool:
    """Write `value` under `key` (atomically); False when it was not written (cache off,
    an unstorable value, a folder that cannot be written: the report goes on)."""
    if key is None or not cache_enabled():
        return False
    try:
        # keys keep their order: a sample row's key order is the samples table's columns
        body = _body(value)
    except (_Unstorable, ValueError, RecursionError):
        return False
    header = json.dumps({"infoseek_report_cache": READ_FORMAT, "key": key,
                         "sha256": hashlib.sha256(body).hexdigest()}, sort_keys=True)
    entry = header.encode("utf-8") + b"\n" + body
    path = _entry_path(key)
    temporary = None
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        handle, temporary = tempfile.mkstemp(dir=path.parent, prefix=".part-")
        with os.fdopen(handle, "wb") as out:
            out.write(entry)
        os.replace(temporary, path)
    except OSError:
        if temporary is not None:
            Path(temporary).unlink(missing_ok=True)
        return False
    return True
