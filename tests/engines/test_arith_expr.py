"""The core's arithmetic expression language (infoseek.engines.arith.expr): the one parser and
evaluator of ``+ - * /`` that the arithmetic engine, the released-data readers and the
GSME story templates share."""

from __future__ import annotations

from fractions import Fraction

import pytest

from infoseek.engines.arith.expr import evaluate, names_in, parse_expression


def test_decimals_are_read_exactly_not_through_floats():
    tree = parse_expression("x * 0.1000000000000000055511151231257827")
    value = evaluate(tree, {"x": Fraction(10)})
    assert value == Fraction("1.000000000000000055511151231257827")
    assert value != 1  # a float literal would have rounded to exactly 1/10


def test_unary_signs_are_a_caller_choice():
    assert evaluate(parse_expression("a - -b"), {"a": 5, "b": 2}) == 7
    assert evaluate(parse_expression("-(a)"), {"a": 5}) == -5
    for text in ("-a", "+a", "a * -2", "(-a + b)"):
        with pytest.raises(ValueError, match="unary"):
            parse_expression(text, signs=False)
    assert evaluate(parse_expression("a - b", signs=False), {"a": 5, "b": 2}) == 3


@pytest.mark.parametrize("text", ["a ** 2", "a // b", "f(a)", "a % b", "1e3", "a # c",
                                  "a.b", "", "a +", "(a", "a)"])
def test_syntax_outside_the_field_operations_is_rejected(text):
    with pytest.raises(ValueError):
        parse_expression(text)


def test_errors_name_the_place_and_the_position():
    with pytest.raises(ValueError, match=r"^rhs of t: unexpected '\*' at position 3 of"):
        parse_expression("a ** 2", "rhs of t")
    with pytest.raises(ValueError, match="division by the constant zero"):
        parse_expression("a / (2 - 2)")


def test_names_come_in_first_occurrence_order():
    assert names_in(parse_expression("b + a * b - 2")) == ["b", "a"]
