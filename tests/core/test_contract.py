"""The contract module is the one definition of the names that cross the layers: the
docs list exactly its names, the layers use its constants, and a real episode writes
records with exactly its fields."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from inspect_ai import eval

from infoseek import contract
from infoseek.inspect_tasks.incomplete_questions import incomplete_questions
from infoseek.inspect_tasks.logic_mt import logic_mt
from infoseek.stored_forms import turns_from_store
from tests.support.common import assert_eval_success

DOC = Path(__file__).resolve().parents[2] / "docs" / "contracts.md"

LISTED = {
    "Store keys": contract.STORE_KEYS,
    "Protocols": contract.PROTOCOLS,
    "Turn-record fields": contract.TURN_FIELDS,
    "Query fields": contract.QUERY_FIELDS,
    "Incomplete turn-record fields": contract.INCOMPLETE_TURN_FIELDS,
    "Single-turn record fields": contract.SINGLE_TURN_FIELDS,
    "Actions": contract.ACTIONS,
    "Invalid reasons": contract.INVALID_REASONS,
    "Answer kinds": contract.ANSWER_KINDS,
    "Interaction formats": contract.INTERACTION_FORMATS,
}


def documented() -> dict[str, list[str]]:
    """The names each `- <Label>: ...` item of the docs' contract section lists."""
    text = DOC.read_text(encoding="utf-8")
    section = text.split("## Contract names (`infoseek/contract.py`)", 1)[1]
    items = re.split(r"\n- ", section)[1:]
    out = {}
    for item in items:
        label, _, rest = item.partition(":")
        out[label.strip()] = re.findall(r"`([^`]+)`", rest)
    return out


def test_the_docs_list_exactly_the_contract_names():
    docs = documented()
    assert set(docs) == set(LISTED)
    for label, names in LISTED.items():
        assert docs[label] == list(names), label


def test_no_name_is_defined_twice():
    for label, names in LISTED.items():
        assert len(set(names)) == len(names), label


def test_every_layer_reads_the_contract():
    from infoseek.scorers import incomplete as incomplete_scorer
    from infoseek.scorers import seek as seek_scorer
    from infoseek.scorers import seek_metrics
    from infoseek.solvers.reference import models as reference_models
    from infoseek.solvers.seek import answer_parsing, parsing
    from infoseek.solvers.seek import solver as seek

    assert parsing.INVALID_REASONS is contract.INVALID_REASONS
    assert seek_metrics.INVALID_REASONS is contract.INVALID_REASONS
    assert answer_parsing.ANSWER_KINDS is contract.ANSWER_KINDS
    # the layers name the store keys by the contract's own names, not by aliases
    assert seek_scorer.STORE_TURNS is contract.STORE_TURNS
    assert reference_models.STORE_PROBLEM is seek_scorer.STORE_PROBLEM
    assert incomplete_scorer.STORE_TURNS is contract.STORE_TURNS
    for module in (seek_scorer, incomplete_scorer, seek, reference_models):
        assert not [name for name in vars(module) if name.endswith("_KEY")], module
    # every invalid reason gets its own count in the scores (none falls to "other")
    assert {f"invalid_{r}" for r in contract.INVALID_REASONS} <= set(
        seek_metrics.SCALAR_METRIC_NAMES)


@pytest.mark.parametrize("fmt", ["tool", "text"])
def test_a_real_episode_writes_exactly_the_contract_fields(fmt, tmp_path):
    [log] = eval(logic_mt(k=[2], per_k=1, format=fmt), model="infoseek/optimal",
                 log_dir=str(tmp_path), display="none")
    assert_eval_success(log)
    for sample in log.samples:
        assert set(sample.store) <= set(contract.STORE_KEYS)
        assert sample.store[contract.STORE_PROTOCOL] in contract.PROTOCOLS
        turns = turns_from_store(sample.store[contract.STORE_TURNS])
        assert turns
        for turn in turns:
            assert tuple(turn) == contract.TURN_FIELDS
            assert turn["action"] in contract.ACTIONS
            for query in turn["queries"]:
                assert tuple(query) == contract.QUERY_FIELDS


@pytest.mark.parametrize("variant", ["questionable", "raw"])
def test_a_real_incomplete_episode_writes_exactly_the_contract_fields(variant, tmp_path):
    [log] = eval(incomplete_questions(variant=variant, count=3), model="infoseek/optimal",
                 log_dir=str(tmp_path), display="none")
    assert_eval_success(log)
    for sample in log.samples:
        assert set(sample.store) <= set(contract.STORE_KEYS)
        assert sample.store[contract.STORE_PROTOCOL] == "incomplete"
        turns = turns_from_store(sample.store[contract.STORE_TURNS])
        assert turns and turns[-1]["final"] is True
        for turn in turns:
            assert tuple(turn) == contract.INCOMPLETE_TURN_FIELDS


def test_an_incomplete_turn_record_stores_lists_in_the_field_order():
    record = contract.IncompleteTurnRecord(
        turn=1, response="r", tool_calls=({"function": "ask_user", "arguments": {"q": "?"}},),
        behaviour="asked_question", boxed=None, boxes=(), answer_reason=None,
        set_aside=("echoed_tag",), question="?", question_via="tool", extra_questions=0,
        says_assume_or_suppose=False, says_lets_say=False, user_reply=None,
        user_source=None, revealed=None, reminded=False, final_turn=False, final=False)
    stored = record.to_dict()
    assert tuple(stored) == contract.INCOMPLETE_TURN_FIELDS
    assert stored["tool_calls"] == [{"function": "ask_user", "arguments": {"q": "?"}}]
    assert stored["boxes"] == [] and stored["set_aside"] == ["echoed_tag"]
