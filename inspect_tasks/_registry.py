"""Inspect entry point of the infoseek distribution (front door; may reach outward).

`pyproject.toml` declares `[project.entry-points.inspect_ai] infoseek = "inspect_tasks._registry"`.
Inspect imports this module the first time it meets a name with the `infoseek/` prefix
(`inspect eval infoseek/logic_mt`, `--model infoseek/optimal`) or lists extensions.

Importing it
- registers the reference model provider (`infoseek/optimal`, `infoseek/random`), and
- registers every `@task` of the task modules the registered domains declare
  (`infoseek.domains.task_modules`) under `infoseek/<name>`.

Why re-register tasks: Inspect names a task after the top-level package that defines it
(`inspect_tasks` here, and only when that package looks installed), not after the
distribution, so `inspect_tasks/logic_mt.py`'s task would otherwise not be found as
`infoseek/logic_mt`. The module files keep working on their own
(`inspect eval inspect_tasks/logic_mt.py`).
"""

from __future__ import annotations

import functools
import importlib
from collections.abc import Callable, Iterable
from types import ModuleType
from typing import Any

from inspect_ai import Task

# Private Inspect helpers (inspect-ai is pinned below 0.4; see docs/inspect-notes.md).
from inspect_ai._eval.eval_set_pruning import task_construction
from inspect_ai._eval.task.constants import TASK_FILE_ATTR, TASK_RUN_DIR_ATTR
from inspect_ai._util.registry import registry_add, set_registry_info
from inspect_ai.util import RegistryInfo, registry_info

import solvers.reference_models  # noqa: F401  (registers the `infoseek` model provider)
from infoseek.domains import task_modules

TASK_PREFIX = "infoseek"


def import_present(module_name: str) -> ModuleType | None:
    """Import `module_name`; None when the module itself does not exist.

    Any other failure (a missing dependency inside the module, a syntax error, ...)
    propagates.
    """
    try:
        return importlib.import_module(module_name)
    except ModuleNotFoundError as error:
        if error.name == module_name:
            return None
        raise


def tasks_defined_in(module: ModuleType) -> list[tuple[str, Callable[..., Task]]]:
    """The `@task` functions defined in `module` (not imported into it), by bare name."""
    found: list[tuple[str, Callable[..., Task]]] = []
    for attribute in sorted(vars(module)):
        candidate = getattr(module, attribute)
        if getattr(candidate, "__module__", None) != module.__name__:
            continue
        try:
            info = registry_info(candidate)
        except ValueError:
            continue
        if info.type == "task":
            found.append((info.name.split("/")[-1], candidate))
    return found


def register_packaged_task(name: str, factory: Callable[..., Task]) -> Callable[..., Task]:
    """Register the existing `@task` `factory` again, as exactly `infoseek/<name>`.

    The name is given explicitly rather than left to `@task`, which infers a prefix from
    how the defining package is installed as seen from `sys.path` (a stray
    `infoseek.egg-info` in the working directory, as `pip install -e .` leaves in the
    repository root, hides the editable install and drops the prefix). The packaged task
    takes the same parameters and, like any task of an installed package, runs in the
    caller's working directory and is re-created from its registry name.
    """
    info = RegistryInfo(
        type="task",
        name=f"{TASK_PREFIX}/{name}",
        metadata=dict(registry_info(factory).metadata),
    )

    @functools.wraps(factory, updated=())
    def packaged(*args: Any, **kwargs: Any) -> Task:
        # a composition in Inspect's terms: eval-set selection never prunes the inner task
        with task_construction():
            created = factory(*args, **kwargs)
        # drop the local-file origin the inner task recorded (it would make Inspect chdir
        # into inspect_tasks/ and re-load the file on retry instead of using the registry)
        for attribute in (TASK_FILE_ATTR, TASK_RUN_DIR_ATTR):
            if hasattr(created, attribute):
                delattr(created, attribute)
        set_registry_info(created, info)
        return created

    # the distribution Inspect records in the log is looked up from the defining module
    packaged.__module__ = __name__
    registry_add(packaged, info)
    return packaged


def register_task_modules(module_names: Iterable[str]) -> dict[str, Callable[..., Task]]:
    """Import the present task modules and register their tasks under `infoseek/`."""
    registered: dict[str, Callable[..., Task]] = {}
    for module_name in module_names:
        module = import_present(module_name)
        if module is None:
            continue
        for name, factory in tasks_defined_in(module):
            registered[name] = register_packaged_task(name, factory)
    return registered


PACKAGED_TASKS = register_task_modules(task_modules())
