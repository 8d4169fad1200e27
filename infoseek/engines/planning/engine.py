"""The planning engine: Blocks World problems with a partially observed initial state and
the set of optimal plans as the target (protocols §5.2).

Variables are the (b+1)^2 atoms of b blocks (booleans, `infoseek.engines.planning.space
.atoms`), named without their brackets (``on a b``, ``handempty``: the generic readers set
edge punctuation aside, and prompts write them ``(on a b)``), plus the target ``plan``.
A feasible world is a valid full initial state (never a powerset of atoms: the valid
states are enumerated directly) that agrees with the observations, and the target's
value in it is the state's **set of optimal plans** to the goal, written as one text
(`GoalAnalysis.value_text`). So Known means: every full state consistent with what is
known has the same set of optimal plans. No search tie-break reaches a record, and an
answer is correct when it is any one of the true state's optimal plans
(`infoseek.engines.planning.plan_kind`). With ``"ties": "first_plan"`` in the engine spec
the value is instead the state's first optimal plan in operator-name order (`TIES`:
QuestBench's one BFS plan per state, the ordering pinned), and only that plan is correct.

Record form (besides the common fields of docs/contracts.md)::

    "engine": {"kind": "blocks-world", "blocks": 5, "goal": ["(on b a)", "(on c b)"]}

Every primitive filters the state array of the space with one mask comparison (numpy),
and `distinguishing_pair` groups the remaining states by their values on the subset, so
sufficiency, the MSS search, task-level k, the oracles and the reference strategies run
unchanged through the generic code. ``derivation_rounds`` is the length of the optimal
plans once they are Known (QuestBench's backward-search depth for Planning-Q: the
backward search from the goal reaches the state after that many expansions), and the
constraints (``constraint_scopes``) are the ground actions, each over the atoms it reads
or changes.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any

import numpy as np

from infoseek.engine import ANY, Assignment, Engine, World
from infoseek.engines import EngineFormError
from infoseek.engines.planning.pddl import MAX_BLOCKS, block_names
from infoseek.engines.planning.space import GoalAnalysis, atoms, goal_analysis

KIND = "blocks-world"
TARGET = "plan"
"""The target variable's name in every planning record."""
TIES = ("plan_set", "first_plan")
"""What a state's target value is: its set of optimal plans (the default), or its first
optimal plan in operator-name order (QuestBench's convention: one BFS plan per state, the
operator order pinned); a record's ``engine.ties``, absent for the default."""
BOOL_DOMAIN = (False, True)


def variable_name(atom: str) -> str:
    """The variable of an atom: ``(on a b)`` -> ``on a b``."""
    return atom[1:-1] if atom.startswith("(") and atom.endswith(")") else atom


def atom_text(variable: str) -> str:
    """The atom of a variable, as PDDL writes it: ``on a b`` -> ``(on a b)``."""
    return f"({variable})"


class PlanningEngine(Engine):
    """The engine of one Blocks World problem (module docstring)."""

    def __init__(self, blocks: int, goal: Sequence[str], observed: Mapping[str, Any],
                 target: str = TARGET, ties: str = TIES[0]) -> None:
        if ties not in TIES:
            raise ValueError(f"ties must be one of {', '.join(TIES)}; got {ties!r}")
        self.analysis: GoalAnalysis = goal_analysis(blocks, tuple(goal))
        self.ties = ties
        if ties == "plan_set":
            self._group, self._name, self._steps = (
                self.analysis.plan_set, self.analysis.value_text, self.analysis.steps)
        else:
            self._group, self._name, self._steps = (
                self.analysis.canonical, self.analysis.first_plan_text,
                self.analysis.first_steps)
        self.space = self.analysis.space
        self.blocks = blocks
        self.goal = tuple(goal)
        self.target = target
        self._bit = {variable_name(a): self.space.bit[a] for a in self.space.atoms}
        self.atom_variables = tuple(self._bit)
        self.variables = (*self.atom_variables, target)
        self.observed = dict(observed)
        self._atoms = set(self._bit)
        base = self._select(np.arange(len(self.space.masks)), self.observed)
        self._base = base if base is not None else np.zeros(0, dtype=np.int64)
        ids = np.unique(self._group[self._base]).tolist()
        texts = {self._name(i): i for i in ids}
        self._text_of = {i: text for text, i in texts.items()}
        self._id_of = texts
        self._domain = tuple(sorted(texts, key=lambda t: (self._steps(texts[t]), t)))

    # ----------------------------------------------------------------- selection

    def _select(self, indices: np.ndarray, assignment: Mapping[str, Any]) -> np.ndarray | None:
        """The states among `indices` that agree with `assignment` (atoms and, when
        given, the target); None when the assignment names an unknown variable or a value
        outside a domain."""
        mask = bits = 0
        wanted = ANY
        for var, value in assignment.items():
            if var == self.target:
                wanted = value
                continue
            if var not in self._atoms or not isinstance(value, bool | np.bool_):
                return None
            position = 1 << self._bit[var]
            mask |= position
            bits |= position if value else 0
        masks = self.space.masks[indices]
        chosen = indices[(masks & np.uint64(mask)) == np.uint64(bits)]
        if wanted is not ANY:
            number = self._id_of.get(wanted) if isinstance(wanted, str) else None
            if number is None:
                return chosen[:0]
            chosen = chosen[self._group[chosen] == number]
        return chosen

    def states(self, assignment: Assignment | None = None,
               target_value: Any = ANY) -> np.ndarray:
        """Indices (into the space) of the feasible full states under the observations,
        `assignment` and, when given, the target value."""
        merged = dict(assignment or {})
        for var, value in self.observed.items():
            if var in merged and merged[var] != value:
                return self._base[:0]
        if target_value is not ANY:
            if merged.get(self.target, target_value) != target_value:
                return self._base[:0]
            merged[self.target] = target_value
        chosen = self._select(self._base, {v: x for v, x in merged.items()
                                           if v not in self.observed})
        return self._base[:0] if chosen is None else chosen

    # ----------------------------------------------------------------- contract

    def domain(self, var: str) -> tuple[Any, ...]:
        """Booleans for an atom; for the target, the plan sets the observations leave
        possible (shortest plans first, then by text): no other value is feasible."""
        if var == self.target:
            return self._domain
        if var not in self._atoms:
            raise KeyError(f"unknown variable {var!r}")
        return BOOL_DOMAIN

    def target_values(self, assignment: Assignment | None = None) -> frozenset:
        chosen = self.states(assignment)
        return frozenset(self._text_of[i] for i in np.unique(
            self._group[chosen]).tolist())

    def variable_values(self, var: str, assignment: Assignment | None = None,
                        target_value: Any = ANY) -> frozenset:
        chosen = self.states(assignment, target_value)
        if not chosen.size:
            return frozenset()
        if var == self.target:
            return frozenset(self._text_of[i] for i in np.unique(
                self._group[chosen]).tolist())
        if var not in self._atoms:
            return frozenset()
        column = (self.space.masks[chosen] >> np.uint64(self._bit[var])) & np.uint64(1)
        return frozenset(bool(v) for v in np.unique(column).tolist())

    def world(self, index: int) -> World:
        """The full world of one state: every atom and the target."""
        mask = int(self.space.masks[index])
        out: World = {var: bool(mask >> bit & 1) for var, bit in self._bit.items()}
        group = int(self._group[index])
        out[self.target] = self._text_of.get(group) or self._name(group)
        return out

    def distinguishing_pair(self, subset: Iterable[str], assignment: Assignment | None = None
                            ) -> tuple[World, World] | None:
        """Two feasible states that agree on `subset` but have different sets of optimal
        plans, or None (exact: the states are grouped by their bits on the subset)."""
        chosen = self.states(assignment)
        if chosen.size < 2:
            return None
        mask = 0
        for var in dict.fromkeys(subset):
            if var in self._atoms:
                mask |= 1 << self._bit[var]
        keys = self.space.masks[chosen] & np.uint64(mask)
        ids = self._group[chosen]
        order = np.lexsort((ids, keys))
        keys, ids, chosen = keys[order], ids[order], chosen[order]
        boundary = np.flatnonzero(keys[1:] != keys[:-1]) + 1
        starts = np.concatenate(([0], boundary))
        ends = np.concatenate((boundary, [len(keys)])) - 1
        differing = np.flatnonzero(ids[starts] != ids[ends])
        if not differing.size:
            return None
        group = differing[0]
        return self.world(int(chosen[starts[group]])), self.world(int(chosen[ends[group]]))

    def constraint_scopes(self) -> list[tuple[str, ...]]:
        scopes = []
        for pre, add, delete in self.space.op_masks:
            touched = pre | add | delete
            scopes.append(tuple(v for v, bit in self._bit.items() if touched >> bit & 1))
        return scopes

    def derivation_rounds(self, assignment: Assignment | None = None) -> int | None:
        values = self.target_values(assignment)
        if len(values) != 1:
            return None
        return self._steps(self._id_of[next(iter(values))])

    # ----------------------------------------------------------------- plans

    def value_of_state(self, index: int) -> str:
        return self.world(index)[self.target]

    def steps_of(self, value: str) -> int | None:
        number = self._id_of.get(value)
        return None if number is None else self._steps(number)


def from_record(record: dict[str, Any]) -> PlanningEngine:
    """The engine factory registered for kind `KIND`."""
    spec = record["engine"]
    return PlanningEngine(spec["blocks"], spec["goal"], record["observed"], record["target"],
                          spec.get("ties", TIES[0]))


def check_record_form(record: dict[str, Any], names: set[str]) -> None:
    """The record check registered with the engine: a block count, a goal of known atoms,
    the variables exactly the atoms plus the target, observed atoms with boolean values."""
    spec = record["engine"]
    count = spec.get("blocks")
    if not isinstance(count, int) or isinstance(count, bool) or not 1 <= count <= MAX_BLOCKS:
        raise EngineFormError("engine", f"needs 'blocks', an integer from 1 to {MAX_BLOCKS}")
    listed = {variable_name(a) for a in atoms(count)}
    goal = spec.get("goal")
    if not isinstance(goal, list) or not goal or any(
            not isinstance(a, str) or variable_name(a) not in listed or a[:1] != "("
            for a in goal):
        raise EngineFormError("engine", f"needs 'goal', a non-empty list of atoms like "
                                        f"(on b a) over the blocks "
                                        f"{', '.join(block_names(count))}")
    if spec.get("ties", TIES[0]) not in TIES:
        raise EngineFormError("engine", f"'ties' must be one of {', '.join(TIES)} (absent: "
                                        f"{TIES[0]}); got {spec.get('ties')!r}")
    target = record["target"]
    if names != listed | {target}:
        raise EngineFormError("variables", f"must be the {len(listed)} atoms of {count} "
                                           f"blocks plus the target {target!r}")
    for var, value in record["observed"].items():
        if var not in listed or not isinstance(value, bool):
            raise EngineFormError("observed", f"must give atoms true or false; {var!r} = "
                                              f"{value!r}")
