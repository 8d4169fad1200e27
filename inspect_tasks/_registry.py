"""Inspect entry point of the infoseek distribution (front door; may reach outward).

`pyproject.toml` declares `[project.entry-points.inspect_ai] infoseek =
"infoseek.inspect_tasks._registry"`. Inspect imports this module the first time it meets a
name with the `infoseek/` prefix (`inspect eval infoseek/logic_mt`, `--model
infoseek/optimal`, a metric `infoseek/mean_by_group` recorded in a log) and, in every
`inspect` command, when it loads all extensions at start-up (to find their hooks).

Importing it
- registers the reference model provider (`infoseek/optimal`, `infoseek/random`),
- imports every task module (`task_module_names`), which registers their `@task`,
  `@solver` and `@scorer` functions, and
- registers each infoseek scorer also under the name a log records for it
  (``final_answer`` for ``infoseek/final_answer``; `RECORDED_SCORER_NAMES`), so that
  `inspect score <log>` rebuilds it: Inspect records scorers without their package and
  looks such a name up only among unqualified names and its own built-ins (why this
  needs a private Inspect call: `infoseek.inspect_tasks.inspect_private`). A scorer whose
  recorded name is one of Inspect's built-ins makes this import fail, naming both.

Tasks and scorers are found one way: a walk of a package's modules (`package_modules`)
that keeps the registry objects each module defines (`defined_in`). The tasks are those
of `infoseek.inspect_tasks` (every module with `@task` functions; a new task file needs
no registration) and those of installed plug-in domains: the modules that a
distribution declaring a domain (entry-point group ``infoseek.domains``) names in its
own ``inspect_ai`` entry point, the one Inspect itself uses to find them
(docs/plugins.md). Nothing is re-registered by hand: Inspect names each task of the
installed `infoseek` package `infoseek/<name>`, and a plug-in's after the plug-in's own
top-level package (`<plugin>/<name>`). A plug-in task module that fails to import is
logged and left out, so it cannot hide the infoseek tasks. The module files keep working
on their own (`inspect eval inspect_tasks/logic_mt.py`), as local tasks.
"""

from __future__ import annotations

import importlib
import logging
import pkgutil
from collections.abc import Callable, Iterable
from importlib.metadata import entry_points
from types import ModuleType
from typing import Any

from inspect_ai import Task
from inspect_ai.util import registry_info

import infoseek.solvers.reference.models  # noqa: F401  (registers the `infoseek` model provider)
from infoseek.domains import ENTRY_POINT_GROUP, is_built_in
from infoseek.inspect_tasks.inspect_private import register_recorded_scorer_names

TASK_PREFIX = "infoseek"
TASK_PACKAGE = "infoseek.inspect_tasks"
SCORER_PACKAGE = "infoseek.scorers"
INSPECT_ENTRY_POINT_GROUP = "inspect_ai"
logger = logging.getLogger(__name__)

NOT_INSTALLED = (
    "Inspect registered the infoseek task {name!r} without the 'infoseek/' prefix, so it "
    "does not see infoseek as an installed package. Install it (`pip install -e .` or "
    "`pip install infoseek-*.whl`); a stray `infoseek.egg-info` folder on sys.path (for "
    "example in the current directory) hides an editable install from Inspect: delete it."
)


class RegistrationError(RuntimeError):
    """The infoseek tasks could not be registered under their `infoseek/` names."""


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


def defined_in(module: ModuleType, kind: str) -> list[tuple[str, Callable[..., Any]]]:
    """The registry objects of type `kind` (``task``, ``scorer``) defined in `module` (not
    imported into it), with their registry names, in attribute order."""
    found: list[tuple[str, Callable[..., Any]]] = []
    for attribute in sorted(vars(module)):
        candidate = getattr(module, attribute)
        if getattr(candidate, "__module__", None) != module.__name__:
            continue
        try:
            info = registry_info(candidate)
        except ValueError:
            continue
        if info.type == kind:
            found.append((info.name, candidate))
    return found


def tasks_defined_in(module: ModuleType) -> list[tuple[str, Callable[..., Task]]]:
    """The `@task` functions defined in `module`, by registry name."""
    return defined_in(module, "task")


def import_task_modules(module_names: Iterable[str]) -> dict[str, Callable[..., Task]]:
    """Import the present task modules; their tasks by registry name.

    A task of a module inside the `infoseek` package must come out as `infoseek/<name>`;
    when Inspect does not see the package as installed it would not, and the error says
    why instead of `inspect eval infoseek/<name>` failing later with "task not found".
    """
    registered: dict[str, Callable[..., Task]] = {}
    for module_name in module_names:
        module = import_present(module_name)
        if module is None:
            continue
        ours = module_name.split(".")[0] == TASK_PREFIX
        for name, factory in tasks_defined_in(module):
            if ours and not name.startswith(f"{TASK_PREFIX}/"):
                raise RegistrationError(NOT_INSTALLED.format(name=name))
            registered[name] = factory
    return registered


def import_domain_tasks(module_names: Iterable[str]) -> dict[str, Callable[..., Task]]:
    """`import_task_modules` over every task module: a failure in one of the
    infoseek package propagates; one in a plug-in's module is logged as a warning naming
    the module, and the module is left out."""
    registered: dict[str, Callable[..., Task]] = {}
    for module_name in module_names:
        if module_name.split(".")[0] == TASK_PREFIX:
            registered.update(import_task_modules([module_name]))
            continue
        try:
            registered.update(import_task_modules([module_name]))
        except Exception as exc:  # a plug-in may fail in any way; name it and go on
            logger.warning("infoseek: the plug-in task module %s cannot be imported and is "
                           "left out: %s: %s", module_name, type(exc).__name__, exc)
    return registered


def package_modules(package_name: str) -> list[str]:
    """The modules of `package_name`, by name, sorted: its own modules, not its
    subpackages nor its private (``_``) modules."""
    package = importlib.import_module(package_name)
    return [f"{package_name}.{info.name}"
            for info in sorted(pkgutil.iter_modules(package.__path__), key=lambda m: m.name)
            if not info.ispkg and not info.name.startswith("_")]


def plugin_task_modules() -> list[str]:
    """The task modules of installed plug-in domains: what the ``inspect_ai`` entry points
    of each distribution that declares a domain (other than infoseek itself) name."""
    found: list[str] = []
    seen: set[str] = set()
    for entry_point in entry_points(group=ENTRY_POINT_GROUP):
        dist = getattr(entry_point, "dist", None)
        if dist is None or is_built_in(entry_point) or dist.name in seen:
            continue
        seen.add(dist.name)
        found.extend(e.module for e in dist.entry_points
                     if e.group == INSPECT_ENTRY_POINT_GROUP and e.module not in found)
    return found


def task_module_names() -> tuple[str, ...]:
    """Every task module: those of the infoseek package, then the plug-ins'."""
    return (*package_modules(TASK_PACKAGE), *plugin_task_modules())


REGISTERED_TASKS = import_domain_tasks(task_module_names())
"""Every task of the suite and of the installed plug-ins, by registry name
(`infoseek/logic_mt`, `mapcolour/mapcolour_mt`, ...)."""

PACKAGED_TASKS = {
    name.removeprefix(f"{TASK_PREFIX}/"): factory
    for name, factory in REGISTERED_TASKS.items()
    if name.startswith(f"{TASK_PREFIX}/")
}
"""The tasks infoseek itself ships, by bare name (`logic_mt`, ...)."""


def package_scorers(package_name: str) -> list[Callable[..., Any]]:
    """The `@scorer` factories defined in the modules of `package_name` (imported here),
    in module then attribute order."""
    return [scorer for module_name in package_modules(package_name)
            for _, scorer in defined_in(importlib.import_module(module_name), "scorer")]


RECORDED_SCORER_NAMES = register_recorded_scorer_names(package_scorers(SCORER_PACKAGE))
"""The names the infoseek scorers are recorded under in a log (``final_answer``,
``sufficiency``, ...), each registered so that `inspect score` finds it."""
