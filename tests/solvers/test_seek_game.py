"""The seek game (`infoseek.solvers.seek.game`), without Inspect: parsed turns in, turn
records and replies out (`play_turn`), and the options checked once and stored as before
(`SeekOptions`)."""

from __future__ import annotations

import re

import pytest

from infoseek.contract import (
    QUERY_FIELDS,
    TURN_FIELDS,
    ParsedQuery,
    ParsedTurn,
    QueryRecord,
    TurnRecord,
)
from infoseek.domains import get_domain
from infoseek.oracles import Oracle
from infoseek.oracles.refusals import EARLY_ANSWER, invalid_turn_message, refusal_text
from infoseek.records import engine_from_record
from infoseek.solvers.seek.game import Episode, SeekOptions, play_turn

# goal <-> (a and b); c is observed, d decides nothing
RECORD = {
    "id": "play-turn-k2", "domain": "logic", "entity": "Alice",
    "engine": {"kind": "horn", "clauses": [["goal", "not a", "not b"], ["not goal", "a"],
                                           ["not goal", "b"]]},
    "variables": ["goal", "a", "b", "c", "d"], "observed": {"c": True}, "target": "goal",
    "target_values": [False, True], "queryable": ["a", "b", "d"], "k": 2,
    "mss_family": [["a", "b"]],
}
LOGIC = get_domain("logic")


def episode(target_value: bool = True, *, domain=LOGIC, **rules) -> Episode:
    oracle = Oracle(engine_from_record(RECORD), target_value, policy="adversarial")
    rules = {"fmt": "text", "max_turns": 3, "k": 2, **rules}
    return Episode(oracle=oracle, domain=domain, entity="Alice", **rules)


def ask(*queries: tuple[str | None, str | None]) -> ParsedTurn:
    """An asking turn: (variable, reason) per query; no reason means valid."""
    return ParsedTurn("ask", tuple(ParsedQuery(f"Is Alice {v}?", v, r is None, r)
                                   for v, r in queries), None, None, None)


def answer(value: object) -> ParsedTurn:
    return ParsedTurn("answer", (), value, f"Answer: {value}", None)


def test_a_valid_question_gets_the_oracles_value_in_the_domains_words() -> None:
    game = episode(True)
    record, replies = play_turn(game, ask(("a", None)))
    assert record == TurnRecord(
        turn=1, action="ask",
        queries=(QueryRecord("Is Alice a?", "a", True, None, True, "Yes, Alice is a."),),
        answer=None, answer_raw=None, reason=None, final_turn=False,
        possible_target_values=[False, True], known=False)
    assert replies == ["Yes, Alice is a."]
    assert game.asked == ["a"] and game.turns == [record] and not game.over
    record, _ = play_turn(game, ask(("b", None)))
    assert (record.turn, record.possible_target_values, record.known) == (2, [True], True)


def test_an_invalid_question_is_refused_with_its_reason_and_reveals_nothing() -> None:
    game = episode(True)
    record, replies = play_turn(game, ask(("c", "observed"), (None, "unknown")))
    assert [(q.valid, q.reason, q.value) for q in record.queries] == [
        (False, "observed", None), (False, "unknown", None)]
    assert replies == [refusal_text("observed", "c", noun="attribute"),
                       refusal_text("unknown", None, noun="attribute")]
    assert [q.reply for q in record.queries] == replies
    assert game.asked == [] and game.oracle.answers == {}
    assert record.possible_target_values == [False, True]


def test_an_answer_ends_the_episode() -> None:
    game = episode(False)
    record, replies = play_turn(game, answer(False))
    assert (record.action, record.answer, record.answer_raw, record.reason) == (
        "answer", False, "Answer: False", None)
    assert replies == [] and game.over


def test_force_ask_refuses_an_early_answer_until_the_final_turn() -> None:
    game = episode(True, force_ask=True, max_turns=2)
    record, replies = play_turn(game, answer(True))
    assert (record.action, record.reason, record.answer) == ("invalid", "early_answer", None)
    assert replies == [EARLY_ANSWER.format(k=2, asked=0)]
    assert not game.over
    play_turn(game, ask(("a", None)))
    assert game.final_turn
    record, replies = play_turn(game, answer(True))  # the final turn takes any answer
    assert (record.action, record.answer, record.final_turn) == ("answer", True, True)
    assert game.over


def test_a_question_on_the_final_turn_is_refused_and_ends_the_episode() -> None:
    game = episode(True, max_turns=1)
    play_turn(game, ask(("a", None)))
    record, replies = play_turn(game, ask(("b", None)))
    assert record.final_turn and game.over
    assert [(q.valid, q.reason, q.value) for q in record.queries] == [(False, "too_many", None)]
    assert replies == [refusal_text("too_many", "b", noun="attribute")]
    assert game.asked == ["a"] and "b" not in game.oracle.answers


def test_an_invalid_turn_gets_one_correction() -> None:
    game = episode(True, fmt="tool")
    parsed = ParsedTurn("invalid", (ParsedQuery("ask(x)", None, False, "multiple_actions"),),
                        None, "Answer: yes", "multiple_actions")
    record, replies = play_turn(game, parsed)
    assert (record.action, record.reason, record.answer_raw) == (
        "invalid", "multiple_actions", "Answer: yes")
    assert record.queries == (QueryRecord("ask(x)", None, False, "multiple_actions"),)
    assert replies == [invalid_turn_message("multiple_actions", wording=LOGIC.wording,
                                            fmt="tool", answer_kind="boolean",
                                            entity="Alice")]


@pytest.mark.parametrize("target_value", [False, True])
def test_the_hidden_target_value_never_leaks(target_value: bool) -> None:
    game = episode(target_value)
    turns = [ask(("goal", "target")), ask(("d", None)), ask(("goal", "target"), ("a", None))]
    for parsed in turns:
        record, replies = play_turn(game, parsed)
        for query in record.queries:
            if query.variable == "goal":
                assert (query.valid, query.value) == (False, None)
                assert query.reply == refusal_text("target", "goal", noun="attribute")
        assert not any("Alice is goal" in reply or "not goal" in reply for reply in replies)
        if not record.known:
            assert record.possible_target_values == [False, True]
    assert "goal" not in game.oracle.answers and "goal" not in game.asked


def test_refusals_use_the_domains_noun() -> None:
    game = episode(True, domain=get_domain("genereg"))
    record, replies = play_turn(game, ask(("zz", "unknown")))
    assert replies == ["Cannot answer about 'zz': there is no gene with that name in this "
                       "problem."]


def test_the_stored_form_is_the_contracts() -> None:
    game = episode(True)
    record, _ = play_turn(game, ask(("a", None), ("c", "observed")))
    stored = record.to_dict()
    assert tuple(stored) == TURN_FIELDS
    assert all(tuple(query) == QUERY_FIELDS for query in stored["queries"])
    assert stored["queries"][1] == {"raw": "Is Alice c?", "variable": "c", "valid": False,
                                    "reason": "observed", "value": None,
                                    "reply": refusal_text("observed", "c", noun="attribute")}
    assert isinstance(stored["queries"], list)


@pytest.mark.parametrize("reason", ["context_overflow", "truncated"])
def test_a_terminal_reason_ends_the_episode_without_a_reply(reason) -> None:
    game = episode(True)
    play_turn(game, ask(("a", None)))
    record, replies = play_turn(game, ParsedTurn("invalid", (), None, None, reason))
    assert (record.turn, record.action, record.reason, record.answer) == (2, "invalid",
                                                                           reason, None)
    assert record.queries == () and replies == []
    assert game.over and not record.final_turn
    assert game.asked == ["a"]


def test_an_ordinary_invalid_turn_does_not_end_the_episode() -> None:
    game = episode(True)
    record, replies = play_turn(game, ParsedTurn("invalid", (), None, None, "no_action"))
    assert not game.over and len(replies) == 1


# ------------------------------------------------------------------------------ options


def test_the_stored_options_keep_their_keys_values_and_order() -> None:
    assert list(SeekOptions().stored().items()) == [
        ("format", "tool"), ("max_turns", 10), ("queries_per_turn", 1), ("budget", False),
        ("force_ask", False), ("forbid_alternatives", False), ("carry_reasoning", False),
        ("oracle", "adversarial"), ("seed", 0)]
    options = SeekOptions(format="text", max_turns=3, queries_per_turn=2, budget=1,
                          force_ask=True, forbid_alternatives=True, carry_reasoning=True,
                          oracle="random", seed=7)
    assert options.stored() == {
        "format": "text", "max_turns": 3, "queries_per_turn": 2, "budget": True,
        "force_ask": True, "forbid_alternatives": True, "carry_reasoning": True,
        "oracle": "random", "seed": 7}
    assert options.budget is True  # a flag is stored as a boolean


@pytest.mark.parametrize(("given", "message"), [
    ({"format": "json"}, "format must be one of tool, text; got 'json'"),
    ({"oracle": "kind"}, "unknown oracle policy 'kind'; choose one of adversarial, "
                         "cooperative, random, world, withholding, withholding_all"),
    ({"max_turns": 0}, "max_turns must be an integer >= 1; got 0"),
    ({"max_turns": True}, "max_turns must be an integer >= 1; got True"),
    ({"queries_per_turn": "2"}, "queries_per_turn must be an integer >= 1; got '2'"),
])
def test_options_are_checked_when_made(given, message) -> None:
    with pytest.raises(ValueError, match=f"^{re.escape(message)}$"):
        SeekOptions(**given)


def test_options_are_frozen() -> None:
    with pytest.raises(AttributeError):
        SeekOptions().max_turns = 3  # type: ignore[misc]
