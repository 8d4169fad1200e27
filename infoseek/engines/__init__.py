"""The engine registry: how a problem record's ``engine.kind`` becomes an engine.

An engine joins by registering a factory (``record -> Engine``) under its kind, either
as a callable or as a ``"module:function"`` path that is imported on first use (so a
process that never meets an arithmetic record never imports sympy), and optionally a
record check (``(record, names) -> None``, raising `EngineFormError` with the field and
the problem) that `infoseek.records.check_record` runs on records read from files. The built-in
engines are registered at the bottom of this module, one line each; an engine defined
elsewhere (a plug-in, or the toy domain of the tests) calls `register_engine` itself.
A plug-in registers its kinds from the module of its domain declaration (or one it
imports): before a record's kind is called unknown, the domain registry imports the
declaration of the record's ``domain`` when that is a plug-in's
(`infoseek.domains.import_plugin`), so a record read before anything used its domain
still finds its engine, and a record of a broken plug-in says why.
`infoseek.records.engine_from_record` is the one caller; nothing else dispatches on
the kind.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable
from typing import Any

from infoseek.engine import Engine

EngineFactory = Callable[[dict[str, Any]], Engine]
RecordCheck = Callable[[dict[str, Any], set[str]], None]

_FACTORIES: dict[str, EngineFactory | str] = {}
"""kind -> the factory as registered (a callable or a "module:function" path)."""
_RESOLVED: dict[str, EngineFactory] = {}


_CHECKS: dict[str, RecordCheck | str] = {}


class UnknownEngineKind(ValueError):
    """A record names an engine kind that nothing registered; ``plugin_problem`` says
    why, when the record's domain is a plug-in that cannot be loaded."""

    def __init__(self, message: str, plugin_problem: str | None = None) -> None:
        super().__init__(message + (f" ({plugin_problem})" if plugin_problem else ""))
        self.plugin_problem = plugin_problem


class EngineFormError(ValueError):
    """A record does not have the form its engine needs: ``field`` and ``problem`` say
    which field and what is wrong with it."""

    def __init__(self, field: str, problem: str) -> None:
        super().__init__(f"field {field!r} {problem}")
        self.field = field
        self.problem = problem


def register_engine(kind: str, factory: EngineFactory | str,
                    check: RecordCheck | str | None = None) -> None:
    """Register the factory of an engine kind.

    Args:
        kind: the value of ``record["engine"]["kind"]`` the factory builds.
        factory: a callable taking the whole record, or a ``"module:function"`` path to
            one. Registering the same factory again is allowed; another one under a
            taken kind is an error.
        check: optional record check, a callable ``(record, variable names) -> None`` or
            a ``"module:function"`` path, raising `EngineFormError`.
    """
    if not isinstance(kind, str) or not kind:
        raise ValueError(f"an engine kind must be a non-empty string; got {kind!r}")
    if not (callable(factory) or (isinstance(factory, str) and ":" in factory)):
        raise ValueError(f"engine {kind!r}: the factory must be a callable or a "
                         f"'module:function' path; got {factory!r}")
    current = _FACTORIES.get(kind)
    if current is not None and current != factory:
        raise ValueError(f"engine kind {kind!r} is already registered ({current!r})")
    _FACTORIES[kind] = factory
    _RESOLVED.pop(kind, None)
    if check is not None:
        _CHECKS[kind] = check


def unregister_engine(kind: str) -> None:
    """Forget a registered engine kind (for tests that register one of their own)."""
    for table in (_FACTORIES, _RESOLVED, _CHECKS):
        table.pop(kind, None)


def engine_kinds() -> tuple[str, ...]:
    """The registered kinds, sorted."""
    return tuple(sorted(_FACTORIES))


def _imported(spec: Any) -> Any:
    """A registered callable, importing a ``"module:function"`` path."""
    if isinstance(spec, str):
        module_name, _, attribute = spec.partition(":")
        return getattr(importlib.import_module(module_name), attribute)
    return spec


def _resolve(kind: str) -> EngineFactory:
    factory = _RESOLVED.get(kind)
    if factory is None:
        factory = _RESOLVED[kind] = _imported(_FACTORIES[kind])
    return factory


def _kind_of(record: dict[str, Any]) -> str:
    spec = record.get("engine")
    kind = spec.get("kind") if isinstance(spec, dict) else None
    problem = None
    if kind not in _FACTORIES and isinstance(kind, str):
        from infoseek.domains import PluginError, import_plugin

        try:
            import_plugin(record.get("domain"))  # a plug-in's declaration registers its kinds
        except PluginError as exc:
            problem = str(exc)
    if kind not in _FACTORIES:
        raise UnknownEngineKind(
            f"unknown engine kind {kind!r}; registered: {', '.join(engine_kinds())}",
            problem)
    return kind


def check_engine_form(record: dict[str, Any], names: set[str]) -> None:
    """Run the record check registered for the record's engine kind (none: nothing to
    check); raises `UnknownEngineKind` or `EngineFormError`."""
    kind = _kind_of(record)
    if kind in _CHECKS:
        _imported(_CHECKS[kind])(record, names)


def build_engine(record: dict[str, Any]) -> Engine:
    """The engine of a problem record, by its ``engine.kind``."""
    return _resolve(_kind_of(record))(record)


register_engine("horn", "infoseek.engines.horn:from_record",
                "infoseek.engines.horn:check_record_form")
register_engine("cnf", "infoseek.engines.cnf:from_record",
                "infoseek.engines.horn:check_record_form")
register_engine("arith", "infoseek.engines.arith.engine:from_record",
                "infoseek.engines.arith.engine:check_record_form")
register_engine("boolnet-steady", "infoseek.engines.boolnet.engines:steady_from_record",
                "infoseek.engines.boolnet.engines:check_record_form")
register_engine("boolnet-dynamic", "infoseek.engines.boolnet.engines:dynamic_from_record",
                "infoseek.engines.boolnet.engines:check_record_form")
register_engine("decision-tree", "infoseek.engines.tree:from_record",
                "infoseek.engines.tree:check_record_form")
register_engine("blocks-world", "infoseek.engines.planning.engine:from_record",
                "infoseek.engines.planning.engine:check_record_form")
register_engine("attribute-table", "infoseek.engines.table:from_record",
                "infoseek.engines.table:check_record_form")
