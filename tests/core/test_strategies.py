"""The exact minimax reference strategy (`infoseek.strategies`) against a brute-force
game-tree search.

The brute force (tests/support/minimax_referee.py, over the referee's worlds) asks every candidate
variable, including ones whose value is already determined, and takes the worst case
over every reply consistent with the state. `MinimaxSearch.best` must return the same
worst-case question count, and following its choices must pin the target within that
many questions whatever the replies.
"""

from __future__ import annotations

import math
from typing import Any

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from infoseek.analysis import minimal_sufficient_sets
from infoseek.engine import Engine
from infoseek.engines.bruteforce import BruteForceEngine, horn_referee
from infoseek.engines.horn import HornEngine
from infoseek.strategies import MinimaxSearch
from tests.support.minimax_referee import SETTINGS, brute_minimax
from tests.support.strategies import horn_problems


def play_all(search: MinimaxSearch, referee: BruteForceEngine, state: dict, budget: int) -> int:
    """Follow the search's choices against every consistent reply sequence; return the
    most questions any sequence needed (asserting the budget is never exceeded)."""
    if len(referee.target_values(state)) <= 1:
        return 0
    question, depth = search.best(state, budget)
    assert question is not None and depth is not None and depth <= budget, (state, budget)
    assert question in search.candidates and question not in state
    replies = referee.variable_values(question, state)
    assert replies
    return 1 + max(
        play_all(search, referee, {**state, question: r}, budget - 1) for r in replies
    )


def setup(data: Any) -> tuple[HornEngine, BruteForceEngine, list[str]]:
    names, clauses, observed, target = data.draw(horn_problems(max_vars=7), label="problem")
    referee = horn_referee(names, clauses, observed, target)
    assume(referee.worlds)
    engine = HornEngine(names, clauses, observed, target)
    candidates = [v for v in names if v not in observed and v != target]
    if data.draw(st.booleans(), label="forbid some"):
        candidates = [v for v in candidates if data.draw(st.booleans(), label=f"keep {v}")]
    return engine, referee, candidates


@settings(max_examples=200, **SETTINGS)
@given(st.data())
def test_minimax_value_matches_brute_force(data) -> None:
    engine, referee, candidates = setup(data)
    value = brute_minimax(referee, candidates)
    expected = value({})
    search = MinimaxSearch(engine, candidates)
    question, depth = search.best({}, len(candidates))
    if expected == 0:
        assert (question, depth) == (None, 0)
        return
    if expected == math.inf:
        assert (question, depth) == (None, None)
        return
    assert depth == expected
    # The chosen question is itself optimal in the brute-force game.
    replies = referee.variable_values(question, {})
    assert 1 + max(value({question: r}) for r in replies) == expected
    # A tighter depth limit than the true value finds nothing.
    if expected > 1:
        assert MinimaxSearch(engine, candidates).best({}, expected - 1) == (None, None)
    # Following the choices pins the target within `depth` questions on every branch.
    assert play_all(search, referee, {}, depth) <= depth


@settings(max_examples=100, **SETTINGS)
@given(st.data())
def test_minimax_from_an_intermediate_state(data) -> None:
    """The same from a state reached after some answers (as the reference model sees it)."""
    engine, referee, candidates = setup(data)
    assume(referee.worlds and candidates)
    world = data.draw(st.sampled_from(referee.worlds), label="world")
    asked = data.draw(st.lists(st.sampled_from(candidates), unique=True), label="asked")
    state = {v: world[v] for v in asked}
    value = brute_minimax(referee, candidates)
    expected = value(state)
    question, depth = MinimaxSearch(engine, candidates).best(dict(state), len(candidates))
    if expected == 0:
        assert (question, depth) == (None, 0)
    elif expected == math.inf:
        assert (question, depth) == (None, None)
    else:
        assert depth == expected
        assert question in candidates and question not in state


@settings(max_examples=60, **SETTINGS)
@given(st.data())
def test_minimax_never_beats_brute_force_on_bruteforce_engine(data) -> None:
    """The search run over the referee engine itself (no Horn fast path) agrees too."""
    engine, referee, candidates = setup(data)
    expected = brute_minimax(referee, candidates)({})
    _, depth = MinimaxSearch(referee, candidates).best({}, len(candidates))
    assert depth == (None if expected == math.inf else expected)


def mux_engine() -> Engine:
    """Y = X1 ? X2 : X3."""
    bools = (False, True)
    return BruteForceEngine(
        ["X1", "X2", "X3", "Y"], dict.fromkeys(["X1", "X2", "X3", "Y"], bools),
        lambda w: w["Y"] == (w["X2"] if w["X1"] else w["X3"]), {}, "Y",
    )


def test_mux_k_is_three_but_minimax_is_two() -> None:
    engine = mux_engine()
    candidates = ["X1", "X2", "X3"]
    result = minimal_sufficient_sets(engine, candidates, 4)
    assert result.k == 3
    assert [tuple(s) for s in result.family] == [("X1", "X2", "X3")]
    search = MinimaxSearch(engine, candidates)
    assert search.best({}, 3) == ("X1", 2)
    assert search.best({}, 1) == (None, None)
    assert brute_minimax(engine, candidates)({}) == 2
    # After X1 the right follow-up depends on the reply.
    assert search.best({"X1": True}, 3) == ("X2", 1)
    assert search.best({"X1": False}, 3) == ("X3", 1)
    assert search.best({"X1": True, "X2": False}, 3) == (None, 0)
    assert play_all(search, engine, {}, 2) == 2


def test_mux_without_the_selector_is_impossible() -> None:
    """Forbidding X1 leaves no strategy: even both data inputs do not pin Y when they
    differ."""
    engine = mux_engine()
    assert MinimaxSearch(engine, ["X2", "X3"]).best({}, 5) == (None, None)


@pytest.mark.parametrize("depth", [1, 2, 3])
def test_chain_needs_one_question(depth: int) -> None:
    """y <-> a through a chain: one question about any link pins the target."""
    names = ["a", "b", "c", "y"]
    clauses = [["b", "not a"], ["a", "not b"], ["c", "not b"], ["b", "not c"],
               ["y", "not c"], ["c", "not y"]]
    engine = HornEngine(names, clauses, {}, "y")
    assert MinimaxSearch(engine, ["a", "b", "c"]).best({}, depth) == ("a", 1)
