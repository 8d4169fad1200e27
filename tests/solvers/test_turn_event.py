"""The one-line summary of the seek loop's per-turn info event."""

from __future__ import annotations

from infoseek.engine import UNBOUNDED
from infoseek.solvers.seek.session import turn_event


def record(**fields):
    return {"turn": 2, "action": "ask", "reason": None, "known": False,
            "possible_target_values": [False, True], **fields}


def test_the_summary_names_known_and_the_values_still_possible():
    event = turn_event(record())
    assert event["summary"] == "turn 2: ask; known: no; possible: no, yes"
    assert list(event)[:3] == ["summary", "known", "possible_target_values"]


def test_an_invalid_turn_says_its_reason():
    event = turn_event(record(action="invalid", reason="ambiguous", known=True,
                              possible_target_values=["7/2"]))
    assert event["summary"] == "turn 2: invalid (ambiguous); known: yes; possible: 7/2"


def test_unbounded_values_read_as_infinitely_many():
    event = turn_event(record(possible_target_values=UNBOUNDED))
    assert event["summary"].endswith("possible: infinitely many")
    assert event["possible_target_values"] == UNBOUNDED
