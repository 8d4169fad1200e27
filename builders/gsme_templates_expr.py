"""The restricted exact evaluator behind the GSME story templates.

Expressions use only ``+ - * /``, parentheses, quantity names and numeric literals
(integers, or decimals read exactly: ``0.1`` is 1/10). They are parsed with :mod:`ast`
and checked against that whitelist (no calls, attributes, subscripts, ``**``, ``//``,
``%``, unary signs, comparisons or booleans); values are :class:`fractions.Fraction`.
Nothing is ever passed to ``eval``.
"""

from __future__ import annotations

import ast
import functools
import graphlib
import math
from collections.abc import Collection, Iterable, Mapping
from fractions import Fraction

__all__ = [
    "ExpressionError",
    "TemplateError",
    "defining_order",
    "evaluate_equations",
    "evaluate_expression",
    "expression_names",
    "parse_expression",
]


class ExpressionError(ValueError):
    """An expression uses syntax outside ``+ - * /``, names and numbers, or an unknown
    name, or divides by zero."""


class TemplateError(ValueError):
    """A template is malformed, or an instantiation broke one of its guarantees."""


_OPERATORS = {
    ast.Add: lambda a, b: a + b,
    ast.Sub: lambda a, b: a - b,
    ast.Mult: lambda a, b: a * b,
    ast.Div: lambda a, b: a / b,
}


def _check_node(node: ast.AST, names: Collection[str] | None) -> None:
    if isinstance(node, ast.BinOp):
        if type(node.op) not in _OPERATORS:
            raise ExpressionError(f"operator {type(node.op).__name__} is not allowed")
        _check_node(node.left, names)
        _check_node(node.right, names)
    elif isinstance(node, ast.Name):
        if names is not None and node.id not in names:
            raise ExpressionError(f"unknown quantity {node.id!r}")
    elif isinstance(node, ast.Constant):
        value = node.value
        if isinstance(value, bool) or not isinstance(value, int | float):
            raise ExpressionError(f"constant {value!r} is not a number")
        if isinstance(value, float) and not math.isfinite(value):
            raise ExpressionError(f"constant {value!r} is not finite")
    else:
        raise ExpressionError(f"{type(node).__name__} is not allowed in an expression")


@functools.lru_cache(maxsize=4096)
def _parse(expr: str) -> ast.Expression:
    if not isinstance(expr, str):
        raise ExpressionError(f"expression must be a string, not {type(expr).__name__}")
    try:
        tree = ast.parse(expr.strip(), mode="eval")
    except SyntaxError as error:
        raise ExpressionError(f"cannot parse {expr!r}: {error.msg}") from None
    _check_node(tree.body, None)
    return tree


def parse_expression(expr: str, names: Collection[str] | None = None) -> ast.Expression:
    """Parse ``expr`` and check it against the whitelist; with ``names``, also check that
    every name it uses is one of them. Raises :class:`ExpressionError`."""
    tree = _parse(expr)
    if names is not None:
        _check_node(tree.body, names)
    return tree


def expression_names(expr: str) -> tuple[str, ...]:
    """The quantity names ``expr`` uses, in order of first appearance."""
    tree = _parse(expr)
    seen: dict[str, None] = {}

    def visit(node: ast.AST) -> None:
        if isinstance(node, ast.BinOp):
            visit(node.left)
            visit(node.right)
        elif isinstance(node, ast.Name):
            seen.setdefault(node.id, None)

    visit(tree.body)
    return tuple(seen)


def _value(node: ast.AST, values: Mapping[str, Fraction | int]) -> Fraction:
    if isinstance(node, ast.BinOp):
        left = _value(node.left, values)
        right = _value(node.right, values)
        if isinstance(node.op, ast.Div) and right == 0:
            raise ExpressionError("division by zero")
        return _OPERATORS[type(node.op)](left, right)
    if isinstance(node, ast.Name):
        return Fraction(values[node.id])
    assert isinstance(node, ast.Constant)
    # repr keeps a decimal literal such as 0.1 exact (1/10), not its binary neighbour.
    return Fraction(repr(node.value)) if isinstance(node.value, float) else Fraction(node.value)


def evaluate_expression(expr: str, values: Mapping[str, Fraction | int]) -> Fraction:
    """Exact value of ``expr`` given a value for every name it uses."""
    tree = parse_expression(expr, values.keys())
    return _value(tree.body, values)


def defining_order(equations: Iterable[tuple[str, str]], leaves: Collection[str]
                    ) -> tuple[dict[str, str], list[str]]:
    """The equations as a name -> expression dict, and the derived names in an order where
    each comes after the derived quantities it uses; checks names and acyclicity."""
    defined: dict[str, str] = {}
    for name, expr in equations:
        if name in defined:
            raise TemplateError(f"quantity {name!r} is defined twice")
        if name in leaves:
            raise TemplateError(f"leaf {name!r} is also defined by an equation")
        defined[name] = expr
    known = set(leaves) | set(defined)
    sorter: graphlib.TopologicalSorter[str] = graphlib.TopologicalSorter()
    for name, expr in defined.items():
        parse_expression(expr, known)
        sorter.add(name, *(p for p in expression_names(expr) if p in defined))
    try:
        order = list(sorter.static_order())
    except graphlib.CycleError as error:
        raise TemplateError(f"equations are cyclic: {error.args[1]}") from None
    return defined, order


def evaluate_equations(equations: Iterable[tuple[str, str]],
                       leaf_values: Mapping[str, Fraction | int]) -> dict[str, Fraction]:
    """Exact value of every derived quantity, in the order the equations list them.

    Raises :class:`TemplateError` for a name defined twice, a leaf that is also defined,
    or a cycle, and :class:`ExpressionError` for bad syntax, unknown names or a division
    by zero."""
    equations = [tuple(eq) for eq in equations]
    defined, order = defining_order(equations, leaf_values.keys())
    values: dict[str, Fraction] = {k: Fraction(v) for k, v in leaf_values.items()}
    for name in order:
        values[name] = _value(_parse(defined[name]).body, values)
    return {name: values[name] for name, _ in equations}
