"""Arithmetic engine: quantities defined by equations with + - * / over exact rationals.

Record form (``record["engine"]``)::

    {"kind": "arith", "equations": [["T", "B + P"], ["P", "B + F * B"]]}

Each equation ``[name, expression]`` defines one derived quantity from others (syntax in
`infoseek.engines.arith.expr`: + - * /, parentheses, integer/decimal constants, ``3/4`` is an
exact constant). ``record["variables"]`` lists every quantity; *leaves* are the ones no
equation defines. ``record["observed"]`` maps quantities (normally leaves, but a revealed
derived total is allowed) to exact rationals in the JSON encoding of `arith_expr`
(integers as JSON ints, other rationals as ``"p/q"`` strings). An optional
``"domains": {leaf: [values...]}`` switches to finite domains (tests, referee checks).

Semantics. A world gives every leaf a rational value; it is feasible iff every equation
is defined (no divisor evaluates to zero, in any equation) and every revealed quantity
has its revealed value. Values are `fractions.Fraction`; no float ever enters.

* Known is semantic: the target is Known iff all feasible worlds give it one value.
  ``y = 3 * B`` with B unknown is not Known (B ranges over Q); ``y = B - B + 4`` is.
* With ``domains`` (every leaf gets a finite list) the primitives are answered by
  enumerating the weakly connected component of the equation graph that holds the
  variable asked about (components are independent; the others are only checked for
  feasibility), so they equal the brute-force referee exactly.
* Without domains (real use) leaves range over Q and the answers are exact symbolic
  ones (`infoseek.engines.arith.symbolic`). A set of values that is infinite is returned as a
  `ManyValues`: a frozenset subclass holding two exact, attainable witness values, so
  ``len(...) != 1``, truthiness (feasible) and `is_known` keep working; check
  `is_unbounded` before treating it as the complete set. `domain(var)` is then
  `RATIONALS`, which answers membership but refuses to be listed, so generic code that
  would enumerate a domain (`analysis.feasible_rows`, `ordered_values`) fails loudly
  instead of silently. Sufficiency and the MSS search work through the exact
  `distinguishing_pair` fast path. Revealed derived quantities are solved for exactly
  by case analysis (`infoseek.engines.arith.solve`); when that meets a constraint it cannot
  split (an irreducible non-linear one such as ``B*B + C*C = 5``) and the decided cases
  do not settle the question, the engine raises `ArithUndecidable` instead of guessing.
  With only leaves revealed (the oracle reveals leaves), `target_values`,
  `variable_values` without a fixed target and the sufficiency of sets of leaves never
  raise it.

Why "the reduced target is a constant" is exactly Known over Q (leaves revealed): with
the revealed leaves substituted, every quantity is a rational function of the unrevealed
leaves, computed in the field QQ(leaves), which cancels every quotient (so ``B - B + 4``
is 4 and ``B * C / C`` is B, never a symbolic look-alike). The worlds excluded because
some divisor is zero lie on finitely many proper hypersurfaces (a divisor that is
identically zero is rejected when the engine is built, or makes the problem infeasible
once leaves are substituted), so the feasible worlds are dense in Q^n. A non-constant
rational function takes infinitely many values on a dense set, a constant one only its
constant; for example ``B / B`` is Known (= 1) because B = 0 is infeasible. The same
argument inside each branch covers revealed derived quantities (`arith_solve`).

Structure (networkx): `leaves`, `derived`, `goal_relevant_leaves` (leaves among the
target's ancestors), `ancestors`, `depth` (longest leaf-to-quantity path).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from fractions import Fraction
from typing import Any

import networkx as nx

from infoseek.engine import ANY, Assignment, Engine, World, is_unbounded
from infoseek.engines.arith.expr import (
    Node,
    encode_rational,
    evaluate,
    names_in,
    parse_expression,
    parse_rational,
)
from infoseek.engines.arith.rationals import RATIONALS, ManyValues
from infoseek.engines.arith.solve import ArithUndecidable

__all__ = [
    "RATIONALS",
    "ArithEngine",
    "ArithUndecidable",
    "ManyValues",
    "encode_rational",
    "is_unbounded",
    "parse_rational",
]


def _show(name: str, rhs: str) -> str:
    return f"'{name} = {rhs}'"


class ArithEngine(Engine):
    def __init__(
        self,
        variables: Sequence[str],
        equations: Sequence[Sequence[str]] | Mapping[str, str],
        observed: Mapping[str, Any],
        target: str,
        domains: Mapping[str, Sequence[Any]] | None = None,
    ) -> None:
        self.variables = tuple(variables)
        names = set(self.variables)
        if len(names) != len(self.variables):
            raise ValueError("duplicate variable names")
        if target not in names:
            raise ValueError(f"target {target!r} is not a variable")
        self.target = target
        pairs = list(equations.items()) if isinstance(equations, Mapping) else list(equations)
        self.equations: dict[str, str] = {}
        self.trees: dict[str, Node] = {}
        graph = nx.DiGraph()
        graph.add_nodes_from(self.variables)
        for i, pair in enumerate(pairs):
            if (not isinstance(pair, (list, tuple)) or len(pair) != 2
                    or not all(isinstance(p, str) for p in pair)):
                raise ValueError(f"equation {i}: expected [quantity, expression], got {pair!r}")
            name, rhs = pair[0].strip(), pair[1]
            if name not in names:
                raise ValueError(f"equation {_show(name, rhs)}: {name!r} is not a variable")
            if name in self.equations:
                raise ValueError(
                    f"quantity {name!r} is defined twice: {_show(name, self.equations[name])} "
                    f"and {_show(name, rhs)}")
            tree = parse_expression(rhs, f"equation {_show(name, rhs)}")
            for used in names_in(tree):
                if used not in names:
                    raise ValueError(f"equation {_show(name, rhs)} uses unknown quantity "
                                     f"{used!r}")
                graph.add_edge(used, name)
            self.equations[name] = rhs
            self.trees[name] = tree
        try:
            cycle = nx.find_cycle(graph)
        except nx.NetworkXNoCycle:
            cycle = None
        if cycle:
            path = " -> ".join([cycle[0][0]] + [v for _u, v in cycle])
            shown = ", ".join(_show(v, self.equations[v]) for _u, v in cycle)
            raise ValueError(f"the equations are cyclic: {path} (equations {shown})")
        self.graph = graph
        position = {v: i for i, v in enumerate(self.variables)}
        self.order: tuple[str, ...] = tuple(
            v for v in nx.lexicographical_topological_sort(graph, key=position.__getitem__)
            if v in self.trees
        )
        self.leaves: tuple[str, ...] = tuple(v for v in self.variables if v not in self.trees)
        self.derived: tuple[str, ...] = tuple(v for v in self.variables if v in self.trees)
        self.observed: dict[str, Fraction] = {}
        for name, value in observed.items():
            if name not in names:
                raise ValueError(f"observed quantity {name!r} is not a variable")
            self.observed[name] = parse_rational(value)

        from infoseek.engines.arith.symbolic import SymbolicWorlds

        self._symbolic = SymbolicWorlds(self)
        bad = self._symbolic.first_zero_divisor()
        if bad is not None:
            raise ValueError(f"equation {_show(bad, self.equations[bad])} divides by an "
                             "expression that is zero for every value of the leaves")
        self._finite = None
        if domains is not None:
            from infoseek.engines.arith.finite import FiniteWorlds

            self._finite = FiniteWorlds(self, domains)

    # ------------------------------------------------------------------ structure
    def is_leaf(self, name: str) -> bool:
        return name in self.graph and name not in self.trees

    def parents(self, name: str) -> list[str]:
        return names_in(self.trees[name]) if name in self.trees else []

    def constraint_scopes(self) -> list[tuple[str, ...]]:
        """The variables of each equation: the defined quantity, then its operands."""
        return [(name, *self.parents(name)) for name in self.equations]

    def ancestors(self, name: str) -> list[str]:
        found = nx.ancestors(self.graph, name)
        return [v for v in self.variables if v in found]

    def goal_relevant_leaves(self, name: str | None = None) -> list[str]:
        """Leaves among the ancestors of `name` (default: the target), variable order."""
        return [v for v in self.ancestors(name or self.target) if v not in self.trees]

    def depth(self, name: str | None = None) -> int:
        """Longest path (in equations) from a leaf to `name`; 0 for a leaf."""
        depth: dict[str, int] = {}
        for v in self.order:
            depth[v] = 1 + max((depth.get(p, 0) for p in self.parents(v)), default=-1)
        return depth.get(name or self.target, 0)

    def engine_spec(self) -> dict[str, Any]:
        """The serial form for ``record["engine"]``."""
        spec: dict[str, Any] = {"kind": "arith",
                                "equations": [[n, r] for n, r in self.equations.items()]}
        if self._finite is not None:
            spec["domains"] = {
                leaf: [encode_rational(v) for v in self._finite.domains[leaf]]
                for leaf in self.leaves
            }
        return spec

    # ------------------------------------------------------------------ evaluation
    def try_complete_world(self, leaf_values: Mapping[str, Any]) -> World | None:
        """Every quantity from the leaf values; None when some divisor is zero."""
        env: dict[str, Any] = {leaf: parse_rational(leaf_values[leaf]) for leaf in self.leaves}
        try:
            for name in self.order:
                env[name] = evaluate(self.trees[name], env)
        except ZeroDivisionError:
            return None
        return {v: env[v] for v in self.variables}

    def complete_world(self, leaf_values: Mapping[str, Any]) -> World:
        """Every quantity from the leaf values; ValueError naming an undefined equation."""
        missing = [leaf for leaf in self.leaves if leaf not in leaf_values]
        if missing:
            raise ValueError(f"the world gives no value to leaves {missing[:5]}")
        env: dict[str, Any] = {leaf: parse_rational(leaf_values[leaf]) for leaf in self.leaves}
        for name in self.order:
            try:
                env[name] = evaluate(self.trees[name], env)
            except ZeroDivisionError:
                raise ValueError(f"equation {_show(name, self.equations[name])} divides by "
                                 "zero in this world") from None
        return {v: env[v] for v in self.variables}

    def world_target(self, world: Mapping[str, Any]) -> Fraction:
        """The target's value in a world given by (at least) its relevant leaf values."""
        needed = set(self.ancestors(self.target)) | {self.target}
        env: dict[str, Any] = {}
        for leaf in self.leaves:
            if leaf in needed:
                if leaf not in world:
                    raise ValueError(f"the world gives no value to leaf {leaf!r}")
                env[leaf] = parse_rational(world[leaf])
        for name in self.order:
            if name in needed:
                try:
                    env[name] = evaluate(self.trees[name], env)
                except ZeroDivisionError:
                    raise ValueError(f"equation {_show(name, self.equations[name])} divides "
                                     "by zero in this world") from None
        return env[self.target]

    # ------------------------------------------------------------------ contract
    def _fixed(self, assignment: Assignment | None) -> dict[str, Fraction] | None:
        """A plus `assignment` as exact values; None when they contradict each other."""
        fixed = dict(self.observed)
        for name, value in (assignment or {}).items():
            if name not in self.graph:
                raise KeyError(f"{name!r} is not a variable")
            q = parse_rational(value)
            if fixed.get(name, q) != q:
                return None
            fixed[name] = q
        return fixed

    def domain(self, var: str) -> tuple[Any, ...]:
        if var not in self.graph:
            raise KeyError(var)
        if self._finite is None:
            return RATIONALS
        return self._finite.domain(var)

    def target_values(self, assignment: Assignment | None = None) -> frozenset:
        return self.variable_values(self.target, assignment)

    def variable_values(
        self, var: str, assignment: Assignment | None = None, target_value: Any = ANY
    ) -> frozenset:
        if var not in self.graph:
            raise KeyError(var)
        fixed = self._fixed(assignment)
        if fixed is None:
            return frozenset()
        if target_value is not ANY:
            value = parse_rational(target_value)
            if fixed.get(self.target, value) != value:
                return frozenset()
            fixed[self.target] = value
        if self._finite is not None:
            return self._finite.values(var, fixed)
        return self._symbolic.quantity_values(fixed, var)

    def distinguishing_pair(
        self, subset: Iterable[str], assignment: Assignment | None = None
    ) -> tuple[World, World] | None:
        subset = list(dict.fromkeys(subset))
        for name in subset:
            if name not in self.graph:
                raise KeyError(f"{name!r} is not a variable")
        fixed = self._fixed(assignment)
        if fixed is None:
            return None
        if self._finite is not None:
            return self._finite.distinguishing_pair(subset, fixed)
        return self._symbolic.distinguishing_pair(subset, fixed)


def from_record(record: dict[str, Any]) -> ArithEngine:
    """The engine of a record whose ``engine.kind`` is ``"arith"`` (`infoseek.engines`)."""
    spec = record["engine"]
    return ArithEngine(record["variables"], spec["equations"], record["observed"],
                       record["target"], domains=spec.get("domains"))


def check_record_form(record: dict[str, Any], names: set[str]) -> None:
    """The record check of the ``arith`` kind (`infoseek.engines`): the equations, and the
    hidden world and answer as exact numbers over known quantities."""
    from infoseek.engines import EngineFormError
    from infoseek.engines.arith.expr import parse_rational
    from infoseek.text import short_repr

    if not isinstance(record["engine"].get("equations"), (list, dict)):
        raise EngineFormError("engine.equations",
                              "must be a list of [quantity, expression] pairs")
    world = record.get("hidden_world")
    if world is None:
        raise EngineFormError("hidden_world", "is missing (every leaf quantity's value)")
    if not isinstance(world, dict):
        raise EngineFormError("hidden_world", "must be an object {quantity: value}")
    for field, values in (("observed", record["observed"]), ("hidden_world", world)):
        for name, value in values.items():
            if name not in names:
                raise EngineFormError(field, f"names unknown variable {short_repr(name)}")
            try:
                parse_rational(value)
            except ValueError:
                raise EngineFormError(field, f"value of {name!r} is not an exact number: "
                                             f"{short_repr(value)}") from None
    if "answer" not in record:
        raise EngineFormError("answer", "is missing")
    try:
        parse_rational(record["answer"])
    except ValueError:
        raise EngineFormError("answer", f"is not an exact number (7, \"7/2\" or \"3.5\"): "
                                        f"{short_repr(record['answer'])}") from None
