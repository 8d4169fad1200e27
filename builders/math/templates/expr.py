"""What the GSME story templates add to the core's expression language.

Template expressions are written in the one arithmetic language of
:mod:`infoseek.engines.arith.expr` (``+ - * /``, parentheses, quantity names and numeric
literals, decimals read exactly: ``0.1`` is 1/10), parsed by its parser with two
template rules on top: no unary signs (``-a``, ``+a``) and no Python keyword as a name
(``True``, ``None``, ``if``), since template quantity names are plain identifiers.
Values are :class:`fractions.Fraction`; nothing is ever passed to ``eval``.

This module keeps the template-level parts: the two error types, the check that an
expression names only known quantities, and the ordering and exact evaluation of a
template's equation system.
"""

from __future__ import annotations

import functools
import graphlib
import keyword
from collections.abc import Collection, Iterable, Mapping
from fractions import Fraction

from infoseek.engines.arith.expr import Node, evaluate, names_in
from infoseek.engines.arith.expr import parse_expression as parse_arith

__all__ = [
    "ExpressionError",
    "TemplateError",
    "defining_order",
    "evaluate_equations",
    "evaluate_expression",
    "expression_names",
    "parse_template_expression",
]


class ExpressionError(ValueError):
    """An expression uses syntax outside ``+ - * /``, names and numbers, or an unknown
    name, or divides by zero."""


class TemplateError(ValueError):
    """A template is malformed, or an instantiation broke one of its guarantees."""


@functools.lru_cache(maxsize=4096)
def _parse_text(expr: str) -> Node:
    try:
        tree = parse_arith(expr, "expression", signs=False)
    except ValueError as error:
        raise ExpressionError(str(error)) from None
    for name in names_in(tree):
        if keyword.iskeyword(name):
            raise ExpressionError(f"{name!r} is a Python keyword, not a quantity name")
    return tree


def _parse(expr: str) -> Node:
    if not isinstance(expr, str):
        raise ExpressionError(f"expression must be a string, not {type(expr).__name__}")
    return _parse_text(expr)


def parse_template_expression(expr: str, names: Collection[str] | None = None) -> Node:
    """Parse ``expr`` into the core's tree (see :mod:`infoseek.engines.arith.expr`) under the
    template rules; with ``names``, also check that every name it uses is one of them.
    Raises :class:`ExpressionError`."""
    tree = _parse(expr)
    if names is not None:
        for name in names_in(tree):
            if name not in names:
                raise ExpressionError(f"unknown quantity {name!r}")
    return tree


def expression_names(expr: str) -> tuple[str, ...]:
    """The quantity names ``expr`` uses, in order of first appearance."""
    return tuple(names_in(_parse(expr)))


def _value(tree: Node, values: Mapping[str, Fraction]) -> Fraction:
    try:
        return evaluate(tree, values)
    except ZeroDivisionError:
        raise ExpressionError("division by zero") from None


def evaluate_expression(expr: str, values: Mapping[str, Fraction | int]) -> Fraction:
    """Exact value of ``expr`` given a value for every name it uses."""
    tree = parse_template_expression(expr, values.keys())
    return _value(tree, {name: Fraction(v) for name, v in values.items()})


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
        parse_template_expression(expr, known)
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
        values[name] = _value(_parse(defined[name]), values)
    return {name: values[name] for name, _ in equations}
