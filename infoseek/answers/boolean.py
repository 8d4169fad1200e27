"""The ``boolean`` answer kind: yes or no about the goal.

Written ``yes`` / ``no`` (`label`); read by :func:`read_boolean_answer`; compared by
value (``True`` and ``"true"`` agree). Pure: no Inspect imports.
"""

from __future__ import annotations

import re

from infoseek.answers.answer_text import (
    ANSWER_LEAD,
    EDGE_PUNCTUATION,
    HEDGE,
    OPENING_HEDGE,
    mentions,
    normalise,
    split_justification,
    tail_opening,
)
from infoseek.answers.base import AnswerKind, AnswerReading, AnswerSpec, invalid
from infoseek.answers.doubts import read_undoubted
from infoseek.answers.second_values import PROBABILITY, justification_clauses

_POLARITY = re.compile(r"(yes|no|true|false)\b[\s,:\-]*")
_POLARITY_WORD = re.compile(r"\b(?:yes|no|true|false)\b")
_OTHER_POLARITY = {True: re.compile(r"\b(?:no|false)\b"), False: re.compile(r"\b(?:yes|true)\b")}
_LIST_MARK = re.compile(r"^(?:[-+\u2022\u2013\u2014]|\(?\d{1,3}[.)])\s+")
_LAST_POLARITY = re.compile(r"\b(yes|no|true|false)\W*$")


def read_boolean_answer(text: object, *, entity: str, target: str) -> AnswerReading:
    """Read a yes/no answer about ``target``.

    Accepted: ``yes`` / ``no`` / ``true`` / ``false``; ``Alice is X`` / ``Alice is not
    X`` / ``Alice isn't X`` (also without ``Alice is``; a bullet or list number before
    it is set aside); a yes/no word followed by a
    statement that agrees with it (``No, Alice is not X``); any of these followed by a
    justification (``Alice is not X because she is not Y``, ``Alice is X, since rule
    4``). Reasons: ``empty``; ``ambiguous`` when both values are named or a value is
    hedged (``yes or no``, ``yes/no``, ``Alice is X. or Alice is not X``, ``probably
    yes``, a justification or a later line that states the other value: ``yes.
    Actually, no.``, ``yes (80% sure)``); ``malformed`` for anything else
    (no value, a statement about another attribute, a yes/no word contradicting its
    statement). A hedged, approximate or retracted value (``no, I think``, ``I'm not
    sure, no``, ``no?``, ``no. Actually, I was wrong``) is ``ambiguous``
    (`infoseek.answers.doubts.read_undoubted`).
    """
    return read_undoubted(lambda body: _read_boolean(body, entity=entity, target=target),
                          text, (entity, target))


def _read_boolean(text: object, *, entity: str, target: str) -> AnswerReading:
    if isinstance(text, bool):
        return AnswerReading(text)
    if not isinstance(text, str):
        return invalid("malformed")
    if not text.strip():
        return invalid("empty")
    first, *later = [line for line in text.splitlines() if line.strip()]
    sentence = ANSWER_LEAD.sub("", normalise(first))
    sentence = _LIST_MARK.sub("", sentence, count=1)
    polarity: bool | None = None
    word = _POLARITY.match(sentence)
    if word:
        polarity = word.group(1) in ("yes", "true")
        sentence = sentence[word.end() :]
    target_name = normalise(target) if isinstance(target, str) else ""
    entity_name = normalise(entity) if isinstance(entity, str) else ""
    head, tail = split_justification(sentence, 0, (target_name, entity_name))
    tail = "\n".join([tail, *map(normalise, later)])  # the lines after it: justification
    head = head.strip(EDGE_PUNCTUATION + "-")
    if HEDGE.search(head):
        names_a_value = (
            polarity is not None
            or _POLARITY_WORD.search(head) is not None
            or (bool(target_name) and mentions(head, target_name))
        )
        return invalid("ambiguous" if names_a_value else "malformed")
    if polarity is not None and (
        _OTHER_POLARITY[polarity].search(head) is not None
        or _restates_other_value(tail, polarity, entity_name, target_name)
    ):
        return invalid("ambiguous")  # "yes and no", '"yes" if X is T, "no" if not'
    if head:
        ent = re.escape(entity_name)
        subject = rf"(?:{ent}\s+)?" if ent else ""
        statement = re.fullmatch(rf"{subject}(?:is\s+)?(not\s+)?(.+)", head)
        if statement is None or statement.group(2).strip() != target_name:
            return invalid("malformed")
        value = statement.group(1) is None
        if polarity is not None and polarity != value:
            return invalid("malformed")
    elif polarity is None:
        return invalid("malformed")
    else:
        value = polarity
    if _restates_other_value(tail, value, entity_name, target_name):
        return invalid("ambiguous")
    return AnswerReading(value)


def _restates_other_value(tail: str, value: bool, entity: str, target: str) -> bool:
    """Whether a justification puts the other value forward: it opens with a hedge or
    the other yes/no word, states the target's other value about the entity (``... or
    Alice is not X``), attaches a probability, or has a clause that is the other value
    (``Actually, no.``, ``not X``; a yes/no word ending a clause after a
    self-correction or alternative cue: ``wait, it's a no``)."""
    opening = tail_opening(tail)
    if OPENING_HEDGE.match(opening) or PROBABILITY.search(tail):
        return True
    word = _POLARITY.match(opening)
    if word and (word.group(1) in ("yes", "true")) != value:
        return True
    subjects = "she|he|they|it" + (f"|{re.escape(entity)}" if entity else "")
    if target:
        pattern = rf"\b(?:{subjects})\s+(?:is|are)\s+(not\s+)?{re.escape(target)}(?![\w-])"
        if any((match.group(1) is None) != value for match in re.finditer(pattern, tail)):
            return True
    bare = (re.compile(rf"(?:(?:{subjects})\s+)?(?:is\s+|are\s+)?(not\s+)?"
                       rf"{re.escape(target)}") if target else None)
    for clause, cued in justification_clauses(tail):
        clause = clause.strip(EDGE_PUNCTUATION + "-")
        word = _POLARITY.fullmatch(clause + " ") or (_LAST_POLARITY.search(clause)
                                                     if cued else None)
        if word and (word.group(1) in ("yes", "true")) != value:
            return True
        statement = bare.fullmatch(clause) if bare is not None else None
        if statement and (statement.group(1) is None) != value:
            return True
    return False


class BooleanKind(AnswerKind):
    """Yes or no about the goal; a tool argument may also be a JSON boolean."""

    name = "boolean"
    malformed = "Your answer could not be read as a yes or a no about the goal."

    def read_text(self, body: object, spec: AnswerSpec) -> AnswerReading:
        if not isinstance(body, str):
            return invalid("malformed")
        return read_boolean_answer(body, entity=spec.entity, target=spec.target)

    def read_tool(self, argument: object, spec: AnswerSpec) -> AnswerReading:
        if isinstance(argument, bool):
            return AnswerReading(argument)
        return super().read_tool(argument, spec)

    def label(self, value: object) -> str:
        if value is True:
            return "yes"
        if value is False:
            return "no"
        return str(value)
