"""Inspect entry point of the infoseek distribution (front door; may reach outward).

`pyproject.toml` declares `[project.entry-points.inspect_ai] infoseek =
"infoseek.inspect_tasks._registry"`. Inspect imports this module in every `inspect`
command when it loads all extensions at start-up (to find their hooks), and otherwise the
first time it meets a name with the `infoseek/` prefix (`inspect eval infoseek/logic_mt`,
`--model infoseek/optimal`, a metric `infoseek/mean_by_group` recorded in a log).

Importing it registers names only, so that having infoseek installed costs an unrelated
eval next to nothing (`benchmarks/bench_entry_point.py`; docs/inspect-notes.md):
- the reference model provider (`infoseek/optimal`, `infoseek/random`, and the person
  of `infoseek play`, `infoseek/human`), whose class is imported when a model is made;
- a stand-in under each name of `DEFERRED` (tasks, scorers, metrics, solvers, tools;
  `inspect_private.register_deferred`). The first call of any stand-in runs `load_all`,
  which imports every task module and scorer; their decorators replace the stand-ins
  with the real objects, and the call goes on to the real one.

`load_all` (also run by reading `REGISTERED_TASKS`, `PACKAGED_TASKS` or
`RECORDED_SCORER_NAMES` of this module)
- imports every task module (`task_module_names`), which registers their `@task`,
  `@solver` and `@scorer` functions, and
- registers each infoseek scorer also under the name a log records for it
  (``final_answer`` for ``infoseek/final_answer``; `RECORDED_SCORER_NAMES`), so that
  `inspect score <log>` rebuilds it: Inspect records scorers without their package and
  looks such a name up only among unqualified names and its own built-ins (why this
  needs a private Inspect call: `infoseek.inspect_tasks.inspect_private`). A scorer whose
  recorded name is one of Inspect's built-ins makes the load fail, naming both.

Tasks and scorers are found one way: a walk of a package's modules (`package_modules`)
that keeps the registry objects each module defines (`defined_in`). The tasks are those
of `infoseek.inspect_tasks` (every module with `@task` functions; a new task file needs
no registration beyond its names in `DEFERRED`, which a test compares with the walk) and
those of installed plug-in domains: the modules that a distribution declaring a domain
(entry-point group ``infoseek.domains``) names in its own ``inspect_ai`` entry point, the
one Inspect itself uses to find them (docs/plugins.md). Nothing is re-registered by
hand: Inspect names each task of the installed `infoseek` package `infoseek/<name>`, and
a plug-in's after the plug-in's own top-level package (`<plugin>/<name>`). A plug-in
task module that fails to import is logged and left out, so it cannot hide the infoseek
tasks. The module files keep working on their own (`inspect eval
inspect_tasks/logic_mt.py`), as local tasks.
"""

from __future__ import annotations

import importlib
import logging
import pkgutil
from collections.abc import Callable, Iterable
from importlib.metadata import entry_points
from types import ModuleType
from typing import TYPE_CHECKING, Any

from inspect_ai.model import ModelAPI, modelapi
from inspect_ai.util import registry_info

from infoseek.inspect_tasks.inspect_private import register_deferred

if TYPE_CHECKING:
    from inspect_ai import Task

TASK_PREFIX = "infoseek"
TASK_PACKAGE = "infoseek.inspect_tasks"
SCORER_PACKAGE = "infoseek.scorers"
INSPECT_ENTRY_POINT_GROUP = "inspect_ai"
logger = logging.getLogger(__name__)

NOT_INSTALLED = (
    "Inspect registered the infoseek name {name!r} without the 'infoseek/' prefix, so it "
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
    from infoseek.domains import ENTRY_POINT_GROUP, is_built_in

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


def package_scorers(package_name: str) -> list[Callable[..., Any]]:
    """The `@scorer` factories defined in the modules of `package_name` (imported here),
    in module then attribute order."""
    return [scorer for module_name in package_modules(package_name)
            for _, scorer in defined_in(importlib.import_module(module_name), "scorer")]


LOADED_NAMES = ("REGISTERED_TASKS", "PACKAGED_TASKS", "RECORDED_SCORER_NAMES")
"""What `load_all` computes, read as attributes of this module:

- ``REGISTERED_TASKS``: every task of the suite and of the installed plug-ins, by registry
  name (`infoseek/logic_mt`, `mapcolour/mapcolour_mt`, ...);
- ``PACKAGED_TASKS``: the tasks infoseek itself ships, by bare name (`logic_mt`, ...);
- ``RECORDED_SCORER_NAMES``: the names the infoseek scorers are recorded under in a log
  (``final_answer``, ``sufficiency``, ...), each registered so that `inspect score` finds
  it."""

_loaded: dict[str, Any] = {}
_loading: list[bool] = []


def load_all() -> dict[str, Any]:
    """Import every task module and scorer (once per process) and register the scorers'
    recorded names; the values of `LOADED_NAMES`, by name."""
    if _loaded:
        return _loaded
    if _loading:
        raise RegistrationError(
            "infoseek's task registry was read while its task modules were being imported: "
            "read REGISTERED_TASKS / PACKAGED_TASKS inside a function, not at import time")
    from infoseek.inspect_tasks.inspect_private import register_recorded_scorer_names

    _loading.append(True)
    try:
        registered = import_domain_tasks(task_module_names())
        recorded = register_recorded_scorer_names(package_scorers(SCORER_PACKAGE))
    finally:
        _loading.clear()
    _loaded.update(
        REGISTERED_TASKS=registered,
        PACKAGED_TASKS={name.removeprefix(f"{TASK_PREFIX}/"): factory
                        for name, factory in registered.items()
                        if name.startswith(f"{TASK_PREFIX}/")},
        RECORDED_SCORER_NAMES=recorded)
    return _loaded


def __getattr__(name: str) -> Any:
    if name in LOADED_NAMES:
        return load_all()[name]
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


PROVIDER = "infoseek"
"""The model provider's name: `--model infoseek/optimal`."""


@modelapi(name=PROVIDER)
def infoseek_reference_models() -> Callable[..., ModelAPI]:
    """The reference models (`infoseek.solvers.reference.models`) and the human player
    (`infoseek/human`: `infoseek.solvers.reference.human`), imported when one is made."""
    from infoseek.solvers.reference.human import model_api

    return model_api


TASKS = (
    "clinguide_mt", "clinguide_mt_k_prediction", "clinguide_mt_mss",
    "genereg_mt", "genereg_mt_full", "genereg_mt_k_prediction", "genereg_mt_mss",
    "gsm_mt", "gsm_mt_full", "gsm_q", "gsm_q_detection", "gsm_q_well_specified",
    "gsme_mt", "gsme_mt_ext", "gsme_mt_ext_full", "gsme_mt_ext_k_prediction",
    "gsme_mt_ext_mss", "gsme_mt_full", "gsme_mt_k_prediction", "gsme_mt_mss",
    "gsme_q", "gsme_q_detection", "gsme_q_well_specified",
    "incomplete_questions",
    "logic_k_prediction", "logic_mss", "logic_mt", "logic_q", "logic_q_detection",
    "logic_q_well_specified",
    "planning_mt", "planning_mt_full", "planning_mt_k_prediction", "planning_mt_mss",
    "planning_q", "planning_q_detection", "planning_q_well_specified",
    "twenty_questions", "twenty_questions_k_prediction", "twenty_questions_mss",
)
SCORERS = (
    "detection_scorer", "final_answer", "incomplete_scorer", "invalid", "k_prediction_scorer",
    "mss_identification_scorer", "order_strata", "plan", "queries", "single_turn_scorer",
    "sufficiency", "twenty_questions", "undetermined", "withholding",
)
METRICS = ("axis_correlations", "mean_by_group", "not_sure_f1", "role_error_rates",
           "stratified_accuracy", "undetermined_detection")
SOLVERS = ("incomplete_agent_solver", "incomplete_setup", "incomplete_solver",
           "problem_level_solver", "seek_agent_solver", "seek_setup", "seek_solver",
           "single_turn_solver", "twenty_questions_solver")
TOOLS = ("answer", "ask", "ask_question")

DEFERRED: tuple[tuple[str, str], ...] = (
    *(("task", f"{TASK_PREFIX}/{name}") for name in TASKS),
    *(("scorer", f"{TASK_PREFIX}/{name}") for name in SCORERS),
    *(("scorer", name) for name in SCORERS),  # the names logs record (RECORDED_SCORER_NAMES)
    *(("metric", f"{TASK_PREFIX}/{name}") for name in METRICS),
    *(("solver", f"{TASK_PREFIX}/{name}") for name in SOLVERS),
    *(("tool", f"{TASK_PREFIX}/{name}") for name in TOOLS),
)
"""Every (registry kind, name) that `load_all` registers, which this module registers
as stand-ins on import (tests/packaging/test_entry_point.py compares the two)."""


def _check_installed() -> None:
    name = registry_info(infoseek_reference_models).name
    if not name.startswith(f"{TASK_PREFIX}/"):
        raise RegistrationError(NOT_INSTALLED.format(name=name))


def _register_stand_ins() -> dict[tuple[str, str], Callable[..., Any]]:
    registered = {}
    for kind, name in DEFERRED:
        stand_in = register_deferred(kind, name, load_all)
        if stand_in is not None:
            registered[kind, name] = stand_in
    return registered


_check_installed()
STAND_INS = _register_stand_ins()
"""The stand-ins this import registered, by (kind, name): none for a name registered
already (imported before the entry point, or a user's own unqualified scorer)."""
