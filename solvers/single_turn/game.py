"""The single-turn protocols' pure game (protocols §3.4-3.6): one prompt, one reply, one
turn record. No Inspect here; the solver (`infoseek.solvers.single_turn.solver`) is the
adapter that makes the generate call and writes the record.

`play_reply` is the step: the reply's text in (or the reason Inspect stopped it), the turn
record out (`infoseek.contract.SingleTurnRecord`). Question selection reads an option
number (`infoseek.solvers.single_turn.reading.read_choice`) and records the option's text;
detection and well-specified read a value (`infoseek.solvers.single_turn.values.read_value`;
detection also takes "Not sure") and record it as JSON holds it. A reply that is not read
is an invalid turn with the reason.
"""

from __future__ import annotations

from typing import Any

from infoseek.contract import ACTION_ANSWER, ACTION_INVALID, SingleTurnRecord
from infoseek.engine import json_value
from infoseek.solvers.single_turn.reading import Reading, read_choice
from infoseek.solvers.single_turn.values import read_value

RAW_CHARS = 2_000
"""How much of the reply's end the record keeps (``answer_raw``)."""


def read_reply(protocol: str, text: str, record: dict[str, Any], choices: list[str]
               ) -> Reading:
    """The reply's pick in `protocol`: an option index of `choices` in question selection,
    else a value of `record`'s target (``Not sure`` allowed in detection)."""
    if protocol == "question_selection":
        return read_choice(text, record, choices)
    return read_value(text, record, allow_not_sure=protocol == "detection")


def play_reply(protocol: str, record: dict[str, Any], choices: list[str], text: str,
               stop: str | None = None) -> SingleTurnRecord:
    """The turn record of the reply `text` to `record`'s prompt (module docstring); a
    `stop` reason (`infoseek.contract.STOP_REASONS`) means the reply is not read."""
    reading = Reading(reason=stop) if stop else read_reply(protocol, text, record, choices)
    pick = reading.pick
    if protocol == "question_selection" and reading.valid:
        pick = choices[pick]
    elif reading.valid:
        pick = json_value(pick)
    return SingleTurnRecord(turn=1, action=ACTION_ANSWER if reading.valid else ACTION_INVALID,
                            answer=pick, answer_raw=text[-RAW_CHARS:], reason=reading.reason)
