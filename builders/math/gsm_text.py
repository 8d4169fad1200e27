"""Verbal rendering (GSM-Q style): a math record as a word problem.

Each revealed quantity's value and each equation become one sentence, then the
question. The held-out quantities (every unrevealed leaf) get no value sentence.
Template records (``infoseek.builders.math.gsme_mt``) carry their story ``sentences``; other records
(``infoseek.builders.math.gsme_mt_ext``) get a generic sentence per equation built from the quantity
descriptions ("quantity C is quantity D plus quantity E").

``render_word_problem(record)`` returns ``{"text", "value_sentences", "equation_sentences",
"question"}``; ``reveal`` adds value sentences for more leaves (e.g. the oracle's
answers so far, or every leaf for the full-information variant).
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from infoseek.engines.arith.engine import parse_rational
from infoseek.engines.arith.expr import parse_expression

_OPS = {"+": "plus", "-": "minus", "*": "times", "/": "divided by"}


def format_number(value: Any) -> str:
    q = parse_rational(value)
    return str(q.numerator) if q.denominator == 1 else f"{q.numerator}/{q.denominator}"


def _describe(record: dict[str, Any], name: str) -> str:
    return record.get("descriptions", {}).get(name, name)


def expression_in_words(record: dict[str, Any], rhs: str) -> str:
    """``"D + AS * B"`` -> ``"quantity D plus (quantity AS times quantity B)"``:
    descriptions replace names, every compound operand is parenthesised."""
    return _words(record, parse_expression(rhs, "equation"), top=True)


def _words(record: dict[str, Any], node: tuple, top: bool = False) -> str:
    kind = node[0]
    if kind == "num":
        return format_number(node[1])
    if kind == "var":
        return _describe(record, node[1])
    if kind == "neg":
        text = f"minus {_words(record, node[1])}"
    else:
        text = f"{_words(record, node[1])} {_OPS[kind]} {_words(record, node[2])}"
    return text if top else f"({text})"


def _capital(text: str) -> str:
    return text[:1].upper() + text[1:]


def render_word_problem(record: dict[str, Any], reveal: Iterable[str] = ()) -> dict[str, Any]:
    """The word problem of a math record (see the module docstring)."""
    shown = dict(record["observed"])
    world = record.get("hidden_world", {})
    for name in reveal:
        if name not in world:
            raise KeyError(f"{name!r} has no value in the hidden world")
        shown[name] = world[name]
    equations = record["engine"]["equations"]
    story = record.get("sentences")
    if story:
        value_sentences = [story["values"][v] for v in story["values"] if v in shown]
        equation_sentences = [story["equations"][name] for name, _ in equations
                              if name in story["equations"]]
        question = story["question"]
    else:
        value_sentences = [f"{_capital(_describe(record, v))} is {format_number(shown[v])}."
                           for v in record["variables"] if v in shown]
        equation_sentences = [
            f"{_capital(_describe(record, name))} is {expression_in_words(record, rhs)}."
            for name, rhs in equations
        ]
        question = f"What is {_describe(record, record['target'])}?"
    text = " ".join(value_sentences + equation_sentences + [question])
    return {"text": text, "value_sentences": value_sentences,
            "equation_sentences": equation_sentences, "question": question}


def value_sentence(record: dict[str, Any], name: str) -> str:
    """The sentence that states one leaf's value (the oracle's reply in words)."""
    story = record.get("sentences")
    if story and name in story["values"]:
        return story["values"][name]
    return f"{_capital(_describe(record, name))} is {format_number(record['hidden_world'][name])}."
