"""Whether a released GSME-Q-MT(-Ext) problem can be posed, and the record a task poses
(the `pose` of the two formats in `infoseek.builders.math.released.source_format`).

A task checks the model's answer against the answer the hidden world (the released leaf
values) gives, so the released values must agree with the revealed ones and give the
released answer. A released answer written as a rounded decimal that the exact value
rounds to at the places written (3.33 for 10/3: within 0.005) stands for that exact
value: the record is posed with the exact answer, and ``released`` keeps what the file
says and how it was rounded. `infoseek verify` reports the same disagreements in full.
"""

from __future__ import annotations

from typing import Any

from infoseek.builders.math.released.parse import rounding_note
from infoseek.builders.published import Record, Unposable
from infoseek.builders.published.cells import close_enough
from infoseek.engines.arith.expr import encode_rational, parse_rational
from infoseek.records import engine_from_record

ROUNDED_ANSWER = "rounded answer"
"""What `unposable_reason` says when only the released answer's rounding stands in the
way (the record is posed with the exact answer)."""


def unposable_reason(record: dict[str, Any]) -> str | None:
    """Why `record` cannot be posed, or None; `ROUNDED_ANSWER` when only the released
    answer's rounding stands in the way."""
    world = record.get("hidden_world")
    if world is None or "answer" not in record:
        return None
    for name, value in record["observed"].items():
        if name in world and parse_rational(world[name]) != parse_rational(value):
            return f"the released values disagree with the revealed {name}"
    try:
        computed = engine_from_record(record).world_target(world)
    except ValueError as exc:
        return f"the released values give no answer: {exc}"
    answer = parse_rational(record["answer"])
    if computed == answer:
        return None
    # a released decimal written with d places stands for the exact value when that
    # rounds to it at d places (3.33 for 10/3); anything else is a disagreement
    places = (record.get("released") or {}).get("answer_decimal_places")
    if close_enough(answer, computed, places):
        return ROUNDED_ANSWER
    return ("the released answer differs from the one its values give ("
            + rounding_note("answer", answer, computed, places) + ")")


def with_exact_answer(record: dict[str, Any]) -> dict[str, Any]:
    """`record` with its answer replaced by the exact value its hidden world gives (for a
    released answer that is that value rounded; `released` keeps the written one)."""
    computed = engine_from_record(record).world_target(record["hidden_world"])
    released = dict(record.get("released") or {})
    if released.get("answer_decimal_places") is not None:
        released["answer_rounding"] = rounding_note(
            "answer", parse_rational(record["answer"]), computed,
            released["answer_decimal_places"])
    return {**record, "answer": encode_rational(computed), "released": released}


def pose(record: Record) -> Record:
    """The record a task poses: `record` itself, or with the exact answer for a rounded
    released one; raises `Unposable` saying why it cannot be posed."""
    problem = unposable_reason(record)
    if problem is None:
        return record
    if problem == ROUNDED_ANSWER:
        return with_exact_answer(record)
    raise Unposable(problem)
