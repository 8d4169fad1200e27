"""Oracle policies checked against the brute-force referee, and the refusal rules
(`infoseek.oracles.refusals`), in the domain's word for a variable.

protocols §2: every reply is consistent with C, A, earlier replies and the hidden
target value; adversarial keeps the most target values possible, cooperative the
fewest; random answers from one hidden world, seeded.
"""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from infoseek.domains import get_domain
from infoseek.engines.bruteforce import BruteForceEngine, horn_referee
from infoseek.engines.horn import HornEngine
from infoseek.oracles import (
    ORACLE_POLICIES,
    REFUSAL_REASONS,
    UNSURE,
    Oracle,
    check_query,
    refusal_text,
)
from infoseek.oracles.refusals import with_article
from tests.support.strategies import horn_problems

SETTINGS = {
    "deadline": None,
    "suppress_health_check": [HealthCheck.filter_too_much, HealthCheck.too_slow],
}


def setup(data: Any) -> tuple[HornEngine, BruteForceEngine, list[str]]:
    names, clauses, observed, target = data.draw(horn_problems(), label="problem")
    referee = horn_referee(names, clauses, observed, target)
    assume(referee.worlds)
    engine = HornEngine(names, clauses, observed, target)
    askable = [v for v in names if v not in observed and v != target]
    order = data.draw(st.permutations(askable), label="question order")
    return engine, referee, list(order)


def remaining(referee: BruteForceEngine, answers: dict, var: str, value: Any) -> int:
    return len(referee.target_values({**answers, var: value}))


@settings(max_examples=200, **SETTINGS)
@given(st.data())
def test_replies_are_consistent_and_follow_the_policy(data) -> None:
    engine, referee, order = setup(data)
    target = referee.target
    for policy in ORACLE_POLICIES:
        for y in sorted(referee.target_values()):
            oracle = Oracle(engine, y, policy=policy, seed=data.draw(st.integers(0, 5)))
            answers: dict[str, Any] = {}
            for var in order:
                options = [
                    v for v in (False, True) if v in referee.variable_values(var, answers, y)
                ]
                assert options, "the referee lost every world with the hidden value"
                assert oracle.consistent_values(var) == options
                reply = oracle.reply(var)
                assert reply in options, (policy, y, var)
                scores = [remaining(referee, answers, var, v) for v in options]
                if policy == "adversarial":
                    # The most target values kept; ties go to the first in domain order.
                    assert remaining(referee, answers, var, reply) == max(scores)
                    assert reply == options[scores.index(max(scores))]
                elif policy == "cooperative":
                    assert remaining(referee, answers, var, reply) == min(scores)
                    assert reply == options[scores.index(min(scores))]
                answers[var] = reply
                # Consistent with C, A, all replies so far and the hidden target value.
                assert any(w[target] == y for w in referee.matching(answers))
                assert oracle.answers == answers
                assert oracle.possible_target_values() == [
                    v for v in (False, True) if v in referee.target_values(answers)
                ]
                assert oracle.known() == (len(referee.target_values(answers)) == 1)
                # Asking again gives the same answer and changes nothing.
                assert oracle.reply(var) == reply
                assert oracle.answers == answers
            # After every askable variable the hidden value is still possible.
            assert y in oracle.possible_target_values()


@settings(max_examples=100, **SETTINGS)
@given(st.data())
def test_random_oracle_is_seeded(data) -> None:
    engine, referee, order = setup(data)
    seed = data.draw(st.integers(0, 1000), label="seed")
    for y in sorted(referee.target_values()):
        first = Oracle(engine, y, policy="random", seed=seed)
        second = Oracle(engine, y, policy="random", seed=seed)
        replies_1 = [first.reply(v) for v in order]
        replies_2 = [second.reply(v) for v in order]
        assert replies_1 == replies_2
        # The replies come from one hidden full world with the hidden target value.
        world = dict(zip(order, replies_1))
        assert any(
            w[referee.target] == y and all(w[v] == world[v] for v in order)
            for w in referee.worlds
        )


def test_random_oracle_differs_across_seeds() -> None:
    names = [f"x{i}" for i in range(6)] + ["y"]
    engine = HornEngine(names, [["y", "not x0"]], {}, "y")
    order = names[:-1]
    sequences = {
        tuple(Oracle(engine, True, policy="random", seed=seed).reply(v) for v in order)
        for seed in range(10)
    }
    assert len(sequences) > 1
    # Adversarial and cooperative take no randomness from the seed.
    for policy in ("adversarial", "cooperative"):
        runs = {
            tuple(Oracle(engine, True, policy=policy, seed=seed).reply(v) for v in order)
            for seed in range(10)
        }
        assert len(runs) == 1


def test_adversarial_and_cooperative_differ_where_it_matters() -> None:
    """y <-> a & b. With y hidden False, asking a: adversarial says True (y stays open),
    cooperative says False (y pinned)."""
    clauses = [["y", "not a", "not b"], ["a", "not y"], ["b", "not y"]]
    engine = HornEngine(["a", "b", "y"], clauses, {}, "y")
    adversarial = Oracle(engine, False, policy="adversarial")
    cooperative = Oracle(engine, False, policy="cooperative")
    assert adversarial.reply("a") is True
    assert not adversarial.known()
    assert adversarial.reply("b") is False
    assert adversarial.known() and adversarial.possible_target_values() == [False]
    assert cooperative.reply("a") is False
    assert cooperative.known()
    # With y hidden True both must say True (the only consistent value).
    for policy in ORACLE_POLICIES:
        oracle = Oracle(engine, True, policy=policy)
        assert oracle.reply("a") is True and oracle.reply("b") is True


def test_random_oracle_unsure_only_when_undetermined() -> None:
    clauses = [["y", "not a", "not b"], ["a", "not y"], ["b", "not y"]]
    engine = HornEngine(["a", "b", "c", "y"], clauses, {}, "y")
    oracle = Oracle(engine, True, policy="random", unsure_rate=1.0)
    assert oracle.reply("a") is True  # determined by y = True: never unsure
    assert oracle.reply("c") == UNSURE  # free: unsure at rate 1
    assert "c" not in oracle.answers
    sure = Oracle(engine, True, policy="random", unsure_rate=0.0)
    assert sure.reply("c") in (False, True)


def test_oracle_rejects_impossible_hidden_value() -> None:
    engine = HornEngine(["a", "y"], [["y", "not a"]], {"a": True}, "y")
    with pytest.raises(ValueError):
        Oracle(engine, False)
    Oracle(engine, True)  # the possible value is accepted
    with pytest.raises(ValueError):
        Oracle(engine, "maybe")


def test_oracle_rejects_unknown_policy() -> None:
    engine = HornEngine(["a", "y"], [["y", "not a"]], {}, "y")
    with pytest.raises(ValueError, match="policy"):
        Oracle(engine, True, policy="helpful")


# ------------------------------------------------------------------- refusals
QUERY_CONTEXT = {
    "variables": ["a", "b", "c", "d", "e", "y"],
    "askable": ["a", "b"],
    "observed": ["c"],
    "target": "y",
    "asked": ["b"],
}


@pytest.mark.parametrize(
    ("name", "reason"),
    [
        ("a", None),
        ("zzz", "unknown"),
        ("", "unknown"),
        ("A", "unknown"),
        ("y", "target"),
        ("c", "observed"),
        ("d", "forbidden"),
        ("e", "forbidden"),
        ("b", "repeated"),
    ],
)
def test_check_query_reasons(name: str, reason: str | None) -> None:
    assert check_query(name, **QUERY_CONTEXT) == reason


def test_check_query_refuses_target_even_if_listed_askable() -> None:
    context = dict(QUERY_CONTEXT, askable=["a", "b", "y"], asked=[])
    assert check_query("y", **context) == "target"
    context = dict(QUERY_CONTEXT, askable=["a", "b", "c"], asked=[])
    assert check_query("c", **context) == "observed"


@settings(max_examples=100, **SETTINGS)
@given(st.data())
def test_check_query_never_lets_the_target_through(data) -> None:
    engine, _, order = setup(data)
    asked = order[: data.draw(st.integers(0, len(order)))]
    context = {
        "variables": list(engine.variables), "askable": [*order, engine.target],
        "observed": list(engine.observed), "target": engine.target, "asked": asked,
    }
    assert check_query(engine.target, **context) == "target"
    for v in engine.observed:
        assert check_query(v, **context) == "observed"
    for v in order:
        assert check_query(v, **context) == ("repeated" if v in asked else None)


def test_refusal_text_names_reason_and_variable() -> None:
    for reason, why in REFUSAL_REASONS.items():
        text = refusal_text(reason, "kind", noun="attribute")
        assert why.format(noun="attribute", a_noun="an attribute") in text and "'kind'" in text
    assert "not valid" in refusal_text("no_such_reason", noun="attribute")


def test_logic_refusals_read_as_they_always_did() -> None:
    """The logic domain calls a variable an attribute: its refusals keep their words."""
    noun = get_domain("logic").wording.noun
    assert refusal_text("unknown", "kind", noun=noun) == (
        "Cannot answer about 'kind': there is no attribute with that name in this problem.")
    assert refusal_text("template", None, noun=noun) == (
        "Cannot answer about that: that line is the example from the instructions, not a "
        "question about an attribute (put a name in place of the words in angle brackets).")
    assert refusal_text("bad_arguments", None, noun=noun).endswith(
        "(call ask with one attribute name).")


@pytest.mark.parametrize("domain", ["math", "genereg", "clinguide"])
def test_refusals_call_a_variable_what_the_domain_calls_it(domain: str) -> None:
    noun = get_domain(domain).wording.noun
    assert noun != "attribute"
    worded = [reason for reason, why in REFUSAL_REASONS.items() if "noun}" in why]
    assert {"unknown", "forbidden", "observed", "repeated", "malformed", "template"} <= set(
        worded)
    for reason in REFUSAL_REASONS:
        text = refusal_text(reason, "X", noun=noun)
        assert "attribute" not in text, text
        assert "{" not in text, text
        if reason in worded:
            assert noun in text, text
    assert f"about a {noun} (put a name" in refusal_text("template", None, noun=noun)


def test_with_article() -> None:
    assert [with_article(n) for n in ("attribute", "gene", "quantity", "item")] == [
        "an attribute", "a gene", "a quantity", "an item"]
