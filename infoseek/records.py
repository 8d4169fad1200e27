"""Problem records: plain JSON dicts, the only interchange between layers.

See docs/contracts.md for the fields. This module rebuilds engines from records and
checks the fields every protocol relies on, failing with messages that say what to fix.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import Any

from infoseek.engine import Engine
from infoseek.horn import HornEngine, is_horn

REQUIRED_FIELDS = ("id", "domain", "engine", "variables", "observed", "target", "queryable", "k",
                   "mss_family")


class RecordError(ValueError):
    """A problem record is malformed; the message names the record and field."""


def check_record(record: Any, where: str = "record") -> None:
    if not isinstance(record, dict):
        raise RecordError(f"{where}: expected a JSON object, got {type(record).__name__}")
    missing = [f for f in REQUIRED_FIELDS if f not in record]
    if missing:
        raise RecordError(f"{where}: missing field(s) {', '.join(missing)}")
    variables = record["variables"]
    if not isinstance(variables, list) or not all(isinstance(v, str) for v in variables):
        raise RecordError(f"{where}: field 'variables' must be a list of names")
    names = set(variables)
    if record["target"] not in names:
        raise RecordError(f"{where}: target {record['target']!r} is not in 'variables'")
    for field in ("queryable", "forbidden", "alternative_only"):
        unknown = [v for v in record.get(field, []) if v not in names]
        if unknown:
            raise RecordError(f"{where}: field {field!r} names unknown variables {unknown[:5]}")
    unknown = [v for v in record["observed"] if v not in names]
    if unknown:
        raise RecordError(f"{where}: field 'observed' names unknown variables {unknown[:5]}")
    family = record["mss_family"]
    if not isinstance(family, list) or not all(isinstance(s, list) for s in family):
        raise RecordError(f"{where}: field 'mss_family' must be a list of lists")
    if not isinstance(record["k"], int) or record["k"] < 0:
        raise RecordError(f"{where}: field 'k' must be a non-negative integer")


def askable_variables(record: dict[str, Any], forbid_alternatives: bool) -> list[str]:
    """The variables the model may ask about, sorted: ``queryable`` minus ``forbidden``,
    minus ``alternative_only`` when alternatives are forbidden; observed variables and the
    target are removed as a safeguard."""
    excluded = set(record.get("forbidden", ()))
    excluded.update(record.get("observed", {}))
    excluded.add(record["target"])
    if forbid_alternatives:
        excluded.update(record.get("alternative_only", ()))
    return sorted(set(record.get("queryable", ())) - excluded)


def engine_from_record(record: dict[str, Any]) -> Engine:
    spec = record["engine"]
    kind = spec.get("kind")
    if kind in ("horn", "cnf"):
        clauses = spec["clauses"]
        if kind == "horn" or is_horn(clauses):
            return HornEngine(record["variables"], clauses, record["observed"], record["target"])
        from infoseek.cnf import CnfEngine

        return CnfEngine(record["variables"], clauses, record["observed"], record["target"])
    if kind == "arith":
        from infoseek.arith import ArithEngine

        return ArithEngine(record["variables"], spec["equations"], record["observed"],
                           record["target"], domains=spec.get("domains"))
    raise RecordError(f"{record.get('id', 'record')}: unknown engine kind {kind!r}")


def dumps_record(record: dict[str, Any]) -> str:
    """Canonical one-line JSON (stable key order as built, no spaces drift)."""
    return json.dumps(record, ensure_ascii=False, separators=(",", ":"))


def write_jsonl(records: Iterable[dict[str, Any]], path: str | Path) -> int:
    count = 0
    with open(path, "w", encoding="utf-8", newline="\n") as fh:
        for record in records:
            fh.write(dumps_record(record) + "\n")
            count += 1
    return count


def read_jsonl(path: str | Path) -> Iterator[dict[str, Any]]:
    path = Path(path)
    if not path.exists():
        raise RecordError(f"{path}: no such file")
    with open(path, encoding="utf-8") as fh:
        for lineno, line in enumerate(fh, 1):
            if not line.strip():
                continue
            try:
                record = json.loads(line)
            except json.JSONDecodeError as exc:
                raise RecordError(f"{path}:{lineno}: not valid JSON ({exc.msg})") from None
            check_record(record, f"{path}:{lineno}")
            yield record
