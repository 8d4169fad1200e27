"""Exact reference strategies over any engine: how the `infoseek/...` reference models
choose their questions (an oracle's way of replying is its *policy*,
`infoseek.oracles.policies`; a reference model's way of moving is its *strategy*).

`optimal`: ask the variable that minimises the worst-case number of further questions
over every reply the oracle could still give (exact minimax by iterative deepening,
with memoisation on the set of answers so far); answer as soon as the target is Known.
It enumerates replies, so it needs finite domains: over an unbounded engine it raises
`UnboundedDomainError` (the seek reference model then uses the canonical-MSS strategy of
`infoseek.solvers.seek_strategy`).

`random`: ask a uniformly random valid, not-yet-asked variable.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import Any

from infoseek.analysis import is_sufficient
from infoseek.engine import Assignment, Engine, ordered_values, require_enumerable


class MinimaxSearch:
    """Worst-case question counts for one engine and one candidate list."""

    def __init__(self, engine: Engine, candidates: Sequence[str]) -> None:
        self.engine = engine
        self.candidates = list(candidates)
        self._memo: dict[tuple[frozenset, int], str | None] = {}
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

    def strategy(self, state: Mapping[str, Any], depth: int) -> str | None | bool:
        """A first question of a strategy that pins the target within `depth` questions
        whatever the replies; True when the target is already Known; None if none."""
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
                if all(
                    self.strategy({**state, var: value}, depth - 1) is not None
                    for value in replies
                ):
                    found = var
                    break
        self._memo[key] = found
        return found

    def best(self, state: Mapping[str, Any], max_depth: int) -> tuple[str | None, int | None]:
        """(question, worst-case count); (None, 0) when Known; (None, None) when no
        strategy within `max_depth` exists."""
        if len(self.engine.target_values(state)) <= 1:
            return None, 0
        for depth in range(1, max_depth + 1):
            choice = self.strategy(state, depth)
            if isinstance(choice, str):
                return choice, depth
        return None, None


def optimal_query(
    engine: Engine, assignment: Assignment, candidates: Sequence[str], max_depth: int,
    search: MinimaxSearch | None = None,
) -> tuple[str | None, int | None]:
    search = search or MinimaxSearch(engine, candidates)
    return search.best(dict(assignment), max_depth)


def random_query(rng: random.Random, candidates: Sequence[str]) -> str | None:
    return rng.choice(list(candidates)) if candidates else None
