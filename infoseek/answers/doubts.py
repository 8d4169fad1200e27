"""Hedged, approximate and retracted answers: never credited. `doubt_of` says why an
answer body hedges its value, `read_undoubted` turns a hedged answer that names a value
into ``ambiguous``.

Pure: no Inspect imports. Nothing here raises on model text.
"""

from __future__ import annotations

import re

from infoseek.answers.answer_text import (
    ANSWER_LEAD,
    EDGE_PUNCTUATION,
    JUSTIFICATION_WORDS,
    name_pattern,
    normalise,
    split_justification,
)
from infoseek.answers.base import AnswerReading, invalid
from infoseek.answers.second_values import CLAUSE_BREAK, strip_clause_filler

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
_JUSTIFICATION_LEAD = re.compile(rf"^(?:\W*\b(?:{JUSTIFICATION_WORDS}|and|but)\b)+\W*")


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
    pieces = [piece.strip(" \t-*") for piece in CLAUSE_BREAK.split(rest)]
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
