"""What every answer kind shares: the reading, the spec, the kind interface and the
plain comparison. The text helpers the readers use live beside it:
`infoseek.answers.answer_text` (normalising, whole-word names, justifications),
`infoseek.answers.second_values` (a second value put forward in a justification) and
`infoseek.answers.doubts` (hedged, approximate and retracted answers).

Pure: no Inspect imports. Nothing here raises on model text.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

from infoseek.contract import INVALID_REASONS


@dataclass(frozen=True)
class AnswerReading:
    """The value an answer holds, or why it holds none (``reason`` from
    `infoseek.contract.INVALID_REASONS`: empty, malformed, ambiguous, out_of_range,
    bad_arguments)."""

    value: object | None
    reason: str | None = None

    @property
    def valid(self) -> bool:
        return self.reason is None


def invalid(reason: str) -> AnswerReading:
    """An answer that cannot be credited, for a contract reason."""
    if reason not in INVALID_REASONS:  # a programming error, never model text
        raise ValueError(f"{reason!r} is not an invalid reason of infoseek.contract")
    return AnswerReading(None, reason)


@dataclass(frozen=True)
class AnswerSpec:
    """What a reader needs to know about one goal.

    ``kind`` names a registered answer kind; ``entity`` and ``target`` are the problem's
    (a yes/no answer may restate them); ``options`` are the labels a ``choice`` answer
    picks from; ``names`` the components of a ``vector`` and ``allowed`` the values a
    component may take; ``items`` the steps a ``sequence`` may use. Empty tuples mean
    "not known": any option text, any component names, any items are read.
    """

    kind: str
    entity: str = ""
    target: str = ""
    options: tuple[str, ...] = ()
    names: tuple[str, ...] = ()
    allowed: tuple[Any, ...] = ()
    items: tuple[str, ...] = ()


class AnswerKind:
    """One way a final answer is written, read and compared.

    A kind is registered once (`infoseek.answers.register_answer_kind`) and then used by
    every protocol and format: the text parser hands it the body of an ``Answer:`` line
    (`read_text`), the tool parser the ``value`` argument of the ``answer`` tool
    (`read_tool`, any JSON value), the scorer the recorded and the hidden value
    (`compare`), and the reference models write their answers with `label`.
    """

    name: str = ""
    malformed: str = "Your answer could not be read."
    """One sentence telling the model its answer could not be read as this kind."""
    multiline: bool = False
    """Whether the value is written over several lines (the lines after the ``Answer:``
    line are part of the value, not only its justification). Every kind gets the whole
    rest of the reply (protocols §3.8: no blank-line cut); a multi-line kind reads where
    its value ends itself."""

    def read_text(self, body: object, spec: AnswerSpec) -> AnswerReading:
        """Read the text after ``Answer:``."""
        raise NotImplementedError

    def read_tool(self, argument: object, spec: AnswerSpec) -> AnswerReading:
        """Read the ``answer`` tool's ``value`` argument (text is read as text; other
        JSON values as the kind allows, else ``bad_arguments``)."""
        if isinstance(argument, str):
            return self.read_text(argument, spec)
        return invalid("bad_arguments")

    def compare(self, given: object, expected: object, spec: AnswerSpec | None = None) -> float:
        """1.0 when ``given`` equals ``expected``, 0.0 when it does not (a kind may give
        partial credit in between). Never raises."""
        return 1.0 if same_text(given, expected) else 0.0

    def label(self, value: object) -> str:
        """How ``value`` is written in an answer line or a tool argument."""
        return str(value)

    def spec_fields(self, values: object) -> dict[str, tuple]:
        """The `AnswerSpec` fields this kind takes from the engine's possible target
        values (a list, or the UNBOUNDED marker)."""
        return {}


def same_text(given: object, expected: object) -> bool:
    """Equal values, or equal normalised text forms (strings stripped and lower-cased,
    other values as sorted-key JSON, so ``True`` and ``"true"`` agree)."""
    if given is None or expected is None:
        return False
    if type(given) is type(expected) and given == expected:
        return True
    try:
        return _text_form(given) == _text_form(expected)
    except (TypeError, ValueError, RecursionError):  # values no JSON can hold
        return False


def _text_form(value: object) -> str:
    if isinstance(value, str):
        return value.strip().lower()
    return json.dumps(value, sort_keys=True).lower()
