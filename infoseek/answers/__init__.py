"""The answer-kind registry: how a final answer is written, read and compared.

Every kind (`AnswerKind`) is registered once by name, and every protocol, format and
scorer reaches it through `answer_kind(name)`; nothing else dispatches on kind names.
Built in (one module each, rules in its docstring and in docs/contracts.md "Answer
kinds"): ``boolean`` (yes/no), ``number`` (one exact number), ``choice`` (one of a listed
set), ``vector`` (named values) and ``sequence`` (an ordered list). A plug-in kind calls
`register_answer_kind` with an instance of its own subclass.

A reader gets an `AnswerSpec` (`answer_spec` builds it from the engine's possible target
values) and returns an `AnswerReading`: the value, or an invalid reason from
`infoseek.contract.INVALID_REASONS`. No model text makes a reader or a comparison raise.
Pure: no Inspect imports.
"""

from __future__ import annotations

from collections.abc import Iterable

from infoseek.answers.base import AnswerKind, AnswerReading, AnswerSpec, invalid
from infoseek.answers.boolean import BooleanKind
from infoseek.answers.choice import ChoiceKind
from infoseek.answers.number import NumberKind
from infoseek.answers.sequence import SequenceKind
from infoseek.answers.vector import VectorKind

__all__ = [
    "AnswerKind",
    "AnswerReading",
    "AnswerSpec",
    "UnknownAnswerKind",
    "answer_kind",
    "answer_kind_names",
    "answer_spec",
    "invalid",
    "register_answer_kind",
    "unregister_answer_kind",
]


class UnknownAnswerKind(ValueError):
    """A name no answer kind was registered under."""


_KINDS: dict[str, AnswerKind] = {}


def register_answer_kind(kind: AnswerKind, *, replace: bool = False) -> AnswerKind:
    """Register ``kind`` under ``kind.name`` (a second kind of the same name needs
    ``replace=True``); returns it."""
    name = getattr(kind, "name", None)
    if not isinstance(name, str) or not name:
        raise ValueError(f"an answer kind needs a non-empty name; got {name!r}")
    if name in _KINDS and not replace and _KINDS[name] is not kind:
        raise ValueError(f"answer kind {name!r} is already registered")
    _KINDS[name] = kind
    return kind


def unregister_answer_kind(name: str) -> None:
    """Remove a registered kind (plug-in kinds of the tests)."""
    _KINDS.pop(name, None)


def answer_kind_names() -> tuple[str, ...]:
    """The registered kinds, in registration order."""
    return tuple(_KINDS)


def answer_kind(name: str | AnswerSpec | AnswerKind) -> AnswerKind:
    """The kind registered as ``name`` (a spec's kind, or a kind itself, pass through)."""
    if isinstance(name, AnswerKind):
        return name
    if isinstance(name, AnswerSpec):
        name = name.kind
    kind = _KINDS.get(name) if isinstance(name, str) else None
    if kind is None:
        raise UnknownAnswerKind(
            f"unknown answer kind {name!r}; registered: {', '.join(_KINDS) or 'none'}")
    return kind


def answer_spec(kind: str, *, entity: str = "", target: str = "",
                values: object = None) -> AnswerSpec:
    """The spec of a goal of kind ``kind``: ``values`` are the engine's possible target
    values (a list or set, in domain order when a list), or the UNBOUNDED marker / None
    when they cannot be listed; the kind takes from them what its reader needs (a choice
    its options, a vector its component names, a sequence its items)."""
    fields: dict[str, tuple] = {}
    listed = _listed(values)
    if listed is not None:
        fields = answer_kind(kind).spec_fields(listed)
    return AnswerSpec(kind=answer_kind(kind).name, entity=entity if isinstance(entity, str)
                      else "", target=target if isinstance(target, str) else "", **fields)


def _listed(values: object) -> list | None:
    if isinstance(values, list | tuple):
        return list(values)
    if isinstance(values, set | frozenset):
        return sorted(values, key=repr)  # no set order reaches the output
    return None


def _register_built_in(kinds: Iterable[AnswerKind]) -> None:
    for kind in kinds:
        register_answer_kind(kind)


_register_built_in((BooleanKind(), NumberKind(), ChoiceKind(), VectorKind(), SequenceKind()))
