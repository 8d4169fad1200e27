"""The arithmetic engine over finite leaf domains: exact enumeration, component by component.

Quantities in different weakly connected components of the equation graph share no
equation, so the feasible worlds are the product of the feasible worlds of each
component. A question about one variable enumerates only that variable's component (and
the target's, when the target is fixed); every other component only has to be
feasible, which is cached. The result equals the brute-force referee's by construction.
"""

from __future__ import annotations

import itertools
from collections.abc import Mapping, Sequence
from fractions import Fraction
from typing import Any

import networkx as nx

from infoseek.engines.arith.expr import evaluate, parse_rational
from infoseek.engines.arith.system import EquationSystem

_CACHE_LIMIT = 8192


class FiniteWorlds:
    def __init__(self, engine: EquationSystem, domains: Mapping[str, Sequence[Any]]) -> None:
        self.engine = engine
        extra = [v for v in domains if v not in engine.graph or v in engine.trees]
        if extra:
            raise ValueError(f"domains are given for leaves only; not leaves: {extra[:5]}")
        missing = [leaf for leaf in engine.leaves if leaf not in domains]
        if missing:
            raise ValueError(f"leaves without a domain: {missing[:5]}")
        self.domains: dict[str, tuple[Fraction, ...]] = {}
        for leaf in engine.leaves:
            values = [parse_rational(v) for v in domains[leaf]]
            self.domains[leaf] = tuple(dict.fromkeys(values))
        position = {v: i for i, v in enumerate(engine.variables)}
        self.components: list[list[str]] = sorted(
            (sorted(c, key=position.__getitem__)
             for c in nx.weakly_connected_components(engine.graph)),
            key=lambda c: position[c[0]],
        )
        self.component_of = {v: i for i, c in enumerate(self.components) for v in c}
        self._worlds: dict[int, list[dict[str, Fraction]]] = {}
        self._matching: dict[Any, list[dict[str, Fraction]]] = {}

    def worlds(self, index: int) -> list[dict[str, Fraction]]:
        """Feasible worlds of one component under the observations (cached)."""
        if index in self._worlds:
            return self._worlds[index]
        engine = self.engine
        members = set(self.components[index])
        leaves = [v for v in engine.leaves if v in members]
        derived = [v for v in engine.order if v in members]
        observed = engine.observed
        ranges = [
            ((observed[v],) if observed[v] in self.domains[v] else ())
            if v in observed else self.domains[v]
            for v in leaves
        ]
        found: list[dict[str, Fraction]] = []
        for values in itertools.product(*ranges):
            env = dict(zip(leaves, values))
            try:
                for name in derived:
                    env[name] = evaluate(engine.trees[name], env)
            except ZeroDivisionError:
                continue
            if all(env[v] == observed[v] for v in derived if v in observed):
                found.append(env)
        self._worlds[index] = found
        return found

    def matching(self, index: int, fixed: dict[str, Fraction]) -> list[dict[str, Fraction]]:
        members = self.components[index]
        items = tuple((v, fixed[v]) for v in members if v in fixed)
        key = (index, items)
        if key not in self._matching:
            if len(self._matching) > _CACHE_LIMIT:
                self._matching.clear()
            self._matching[key] = [
                w for w in self.worlds(index) if all(w[v] == value for v, value in items)
            ]
        return self._matching[key]

    def feasible(self, fixed: dict[str, Fraction]) -> bool:
        return all(self.matching(i, fixed) for i in range(len(self.components)))

    # ------------------------------------------------------------------ primitives
    def domain(self, var: str) -> tuple[Fraction, ...]:
        if var in self.domains:
            return self.domains[var]
        index = self.component_of[var]
        return tuple(sorted({w[var] for w in self.worlds(index)}))

    def values(self, var: str, fixed: dict[str, Fraction]) -> frozenset:
        if not self.feasible(fixed):
            return frozenset()
        return frozenset(w[var] for w in self.matching(self.component_of[var], fixed))

    def distinguishing_pair(
        self, subset: Sequence[str], fixed: dict[str, Fraction]
    ) -> tuple[dict, dict] | None:
        if not self.feasible(fixed):
            return None
        target = self.engine.target
        index = self.component_of[target]
        keys = [v for v in self.components[index] if v in subset]
        groups: dict[tuple, list[dict[str, Fraction]]] = {}
        for w in self.matching(index, fixed):
            groups.setdefault(tuple(w[v] for v in keys), []).append(w)
        best: tuple[int, dict, dict] | None = None
        for group in groups.values():
            first = group[0]
            for other in group[1:]:
                if other[target] != first[target]:
                    cost = sum(first[v] != other[v] for v in first)
                    if best is None or cost < best[0]:
                        best = (cost, first, other)
        if best is None:
            return None
        rest: dict[str, Fraction] = {}
        for i in range(len(self.components)):
            if i != index:
                rest.update(self.matching(i, fixed)[0])
        order = self.engine.variables
        w1 = {**rest, **best[1]}
        w2 = {**rest, **best[2]}
        return {v: w1[v] for v in order}, {v: w2[v] for v in order}
