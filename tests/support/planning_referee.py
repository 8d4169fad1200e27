"""A brute-force referee for the planning engine, sharing no code with it.

States are found by closing the all-on-table state under hand-written Blocks World rules
(the domain is connected, so this reaches every valid state; the tests compare the count
with the closed formula). Distances come from a plain backward search over a dict of
predecessors, and the set of optimal plans of a state is listed explicitly (a frozenset of
action tuples, memoised). Feasible worlds, Known and sufficiency then follow the
definitions of protocols §1 directly.
"""

from __future__ import annotations

import functools
import itertools
import string
from collections import deque

Atom = str
State = frozenset


def blocks(count: int) -> list[str]:
    return list(string.ascii_lowercase[:count])


def all_atoms(count: int) -> list[str]:
    names = blocks(count)
    found = ["(handempty)"]
    for x in names:
        found += [f"(clear {x})", f"(ontable {x})", f"(holding {x})"]
        found += [f"(on {x} {y})" for y in names if x != y]
    return sorted(found)


def successors(state: State, names: list[str]) -> list[tuple[str, State]]:
    out = []
    hand = "(handempty)" in state
    for x in names:
        if hand and f"(clear {x})" in state and f"(ontable {x})" in state:
            out.append((f"(pick-up {x})", state - {f"(clear {x})", f"(ontable {x})",
                                                  "(handempty)"} | {f"(holding {x})"}))
        if f"(holding {x})" in state:
            out.append((f"(put-down {x})", state - {f"(holding {x})"}
                        | {f"(ontable {x})", f"(clear {x})", "(handempty)"}))
        for y in names:
            if x == y:
                continue
            if f"(holding {x})" in state and f"(clear {y})" in state:
                out.append((f"(stack {x} {y})", state - {f"(holding {x})", f"(clear {y})"}
                            | {f"(on {x} {y})", f"(clear {x})", "(handempty)"}))
            if hand and f"(on {x} {y})" in state and f"(clear {x})" in state:
                out.append((f"(unstack {x} {y})", state - {f"(on {x} {y})", f"(clear {x})",
                                                          "(handempty)"}
                            | {f"(holding {x})", f"(clear {y})"}))
    return out


@functools.lru_cache(maxsize=8)
def referee_states(count: int) -> tuple[State, ...]:
    names = blocks(count)
    first = frozenset([f"(ontable {x})" for x in names] + [f"(clear {x})" for x in names]
                      + ["(handempty)"])
    seen = {first}
    queue = deque([first])
    while queue:
        state = queue.popleft()
        for _, after in successors(state, names):
            if after not in seen:
                seen.add(after)
                queue.append(after)
    return tuple(sorted(seen, key=lambda s: sorted(s)))


class Referee:
    """Optimal-plan sets of every state for one goal. With `first_plan`, a state's target
    is the smallest of its optimal plans (action tuples compared as text: the one plan
    per state of the published convention) instead of the whole set."""

    def __init__(self, count: int, goal: tuple[str, ...], first_plan: bool = False) -> None:
        self.first_plan = first_plan
        self.names = blocks(count)
        self.states = referee_states(count)
        self.goal = frozenset(goal)
        self._plans: dict[State, frozenset] = {}
        self.moves = {s: successors(s, self.names) for s in self.states}
        before: dict[State, list[State]] = {s: [] for s in self.states}
        for s, moves in self.moves.items():
            for _, t in moves:
                before[t].append(s)
        self.dist = {s: 0 for s in self.states if self.goal <= s}
        queue = deque(self.dist)
        while queue:
            t = queue.popleft()
            for s in before[t]:
                if s not in self.dist:
                    self.dist[s] = self.dist[t] + 1
                    queue.append(s)

    def plans(self, state: State) -> frozenset:
        if state not in self._plans:
            if self.dist[state] == 0:
                self._plans[state] = frozenset([()])
            else:
                self._plans[state] = frozenset(
                    (action, *rest) for action, after in self.moves[state]
                    if self.dist[after] == self.dist[state] - 1
                    for rest in self.plans(after))
        return self._plans[state]

    def target(self, state: State):
        plans = self.plans(state)
        return min(plans) if self.first_plan else plans

    def consistent(self, observed: dict[str, bool]) -> list[State]:
        return [s for s in self.states
                if all((atom in s) == value for atom, value in observed.items())]

    def known(self, observed: dict[str, bool]) -> bool:
        return len({self.target(s) for s in self.consistent(observed)}) == 1

    def plan_set_count(self, observed: dict[str, bool]) -> int:
        return len({self.target(s) for s in self.consistent(observed)})

    def sufficient(self, observed: dict[str, bool], subset) -> bool:
        states = self.consistent(observed)
        if not states:
            return False
        seen: dict[tuple, frozenset] = {}
        for s in states:
            key = tuple(a in s for a in subset)
            plans = self.target(s)
            if seen.setdefault(key, plans) != plans:
                return False
        return True

    def degree(self, observed: dict[str, bool], candidates, max_k: int):
        for k in range(max_k + 1):
            family = [c for c in itertools.combinations(candidates, k)
                      if self.sufficient(observed, c)]
            if family:
                return k, sorted(family)
        return None, []
