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
from fractions import Fraction
from numbers import Real
from typing import Any

from infoseek import contract


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

    # Optional structure: the variables each constraint mentions (the constraint graph
    # the single-turn difficulty axes and backward search read). None: not exposed.
    def constraint_scopes(self) -> list[tuple[str, ...]] | None:
        return None

    # Optional structure: how many rounds of the engine's own propagation (each round
    # applies every constraint once, in both directions, to the values fixed so far)
    # derive the target's value from the observations plus `assignment`; None when
    # propagation alone does not fix it. Equal to the height of the shallowest backward
    # derivation (QuestBench's backward-search depth, `infoseek.single_turn`).
    # NotImplemented: not exposed (the single-turn search falls back to the graph).
    def derivation_rounds(self, assignment: Assignment | None = None) -> int | None:
        return NotImplemented  # type: ignore[return-value]

    # Convenience wrappers shared by every engine.
    def is_known(self, assignment: Assignment | None = None) -> bool:
        return len(self.target_values(assignment)) == 1

    def is_feasible(self, assignment: Assignment | None = None) -> bool:
        return bool(self.target_values(assignment))

    def unobserved(self) -> list[str]:
        """Variables that are neither observed nor the target, in engine order."""
        return [v for v in self.variables if v not in self.observed and v != self.target]


UNBOUNDED = contract.UNBOUNDED
"""JSON marker for "infinitely many values are possible" (turn records, store)."""


def is_unbounded(values: Any) -> bool:
    """Whether an engine's value set stands for infinitely many values.

    Engines over infinite domains (the arithmetic engine over the rationals) return a
    frozenset subclass with a true ``unbounded`` attribute holding only witnesses."""
    return bool(getattr(values, "unbounded", False))


def is_listable(domain: Any) -> bool:
    """Whether a domain can be enumerated (finite engines: a tuple of values)."""
    try:
        iter(domain)
    except TypeError:
        return False
    return True


class UnboundedDomainError(ValueError):
    """Generic code tried to enumerate values that are infinitely many."""


def require_enumerable(values: Any, var: str) -> Any:
    """`values` unchanged; UnboundedDomainError when they stand for infinitely many."""
    if is_unbounded(values):
        raise UnboundedDomainError(
            f"cannot enumerate the values of {var!r}: infinitely many are possible "
            "(unbounded domain); use an engine with finite domains or its "
            "distinguishing_pair fast path")
    return values


def _sort_key(value: Any) -> tuple[str, Any]:
    if isinstance(value, bool):
        return ("0bool", int(value))
    if isinstance(value, Real):
        return ("1num", value)
    return ("2" + type(value).__name__, repr(value))


def ordered_values(values: Iterable[Any], domain: Sequence[Any]) -> list[Any]:
    """Return `values` in the order of `domain` (deterministic, never set order).

    When the domain cannot be listed (unbounded, e.g. the rationals), the values are
    sorted instead (numbers ascending, other types grouped by type name). For an
    unbounded value set this lists only its witnesses; check `is_unbounded` first."""
    if not is_listable(domain):
        return sorted(values, key=_sort_key)
    present = set(values)
    return [v for v in domain if v in present]


def json_value(value: Any) -> Any:
    """A JSON-safe form of one engine value: exact non-integral rationals become
    ``"p/q"`` strings and integral ones ints (the `arith_expr` encoding); booleans,
    ints, strings and other values are returned unchanged."""
    if isinstance(value, Fraction):
        return int(value) if value.denominator == 1 else f"{value.numerator}/{value.denominator}"
    return value


def possible_values_record(values: Any, domain: Any) -> Any:
    """The JSON form of a set of still-possible values for turn records and the store:
    the list of values in domain order (JSON-safe), or `UNBOUNDED` ("many") when the
    engine says infinitely many are possible."""
    if is_unbounded(values):
        return UNBOUNDED
    return [json_value(v) for v in ordered_values(values, domain)]
