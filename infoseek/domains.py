"""The domain registry: everything domain-specific above the core, declared once.

A domain (``record["domain"]``: "logic", "math", ...) declares in one `Domain` value:

- its builders (`BuilderSpec`: the name `infoseek build` takes, the version the cache
  keys on, the k range, the default and largest problems per k, the build function);
- its renderers (record -> prompt text), by variant name;
- its wording (`Wording`: what a variable is called, how a question, an answer and an
  oracle reply read, the reminder and problem-level prompts);
- its answer kind (a kind registered in `infoseek.answers`: the contract's five, or a
  plug-in one);
- its released-data formats (format name -> ``"module:attribute"`` of the format);
- the oracle policies its seek tasks accept, and the modules holding its Inspect tasks.

The command line (`infoseek build`, `infoseek verify --format`), `source_format`
detection, the ``infoseek/<task>`` names and the prompts all read this registry; none
of them lists domains by hand. A domain joins with one line, `register_domain`, giving
the declaration itself or a ``"module:attribute"`` path to it that is imported on first
use (so the core names no outer module at import time). The built-in domains are
registered at the bottom of this module; a plug-in domain (or the toy domain of the
tests) calls `register_domain` itself, next to `infoseek.engines.register_engine` for
its engine.

Callables in a declaration (build, render, reply) may also be ``"module:function"``
paths; `resolve` imports them on first use.
"""

from __future__ import annotations

import importlib
import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from infoseek.answers import answer_kind_names

BuildFunction = Callable[..., list[dict[str, Any]]]
"""``build(seed, per_k, ks, *, workers=None, progress=None) -> records``."""
Render = Callable[..., str]
"""``render(record, *, forbid_alternatives) -> prompt text``."""
Reply = Callable[[str, str, Any], str]
"""``reply(entity, variable, value) -> the oracle's answer to a question``."""


_PLACEHOLDER = re.compile(r"<[^<>]+>")


class UnknownDomain(ValueError):
    """A record or a name refers to a domain nothing registered."""


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

    def question(self, entity: str, variable: str) -> str:
        """A question line for `variable`: the question template with the variable in
        place of its angle-bracket placeholder (what the reference models write)."""
        line = self.question_template.format(entity=entity)
        return _PLACEHOLDER.sub(lambda _: variable, line, count=1)


@dataclass(frozen=True)
class BuilderSpec:
    """One problem builder of a domain."""

    name: str
    """What `infoseek build` and the dataset cache call it ("logic-mt")."""
    build: BuildFunction | str
    version: str
    """What the cache keys on besides the parameters; it changes whenever the output
    may (a builder version, or a content hash of its data files)."""
    max_k: int
    default_per_k: int
    max_per_k: int
    """The most problems per k `infoseek build` makes (a larger number is usually a
    slip)."""
    default_ks: tuple[int, ...] = (1, 2, 3, 4)

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
    formats: Mapping[str, str] = field(default_factory=dict)
    """Released-data format name -> ``"module:attribute"`` of its `PublishedFormat`."""
    oracles: tuple[str, ...] = ("adversarial", "cooperative", "random")
    """The oracle policies the domain's seek tasks accept."""
    task_modules: tuple[str, ...] = ()
    """Modules whose ``@task`` functions are registered as ``infoseek/<task>``."""

    def __post_init__(self) -> None:
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


_DOMAINS: dict[str, Domain | str] = {}
_RESOLVED: dict[str, Domain] = {}


def register_domain(name: str, declaration: Domain | str) -> None:
    """Register a domain's declaration (a `Domain` or a ``"module:attribute"`` path to
    one). Registering the same declaration again is allowed; another under a taken name
    is an error."""
    if not isinstance(name, str) or not name:
        raise ValueError(f"a domain name must be a non-empty string; got {name!r}")
    if not (isinstance(declaration, Domain)
            or (isinstance(declaration, str) and ":" in declaration)):
        raise ValueError(f"domain {name!r}: the declaration must be a Domain or a "
                         f"'module:attribute' path; got {declaration!r}")
    current = _DOMAINS.get(name)
    if current is not None and current != declaration:
        raise ValueError(f"domain {name!r} is already registered ({current!r})")
    _DOMAINS[name] = declaration
    _RESOLVED.pop(name, None)


def unregister_domain(name: str) -> None:
    """Forget a registered domain (for tests that register one of their own)."""
    _DOMAINS.pop(name, None)
    _RESOLVED.pop(name, None)


def resolve(spec: Any) -> Any:
    """A declared value, importing a ``"module:attribute"`` path."""
    if isinstance(spec, str) and ":" in spec:
        module_name, _, attribute = spec.partition(":")
        return getattr(importlib.import_module(module_name), attribute)
    return spec


def domain_names() -> tuple[str, ...]:
    """The registered domain names, in registration order."""
    return tuple(_DOMAINS)


def get_domain(name: Any) -> Domain:
    """The declaration of domain `name`."""
    if name not in _DOMAINS:
        raise UnknownDomain(f"unknown domain {name!r}; registered: "
                            f"{', '.join(domain_names()) or 'none'}")
    found = _RESOLVED.get(name)
    if found is None:
        found = resolve(_DOMAINS[name])
        if not isinstance(found, Domain) or found.name != name:
            raise ValueError(f"domain {name!r} is registered as {_DOMAINS[name]!r}, which "
                             f"is not a Domain named {name!r}")
        _RESOLVED[name] = found
    return found


def domain_of(record: Mapping[str, Any]) -> Domain:
    """The declaration of a problem record's domain."""
    return get_domain(record.get("domain"))


def all_domains() -> tuple[Domain, ...]:
    return tuple(get_domain(name) for name in domain_names())


def builder_names() -> tuple[str, ...]:
    """Every registered builder's name, domain by domain."""
    return tuple(b.name for d in all_domains() for b in d.builders)


def get_builder(name: str) -> tuple[Domain, BuilderSpec]:
    """The builder called `name` and its domain."""
    for domain in all_domains():
        for spec in domain.builders:
            if spec.name == name:
                return domain, spec
    raise UnknownDomain(f"unknown builder {name!r}; choose one of "
                        f"{', '.join(builder_names())}")


def format_names(domain: str | None = None) -> tuple[str, ...]:
    """The released-data format names of `domain` (of every domain when None)."""
    domains = all_domains() if domain is None else (get_domain(domain),)
    return tuple(name for d in domains for name in d.formats)


def format_home(name: str) -> tuple[str, str] | None:
    """(domain name, ``"module:attribute"``) of released format `name`, or None."""
    for domain in all_domains():
        if name in domain.formats:
            return domain.name, domain.formats[name]
    return None


def task_modules() -> tuple[str, ...]:
    """Every domain's task modules, domain by domain."""
    return tuple(m for d in all_domains() for m in d.task_modules)


register_domain("logic", "infoseek.builders.logic.domain:DOMAIN")
register_domain("math", "infoseek.builders.math.domain:DOMAIN")
register_domain("genereg", "infoseek.builders.genereg.domain:DOMAIN")
register_domain("clinguide", "infoseek.builders.clinguide.domain:DOMAIN")
