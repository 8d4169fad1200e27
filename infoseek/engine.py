"""The engine contract every constraint kind implements.

An engine holds the constraints C, the observed assignment A and the target Y of one
problem. Two primitives are enough for every generic algorithm:

* `target_values(assignment)`: the values Y can still take under A plus `assignment`
  (an empty set means the assignment is infeasible);
* `variable_values(var, assignment, target_value)`: the values `var` can still take,
  optionally with the target fixed to one value.

An engine may also offer `distinguishing_pair(subset, assignment)`, an exact fast path
used by the MSS search: two feasible full worlds that agree on `subset` (and on
`assignment`) but give the target different values, or None when no such pair exists.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any


class _AnyValue:
    """Sentinel meaning "the target is not fixed"."""

    _instance: _AnyValue | None = None

    def __new__(cls) -> _AnyValue:
        if cls._instance is None:
            cls._instance = super().__new__(cls)
        return cls._instance

    def __repr__(self) -> str:
        return "ANY"


ANY: Any = _AnyValue()

Assignment = Mapping[str, Any]
World = dict[str, Any]


class Engine:
    """Base class documenting the contract; subclasses implement the primitives."""

    variables: tuple[str, ...]
    target: str
    observed: dict[str, Any]

    def domain(self, var: str) -> tuple[Any, ...]:
        raise NotImplementedError

    def target_values(self, assignment: Assignment | None = None) -> frozenset:
        raise NotImplementedError

    def variable_values(
        self, var: str, assignment: Assignment | None = None, target_value: Any = ANY
    ) -> frozenset:
        raise NotImplementedError

    # Optional fast path; engines that cannot provide it leave it returning NotImplemented.
    def distinguishing_pair(
        self, subset: Iterable[str], assignment: Assignment | None = None
    ) -> tuple[World, World] | None:
        return NotImplemented  # type: ignore[return-value]

    # Convenience wrappers shared by every engine.
    def is_known(self, assignment: Assignment | None = None) -> bool:
        return len(self.target_values(assignment)) == 1

    def is_feasible(self, assignment: Assignment | None = None) -> bool:
        return bool(self.target_values(assignment))

    def unobserved(self) -> list[str]:
        """Variables that are neither observed nor the target, in engine order."""
        return [v for v in self.variables if v not in self.observed and v != self.target]


def ordered_values(values: Iterable[Any], domain: Sequence[Any]) -> list[Any]:
    """Return `values` in the order of `domain` (deterministic, never set order)."""
    present = set(values)
    return [v for v in domain if v in present]
