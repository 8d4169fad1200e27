"""Problem vocabularies the parsing tests read model text against: a logic problem
(yes/no target) and a math problem (numeric target, a derived quantity, descriptions),
with shorthands for parsing a text turn or tool calls against each."""

from __future__ import annotations

from infoseek.solvers.parsing import parse_text_turn
from infoseek.solvers.tool_parsing import parse_tool_calls

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


def logic_turn(text: str, **overrides):
    return parse_text_turn(text, **{**LOGIC, **overrides})


def math_turn(text: str, **overrides):
    return parse_text_turn(text, **{**MATH, **overrides})


def logic_tool(calls, **overrides):
    return parse_tool_calls(calls, **{**LOGIC, **overrides})


def math_tool(calls, **overrides):
    return parse_tool_calls(calls, **{**MATH, **overrides})
