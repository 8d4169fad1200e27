"""The "or none" withholding oracle (``-T oracle=withholding_all``,
`infoseek.oracles.withholding.withheld_every_route`): the withheld set leaves no sufficient
set learnable and is a minimal hitting set of the MSS family, checked against the
brute-force referee on small random Horn problems; and the ``recognised_unlearnable``
metric."""

from __future__ import annotations

import pytest
from hypothesis import event, given, settings
from hypothesis import strategies as st

from infoseek.contract import UNDETERMINED
from infoseek.engines.bruteforce import referee_mss_family
from infoseek.engines.horn import HornEngine
from infoseek.oracles import WITHHOLDING_ALL_POLICY, Oracle, check_policy
from infoseek.oracles.withholding import episode_withholding_all, withheld_every_route
from infoseek.scorers.withholding_metrics import withholding_metrics
from tests.support.withholding import (
    PROPERTY_SETTINGS,
    draw_withholding_problem,
    referee_minimax,
)


@settings(max_examples=120, **PROPERTY_SETTINGS)
@given(st.data(), st.booleans())
def test_every_route_is_closed_by_a_minimal_hitting_set(data, planted) -> None:
    drawn = draw_withholding_problem(data, planted)
    referee, engine, askable = drawn.referee, drawn.engine, drawn.askable
    k, family, record, seed = drawn.k, drawn.family, drawn.record, drawn.seed
    chosen = withheld_every_route(record, askable, seed, engine)
    learnable = chosen.learnable(askable)
    event(f"withheld {len(chosen.withheld)} of {len(askable)}; k = {k}")
    # Nothing sufficient is left (the referee's own enumeration) ...
    assert referee_mss_family(referee, learnable, len(learnable))[0] is None
    assert referee_minimax(referee, learnable, {}) is None
    assert all(set(member) & set(chosen.withheld) for member in family)  # every MSS is hit
    # ... and no withheld variable can be given back: each would reopen a route.
    for name in chosen.withheld:
        assert referee_mss_family(referee, [*learnable, name], len(learnable) + 1)[0]
    assert chosen.kept == () and chosen.closes_canonical == bool(
        set(family[0]) & set(chosen.withheld))
    stored = episode_withholding_all(record, askable, seed, engine)
    assert stored["withheld"] == list(chosen.withheld) and stored["none_learnable"]
    assert stored["learnable_k"] is None and stored["learnable_family"] == []
    assert withheld_every_route(record, list(reversed(askable)), seed, engine) == chosen
    # The oracle keeps the target open whatever is asked, in any order, for either value.
    order = data.draw(st.permutations(learnable), label="order")
    for value in sorted(engine.target_values(), key=str):
        oracle = Oracle(engine, value, policy=WITHHOLDING_ALL_POLICY,
                        withheld=frozenset(chosen.withheld), keep_open_over=frozenset(learnable))
        for name in [*order, *chosen.withheld]:
            oracle.reply(name)
            assert not oracle.known()


def test_the_draw_is_seeded_and_a_known_target_is_refused() -> None:
    names = ["a", "b", "c", "d", "y"]
    clauses = [["y", "not a"], ["y", "not b"], ["y", "not c"], ["a", "not y"],
               ["b", "not y"], ["c", "not y"]]  # y <-> a <-> b <-> c: three routes of one
    engine = HornEngine(names, clauses, {}, "y")
    record = {"id": "p", "k": 1, "mss_family": [["a"], ["b"], ["c"]]}
    draws = {withheld_every_route(record, ["a", "b", "c", "d"], seed, engine).withheld
             for seed in range(20)}
    assert draws == {("a", "b", "c")}  # every route must go; d settles nothing and stays
    known = HornEngine(names, clauses, {"a": True}, "y")
    with pytest.raises(ValueError, match="Known before any question"):
        withheld_every_route(record, ["b", "c", "d"], 0, known)
    assert check_policy(WITHHOLDING_ALL_POLICY) == "withholding_all"


def test_recognised_unlearnable_wants_the_answer_before_the_cap() -> None:
    def answer(value: object, final: bool) -> dict:
        return {"action": "answer", "answer": value, "final_turn": final, "queries": []}

    ask = {"action": "ask", "queries": [{"variable": "a", "valid": True, "value": "unknown"}],
           "final_turn": False, "known": False}
    initial = [False, True]
    said = withholding_metrics([ask, answer(UNDETERMINED, False)], ["a"],
                               initial_possible=initial, none_learnable=True)
    assert said["recognised_unlearnable"] == 1.0 and said["withheld_asked"] == 1.0
    forced = withholding_metrics([ask, answer(UNDETERMINED, True)], ["a"],
                                 initial_possible=initial, none_learnable=True)
    assert forced["recognised_unlearnable"] == 0.0  # said only when the cap forced an answer
    guessed = withholding_metrics([answer(True, False)], ["a"], initial_possible=initial,
                                  none_learnable=True)
    assert guessed["recognised_unlearnable"] == 0.0
    assert "recognised_unlearnable" not in withholding_metrics(
        [answer(UNDETERMINED, False)], ["a"], initial_possible=initial)
