"""JSON Lines files of problem records: the canonical one-line JSON of a record, atomic
writes, and reading a file back with every record checked (`infoseek.records`).
"""

from __future__ import annotations

import json
import os
import tempfile
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import Any

from infoseek.records import RecordError, check_record
from infoseek.text import short_repr


def dumps_record(record: Any) -> str:
    """Canonical one-line JSON (stable key order as built, no spaces drift)."""
    return json.dumps(record, ensure_ascii=False, separators=(",", ":"))


def write_atomically(path: str | Path, data: bytes, *, ordinary_mode: bool = False) -> None:
    """Write ``data`` to a temporary file beside ``path``, then move it into place: a
    failed write leaves no half file and an old ``path`` untouched. ``ordinary_mode``
    gives the file the permissions of an ordinary new file (the temporary one is 0600)."""
    folder = Path(path).resolve().parent
    fd, tmp = tempfile.mkstemp(dir=folder, suffix=".tmp")
    try:
        with os.fdopen(fd, "wb") as fh:
            fh.write(data)
        if ordinary_mode:
            umask = os.umask(0)
            os.umask(umask)
            os.chmod(tmp, 0o666 & ~umask)
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


def jsonl_bytes(records: Iterable[dict[str, Any]]) -> bytes:
    """The records as JSON Lines (`dumps_record` per line), UTF-8."""
    return "".join(dumps_record(record) + "\n" for record in records).encode("utf-8")


def write_jsonl(records: Iterable[dict[str, Any]], path: str | Path) -> int:
    count = 0
    with open(path, "w", encoding="utf-8", newline="\n") as fh:
        for record in records:
            fh.write(dumps_record(record) + "\n")
            count += 1
    return count


def read_jsonl(path: str | Path) -> Iterator[dict[str, Any]]:
    """The records of a JSONL file, one at a time (a caller that stops early reads no
    further), each checked by `check_record`, and no two with the same id (as text:
    ``1`` and ``"1"`` name the same samples); errors name the file, line and field.
    Whether the MSS family pins every target value is left to the task that makes the
    samples: it searches each instance's task-level k anyway (at the same cost: about
    25 ms a genereg record), and names the file and line the same way
    (`infoseek.inspect_tasks.assembly.located_errors`)."""
    path = Path(path)
    if not path.exists():
        raise RecordError(f"{path}: no such file")
    first_line: dict[str, int] = {}
    with open(path, "rb") as fh:
        for lineno, raw in enumerate(fh, 1):
            try:
                line = raw.decode("utf-8")
            except UnicodeDecodeError:
                raise RecordError(f"{path}:{lineno}: not UTF-8 text (is this a JSONL file "
                                  "of problem records?)") from None
            if not line.strip():
                continue
            try:
                record = json.loads(line)
            except json.JSONDecodeError as exc:
                raise RecordError(f"{path}:{lineno}: not valid JSON ({exc.msg})") from None
            except RecursionError:
                raise RecordError(f"{path}:{lineno}: JSON nested too deeply") from None
            check_record(record, f"{path}:{lineno}", pins=False)
            key = str(record["id"])
            if key in first_line:
                raise RecordError(
                    f"{path}:{lineno}: field 'id' {short_repr(record['id'])} is the id of the "
                    f"record on line {first_line[key]} too; every record needs an id of its "
                    "own (its samples are named after it)")
            first_line[key] = lineno
            yield record
