"""The single-turn game without Inspect (`infoseek.solvers.single_turn.game.play_reply`):
the reply's text in, the one turn record out, stored as the contract says."""

from __future__ import annotations

import pytest

from infoseek.contract import SINGLE_TURN_FIELDS, SingleTurnRecord
from infoseek.single_turn import NO_QUESTION, NOT_SURE
from infoseek.solvers.single_turn.game import play_reply

RECORD = {"domain": "logic", "entity": "Alice", "target": "tall",
          "target_values": [False, True]}
CHOICES = ["kind", "unkind", "brave", NO_QUESTION]


def test_question_selection_records_the_chosen_option() -> None:
    record = play_reply("question_selection", RECORD, CHOICES, "Answer: 2")
    assert record == SingleTurnRecord(1, "answer", "unkind", "Answer: 2", None)
    assert play_reply("question_selection", RECORD, CHOICES, "Answer: 4").answer == NO_QUESTION


@pytest.mark.parametrize(("protocol", "text", "answer"), [
    ("detection", "Answer: Not sure", NOT_SURE),
    ("detection", "Answer: yes", True),
    ("well_specified", "Answer: no", False),
])
def test_a_value_is_recorded_as_json_holds_it(protocol, text, answer) -> None:
    record = play_reply(protocol, RECORD, CHOICES, text)
    assert (record.action, record.answer, record.reason) == ("answer", answer, None)


def test_a_reply_not_read_is_invalid_with_its_reason() -> None:
    record = play_reply("question_selection", RECORD, CHOICES, "Answer: 1 or 2")
    assert (record.action, record.answer, record.reason) == ("invalid", None, "ambiguous")
    assert play_reply("well_specified", RECORD, CHOICES, "Answer: Not sure").action == "invalid"


def test_a_stopped_reply_is_not_read() -> None:
    record = play_reply("question_selection", RECORD, CHOICES, "Answer: 2", "truncated")
    assert (record.action, record.answer, record.reason) == ("invalid", None, "truncated")
    assert record.answer_raw == "Answer: 2"


def test_the_stored_form_keeps_the_contract_fields_in_order_and_the_reply_end() -> None:
    text = "x " * 1250 + "\nAnswer: 3"
    stored = play_reply("question_selection", RECORD, CHOICES, text).to_dict()
    assert tuple(stored) == SINGLE_TURN_FIELDS == ("turn", "action", "answer", "answer_raw",
                                                   "reason")
    assert stored["answer_raw"] == text[-2000:] and stored["answer"] == "brave"
