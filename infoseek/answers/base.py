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
# protocols §3.8: a justification may follow the value, but text that puts forward a second
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


# ------------------------------------------------ hedged, approximate and retracted answers
# protocols §3.8: hedges are never credited. Shared with the single-turn reader
# (`infoseek.solvers.single_turn.reading`), which builds its own doubt pattern from
# UNCERTAINTY_WORDS and its correction openers from CORRECTION_OPENERS.

UNCERTAINTY_WORDS = (
    "maybe|perhaps|possibly|probably|likely|unlikely|unsure|uncertain|guess|guessing"
)
"""Words of uncertainty: an answer holding one is a hedge, not a value."""
CORRECTION_OPENERS = (
    r"actually|correction|corrected|wait|instead|or|either|nor|otherwise|alternatively|"
    r"unless|else|scratch\s+that|on\s+second\s+thoughts?|i\s+mean|sorry|oops|no\s+wait"
)
"""Words that open a self-correction or an alternative after an answer."""

_UNCERTAINTY = re.compile(
    rf"\b(?:{UNCERTAINTY_WORDS}|(?:i\s+am\s+|i'?m\s+)?not\s+(?:sure|certain|confident)|"
    r"(?:it'?s\s+|it\s+is\s+)?(?:just\s+)?(?:a|my)\s+(?:best\s+|wild\s+|rough\s+|first\s+)?"
    r"guess|i\s+(?:think|believe|suppose|reckon|feel)|i'?d\s+say|i\s+would\s+say|"
    r"if\s+i\s+(?:had|have)\s+to\s+(?:say|choose|pick|guess)|presumably)\b"
)
"""Uncertainty attached to an answer (``no, I think``, ``I'm not sure, no``, ``just a
guess``, ``I think the answer is no``: a stated belief is a hedge)."""
RETRACTION = re.compile(
    r"\b(?:i\s+(?:was|am)\s+wrong|i'?m\s+wrong|i\s+made\s+a\s+mistake|my\s+mistake|"
    r"(?:that|this)(?:'?s|\s+is|\s+was)\s+(?:wrong|incorrect|not\s+right)|"
    r"let\s+me\s+(?:reconsider|rethink|re-?check|double[-\s]check|think\s+again|"
    r"re-?evaluate|recalculate|recompute|redo|check\s+again|start\s+over)|"
    r"scratch\s+that|never\s*mind|disregard\s+(?:that|this|the\s+above|my)|"
    r"i\s+take\s+(?:that|it)\s+back|on\s+second\s+thoughts?|no\s+wait)\b"
)
"""Words that take an answer back without giving another (``no. Actually, I was
wrong``, ``19. Wait, let me reconsider``, ``scratch that``, ``never mind``)."""
_BARE_CUE = re.compile(r"(?:no\s+)?(?:wait|actually|hmm+|sorry|oops|um+|uh+)\W*")
"""A clause that is nothing but a self-correction cue (``19. Wait...``)."""
_APPROXIMATE_WORD = (
    r"about|around|roughly|approximately|approx|circa|nearly|almost|close\s+to|"
    r"some(?:thing)?\s+like"
)
APPROXIMATION = re.compile(
    r"\b(?:or\s+so|give\s+or\s+take|more\s+or\s+less|ish|"
    r"in\s+the\s+(?:region|ballpark|neighbou?rhood)\s+of|on\s+the\s+order\s+of)\b|"
    r"[~≈∼≃]|(?<=\d)\s*-?\s*ish\b|-ish\b"
    rf"|^\W*(?:{_APPROXIMATE_WORD})\b|\b(?:{_APPROXIMATE_WORD})\.?\s*[-+\u2212$]?\d"
    rf"|\b(?:{_APPROXIMATE_WORD})\W*$"
)
"""An approximation of the value (``about 19``, ``~19``, ``19 or so``, ``19-ish``,
``roughly S1``, ``S1, roughly``): searched in the answer's own clause and in a clause of
its own (``19 (roughly)``), where an approximation word opens or ends the clause or
stands before a number; ``about`` inside a justification (``because the question is
about hens``) or in the middle of a clause (``42, the question is about hens``) is a
fact."""
_QUESTION_CLAUSE = re.compile(r"([^.!?;:()\[\]\n]*)\?+(?=\s|$|[)\]])")
_QUESTION_WORDS = frozenset(
    "is are am was were do does did can could will would should shall has have had may "
    "might must what why how which who whom whose when where whether".split()
)
"""A clause ending in ``?`` that opens with one of these is a question of the
justification (``because is Alice kind?``, ``why? 6 * 7``), no doubt of the value."""
_JUSTIFICATION_LEAD = re.compile(rf"^(?:\W*\b(?:{_JUSTIFICATION_WORDS}|and|but)\b)+\W*")


def _opens_a_question(clause: str) -> bool:
    words = _JUSTIFICATION_LEAD.sub("", strip_clause_filler(clause)).split()
    return bool(words) and words[0] in _QUESTION_WORDS


_LIST_LEAD = re.compile(r"^(?:[-+*\u2022\u2013\u2014]|\(?\d{1,3}[.)])\s+(?=\S)")


def _without_names(text: str, names: tuple[str, ...]) -> str:
    for name in sorted({normalise(n) for n in names if isinstance(n, str) and n.strip()},
                       key=len, reverse=True):
        text = name_pattern(name).sub(" § ", text)
    return text


def doubt_of(body: str, protected: tuple[str, ...] = ()) -> str | None:
    """Why an answer body hedges its value, or None (protocols §3.8: hedges are never
    credited): ``"retraction"`` (`RETRACTION`, or a clause that is only a correction
    cue), ``"uncertainty"`` (:data:`UNCERTAINTY_WORDS` and stated beliefs anywhere),
    ``"approximation"`` (:data:`APPROXIMATION` in the answer's own clause or as a clause
    of its own) or ``"question"`` (a ``?`` right after the answer's own clause, or ending
    a later clause that is no question: ``pick up A; stack A on B?``; a question inside
    a justification, ``because is Alice kind?``, is not one). The ``protected`` names
    (options, items, the target, the entity) are set aside first, so an option worded
    ``Ask about ...`` is no hedge."""
    lines = [_without_names(normalise(line), protected) for line in body.splitlines()
             if line.strip()]
    if not lines:
        return None
    text = "\n".join(lines)
    if RETRACTION.search(text):
        return "retraction"
    if _UNCERTAINTY.search(text):
        return "uncertainty"
    first = ANSWER_LEAD.sub("", lines[0])
    for listed, line in ((False, first), (True, _LIST_LEAD.sub("", first, count=1))):
        head, cut = split_justification(line)  # "19. Wait" or "1. S1?"
        if APPROXIMATION.search(head):
            return "approximation"
        if cut.startswith("?") and head.strip(EDGE_PUNCTUATION) and not (
                listed and _opens_a_question(head)):  # "42. What else? Nothing."
            return "question"
    tail = split_justification(first)[1]
    rest = "\n".join([tail, *lines[1:]])
    for clause in _QUESTION_CLAUSE.finditer(rest):
        if clause.group(1).strip(EDGE_PUNCTUATION) and not _opens_a_question(
                clause.group(1)):
            return "question"  # "pick up A; stack A on B?", "S1 (G2 on?)"
    pieces = [piece.strip(" \t-*") for piece in _CLAUSE_BREAK.split(rest)]
    pieces = [piece for piece in pieces if piece.strip(EDGE_PUNCTUATION)]
    if pieces and _BARE_CUE.fullmatch(pieces[-1]):
        return "retraction"  # the answer ends on "wait" or "actually"
    for piece in pieces:
        if APPROXIMATION.sub("", piece).strip(EDGE_PUNCTUATION + "-") == "":
            return "approximation"
    return None


def without_doubts(body: str) -> str:
    """``body`` without its hedges, approximations, retractions and question marks: what
    is left to say whether a hedged answer names a value at all."""
    for pattern in (RETRACTION, _UNCERTAINTY, APPROXIMATION):
        body = pattern.sub(" ", body.replace("\u2019", "'").lower())
    return body.replace("?", " ").strip(" \t,;:.-")


def read_undoubted(read, body: object, protected: tuple[str, ...] = ()) -> AnswerReading:
    """``read(body)``, unless the body hedges its value (`doubt_of`): then ``ambiguous``
    when the body names a value (it reads as one, or as several, once its hedges are set
    aside: ``no, I think``, ``I'm not sure, no``, ``about 19``); a body that names none
    keeps the reader's reason (``I'm not sure`` is ``malformed``)."""
    reading = read(body)
    if not isinstance(body, str) or reading.reason not in (None, "malformed"):
        return reading
    if doubt_of(body, protected) is None:
        return reading
    if reading.valid:
        return invalid("ambiguous")
    if read(without_doubts(body)).reason in (None, "ambiguous"):
        return invalid("ambiguous")
    return reading
