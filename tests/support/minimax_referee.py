"""The brute-force minimax referee of the reference strategy's property tests
(tests/core/test_strategies.py, tests/core/test_optimal_bounds.py)."""

from __future__ import annotations

import math
from functools import cache

from hypothesis import HealthCheck

from infoseek.engines.bruteforce import BruteForceEngine

SETTINGS = {
    "deadline": None,
    "suppress_health_check": [HealthCheck.filter_too_much, HealthCheck.too_slow],
}


def brute_minimax(referee: BruteForceEngine, candidates: list[str]):
    """D(s), the worst-case number of questions to pin the target from a state, over
    every reply the referee's worlds still allow (inf when no strategy pins it)."""

    @cache
    def value(state_items: frozenset) -> float:
        state = dict(state_items)
        if len(referee.target_values(state)) <= 1:
            return 0
        best = math.inf
        for var in candidates:
            if var in state:
                continue
            replies = referee.variable_values(var, state)
            worst = max(1 + value(frozenset({**state, var: r}.items())) for r in replies)
            best = min(best, worst)
        return best

    return lambda state: value(frozenset(state.items()))
