"""Issue 30: one reading of a reply in every protocol (protocols §3.8).

Class 1: no blank-line cut (a correction, second value, retraction, confidence or "not
sure" after a blank line is read as on the next line; plain remarks are not); class 4:
an answer line in the text beside an ``answer`` call; class 5: a choice joined to
another (``A1 with A4``); and the issue's one answer-line rule
(`infoseek.answers.answer_lines`). The problem-level and single-turn sides are in
tests/scorers/test_problem_reading.py and tests/solvers/test_single_turn_reading.py.
"""

from __future__ import annotations

import pytest

from infoseek.answers import answer_kind, answer_spec
from infoseek.answers.answer_lines import answer_lines, answer_marker_end
from infoseek.engines.planning import plan_kind
from tests.support.parsing import LOGIC, MATH, parse_text, parse_tools

CHOICE = answer_spec("choice", values=["S1", "S2", "S3"])
VECTOR = answer_spec("vector", values=[{"TGFB": 1, "SMAD": 0}, {"TGFB": 0, "SMAD": 1}])
STEPS = ["pick up A", "stack A on B", "unstack A from B", "put down A"]
SEQUENCE = answer_spec("sequence", values=[STEPS[:2], STEPS[2:]])
PLAN_SPEC = answer_spec(plan_kind.NAME, values=None)

# (context fields, the value written, another value, the value read)
KINDS = {
    "boolean": (LOGIC, "Ingrid is courteous.", "Ingrid is not courteous.", True),
    "number": (MATH, "42", "43", 42),
    "choice": ({**LOGIC, "answer": CHOICE}, "S1", "S2", "S1"),
    "vector": ({**LOGIC, "answer": VECTOR}, "TGFB = 1, SMAD = 0", "TGFB = 0, SMAD = 1",
               {"TGFB": 1, "SMAD": 0}),
    "sequence": ({**LOGIC, "answer": SEQUENCE}, "pick up A; stack A on B",
                 "unstack A from B; put down A", STEPS[:2]),
}

LATER = {
    "correction": "Actually, {other}",
    "second_value": "{other}",
    "or_maybe": "Or maybe {other}",
    "retraction": "Wait, I was wrong.",
    "confidence_percent": "70%",
    "confidence_sure": "I am 70% sure.",
    "not_sure": "Not sure.",
    "i_think": "I think so, but I might have missed a rule.",
}
"""What comes after the answer, after a blank line: each makes the answer ambiguous."""

HARMLESS = (
    "I hope this helps.",
    "This follows from the rules above.",
    "Is there anything else you would like to know?",
    "Let me know if you need the derivation.",
)
"""Remarks after a blank line that are plainly not about the value: the answer stands."""


@pytest.mark.parametrize("gap", ["\n\n", "\n\n\n", "\n\nSome more thoughts first.\n\n"])
@pytest.mark.parametrize("later", sorted(LATER))
@pytest.mark.parametrize("kind", sorted(KINDS))
def test_what_follows_a_blank_line_is_read_as_on_the_next_line(kind, later, gap):
    fields, value, other, _ = KINDS[kind]
    tail = LATER[later].format(other=other)
    turn = parse_text(f"Answer: {value}{gap}{tail}", **fields)
    assert (turn.kind, turn.reason) == ("invalid", "ambiguous"), turn
    # on the next line it is never credited either (a kind written over several lines
    # reads the next line as part of its value, where it does not fit: malformed)
    turn = parse_text(f"Answer: {value}\n{tail}", **fields)
    assert turn.kind == "invalid" and turn.reason in ("ambiguous", "malformed"), turn


@pytest.mark.parametrize("remark", HARMLESS)
@pytest.mark.parametrize("kind", sorted(KINDS))
def test_a_remark_after_a_blank_line_leaves_the_answer_alone(kind, remark):
    fields, value, _, expected = KINDS[kind]
    turn = parse_text(f"Answer: {value}\n\n{remark}", **fields)
    assert (turn.kind, turn.answer_value) == ("answer", expected), turn


def test_the_blank_line_example_of_the_issue():
    turn = parse_text("Answer: Ingrid is courteous.\n\nActually, Ingrid is not courteous.",
                      **LOGIC)
    assert turn.reason == "ambiguous"


def test_a_plan_reads_every_line_blank_lines_or_not():
    kind = answer_kind(plan_kind.NAME)
    one = "(unstack a b)\n(put-down a)"
    assert kind.read_text(one, PLAN_SPEC).value == ["(unstack a b)", "(put-down a)"]
    # a later step after a blank line is part of the plan, as on the next line
    longer = kind.read_text(one + "\n\n(pick-up b)", PLAN_SPEC)
    assert longer.value == ["(unstack a b)", "(put-down a)", "(pick-up b)"]
    for tail in ("Actually, (pick-up b)", "Or maybe (pick-up b) first.", "Not sure.",
                 "Wait, I was wrong.", "70%"):
        assert kind.read_text(f"{one}\n\n{tail}", PLAN_SPEC).reason == "ambiguous", tail


# ---------------------------------------------------------------- class 4: tool format


@pytest.mark.parametrize("kind", sorted(KINDS))
def test_an_answer_line_beside_a_call_with_another_value_is_ambiguous(kind):
    fields, value, other, expected = KINDS[kind]
    call = [("answer", {"value": value})]
    for text in (f"Answer: {other}", f"Reasoning first.\n\nThe answer is: {other}",
                 f"Answer: {value}\n\nActually, {other}"):
        turn = parse_tools(call, text, **fields)
        assert (turn.kind, turn.reason) == ("invalid", "ambiguous"), text
    for text in (f"Answer: {value}", "Let me call the tool.", ""):
        turn = parse_tools(call, text, **fields)
        assert (turn.kind, turn.answer_value) == ("answer", expected), text


def test_a_native_value_beside_a_text_answer_of_another_value_is_ambiguous():
    turn = parse_tools([("answer", {"value": True})], "Answer: Ingrid is not courteous.",
                       **LOGIC)
    assert turn.reason == "ambiguous"
    turn = parse_tools([("answer", {"value": 42})], "Answer: 42", **MATH)
    assert turn.answer_value == 42


# -------------------------------------------- the one answer-line rule (every protocol)


@pytest.mark.parametrize(("line", "body"), [
    ("Answer: 18", " 18"),
    ("**Answer:** 18", " 18"),
    ("Final answer: 18", " 18"),
    ("Final Answer: Answer: 18", " 18"),
    ("The answer is: 18", " 18"),
    ("The final answer is: 18", " 18"),
    ("My answer is: 18", " 18"),
    ("The answer to the question is: Bruno is not bitter.", " Bruno is not bitter."),
    ("- **Answer**: 18", " 18"),
    ("1. Answer: 18", " 18"),
])
def test_an_answer_line_opens_with_a_marker_and_a_colon(line, body):
    end = answer_marker_end(line)
    assert end is not None and line[end:] == body


@pytest.mark.parametrize("line", [
    'The answer is "Not Sure".', "The answer is 18.", "So the answer: 18", "18", "1",
    "Answerable: no", "answers: 2", "I think the Answer: 3",
])
def test_a_line_without_the_marker_is_no_answer_line(line):
    assert answer_marker_end(line) is None
    assert answer_lines(line) == []


def test_the_seek_reader_takes_an_answer_sentence_with_a_colon():
    assert parse_text("The answer is: 18", **MATH).answer_value == 18
    turn = parse_text("The answer to the question is: Ingrid is not courteous.", **LOGIC)
    assert turn.answer_value is False
    assert parse_text("The answer is 18.", **MATH).reason == "no_action"
    assert parse_text("18", **MATH).reason == "no_action"


# ------------------------------------------------------ class 5 (joined values): A1 with A4

ATTRACTORS = answer_spec("choice", values=["A1", "A2", "A3", "A4"])
ADVICE = answer_spec("choice", values=["Refer to cardiology", "Start aspirin", "Repeat ECG"])


@pytest.mark.parametrize(("spec", "body"), [
    (ATTRACTORS, "A1 with A4"), (ATTRACTORS, "A1 plus A4"), (ATTRACTORS, "A1 (A4)"),
    (ADVICE, "Refer to cardiology with Start aspirin"),
])
def test_two_options_joined_are_ambiguous_in_both_formats(spec, body):
    assert parse_text(f"Answer: {body}", **LOGIC, answer=spec).reason == "ambiguous"
    turn = parse_tools([("answer", {"value": body})], **LOGIC, answer=spec)
    assert turn.reason == "ambiguous"


@pytest.mark.parametrize(("spec", "body", "value"), [
    (ATTRACTORS, "A1 with G2 = 0 at the start", "A1"),
    (ADVICE, "Refer to cardiology with follow-up in 2 weeks", "Refer to cardiology"),
])
def test_a_justification_opening_with_with_is_still_one_option(spec, body, value):
    assert parse_text(f"Answer: {body}", **LOGIC, answer=spec).answer_value == value


def test_a_list_of_labelled_numbers_after_the_value_is_no_second_value():
    """Read to the end of the reply, a justification listing rule numbers stays a
    justification (``rules 1, 4 and 7``), while a bare number after a blank line does not."""
    assert parse_text("Answer: 42\n\nFrom rules 1, 4 and 7.", **MATH).answer_value == 42
    assert parse_text("Answer: 42\n\n43", **MATH).reason == "ambiguous"
