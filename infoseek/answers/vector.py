"""The ``vector`` answer kind: a tuple of named values (a steady state ``TGFB = 1, SMAD
= 0``).

Written ``name=value`` pairs joined by ``, `` in the spec's order (`label`: ``A=1, B=0``;
booleans as ``true`` / ``false``). Read (:meth:`VectorKind.read_text`) from the whole
answer body (the lines after ``Answer:`` too): pairs ``name = value``, ``name: value`` or
``name is value``, separated by commas, semicolons, line breaks or ``and``; one pair list
may be wrapped in brackets, or be a JSON object; a bullet before a pair is dropped. A
trailing justification (``(``, ``because``, ``since`` ...) is set aside, unless it gives
a component another value as an answer (``... Actually G1 = 1``: ``ambiguous``; pairs of
other names are facts). A component given two values, a value going on with a
self-correction and a probability are ``ambiguous``. Every component of ``spec.names`` must appear
exactly once (names match case-insensitively); a missing, extra or repeated name, or a
piece that is not a pair, is ``malformed``; a hedged value (``0 or 1``, ``0/1``,
``maybe 1``) is ``ambiguous``; with ``spec.allowed`` known, a value outside it is
``malformed``. Values are ints for integer text, booleans for ``true`` / ``false``, else
the text. The pairs are the body's first paragraph; the paragraphs after a blank line, and
the lines from the first one that opens as prose (``Because ...``, ``Actually ...``;
`infoseek.answers.answer_lines.split_prose`), are their justification: a hedge,
retraction or probability there, another vector, or a component given another value
(``I'd also accept G1=1``) is ``ambiguous``. The tool argument may be a JSON object (or its text).

Comparison: equal as a whole (names case-insensitive, values by their written form); no
partial credit. Pure: no Inspect imports.
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping

from infoseek.answers.answer_lines import first_paragraph, split_prose
from infoseek.answers.answer_text import (
    ANSWER_LEAD,
    EDGE_PUNCTUATION,
    HEDGE,
    collapse,
    name_pattern,
    normalise,
)
from infoseek.answers.base import AnswerKind, AnswerReading, AnswerSpec, invalid
from infoseek.answers.doubts import read_undoubted
from infoseek.answers.second_values import PROBABILITY, SECOND_VALUE_CUE, justification_clauses

_JUSTIFICATION = re.compile(
    r"[(\[]|\b(?:because|since|as|given|due|thus|hence|therefore|which|according|based)\b"
)
_SEPARATOR = re.compile(r"[,;\n]|\band\b")
_PAIR = re.compile(r"^(?P<name>.+?)\s*(?:=|:|\bis\b)\s*(?P<value>.+)$")
_ANSWER_LEAD = re.compile(ANSWER_LEAD.pattern, re.IGNORECASE)
_INTEGER = re.compile(r"[+-]?[0-9]+")


def name_key(name: str) -> str:
    return collapse(name.replace("`", "").replace("*", "")).strip(EDGE_PUNCTUATION).casefold()


def component_label(value: object) -> str:
    if value is True:
        return "true"
    if value is False:
        return "false"
    return str(value)


def _component_key(value: object) -> str:
    if isinstance(value, float) and value.is_integer():
        value = int(value)
    if isinstance(value, str):
        return normalise(value).strip(EDGE_PUNCTUATION)
    return component_label(value).casefold()


def _component_value(text: str) -> object:
    if _INTEGER.fullmatch(text):
        return int(text)
    if text.casefold() in ("true", "false"):
        return text.casefold() == "true"
    return text


_CLOSING = {"(": ")", "[": "]", "{": "}"}


def _unwrapped(text: str) -> str | None:
    """The pair list inside a leading bracket (what follows the bracket is a
    justification), or None when the text opens with no bracket."""
    closing = _CLOSING.get(text[:1])
    if closing is None:
        return None
    end = text.find(closing)
    return text[1:end] if end > 0 else text[1:]


def _cut_justification(text: str, names: tuple[str, ...]) -> str:
    spans = [m.span() for name in names if name for m in name_pattern(name).finditer(text)]
    for marker in _JUSTIFICATION.finditer(text):
        if not any(low <= marker.start() < high for low, high in spans):
            return text[: marker.start()]
    return text


_LIST_MARK = re.compile(r"^(?:[-+*\u2022]|\d{1,3}[.)])\s+")
_CUED_VALUE = re.compile(rf"[.!?:,]\s*(?:{SECOND_VALUE_CUE.pattern})", re.IGNORECASE)


def _opens_with_pair_of(line: str, keys: set[str]) -> bool:
    """Whether a line opens with a pair of one of the components (``it = 1`` is a pair
    when ``it`` is a component's name, not prose)."""
    piece = _SEPARATOR.split(line.replace("`", "").replace("**", ""), maxsplit=1)[0]
    pair = _PAIR.match(_LIST_MARK.sub("", piece.strip()))
    return pair is not None and name_key(pair.group("name")) in keys


def _repeats_with_another_value(pairs: list[tuple[str, object]]) -> bool:
    seen: dict[str, str] = {}
    for name, value in pairs:
        key, value_key = name_key(name), _component_key(value)
        if seen.setdefault(key, value_key) != value_key:
            return True
    return False


def _offers_another(tail: str, value: dict) -> bool:
    """Whether a justification gives a component another value as an answer: a clause
    opening with ``name = v`` or ``name is v`` (v not the answer's), ``name = v`` or
    ``name: v`` anywhere in a clause (``I'd also accept G1=1``), or any such pair after
    a self-correction or alternative cue. Pairs of other names are facts, and so is
    ``name is v`` inside a sentence (``because G2 is on``)."""
    answered = {name_key(name): _component_key(v) for name, v in value.items()}
    for clause, cued in justification_clauses(tail):
        for number, match in enumerate(_TAIL_PAIR.finditer(clause)):
            joined = clause[match.end("name"):match.start("value")].strip()
            if not cued and (number or match.start()) and joined not in ("=", ":"):
                continue
            key = name_key(match.group("name"))
            if key in answered and _component_key(
                    _component_value(match.group("value"))) != answered[key]:
                return True
    return False


_TAIL_PAIR = re.compile(r"(?P<name>[\w-]+)\s*(?:=|:|\bis\b)\s*(?P<value>[\w-]+)")


class VectorKind(AnswerKind):
    """Every component of ``spec.names``, each named once with one value."""

    name = "vector"
    malformed = ("Your answer could not be read as one value for each named component, "
                 "written like name=value.")
    multiline = True

    def read_text(self, body: object, spec: AnswerSpec) -> AnswerReading:
        """Read an answer body; a hedged, approximate or retracted one is ``ambiguous``
        (`infoseek.answers.doubts.read_undoubted`)."""
        return read_undoubted(lambda text: self._read_paragraphs(text, spec), body,
                              tuple(str(name) for name in spec.names))

    def _read_paragraphs(self, body: object, spec: AnswerSpec) -> AnswerReading:
        """The first paragraph holds the pairs; the later ones are their justification,
        where a probability, another vector or a component given another value is
        ``ambiguous``."""
        if not isinstance(body, str):
            return self._read_body(body, spec)
        value, later = first_paragraph(body)
        keys = {name_key(str(name)) for name in spec.names}
        value, prose = split_prose(value, lambda line: _opens_with_pair_of(line, keys))
        later = "\n\n".join(part for part in (prose, later) if part)
        reading = self._read_body(value, spec)
        if not reading.valid or not later:
            return reading
        if PROBABILITY.search(later) or _offers_another(later, reading.value):
            return invalid("ambiguous")
        for paragraph in later.split("\n\n"):
            other = self._read_body(paragraph, spec)
            if other.valid and other.value != reading.value:
                return invalid("ambiguous")
        return reading

    def _read_body(self, body: object, spec: AnswerSpec) -> AnswerReading:
        if not isinstance(body, str):
            return invalid("malformed")
        lines = [line.strip() for line in body.splitlines() if line.strip()]
        if not lines:
            return invalid("empty")
        text = "\n".join(lines).replace("`", "").replace("**", "")
        text = _ANSWER_LEAD.sub("", text)
        if text.startswith("{"):
            try:
                decoded = json.loads(text)
            except (ValueError, RecursionError):
                decoded = None
            if isinstance(decoded, dict):
                return self._read_mapping(decoded, spec)
        if PROBABILITY.search(text):
            return invalid("ambiguous")
        keys = tuple(name_key(name) for name in spec.names)
        whole = text
        inner = _unwrapped(text)
        text = inner if inner is not None else _cut_justification(text, keys)
        tail = whole[len(text) :] if inner is None else whole[len(inner) + 1 :]
        pairs: list[tuple[str, object]] = []
        for piece in _SEPARATOR.split(text):
            piece = _LIST_MARK.sub("", piece.strip(" \t.!?"))
            if not piece:
                continue
            pair = _PAIR.match(piece)
            if pair is None:
                return invalid("ambiguous" if HEDGE.search(normalise(piece)) else "malformed")
            value = pair.group("value").strip(" \t.!?'\"")
            if HEDGE.search(normalise(value)) or _CUED_VALUE.search(value):
                return invalid("ambiguous")
            pairs.append((pair.group("name"), _component_value(value)))
        if not pairs:
            return invalid("malformed")
        if _repeats_with_another_value(pairs):
            return invalid("ambiguous")  # a second vector: "G1=0, G2=1. Actually G1=1, G2=0"
        reading = _checked(pairs, spec)
        if reading.valid and _offers_another(tail, reading.value):
            return invalid("ambiguous")
        return reading

    def read_tool(self, argument: object, spec: AnswerSpec) -> AnswerReading:
        if isinstance(argument, dict):
            return self._read_mapping(argument, spec)
        return super().read_tool(argument, spec)

    def _read_mapping(self, mapping: Mapping, spec: AnswerSpec) -> AnswerReading:
        pairs: list[tuple[str, object]] = []
        for name, value in mapping.items():
            if not isinstance(name, str):
                return invalid("malformed")
            if isinstance(value, str):
                if HEDGE.search(normalise(value)):
                    return invalid("ambiguous")
                value = _component_value(value.strip())
            elif isinstance(value, float) and value.is_integer():
                value = int(value)
            elif not isinstance(value, bool | int):
                return invalid("malformed")
            pairs.append((name, value))
        if not pairs:
            return invalid("empty")
        return _checked(pairs, spec)

    def compare(self, given: object, expected: object, spec: AnswerSpec | None = None) -> float:
        if not isinstance(given, Mapping) or not isinstance(expected, Mapping):
            return 0.0
        try:
            left = {name_key(str(k)): _component_key(v) for k, v in given.items()}
            right = {name_key(str(k)): _component_key(v) for k, v in expected.items()}
        except (TypeError, ValueError, RecursionError):
            return 0.0
        return 1.0 if left == right and len(left) == len(given) == len(expected) else 0.0

    def label(self, value: object) -> str:
        if isinstance(value, Mapping):
            return ", ".join(f"{name}={component_label(v)}" for name, v in value.items())
        return str(value)

    def spec_fields(self, values: object) -> dict[str, tuple]:
        names: dict[str, None] = {}
        allowed: dict[str, object] = {}
        for value in values:  # type: ignore[union-attr]
            if isinstance(value, Mapping):
                for name, component in value.items():
                    names.setdefault(str(name))
                    if isinstance(component, bool | int | str):
                        allowed.setdefault(_component_key(component), component)
        return {"names": tuple(names), "allowed": tuple(allowed.values())}


def _checked(pairs: list[tuple[str, object]], spec: AnswerSpec) -> AnswerReading:
    """The named values as a dict in the spec's order, or ``malformed`` for a missing,
    unknown or repeated name or a value outside ``spec.allowed``."""
    by_key = {name_key(name): name for name in spec.names}
    allowed = {_component_key(value): value for value in spec.allowed}
    read: dict[str, object] = {}
    for name, value in pairs:
        key = name_key(name)
        if not key or key in read:
            return invalid("malformed")
        if by_key and key not in by_key:
            return invalid("malformed")
        if allowed:
            value_key = _component_key(value)
            if value_key not in allowed:
                return invalid("malformed")
            value = allowed[value_key]
        read[key] = value
    if by_key:
        if set(read) != set(by_key):
            return invalid("malformed")
        return AnswerReading({by_key[key]: read[key] for key in by_key})
    spelled = {name_key(name): collapse(name).strip(EDGE_PUNCTUATION) for name, _ in pairs}
    return AnswerReading({spelled[key]: value for key, value in read.items()})
