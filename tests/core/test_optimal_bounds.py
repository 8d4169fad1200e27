"""The exact bounds of the optimal strategy (`infoseek.minimax_bounds`) and the search that
uses them (`MinimaxSearch` with bounds) against brute force.

The referees, written here over the worlds of a brute-force engine: D(s), the minimax
count of the game tree (every candidate askable, every consistent reply); k(s), the
smallest sufficient set of free candidates (every subset tried); C(w, s), the smallest
set of free candidates whose values in w force the target (every subset tried). On
random small Horn problems (Horn engine, with its fast path) and random multi-valued
world sets (brute-force engine, bounds forced on) the tests check C(w, s) <= D(s) <=
k(s) for every consistent world, the certificate test against C exactly, and that the
search with bounds returns the plain search's question and count from every state.
"""

from __future__ import annotations

import itertools
import math
from typing import Any

from hypothesis import assume, given, settings
from hypothesis import strategies as st

from infoseek.engine import Engine
from infoseek.engines.bruteforce import BruteForceEngine, horn_referee
from infoseek.engines.horn import HornEngine
from infoseek.minimax_bounds import (
    certificate_at_least,
    consistent_world,
    lower_bound_world,
    probe_worlds,
)
from infoseek.strategies import MinimaxSearch
from tests.support.minimax_referee import SETTINGS, brute_minimax
from tests.support.strategies import horn_problems


def free_of(candidates: list[str], state: dict) -> list[str]:
    return [v for v in candidates if v not in state]


def brute_k(referee: BruteForceEngine, candidates: list[str], state: dict) -> float:
    """k(s): the smallest set of free candidates every consistent row of which pins the
    target (inf: none)."""
    free = free_of(candidates, state)
    for size in range(len(free) + 1):
        for subset in itertools.combinations(free, size):
            if all(len(referee.target_values({**state, **{v: w[v] for v in subset}})) == 1
                   for w in referee.matching(state)):
                return size
    return math.inf


def brute_certificate(referee: BruteForceEngine, candidates: list[str], state: dict,
                      world: dict) -> float:
    """C(w, s): the smallest set of free candidates whose values in `world` force the
    target (inf: none)."""
    free = free_of(candidates, state)
    for size in range(len(free) + 1):
        for subset in itertools.combinations(free, size):
            if len(referee.target_values({**state, **{v: world[v] for v in subset}})) == 1:
                return size
    return math.inf


def horn_case(data: Any) -> tuple[Engine, BruteForceEngine, list[str], dict]:
    names, clauses, observed, target = data.draw(horn_problems(max_vars=7), label="problem")
    referee = horn_referee(names, clauses, observed, target)
    assume(referee.worlds)
    engine = HornEngine(names, clauses, observed, target)
    candidates = [v for v in names if v not in observed and v != target]
    if data.draw(st.booleans(), label="forbid some"):
        candidates = [v for v in candidates if data.draw(st.booleans(), label=f"keep {v}")]
    return engine, referee, candidates, state_of(data, referee, candidates)


def state_of(data: Any, referee: BruteForceEngine, candidates: list[str]) -> dict:
    """Some answers consistent with a world (the state the reference model sees)."""
    if not candidates or not data.draw(st.booleans(), label="mid-game"):
        return {}
    world = data.draw(st.sampled_from(referee.worlds), label="world")
    asked = data.draw(st.lists(st.sampled_from(candidates), unique=True, max_size=3),
                      label="asked")
    return {v: world[v] for v in asked}


@st.composite
def world_sets(draw: Any) -> tuple[BruteForceEngine, list[str]]:
    """A random set of worlds over 2 to 4 inputs with 2 or 3 values each and a target of
    2 or 3 values; every input a candidate."""
    n = draw(st.integers(2, 4))
    inputs = [f"x{i}" for i in range(n)]
    domains = {v: tuple(range(draw(st.integers(2, 3)))) for v in inputs}
    domains["y"] = tuple("abc"[:draw(st.integers(2, 3))])
    rows = list(itertools.product(*(domains[v] for v in [*inputs, "y"])))
    chosen = draw(st.lists(st.sampled_from(rows), min_size=1, max_size=24, unique=True))
    worlds = [dict(zip([*inputs, "y"], row)) for row in chosen]
    return BruteForceEngine.from_worlds([*inputs, "y"], domains, {}, "y", worlds), inputs


def check_bounds(engine: Engine, referee: BruteForceEngine, candidates: list[str],
                 state: dict) -> None:
    d = brute_minimax(referee, candidates)(state)
    k = brute_k(referee, candidates, state)
    assert d <= k
    free = free_of(candidates, state)
    for world in referee.matching(state):
        c = brute_certificate(referee, candidates, state, world)
        assert c <= d
        for m in range(len(free) + 2):
            assert certificate_at_least(engine, candidates, state, world, m) == (c >= m), (
                world, m, c)
    for world in probe_worlds(engine, candidates, state):
        assert referee.matching({**state, **world}), world  # every probe is consistent
    if k < math.inf and len(referee.target_values(state)) > 1:
        proof = lower_bound_world(engine, candidates, state, int(k))
        if proof is not None:
            assert brute_certificate(referee, candidates, state, proof) >= k == d


def check_search(engine: Engine, referee: BruteForceEngine, candidates: list[str],
                 state: dict) -> None:
    d = brute_minimax(referee, candidates)(state)
    bounded = MinimaxSearch(engine, candidates, bounds=True)
    plain = MinimaxSearch(engine, candidates, bounds=False)
    limit = len(candidates)
    assert bounded.best(state, limit) == plain.best(state, limit)
    question, depth = bounded.best(state, limit)
    assert depth == (None if d == math.inf else d)
    if question is not None:
        replies = referee.variable_values(question, state)
        value = brute_minimax(referee, candidates)
        assert 1 + max(value({**state, question: r}) for r in replies) == d
    for budget in range(limit + 1):
        assert bounded.within(state, budget) == (d <= budget)
        assert bounded.best(state, budget) == plain.best(state, budget)


@settings(max_examples=200, **SETTINGS)
@given(st.data())
def test_horn_bounds_hold_and_the_certificate_test_is_exact(data) -> None:
    check_bounds(*horn_case(data))


@settings(max_examples=200, **SETTINGS)
@given(st.data())
def test_horn_search_with_bounds_plays_as_the_plain_search(data) -> None:
    check_search(*horn_case(data))


@settings(max_examples=150, **SETTINGS)
@given(world_sets(), st.data())
def test_multi_valued_bounds_and_search(case, data) -> None:
    referee, candidates = case
    state = state_of(data, referee, candidates)
    check_bounds(referee, referee, candidates, state)
    check_search(referee, referee, candidates, state)


@settings(max_examples=100, **SETTINGS)
@given(world_sets(), st.data())
def test_consistent_world_extends_the_state_with_the_target_value(case, data) -> None:
    referee, candidates = case
    state = state_of(data, referee, candidates)
    prefer = {v: data.draw(st.sampled_from(referee.domain(v)), label=f"prefer {v}")
              for v in candidates}
    for value in referee.domain("y"):
        world = consistent_world(referee, candidates, state, value, prefer=prefer)
        possible = value in referee.target_values(state)
        assert (world is not None) == possible
        if world is not None:
            assert set(world) == set(free_of(candidates, state))
            assert value in referee.target_values({**state, **world})


def test_mux_is_settled_by_the_search_below_k() -> None:
    """Y = X1 ? X2 : X3: k = 3 but D = 2, and no world has a certificate of 3, so the
    bounds cannot settle the root: the search does, as the plain search would."""
    bools = (False, True)
    engine = BruteForceEngine(
        ["X1", "X2", "X3", "Y"], dict.fromkeys(["X1", "X2", "X3", "Y"], bools),
        lambda w: w["Y"] == (w["X2"] if w["X1"] else w["X3"]), {}, "Y")
    search = MinimaxSearch(engine, ["X1", "X2", "X3"], bounds=True)
    assert lower_bound_world(engine, ["X1", "X2", "X3"], {}, 3) is None
    assert search.value({}) == 2
    assert search.best({}, 3) == ("X1", 2)
    assert search.best({}, 1) == (None, None)


def test_a_hard_record_is_played_in_k_questions_from_the_bounds_alone() -> None:
    """On a hard logic record (k = 5, about 140 attributes) every decision of the game
    against the adversarial oracle is settled by the bounds (one search node per
    decision: the root's pick), and the game takes exactly k questions."""
    from infoseek.builders.logic.logic_mt import build_hard_problem
    from infoseek.oracles.policies import Oracle
    from infoseek.record_views import askable_variables
    from infoseek.records import engine_from_record

    record = build_hard_problem(0, 5, 0)
    candidates = askable_variables(record, True)
    for value in record["target_values"]:
        engine = engine_from_record(record)
        search = MinimaxSearch(engine, candidates)
        oracle = Oracle(engine, value, "adversarial", 0)
        counts = []
        while not oracle.known():
            question, count = search.best(dict(oracle.answers), len(candidates))
            assert question is not None
            counts.append(count)
            oracle.reply(question)
        assert counts == [5, 4, 3, 2, 1]
        assert search.nodes == 5
