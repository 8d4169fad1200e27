"""Exact evaluation of the simple arithmetic a text writes out (`12+7`, `(30 - 11)`,
`2 times 9.5`), for `infoseek.solvers.incomplete.numbers`, which reads every number a
text states.

Numbers joined by `+ - * / ^` and parentheses are evaluated with the usual precedence
(unary minus and plus bind tightest but below `^`) by a bounded shunting-yard over
`Fraction`s, never `eval`: a run of more than `MAX_RUN_TOKENS` tokens, one whose values
leave +-`VALUE_LIMIT`, a power above `MAX_DIGITS`, a division by zero or unbalanced
parentheses gives no value. Pure; no Inspect imports.
"""

from __future__ import annotations

from fractions import Fraction

MAX_DIGITS = 60
"""A digit run longer than this (or an exponent or a power beyond it) is not read as a
value."""
MAX_RUN_TOKENS = 41
"""A run of numbers and operators longer than this (21 numbers) is no simple expression:
it is not evaluated (its numbers still count one by one)."""
VALUE_LIMIT = Fraction(10) ** 120
"""No value read or computed may leave +-VALUE_LIMIT (nor a denominator exceed it)."""

Token = tuple
"""One token of a text: ("num", value, literal), ("op", symbol), ("word", lower),
("hyphen", None) or ("gap", None)."""


_PRECEDENCE = {"+": 1, "-": 1, "*": 2, "/": 2, "^": 3}


def _apply(op: str, left: Fraction, right: Fraction) -> Fraction | None:
    if op == "+":
        result = left + right
    elif op == "-":
        result = left - right
    elif op == "*":
        result = left * right
    elif op == "/":
        if right == 0:
            return None
        result = left / right
    else:
        if right.denominator != 1 or abs(right) > MAX_DIGITS or (left == 0 and right < 0):
            return None
        result = left ** int(right)
    if abs(result) > VALUE_LIMIT or result.denominator > VALUE_LIMIT:
        return None
    return result


def evaluate_run(run: list[Token]) -> Fraction | None:
    """The value of one run of num / op tokens (shunting-yard; unary minus and plus
    bind tightest but below ^), or None when it is not a well-formed expression."""
    values: list[Fraction] = []
    ops: list[str] = []
    expect_value = True

    def reduce_once() -> bool:
        op = ops.pop()
        if op == "neg":
            if not values:
                return False
            values.append(-values.pop())
            return True
        if len(values) < 2:
            return False
        right, left = values.pop(), values.pop()
        result = _apply(op, left, right)
        if result is None:
            return False
        values.append(result)
        return True

    for token in run:
        if token[0] == "num":
            if not expect_value:
                return None
            values.append(token[1])
            expect_value = False
            continue
        symbol = token[1]
        if symbol == "(":
            if not expect_value or len(ops) > 64:
                return None
            ops.append("(")
        elif symbol == ")":
            if expect_value:
                return None
            while ops and ops[-1] != "(":
                if not reduce_once():
                    return None
            if not ops:
                return None
            ops.pop()
        elif expect_value and symbol in "+-":
            if symbol == "-":
                ops.append("neg")
        elif expect_value:
            return None
        else:
            while ops and ops[-1] != "(" and (
                    ops[-1] == "neg" and symbol != "^"
                    or ops[-1] != "neg" and (_PRECEDENCE[ops[-1]] > _PRECEDENCE[symbol]
                                             or _PRECEDENCE[ops[-1]] == _PRECEDENCE[symbol]
                                             and symbol != "^")):
                if not reduce_once():
                    return None
            ops.append(symbol)
            expect_value = True
    if expect_value:
        return None
    while ops:
        if ops[-1] == "(" or not reduce_once():
            return None
    return values[0] if len(values) == 1 else None


def expression_values(tokens: list[Token]) -> list[Fraction]:
    """The values of the maximal runs of numbers and operators that hold an operator
    (a run that does not parse whole is retried without its edge operators)."""
    found: list[Fraction] = []
    run: list[Token] = []
    for token in [*tokens, ("gap", None)]:
        if token[0] == "num" or token[0] == "op" and token[1] != "%":
            run.append(token)
            continue
        if token[0] == "op":  # a percent sign: the number before it, over 100
            if run and run[-1][0] == "num":
                found.append(run[-1][1] / 100)
        if len(run) <= MAX_RUN_TOKENS and any(t[0] == "op" for t in run) and any(
                t[0] == "num" for t in run):
            trimmed = run
            value = evaluate_run(trimmed)
            while value is None and trimmed and trimmed[-1][0] == "op" and trimmed[-1][1] != ")":
                trimmed = trimmed[:-1]
                value = evaluate_run(trimmed)
            while value is None and trimmed and trimmed[0][0] == "op" and trimmed[0][1] not in "(-":
                trimmed = trimmed[1:]
                value = evaluate_run(trimmed)
            if value is not None:
                found.append(value)
        run = []
    return found

