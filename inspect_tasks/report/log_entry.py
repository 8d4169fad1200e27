"""One row of the report's ``Logs.evals``: a log's identity, its settings and its data.

A log's *settings* are its task arguments (``setting.<argument>``), as Inspect records
them (``eval.task_args``: every argument, the defaults included). An argument at the
default its task declares is no setting: the row reads as if the argument were not
there (None), so a run keeps the row and label it had before an argument existed (a log
written before ``-T unanswerable=`` records no ``unanswerable``; a later default run
records ``unanswerable=0.0``: both are the same setting). The declared defaults are read
from the task's signature in the registry of tasks (`declared_defaults`: the module named
like the task when it defines it, else every task module; a task not registered now keeps
every recorded value).

Some arguments are stated in every row even at their default (`stated_settings`): the
settings the tables always show (`tables.ALWAYS_SHOWN`, ``oracle=adversarial``), the data
settings (`tables.DATA_SETTINGS`, ``split=default``) and every setting a published series
is matched on (``published.json``: ``book=closed`` for a clinguide run), since the page
names them and matches published numbers against them.
"""

from __future__ import annotations

import inspect
import json
import math
import os
from collections.abc import Iterable
from functools import cache, lru_cache
from pathlib import Path
from typing import Any

import pandas as pd

from infoseek.contract import TASK_SOURCE
from infoseek.inspect_tasks.report.declarations import TaskReport, recorded_metadata

SETTING_PREFIX = "task_arg_"
"""`evals_df`'s prefix of a task argument's column."""


def shown_path(path: str | Path) -> str:
    """`path` as text that can be written anywhere: a file name whose bytes are not
    UTF-8 keeps them as ``\\xff`` escapes (Python holds them as lone surrogates, which
    no UTF-8 file or terminal takes)."""
    return os.fsencode(str(path)).decode("utf-8", "backslashreplace")


def _setting_value(value: Any) -> Any:
    if value is None or (isinstance(value, float) and math.isnan(value)):
        return None
    return value


@cache
def declared_defaults(registry_name: str) -> dict[str, Any]:
    """The declared default of each argument of the task registered as `registry_name`
    (``infoseek/logic_mt``, ``mapcolour/mapcolour_mt``; a bare name is tried as
    infoseek's), from its signature; empty for a task not registered now."""
    from infoseek.inspect_tasks import _registry

    bare = registry_name.split("/")[-1]
    full = registry_name if "/" in registry_name else f"{_registry.TASK_PREFIX}/{bare}"
    factory = dict(_own_module_tasks(bare)).get(full)
    if factory is None:  # not in a module of its own name: every task module
        factory = _registry.REGISTERED_TASKS.get(full)
    if factory is None:
        return {}
    return {name: parameter.default
            for name, parameter in inspect.signature(factory).parameters.items()
            if parameter.default is not inspect.Parameter.empty}


def _own_module_tasks(bare: str) -> list[tuple[str, Any]]:
    """The tasks of the suite's module named like the task (``logic_mt.py`` for
    ``logic_mt``), by registry name: the signature without importing every task module
    (`_registry.load_all`, a second or two); [] when there is no such module."""
    from infoseek.inspect_tasks import _registry

    if not bare.isidentifier():
        return []
    module = _registry.import_present(f"{_registry.TASK_PACKAGE}.{bare}")
    return _registry.tasks_defined_in(module) if module is not None else []


@lru_cache(maxsize=1)
def stated_settings() -> frozenset[str]:
    """The arguments stated in every row, even at their default (module docstring)."""
    from infoseek.inspect_tasks.report.published import published
    from infoseek.inspect_tasks.report.tables import ALWAYS_SHOWN, DATA_SETTINGS

    names = set(ALWAYS_SHOWN) | set(DATA_SETTINGS)
    for series in published()["series"]:
        names.update(series.get("setting") or {})
        for condition in (series.get("data") or {}).get("same_as") or []:
            names.update(condition.get("setting") or {})
    return frozenset(names)


def at_default(value: Any, default: Any) -> bool:
    """Whether a recorded argument `value` is the declared `default`: equal as data, a
    list or mapping recorded as its JSON text read back, a whole float equal to an
    integer default (a table column of numbers with gaps holds floats), a truth value
    only equal to a truth value."""
    if isinstance(value, str) and not isinstance(default, str) and default is not None:
        try:
            value = json.loads(value)
        except ValueError:
            return False
    if isinstance(value, bool) or isinstance(default, bool):
        return isinstance(value, bool) and isinstance(default, bool) and value == default
    if isinstance(default, tuple):
        default = list(default)
    same_kind = type(value) is type(default) or (
        isinstance(value, int | float) and isinstance(default, int | float))
    return same_kind and value == default


def eval_entry(log_id: str, path: Path, row: pd.Series, declaration: TaskReport,
               registry_name: str | None) -> dict[str, Any]:
    """One row of ``Logs.evals``: the log's id, its file (as text), task, model, status,
    version, protocol and its settings (``setting.<task argument>``: None at the default
    the task declares, module docstring); `registry_name` is the task's registry name
    as the log records it (None: the task name)."""
    task = str(row["task_name"]).split("/")[-1]
    entry = {"log_id": log_id, "log": shown_path(path), "file": shown_path(path.name),
             "task": task,
             "model": str(row["model"]), "status": str(row["status"]),
             "task_version": row.get("task_version"),
             "protocol": declaration.protocol,
             "role_models": role_models(row.get("model_roles"))}
    defaults = declared_defaults(str(registry_name or row["task_name"]))
    for key, value in row.items():
        if str(key).startswith(SETTING_PREFIX):
            name = str(key)[len(SETTING_PREFIX):]
            value = _setting_value(value)
            off = (name in defaults and name not in stated_settings()
                   and at_default(value, defaults[name]))
            entry["setting." + name] = None if off else value
    entry.update(data_identity(row.get("metadata"), entry.get("setting.source"),
                               row.get("task_version")))
    return entry


def data_identity(metadata: Any, source: Any, task_version: Any) -> dict[str, Any]:
    """What a log ran on: ``data.builder`` (the builder and data version after the ``/``
    of its task version), and for a ``-T source=`` file ``data.source`` (``name#<first 12
    hex digits of its SHA-256>``, or ``name#unhashed`` from a log written before tasks
    recorded it, `infoseek.contract.TASK_SOURCE`), ``data.sha256`` and ``data.format``."""
    recorded = recorded_metadata(metadata).get(TASK_SOURCE)
    version = str(task_version or "")
    out: dict[str, Any] = {"data.builder": version.split("/", 1)[-1] or None,
                           "data.source": None, "data.sha256": None, "data.format": None}
    if isinstance(recorded, dict) and recorded.get("file"):
        digest = str(recorded.get("sha256") or "")
        out.update({"data.source": f"{recorded['file']}#{digest[:12] or 'unhashed'}",
                    "data.sha256": digest or None,
                    "data.format": recorded.get("format") or None})
    elif isinstance(source, str) and source.strip():
        out["data.source"] = f"{shown_path(Path(source.strip()).name)}#unhashed"
    return out


def role_models(value: Any) -> str | None:
    """``role=model`` pairs of a log's bound model roles (``eval.model_roles``, a dict or
    its JSON text), joined by ``; ``, or None when it binds none."""
    if isinstance(value, str):
        try:
            value = json.loads(value)
        except ValueError:
            return None
    if not isinstance(value, dict) or not value:
        return None
    pairs = []
    for role, model in sorted(value.items()):
        name = model.get("model") if isinstance(model, dict) else model
        pairs.append(f"{role}={name}")
    return "; ".join(pairs)


def settings_of(entry: dict[str, Any] | pd.Series, names: Iterable[str]) -> dict[str, Any]:
    """The declared settings a log row carries (task arguments it was run with)."""
    out: dict[str, Any] = {}
    for name in names:
        key = "setting." + name
        if key in entry and _setting_value(entry[key]) is not None:
            out[name] = entry[key]
    return out
