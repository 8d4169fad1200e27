"""What `infoseek report` read of each log, kept so that the next report reads it again
only when the log changed (`reading.read_logs`).

One entry per log file under ``$INFOSEEK_CACHE_DIR/report-logs/`` (else
``~/.cache/infoseek/report-logs/``, the dataset cache's root: `infoseek.builders.cache`),
named by a hash of its key: the log's resolved path, size in bytes and modification time
(nanoseconds), `READ_FORMAT` and the installed Inspect version. A log that is rewritten,
grown or touched gets a new key, so its old entry is simply never asked for again.
Deleting the folder clears the cache; ``INFOSEEK_REPORT_CACHE=0`` turns it off.

An entry is one JSON file: ``{"infoseek_report_cache": READ_FORMAT, "key": KEY,
"sha256": H, "body": BODY}``, H being the SHA-256 of BODY's compact JSON text (keys
in their order). It is used
only when it parses, names the same key and its body matches H; anything else (a cut
file, an edited body, another key under the same name, a file that is not JSON) is
ignored, the log read again and the entry written over. Entries are written to a
temporary file and moved into place, so a reader never sees half of one. Values that
JSON does not hold (pandas' missing value ``pd.NA``, a non-finite float) are written as
small tagged objects and read back as the same value; a log whose read holds any other
kind of value is simply not cached.
"""

from __future__ import annotations

import hashlib
import json
import math
import os
import tempfile
from pathlib import Path
from typing import Any

import pandas as pd

READ_FORMAT = 1
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


def _encode(value: Any) -> Any:
    if value is None or isinstance(value, bool | str | int):
        return value
    if isinstance(value, float):
        return value if math.isfinite(value) else {_TAG: "float", "repr": repr(value)}
    if value is pd.NA:
        return {_TAG: "NA"}
    if isinstance(value, list):
        return [_encode(v) for v in value]
    if isinstance(value, dict):
        if _TAG in value or not all(isinstance(k, str) for k in value):
            raise _Unstorable("a mapping the cache cannot tell from its own tags")
        return {k: _encode(v) for k, v in value.items()}
    raise _Unstorable(f"a value of type {type(value).__name__}")


def _decode(value: Any) -> Any:
    if isinstance(value, list):
        return [_decode(v) for v in value]
    if isinstance(value, dict):
        tag = value.get(_TAG)
        if tag == "NA":
            return pd.NA
        if tag == "float":
            return float(value["repr"])
        return {k: _decode(v) for k, v in value.items()}
    return value


def _body_text(body: Any) -> str:
    # keys keep their order: a sample row's key order is the samples table's column order
    return json.dumps(body, separators=(",", ":"), allow_nan=False)


def load(key: dict[str, Any] | None) -> Any | None:
    """The value stored under `key`, or None when there is no usable entry (module
    docstring: anything that does not check out is ignored)."""
    if key is None or not cache_enabled():
        return None
    try:
        entry = json.loads(_entry_path(key).read_text(encoding="utf-8"))
        if (not isinstance(entry, dict) or entry.get("infoseek_report_cache") != READ_FORMAT
                or entry.get("key") != key):
            return None
        body = entry["body"]
        if hashlib.sha256(_body_text(body).encode()).hexdigest() != entry.get("sha256"):
            return None
        return _decode(body)
    except (OSError, ValueError, KeyError, TypeError, RecursionError):
        return None


def store(key: dict[str, Any] | None, value: Any) -> bool:
    """Write `value` under `key` (atomically); False when it was not written (cache off,
    an unstorable value, a folder that cannot be written: the report goes on)."""
    if key is None or not cache_enabled():
        return False
    try:
        body = _encode(value)
        text = _body_text(body)
    except (_Unstorable, ValueError):
        return False
    entry = json.dumps({"infoseek_report_cache": READ_FORMAT, "key": key,
                        "sha256": hashlib.sha256(text.encode()).hexdigest()},
                       sort_keys=True)[:-1] + ',"body":' + text + "}"
    path = _entry_path(key)
    temporary = None
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        handle, temporary = tempfile.mkstemp(dir=path.parent, prefix=".part-")
        with os.fdopen(handle, "w", encoding="utf-8") as out:
            out.write(entry)
        os.replace(temporary, path)
    except OSError:
        if temporary is not None:
            Path(temporary).unlink(missing_ok=True)
        return False
    return True
