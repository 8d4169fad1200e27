"""The withholding oracle (`infoseek.oracles.withholding`): the rule that picks the withheld
set, the exact ground truth over what can still be learned (checked against the
brute-force referee on small random problems), the "unknown" reply, and the per-episode
metrics (`infoseek.scorers.withholding_metrics`)."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import event, given, settings
from hypothesis import strategies as st

from infoseek.engines.bruteforce import referee_mss_family
from infoseek.engines.horn import HornEngine
from infoseek.oracles import WITHHELD, Oracle, check_policy
from infoseek.oracles.withholding import (
    WITHHELD_REPLY,
    episode_withholding,
    learnable_truth,
    withheld_variables,
)
from infoseek.scorers.withholding_metrics import withholding_metrics
from infoseek.strategies import MinimaxSearch
from tests.support.withholding import (
    PROPERTY_SETTINGS,
    draw_withholding_problem,
    referee_minimax,
)


@settings(max_examples=120, **PROPERTY_SETTINGS)
@given(st.data(), st.booleans())
def test_ground_truth_over_what_can_be_learned_matches_brute_force(data, planted) -> None:
    drawn = draw_withholding_problem(data, planted)
    referee, engine, askable = drawn.referee, drawn.engine, drawn.askable
    k, family, record, seed = drawn.k, drawn.family, drawn.record, drawn.seed
    chosen = withheld_variables(record, askable, seed)
    learnable = chosen.learnable(askable)
    # The rule: the kept set is a whole MSS, nothing of it withheld; an alternative closes
    # the canonical route.
    assert not set(chosen.kept) & set(chosen.withheld)
    assert sorted(chosen.kept) in [sorted(m) for m in family]
    assert chosen.closes_canonical == (len(family) > 1)
    event(f"canonical route closed: {chosen.closes_canonical}; k = {k}")
    if chosen.closes_canonical:
        assert set(family[0]) & set(chosen.withheld)
    # Exact truth over the learnable set equals the referee's enumeration.
    truth = learnable_truth(engine, learnable, len(learnable))
    ref_k, ref_family = referee_mss_family(referee, learnable, len(learnable))
    assert truth.k == ref_k == k
    assert sorted(tuple(sorted(m)) for m in truth.family) == ref_family
    # The optimal strategy over what can be learned: the same worst case as a plain
    # game-tree search of the referee, and never more than k questions.
    search_value = MinimaxSearch(engine, learnable).value({})
    assert search_value == referee_minimax(referee, learnable, {})
    assert search_value is not None and search_value <= k
    # episode_withholding stores the same set and the exact k, the kept set first.
    stored = episode_withholding(record, askable, seed, engine)
    assert stored["withheld"] == list(chosen.withheld) and stored["learnable_k"] == k
    assert sorted(stored["learnable_family"][0]) == sorted(chosen.kept)


def _record(family: list[list[str]], **extra: Any) -> dict[str, Any]:
    return {"id": "logic-mt-k2-0007", "k": len(family[0]), "mss_family": family, **extra}


def test_the_rule_is_seeded_and_blind_to_the_target() -> None:
    askable = [f"a{i}" for i in range(12)]
    record = _record([["a0", "a1"], ["a2", "a3"], ["a4", "a5"]])
    first = withheld_variables(record, askable, 3)
    assert first == withheld_variables(record, askable, 3)  # same seed, same set
    assert {withheld_variables(record, askable, s).withheld for s in range(10)} != {
        first.withheld}  # the seed matters
    # a quarter of the 12 askable variables, one of them from the canonical MSS
    assert len(first.withheld) == 3 and first.closes_canonical
    assert set(first.withheld) & {"a0", "a1"} and first.kept in (("a2", "a3"), ("a4", "a5"))
    # the answer (the hidden value) plays no part: the record's other fields do not either
    assert withheld_variables({**record, "answer": True}, askable, 3) == first


def test_one_mss_keeps_the_canonical_route_open() -> None:
    askable = ["a", "b", "c", "d", "e", "f", "g", "h"]
    chosen = withheld_variables(_record([["a", "b"]]), askable, 0)
    assert chosen.kept == ("a", "b") and not chosen.closes_canonical
    assert len(chosen.withheld) == 2 and not {"a", "b"} & set(chosen.withheld)
    # an alternative that is not askable (forbidden) cannot be kept
    chosen = withheld_variables(_record([["a", "b"], ["x", "y"]]), askable, 0)
    assert chosen.kept == ("a", "b") and not chosen.closes_canonical


def test_bad_input_is_one_clear_error() -> None:
    with pytest.raises(ValueError, match="canonical MSS is not askable"):
        withheld_variables(_record([["a", "z"]]), ["a", "b"], 0)
    with pytest.raises(ValueError, match="withheld share"):
        withheld_variables(_record([["a"]]), ["a", "b"], 0, share=1.0)
    assert check_policy("withholding") == "withholding"


def test_withheld_variables_are_answered_unknown_and_teach_nothing() -> None:
    # y <- a & b; y <- c & d: two MSSs of size 2
    clauses = [["y", "not a", "not b"], ["y", "not c", "not d"]]
    engine = HornEngine(["a", "b", "c", "d", "y"], clauses, {}, "y")
    oracle = Oracle(engine, True, policy="withholding", withheld=frozenset({"a"}))
    assert oracle.reply_policy == "adversarial"
    before = oracle.target_status()
    assert oracle.reply("a") == WITHHELD and "a" not in oracle.answers
    assert oracle.target_status() == before
    assert oracle.reply("c") in (False, True)
    text = WITHHELD_REPLY.format(noun="attribute", variable="a")
    assert "'a'" in text and "True" not in text and "yes" not in text.lower()


def test_withholding_metrics_count_meetings_and_recovery() -> None:
    def turn(var: str, value: Any, known: bool, valid: bool = True,
             reason: str | None = None) -> dict:
        return {"action": "ask" if valid else "invalid", "known": known,
                "queries": [{"variable": var, "valid": valid, "reason": reason,
                             "value": value}]}

    initial = [False, True]
    recovered = [turn("a", WITHHELD, False), turn("a", None, False, False, "repeated"),
                 turn("c", True, False), turn("d", True, True),
                 {"action": "answer", "known": True, "queries": []}]
    assert withholding_metrics(recovered, ["a"], initial_possible=initial) == {
        "recovery": 1.0, "withheld_asked": 1.0, "withheld_reasked": 1.0}
    stuck = [turn("a", WITHHELD, False), turn("c", False, False)]
    assert withholding_metrics(stuck, ["a"], initial_possible=initial)["recovery"] == 0.0
    # met only after the target was Known: recovery does not apply
    late = [turn("c", True, False), turn("d", True, True), turn("a", WITHHELD, True)]
    assert withholding_metrics(late, ["a"], initial_possible=initial) == {
        "recovery": None, "withheld_asked": 1.0, "withheld_reasked": 0.0}
    assert withholding_metrics([], ["a"], initial_possible=initial)["recovery"] is None


def test_the_plan_scorer_reads_no_value_into_an_unknown_reply() -> None:
    from infoseek.scorers.planning import replies

    turns = [{"queries": [{"variable": "(on a b)", "valid": True, "value": WITHHELD},
                          {"variable": "(clear a)", "valid": True, "value": True},
                          {"variable": "(ontable c)", "valid": True, "value": "unsure"}]}]
    assert replies(turns) == {"(clear a)": True}
