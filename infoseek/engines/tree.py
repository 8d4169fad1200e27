"""The decision-tree engine: a guideline tree as a constraint problem.

A tree's internal nodes ask a variable; each outgoing edge carries one or more of its
values (a node's edges split the variable's values: disjoint, covering them all); leaves
are recommendations, unique within the tree. A full world assigns every variable a value
and the target the leaf that the tree reaches by following those values from the root.
No variable repeats on a root-to-leaf path, so a path is feasible under a partial
assignment iff every assigned variable on it takes a value of the path's edge; variables
off the path are free. Variables outside the tree ("fixed": distractors from other
trees) each hold one given value in every world, so they never affect the target.

Record form (besides the common fields of docs/contracts.md)::

    "engine": {"kind": "decision-tree",
               "tree": {"ask": "Pain duration",
                        "branches": [{"values": ["under 6 weeks"], "then": {"leaf": "A"}},
                                     {"values": ["6 weeks or more"], "then": {...}}]},
               "domains": {"Pain duration": ["under 6 weeks", "6 weeks or more"], ...},
               "fixed": {"Distractor name": "its value"}}

``domains`` gives every variable but the target its values, in order; the target's
domain is the tree's leaves in depth-first order. The primitives enumerate the
root-to-leaf paths (a guideline tree has tens of leaves), and `distinguishing_pair` gives
the exact fast path of the MSS search: two feasible worlds reaching different leaves that
agree on a subset exist iff two feasible paths to different leaves can be given common
values on every variable of the subset.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from infoseek.engine import ANY, Assignment, Engine, World
from infoseek.engines import EngineFormError

KIND = "decision-tree"

Step = tuple[str, frozenset]
"""One edge of a path: the variable asked and the values of the edge taken."""


def tree_paths(node: Mapping[str, Any]) -> list[tuple[tuple[Step, ...], str]]:
    """Every root-to-leaf path of a tree node as (steps, leaf), depth first in branch
    order."""
    out: list[tuple[tuple[Step, ...], str]] = []

    def walk(current: Mapping[str, Any], steps: tuple[Step, ...]) -> None:
        if "leaf" in current:
            out.append((steps, current["leaf"]))
            return
        for branch in current["branches"]:
            walk(branch["then"], (*steps, (current["ask"], frozenset(branch["values"]))))

    walk(node, ())
    return out


class DecisionTreeEngine(Engine):
    """The engine of one decision tree plus fixed outside variables (module docstring)."""

    def __init__(self, tree: Mapping[str, Any], domains: Mapping[str, Sequence[Any]],
                 fixed: Mapping[str, Any], observed: Mapping[str, Any],
                 target: str) -> None:
        self.paths = tree_paths(tree)
        leaves = tuple(leaf for _, leaf in self.paths)
        if len(set(leaves)) != len(leaves):
            raise ValueError("the tree's leaves must be unique")
        self.target = target
        self._domains: dict[str, tuple[Any, ...]] = {v: tuple(d) for v, d in domains.items()}
        self._domains[target] = leaves
        self.variables = (*domains, target)
        self.fixed = dict(fixed)
        self.observed = dict(observed)
        self._on_path = [dict(steps) for steps, _ in self.paths]

    def domain(self, var: str) -> tuple[Any, ...]:
        return self._domains[var]

    def _merged(self, assignment: Assignment | None) -> dict[str, Any] | None:
        """Observed values plus `assignment`; None when they clash, leave a domain or
        contradict a fixed variable."""
        merged = dict(self.observed)
        for var, value in (assignment or {}).items():
            if var not in self._domains or value not in self._domains[var]:
                return None
            if var in merged and merged[var] != value:
                return None
            merged[var] = value
        for var, value in merged.items():
            if var in self.fixed and self.fixed[var] != value:
                return None
        return merged

    def _feasible_paths(self, merged: Mapping[str, Any]) -> list[int]:
        """Indices of the paths every assigned variable (and the target) agrees with."""
        wanted = merged.get(self.target, ANY)
        found = []
        for index, (on_path, (_, leaf)) in enumerate(zip(self._on_path, self.paths)):
            if wanted is not ANY and leaf != wanted:
                continue
            if all(merged[var] in values for var, values in on_path.items() if var in merged):
                found.append(index)
        return found

    def target_values(self, assignment: Assignment | None = None) -> frozenset:
        merged = self._merged(assignment)
        if merged is None:
            return frozenset()
        return frozenset(self.paths[i][1] for i in self._feasible_paths(merged))

    def variable_values(self, var: str, assignment: Assignment | None = None,
                        target_value: Any = ANY) -> frozenset:
        merged = self._merged(assignment)
        if merged is None:
            return frozenset()
        if target_value is not ANY:
            if merged.get(self.target, target_value) != target_value:
                return frozenset()
            merged[self.target] = target_value
        feasible = self._feasible_paths(merged)
        if not feasible:
            return frozenset()
        if var == self.target:
            return frozenset(self.paths[i][1] for i in feasible)
        if var in merged:
            return frozenset((merged[var],))
        if var in self.fixed:
            return frozenset((self.fixed[var],))
        values: set[Any] = set()
        for index in feasible:
            values.update(self._on_path[index].get(var, self._domains[var]))
        return frozenset(values)

    def _allowed(self, var: str, merged: Mapping[str, Any], index: int) -> list[Any]:
        """The values `var` may take in a world following path `index`, domain order."""
        if var in merged:
            return [merged[var]]
        if var in self.fixed:
            return [self.fixed[var]]
        edge = self._on_path[index].get(var)
        return [v for v in self._domains[var] if edge is None or v in edge]

    def distinguishing_pair(self, subset: Iterable[str],
                            assignment: Assignment | None = None
                            ) -> tuple[World, World] | None:
        """Two feasible worlds that agree on `subset` (and `assignment`) but reach
        different leaves, or None: exact, by trying every pair of feasible paths."""
        merged = self._merged(assignment)
        if merged is None:
            return None
        chosen = [v for v in dict.fromkeys(subset) if v != self.target]
        feasible = self._feasible_paths(merged)
        for position, first in enumerate(feasible):
            for second in feasible[position + 1:]:
                if self.paths[first][1] == self.paths[second][1]:
                    continue
                pair = self._pair(first, second, chosen, merged)
                if pair is not None:
                    return pair
        return None

    def _pair(self, first: int, second: int, chosen: Sequence[str],
              merged: Mapping[str, Any]) -> tuple[World, World] | None:
        worlds: tuple[World, World] = ({}, {})
        for var in self.variables:
            if var == self.target:
                continue
            one = self._allowed(var, merged, first)
            two = self._allowed(var, merged, second)
            common = [v for v in one if v in two]
            if common:  # agree wherever the paths allow: small difference sets
                worlds[0][var] = worlds[1][var] = common[0]
            elif var in chosen:
                return None
            else:
                worlds[0][var], worlds[1][var] = one[0], two[0]
        worlds[0][self.target] = self.paths[first][1]
        worlds[1][self.target] = self.paths[second][1]
        return worlds


def from_record(record: dict[str, Any]) -> DecisionTreeEngine:
    """The engine factory registered for kind `KIND`."""
    spec = record["engine"]
    return DecisionTreeEngine(spec["tree"], spec["domains"], spec.get("fixed", {}),
                              record["observed"], record["target"])


def check_record_form(record: dict[str, Any], names: set[str]) -> None:
    """The record check registered with the engine: the tree's shape (every branch ends
    in a leaf, a node's edges split its variable's values, no variable repeats on a path,
    unique leaves), domains for every variable but the target, fixed and observed values
    inside their domains."""
    spec = record["engine"]
    target = record["target"]
    domains = spec.get("domains")
    if not isinstance(domains, dict) or not all(
            isinstance(v, list) and v for v in domains.values()):
        raise EngineFormError("engine", "needs 'domains', {variable: [values]}")
    expected = names - {target}
    if set(domains) != expected:
        raise EngineFormError("engine", f"'domains' must list exactly the variables other "
                                        f"than the target; differs on "
                                        f"{sorted(set(domains) ^ expected)[:5]}")
    tree = spec.get("tree")
    if not isinstance(tree, dict):
        raise EngineFormError("engine", "needs 'tree', a node object")
    leaves: list[str] = []
    _check_node(tree, domains, (), leaves)
    if len(set(leaves)) != len(leaves):
        raise EngineFormError("engine", "the tree's leaves must be unique")
    fixed = spec.get("fixed", {})
    if not isinstance(fixed, dict):
        raise EngineFormError("engine", "'fixed' must be an object {variable: value}")
    asked = {step for steps, _ in tree_paths(tree) for step, _ in steps}
    for var, value in fixed.items():
        if var not in domains or value not in domains[var] or var in asked:
            raise EngineFormError("engine", f"'fixed' must give variables outside the "
                                            f"tree a value of their domain; {var!r}")
    for var, value in record["observed"].items():
        if var == target or value not in domains.get(var, ()):
            raise EngineFormError("observed", f"must give values of the variables' "
                                              f"domains; {var!r} = {value!r}")
    values = record.get("target_values")
    if not isinstance(values, list) or not values or any(v not in leaves for v in values):
        raise EngineFormError("target_values", "must be a non-empty list of the tree's "
                                               "leaves")


def _check_node(node: Any, domains: Mapping[str, list], path: tuple[str, ...],
                leaves: list[str]) -> None:
    if not isinstance(node, dict):
        raise EngineFormError("engine", f"a tree node must be an object (under {path})")
    if "leaf" in node:
        if not isinstance(node["leaf"], str) or not node["leaf"]:
            raise EngineFormError("engine", f"a leaf must be a non-empty text (under {path})")
        leaves.append(node["leaf"])
        return
    var, branches = node.get("ask"), node.get("branches")
    if var not in domains or var in path:
        raise EngineFormError("engine", f"a node must ask a variable with a domain, not "
                                        f"repeated on its path; got {var!r} under {path}")
    if not isinstance(branches, list) or len(branches) < 2:
        raise EngineFormError("engine", f"node {var!r} needs two or more branches")
    seen: list[Any] = []
    for branch in branches:
        values = branch.get("values") if isinstance(branch, dict) else None
        if not isinstance(values, list) or not values or "then" not in branch:
            raise EngineFormError("engine", f"a branch of {var!r} needs 'values' and 'then'")
        seen.extend(values)
        _check_node(branch["then"], domains, (*path, var), leaves)
    if sorted(map(str, seen)) != sorted(map(str, domains[var])) or len(set(seen)) != len(seen):
        raise EngineFormError("engine", f"the branches of {var!r} must split its values "
                                        f"{domains[var]} (disjoint, covering); got {seen}")
