"""What the world finders (`finite.FiniteWorlds`, `symbolic.SymbolicWorlds`) read of the
arithmetic engine: a structural type, so that they need not import the engine that builds
them (`ArithEngine` satisfies it)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, Protocol

from infoseek.engine import World


class EquationSystem(Protocol):
    """An equation system over named quantities: leaves (free), derived quantities (each
    with its expression tree), their order of evaluation and dependency graph."""

    target: str
    observed: Mapping[str, Any]
    variables: Sequence[str]
    leaves: Sequence[str]
    derived: Sequence[str]
    order: Sequence[str]
    trees: Mapping[str, Any]
    graph: Any

    def ancestors(self, name: str) -> list[str]: ...

    def try_complete_world(self, leaf_values: Mapping[str, Any]) -> World | None: ...
