"""The fuzz catalogue of the offered "cannot be determined" form (issue 34): the kinds of
model output played on a task that offers the form (`-T unanswerable=<share>`, or
`-T oracle=withholding_all`), by `tests/fuzz/test_fuzz_undetermined.py`.

Each kind is played on samples of one or both *sides*:

- ``unanswerable``: "cannot be determined" is the right answer (an unanswerable sample,
  or any sample under ``withholding_all``);
- ``ordinary``: the target's value is the right answer (yes, on the samples the test
  picks), and the form is wrong.

A hedge, a second value or a self-correction names the form and a value (``yes``), so it
is played on both sides: a reader that credited the form would score the unanswerable
side, one that credited the value would score the ordinary side. `xfail` names kinds the
reader is known to credit today (strict: the test fails once the reader is fixed, so the
mark is taken off then).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from infoseek.contract import UNDETERMINED
from tests.support.fuzz import (
    BOOLEAN,
    FORMATS,
    GARBAGE,
    TEXT,
    TOOL,
    VALID,
    WRONG,
    FuzzProblem,
    Turn,
    answer_raw,
    calls,
    statement,
    text,
)
from tests.support.fuzz_catalogue import Kind

UNANSWERABLE = "unanswerable"
ORDINARY = "ordinary"
SIDES = (UNANSWERABLE, ORDINARY)
VALUE = "yes"
"""The value a hedge puts beside the form: the right answer on the ordinary side."""
MIXED = ("ambiguous", "multiple_actions")
"""The reasons a turn naming the form and a value may be refused with."""
@dataclass(frozen=True)
class UndeterminedKind:
    """A kind of `tests.support.fuzz_catalogue` and the sides it is played on."""

    kind: Kind
    sides: tuple[str, ...] = SIDES
    xfail: str = ""
    """Why the reader gets it wrong today (empty: it gets it right)."""


def _garbage(name: str, make: Callable[[FuzzProblem], Turn], *,
             formats: tuple[str, ...] = FORMATS, sides: tuple[str, ...] = SIDES,
             reasons: tuple[str, ...] = MIXED, xfail: str = "") -> UndeterminedKind:
    return UndeterminedKind(Kind(name, GARBAGE, make, formats=formats, answer_kinds=BOOLEAN,
                                 reasons=reasons), sides=sides, xfail=xfail)


def _mixed(name: str, value: str, **options: Any) -> UndeterminedKind:
    """`value`, naming the form and a value, as the answer argument or line: garbage on
    both sides."""
    return _garbage(name, lambda p: answer_raw(p, value), **options)


def _stated(name: str, before: str, after: str, **options: Any) -> UndeterminedKind:
    """Like `_mixed`, with the statement ``<entity> is <target>`` between `before` and
    `after`."""
    return _garbage(name, lambda p: answer_raw(p, f"{before}{statement(p, True)}{after}"),
                    **options)


def _not_the_form(name: str, value: str) -> UndeterminedKind:
    """A wording of "cannot be determined" that is not the form: never credited."""
    return _mixed(name, value, sides=(UNANSWERABLE,), reasons=("ambiguous", "malformed"))


def _valid(name: str, value: str, formats: tuple[str, ...] = FORMATS) -> UndeterminedKind:
    """The form, read as the answer: credited on the unanswerable side."""
    return UndeterminedKind(Kind(name, VALID, lambda p: answer_raw(p, value),
                                 formats=formats, answer_kinds=BOOLEAN), sides=(UNANSWERABLE,))


def _call_beside_a_line(call: str, line: str) -> Callable[[FuzzProblem], Turn]:
    """An `answer` call with `call`, its message text an answer line with `line`."""
    return lambda p: calls(("answer", {"value": call}), content=f"Answer: {line}")


UNDETERMINED_CATALOGUE: tuple[UndeterminedKind, ...] = (
    # ---- the form itself, in the forms the reading rule allows (protocols §3.8)
    _valid("und_plain", UNDETERMINED),
    _valid("und_markdown_full_stop", "**Cannot be determined.**"),
    _valid("und_quoted", f'"{UNDETERMINED}"'),
    _valid("und_capitals", UNDETERMINED.upper()),
    _valid("und_with_a_reason", f"{UNDETERMINED} because no attribute I may ask settles it.",
           formats=TEXT),
    UndeterminedKind(Kind("und_on_an_ordinary_sample", WRONG,
                          lambda p: answer_raw(p, UNDETERMINED), answer_kinds=BOOLEAN),
                     sides=(ORDINARY,)),
    # ---- hedges: the form with a value, or a value with the form
    _mixed("und_but_probably_value", f"{UNDETERMINED}, but probably {VALUE}"),
    _mixed("und_maybe_value_in_brackets", f"{UNDETERMINED} (maybe {VALUE})"),
    _mixed("value_or_und", f"{VALUE}, or it {UNDETERMINED}"),
    _mixed("und_or_value", f"{UNDETERMINED} or {VALUE}"),
    _mixed("und_with_confidence", f"{UNDETERMINED} (90% sure)"),
    _mixed("probably_und", f"probably {UNDETERMINED}"),
    _stated("und_then_a_statement", f"{UNDETERMINED}. ", "."),
    _stated("statement_or_und", "", f", or {UNDETERMINED}"),
    # ---- second values: two answers in one turn
    _garbage("value_line_then_und_line",
             lambda p: text(f"Answer: {VALUE}\nAnswer: {UNDETERMINED}"), formats=TEXT),
    _garbage("und_line_then_statement_line",
             lambda p: text(f"Answer: {UNDETERMINED}\nAnswer: {statement(p, True)}."),
             formats=TEXT),
    _garbage("und_call_value_in_text", _call_beside_a_line(UNDETERMINED, VALUE),
             formats=TOOL),
    _garbage("value_call_und_in_text", _call_beside_a_line(VALUE, UNDETERMINED),
             formats=TOOL),
    _garbage("und_call_then_value_call", lambda p: calls(
        ("answer", {"value": UNDETERMINED}), ("answer", {"value": VALUE})), formats=TOOL),
    # ---- self-corrections, either way
    _mixed("value_wait_i_mean_und", f"{VALUE}. Wait, I mean {UNDETERMINED}"),
    _mixed("value_correction_und", f"{VALUE}; correction: {UNDETERMINED}"),
    _stated("und_actually_a_statement", f"{UNDETERMINED}. Actually, ", "."),
    _mixed("und_actually_value", f"{UNDETERMINED}; actually {VALUE}"),
    _mixed("und_sorry_i_mean_value", f"{UNDETERMINED}, sorry, I mean {VALUE}"),
    _mixed("und_final_answer_value", f"{UNDETERMINED}; final answer: {VALUE}"),
    _mixed("und_correction_value", f"{UNDETERMINED}; correction: {VALUE}"),
    _mixed("und_no_wait_value", f"{UNDETERMINED}. No wait: {VALUE}"),
    _mixed("und_scratch_that_value", f"{UNDETERMINED}; scratch that, {VALUE}"),
    _stated("und_on_second_thought_a_statement", f"{UNDETERMINED}. On second thought, ", "."),
    # ---- wordings that are not the form
    _not_the_form("undetermined_alone", "undetermined"),
    _not_the_form("it_cannot_be_determined", "It cannot be determined"),
)


def undetermined_kinds(fmt: str, side: str) -> list[UndeterminedKind]:
    """The kinds played in format `fmt` on samples of `side`."""
    return [k for k in UNDETERMINED_CATALOGUE
            if side in k.sides and k.kind.applies(fmt, "boolean")]
