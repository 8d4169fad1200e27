"""The domain registry: every domain's declaration (`Domain`, from
`infoseek.domain_declaration` and re-exported here), by name.

The command line (`infoseek build`, `infoseek verify --source-format`), `source_format`
detection, the ``infoseek/<task>`` names and the prompts all read this registry; none
of them lists domains by hand, and this module names no domain and no outer module.

A domain joins through the entry-point group ``infoseek.domains`` (`ENTRY_POINT_GROUP`):
each entry point ``<domain name> = "module:attribute"`` names a `Domain`. The six
built-in domains are entry points of the infoseek distribution itself (pyproject.toml),
declared exactly as an installed plug-in declares its own (docs/plugins.md). The first
read of the registry (`domain_names`, `get_domain` and everything built on them)
registers every entry point by its path, importing nothing; a declaration is imported
when its domain is first used. A plug-in's module registers its engine kinds
(`infoseek.engines.register_engine`) as it is imported, and the engine registry imports
the declaration of a record's domain before it calls the record's engine kind unknown
(`import_plugin`), so a record read from a file finds its engine however early it is
read. Code (the tests' toy domain) may also call `register_domain` itself, with the
declaration or a ``"module:attribute"`` path to it.

A broken plug-in (a path that does not import, an attribute that is not a `Domain` of
the entry point's name, a name another domain holds) does not take the other domains
down: the listings (`all_domains`, `builder_names`, ...) leave it out and log one warning
naming the entry point, its distribution and the cause, and using it (`get_domain`,
`get_builder` of a builder it would declare, a record of its domain) raises `PluginError`
with that message. A built-in domain (an entry point of `OWN_DISTRIBUTION`) that fails
to load raises its error as it is: that is a bug of the suite, not a plug-in to skip.
"""

from __future__ import annotations

import logging
import sys
from collections.abc import Iterable, Mapping
from importlib.metadata import EntryPoint, entry_points
from typing import Any

from infoseek.domain_declaration import (
    BuilderSpec,
    BuildFunction,
    Domain,
    Render,
    Reply,
    Wording,
    resolve,
)

__all__ = [
    "ENTRY_POINT_GROUP", "OWN_DISTRIBUTION", "BuildFunction", "BuilderSpec", "Domain",
    "PluginError", "Render", "Reply", "UnknownDomain", "Wording", "all_domains",
    "builder_names", "domain_names", "domain_of", "entry_point_origin", "get_builder",
    "get_domain", "import_plugin", "is_built_in", "load_plugins", "plugin_problems",
    "register_domain", "resolve", "source_format_home", "source_format_names",
    "unregister_domain",
]

ENTRY_POINT_GROUP = "infoseek.domains"
"""The entry-point group through which installed packages declare domains."""
OWN_DISTRIBUTION = "infoseek"
"""The distribution whose entry points are the built-in domains."""

logger = logging.getLogger(__name__)


class UnknownDomain(ValueError):
    """A record or a name refers to a domain nothing registered."""


class PluginError(UnknownDomain):
    """An installed plug-in's domain cannot be used; the message names the entry point,
    its distribution and what went wrong."""


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
    """Register a domain's declaration in code (a `Domain` or a ``"module:attribute"`` path to
    one). Registering the same declaration again is allowed; another under a taken name
    is an error, except that the module an entry point names may register the `Domain`
    that the entry point's path points at (as plug-ins did before entry points)."""
    if not isinstance(name, str) or not name:
        raise ValueError(f"a domain name must be a non-empty string; got {name!r}")
    if not (isinstance(declaration, Domain)
            or (isinstance(declaration, str) and ":" in declaration)):
        raise ValueError(f"domain {name!r}: the declaration must be a Domain or a "
                         f"'module:attribute' path; got {declaration!r}")
    load_plugins()  # the entry points first: code cannot take a built-in's name
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
    their paths (nothing is imported): the built-in ones (`OWN_DISTRIBUTION`'s) first,
    so no plug-in can take their names. Without `found` this reads the installed entry
    points once per process, on the first read of the registry; `found` registers the
    given ones (tests). An entry point that cannot be registered (its value is not a
    ``module:attribute`` path, or its name is another domain's) is logged and left out."""
    global _entry_points_read
    if found is None:
        if _entry_points_read:
            return
        _entry_points_read = True
        found = entry_points(group=ENTRY_POINT_GROUP)
    for entry_point in sorted(found, key=lambda e: not is_built_in(e)):
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
            if not is_built_in(entry_point):
                _PLUGINS[name] = origin
            continue
        message = f"{origin} is left out: {problem}"
        _REFUSED.append(message)
        _warn_once(message)


def is_built_in(entry_point: EntryPoint) -> bool:
    """Whether `entry_point` is one of the suite's own (a built-in domain)."""
    dist = getattr(entry_point, "dist", None)
    return dist is not None and dist.name == OWN_DISTRIBUTION


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
    """The builder called `name` and its domain. The declarations already imported are
    searched first, then the others one at a time in registration order, each imported
    only when the search reaches it: a caller that loads its domain first (every task
    does) imports no other domain's code (sympy for math, numpy for gene regulation). A
    builder name belongs to one domain (it names the builder's dataset cache entries and
    records), so the order decides only what gets imported."""
    load_plugins()
    for domain_name in sorted(_DOMAINS, key=lambda known: known not in _RESOLVED):
        try:
            domain = get_domain(domain_name)
        except PluginError as exc:
            _warn_once(str(exc))
            continue
        for spec in domain.builders:
            if spec.name == name:
                return domain, spec
    raise UnknownDomain(f"unknown builder {name!r}; choose one of "
                        f"{', '.join(builder_names())}{_broken_note()}")


def source_format_names(domain: str | None = None) -> tuple[str, ...]:
    """The names of the source formats of `domain`'s released data (of every domain when
    None)."""
    domains = all_domains() if domain is None else (get_domain(domain),)
    return tuple(name for d in domains for name in d.source_formats)


def source_format_home(name: str) -> tuple[str, str] | None:
    """(domain name, ``"module:attribute"``) of source format `name`, or None."""
    for domain in all_domains():
        if name in domain.source_formats:
            return domain.name, domain.source_formats[name]
    return None
