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
registered at the bottom of this module; code of the tests (the toy domain) calls
`register_domain` itself.

An installed package joins through the entry-point group ``infoseek.domains``
(`ENTRY_POINT_GROUP`): each entry point ``<domain name> = "module:attribute"`` names a
`Domain`. The first read of the registry (`domain_names`, `get_domain` and everything
built on them) registers every such entry point by its path, importing nothing; a
plug-in's declaration is imported when its domain is first used. Its module registers
the plug-in's engine kinds (`infoseek.engines.register_engine`) as it is imported, and
the engine registry imports the declaration of a record's domain before it calls the
record's engine kind unknown (`import_plugin`), so a record read from a file finds its
engine however early it is read (see docs/plugins.md).

A broken plug-in (a path that does not import, an attribute that is not a `Domain` of
the entry point's name, a name another domain holds) does not take the other domains
down: the listings (`all_domains`, `builder_names`, `task_modules`, ...) leave it out
and log one warning naming the entry point, its distribution and the cause, and using
it (`get_domain`, `get_builder` of a builder it would declare, a record of its domain)
raises `PluginError` with that message.

Callables in a declaration (build, render, reply) may also be ``"module:function"``
paths; `resolve` imports them on first use.
"""

from __future__ import annotations

import importlib
import logging
import re
import sys
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from importlib.metadata import EntryPoint, entry_points
from typing import Any

from infoseek.answers import answer_kind_names

BuildFunction = Callable[..., list[dict[str, Any]]]
"""``build(seed, per_k, ks, *, workers=None, progress=None) -> records``."""
Render = Callable[..., str]
"""``render(record, *, forbid_alternatives) -> prompt text``."""
Reply = Callable[[str, str, Any], str]
"""``reply(entity, variable, value) -> the oracle's answer to a question``."""


_PLACEHOLDER = re.compile(r"<[^<>]+>")

ENTRY_POINT_GROUP = "infoseek.domains"
"""The entry-point group through which installed packages declare domains."""

logger = logging.getLogger(__name__)


class UnknownDomain(ValueError):
    """A record or a name refers to a domain nothing registered."""


class PluginError(UnknownDomain):
    """An installed plug-in's domain cannot be used; the message names the entry point,
    its distribution and what went wrong."""


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
_PLUGINS: dict[str, str] = {}
"""Domain name -> where its plug-in declaration comes from (`entry_point_origin`)."""
_FAILED: dict[str, str] = {}
"""Plug-in domain name -> why its declaration cannot be used (a `PluginError` message)."""
_REFUSED: list[str] = []
"""Entry points that were not registered at all, with the reason."""
_WARNED: set[str] = set()
_entry_points_read = False


def register_domain(name: str, declaration: Domain | str) -> None:
    """Register a domain's declaration (a `Domain` or a ``"module:attribute"`` path to
    one). Registering the same declaration again is allowed; another under a taken name
    is an error, except that the module an entry point names may register the `Domain`
    that the entry point's path points at (as plug-ins did before entry points)."""
    if not isinstance(name, str) or not name:
        raise ValueError(f"a domain name must be a non-empty string; got {name!r}")
    if not (isinstance(declaration, Domain)
            or (isinstance(declaration, str) and ":" in declaration)):
        raise ValueError(f"domain {name!r}: the declaration must be a Domain or a "
                         f"'module:attribute' path; got {declaration!r}")
    current = _DOMAINS.get(name)
    from_entry_point = (name in _PLUGINS and isinstance(current, str)
                        and isinstance(declaration, Domain))
    if current is not None and current != declaration and not from_entry_point:
        raise ValueError(f"domain {name!r} is already registered ({current!r})")
    if not from_entry_point:
        _DOMAINS[name] = declaration
    _RESOLVED.pop(name, None)


def unregister_domain(name: str) -> None:
    """Forget a registered domain (for tests that register one of their own)."""
    for table in (_DOMAINS, _RESOLVED, _PLUGINS, _FAILED):
        table.pop(name, None)


# ----------------------------------------------------------------- plug-in domains


def entry_point_origin(entry_point: EntryPoint) -> str:
    """How an error names an entry point: its line, its group and its distribution."""
    dist = getattr(entry_point, "dist", None)
    owner = (f"distribution {dist.name} {dist.version}" if dist is not None
             else "an unknown distribution")
    return (f"entry point '{entry_point.name} = {entry_point.value}' (group "
            f"{ENTRY_POINT_GROUP}) of {owner}")


def load_plugins(found: Iterable[EntryPoint] | None = None) -> None:
    """Register the domains that installed packages declare in `ENTRY_POINT_GROUP`, by
    their paths (nothing is imported). Without `found` this reads the installed entry
    points once per process, on the first read of the registry; `found` registers the
    given ones (tests). An entry point that cannot be registered (its value is not a
    ``module:attribute`` path, or its name is another domain's) is logged and left out."""
    global _entry_points_read
    if found is None:
        if _entry_points_read:
            return
        _entry_points_read = True
        found = entry_points(group=ENTRY_POINT_GROUP)
    for entry_point in found:
        origin = entry_point_origin(entry_point)
        name, value = entry_point.name, entry_point.value
        if _PLUGINS.get(name) == origin or _already_registered(entry_point):
            continue  # the same entry point again, or its declaration registered by code
        if not (entry_point.module and entry_point.attr):
            problem = "its value must be a 'module:attribute' path to a Domain"
        elif name in _DOMAINS:
            problem = f"domain {name!r} is already registered ({_DOMAINS[name]!r})"
        else:
            _DOMAINS[name] = value
            _PLUGINS[name] = origin
            continue
        message = f"{origin} is left out: {problem}"
        _REFUSED.append(message)
        _warn_once(message)


def _already_registered(entry_point: EntryPoint) -> bool:
    """Whether the entry point's declaration is registered under its name already: by
    the same path, or as the object its path names (its module, imported before the
    registry was first read, registered it itself)."""
    current = _DOMAINS.get(entry_point.name)
    if current is None:
        return False
    if current == entry_point.value:
        return True
    module = sys.modules.get(entry_point.module or "")
    return module is not None and getattr(module, entry_point.attr or "", None) is current


def import_plugin(name: Any) -> None:
    """Import the declaration of plug-in domain `name` (its module registers the
    plug-in's engine kinds); nothing when `name` is no plug-in domain. Raises
    `PluginError` when the plug-in is broken. The engine registry calls this before it
    calls a record's engine kind unknown."""
    load_plugins()
    if isinstance(name, str) and name in _PLUGINS:
        get_domain(name)


def plugin_problems() -> tuple[str, ...]:
    """Why each broken plug-in is left out (a line per entry point)."""
    return (*_REFUSED, *(_FAILED[name] for name in _FAILED))


def _warn_once(message: str) -> None:
    if message not in _WARNED:
        _WARNED.add(message)
        logger.warning("infoseek: %s", message)


def _load_declaration(name: str) -> Domain:
    """Import the declaration registered for `name` and check that it is a `Domain` of
    that name. A built-in's failure propagates; a plug-in's becomes a `PluginError`
    naming its entry point, remembered so the plug-in is not imported again."""
    origin = _PLUGINS.get(name)
    if name in _FAILED:
        raise PluginError(_FAILED[name])
    try:
        found = resolve(_DOMAINS[name])
    except Exception as exc:  # a plug-in may fail in any way; say which one and how
        if origin is None:
            raise
        problem = f"cannot be loaded: {type(exc).__name__}: {exc}"
    else:
        if isinstance(found, Domain) and found.name == name:
            return found
        if origin is None:
            raise ValueError(f"domain {name!r} is registered as {_DOMAINS[name]!r}, "
                             f"which is not a Domain named {name!r}")
        problem = (f"names {type(found).__name__} "
                   f"{getattr(found, 'name', found)!r}, not a Domain named {name!r}")
    _FAILED[name] = f"{origin} {problem}"
    raise PluginError(_FAILED[name])


def resolve(spec: Any) -> Any:
    """A declared value, importing a ``"module:attribute"`` path."""
    if isinstance(spec, str) and ":" in spec:
        module_name, _, attribute = spec.partition(":")
        return getattr(importlib.import_module(module_name), attribute)
    return spec


def domain_names() -> tuple[str, ...]:
    """The registered domain names (installed plug-ins' included), in registration
    order."""
    load_plugins()
    return tuple(_DOMAINS)


def get_domain(name: Any) -> Domain:
    """The declaration of domain `name` (`PluginError` for a broken plug-in's)."""
    load_plugins()
    if name not in _DOMAINS:
        raise UnknownDomain(f"unknown domain {name!r}; registered: "
                            f"{', '.join(domain_names()) or 'none'}{_broken_note()}")
    found = _RESOLVED.get(name)
    if found is None:
        found = _RESOLVED[name] = _load_declaration(name)
    return found


def _broken_note() -> str:
    problems = plugin_problems()
    return ("; plug-ins left out (their domains and builders are missing): "
            + "; ".join(problems)) if problems else ""


def domain_of(record: Mapping[str, Any]) -> Domain:
    """The declaration of a problem record's domain."""
    return get_domain(record.get("domain"))


def all_domains() -> tuple[Domain, ...]:
    """Every usable domain's declaration; a broken plug-in's is left out with a logged
    warning (the first time), so one broken package cannot break the others."""
    found = []
    for name in domain_names():
        try:
            found.append(get_domain(name))
        except PluginError as exc:
            _warn_once(str(exc))
    return tuple(found)


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
                        f"{', '.join(builder_names())}{_broken_note()}")


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
register_domain("planning", "infoseek.builders.planning.domain:DOMAIN")
register_domain("twenty_q", "infoseek.builders.twenty_q.domain:DOMAIN")
