"""What the parsers read a model turn against: one `ParseContext` per episode.

The text parser (`infoseek.solvers.seek.parsing.parse_text_turn`) and the tool parser
(`infoseek.solvers.seek.tool_parsing.parse_tool_calls`) take the same context, built once per
episode from the problem and the solver's options; only the variables asked so far
change from turn to turn, and they are passed beside it.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Mapping
from dataclasses import dataclass
from typing import Any

from infoseek.answers import AnswerSpec, answer_spec
from infoseek.answers import answer_kind as registered_kind
from infoseek.contract import MAX_TURN_CHARS


@dataclass(frozen=True)
class ParseContext:
    """The problem's vocabulary and the limits one episode's turns are read under.

    ``variables`` are the problem's variable names, ``askable`` those that may be asked
    (the forbid-alternatives rule already applied), ``observed`` those given in the
    problem; ``not_leaf`` derived quantities refused with ``not_leaf``; ``descriptions``
    ({name: text}) marks a quantity problem, whose questions may name a description.
    ``answer`` is how the final answer is read (an `AnswerSpec`: a choice's options, a
    vector's names, ...); without one, a spec of ``answer_kind`` is made for the entity
    and target. ``templates`` are the template lines the prompt showed (a reply copying
    one is ``template``). A text or tool argument longer than ``max_chars`` is
    ``too_long``; ``undetermined``: whether "cannot be determined" is an answer (below).
    Collections are kept as tuples, so a context never changes.
    """

    entity: str
    variables: Collection[str]
    askable: Collection[str]
    observed: Collection[str]
    target: str
    queries_per_turn: int = 1
    max_chars: int = MAX_TURN_CHARS
    not_leaf: Collection[str] = ()
    descriptions: Mapping[str, str] | None = None
    answer_kind: str = "boolean"
    templates: Collection[str] = ()
    answer: AnswerSpec | None = None
    undetermined: bool = False
    """Whether "cannot be determined" is an answer here (`infoseek.contract.UNDETERMINED`:
    the task mixes in problems no question can settle, or its oracle withholds every
    route, and its prompt shows the form); elsewhere the phrase is read by the answer
    kind like any other text, as before the form existed."""

    def __post_init__(self) -> None:
        for name in ("variables", "askable", "observed", "not_leaf", "templates"):
            object.__setattr__(self, name, tuple(getattr(self, name)))
        if self.answer is None:
            spec = answer_spec(self.answer_kind, entity=self.entity, target=self.target)
            object.__setattr__(self, "answer", spec)
        else:
            registered_kind(self.answer)  # an unregistered kind fails here, naming the others

    def derived(self, name: str, build: Callable[[ParseContext], Any]) -> Any:
        """``build(self)``, computed once per context and kept under ``name``: a context
        never changes, so what is derived from it alone (the parsers' vocabulary) is the
        same in every turn of the episode."""
        cache: dict[str, Any] = self.__dict__.setdefault("_derived", {})
        if name not in cache:
            cache[name] = build(self)
        return cache[name]
