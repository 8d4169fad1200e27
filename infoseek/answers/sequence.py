"""The ``sequence`` answer kind: an ordered list (a plan of actions, a pathway).

Written with the items joined by ``; `` (`label`: ``pick up A; stack A on B``); the empty
sequence is written ``none``. Read (:meth:`SequenceKind.read_text`) from the whole answer
body (the lines after ``Answer:`` too): one item per line when there are several lines
(list numbering ``1.`` / ``1)`` and bullets ``-`` / ``*`` dropped), else the one line split
on ``;``, else on ``,``, else on ``->`` / ``→``; a JSON list is read as the list. Each item
sets aside a trailing ``(...)`` or ``because`` / ``since`` justification, unless it
offers another step (``pick up A (or pick up B)``: ``ambiguous``); a step going on with
a self-correction (``stack A. Actually, pick up B``) and a probability are
``ambiguous``. The list is the body's first paragraph; the paragraphs after a blank
line, and the lines from the first one that opens as prose (``Because ...``, ``Actually
...``; `infoseek.answers.answer_lines.split_prose`), are its justification, read by the
rules of every justification: a hedge, retraction or probability there, another list
(``a shorter plan is pick up A`` too), or a step written there is ``ambiguous``. With
``spec.items`` known, every item must be one of them (case, quotes and emphasis aside) and
is recorded in the spec's spelling; an unknown item is ``malformed``, a hedged one
(``A or B``, ``maybe A``) ``ambiguous``; an empty item is ``malformed``. The tool
argument may be a JSON list of strings (or its text).

Comparison (:func:`sequence_similarity`): 1.0 for the same items in the same order;
otherwise partial credit ``1 - d / max(len(given), len(expected))`` where ``d`` is the
edit distance over items (insertions, deletions and substitutions of whole items, each
costing 1; rapidfuzz when installed, else a plain dynamic programme). Pure: no Inspect
imports.
"""

from __future__ import annotations

import functools
import json
import re
from collections.abc import Sequence

from infoseek.answers.answer_lines import first_paragraph, split_prose
from infoseek.answers.answer_text import (
    ANSWER_LEAD,
    EDGE_PUNCTUATION,
    HEDGE,
    OPENING_HEDGE,
    collapse,
    normalise,
    tail_opening,
)
from infoseek.answers.base import AnswerKind, AnswerReading, AnswerSpec, invalid
from infoseek.answers.doubts import read_undoubted
from infoseek.answers.second_values import PROBABILITY, SECOND_VALUE_CUE, justification_clauses

try:  # the documented library for edit distances; the plain DP below is the fallback
    from rapidfuzz.distance import Levenshtein as _Levenshtein
except ImportError:  # pragma: no cover - depends on the environment
    _Levenshtein = None

EMPTY_SEQUENCE = "none"
"""How the empty sequence is written."""

_ANSWER_LEAD = re.compile(ANSWER_LEAD.pattern, re.IGNORECASE)
_LIST_MARK = re.compile(r"^\s*(?:\d{1,4}[.)]|[-*•+])\s+")
_ITEM_JUSTIFICATION = re.compile(r"\s*\(|\s+\b(?:because|since)\b", re.IGNORECASE)
_ARROW = re.compile(r"\s*(?:->|→|=>)\s*")
_ITEM_EDGE = " \t.!?,;:\"'`*_"


def item_key(item: object) -> str:
    """The form in which two items are compared."""
    text = item if isinstance(item, str) else json.dumps(item, sort_keys=True)
    return normalise(text).strip(EDGE_PUNCTUATION)


@functools.lru_cache(maxsize=256)
def _item_index(items: tuple[str, ...]) -> dict[str, str]:
    index: dict[str, str] = {}
    for item in items:
        key = item_key(item)
        if key:
            index.setdefault(key, item)
    return index


def _pieces(body: str) -> list[str]:
    lines = [line for line in body.splitlines() if line.strip()]
    if len(lines) > 1:
        return [_LIST_MARK.sub("", line) for line in lines]
    line = lines[0]
    for separator in (";", ","):
        if separator in line:
            return line.split(separator)
    if _ARROW.search(line):
        return _ARROW.split(line)
    return [_LIST_MARK.sub("", line)]


def _clean_item(piece: str) -> str:
    marker = _ITEM_JUSTIFICATION.search(piece)
    if marker is not None:
        aside = tail_opening(piece[marker.start() :])
        if OPENING_HEDGE.match(aside) or SECOND_VALUE_CUE.search(aside):
            return _HEDGED  # "pick up A (or pick up B)": a second step offered
        piece = piece[: marker.start()]
    return collapse(piece).strip(_ITEM_EDGE)


_CUED_STEP = re.compile(rf"[.!?:,]\s*(?:{SECOND_VALUE_CUE.pattern})", re.IGNORECASE)
"""A step that goes on, after a break, with a self-correction (``stack A. Actually, pick
up B``)."""
_NAMED_LIST = re.compile(r"\s(?:is|would\s+be|could\s+be|might\s+be)\s+", re.IGNORECASE)
"""Where a clause of the justification goes on with a list it names (``a shorter plan is
pick up A``): a different list there is another value."""
_HEDGED = "\x00or"
"""The item a piece becomes when its aside offers another step (read as ``ambiguous``)."""


class SequenceKind(AnswerKind):
    """An ordered list of items."""

    name = "sequence"
    malformed = "Your answer could not be read as an ordered list of steps."
    multiline = True

    def read_text(self, body: object, spec: AnswerSpec) -> AnswerReading:
        """Read an answer body; a hedged, approximate or retracted one is ``ambiguous``
        (`infoseek.answers.doubts.read_undoubted`)."""
        return read_undoubted(lambda text: self._read_paragraphs(text, spec), body,
                              tuple(str(item) for item in spec.items))

    def _read_paragraphs(self, body: object, spec: AnswerSpec) -> AnswerReading:
        """The first paragraph is the list; the later ones are its justification, where
        a probability, another list (a paragraph or a corrected clause that reads as a
        different list) or a line that is a step of its own is ``ambiguous``."""
        if not isinstance(body, str):
            return self._read_body(body, spec)
        value, later = first_paragraph(body)
        index = _item_index(tuple(str(item) for item in spec.items))
        value, prose = split_prose(
            value, lambda line: item_key(_clean_item(_LIST_MARK.sub("", line))) in index)
        later = "\n\n".join(part for part in (prose, later) if part)
        reading = self._read_body(value, spec)
        if not reading.valid or not later:
            return reading
        if PROBABILITY.search(later) or self._another_list(later, reading.value, spec):
            return invalid("ambiguous")
        return reading

    def _another_list(self, later: str, value: object, spec: AnswerSpec) -> bool:
        index = _item_index(tuple(str(item) for item in spec.items))
        for paragraph in later.split("\n\n"):
            other = self._read_body(paragraph, spec)
            if other.valid and other.value != value:
                return True
        for line in later.splitlines():
            if index and item_key(_clean_item(_LIST_MARK.sub("", line))) in index:
                return True  # a step written after the list: a second or longer plan
        for clause, cued in justification_clauses(later):
            other = self._read_body(clause, spec)
            if cued and other.valid and other.value != value:
                return True
            named = _NAMED_LIST.search(clause)  # "a shorter plan is pick up A"
            if named is not None and index:
                other = self._read_body(clause[named.end():], spec)
                if other.valid and other.value != value:
                    return True
        return False

    def _read_body(self, body: object, spec: AnswerSpec) -> AnswerReading:
        if not isinstance(body, str):
            return invalid("malformed")
        if not body.strip():
            return invalid("empty")
        body = _ANSWER_LEAD.sub("", body.strip())
        if body.startswith("["):
            try:
                decoded = json.loads(body)
            except (ValueError, RecursionError):
                decoded = None
            if isinstance(decoded, list):
                return self._read_items(decoded, spec)
        if normalise(body).strip(EDGE_PUNCTUATION) == EMPTY_SEQUENCE:
            return AnswerReading([])
        if PROBABILITY.search(body):
            return invalid("ambiguous")
        if not body.strip():
            return invalid("malformed")
        return self._read_items([_clean_item(piece) for piece in _pieces(body)], spec)

    def read_tool(self, argument: object, spec: AnswerSpec) -> AnswerReading:
        if isinstance(argument, list):
            return self._read_items(argument, spec)
        return super().read_tool(argument, spec)

    def _read_items(self, items: list, spec: AnswerSpec) -> AnswerReading:
        index = _item_index(tuple(str(item) for item in spec.items))
        read: list[str] = []
        for item in items:
            if isinstance(item, int | float) and not isinstance(item, bool):
                item = str(item)
            if not isinstance(item, str):
                return invalid("malformed")
            key = item_key(item)
            if not key:
                return invalid("malformed")
            if key in index:
                read.append(index[key])
            elif HEDGE.search(key) or _CUED_STEP.search(key):
                return invalid("ambiguous")
            elif index:
                return invalid("malformed")
            else:
                read.append(collapse(item).strip(_ITEM_EDGE))
        return AnswerReading(read)

    def compare(self, given: object, expected: object, spec: AnswerSpec | None = None) -> float:
        return sequence_similarity(given, expected)

    def label(self, value: object) -> str:
        if isinstance(value, list | tuple):
            return "; ".join(str(item) for item in value) if value else EMPTY_SEQUENCE
        return str(value)

    def spec_fields(self, values: object) -> dict[str, tuple]:
        items: dict[str, None] = {}
        for value in values:  # type: ignore[union-attr]
            if isinstance(value, list | tuple):
                for item in value:
                    items.setdefault(str(item))
        return {"items": tuple(items)}


def item_distance(left: Sequence[str], right: Sequence[str]) -> int:
    """The edit distance between two item lists (whole items inserted, deleted or
    substituted, each costing 1)."""
    if _Levenshtein is not None:
        return int(_Levenshtein.distance(list(left), list(right)))
    previous = list(range(len(right) + 1))
    for i, item in enumerate(left, start=1):
        current = [i]
        for j, other in enumerate(right, start=1):
            current.append(min(previous[j] + 1, current[j - 1] + 1,
                               previous[j - 1] + (item != other)))
        previous = current
    return previous[-1]


def sequence_similarity(given: object, expected: object) -> float:
    """1.0 for equal sequences (items compared by `item_key`), else ``1 - d / max(len)``
    with ``d`` the item edit distance; 0.0 when either side is not a list."""
    if not isinstance(given, list | tuple) or not isinstance(expected, list | tuple):
        return 0.0
    try:
        left = [item_key(item) for item in given]
        right = [item_key(item) for item in expected]
    except (TypeError, ValueError, RecursionError):
        return 0.0
    longest = max(len(left), len(right))
    if longest == 0:
        return 1.0
    return 1.0 - item_distance(left, right) / longest
