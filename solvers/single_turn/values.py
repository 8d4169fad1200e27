"""Reading a value, or "Not sure", from a single-turn reply (protocols §3.5-3.6, 3.8): the
detection and well-specified protocols. The answer part and the clause patterns come
from `infoseek.solvers.single_turn.reading`.

A value (`read_value`) is read by the domain's answer kind, which also refuses a
justification that puts a second value forward (``no. Actually, yes.``, ``276;
correction: 277``, a second line: the rule of every protocol, `infoseek.answers`); on top
of it a probability or uncertainty anywhere in the answer, or a later clause opening
with a correction or an alternative (``no. Actually, I was wrong.``), is ``ambiguous``.
"Not sure" may be followed by an explanation (``Not sure whether Rosa is mellow``, ``Not
sure, because 1 fact is missing``): its clauses are read as a justification, where a
value after ``because`` / ``since`` / ``whether`` / a bracket, a label (``rule 3``) or
a count (``1 fact``) is a fact. "Not sure" with a value before it, offered as one of
alternatives (``yes or Not sure``, ``Not sure / no``), or with an explanation that
states or offers a value (``Not sure, but yes``, ``Not sure; Rosa is mellow``) or opens
a clause with a correction, is ``ambiguous``. No text makes a reader raise.
"""

from __future__ import annotations

import re
from typing import Any

from infoseek.answers import answer_kind, answer_spec
from infoseek.answers.answer_text import normalise
from infoseek.domains import UnknownDomain, domain_of
from infoseek.single_turn import NOT_SURE
from infoseek.solvers.single_turn.reading import (
    COUNTED,
    DOUBT,
    LABELLED,
    Reading,
    answer_part,
    doubts,
    flat_answer,
)

_NOT_SURE = re.compile(r"\bnot\s+sure\b", re.IGNORECASE)
_OR_NOT = re.compile(r"\s+or\s+not\b(?!\s+sure)")
"""``whether X or not``: one question, no alternative."""
_SEGMENT_BREAK = re.compile(r"[.!?](?=\s|$)|[;:()\[\]—–]|,(?=\s)|\s-\s")
_OFFER = re.compile(
    r"\b(?:or|either|nor|but|though|although|however|maybe|perhaps|possibly|probably|"
    r"likely|guess|might|may|could|would|should|actually|correction|otherwise|else|"
    r"instead|rather|alternatively|unless|if|then|answer|wait|mean|mistake|wrong|sorry|"
    r"oops|probability|chance|odds)\b|%|(?:^|\s)/|/(?:\s|$)|(?<=[a-z])/(?=[a-z])")
"""A clause holding a value and one of these offers the value as an answer."""
_JUSTIFY = re.compile(
    r"\b(?:because|since|as|given|due|from|by|via|using|considering|with|where|when|"
    r"after|per|based|according|whether|without|needs?|needed|missing|i\.e|e\.g)\b")
"""A value after one of these in its clause is a fact of the justification."""
_NUMBER_TOKEN = re.compile(r"(?<![\w.])[+-]?(?:\d{1,3}(?:,\d{3})+|\d+)(?:\.\d+)?"
                           r"(?:e[+-]?\d+)?(?:\s*/\s*\d+)?(?![\w%]|\.\d)")
_OPERATORS = ("+", "-", "*", "×", "÷", "^", "/")


def _segments(body: str) -> list[tuple[str, str]]:
    """`body` cut at clause breaks (sentence ends, ``;``, ``:``, brackets, dashes,
    ``, ``, line breaks): ``(opener, clause)`` pairs, the clause normalised and the
    opener the break before it ("" for the first)."""
    text = flat_answer(body)
    pieces, opener, last = [], "", 0
    for match in _SEGMENT_BREAK.finditer(text):
        pieces.append((opener, text[last:match.start()].strip()))
        opener, last = match.group().strip() or ",", match.end()
    pieces.append((opener, text[last:].strip()))
    return [(o, c) for o, c in pieces if c]


def _candidates(kind_name: str, clause: str, kind: Any, spec: Any) -> list[tuple[int, Any]]:
    """``(position, value)`` of every value of the answer kind that `clause` (normalised)
    states. Boolean: ``yes`` / ``true``, a ``no`` / ``false`` that ends its clause or
    phrase (``no rule`` is not one), and the target stated of the entity, unless asked
    (after ``whether`` / ``if``). Number: every number that is no operand of arithmetic
    (``40 + 3``), no label or count of something else (``rule 3``, ``1 fact``) and no
    value of another quantity (``games = 3``); a chain gives its result. Other kinds:
    the clause itself when the kind reads it."""
    if kind_name == "boolean":
        return _boolean_candidates(clause, spec)
    if kind_name == "number":
        return _number_candidates(clause, kind, spec)
    reading = kind.read_text(clause, spec)
    return [(0, reading.value)] if reading.valid else []


def _boolean_candidates(clause: str, spec: Any) -> list[tuple[int, Any]]:
    found = [(m.start(), True) for m in re.finditer(r"\b(?:yes|true)\b", clause)]
    found += [(m.start(), False) for m in
              re.finditer(r"\b(?:no|false)\b(?=\s*(?:[,.;:!?)\]]|$))", clause)]
    target = normalise(spec.target) if isinstance(spec.target, str) else ""
    if target:
        pattern = rf"\b(?:is|are|be|being)\s+(not\s+)?{re.escape(target)}(?![\w-])"
        for match in re.finditer(pattern, clause):
            if not re.search(r"\b(?:whether|if)\b", clause[:match.start()]):
                found.append((match.start(), match.group(1) is None))
        if re.fullmatch(rf"(?:{re.escape(normalise(spec.entity or ''))}\s+)?(?:not\s+)?"
                        rf"{re.escape(target)}", clause):
            found.append((0, not clause.startswith("not ") and " not " not in clause))
    return found


def _number_candidates(clause: str, kind: Any, spec: Any) -> list[tuple[int, Any]]:
    clause = clause.replace("\u2212", "-")
    offset = 0
    if "=" in clause:
        left, _, _ = clause.partition("=")
        name = left.strip()
        if re.fullmatch(r"[a-z_][a-z0-9_ ]*", name) and not re.search(
                r"\b(?:answer|total|result|target)\b", name) and \
                name.split()[-1] != normalise(spec.target or ""):
            return []  # the value of another quantity: a fact
        offset = clause.rindex("=") + 1
    found = []
    for match in _NUMBER_TOKEN.finditer(clause, offset):
        before = clause[:match.start()].rstrip()
        after = clause[match.end():].lstrip()
        if before.endswith(_OPERATORS) or after.startswith(_OPERATORS):
            continue  # an operand of arithmetic: working, not a value
        if LABELLED.search(before[-24:]) or COUNTED.match(clause, match.end()):
            continue  # "rule 3", "1 fact": a label or a count of something else
        reading = kind.read_text(match.group(), spec)
        if reading.valid:
            found.append((match.start(), reading.value))
    return found


def _offered(clause: str, opener: str, position: int) -> bool:
    """Whether a value at `position` of `clause` is put forward as an answer: the clause
    offers, hedges or corrects (``but``, ``or``, ``maybe``, ``could``, ``if``,
    ``actually`` ...), or the value stands as a statement of its own; a value inside a
    justification (``because 1 fact is missing``, a bracket) is a fact."""
    if _OFFER.search(clause):
        return True
    if opener in ("(", "["):
        return False
    return not _JUSTIFY.search(clause[:position])


def _takes_back(body: str) -> bool:
    """Whether an answer the kind read as one value hedges it or takes it back: any
    probability or uncertainty (``43, I guess``), or a clause after the first that
    opens with a correction or an alternative (``no. Actually, I was wrong there.``).
    A second value in the justification is the kind's to find (`infoseek.answers`: the
    same rule as in the seek protocols)."""
    if DOUBT.search(flat_answer(body)):
        return True
    return any(doubts(clause) for _, clause in _segments(body)[1:])


def _read_not_sure(body: str, kind_name: str, kind: Any, spec: Any) -> str | None:
    """None when a reply holding "Not sure" is one "Not sure" (an explanation may follow:
    ``Not sure whether Rosa is mellow``, ``Not sure, because 1 fact is missing``), else
    ``ambiguous``: "Not sure" offered as one of alternatives (``yes or Not sure``, ``Not
    sure / no``), a value before it, or an explanation that offers a value (``Not sure,
    but yes``) or takes it back."""
    text = _OR_NOT.sub(" ", flat_answer(body))
    first = _NOT_SURE.search(text)
    pre, post = text[:first.start()], _NOT_SURE.sub(" ", text[first.end():])
    if re.search(r"(?:\b(?:or|either|nor)|/)\W*$", pre) or \
            re.match(r"\W*(?:\b(?:or|nor)\b|/)", post):
        return "ambiguous"
    if _candidates(kind_name, pre, kind, spec) or re.search(r"\b(?:or|either)\b", pre):
        return "ambiguous"
    for opener, clause in _segments(post):
        if doubts(clause):
            return "ambiguous"
        if any(_offered(clause, opener, position)
               for position, _ in _candidates(kind_name, clause, kind, spec)):
            return "ambiguous"
    return None


def read_value(text: Any, record: dict[str, Any], *, allow_not_sure: bool) -> Reading:
    """The target value a reply gives, or "Not sure" (when allowed), read with the
    answer kind of the record's domain (module docstring)."""
    body, reason = answer_part(text)
    if reason is not None:
        return Reading(reason=reason)
    try:
        kind_name = domain_of(record).answer_kind
    except UnknownDomain:
        kind_name = "boolean"
    kind, spec = answer_kind(kind_name), _spec(kind_name, record)
    if _NOT_SURE.search(flat_answer(body)):
        reason = _read_not_sure(body, kind_name, kind, spec)
        if reason is not None:
            return Reading(reason=reason)
        return Reading(pick=NOT_SURE) if allow_not_sure else Reading(reason="malformed")
    reading = kind.read_text(body, spec)
    if not reading.valid:
        return Reading(reason=reading.reason)
    if _takes_back(body):
        return Reading(reason="ambiguous")
    return Reading(pick=reading.value)


def _spec(kind: str, record: dict[str, Any]):
    values = record.get("target_values")
    return answer_spec(kind, entity=record.get("entity", ""), target=record.get("target", ""),
                       values=values if values else None)
