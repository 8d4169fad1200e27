"""Arithmetic expressions for the arithmetic engine: exact rationals, parsing, evaluation.

Right-hand sides of equations are written with ``+ - * /``, unary signs, parentheses,
numeric constants and quantity names. Constants are integers or decimals (``2.5`` is
read exactly as 5/2); a fraction is simply a division of constants (``3/4``), which is
folded to one exact constant when the equation is parsed. Names are identifiers
(letters, digits and underscores, not starting with a digit). There is no power
operator and no function call: the language is exactly the field operations. Unary
signs (``-x``, ``2 * -3``) are allowed unless the caller asks for ``signs=False`` (the
GSME story templates write their equations without them).

Parsed expressions are small trees of tuples:

* ``("num", Fraction)``, ``("var", name)``, ``("neg", node)``;
* ``(op, left, right)`` with ``op`` one of ``"+" "-" "*" "/"``.

JSON encoding of exact rationals (records, observed values, domains): an integer value
is a JSON integer; any other rational is the string ``"p/q"`` in lowest terms with the
sign on the numerator (``"-7/2"``). When reading, integers, integer strings, ``"p/q"``
strings, decimal strings (``"3.5"``) and Fractions are accepted; a JSON float is read
through its shortest decimal representation (0.1 -> 1/10). Booleans are rejected.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from fractions import Fraction
from typing import Any

Node = tuple


# ------------------------------------------------------------------ rationals
def parse_rational(value: Any) -> Fraction:
    """Read one exact rational in any accepted encoding (see the module docstring)."""
    if isinstance(value, bool):
        raise ValueError(f"{value!r} is not a number")
    if isinstance(value, Fraction):
        return value
    if isinstance(value, int):
        return Fraction(value)
    if isinstance(value, float):
        if value != value or value in (float("inf"), float("-inf")):
            raise ValueError(f"{value!r} is not a finite number")
        return Fraction(repr(value))
    if isinstance(value, str):
        text = value.strip()
        if re.fullmatch(r"[+-]?\d+(\.\d*)?|[+-]?\.\d+|[+-]?\d+\s*/\s*[+-]?\d+", text):
            try:
                return Fraction(text.replace(" ", ""))
            except ZeroDivisionError:
                raise ValueError(f"{value!r} divides by zero") from None
        raise ValueError(f"{value!r} is not an exact rational (use 7, \"7/2\" or \"3.5\")")
    try:  # sympy / gmpy rationals and similar
        return Fraction(int(value.numerator), int(value.denominator))
    except (AttributeError, TypeError, ValueError):
        raise ValueError(f"{value!r} is not a number") from None


def encode_rational(value: Any) -> int | str:
    """The JSON form: an int when integral, else ``"p/q"`` in lowest terms."""
    q = parse_rational(value)
    if q.denominator == 1:
        return q.numerator
    return f"{q.numerator}/{q.denominator}"


# ------------------------------------------------------------------ parsing
_TOKEN = re.compile(r"\s*(?:(\d+(?:\.\d*)?|\.\d+)|([^\W\d]\w*)|(\S))")


class _Parser:
    def __init__(self, text: str, where: str, signs: bool) -> None:
        self.text = text
        self.where = where
        self.signs = signs
        self.tokens: list[tuple[str, str, int]] = []
        pos = 0
        while pos < len(text):
            match = _TOKEN.match(text, pos)
            if match is None:  # only trailing whitespace is left
                break
            number, name, symbol = match.groups()
            start = match.start(match.lastindex or 0)
            if number is not None:
                self.tokens.append(("num", number, start))
            elif name is not None:
                self.tokens.append(("name", name, start))
            elif symbol is not None:
                if symbol not in "+-*/()":
                    self.fail(f"unexpected character {symbol!r}", start)
                self.tokens.append(("op", symbol, start))
            pos = match.end()
        self.i = 0

    def fail(self, message: str, pos: int | None = None) -> None:
        at = len(self.text) if pos is None else pos
        raise ValueError(f"{self.where}: {message} at position {at} of {self.text!r}")

    def peek(self) -> tuple[str, str, int] | None:
        return self.tokens[self.i] if self.i < len(self.tokens) else None

    def take_op(self, ops: str) -> str | None:
        tok = self.peek()
        if tok is not None and tok[0] == "op" and tok[1] in ops:
            self.i += 1
            return tok[1]
        return None

    def parse(self) -> Node:
        if not self.tokens:
            self.fail("empty expression")
        node = self.expr()
        tok = self.peek()
        if tok is not None:
            self.fail(f"unexpected {tok[1]!r}", tok[2])
        return node

    def expr(self) -> Node:
        node = self.term()
        while (op := self.take_op("+-")) is not None:
            node = self.combine(op, node, self.term())
        return node

    def term(self) -> Node:
        node = self.factor()
        while (op := self.take_op("*/")) is not None:
            node = self.combine(op, node, self.factor())
        return node

    def factor(self) -> Node:
        sign = self.take_op("+-")
        if sign is not None:
            if not self.signs:
                self.fail(f"unary {sign!r} is not allowed", self.tokens[self.i - 1][2])
            inner = self.factor()
            if sign == "+":
                return inner
            return ("num", -inner[1]) if inner[0] == "num" else ("neg", inner)
        tok = self.peek()
        if tok is None:
            self.fail("expression ends too early")
        assert tok is not None
        self.i += 1
        kind, text, pos = tok
        if kind == "num":
            return ("num", Fraction(text))
        if kind == "name":
            return ("var", text)
        if text == "(":
            node = self.expr()
            if self.take_op(")") is None:
                self.fail("missing ')'", self.peek()[2] if self.peek() else None)
            return node
        self.fail(f"unexpected {text!r}", pos)
        raise AssertionError  # unreachable

    def combine(self, op: str, left: Node, right: Node) -> Node:
        if op == "/" and right[0] == "num" and right[1] == 0:
            raise ValueError(f"{self.where}: division by the constant zero in {self.text!r}")
        if left[0] == "num" and right[0] == "num":
            return ("num", apply_op(op, left[1], right[1]))
        return (op, left, right)


def parse_expression(text: str, where: str = "expression", *, signs: bool = True) -> Node:
    """Parse one right-hand side into a tree; raises ValueError naming `where` and the
    position. With ``signs=False`` a unary ``+`` or ``-`` is an error."""
    if not isinstance(text, str):
        raise ValueError(f"{where}: expected an expression string, got {text!r}")
    return _Parser(text, where, signs).parse()


# ------------------------------------------------------------------ evaluation
def apply_op(op: str, a: Any, b: Any) -> Any:
    if op == "+":
        return a + b
    if op == "-":
        return a - b
    if op == "*":
        return a * b
    return a / b  # ZeroDivisionError propagates: the value is undefined


def evaluate(
    node: Node, env: Mapping[str, Any], const: Callable[[Fraction], Any] = lambda q: q
) -> Any:
    """Evaluate a tree over any field; `const` lifts constants into it.

    Raises ZeroDivisionError when a divisor is zero (in that field) and KeyError for a
    name missing from `env`.
    """
    kind = node[0]
    if kind == "num":
        return const(node[1])
    if kind == "var":
        return env[node[1]]
    if kind == "neg":
        return -evaluate(node[1], env, const)
    return apply_op(kind, evaluate(node[1], env, const), evaluate(node[2], env, const))


def names_in(node: Node) -> list[str]:
    """The quantity names an expression mentions, in first-occurrence order."""
    found: dict[str, None] = {}

    def walk(n: Node) -> None:
        if n[0] == "var":
            found.setdefault(n[1], None)
        elif n[0] == "neg":
            walk(n[1])
        elif n[0] != "num":
            walk(n[1])
            walk(n[2])

    walk(node)
    return list(found)
