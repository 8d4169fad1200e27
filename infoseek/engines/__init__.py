"""The engine registry: how a problem record's ``engine.kind`` becomes an engine.

An engine joins by registering a factory (``record -> Engine``) under its kind, either
as a callable or as a ``"module:function"`` path that is imported on first use (so a
process that never meets an arithmetic record never imports sympy). The built-in
engines are registered at the bottom of this module, one line each; an engine defined
elsewhere (a plug-in, or the toy domain of the tests) calls `register_engine` itself.
`infoseek.records.engine_from_record` is the one caller; nothing else dispatches on
the kind.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable
from typing import Any

from infoseek.engine import Engine

EngineFactory = Callable[[dict[str, Any]], Engine]

_FACTORIES: dict[str, EngineFactory | str] = {}
"""kind -> the factory as registered (a callable or a "module:function" path)."""
_RESOLVED: dict[str, EngineFactory] = {}


class UnknownEngineKind(ValueError):
    """A record names an engine kind that nothing registered."""


def register_engine(kind: str, factory: EngineFactory | str) -> None:
    """Register the factory of an engine kind.

    Args:
        kind: the value of ``record["engine"]["kind"]`` the factory builds.
        factory: a callable taking the whole record, or a ``"module:function"`` path to
            one. Registering the same factory again is allowed; another one under a
            taken kind is an error.
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


def engine_kinds() -> tuple[str, ...]:
    """The registered kinds, sorted."""
    return tuple(sorted(_FACTORIES))


def _resolve(kind: str) -> EngineFactory:
    factory = _RESOLVED.get(kind)
    if factory is None:
        spec = _FACTORIES[kind]
        if isinstance(spec, str):
            module_name, _, attribute = spec.partition(":")
            factory = getattr(importlib.import_module(module_name), attribute)
        else:
            factory = spec
        _RESOLVED[kind] = factory
    return factory


def build_engine(record: dict[str, Any]) -> Engine:
    """The engine of a problem record, by its ``engine.kind``."""
    spec = record.get("engine")
    kind = spec.get("kind") if isinstance(spec, dict) else None
    if kind not in _FACTORIES:
        raise UnknownEngineKind(
            f"unknown engine kind {kind!r}; registered: {', '.join(engine_kinds())}")
    return _resolve(kind)(record)


register_engine("horn", "infoseek.horn:from_record")
register_engine("cnf", "infoseek.cnf:from_record")
register_engine("arith", "infoseek.arith:from_record")
