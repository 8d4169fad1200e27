"""What every answer kind shares: the reading, the spec, the kind interface, and the
text helpers the readers use (normalising, whole-word names, justifications).

Pure: no Inspect imports. Nothing here raises on model text.
"""

from __future__ import annotations

import functools
import json
import re
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
    """Whether the text reader takes the lines after the ``Answer:`` line (up to a blank
    line or the next action line) as part of the answer body."""

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


# ------------------------------------------------------------------- text helpers


def collapse(text: str) -> str:
    return " ".join(text.split())


_DROPPED_CHARS = str.maketrans(dict.fromkeys("*`\"'“”«»"))
_EDGE_UNDERSCORES = re.compile(r"(?<![a-z0-9])_+|_+(?![a-z0-9])")
EDGE_PUNCTUATION = " \t?.!,;:()[]{}<>"
_ISNT = re.compile(r"\bisn't\b")


def normalise(text: str) -> str:
    """Lowercase, drop markdown emphasis and quotes, collapse whitespace."""
    text = text.replace("\u2019", "'").replace("\u2018", "'").lower()
    text = _ISNT.sub("is not", text)
    text = text.translate(_DROPPED_CHARS)
    text = _EDGE_UNDERSCORES.sub(" ", text)
    return collapse(text)


@functools.lru_cache(maxsize=1024)
def name_pattern(name: str) -> re.Pattern[str]:
    """``name`` as a whole word (not inside a longer name); compiled once."""
    return re.compile(rf"(?<![\w-]){re.escape(name)}(?![\w-])")


def mentions(text: str, name: str) -> bool:
    return name_pattern(name).search(text) is not None


_JUSTIFICATION_WORDS = (
    "because|since|as|given|due|so|thus|hence|therefore|which|according|based|from|by|"
    "per|via|using|considering|following|with|where|when|after|i\\.e|e\\.g"
)
_JUSTIFICATION = re.compile(
    rf"[(\[;]|[.!?](?=\s|$)|\b(?:{_JUSTIFICATION_WORDS})\b", re.IGNORECASE
)
OPENING_HEDGE = re.compile(
    r"(?:or|either|nor|maybe|perhaps|possibly|probably|unless|otherwise|alternatively)\b",
    re.IGNORECASE,
)
HEDGE = re.compile(
    r"/|\b(?:or|either|nor|maybe|perhaps|possibly|probably|might|may|could|unsure|"
    r"uncertain|unclear|undetermined|unknown)\b"
)
"""A hedge anywhere in a (normalised) answer head: the answer is not one value."""


def split_justification(
    text: str, start: int = 0, protected: tuple[str, ...] = ()
) -> tuple[str, str]:
    """``(head, tail)``: the tail starts at the first justification marker (``(``, ``[``,
    ``;``, a sentence end, or a word such as ``because``) at or after ``start`` that is
    not inside one of the ``protected`` names; it is empty when there is none."""
    spans = [
        match.span()
        for name in protected
        if name
        for match in name_pattern(name).finditer(text)
    ]
    for marker in _JUSTIFICATION.finditer(text, start):
        if not any(low <= marker.start() < high for low, high in spans):
            return text[: marker.start()], text[marker.start() :]
    return text, ""


def tail_opening(tail: str) -> str:
    """A justification without the marker and punctuation it opens with."""
    return tail.lstrip(" \t.!?;,:([-")


ANSWER_LEAD = re.compile(r"^(?:the\s+)?(?:final\s+)?answer\s*(?:is\s*)?:?\s*")
"""``the final answer is`` and the like, before an answer (normalised text)."""

ARTICLE = re.compile(r"^(?:the|a|an)\s+")
