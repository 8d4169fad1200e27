"""Fuzz cases of issue 30 for the ``vector`` and ``sequence`` answer kinds, through the
seek loop's two readers: the text format (`parse_text_turn`: an ``Answer:`` line and
the lines under it) and the tool format (`parse_tool_calls`: the ``answer`` call's value).

A value followed on the next line by prose that puts forward another value is read as
it is on the same line or after a blank line: ``ambiguous``. Prose that is only a
justification (``Because G2 is on.``) is allowed there, as after a blank line. On
e3d0e63 every prose line under a vector or a sequence was read as one more pair or step:
a second value came out ``malformed`` (refused for the wrong reason) and a plain
justification was refused as ``malformed`` too.

Each case is played in both formats; no built-in domain answers with these kinds, so the
reading context is made here from the kind's possible values.
"""

from __future__ import annotations

import pytest

from infoseek.answers import answer_spec
from infoseek.contract import ACTION_ANSWER
from infoseek.solvers.seek.parse_context import ParseContext
from infoseek.solvers.seek.parsing import parse_text_turn
from infoseek.solvers.seek.tool_parsing import parse_tool_calls

VECTORS = [{"G1": 0, "G2": 1}, {"G1": 1, "G2": 0}, {"G1": 1, "G2": 1}, {"G1": 0, "G2": 0}]
PLANS = [["pick up A", "stack A on B"], ["pick up B", "stack B on A"], ["pick up A"],
         ["pick up B"]]
VALUE = {"vector": "G1=0, G2=1", "sequence": "pick up A; stack A on B"}
READ = {"vector": {"G1": 0, "G2": 1}, "sequence": ["pick up A", "stack A on B"]}

# (kind, name, the prose after the value, whether it puts forward another value)
CASES = [
    ("vector", "correction", "Actually G1 = 1.", True),
    ("vector", "second_vector", "Actually, G1 = 1, G2 = 0.", True),
    ("vector", "alternative", "Alternatively G1=1, G2=1.", True),
    ("vector", "also_accept", "I'd also accept G1=1.", True),
    ("vector", "conditional", "But G1 = 1 if the input is on.", True),
    ("vector", "or_maybe", "Or maybe G1=1, G2=0.", True),
    ("vector", "probability", "I am 70% sure.", True),
    ("vector", "because_fact", "Because G1 is repressed by G2 = 1.", False),
    ("vector", "so_same_value", "This follows because G2 is on, so G1 = 0.", False),
    ("vector", "fact_of_another_gene", "Since G3 = 1, G2 = 1 holds.", False),
    ("vector", "restated", "That is, G1 is 0 and G2 is 1.", False),
    ("vector", "bracket", "(G2 activates itself)", False),
    ("sequence", "correction", "Actually, pick up B; stack B on A.", True),
    ("sequence", "or_maybe", "Or maybe pick up B; stack B on A.", True),
    ("sequence", "alternative_colon", "Alternatively: pick up B, stack B on A.", True),
    ("sequence", "shorter_plan", "A shorter plan is pick up A.", True),
    ("sequence", "extra_step", "pick up B", True),
    ("sequence", "probability", "I am 70% sure.", True),
    ("sequence", "because", "Because A must be held before stacking.", False),
    ("sequence", "since_naming_a_step", "This works since pick up A frees the hand first.",
     False),
    ("sequence", "bracket", "(A must be clear first)", False),
    ("sequence", "lower_case_because", "because the hand is empty.", False),
]
SEPARATORS = {"next_line": "\n", "blank_line": "\n\n"}
NOT_PROSE = {"extra_step", "shorter_plan"}
"""Lines that do not open as prose (a step, a sentence opening with "A"): on the next
line they are read as part of the list, which they make ``malformed``; never credited."""


def _context(kind: str) -> ParseContext:
    values = VECTORS if kind == "vector" else PLANS
    return ParseContext(entity="the cell", variables=["G1", "G2", "G3", "goal"],
                        askable=["G3"], observed=[], target="goal", answer_kind=kind,
                        answer=answer_spec(kind, target="goal", values=values))


def _read(kind: str, body: str, fmt: str):
    context = _context(kind)
    if fmt == "tool":
        return parse_tool_calls([("answer", {"value": body})], context, [], "")
    return parse_text_turn(f"Answer: {body}", context, [])


@pytest.mark.parametrize("fmt", ["text", "tool"])
@pytest.mark.parametrize("where", sorted(SEPARATORS))
@pytest.mark.parametrize(("kind", "name", "prose", "another"), CASES,
                         ids=[f"{kind}-{name}" for kind, name, _, _ in CASES])
def test_prose_under_a_value(kind, name, prose, another, where, fmt) -> None:
    body = VALUE[kind] + SEPARATORS[where] + prose
    parsed = _read(kind, body, fmt)
    if another:
        reasons = ("ambiguous", "malformed") if (
            name in NOT_PROSE and where == "next_line") else ("ambiguous",)
        assert parsed.kind != ACTION_ANSWER and parsed.reason in reasons, (body, parsed)
    else:
        assert parsed.kind == ACTION_ANSWER and parsed.answer_value == READ[kind], (
            body, parsed)


@pytest.mark.parametrize("fmt", ["text", "tool"])
@pytest.mark.parametrize("kind", ["vector", "sequence"])
def test_a_value_over_several_lines_stays_whole(kind, fmt) -> None:
    """Lines of the value itself are not prose: one pair or one step per line, a bullet
    or list number before each, is the value; a line that is neither a known pair or
    step nor prose (a misspelt step, a pair of an unknown name) still makes it
    ``malformed``."""
    lines = (["G1 = 0", "G2 = 1"] if kind == "vector" else ["pick up A", "stack A on B"])
    for written in ("\n".join(lines), "\n".join(f"- {line}" for line in lines),
                    "\n".join(f"{n}. {line}" for n, line in enumerate(lines, 1))):
        parsed = _read(kind, written, fmt)
        assert (parsed.kind, parsed.answer_value) == (ACTION_ANSWER, READ[kind]), written
    bad = "G1 = 0\nG2 = 1\nG4 = 1" if kind == "vector" else "pick up A\nstak A on B"
    parsed = _read(kind, bad, fmt)
    assert parsed.kind != ACTION_ANSWER and parsed.reason == "malformed", (bad, parsed)
