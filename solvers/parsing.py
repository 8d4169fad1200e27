"""Turning one model turn into an action: ask some variables, or answer.

Two reply formats are supported, both pure functions of the reply and the
problem's vocabulary (no Inspect imports, so the reference models and the tests
use exactly the same code as the seek loop):

* plain text, the published format: ``Question: Is Alice kind?`` lines (one query
  per line) or a single ``Answer: ...`` line; any other text is reasoning and is
  ignored;
* tool calls: ``ask(variable=...)`` and ``answer(value=...)``
  (:func:`solvers.tool_parsing.parse_tool_calls`, on the same vocabulary rules).

Quantity problems (math) pass ``descriptions`` ({name: text}): a question may then
also read ``Question: What is <name>?`` (or ``how much`` / ``how many``, ``the value
of``), and the subject may be a variable's description instead of its name. Answers are
read by their answer kind from the registry `infoseek.answers` (SPEC 3.8): ``answer=``
takes an `AnswerSpec` (a choice's options, a vector's names, a sequence's items), or
``answer_kind=`` names the kind (``"boolean"``, the default, ``"number"``, ...). One
candidate value, a trailing justification allowed; hedges, ranges, two values and
unevaluated expressions are ``ambiguous``, huge numbers ``out_of_range``. Quantities in
``not_leaf`` are refused with ``not_leaf`` (derived quantities when only leaves may be
asked).

A question names its variable whatever the phrasing (``Is Alice a kind person?``): the
known names (and, for quantities, descriptions; ``_`` also read as a space) are looked
for longest first, on word boundaries, with the entity's own name set aside. Exactly one
distinct variable named: that variable, then the validity rules (target, observed,
not_leaf, forbidden, repeated); none: ``unknown`` (``malformed`` when nothing but the
entity and question words is left); several: ``malformed``.

``templates`` (the template lines the prompt showed): a reply line that copies one
(whitespace collapsed, emphasis dropped, case folded) makes the turn invalid with
``template``. Everything that is rejected carries a reason from :data:`INVALID_REASONS`,
so scorers can count invalid queries by kind; no text makes a parser raise.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Collection, Iterable, Mapping
from dataclasses import dataclass

from infoseek import contract
from infoseek.answers import AnswerSpec, answer_spec
from infoseek.answers import answer_kind as registered_kind
from solvers.answer_parsing import (
    _EDGE_PUNCTUATION,
    AnswerReading,
    _collapse,
    _normalise,
    copied_template_line,
    parse_boolean_answer,
    parse_number_answer,
    read_boolean_answer,
    read_number_answer,
)

__all__ = [
    "AnswerReading",
    "INVALID_REASONS",
    "QUANTITY_REASONS",
    "ParsedQuery",
    "ParsedTurn",
    "parse_boolean_answer",
    "parse_number_answer",
    "parse_text_turn",
    "read_boolean_answer",
    "read_number_answer",
]

INVALID_REASONS: tuple[str, ...] = contract.INVALID_REASONS
"""Every reason a rejected query or turn carries (`infoseek.contract`)."""

QUANTITY_REASONS: tuple[str, ...] = ("not_leaf",)
"""Reasons only problems with a ``not_leaf`` list produce (a derived quantity asked where
only leaves may be asked); scorers count them like the others."""

ASK = contract.ACTION_ASK
ANSWER = contract.ACTION_ANSWER
INVALID = contract.ACTION_INVALID


@dataclass(frozen=True)
class ParsedQuery:
    """One attempted query.

    ``variable`` is the problem's own spelling of the attribute whenever exactly
    one known attribute could be read (even if the query is invalid for another
    reason, e.g. ``forbidden``); it is ``None`` for unknown or malformed names.
    """

    raw: str
    variable: str | None
    valid: bool
    reason: str | None


@dataclass(frozen=True)
class ParsedTurn:
    """The action a model turn amounts to.

    ``kind`` is ``"ask"`` (``queries`` holds every attempted query, valid or not),
    ``"answer"`` (``answer_value`` holds the parsed value) or ``"invalid"``
    (``reason`` says why; nothing is asked and nothing is answered).
    """

    kind: str
    queries: tuple[ParsedQuery, ...]
    answer_value: object | None
    answer_raw: str | None
    reason: str | None

    @property
    def asked_variables(self) -> tuple[str, ...]:
        """The variables of the valid queries, in order."""
        return tuple(q.variable for q in self.queries if q.valid and q.variable is not None)


def _invalid_turn(
    reason: str,
    queries: tuple[ParsedQuery, ...] = (),
    answer_raw: str | None = None,
) -> ParsedTurn:
    return ParsedTurn(INVALID, queries, None, answer_raw, reason)


# --------------------------------------------------------------------------- names


@dataclass(frozen=True)
class _Vocabulary:
    entity: str  # lowercase
    by_lower: dict[str, str]  # lowercase name -> the problem's spelling
    askable: frozenset[str]
    observed: frozenset[str]
    target: str
    asked: frozenset[str]
    queries_per_turn: int
    not_leaf: frozenset[str] = frozenset()
    by_description: dict[str, str] | None = None  # normalised description -> lowercase name
    answer: AnswerSpec = AnswerSpec("boolean")
    name_pattern: re.Pattern[str] | None = None  # every way to name a variable, longest first
    by_surface: dict[str, str | None] | None = None  # surface form -> lowercase name (None: entity)


def _lowered(names: Iterable[str]) -> frozenset[str]:
    return frozenset(_collapse(n.lower()) for n in names if isinstance(n, str))


def _vocabulary(
    *,
    entity: str,
    variables: Collection[str],
    askable: Collection[str],
    observed: Collection[str],
    target: str,
    asked: Collection[str],
    queries_per_turn: int,
    not_leaf: Collection[str] = (),
    descriptions: Mapping[str, str] | None = None,
    answer_kind: str = "boolean",
    answer: AnswerSpec | None = None,
) -> _Vocabulary:
    if answer is None:
        answer = answer_spec(answer_kind, entity=entity, target=target)
    else:
        registered_kind(answer)  # an unregistered kind fails here, with the registered names
    lowered_entity = _collapse(entity.lower()) if isinstance(entity, str) else ""
    by_lower, by_description, name_pattern, by_surface = _naming(
        tuple(variables), tuple(observed), target,
        None if descriptions is None else tuple(descriptions.items()), lowered_entity,
    )
    return _Vocabulary(
        name_pattern=name_pattern,
        by_surface=by_surface,
        not_leaf=_lowered(not_leaf),
        by_description=by_description,
        answer=answer,
        entity=lowered_entity,
        by_lower=by_lower,
        askable=_lowered(askable),
        observed=_lowered(observed),
        target=_collapse(target.lower()),
        asked=_lowered(asked),
        queries_per_turn=max(1, int(queries_per_turn)),
    )

@functools.lru_cache(maxsize=1024)
def _naming(
    variables: tuple, observed: tuple, target: str, descriptions: tuple | None, entity: str
) -> tuple[dict[str, str], dict[str, str] | None, re.Pattern[str] | None,
           dict[str, str | None]]:
    """The parts of a vocabulary that depend only on the problem's names (the same in
    every turn of an episode, so cached): lowercase name -> spelling, normalised
    description -> name, and the surface-form pattern of :func:`_name_surfaces`. The
    returned dicts are shared between calls and must not be changed."""
    by_lower: dict[str, str] = {}
    for name in [*variables, *observed, target]:
        if isinstance(name, str) and name.strip():
            by_lower.setdefault(_collapse(name.lower()), name)
    by_description: dict[str, str] | None = None
    if descriptions is not None:
        by_description = {}
        for name, text in descriptions:
            lowered = _collapse(name.lower()) if isinstance(name, str) else None
            if lowered in by_lower and isinstance(text, str) and text.strip():
                key = _strip_article(_normalise(text).strip(_EDGE_PUNCTUATION))
                by_description.setdefault(key, lowered)
    name_pattern, by_surface = _name_surfaces(by_lower, by_description or {}, entity)
    return by_lower, by_description, name_pattern, by_surface


def _name_surfaces(
    by_lower: Mapping[str, str], by_description: Mapping[str, str], entity: str
) -> tuple[re.Pattern[str] | None, dict[str, str | None]]:
    """One regex for every surface form of a variable (its name, the name with ``_`` read
    as a space, its description) and the entity's name, longest first, on word
    boundaries; and the map from a matched surface to its variable (``None``: entity)."""
    surfaces: dict[str, str | None] = {}
    for lowered in by_lower:
        key = _normalise(lowered)
        for form in (key, key.replace("_", " ")):
            if form:
                surfaces.setdefault(form, lowered)
    for description, lowered in by_description.items():
        if description:
            surfaces.setdefault(description, lowered)
    if entity:
        surfaces[_normalise(entity)] = None
    surfaces.pop("", None)
    if not surfaces:
        return None, surfaces
    ordered = sorted(surfaces, key=lambda form: (-len(form), form))
    alternatives = "|".join(re.escape(form) for form in ordered)
    return re.compile(rf"(?<![\w-])(?:{alternatives})(?![\w-])"), surfaces


def _named_variables(subject: str, vocab: _Vocabulary) -> set[str]:
    """The distinct variables a (normalised) question subject names."""
    if vocab.name_pattern is None or vocab.by_surface is None:
        return set()
    named = (vocab.by_surface.get(match.group(0)) for match in vocab.name_pattern.finditer(subject))
    return {name for name in named if name is not None}


def _question_subject(fragment: str, entity: str) -> str:
    """The part of a question that should be exactly one attribute name."""
    subject = _normalise(fragment).strip(_EDGE_PUNCTUATION)
    if entity:
        ent = re.escape(entity)
        subject = re.sub(rf"^(?:is\s+{ent}\s+|{ent}\s+is\s+|is\s+)", "", subject)
        if re.fullmatch(rf"(?:is\s+)?{ent}", subject):
            return ""  # only the person's name, no attribute
    else:
        subject = re.sub(r"^is\s+", "", subject)
    subject = re.sub(r"\s+or\s+not$", "", subject.strip(_EDGE_PUNCTUATION))
    return subject.strip(_EDGE_PUNCTUATION)


_QUANTITY_QUESTION = re.compile(
    r"^(?:what|how\s+much|how\s+many)\s+(?:is|are|was|were)\s+(?:the\s+value\s+of\s+)?"
)


def _strip_article(text: str) -> str:
    return re.sub(r"^(?:the|a|an)\s+", "", text)


def _quantity_subject(subject: str, vocab: _Vocabulary) -> str | None:
    """For quantity problems: the name a ``What is X?`` question (or a description)
    points to, or None."""
    if vocab.by_description is None:
        return None
    bare = _QUANTITY_QUESTION.sub("", subject).strip(_EDGE_PUNCTUATION)
    for candidate in (bare, _strip_article(bare)):
        if candidate in vocab.by_lower:
            return candidate
        if candidate in vocab.by_description:
            return vocab.by_description[candidate]
    return None


def _resolve_name(fragment: str, vocab: _Vocabulary) -> tuple[str | None, str | None]:
    """``(lowercase name, None)`` for one clean known name, else ``(None, reason)``."""
    subject = _question_subject(fragment, vocab.entity)
    if not subject:
        return None, "malformed"
    if subject in vocab.by_lower:
        return subject, None
    quantity = _quantity_subject(subject, vocab)
    if quantity is not None:
        return quantity, None
    named = _named_variables(subject, vocab)
    if len(named) == 1:
        return named.pop(), None
    return None, ("malformed" if named else "unknown")


def _judge_queries(
    attempts: list[tuple[str, str | None, str | None]], vocab: _Vocabulary
) -> tuple[ParsedQuery, ...]:
    """Apply the validity rules to ``(raw, lowercase name, failure)`` attempts."""
    queries: list[ParsedQuery] = []
    asked_now: set[str] = set()
    for index, (raw, name, failure) in enumerate(attempts):
        variable = vocab.by_lower.get(name) if name is not None else None
        reason = failure
        if index >= vocab.queries_per_turn:
            reason = "too_many"
        elif reason is None and name is not None:
            if name == vocab.target:
                reason = "target"
            elif name in vocab.observed:
                reason = "observed"
            elif name in vocab.not_leaf:
                reason = "not_leaf"
            elif name not in vocab.askable:
                reason = "forbidden"
            elif name in vocab.asked or name in asked_now:
                reason = "repeated"
            else:
                asked_now.add(name)
        queries.append(ParsedQuery(raw, variable, reason is None, reason))
    return tuple(queries)


def _blocked_queries(
    attempts: list[tuple[str, str | None, str | None]], vocab: _Vocabulary
) -> tuple[ParsedQuery, ...]:
    """The attempts of a turn that also answers: each refused with ``multiple_actions``."""
    return tuple(
        ParsedQuery(raw, vocab.by_lower.get(name) if name else None, False, "multiple_actions")
        for raw, name, _ in attempts
    )


# ----------------------------------------------------------------------- plain text

_LINE_LEAD = " \t>#*_+-`"
_MARKUP = " \t*_`"
_NUMBERING = re.compile(r"\d{1,4}[.)]")
_KEYWORD = re.compile(r"(?:final\s+)?(question|answer)(?:\s*\d{1,4})?", re.IGNORECASE)


def _action_line(line: str) -> tuple[str, str] | None:
    """``(keyword, content)`` for a ``Question:`` / ``Answer:`` line, else ``None``."""
    rest = line.lstrip(_LINE_LEAD)
    numbering = _NUMBERING.match(rest)
    if numbering:
        rest = rest[numbering.end() :].lstrip(_LINE_LEAD)
    keyword = _KEYWORD.match(rest)
    if keyword is None:
        return None
    rest = rest[keyword.end() :].lstrip(_MARKUP)
    if not rest.startswith(":"):
        return None
    return keyword.group(1).lower(), rest[1:]


def _raw_fragment(content: str) -> str:
    return content.strip(_MARKUP)


def parse_text_turn(
    text: str,
    *,
    entity: str,
    variables: Collection[str],
    askable: Collection[str],
    observed: Collection[str],
    target: str,
    asked: Collection[str],
    queries_per_turn: int,
    max_chars: int = 20000,
    not_leaf: Collection[str] = (),
    descriptions: Mapping[str, str] | None = None,
    answer_kind: str = "boolean",
    templates: Collection[str] = (),
    answer: AnswerSpec | None = None,
) -> ParsedTurn:
    """Parse a plain-text turn (``Question: ...`` lines or one ``Answer: ...``).

    ``variables`` are the problem's attribute names, ``askable`` those that may be
    asked now, ``observed`` those given in the problem, ``asked`` those asked in
    earlier turns. Keywords are case-insensitive and may carry markdown emphasis,
    list bullets or numbering (``1.``, ``1)``); an ``Answer:`` line with nothing after it
    takes the next non-empty line (and is ``malformed`` when there is none); for a kind
    read over several lines (`AnswerKind.multiline`: vector, sequence) the answer also
    takes the lines after it, up to a blank line or the next action line. A line that
    copies one of ``templates`` makes the turn invalid with ``template``. The answer is
    read by the kind of ``answer`` (an `AnswerSpec`), else of ``answer_kind``.
    """
    if not isinstance(text, str) or not text.strip():
        return _invalid_turn("empty")
    if len(text) > max_chars:
        return _invalid_turn("too_long")
    lines = text.splitlines()
    copied = copied_template_line(lines, templates)
    if copied is not None:
        return _invalid_turn("template", answer_raw=copied)
    vocab = _vocabulary(
        entity=entity,
        variables=variables,
        askable=askable,
        observed=observed,
        target=target,
        asked=asked,
        queries_per_turn=queries_per_turn,
        not_leaf=not_leaf,
        descriptions=descriptions,
        answer_kind=answer_kind,
        answer=answer,
    )
    multiline = registered_kind(vocab.answer).multiline

    questions: list[str] = []
    answers: list[str] = []
    for index, line in enumerate(lines):
        action = _action_line(line)
        if action is None:
            continue
        keyword, content = action
        if keyword == "question":
            questions.append(_raw_fragment(content))
            continue
        content = _raw_fragment(content)
        if multiline:
            following = _continuation(lines[index + 1 :], skip_blank=not content.strip())
            content = "\n".join([content, *following]).strip()
        elif not content:
            following = next((later for later in lines[index + 1 :] if later.strip()), None)
            if following is not None and _action_line(following) is None:
                content = _raw_fragment(following)
        answers.append(content)

    if not questions and not answers:
        return _invalid_turn("no_action")

    attempts = [(raw, *_resolve_name(raw, vocab)) for raw in questions]
    if answers and (questions or len(answers) > 1):
        return _invalid_turn(
            "multiple_actions", _blocked_queries(attempts, vocab), "\n".join(answers)
        )

    if answers:
        if not answers[0].strip():
            return _invalid_turn("malformed", answer_raw=answers[0])
        return _answer_turn(answers[0], vocab)
    return ParsedTurn(ASK, _judge_queries(attempts, vocab), None, None, None)


def _continuation(lines: list[str], *, skip_blank: bool) -> list[str]:
    """The lines that continue a several-line answer: up to a blank line (blank lines
    before the first one skipped when ``skip_blank``: the ``Answer:`` line held nothing)
    or the next action line."""
    kept: list[str] = []
    for line in lines:
        if not line.strip():
            if kept or not skip_blank:
                break
            continue
        if _action_line(line) is not None:
            break
        kept.append(line.strip())
    return kept


def _reading_turn(reading: AnswerReading, raw: str) -> ParsedTurn:
    """The turn an answer reading amounts to: an answer, or invalid with its reason."""
    if reading.reason is not None:
        return _invalid_turn(reading.reason, answer_raw=raw)
    return ParsedTurn(ANSWER, (), reading.value, raw, None)


def _answer_turn(raw: str, vocab: _Vocabulary) -> ParsedTurn:
    """The turn an answer text amounts to, read by the vocabulary's answer kind."""
    return _reading_turn(registered_kind(vocab.answer).read_text(raw, vocab.answer), raw)
