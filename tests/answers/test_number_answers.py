"""Numeric answers (protocols §3.8, issue 8 items 1 and 4): exactly one number, read exactly;
hedges, ranges and expressions are ambiguous; huge numbers are out of range, never an
error; the same rules in the text and the tool format."""

from __future__ import annotations

import pytest

from infoseek.solvers.seek.answer_parsing import (
    MAX_ANSWER_DIGITS,
    AnswerReading,
    read_number_answer,
)
from infoseek.solvers.seek.parsing import parse_number_answer
from tests.support.parsing import (
    math_tool,
    math_turn,
)


@pytest.mark.parametrize(
    ("raw", "value"),
    [
        ("6.688e+04", 66880),
        ("1e-05", "1/100000"),
        ("2.5E3", 2500),
        ("2.5 x 10^3", 2500),
        ("2.5 × 10^3", 2500),
        ("\u2212276", -276),
        ("7/2", "7/2"),
        ("0.1", "1/10"),
        ("66880 (because AI = 3)", 66880),
        ("66880, since AI = 3", 66880),
        ("66880 because AI = 3", 66880),
        ("T = 42", 42),
        ("$1,200", 1200),
        ("42 dollars", 42),
        ("the answer is 42", 42),
        ("B + P = 10 + 32 = 42", 42),
        ("**42**", 42),
        ("\\boxed{42}", 42),
        ("42.", 42),
    ],
)
def test_numeric_answers_read_one_exact_number(raw, value):
    assert read_number_answer(raw) == AnswerReading(value)
    assert parse_number_answer(raw) == value


@pytest.mark.parametrize(
    "raw",
    [
        "66881 or 66880",
        "275 or 276",
        "between 66875 and 66880",
        "5-6",
        "5 to 6",
        "10^3",
        "10**3",
        "10\u00b3",
        "20 * 11",
        "3+4",
        "T = 10 + 32",
        "x = 5, y = 7",
        "2x = 84",
        "42 (or 43)",
        "42. Or maybe 43",
        "at least 42",
        "maybe 42",
        "more than 42",
        ">42",
        "about 42 dollars",  # an approximation is a hedge (issue 18; it was read as 42)
    ],
)
def test_hedges_ranges_and_expressions_are_ambiguous(raw):
    assert read_number_answer(raw) == AnswerReading(None, "ambiguous")
    assert parse_number_answer(raw) is None


@pytest.mark.parametrize(
    "raw",
    [
        "2.5e+276",
        pytest.param("9" * 5000, id="5000-nines"),
        pytest.param("1" + "0" * MAX_ANSWER_DIGITS, id="10**60"),
        pytest.param("1" * (MAX_ANSWER_DIGITS + 1), id="61-digits"),
        "1e-61",
        "1e99999999999",
        pytest.param("0." + "0" * 5000 + "1", id="10**-5001"),
        pytest.param(10**5000, id="int-of-5001-digits"),
        float("inf"),
    ],
)
def test_out_of_range_numbers_are_a_reason_not_an_exception(raw):
    assert read_number_answer(raw) == AnswerReading(None, "out_of_range")


def test_the_range_bounds_are_inclusive_of_sixty_digits():
    assert read_number_answer("9" * MAX_ANSWER_DIGITS).value == int("9" * MAX_ANSWER_DIGITS)
    assert read_number_answer("1e-60").value == "1/" + "1" + "0" * 60


@pytest.mark.parametrize(
    ("raw", "reason"),
    [("", "empty"), ("   \n ", "empty"), ("no idea", "malformed"), ("not 42", "malformed"),
     ("7/0", "malformed"), (None, "malformed"), (True, "malformed")],
)
def test_no_number_reasons(raw, reason):
    assert read_number_answer(raw) == AnswerReading(None, reason)


@pytest.mark.parametrize(
    ("line", "kind", "value", "reason"),
    [
        ("Answer: 66881 or 66880", "invalid", None, "ambiguous"),
        ("Answer: between 66875 and 66880", "invalid", None, "ambiguous"),
        ("Answer: 2.5e+276", "invalid", None, "out_of_range"),
        pytest.param("Answer: " + "9" * 5000, "invalid", None, "out_of_range",
                     id="Answer: 5000 nines"),
        ("Answer: 66880 (because AI = 3)", "answer", 66880, None),
        ("Answer: 6.688e+04", "answer", 66880, None),
        ("Answer: I do not know", "invalid", None, "malformed"),
    ],
)
def test_numeric_answer_turns_record_the_reason(line, kind, value, reason):
    turn = math_turn(line)
    assert (turn.kind, turn.answer_value, turn.reason) == (kind, value, reason)
    assert turn.answer_raw


@pytest.mark.parametrize(
    ("value", "expected", "reason"),
    [
        pytest.param(10**5000, None, "out_of_range", id="int-of-5001-digits"),
        (2.5e276, None, "out_of_range"),
        (float("nan"), None, "malformed"),
        ("1e-05", "1/100000", None),
        (66880.0, 66880, None),
        ("275 or 276", None, "ambiguous"),
    ],
)
def test_numeric_tool_answers_never_raise(value, expected, reason):
    turn = math_tool([("answer", {"value": value})])
    assert (turn.answer_value, turn.reason) == (expected, reason)
