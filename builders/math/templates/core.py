"""Machinery for GSME-Q-MT style story templates: data types, validation, structure
helpers and seeded instantiation.

The templates themselves are data (TOML files beside this module, read and checked by
:mod:`infoseek.builders.math.templates.loader`); this module is the code that gives them meaning.
A :class:`StoryTemplate` names a handful of quantities; each one is either

* a *given* quantity (a leaf of the equation system), whose value is drawn by a
  :class:`Draw` rule and stated by one sentence such as ``"A notebook costs {value}
  dollars."``; or
* a *rule* quantity (a derived quantity), defined by one arithmetic expression over
  other quantities (``"notebooks * notebook_price"``) and stated by one sentence that
  says the relation in words.

Expressions use only ``+ - * /``, parentheses, quantity names and numeric literals
(no unary signs); :mod:`infoseek.builders.math.templates.expr` parses them with the core's
:mod:`infoseek.engines.arith.expr` and evaluates them exactly with :class:`fractions.Fraction`
(never with ``eval``).

A :class:`Draw` is a formula over fresh uniform integers (``n`` in ``"price * n"``)
and over quantities already known when it is drawn: the leaves drawn before it (in the
template's order) and any derived quantity those leaves determine. Drawing a quotient
first and multiplying (formula ``"children * n"`` with ``n`` in ``[3, 12]``) keeps every
division exact. Instantiation checks that every leaf, every derived value and the answer
are positive integers and raises :class:`TemplateError` otherwise.

Sentences are ``str.format`` templates: ``{value}`` (leaf sentences only) and the
template's cast roles (``{buyer}``), which instantiation fills with distinct first
names drawn from :data:`CAST_NAMES`.

Every validation error reads ``template '<id>': <field>: <problem>`` (the field being,
for example, ``quantity 'guests' expr``), so that the loader can prefix the file name.
"""

from __future__ import annotations

import functools
import keyword
import random
import string
from collections.abc import Collection, Iterable
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

from infoseek.builders.math.templates.expr import (
    ExpressionError,
    TemplateError,
    defining_order,
    evaluate_equations,
    evaluate_expression,
    expression_names,
    parse_template_expression,
)

__all__ = [
    "CAST_NAMES",
    "Draw",
    "ExpressionError",
    "Quantity",
    "StoryTemplate",
    "TemplateError",
    "evaluate_equations",
    "evaluate_expression",
    "expression_names",
    "instantiate",
    "parse_template_expression",
    "template_depth",
    "template_parents",
]

# fmt: off
CAST_NAMES: tuple[str, ...] = (
    "Amara", "Bela", "Caleb", "Dalia", "Emil", "Farah", "Gideon", "Hana",
    "Ivo", "Jada", "Kofi", "Lena", "Milo", "Nadia", "Omar", "Priya",
    "Quinn", "Rafael", "Sana", "Tomas", "Uma", "Vera", "Wes", "Ximena",
    "Yusuf", "Zoe", "Arlo", "Bianca", "Cyrus", "Dora", "Eitan", "Freya",
    "Goran", "Ines", "Jonah", "Keiko", "Luca", "Maren", "Nico", "Odile",
)
# fmt: on


# --------------------------------------------------------------------------- data types


@dataclass(frozen=True)
class Draw:
    """A leaf's value: ``formula`` evaluated with each auxiliary name in ``ranges`` drawn
    uniformly from ``[low, high]`` (in the order listed) and with the quantities known
    at that point of the instantiation."""

    formula: str
    ranges: tuple[tuple[str, int, int], ...] = ()


@dataclass(frozen=True)
class Quantity:
    """One quantity of a story: a leaf (``draw`` set) or derived (``expr`` set)."""

    name: str
    description: str
    sentence: str
    expr: str | None = None
    draw: Draw | None = None

    @property
    def is_leaf(self) -> bool:
        return self.draw is not None


def _fields(text: str) -> set[str]:
    try:
        return {f for _, f, _, _ in string.Formatter().parse(text) if f is not None}
    except ValueError as error:
        raise TemplateError(f"bad placeholder in {text!r}: {error}") from None


@dataclass(frozen=True)
class StoryTemplate:
    """A grade-school story as an equation system with one sentence per quantity."""

    id: str
    theme: str
    quantities: tuple[Quantity, ...]
    goal: str
    question: str
    cast: tuple[str, ...] = ()
    _by_name: dict[str, Quantity] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "_by_name", {q.name: q for q in self.quantities})
        _validate(self)

    @property
    def variables(self) -> tuple[str, ...]:
        return tuple(q.name for q in self.quantities)

    @property
    def leaves(self) -> tuple[str, ...]:
        return tuple(q.name for q in self.quantities if q.is_leaf)

    @property
    def equations(self) -> tuple[tuple[str, str], ...]:
        return tuple((q.name, q.expr) for q in self.quantities if q.expr is not None)

    @property
    def descriptions(self) -> dict[str, str]:
        return {q.name: q.description for q in self.quantities}

    def quantity(self, name: str) -> Quantity:
        return self._by_name[name]


def _validate(t: StoryTemplate) -> None:
    """Raise :class:`TemplateError` ``template '<id>': <field>: <problem>`` for the first
    problem found."""

    def fail(where: str, problem: str) -> TemplateError:
        return TemplateError(f"template {t.id!r}: {where}: {problem}")

    def placeholders(text: str, where: str) -> set[str]:
        try:
            return _fields(text)
        except TemplateError as error:
            raise fail(where, str(error)) from None

    if not t.id:
        raise fail("id", "must be non-empty")
    if not t.theme:
        raise fail("theme", "must be non-empty")
    if len(set(t.cast)) != len(t.cast) or len(t.cast) > len(CAST_NAMES):
        raise fail("cast", "roles must be distinct and fewer than the name pool")
    for role in t.cast:
        if not role.isidentifier() or role == "value":
            raise fail("cast", f"bad role {role!r}")
    roles = set(t.cast)
    names = set(t._by_name)
    seen: set[str] = set()
    for q in t.quantities:
        where = f"quantity {q.name!r}"
        if not q.name.isidentifier() or keyword.iskeyword(q.name):
            raise fail(f"{where} name", "is not a plain identifier")
        if q.name in seen:
            raise fail(f"{where} name", "repeats an earlier quantity's name")
        seen.add(q.name)
        if (q.expr is None) == (q.draw is None):
            raise fail(where, "needs exactly one of expr and draw")
        if not q.description.strip() or placeholders(q.description, f"{where} description"):
            raise fail(f"{where} description", "must be plain and non-empty")
        allowed = roles | {"value"} if q.is_leaf else roles
        used = placeholders(q.sentence, f"{where} sentence")
        if not used <= allowed or (q.is_leaf and "value" not in used):
            need = "{value} and cast roles" if q.is_leaf else "cast roles only"
            raise fail(f"{where} sentence", f"has placeholders {sorted(used)} (allowed: "
                       f"{need}, cast {sorted(roles)})")
        if q.expr is not None:
            try:
                parse_template_expression(q.expr, names)
            except ExpressionError as error:
                raise fail(f"{where} expr", str(error)) from None
    unknown = placeholders(t.question, "question") - roles
    if unknown:
        raise fail("question", f"uses placeholders {sorted(unknown)} that are no cast role")
    try:
        defining_order(t.equations, set(t.leaves))
    except (ExpressionError, TemplateError) as error:
        raise fail("expr", str(error)) from None
    if t.goal not in dict(t.equations):
        raise fail("goal", f"{t.goal!r} must be a derived quantity")
    # Draw order: every name a draw uses must be known when it is drawn.
    known: set[str] = set()
    for q in t.quantities:
        if q.draw is None:
            continue
        where = f"quantity {q.name!r} draw"
        aux = [name for name, _, _ in q.draw.ranges]
        if len(set(aux)) != len(aux) or set(aux) & names:
            raise fail(where, "has repeated auxiliary names or one that is a quantity")
        if any(low > high for _, low, high in q.draw.ranges):
            raise fail(where, "has an empty range")
        try:
            parse_template_expression(q.draw.formula, known | set(aux))
        except ExpressionError as error:
            raise fail(where, f"{error} (a draw may use the auxiliary names and the "
                       "quantities known before it)") from None
        known.add(q.name)
        known.update(_determined(t.equations, known))


def _determined(equations: Iterable[tuple[str, str]], known: Collection[str]) -> list[str]:
    """Derived quantities not in ``known`` whose value the ``known`` quantities fix, in an
    order where each comes after the quantities it uses (forward closure)."""
    result = set(known)
    found: list[str] = []
    pending = list(equations)
    changed = True
    while changed:
        changed = False
        for name, expr in pending:
            if name not in result and set(expression_names(expr)) <= result:
                result.add(name)
                found.append(name)
                changed = True
    return found


# --------------------------------------------------------------------------- structure


def template_parents(template: StoryTemplate) -> dict[str, tuple[str, ...]]:
    """For each derived quantity, the quantities its equation uses."""
    return {name: expression_names(expr) for name, expr in template.equations}


def template_depth(template: StoryTemplate, target: str | None = None) -> int:
    """Longest leaf-to-``target`` path in edges (``target`` defaults to the goal)."""
    parents = template_parents(template)

    @functools.cache
    def depth(name: str) -> int:
        return 1 + max(depth(p) for p in parents[name]) if name in parents else 0

    return depth(target or template.goal)


# --------------------------------------------------------------------------- instances


def _positive_integer(value: Fraction, what: str, template: StoryTemplate) -> int:
    if value.denominator != 1 or value <= 0:
        raise TemplateError(f"template {template.id!r}: {what} is {value}, "
                            "not a positive integer")
    return int(value)


def instantiate(template: StoryTemplate, rng: random.Random) -> dict[str, Any]:
    """Draw names and leaf values with ``rng`` and return the instance as a plain,
    JSON-serialisable dict (see the module docstring). Deterministic for a given rng
    state: cast names first, then each leaf's auxiliary integers in template order."""
    cast = dict(zip(template.cast, rng.sample(CAST_NAMES, len(template.cast))))
    known: dict[str, Fraction] = {}
    equations = template.equations
    leaf_values: dict[str, int] = {}
    for q in template.quantities:
        if q.draw is None:
            continue
        env: dict[str, Fraction | int] = dict(known)
        for aux, low, high in q.draw.ranges:
            env[aux] = rng.randint(low, high)
        value = _positive_integer(evaluate_expression(q.draw.formula, env),
                                  f"leaf {q.name!r}", template)
        leaf_values[q.name] = value
        known[q.name] = Fraction(value)
        for name in _determined(equations, known):
            known[name] = evaluate_expression(template.quantity(name).expr or "", known)
    derived = {name: _positive_integer(v, f"derived {name!r}", template)
               for name, v in evaluate_equations(equations, leaf_values).items()}
    return {
        "template": template.id,
        "theme": template.theme,
        "variables": list(template.variables),
        "descriptions": template.descriptions,
        "equations": [[name, expr] for name, expr in equations],
        "leaves": list(template.leaves),
        "values": leaf_values,
        "derived": derived,
        "goal": template.goal,
        "answer": derived[template.goal],
        "characters": cast,
        "sentences": {
            "values": {name: template.quantity(name).sentence.format(value=v, **cast)
                       for name, v in leaf_values.items()},
            "equations": {name: template.quantity(name).sentence.format(**cast)
                          for name, _ in equations},
            "question": template.question.format(**cast),
        },
    }
