"""The Blocks World state space of n blocks, enumerated directly, and one backward
breadth-first search per goal that gives every state's distance and optimal plans.

States. A valid state puts every block on the table, on exactly one other block, or in
the arm, with no cycles, at most one block on any block and at most one block held. With
the arm empty, a state is a set of towers; adding the blocks one at a time (a new tower,
or inserted at any height of an existing tower) makes each set of towers exactly once,
which gives a(n) = sum_k C(n-1, k-1) n!/k! states (73, 501, 4,051, 37,633 for n = 4..7);
holding a block h leaves the other n - 1 blocks arm-empty: n a(n-1) states (52, 365,
3,006, 28,357). A state is the full assignment of the (n+1)^2 atoms (`atoms`), stored as
a bitmask (bit i = atom i, atoms sorted by name); states are sorted by mask, so a state's
index is fixed by n alone. No powerset of atoms is ever formed.

Dynamics. The ground operators come from the project's PDDL domain through pyperplan
(`infoseek.engines.planning.pddl`, sorted by name); each becomes three masks
(precondition, add, delete) and all transitions are computed at once over the state
array. Blocks World is connected, so every state reaches every satisfiable goal.

Goals. `goal_analysis` runs one backward BFS from the goal states over the reversed
transitions: ``dist[s]`` is the length of s's optimal plans. An edge s -a-> t is optimal
iff ``dist[t] = dist[s] - 1``; the optimal plans of s are the paths of optimal edges to
the goal. The **set** of optimal plans of s is the target value of the planning engine.
Two states have the same set iff their optimal first actions are the same and, for each,
the successors have the same set (actions are deterministic, so a set splits by first
action into the successors' sets). Interning ``(action, id of the successor's set)``
tuples in order of distance therefore numbers the distinct sets exactly (no hashing, no
tie-break). Each set is named by its representative, the first state (lowest index) that
has it; `value_text` writes the engine value from it. ``canonical[s]`` numbers the
lexicographically first optimal plan of s the same way: the "one plan per state"
convention of the published generator (one BFS plan per state, with the operator order
pinned to name order), the target of the engine's ``ties = first_plan`` mode.
"""

from __future__ import annotations

import functools
import re
from dataclasses import dataclass

import numpy as np

from infoseek.engines.planning.pddl import block_names, ground_operators

_ATOM = re.compile(r"\((?:on [a-z] [a-z]|ontable [a-z]|clear [a-z]|holding [a-z]|handempty)\)")


def atoms(count: int) -> tuple[str, ...]:
    """Every atom over `count` blocks, sorted: (b+1)^2 of them."""
    blocks = block_names(count)
    found = ["(handempty)"]
    for x in blocks:
        found += [f"(clear {x})", f"(holding {x})", f"(ontable {x})"]
        found += [f"(on {x} {y})" for y in blocks if y != x]
    return tuple(sorted(found))


def tower_sets(blocks: tuple[str, ...]) -> list[tuple[tuple[str, ...], ...]]:
    """Every set of towers (bottom first) over `blocks`, each exactly once."""
    configurations: list[list[tuple[str, ...]]] = [[]]
    for block in blocks:
        grown: list[list[tuple[str, ...]]] = []
        for towers in configurations:
            grown.append([*towers, (block,)])
            for index, tower in enumerate(towers):
                for height in range(len(tower) + 1):
                    changed = list(towers)
                    changed[index] = (*tower[:height], block, *tower[height:])
                    grown.append(changed)
        configurations = grown
    return [tuple(towers) for towers in configurations]


def state_atoms(towers: tuple[tuple[str, ...], ...], held: str | None) -> list[str]:
    """The true atoms of a state given by its towers and the held block (or None)."""
    true = ["(handempty)"] if held is None else [f"(holding {held})"]
    for tower in towers:
        true.append(f"(ontable {tower[0]})")
        true += [f"(on {top} {below})" for below, top in zip(tower, tower[1:])]
        true.append(f"(clear {tower[-1]})")
    return true


@dataclass(frozen=True)
class BlocksSpace:
    """Every valid state of `count` blocks and every transition between them."""

    count: int
    atoms: tuple[str, ...]
    bit: dict[str, int]
    masks: np.ndarray          # uint64, sorted: the states
    holding: np.ndarray        # bool: the arm holds a block
    operators: tuple[str, ...]  # names, sorted
    op_masks: tuple[tuple[int, int, int], ...]  # (pre, add, del) per operator
    edge_src: np.ndarray
    edge_op: np.ndarray
    edge_dst: np.ndarray

    def mask_of(self, true_atoms) -> int:
        mask = 0
        for atom in true_atoms:
            mask |= 1 << self.bit[atom]
        return mask

    def true_atoms(self, index: int) -> list[str]:
        mask = int(self.masks[index])
        return [a for a in self.atoms if mask >> self.bit[a] & 1]

    def index_of(self, mask: int) -> int | None:
        position = int(np.searchsorted(self.masks, np.uint64(mask)))
        if position < len(self.masks) and int(self.masks[position]) == mask:
            return position
        return None

    def apply(self, mask: int, operator: int) -> int | None:
        """The successor of a state under an operator, or None when it does not apply."""
        pre, add, delete = self.op_masks[operator]
        if mask & pre != pre:
            return None
        return (mask & ~delete) | add


@functools.lru_cache(maxsize=8)
def blocks_space(count: int) -> BlocksSpace:
    """The state space of `count` blocks (module docstring); cached per process."""
    blocks = block_names(count)
    names = atoms(count)
    bit = {atom: i for i, atom in enumerate(names)}

    def mask(true: list[str]) -> int:
        value = 0
        for atom in true:
            value |= 1 << bit[atom]
        return value

    found = [mask(state_atoms(towers, None)) for towers in tower_sets(blocks)]
    for held in blocks:
        rest = tuple(b for b in blocks if b != held)
        found += [mask(state_atoms(towers, held)) for towers in tower_sets(rest)]
    masks = np.array(sorted(found), dtype=np.uint64)
    operators = ground_operators(count)
    op_masks = tuple((mask(list(op.preconditions)), mask(list(op.add_effects)),
                      mask(list(op.del_effects))) for op in operators)
    sources, ops, targets = [], [], []
    for number, (pre, add, delete) in enumerate(op_masks):
        pre64, add64, keep64 = np.uint64(pre), np.uint64(add), np.uint64(~delete & (2**64 - 1))
        applicable = np.nonzero((masks & pre64) == pre64)[0]
        successors = (masks[applicable] & keep64) | add64
        where = np.searchsorted(masks, successors)
        if applicable.size and (np.any(where >= len(masks))
                                or np.any(masks[np.minimum(where, len(masks) - 1)]
                                          != successors)):
            raise AssertionError(f"{operators[number].name} leaves the valid states")
        sources.append(applicable)
        ops.append(np.full(applicable.size, number, dtype=np.int32))
        targets.append(where)
    hand = np.uint64(1 << bit["(handempty)"])
    return BlocksSpace(count=count, atoms=names, bit=bit, masks=masks,
                       holding=(masks & hand) == 0,
                       operators=tuple(op.name for op in operators), op_masks=op_masks,
                       edge_src=np.concatenate(sources).astype(np.int64),
                       edge_op=np.concatenate(ops),
                       edge_dst=np.concatenate(targets).astype(np.int64))


def parse_atoms(text: str) -> list[str]:
    """The atoms written in `text`, in order (``(on a b)`` ...)."""
    return _ATOM.findall(text)


@dataclass(frozen=True)
class GoalAnalysis:
    """Distances and optimal-plan sets of every state for one goal."""

    space: BlocksSpace
    goal: tuple[str, ...]
    dist: np.ndarray           # int32 per state
    plan_set: np.ndarray       # int32 per state: id of its set of optimal plans
    canonical: np.ndarray      # int32 per state: id of its first optimal plan
    representative: tuple[int, ...]   # per plan-set id: the lowest state index having it
    plan_count: tuple[int, ...]       # per plan-set id: how many optimal plans
    first_representative: tuple[int, ...]  # per first-plan id: the lowest state index
    optimal_start: np.ndarray  # CSR offsets of each state's optimal edges
    optimal_op: np.ndarray
    optimal_dst: np.ndarray

    def steps(self, plan_set: int) -> int:
        return int(self.dist[self.representative[plan_set]])

    def value_text(self, plan_set: int) -> str:
        """The engine value of a plan set (module docstring; `parse_value` reads it)."""
        state = " ".join(self.space.true_atoms(self.representative[plan_set]))
        count, steps = self.plan_count[plan_set], self.steps(plan_set)
        return (f"goal {' '.join(self.goal)} from {state}: {count} optimal "
                f"plan{'s' if count != 1 else ''} of {steps} step{'s' if steps != 1 else ''}")

    def first_steps(self, first: int) -> int:
        """The length of a first-plan id's plan (`canonical`)."""
        return int(self.dist[self.first_representative[first]])

    def first_plan_text(self, first: int) -> str:
        """The engine value of a first-plan id under the one-plan-per-state convention
        (``ties = first_plan``): the first optimal plan of its representative state, which
        every state with that id shares (`parse_value` reads it)."""
        state = " ".join(self.space.true_atoms(self.first_representative[first]))
        steps = self.first_steps(first)
        return (f"goal {' '.join(self.goal)} from {state}: first optimal plan of {steps} "
                f"step{'s' if steps != 1 else ''}")

    def optimal_moves(self, index: int) -> list[tuple[int, int]]:
        """(operator, successor) of every optimal edge of a state, operator order."""
        start, end = int(self.optimal_start[index]), int(self.optimal_start[index + 1])
        return list(zip(self.optimal_op[start:end].tolist(),
                        self.optimal_dst[start:end].tolist()))

    def first_plan(self, index: int) -> list[str]:
        """The lexicographically first optimal plan of a state."""
        plan = []
        while self.dist[index] > 0:
            operator, index = self.optimal_moves(index)[0]
            plan.append(self.space.operators[operator])
        return plan

    def optimal_plans(self, index: int, limit: int = 10_000) -> list[list[str]]:
        """Every optimal plan of a state, in lexicographic order (at most `limit`)."""
        found: list[list[str]] = []

        def walk(state: int, prefix: list[str]) -> None:
            if len(found) >= limit:
                return
            if self.dist[state] == 0:
                found.append(list(prefix))
                return
            for operator, successor in self.optimal_moves(state):
                walk(successor, [*prefix, self.space.operators[operator]])

        walk(index, [])
        return found

    def nearest_distance(self, index: int, given: list[str]) -> int:
        """The least edit distance (whole actions inserted, deleted or substituted) from
        `given` to any optimal plan of a state: a dynamic programme over the optimal
        edges, never listing the plans."""
        names = self.space.operators
        length = len(given)
        memo: dict[tuple[int, int], int] = {}

        def best(state: int, position: int) -> int:
            key = (state, position)
            if key in memo:
                return memo[key]
            options = [best(state, position + 1) + 1] if position < length else []
            if self.dist[state] == 0:
                options.append(length - position)
            for operator, successor in self.optimal_moves(state):
                options.append(best(successor, position) + 1)
                if position < length:
                    options.append(best(successor, position + 1)
                                   + (names[operator] != given[position]))
            memo[key] = min(options)
            return memo[key]

        return best(index, 0)


def goal_mask(space: BlocksSpace, goal: tuple[str, ...]) -> int:
    unknown = [atom for atom in goal if atom not in space.bit]
    if unknown or not goal:
        raise ValueError(f"a goal must be a non-empty list of atoms over the blocks "
                         f"{', '.join(block_names(space.count))}; got {list(goal)}")
    return space.mask_of(goal)


@functools.lru_cache(maxsize=64)
def goal_analysis(count: int, goal: tuple[str, ...]) -> GoalAnalysis:
    """The backward BFS of one goal over the space of `count` blocks (module docstring);
    cached per process."""
    space = blocks_space(count)
    wanted = np.uint64(goal_mask(space, goal))
    size = len(space.masks)
    dist = np.full(size, -1, dtype=np.int32)
    frontier = (space.masks & wanted) == wanted
    if not frontier.any():
        raise ValueError(f"no valid state satisfies the goal {list(goal)}")
    dist[frontier] = 0
    level = 0
    src, dst = space.edge_src, space.edge_dst
    while frontier.any():
        reached = np.unique(src[frontier[dst] & (dist[src] < 0)])
        level += 1
        dist[reached] = level
        frontier = np.zeros(size, dtype=bool)
        frontier[reached] = True
    if (dist < 0).any():
        raise AssertionError("a state does not reach the goal (the space is connected)")
    optimal = dist[dst] == dist[src] - 1
    o_src, o_op, o_dst = src[optimal], space.edge_op[optimal], dst[optimal]
    order = np.lexsort((o_op, o_src))
    o_src, o_op, o_dst = o_src[order], o_op[order], o_dst[order]
    start = np.searchsorted(o_src, np.arange(size + 1))
    starts, ops, dsts = start.tolist(), o_op.tolist(), o_dst.tolist()
    plan_set = [0] * size
    canonical = [0] * size
    sets: dict[tuple, int] = {(): 0}
    firsts: dict[tuple, int] = {(): 0}
    representative, count = [-1], [1]
    first_representative = [-1]
    distances = dist.tolist()
    for state in np.lexsort((np.arange(size), dist)).tolist():
        if distances[state] == 0:
            if representative[0] < 0:
                representative[0] = first_representative[0] = state
            continue
        moves = [(ops[e], plan_set[dsts[e]]) for e in range(starts[state], starts[state + 1])]
        key = tuple(moves)
        number = sets.get(key)
        if number is None:
            number = sets[key] = len(representative)
            representative.append(state)
            count.append(sum(count[successor] for _, successor in moves))
        plan_set[state] = number
        first = starts[state]
        number = firsts.setdefault((ops[first], canonical[dsts[first]]), len(firsts))
        if number == len(first_representative):
            first_representative.append(state)
        canonical[state] = number
    return GoalAnalysis(space=space, goal=tuple(goal), dist=dist,
                        plan_set=np.array(plan_set, dtype=np.int32),
                        canonical=np.array(canonical, dtype=np.int32),
                        representative=tuple(representative), plan_count=tuple(count),
                        first_representative=tuple(first_representative),
                        optimal_start=start, optimal_op=o_op, optimal_dst=o_dst)


_VALUE = re.compile(r"^goal (?P<goal>.+?) from (?P<state>.+?): (?:(?P<count>\d+)|(?P<first>first)) "
                    r"optimal plans? of (?P<steps>\d+) steps?$")


@dataclass(frozen=True)
class PlanSetValue:
    """An engine value read back: the goal, the representative state, its plan length."""

    count: int
    goal: tuple[str, ...]
    state: tuple[str, ...]
    steps: int
    plans: int
    first: bool = False
    """The value names one plan (the first optimal plan, ``ties = first_plan``), not the
    set of optimal plans."""


def parse_value(value: object) -> PlanSetValue | None:
    """Read an engine value (`GoalAnalysis.value_text`); None when it is not one."""
    if not isinstance(value, str):
        return None
    match = _VALUE.match(value.strip())
    if match is None:
        return None
    goal, state = parse_atoms(match["goal"]), parse_atoms(match["state"])
    if not goal or not state:
        return None
    blocks = {name for atom in state for name in atom.strip("()").split()[1:]}
    first = match["first"] is not None
    return PlanSetValue(count=len(blocks), goal=tuple(goal), state=tuple(state),
                        steps=int(match["steps"]), plans=1 if first else int(match["count"]),
                        first=first)
