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
    "per|via|using|considering|following|with|where|when|if|after|i\\.e|e\\.g"
)
_JUSTIFICATION = re.compile(
    rf"[(\[;]|[.!?](?=\s|$)|\b(?:{_JUSTIFICATION_WORDS})\b", re.IGNORECASE
)
OPENING_HEDGE = re.compile(
    r"(?:or|either|nor|maybe|perhaps|possibly|probably|if|unless|otherwise|alternatively)\b",
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


# ------------------------------------------------------- second values in a justification
# SPEC 3.8: a justification may follow the value, but text that puts forward a second
# candidate value of the kind (a self-correction, an alternative, a conditional, a
# probability, a list) makes the answer ambiguous. The readers cut the justification into
# clauses (`justification_clauses`) and ask, clause by clause, whether it offers another
# value of their kind; the rule and its examples are in the README ("How model output is
# read").

_CLAUSE_BREAK = re.compile(
    r"[.!?](?=\s|$)|,(?!\d{3}(?!\d))|[;:()\[\]{}\n|]|\s[-\u2013\u2014]+\s|"
    r"\b(?:or|otherwise|else|then|if|unless|but|alternatively|instead|whereas|while)\b",
    re.IGNORECASE,
)
SECOND_VALUE_CUE = re.compile(
    r"\b(?:actually|correction|corrected|correcting|wait|sorry|oops|rather|instead|"
    r"alternatively|otherwise|else|or|either|maybe|perhaps|possibly|probably|unless|"
    r"scratch|revised|revise|rethink|mistake|meant|second\s+thought|i\s+mean|make\s+that)\b",
    re.IGNORECASE,
)
"""Words that put a value forward as a correction or an alternative."""
_CLAUSE_FILLER = re.compile(
    r"(?:\s+|[-*\u2022>#]+(?=\s)|(?:no\s+wait|wait|actually|correction|corrected|sorry|"
    r"oops|hmm+|well|rather|instead|i\s+mean|i\s+meant|make\s+(?:that|it)|scratch\s+that|"
    r"on\s+second\s+thought|so|hence|thus|therefore|then|maybe|perhaps|possibly|probably|"
    r"likely|also|and|either|alternatively|otherwise|else|or|revised|final(?:ly)?|"
    r"it\s+(?:is|must\s+be|should\s+be|would\s+be|could\s+be|might\s+be|may\s+be)|"
    r"it's|i\s+(?:think|guess|believe|would\s+say)|i'd\s+say|"
    r"(?:the\s+)?(?:correct\s+|right\s+|real\s+|true\s+|new\s+|updated\s+)?"
    r"answer(?:\s+(?:is|would\s+be|should\s+be|could\s+be|might\s+be|becomes))?"
    r"|the)\b)",
    re.IGNORECASE,
)
PROBABILITY = re.compile(
    r"\d\s*%\s*(?:[\w-]+\s+){0,2}?(?:probability|probable|chance|likely|likelihood|sure|"
    r"certain|confiden\w*|odds)|\b(?:probability|chance|likelihood|odds|confidence)\b"
    r"\s*(?:of|is|:|=)?\s*(?:\d|one\b|half\b)",
    re.IGNORECASE,
)
"""A probability or confidence attached to an answer (``A1 with 50% probability``,
``90% sure``, ``confidence: 0.7``): the value is hedged."""


def strip_clause_filler(clause: str) -> str:
    """A clause without the answer leads, self-correction words and hedges it opens with
    (``actually, the answer is``, ``correction:``, ``or maybe``, a list bullet)."""
    while True:
        match = _CLAUSE_FILLER.match(clause)
        if match is None or not match.group(0):
            return clause.strip(" \t,:;.")
        clause = clause[match.end() :].lstrip(" \t,:;.")


def justification_clauses(tail: str) -> list[tuple[str, bool]]:
    """The clauses of a justification, each without its opening filler
    (`strip_clause_filler`), with whether a self-correction or alternative cue
    (:data:`SECOND_VALUE_CUE`) came at or before it. Clauses break at sentence ends,
    commas (not thousands separators), semicolons, colons, brackets, line breaks, dashes
    and the words ``or``, ``otherwise``, ``else``, ``then``, ``if``, ``unless``, ``but``,
    ``instead``."""
    pieces: list[tuple[str, bool]] = []
    cued = False
    start = 0
    for marker in [*_CLAUSE_BREAK.finditer(tail), None]:
        end = marker.start() if marker is not None else len(tail)
        piece = tail[start:end]
        cued = cued or SECOND_VALUE_CUE.search(piece) is not None
        cleaned = strip_clause_filler(piece)
        if cleaned:
            pieces.append((cleaned, cued))
        if marker is None:
            break
        cued = cued or SECOND_VALUE_CUE.fullmatch(marker.group(0).strip()) is not None
        start = marker.end()
    return pieces


_GENERIC_SUBJECT = (
    "it|this|that|one|answer|result|value|attractor|state|recommendation|choice|option|"
    "total|sum|count|number|amount|final|correction|corrected|instead|rather|actually"
)
"""Words whose value is the answer itself (``the total is 277``, ``correction: 277``)."""
_ASSIGNMENT = re.compile(
    rf"\b(?!(?:{_GENERIC_SUBJECT})\b)[\w-]+\s*(?:=|≠|:)\s*(?:not\s+)?$", re.IGNORECASE)
_STATED_OF = re.compile(
    rf"\b(?!(?:{_GENERIC_SUBJECT})\b)[\w-]+\s+(?:is|was|equals|becomes|stays|remains)\s+"
    r"(?:not\s+)?$",
    re.IGNORECASE,
)


def bound_to_a_name(text: str, start: int) -> bool:
    """Whether the value written at ``text[start:]`` is stated of another name (``G3 =
    1``, ``B: 10``, ``I2 is 0``): a fact of the justification, not an answer."""
    before = text[max(0, start - 60) : start]
    return _ASSIGNMENT.search(before) is not None or _STATED_OF.search(before) is not None


ANSWER_LEAD = re.compile(r"^(?:the\s+)?(?:final\s+)?answer\s*(?:is\s*)?:?\s*")
"""``the final answer is`` and the like, before an answer (normalised text)."""

ARTICLE = re.compile(r"^(?:the|a|an)\s+")
