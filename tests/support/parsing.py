"""Problem vocabularies the parsing tests read model text against: a logic problem
(yes/no target) and a math problem (numeric target, a derived quantity, descriptions),
with shorthands for parsing a text turn or tool calls against each.

The vocabularies are keyword dicts: every `ParseContext` field, plus ``asked`` (the
variables asked in earlier turns, which the parsers take beside the context);
`parse_text` and `parse_tools` split them."""

from __future__ import annotations

from typing import Any

from infoseek.contract import ParsedTurn
from infoseek.solvers.seek.parse_context import ParseContext
from infoseek.solvers.seek.parsing import parse_text_turn
from infoseek.solvers.seek.tool_parsing import parse_tool_calls

LOGIC = {
    "entity": "Ingrid",
    "variables": ["courteous", "naive", "kind", "unkind", "blue_eyed", "hurt", "vain"],
    "askable": ["naive", "kind", "unkind", "blue_eyed"],
    "observed": ["hurt"],
    "target": "courteous",
    "asked": [],
    "queries_per_turn": 1,
}
MATH = {
    "entity": "",
    "variables": ["T", "P", "B", "F", "AI", "book_count"],
    "askable": ["B", "F", "AI", "book_count"],
    "observed": [],
    "target": "T",
    "asked": [],
    "queries_per_turn": 1,
    "not_leaf": ["P"],
    "descriptions": {"T": "the total cost", "P": "the price of the pens",
                     "B": "the price of a book", "F": "the pen factor",
                     "AI": "the number of apples", "book_count": "how many books there are"},
    "answer_kind": "number",
}
TEMPLATE_LINE = "Answer: Ingrid is courteous.   or   Answer: Ingrid is not courteous."


def parse_text(text: Any, **fields: Any) -> ParsedTurn:
    """`parse_text_turn` with the context made from `fields` (``asked`` passed beside)."""
    asked = fields.pop("asked", ())
    return parse_text_turn(text, ParseContext(**fields), asked)


def parse_tools(calls: Any, text: str = "", **fields: Any) -> ParsedTurn:
    """`parse_tool_calls` with the context made from `fields` (``asked`` passed beside;
    ``text`` is the message text beside the calls)."""
    asked = fields.pop("asked", ())
    return parse_tool_calls(calls, ParseContext(**fields), asked, text)


def logic_turn(text: str, **overrides):
    return parse_text(text, **{**LOGIC, **overrides})


def math_turn(text: str, **overrides):
    return parse_text(text, **{**MATH, **overrides})


def logic_tool(calls, **overrides):
    return parse_tools(calls, **{**LOGIC, **overrides})


def math_tool(calls, **overrides):
    return parse_tools(calls, **{**MATH, **overrides})
