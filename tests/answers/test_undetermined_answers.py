"""The "cannot be determined" answer (issue 34): one fixed form in both formats, hedges
and second values never credited, scored only on samples no question can settle."""

from __future__ import annotations

import dataclasses
import math

import pytest

from infoseek.contract import UNDETERMINED
from infoseek.scorers.seek_metrics import answer_metrics
from infoseek.scorers.undetermined import detection_rates, undetermined_values
from infoseek.solvers.seek.parse_context import ParseContext
from infoseek.solvers.seek.parsing import parse_text_turn
from infoseek.solvers.seek.tool_parsing import parse_tool_calls

CONTEXT = ParseContext(entity="Alice", variables=["kind", "tall", "red"],
                       askable=["tall", "red"], observed=[], target="kind",
                       undetermined=True)
NUMBERS = ParseContext(entity="", variables=["total", "a"], askable=["a"], observed=[],
                       target="total", answer_kind="number", undetermined=True)
PLAIN = dataclasses.replace(CONTEXT, undetermined=False)
"""A task that does not offer the form (no unanswerable problems mixed in)."""


@pytest.mark.parametrize("text", [
    "Answer: cannot be determined",
    "Answer: **Cannot be determined.**",
    "I asked everything I may ask.\nAnswer: cannot be determined",
    "Answer: cannot be determined because no attribute I may ask settles it.",
    'Answer: "cannot be determined"',
])
def test_the_form_is_read(text):
    turn = parse_text_turn(text, CONTEXT)
    assert (turn.kind, turn.answer_value) == ("answer", UNDETERMINED)


@pytest.mark.parametrize("text", [
    "Answer: cannot be determined. Alice is kind.",
    "Answer: cannot be determined, but probably yes",
    "Answer: yes, or it cannot be determined",
    "Answer: undetermined",
    "Answer: It cannot be determined",
    "Answer: cannot be determined\n\nActually, yes.",
    "Answer: cannot be determined (maybe yes)",
    "Answer: cannot be determined; correction: yes",
    "Answer: cannot be determined. No wait: yes",
    "Answer: cannot be determined; scratch that, yes",
    "Answer: cannot be determined. On second thought, Alice is kind.",
    "Answer: cannot be determined. I was wrong, it is kind.",
])
def test_hedges_and_second_values_are_ambiguous(text):
    turn = parse_text_turn(text, CONTEXT)
    assert (turn.kind, turn.reason) == ("invalid", "ambiguous")


def test_ordinary_answers_unchanged():
    assert parse_text_turn("Answer: Alice is not kind.", CONTEXT).answer_value is False
    assert parse_text_turn("Answer: 42", NUMBERS).answer_value == 42
    assert parse_text_turn("Answer: cannot be determined", NUMBERS).answer_value == UNDETERMINED


def test_tool_answer_argument():
    turn = parse_tool_calls([("answer", {"value": "cannot be determined"})], CONTEXT)
    assert (turn.kind, turn.answer_value) == ("answer", UNDETERMINED)
    turn = parse_tool_calls([("answer", {"value": "Cannot be determined."})], NUMBERS)
    assert turn.answer_value == UNDETERMINED
    # a second value beside the call, in the message text
    turn = parse_tool_calls([("answer", {"value": "cannot be determined"})], CONTEXT,
                            text="Answer: yes")
    assert turn.reason == "ambiguous"
    turn = parse_tool_calls([("answer", {"value": "yes"})], CONTEXT,
                            text="Answer: cannot be determined")
    assert turn.reason == "ambiguous"
    turn = parse_tool_calls([("answer", {"value": "cannot be determined"})], CONTEXT,
                            text="Answer: cannot be determined")
    assert turn.answer_value == UNDETERMINED
    turn = parse_tool_calls([("answer", {"value": "cannot be determined or yes"})], CONTEXT)
    assert turn.reason == "ambiguous"


@pytest.mark.parametrize("fmt", ["text", "tool"])
def test_a_task_that_does_not_offer_the_form_reads_the_phrase_as_before(fmt):
    # without -T unanswerable the prompt never shows the form: the phrase is no answer
    # of the task (garbage, with a reason), as it was before the form existed
    turn = (parse_text_turn("Answer: cannot be determined", PLAIN) if fmt == "text" else
            parse_tool_calls([("answer", {"value": "cannot be determined"})], PLAIN))
    assert turn.kind == "invalid" and turn.reason is not None
    assert turn.answer_value != UNDETERMINED


def _answered(value, final_turn=False):
    return [{"action": "ask", "final_turn": False},
            {"action": "answer", "answer": value, "final_turn": final_turn}]


def test_accuracy_credits_the_form_only_where_it_is_true():
    assert answer_metrics(_answered(UNDETERMINED), UNDETERMINED)["accuracy"] == 1.0
    assert answer_metrics(_answered(True), UNDETERMINED)["accuracy"] == 0.0
    assert answer_metrics(_answered(UNDETERMINED), True, kind="boolean")["accuracy"] == 0.0
    assert answer_metrics(_answered(UNDETERMINED), 7, kind="number")["accuracy"] == 0.0
    assert answer_metrics([], UNDETERMINED)["accuracy"] == 0.0


def test_sample_values_and_stopping():
    assert undetermined_values(_answered(UNDETERMINED), True) == {
        "said_undetermined": 1.0, "unanswerable": 1.0, "stopped_before_cap": 1.0}
    late = undetermined_values(_answered(UNDETERMINED, final_turn=True), True)
    assert late["stopped_before_cap"] == 0.0 and late["said_undetermined"] == 1.0
    assert undetermined_values([{"action": "ask"}], True)["stopped_before_cap"] == 0.0
    assert math.isnan(undetermined_values(_answered(False), False)["stopped_before_cap"])


def test_detection_rates_by_hand():
    # (said, unanswerable): 2 hits, 1 false alarm, 1 miss
    pairs = [(True, True), (True, True), (True, False), (False, True), (False, False)]
    rates = detection_rates(pairs)
    assert rates["undetermined_precision"] == pytest.approx(2 / 3)
    assert rates["undetermined_recall"] == pytest.approx(2 / 3)
    assert rates["undetermined_f1"] == pytest.approx(2 / 3)
    assert detection_rates([(False, True)]) == {"undetermined_precision": 0.0,
                                                "undetermined_recall": 0.0,
                                                "undetermined_f1": 0.0}
