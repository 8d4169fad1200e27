"""Exact reference strategies over any engine: how the `infoseek/...` reference models
choose their questions (an oracle's way of replying is its *policy*,
`infoseek.oracles.policies`; a reference model's way of moving is its *strategy*).

`optimal`: ask the variable that minimises the worst-case number of further questions
over every reply the oracle could still give (exact minimax; the first such variable in
candidate order); answer as soon as the target is Known. On engines with the
`distinguishing_pair` fast path the count is settled by exact bounds where they meet
(`infoseek.minimax_bounds`: at most k(s), the minimum sufficient size; at least the
certificate size of any consistent world), and "within d questions?" by the same bounds
at each node, the game-tree search (memoised on the set of answers so far) running only
where they leave the answer open; elsewhere by iterative deepening over the search
alone. Both give the same counts and the same questions.
It enumerates replies, so it needs finite domains: over an unbounded engine it raises
`UnboundedDomainError` (the seek reference model then uses the canonical-MSS strategy of
`infoseek.solvers.seek.strategy`).

`random`: ask a uniformly random valid, not-yet-asked variable.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from infoseek.analysis import is_sufficient, minimal_sufficient_sets
from infoseek.engine import (
    Engine,
    is_listable,
    ordered_values,
    require_enumerable,
)
from infoseek.minimax_bounds import lower_bound_world


class MinimaxSearch:
    """Worst-case question counts for one engine and one candidate list.

    `bounds` (default: when the engine has the `distinguishing_pair` fast path) decides
    each "can the target be pinned within d questions from here?" from the exact bounds
    of `infoseek.minimax_bounds` when they settle it (a sufficient set of at most d
    candidates: yes; a world none of whose certificates has d or fewer members: no), and
    by the search below only when they do not. Both answers are exact, so the question
    counts and the questions chosen are those of the plain search (`bounds=False`)."""

    def __init__(self, engine: Engine, candidates: Sequence[str],
                 bounds: bool | None = None) -> None:
        self.engine = engine
        self.candidates = list(candidates)
        self.bounds = bounds
        self._memo: dict[tuple[frozenset, int], str | None] = {}
        self._within_memo: dict[tuple[frozenset, int], bool] = {}
        self.nodes = 0

    def _open(self, state: Mapping[str, Any]) -> list[str]:
        """Candidates not yet answered whose value is not already determined."""
        out = []
        for var in self.candidates:
            if var in state:
                continue
            if len(self.engine.variable_values(var, state)) > 1:
                out.append(var)
        return out

    def _uses_bounds(self, state: Mapping[str, Any]) -> bool:
        if self.bounds is None:  # the bounds list every candidate's values: finite domains
            self.bounds = (
                self.engine.distinguishing_pair((), dict(state)) is not NotImplemented
                and all(is_listable(self.engine.domain(v)) for v in self.candidates))
        return self.bounds

    def strategy(self, state: Mapping[str, Any], depth: int) -> str | None | bool:
        """A first question of a strategy that pins the target within `depth` questions
        whatever the replies (the first such in candidate order); True when the target is
        already Known; None if none."""
        if len(self.engine.target_values(state)) <= 1:
            return True
        if depth == 0:
            return None
        key = (frozenset(state.items()), depth)
        if key in self._memo:
            return self._memo[key]
        self.nodes += 1
        found: str | None = None
        open_vars = self._open(state)
        if depth == 1:
            found = next((v for v in open_vars if is_sufficient(self.engine, [v], state)), None)
        else:
            for var in open_vars:
                replies = ordered_values(
                    require_enumerable(self.engine.variable_values(var, state), var),
                    self.engine.domain(var),
                )
                if all(self.within({**state, var: value}, depth - 1) for value in replies):
                    found = var
                    break
        self._memo[key] = found
        return found

    def within(self, state: Mapping[str, Any], depth: int) -> bool:
        """Exactly whether some strategy pins the target within `depth` questions from
        `state` (the minimax count is at most `depth`)."""
        if not self._uses_bounds(state):
            return self.strategy(state, depth) is not None
        if len(self.engine.target_values(state)) <= 1:
            return True
        if depth == 0:
            return False
        key = (frozenset(state.items()), depth)
        if key not in self._within_memo:
            free = [v for v in self.candidates if v not in state]
            if minimal_sufficient_sets(self.engine, free, min(depth, len(free)),
                                       state).k is not None:
                answer = True  # asking a sufficient set of at most `depth` is a strategy
            elif lower_bound_world(self.engine, free, state, depth + 1) is not None:
                answer = False  # a world every certificate of which exceeds `depth`
            else:
                answer = self.strategy(state, depth) is not None
            self._within_memo[key] = answer
        return self._within_memo[key]

    def best(self, state: Mapping[str, Any], max_depth: int) -> tuple[str | None, int | None]:
        """(question, worst-case count); (None, 0) when Known; (None, None) when no
        strategy within `max_depth` exists. The question is the first candidate whose
        worst case is the minimum."""
        if len(self.engine.target_values(state)) <= 1:
            return None, 0
        if not self._uses_bounds(state):
            for depth in range(1, max_depth + 1):
                choice = self.strategy(state, depth)
                if isinstance(choice, str):
                    return choice, depth
            return None, None
        value = self.value(state)
        if value is None or value > max_depth:
            return None, None
        choice = self.strategy(state, value)
        assert isinstance(choice, str), (state, value)
        return choice, value

    def value(self, state: Mapping[str, Any]) -> int | None:
        """The minimax count from `state` (None: no strategy pins the target), from the
        bounds: k(s), the minimum sufficient size, when some world's certificates all
        have at least k(s) members, else the least depth below k(s) that `within` accepts
        (k(s) when none does)."""
        if len(self.engine.target_values(state)) <= 1:
            return 0
        free = [v for v in self.candidates if v not in state]
        if not is_sufficient(self.engine, free, state):
            return None  # even every answer leaves the target open in some world
        upper = minimal_sufficient_sets(self.engine, free, len(free), state).k
        assert upper is not None
        if upper == 1 or lower_bound_world(self.engine, free, state, upper) is not None:
            return upper  # (the target is not Known, so at least one question is needed)
        for depth in range(1, upper):
            if self.within(state, depth):
                return depth
        return upper

