"""Reading a final answer out of model text (protocols §3.8), shared by the seek-loop parsers.

The readers live in the core answer-kind registry (`infoseek.answers`: one module per
kind, rules in their docstrings); this module keeps their historical names
(:func:`read_boolean_answer`, :func:`read_number_answer`, :class:`AnswerReading`, ...) and
holds what only the solvers need: recognising a reply line that copies a template line
of the prompt (:func:`template_key`, :func:`copied_template_line`,
:func:`copies_template`). Pure functions (no Inspect imports); no text makes them raise.

Template lines: a reply line equal to a template line of the prompt after collapsing
whitespace, dropping markdown emphasis and case is a copy.

The "cannot be determined" answer (`infoseek.contract.UNDETERMINED`, issue 34):
:func:`read_undetermined` reads an answer whose value is that fixed form, before the
answer kind reads it (protocols §3.8: only an unambiguous answer is credited).
"""

from __future__ import annotations

import functools
import re
from collections.abc import Collection, Iterable

from infoseek import contract
from infoseek.answers import AnswerKind, AnswerSpec, invalid
from infoseek.answers.answer_text import collapse as _collapse
from infoseek.answers.answer_text import split_justification, tail_opening
from infoseek.answers.base import AnswerReading
from infoseek.answers.boolean import read_boolean_answer
from infoseek.answers.doubts import CORRECTION_OPENERS, RETRACTION
from infoseek.answers.number import (
    MAX_ANSWER_DIGITS,
    MAX_DECIMAL_EXPONENT,
    read_number_answer,
)

__all__ = [
    "ANSWER_KINDS",
    "MAX_ANSWER_DIGITS",
    "MAX_DECIMAL_EXPONENT",
    "AnswerReading",
    "copied_template_line",
    "copies_template",
    "parse_boolean_answer",
    "parse_number_answer",
    "read_boolean_answer",
    "read_number_answer",
    "read_undetermined",
    "template_key",
]

ANSWER_KINDS = contract.ANSWER_KINDS


def parse_boolean_answer(text: object, *, entity: str, target: str) -> bool | None:
    """The value of :func:`read_boolean_answer`, or ``None`` when it cannot be credited."""
    value = read_boolean_answer(text, entity=entity, target=target).value
    return value if isinstance(value, bool) else None


def parse_number_answer(text: object) -> int | str | None:
    """The value of :func:`read_number_answer` (an int or a ``"p/q"`` string), or
    ``None`` when the answer cannot be credited."""
    return read_number_answer(text).value  # type: ignore[return-value]


# ------------------------------------------------------------------------ templates

_TEMPLATE_LEAD = " \t>#+-"
_EMPHASIS = str.maketrans(dict.fromkeys("*_`"))


def template_key(line: object) -> str:
    """The form in which a reply line and a template line are compared: whitespace
    collapsed, markdown emphasis (``*``, ``_``, backticks) dropped, case folded."""
    if not isinstance(line, str):
        return ""
    text = line.translate(_EMPHASIS)
    return _collapse(text).strip(_TEMPLATE_LEAD).casefold()


@functools.lru_cache(maxsize=256)
def _template_index(templates: tuple[str, ...]) -> tuple[frozenset[str], frozenset[str]]:
    """The non-empty keys of ``templates``, and the keys of their ``Answer:`` /
    ``Question:`` lines without the keyword (the same for every turn of an episode, so
    cached)."""
    keys = frozenset(key for key in map(template_key, templates) if key)
    bare = {key.split(":", 1)[1].strip() for key in keys
            if key.startswith(("answer:", "question:"))}
    return keys, frozenset(bare - {""})


def _index_of(templates: Collection[str]) -> tuple[frozenset[str], frozenset[str]]:
    if isinstance(templates, str):
        templates = (templates,)
    return _template_index(tuple(t for t in (templates or ()) if isinstance(t, str)))


def copied_template_line(lines: Iterable[str], templates: Collection[str]) -> str | None:
    """The first of ``lines`` that copies a template line, or None."""
    keys, _ = _index_of(templates)
    if not keys:
        return None
    return next((line for line in lines if template_key(line) in keys), None)


def copies_template(value: str, templates: Collection[str]) -> bool:
    """Whether an answer value copies a template line, whole or without its keyword."""
    keys, bare = _index_of(templates)
    if not keys:
        return False
    value_key = template_key(value)
    return value_key in keys or value_key in bare


# ------------------------------------------------------------- cannot be determined

_UNDETERMINED_PHRASE = re.compile(
    r"\b(?:cannot|can\s*not|can't|can\u2019t)\s+be\s+(?:determined|decided|known|settled)\b"
    r"|\bundetermin(?:ed|able)\b|\bundecidable\b",
    re.IGNORECASE,
)
_SECOND_CUE = re.compile(
    r"\b(?:or|either|maybe|perhaps|possibly|probably|likely|guess|actually|but|though|"
    rf"however|otherwise|if|{CORRECTION_OPENERS})\b|%|\?", re.IGNORECASE)
"""A word in the justification after "cannot be determined" that hedges it or opens a
correction or an alternative (``; correction: yes``, ``. No wait: yes``, ``; scratch that,
yes``): the answer is then ``ambiguous``, whatever follows the word. Retractions
(`RETRACTION`: ``on second thought``, ``I was wrong``) count the same."""


def _undetermined_key(text: str) -> str:
    return _collapse(text.translate(_EMPHASIS)).strip(" \t.!\"'").casefold()


def read_undetermined(body: object, kind: AnswerKind, spec: AnswerSpec
                      ) -> AnswerReading | None:
    """The reading of an answer `body` that says the target cannot be determined, or None
    when the body does not speak of that (the answer kind reads it as usual).

    The form is fixed: the answer's value is ``cannot be determined`` (case, emphasis,
    quotes and a closing full stop aside), read as `contract.UNDETERMINED`. A
    justification may follow it after a sentence end or a word such as ``because``,
    unless it puts a value of the kind forward or hedges (``cannot be determined, but
    probably yes``: ``ambiguous``). Any other body that says the target cannot be
    determined (``yes, or it cannot be determined``, ``undetermined``, ``it can't be
    determined``) is ``ambiguous``: one form, so that no hedge is read as the answer."""
    if not isinstance(body, str) or not _UNDETERMINED_PHRASE.search(body):
        return None
    text = _collapse(body).strip()
    head, tail = split_justification(text)
    if _undetermined_key(head) != contract.UNDETERMINED:
        return invalid("ambiguous")
    rest = tail_opening(tail).strip()
    if rest:
        if _SECOND_CUE.search(rest) or RETRACTION.search(rest.casefold()):
            return invalid("ambiguous")
        try:
            second = kind.read_text(rest, spec)
        except Exception:  # a plug-in kind must not fail the turn
            second = invalid("malformed")
        if second.valid:
            return invalid("ambiguous")
    return AnswerReading(contract.UNDETERMINED)
