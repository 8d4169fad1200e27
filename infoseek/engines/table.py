"""The attribute-table engine: a finite set of candidates, each a full row of values.

Every candidate is one world: the target takes the candidate's name and each attribute
the candidate's cell (``yes``, ``no`` or ``pass``). A partial assignment keeps the rows
that agree with it on every assigned attribute, so Known means one candidate is left,
and a subset S of attributes is sufficient iff no two rows left agree on every
attribute of S (`distinguishing_pair` finds two such rows in one pass over the rows: the
exact fast path of the MSS search). This is how Twenty Questions is a CSP like the
others: the attributes are the variables, the candidate is the target.

Record form (besides the common fields of docs/contracts.md)::

    "engine": {"kind": "attribute-table",
               "attributes": ["alive", "can_fly", ...],
               "candidates": ["dog", "eagle", ...],
               "rows": ["yn...", "yy..."]}

``rows[i]`` holds one letter per attribute, in order: ``y`` yes, ``n`` no, ``p`` pass.
Two candidates with the same row could never be told apart; the record check refuses
them (a pool lists such a tie as one candidate instead).
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from infoseek.engine import ANY, Assignment, Engine, World
from infoseek.engines import EngineFormError

KIND = "attribute-table"
CELL_VALUES: dict[str, str] = {"y": "yes", "n": "no", "p": "pass"}
"""Row letter -> the attribute value it stands for."""
VALUES: tuple[str, ...] = ("yes", "no", "pass")
"""Every attribute's domain, in order."""


class AttributeTableEngine(Engine):
    """One candidate per row (module docstring)."""

    def __init__(self, attributes: Iterable[str], candidates: Iterable[str],
                 rows: Iterable[str], target: str, observed: Assignment | None = None) -> None:
        self.attributes = tuple(attributes)
        self.candidates = tuple(candidates)
        self.target = target
        self.variables = (*self.attributes, target)
        self.observed = dict(observed or {})
        self._index = {name: i for i, name in enumerate(self.attributes)}
        self._rows = [tuple(CELL_VALUES[c] for c in row) for row in rows]
        self._by_name = dict(zip(self.candidates, self._rows, strict=True))

    def domain(self, var: str) -> tuple[Any, ...]:
        return self.candidates if var == self.target else VALUES

    def row(self, candidate: str) -> dict[str, str]:
        """The candidate's attribute values."""
        return dict(zip(self.attributes, self._by_name[candidate], strict=True))

    def _matching(self, assignment: Assignment | None, target_value: Any = ANY
                  ) -> list[tuple[str, tuple[str, ...]]]:
        given = {**self.observed, **(assignment or {})}
        wanted = given.pop(self.target, ANY)
        if target_value is not ANY:
            if wanted is not ANY and wanted != target_value:
                return []
            wanted = target_value
        checks = [(self._index[var], value) for var, value in given.items()
                  if var in self._index]
        return [(name, row) for name, row in zip(self.candidates, self._rows, strict=True)
                if (wanted is ANY or name == wanted)
                and all(row[i] == value for i, value in checks)]

    def target_values(self, assignment: Assignment | None = None) -> frozenset:
        return frozenset(name for name, _ in self._matching(assignment))

    def variable_values(self, var: str, assignment: Assignment | None = None,
                        target_value: Any = ANY) -> frozenset:
        rows = self._matching(assignment, target_value)
        if var == self.target:
            return frozenset(name for name, _ in rows)
        i = self._index[var]
        return frozenset(row[i] for _, row in rows)

    def distinguishing_pair(self, subset: Iterable[str], assignment: Assignment | None = None
                            ) -> tuple[World, World] | None:
        columns = [self._index[v] for v in subset if v in self._index]
        seen: dict[tuple[str, ...], tuple[str, tuple[str, ...]]] = {}
        for name, row in self._matching(assignment):
            key = tuple(row[i] for i in columns)
            if key in seen:
                return self._world(*seen[key]), self._world(name, row)
            seen[key] = (name, row)
        return None

    def _world(self, name: str, row: tuple[str, ...]) -> World:
        return {**dict(zip(self.attributes, row, strict=True)), self.target: name}


def check_record_form(record: dict[str, Any], names: set[str]) -> None:
    """Refuse an attribute-table engine spec that cannot be built (module docstring)."""
    spec = record["engine"]
    attributes, candidates, rows = (spec.get(f) for f in ("attributes", "candidates", "rows"))
    for field, value in (("attributes", attributes), ("candidates", candidates), ("rows", rows)):
        if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
            raise EngineFormError(f"engine.{field}", "must be a list of strings")
    if len(set(attributes)) != len(attributes) or len(set(candidates)) != len(candidates):
        raise EngineFormError("engine", "repeats an attribute or a candidate name")
    if len(rows) != len(candidates):
        raise EngineFormError("engine.rows", f"has {len(rows)} rows for {len(candidates)} "
                              "candidates")
    for name, row in zip(candidates, rows, strict=True):
        if len(row) != len(attributes) or set(row) - set(CELL_VALUES):
            raise EngineFormError("engine.rows", f"row of {name!r} must have one of y/n/p "
                                  f"per attribute ({len(attributes)})")
    if len(set(rows)) != len(rows):
        raise EngineFormError("engine.rows", "two candidates share a row: they could never "
                              "be told apart")
    missing = [a for a in attributes if a not in names]
    if missing:
        raise EngineFormError("engine.attributes", f"names {missing[:3]} not in 'variables'")


def from_record(record: dict[str, Any]) -> AttributeTableEngine:
    spec = record["engine"]
    return AttributeTableEngine(spec["attributes"], spec["candidates"], spec["rows"],
                                record["target"], record.get("observed"))
