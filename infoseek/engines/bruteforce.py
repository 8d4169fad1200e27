"""The brute-force referee: enumerate every full assignment over finite domains.

It is deliberately plain. It exists so that every fast engine and every generic
algorithm can be checked against definitions that are easy to read. Besides the
engine it offers referee versions of Known, sufficiency and the MSS family written
directly from protocols §1 (pairs of worlds), sharing no code with `analysis`.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any

from infoseek.engine import ANY, Assignment, Engine, World
from infoseek.engines.horn import BOOL_DOMAIN, parse_literal


class BruteForceEngine(Engine):
    def __init__(
        self,
        variables: Sequence[str],
        domains: Mapping[str, Sequence[Any]],
        constraint: Callable[[Mapping[str, Any]], bool],
        observed: Mapping[str, Any],
        target: str,
        max_worlds: int = 2_000_000,
    ) -> None:
        self.variables = tuple(variables)
        self.domains = {v: tuple(domains[v]) for v in self.variables}
        self.observed = dict(observed)
        self.target = target
        unknown = [v for v in [target, *self.observed] if v not in self.domains]
        if unknown:
            raise ValueError(f"unknown variable(s) {unknown} in target or observations")
        size = 1
        for v in self.variables:
            size *= 1 if v in self.observed else len(self.domains[v])
        if size > max_worlds:
            raise ValueError(f"{size} assignments exceed the referee's limit of {max_worlds}")
        self.worlds: list[World] = []
        # Observed variables range over their observed value only (an observed value
        # outside the domain leaves no world at all).
        ranges = [
            ((self.observed[v],) if self.observed[v] in self.domains[v] else ())
            if v in self.observed else self.domains[v]
            for v in self.variables
        ]
        for values in itertools.product(*ranges):
            world = dict(zip(self.variables, values))
            if constraint(world):
                self.worlds.append(world)

    @classmethod
    def from_worlds(
        cls, variables: Sequence[str], domains: Mapping[str, Sequence[Any]],
        observed: Mapping[str, Any], target: str, worlds: list[World],
    ) -> BruteForceEngine:
        """An engine over an already enumerated list of feasible worlds."""
        engine = cls.__new__(cls)
        engine.variables = tuple(variables)
        engine.domains = {v: tuple(domains[v]) for v in engine.variables}
        engine.observed = dict(observed)
        engine.target = target
        engine.worlds = list(worlds)
        return engine

    def domain(self, var: str) -> tuple[Any, ...]:
        return self.domains[var]

    def matching(self, assignment: Assignment | None) -> list[World]:
        items = list((assignment or {}).items())
        return [w for w in self.worlds if all(w[k] == v for k, v in items)]

    def target_values(self, assignment: Assignment | None = None) -> frozenset:
        return frozenset(w[self.target] for w in self.matching(assignment))

    def variable_values(
        self, var: str, assignment: Assignment | None = None, target_value: Any = ANY
    ) -> frozenset:
        worlds = self.matching(assignment)
        if target_value is not ANY:
            worlds = [w for w in worlds if w[self.target] == target_value]
        return frozenset(w[var] for w in worlds)


def horn_referee(
    variables: Sequence[str], clauses: Sequence[Sequence[str]], observed: Mapping[str, bool],
    target: str, max_worlds: int = 1 << 24,
) -> BruteForceEngine:
    """A brute-force engine over the same clauses a HornEngine reads.

    Every assignment of the unobserved variables is enumerated (in numpy blocks, so a
    problem with 20+ open variables stays practical) and checked against every clause.
    """
    import numpy as np

    parsed = [[parse_literal(lit) for lit in clause] for clause in clauses]
    names = set(variables)
    unknown = [v for v in [target, *observed, *(n for c in parsed for n, _ in c)]
               if v not in names]
    if unknown:
        raise ValueError(f"unknown variable(s) {sorted(set(unknown))} in the problem")
    open_vars = [v for v in variables if v not in observed]
    if (1 << len(open_vars)) > max_worlds:
        raise ValueError(f"2^{len(open_vars)} assignments exceed the referee's limit")
    column = {v: i for i, v in enumerate(open_vars)}
    feasible: list[World] = []
    block = 1 << 16
    total = 1 << len(open_vars)
    for start in range(0, total, block):
        codes = np.arange(start, min(total, start + block), dtype=np.int64)
        bits = ((codes[:, None] >> np.arange(len(open_vars), dtype=np.int64)) & 1).astype(bool)
        ok = np.ones(len(codes), dtype=bool)
        for clause in parsed:
            sat = np.zeros(len(codes), dtype=bool)
            for name, positive in clause:
                if name in observed:
                    if bool(observed[name]) == positive:
                        sat[:] = True
                        break
                else:
                    col = bits[:, column[name]]
                    sat |= col if positive else ~col
            ok &= sat
        for row in bits[ok]:
            world = {v: bool(observed[v]) for v in variables if v in observed}
            world.update({v: bool(row[column[v]]) for v in open_vars})
            feasible.append({v: world[v] for v in variables})
    return BruteForceEngine.from_worlds(
        variables, {v: BOOL_DOMAIN for v in variables}, observed, target, feasible
    )


# ---------------------------------------------------------------- referee definitions
def referee_known(engine: BruteForceEngine, assignment: Assignment | None = None) -> bool:
    return len({w[engine.target] for w in engine.matching(assignment)}) == 1


def referee_sufficient(
    engine: BruteForceEngine, subset: Iterable[str], assignment: Assignment | None = None
) -> bool:
    """No two feasible worlds agree on `subset` yet differ on the target."""
    subset = list(subset)
    seen: dict[tuple, Any] = {}
    worlds = engine.matching(assignment)
    if not worlds:
        return False
    for w in worlds:
        key = tuple(w[v] for v in subset)
        if key in seen and seen[key] != w[engine.target]:
            return False
        seen.setdefault(key, w[engine.target])
    return True


def referee_mss_family(
    engine: BruteForceEngine, candidates: Sequence[str], max_k: int,
    assignment: Assignment | None = None,
) -> tuple[int | None, list[tuple[str, ...]]]:
    """Smallest k with a sufficient k-subset of `candidates`, and all such subsets."""
    for k in range(0, max_k + 1):
        family = [
            tuple(sorted(s))
            for s in itertools.combinations(candidates, k)
            if referee_sufficient(engine, s, assignment)
        ]
        if family:
            return k, sorted(family)
    return None, []
