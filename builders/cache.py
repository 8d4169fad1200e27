"""On-demand dataset cache: built splits are stored as JSONL under a key that includes
the builder name, its version and every build parameter, so a changed builder never
serves stale records. Location: $INFOSEEK_CACHE_DIR, else ~/.cache/infoseek."""

from __future__ import annotations

import hashlib
import json
import os
import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import Any

from infoseek.records import read_jsonl, write_jsonl


def cache_dir() -> Path:
    root = os.environ.get("INFOSEEK_CACHE_DIR") or Path.home() / ".cache" / "infoseek"
    return Path(root)


def cache_path(builder: str, version: str, params: dict[str, Any]) -> Path:
    key = json.dumps({"builder": builder, "version": version, **params}, sort_keys=True)
    digest = hashlib.sha256(key.encode()).hexdigest()[:16]
    return cache_dir() / f"{builder}-{version}-{digest}.jsonl"


def load_or_build(builder: str, version: str, params: dict[str, Any],
                  build: Callable[[], list[dict[str, Any]]]) -> list[dict[str, Any]]:
    path = cache_path(builder, version, params)
    if path.exists():
        try:
            return list(read_jsonl(path))
        except ValueError:
            path.unlink(missing_ok=True)  # a damaged cache entry is rebuilt
    records = build()
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(dir=path.parent, suffix=".tmp")
        os.close(fd)
        write_jsonl(records, tmp)
        os.replace(tmp, path)
    except OSError:
        pass  # a read-only home still gets its records, just without a cache
    return records
