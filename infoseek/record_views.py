"""What each side may read of a problem record: the hidden fields kept from the model's
side (`public_record`) and the variables the model may ask about (`askable_variables`,
less the quantities only leaves may stand for, `not_leaf_variables`).
"""

from __future__ import annotations

from typing import Any

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
