"""Which variable a query names, and whether it may be asked.

A `Vocabulary` holds one turn's view of the problem's names (variables, the entity,
descriptions of quantities, what is askable, observed or already asked).
`resolve_name` reads the one variable a question names, whatever the phrasing: the known
names (and, for quantities, descriptions; ``_`` also read as a space) are looked for
longest first, on word boundaries, with the entity's own name set aside; none named is
``unknown`` (``malformed`` when nothing but the entity and question words is left),
several ``malformed``. `judge_queries` then applies the validity rules (target,
observed, not_leaf, forbidden, repeated, too_many). The text parser
(`infoseek.solvers.seek.parsing`)
and the tool parser (`infoseek.solvers.seek.tool_parsing`) share all of it.
"""

from __future__ import annotations

import dataclasses
import functools
import re
from collections.abc import Collection, Iterable, Mapping
from dataclasses import dataclass

from infoseek.answers import AnswerSpec
from infoseek.answers.answer_text import EDGE_PUNCTUATION, collapse, normalise
from infoseek.contract import ParsedQuery
from infoseek.solvers.seek.parse_context import ParseContext


@dataclass(frozen=True)
class Vocabulary:
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
    undetermined: bool = False  # "cannot be determined" is an answer (ParseContext)


def _lowered(names: Iterable[str]) -> frozenset[str]:
    return frozenset(collapse(n.lower()) for n in names if isinstance(n, str))


def vocabulary(context: ParseContext, asked: Collection[str] = ()) -> Vocabulary:
    """One turn's view of the names: the episode's `context` and the variables validly
    asked in earlier turns. Everything but ``asked`` depends on the context alone, so it
    is built once per context (`_episode_vocabulary`) and only ``asked`` is added per turn."""
    base = context.derived("vocabulary", _episode_vocabulary)
    return dataclasses.replace(base, asked=_lowered(asked)) if asked else base


def _episode_vocabulary(context: ParseContext) -> Vocabulary:
    """The vocabulary of `context` with nothing asked yet."""
    entity = context.entity
    lowered_entity = collapse(entity.lower()) if isinstance(entity, str) else ""
    descriptions = context.descriptions
    by_lower, by_description, name_pattern, by_surface = _naming(
        tuple(context.variables), tuple(context.observed), context.target,
        None if descriptions is None else tuple(descriptions.items()), lowered_entity,
    )
    return Vocabulary(
        name_pattern=name_pattern,
        by_surface=by_surface,
        not_leaf=_lowered(context.not_leaf),
        by_description=by_description,
        answer=context.answer,
        entity=lowered_entity,
        by_lower=by_lower,
        askable=_lowered(context.askable),
        observed=_lowered(context.observed),
        target=collapse(context.target.lower()),
        asked=frozenset(),
        queries_per_turn=max(1, int(context.queries_per_turn)),
        undetermined=context.undetermined,
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
            by_lower.setdefault(collapse(name.lower()), name)
    by_description: dict[str, str] | None = None
    if descriptions is not None:
        by_description = {}
        for name, text in descriptions:
            lowered = collapse(name.lower()) if isinstance(name, str) else None
            if lowered in by_lower and isinstance(text, str) and text.strip():
                key = _strip_article(normalise(text).strip(EDGE_PUNCTUATION))
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
        key = normalise(lowered)
        for form in (key, key.replace("_", " ")):
            if form:
                surfaces.setdefault(form, lowered)
    for description, lowered in by_description.items():
        if description:
            surfaces.setdefault(description, lowered)
    if entity:
        surfaces[normalise(entity)] = None
    surfaces.pop("", None)
    if not surfaces:
        return None, surfaces
    ordered = sorted(surfaces, key=lambda form: (-len(form), form))
    alternatives = "|".join(re.escape(form) for form in ordered)
    return re.compile(rf"(?<![\w-])(?:{alternatives})(?![\w-])"), surfaces


def _named_variables(subject: str, vocab: Vocabulary) -> set[str]:
    """The distinct variables a (normalised) question subject names."""
    if vocab.name_pattern is None or vocab.by_surface is None:
        return set()
    named = (vocab.by_surface.get(match.group(0)) for match in vocab.name_pattern.finditer(subject))
    return {name for name in named if name is not None}


def _question_subject(fragment: str, entity: str) -> str:
    """The part of a question that should be exactly one attribute name."""
    subject = normalise(fragment).strip(EDGE_PUNCTUATION)
    if entity:
        ent = re.escape(entity)
        subject = re.sub(rf"^(?:is\s+{ent}\s+|{ent}\s+is\s+|is\s+)", "", subject)
        if re.fullmatch(rf"(?:is\s+)?{ent}", subject):
            return ""  # only the person's name, no attribute
    else:
        subject = re.sub(r"^is\s+", "", subject)
    subject = re.sub(r"\s+or\s+not$", "", subject.strip(EDGE_PUNCTUATION))
    return subject.strip(EDGE_PUNCTUATION)


_QUANTITY_QUESTION = re.compile(
    r"^(?:what|how\s+much|how\s+many)\s+(?:is|are|was|were)\s+(?:the\s+value\s+of\s+)?"
)


def _strip_article(text: str) -> str:
    return re.sub(r"^(?:the|a|an)\s+", "", text)


def _quantity_subject(subject: str, vocab: Vocabulary) -> str | None:
    """For quantity problems: the name a ``What is X?`` question (or a description)
    points to, or None."""
    if vocab.by_description is None:
        return None
    bare = _QUANTITY_QUESTION.sub("", subject).strip(EDGE_PUNCTUATION)
    for candidate in (bare, _strip_article(bare)):
        if candidate in vocab.by_lower:
            return candidate
        if candidate in vocab.by_description:
            return vocab.by_description[candidate]
    return None


def resolve_name(fragment: str, vocab: Vocabulary) -> tuple[str | None, str | None]:
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


def judge_queries(
    attempts: list[tuple[str, str | None, str | None]], vocab: Vocabulary
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


def blocked_queries(
    attempts: list[tuple[str, str | None, str | None]], vocab: Vocabulary
) -> tuple[ParsedQuery, ...]:
    """The attempts of a turn that also answers: each refused with ``multiple_actions``."""
    return tuple(
        ParsedQuery(raw, vocab.by_lower.get(name) if name else None, False, "multiple_actions")
        for raw, name, _ in attempts
    )
