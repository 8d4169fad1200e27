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


NOT_LEAF_KINDS = ("derived", "not_leaf")
HIDDEN_FIELDS = ("answer", "hidden_world", "released", "released_text")
"""Record fields that hold the hidden instance: kept out of what the model's side reads.
`released` and `released_text` (records loaded from released files) keep the file's own
values and wording, which for math include every quantity's value and the answer, and a
text that may show a held-out value."""


def candidate_query_names(record: dict[str, Any]) -> list[str]:
    """Names listed in ``candidate_queries`` (entries are names or
    ``{"name": ..., "kind": ...}`` objects), in record order."""
    names = []
    for entry in record.get("candidate_queries", ()) or ():
        name = entry.get("name") if isinstance(entry, dict) else entry
        if isinstance(name, str):
            names.append(name)
    return names


def not_leaf_variables(record: dict[str, Any]) -> list[str]:
    """Quantities refused with ``not_leaf`` (derived ones, where only leaves may be
    asked), sorted: the record's ``not_leaf`` list when present, else the names whose
    kind is "derived" in ``query_kinds`` ({name: kind}) or in ``candidate_queries``
    entries of the form ``{"name": ..., "kind": ...}``. Empty for logic records."""
    if "not_leaf" in record:
        return sorted(set(record["not_leaf"] or ()))
    found = {name for name, kind in (record.get("query_kinds") or {}).items()
             if kind in NOT_LEAF_KINDS}
    for entry in record.get("candidate_queries", ()) or ():
        if isinstance(entry, dict) and entry.get("kind") in NOT_LEAF_KINDS:
            found.add(entry.get("name"))
    return sorted(n for n in found if isinstance(n, str))


def askable_variables(record: dict[str, Any], forbid_alternatives: bool) -> list[str]:
    """The variables the model may ask about, sorted: ``queryable`` plus the other
    ``candidate_queries`` (distractors the oracle answers), minus ``forbidden``, minus
    ``not_leaf`` quantities, minus ``alternative_only`` when alternatives are forbidden;
    observed variables and the target are removed as a safeguard."""
    excluded = set(record.get("forbidden", ()))
    excluded.update(record.get("observed", {}))
    excluded.add(record["target"])
    excluded.update(not_leaf_variables(record))
    if forbid_alternatives:
        excluded.update(record.get("alternative_only", ()))
    pool = set(record.get("queryable", ())) | set(candidate_query_names(record))
    return sorted(pool - excluded)


def public_record(record: dict[str, Any]) -> dict[str, Any]:
    """The record without its hidden fields (`HIDDEN_FIELDS`): what the model's side may
    read (the sample store, the reference models)."""
    return {key: value for key, value in record.items() if key not in HIDDEN_FIELDS}


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
