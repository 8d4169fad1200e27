"""What a domain declares (`Domain`): its builders (`BuilderSpec`), renderers, wording
(`Wording`), answer kind, the source formats of its released data and oracle policies.
The registry of declarations is `infoseek.domains`, which re-exports these names; a
declaration is plain data, and its callables (build, render, reply) may be
``"module:function"`` paths that `resolve` imports on first use, so declaring a domain
imports none of its parts."""

from __future__ import annotations

import importlib
import re
from collections.abc import Callable, Mapping
from dataclasses import InitVar, dataclass, field
from typing import Any

from infoseek.answers import answer_kind_names

BuildFunction = Callable[..., list[dict[str, Any]]]
"""``build(seed, per_k, ks, *, workers=None, progress=None) -> records``."""
UnanswerableBuild = Callable[[int, int, int], dict[str, Any]]
"""``build(seed, k, index) -> record``: the builder's problem `index` at (seed, k) that
no question can settle; deterministic in its three arguments."""
Render = Callable[..., str]
"""``render(record, *, forbid_alternatives) -> prompt text``."""
Reply = Callable[[str, str, Any], str]
"""``reply(entity, variable, value) -> the oracle's answer to a question``."""


_PLACEHOLDER = re.compile(r"<[^<>]+>")

@dataclass(frozen=True)
class Wording:
    """How a domain talks to the model. Strings are `str.format` templates; the
    placeholders each one may use are listed beside it."""

    noun: str
    """What one variable is called ("attribute", "quantity")."""
    intro: str
    """The first paragraph of the seek system prompt."""
    tool_rules: str
    """Seek rules in the tool format: {per_turn}, {entity}, {target}."""
    text_rules: str
    """Seek rules in the text format: {per_turn}, {entity}, {target},
    {question_template}, {answer_template}."""
    question_template: str
    """The example question line ({entity}); a reply copying it verbatim is a template."""
    answer_template: str | None
    """The example answer line with a placeholder, or None when the prompt shows the
    answer lines whole (they are then real answers, not templates)."""
    reminder_text: str
    """How to act, said after an invalid text-format turn ({entity})."""
    reminder_tool: str
    """How to act, said after an invalid tool-format turn ({entity})."""
    k_prediction: str
    """The k-prediction prompt: {entity}, {problem}, {options}."""
    mss_identification: str
    """The MSS-identification prompt: {entity}, {problem}, {size_rule}."""
    size_given: str
    """The MSS size rule when k is told: {k}."""
    size_free: str
    """The MSS size rule otherwise: {max_size}."""
    reply: Reply | str
    """The oracle's reply to a question that got a value."""
    unsure: str = "I am not sure about {variable}."
    """The reply of an oracle that does not know: {entity}, {variable}."""
    question_example: str = ""
    """The question template filled in, shown beside it wherever it is shown ({entity}):
    a name that is no variable of the domain's problems, so a copy asks for nothing
    (empty: none shown)."""
    answer_example: str = ""
    """The answer template filled in, shown beside it wherever it is shown (empty: none
    shown); a value of no particular problem."""

    def question(self, entity: str, variable: str) -> str:
        """A question line for `variable`: the question template with the variable in
        place of its angle-bracket placeholder (what the reference models write)."""
        line = self.question_template.format(entity=entity)
        return _PLACEHOLDER.sub(lambda _: variable, line, count=1)


@dataclass(frozen=True)
class BuilderSpec:
    """One problem builder of a domain, declared once, by the module that builds (its
    ``SPEC``; a module with two builders, such as a default and a hard split, declares one
    for each) and listed by the domain's declaration (``builders=(logic_mt.SPEC, ...)``).
    Whatever outside the module needs of a builder (`infoseek build`, the dataset cache,
    the tasks and their versions) reads it here, and so does the module itself."""

    name: str
    """The registered name, in hyphens ("logic-mt"): what `infoseek build` takes, what the
    dataset cache and the record ids use, and the records' ``provenance.builder``."""
    build: BuildFunction | str
    """The build function, or its ``"module:function"`` path (so the spec can open its
    module, above the function it names)."""
    version: str
    """The builder version, ``MAJOR.MINOR.PATCH``, moved by hand whenever the records a seed
    gives may change; every record carries it (``provenance.version``). Data files are
    versioned by `data_hash`, not here (docs/architecture.md, "Names")."""
    max_k: int
    """The largest degree of underspecification the builder makes."""
    default_per_k: int
    """Problems per k when a build or a task does not say."""
    max_per_k: int
    """The most problems per k `infoseek build` makes (a larger number is usually a
    slip)."""
    default_ks: tuple[int, ...] = (1, 2, 3, 4)
    """The k values a build or a task makes when it does not say."""
    data_hash: str | None = None
    """The content hash of the data files the builder reads (templates, trees, pools,
    networks: 12 hex digits), or None for a builder that reads none."""
    shape: str | None = None
    """A ``"module:function"`` path: the function takes the built records and returns lines
    describing the split's shape (beside a published one); `infoseek build` prints them.
    None: no such lines."""
    random_stream: str = ""
    """The fixed text every random generator of the builder is seeded with, before the
    seed and the job's numbers (empty: the name). It is not the version, so moving the
    version alone draws the same problems; and since changing it changes every record,
    it stays as it is when the builder is renamed or its version moves (several keep
    the text they were first seeded with: ``twenty-q``, ``logic_mt:1.1.0``)."""
    unanswerable: UnanswerableBuild | str | None = None
    """The function making this builder's problems no question can settle (what a seek
    task's ``-T unanswerable=<share>`` mixes in; docs/tasks/unanswerable.md), or its
    ``"module:function"`` path. None: the builder makes none, and a share above 0 is
    refused."""

    def __post_init__(self) -> None:
        if not self.random_stream:
            object.__setattr__(self, "random_stream", self.name)

    @property
    def data_version(self) -> str:
        """What the dataset cache keys on and a task's version names after ``@``: the
        builder version, and for a builder that reads data files ``+`` their hash
        (``"1.1.0+0dfd177f02a1"``). It moves whenever the built records may."""
        return f"{self.version}+{self.data_hash}" if self.data_hash else self.version

    @property
    def ks(self) -> tuple[int, ...]:
        """The degrees of underspecification the builder can make."""
        return tuple(range(1, self.max_k + 1))


@dataclass(frozen=True)
class Domain:
    """Everything specific to one domain above the core (see the module docstring)."""

    name: str
    answer_kind: str
    wording: Wording
    builders: tuple[BuilderSpec, ...] = ()
    renderers: Mapping[str, Render | str] = field(default_factory=dict)
    source_formats: Mapping[str, str] = field(default_factory=dict)
    """The source formats of the domain's released data: name -> ``"module:attribute"`` of
    its `infoseek.builders.published.SourceFormat` (what `infoseek verify
    --source-format` and a task's ``-T source_format=`` take)."""
    oracles: tuple[str, ...] | None = None
    """The oracle policies the domain's seek tasks accept, the first the default; None
    (most domains): every policy of the oracle table (`infoseek.oracles.ORACLE_POLICIES`),
    so a new policy needs no edit here."""
    task_modules: InitVar[tuple[str, ...]] = ()
    """Accepted and unused: a domain's tasks are found where Inspect finds them (the
    modules of `infoseek.inspect_tasks`, and a plug-in's own ``inspect_ai`` entry point;
    `infoseek.inspect_tasks._registry`). Plug-ins written when the declaration listed its
    task modules keep working unchanged."""

    def __post_init__(self, task_modules: tuple[str, ...] = ()) -> None:
        if self.answer_kind not in answer_kind_names():
            raise ValueError(f"domain {self.name!r}: answer kind {self.answer_kind!r} is "
                             f"not one of {', '.join(answer_kind_names())}")

    def renderer(self, variant: str) -> Render:
        """The renderer registered under `variant` (e.g. "seek", "equations")."""
        if variant not in self.renderers:
            raise KeyError(f"domain {self.name!r} has no renderer {variant!r}; it has "
                           f"{', '.join(self.renderers) or 'none'}")
        return resolve(self.renderers[variant])

    def reply(self, entity: str, variable: str, value: Any) -> str:
        """The oracle's reply wording for a value it gives."""
        return resolve(self.wording.reply)(entity, variable, value)


def resolve(spec: Any) -> Any:
    """A declared value, importing a ``"module:attribute"`` path."""
    if isinstance(spec, str) and ":" in spec:
        module_name, _, attribute = spec.partition(":")
        return getattr(importlib.import_module(module_name), attribute)
    return spec
