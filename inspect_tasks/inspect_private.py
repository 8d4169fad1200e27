# inspect-evals-lint: ignore-file[private_api_imports] -- this module is where they live
"""Every private `inspect_ai._...` name infoseek uses, in one place, each with why.

Inspect's public API (`inspect_ai`, `inspect_ai.scorer`, `inspect_ai.util`, ...) has no
equivalent for the names below. Private names may change in any Inspect release, so
`pyproject.toml` pins ``inspect-ai>=0.3.285,<0.4`` and the tests exercise each one
(`tests/tasks/test_task_logs.py`, `tests/tasks/test_task_parameters.py`,
`tests/scorers/test_scorer_layout.py`); `tests/packaging/test_packaging.py` checks that no other
tracked file
imports from `inspect_ai._`. Moving to a new Inspect version means re-reading this module.

`PrerequisiteError` (`inspect_ai._util.error`)
    Inspect prints an error of this class as its message alone, with no traceback; the
    task errors (`infoseek.inspect_tasks.task_errors`) derive from it so that a bad `-T`
    parameter or data file reads as one line.

`registry_unqualified_name` (`inspect_ai._util.registry`)
    The name Inspect records in a log for a scorer (`eval.scorers`, `results.scores`,
    `sample.scores`): its registry name without the package, `final_answer` for
    `infoseek/final_answer`. The tests ask Inspect itself what it records rather than
    restate the rule.

`register_recorded_scorer_names` (uses `registry_add`, `registry_lookup` and
`RegistryInfo` of `inspect_ai._util.registry`)
    `inspect score <log>` rebuilds each scorer from the name the log records. That name
    has no package (`final_answer`, not `infoseek/final_answer`), and Inspect resolves a
    name without a package only among unqualified registrations and then among its own
    built-ins (`inspect_ai/<name>`): `sufficiency` would not be found. No public call
    registers an object under a second name, so the entry point
    (`infoseek.inspect_tasks._registry`) adds each infoseek scorer under the name the log
    records with `registry_add`. The score names and values in the logs stay as they are.
    No infoseek scorer may be recorded under the name of an Inspect built-in (`answer`,
    `match`, ...): `inspect score` would then have to guess which of the two a log means.
    Registration refuses such a name (`RecordedNameError`). The price: in a process that
    loaded infoseek, these unqualified names mean our scorers, so `inspect score` of
    somebody else's log that records a local scorer of the same name (`queries`, say)
    finds ours unless their task file is loaded first; their own task runs and a
    registration of theirs made earlier are not affected.

`on_unused_task_parameter` (the logger ``inspect_ai._eval.registry``, the text of its
"param 'x' not used by task 'y'" warning, and `registry_lookup`)
    Inspect hands a task function only the `-T` parameters its signature takes and, for
    each other one, logs that warning and runs the task without it (`task_create`, the one
    place every `inspect eval`, `eval-set` and `eval()` path creates a task by name or
    file). No public call shows the parameters a task was not given, so a filter on that
    logger reads each such warning and hands the parameter, the task's name and the task
    function (looked up with `registry_lookup`) to a handler, which may raise: the error
    then leaves `task_create` before the task is built, and a `PrerequisiteError` prints
    as its message alone. Inspect's logger always captures warnings (its capture level is
    TRACE whatever `--log-level` says); `logging.disable(WARNING)` in a Python caller would
    silence it. `tests/tasks/test_unknown_parameters.py` runs every task through it.

`model_roles` (`inspect_ai.model._model`)
    The model roles of the running eval (``--model-role user=...``), set before Inspect
    calls a task function. `get_model(role=...)` answers for one role it is asked about;
    only this lists the roles given, which `given_model_roles` returns so that a task can
    refuse a role model that cannot run (`infoseek.inspect_tasks.task_parameters`).
`quiet_early_headline_warning` (the logger ``inspect_ai.log._headline`` and the text of
its "Headline metric 'x' not found" warning)
    A task declares its headline metric (`infoseek.inspect_tasks.viewer`). While a run is
    in progress, Inspect's progress display resolves that declaration against results
    computed before any sample is scored, in which a metric returning a dict (ours:
    `mean_by_group`, whose keys are `final_sufficiency`, `correct`, ...) is listed under
    its own name, and warns once that the headline is not found; the final results
    resolve it (every packaged task's log is checked). The filter drops that warning for
    the metric names infoseek declares and for no other.
`metrics_from_log_header`, `reducers_from_log_header`, `resolve_scorers_info`,
`resolve_scorers` (`inspect_ai._eval.score`) and `eval_results`
(`inspect_ai._eval.task.results`)
    How `inspect log recover` and `inspect score` rebuild the scorers and metrics of a
    log from the arguments its header records (JSON: a tuple comes back as a list).
    `recovered_results` and `log_scorers` run exactly that path, so that the tests check
    every infoseek metric survives it (`tests/scorers/test_metric_rebuild.py`).
`register_deferred`, `is_deferred` (`registry_add`, `registry_has`, `registry_lookup`,
`RegistryInfo` and `task_create` of ``inspect_ai._eval.registry``)
    Inspect imports every installed package's entry point when any `inspect` command
    starts, so the infoseek entry point (`infoseek.inspect_tasks._registry`) registers
    names only: under each name a stand-in that, when first called, imports the infoseek
    modules (which replace it with the real object) and hands the call on. A registry
    scan (Inspect's hooks and model-provider searches read every entry's registry info)
    sees the stand-ins' type and name without importing anything. A stand-in task hands
    its arguments to Inspect's own `task_create` once the real task is registered, so a
    `-T` parameter the task does not take meets the same warning (and
    `on_unused_task_parameter`) as without the stand-in. No public call registers an
    object under a name it did not define, nor asks whether a name is taken without
    loading entry points.
`created_task_argument`, `after_task_created` (the frame of `task_create` in
``inspect_ai._eval.registry``, `registry_key`, the registry dict ``_registry``,
`REGISTRY_PARAMS` and ``TASK_ALL_PARAMS_ATTR``)
    `-T shard=i/n` (`infoseek.shards`) is taken by every task without being in its
    signature, so Inspect leaves it out and warns (`on_unused_task_parameter`). The
    handler reads the value from the `kwargs` of the `task_create` call it is running in
    (`created_task_argument`), and `after_task_created` puts a one-call wrapper in the
    task's registry entry, which `task_create` looks up next: it restores the entry, calls
    the task function and hands the made task to a transform (keep the shard's samples),
    and only when it is called from inside that same `task_create` call (a wrapper left by
    a creation that failed before the task was made does nothing but restore the entry).
    `record_task_arguments` adds the shard to the task's recorded arguments
    (``eval.task_args``), so the log says which share it ran and `eval-set` tells the
    shards of one task apart.
"""

from __future__ import annotations

import contextlib
import functools
import logging
import re
import sys
from collections.abc import Callable, Iterable, Iterator
from typing import Any

from inspect_ai import Task
from inspect_ai._eval.registry import task_create
from inspect_ai._eval.score import (
    metrics_from_log_header,
    reducers_from_log_header,
    resolve_scorers,
    resolve_scorers_info,
)
from inspect_ai._eval.task.constants import TASK_ALL_PARAMS_ATTR
from inspect_ai._eval.task.results import eval_results
from inspect_ai._util import registry as _inspect_registry
from inspect_ai._util.error import PrerequisiteError
from inspect_ai._util.registry import (
    REGISTRY_PARAMS,
    RegistryInfo,
    registry_add,
    registry_has,
    registry_info,
    registry_key,
    registry_lookup,
    registry_unqualified_name,
)
from inspect_ai.log import EvalLog, EvalResults
from inspect_ai.model import Model
from inspect_ai.model._model import model_roles
from inspect_ai.scorer import Metric, SampleScore, Scorer
from inspect_ai.solver import Solver
from inspect_ai.tool import Tool

__all__ = ["PrerequisiteError", "RecordedNameError", "after_task_created",
           "created_task_argument", "is_deferred", "on_unused_task_parameter",
           "record_task_arguments", "register_deferred",
           "register_recorded_scorer_names", "registry_restored", "registry_unqualified_name"]

BUILTIN_PREFIX = "inspect_ai/"
"""Where Inspect looks up a name without a package once no unqualified registration
has it: its own built-ins (``inspect_ai/answer``, ``inspect_ai/match``, ...)."""


class RecordedNameError(RuntimeError):
    """An infoseek scorer would be recorded in logs under the name of one of Inspect's
    built-in scorers."""


def register_recorded_scorer_names(factories: Iterable[Callable[..., Scorer]]) -> list[str]:
    """Register each scorer factory also under the name Inspect records for it in a log
    (`registry_unqualified_name`: ``final_answer`` for ``infoseek/final_answer``), so
    `inspect score` on the log rebuilds that scorer. Returns the names registered.

    - A name that is also an Inspect built-in (``answer``, ``match``, ...) is refused with
      `RecordedNameError`, naming both scorers: a log recording it could mean either.
    - A name already registered unqualified (a user's own local scorer) is left to its
      owner: the user's name wins.

    What is added: a thin wrapper per name, so the factory keeps its own registry name
    (``infoseek/final_answer``) for tasks that call it directly.
    """
    registered: list[str] = []
    for factory in factories:
        recorded = registry_unqualified_name(factory)
        if registry_lookup("scorer", BUILTIN_PREFIX + recorded) is not None:
            raise RecordedNameError(
                f"the infoseek scorer {registry_info(factory).name!r} would be recorded in "
                f"logs as {recorded!r}, the name of Inspect's built-in scorer "
                f"{BUILTIN_PREFIX + recorded!r}: `inspect score` could not tell which of the "
                f"two a log means. Give the infoseek scorer another name (and map its old "
                f"name in infoseek.scorers.recorded_names.RENAMED_SCORERS if logs "
                f"recorded it).")
        existing = registry_lookup("scorer", recorded)
        if existing is not None and not is_deferred(existing):
            if getattr(existing, "__wrapped__", None) is factory:
                registered.append(recorded)  # registered by an earlier call
            continue
        registry_add(_wrapper(factory), RegistryInfo(
            type="scorer", name=recorded, metadata=dict(registry_info(factory).metadata)))
        registered.append(recorded)
    return registered


def _wrapper(factory: Callable[..., Scorer]) -> Callable[..., Scorer]:
    @functools.wraps(factory)
    def recorded_name(*args: Any, **kwargs: Any) -> Scorer:
        return factory(*args, **kwargs)

    return recorded_name


def given_model_roles() -> dict[str, Model]:
    """The model of each role given to the running eval (none outside an eval); a role
    given several models maps to the first."""
    roles: dict[str, Model] = {}
    for role, models in model_roles().items():
        model = models[0] if isinstance(models, list) and models else models
        if isinstance(model, Model):
            roles[role] = model
    return roles


def recovered_results(log: EvalLog) -> EvalResults | None:
    """The results Inspect's recovery computes for `log` (a finished one here): metrics
    rebuilt from the header's records, applied to the samples' scores."""
    header = EvalLog(version=log.version, eval=log.eval, plan=log.plan, status="error")
    samples = log.samples or []
    scores = [{name: SampleScore(score=value, sample_id=sample.id,
                                 sample_metadata=sample.metadata, scorer=name)
               for name, value in (sample.scores or {}).items()} for sample in samples]
    results, _ = eval_results(
        samples=len(samples), scores=scores, reducers=reducers_from_log_header(header),
        scorers=resolve_scorers_info(header), metrics=metrics_from_log_header(header),
        completed_samples=len(samples))
    return results


def log_scorers(log: EvalLog) -> list[Scorer]:
    """The scorers `inspect score <log>` rebuilds from the log."""
    return resolve_scorers(log)


TASK_REGISTRY_LOGGER = "inspect_ai._eval.registry"
"""The logger Inspect's `task_create` warns on for a `-T` parameter a task does not take."""

UNUSED_TASK_PARAMETER = re.compile(r"param '(?P<param>.*)' not used by task '(?P<task>.*)'")
"""That warning's text (`task_create`); a task *source*'s warning ("not used by task
source") does not match."""

UnusedParameterHandler = Callable[[str, str, Callable[..., Task]], None]


class _UnusedParameterFilter(logging.Filter):
    def __init__(self, handler: UnusedParameterHandler) -> None:
        super().__init__()
        self.handler = handler

    def filter(self, record: logging.LogRecord) -> bool:
        found = UNUSED_TASK_PARAMETER.fullmatch(record.getMessage())
        if found is not None:
            factory = registry_lookup("task", found["task"])
            if factory is not None:
                self.handler(found["task"], found["param"], factory)
        return True


def on_unused_task_parameter(handler: UnusedParameterHandler) -> None:
    """Call ``handler(task_name, parameter, task_function)`` for every `-T` parameter
    Inspect leaves out of a task it creates because the task does not take it, before
    the task is built; an error the handler raises stops the creation. Installing the
    same handler twice installs it once."""
    logger = logging.getLogger(TASK_REGISTRY_LOGGER)
    if not any(isinstance(f, _UnusedParameterFilter) and f.handler is handler
               for f in logger.filters):
        logger.addFilter(_UnusedParameterFilter(handler))


HEADLINE_LOGGER = "inspect_ai.log._headline"
EARLY_HEADLINE = re.compile(r"Headline metric '(?P<metric>[^']*)' not found in eval results",
                            re.IGNORECASE)


class _EarlyHeadlineFilter(logging.Filter):
    def __init__(self, metrics: Iterable[str]) -> None:
        super().__init__()
        self.metrics = frozenset(metrics)

    def filter(self, record: logging.LogRecord) -> bool:
        found = EARLY_HEADLINE.match(record.getMessage())
        return found is None or found["metric"] not in self.metrics


def quiet_early_headline_warning(metrics: Iterable[str]) -> None:
    """Drop Inspect's "headline metric not found" warning for `metrics` (module docstring):
    its progress display resolves a declared headline before any sample is scored."""
    logger = logging.getLogger(HEADLINE_LOGGER)
    if not any(isinstance(f, _EarlyHeadlineFilter) for f in logger.filters):
        logger.addFilter(_EarlyHeadlineFilter(metrics))


@contextlib.contextmanager
def registry_restored() -> Iterator[None]:
    """Inspect's registry (the private ``inspect_ai._util.registry._registry`` dict) as it
    was on entry, once the block ends: for tests that register objects under names of
    ours (a foreign scorer named ``sufficiency``) that later lookups must not find."""
    saved = dict(_inspect_registry._registry)
    try:
        yield
    finally:
        _inspect_registry._registry.clear()
        _inspect_registry._registry.update(saved)


_TASK_CREATE = task_create.__code__
_MISSING = object()


def _creation_frame() -> Any | None:
    """The frame of the innermost `task_create` call running now, or None."""
    frame = sys._getframe(1)
    while frame is not None and frame.f_code is not _TASK_CREATE:
        frame = frame.f_back
    return frame


def created_task_argument(parameter: str) -> tuple[bool, Any]:
    """(given, value) of the `-T` argument `parameter` of the task `task_create` is
    making now (False, None outside such a call or when it was not given)."""
    frame = _creation_frame()
    given = (frame.f_locals.get("kwargs") or {}) if frame is not None else {}
    value = given.get(parameter, _MISSING)
    return (False, None) if value is _MISSING else (True, value)


def after_task_created(name: str, transform: Callable[[Task], Task]) -> None:
    """Have the task `task_create` is making now under the registry name `name` handed to
    `transform` once made; outside a `task_create` call, nothing happens."""
    frame = _creation_frame()
    key = registry_key("task", name)
    original = _inspect_registry._registry.get(key)
    if frame is None or original is None:
        return

    @functools.wraps(original)  # type: ignore[arg-type]
    def once(*args: Any, **kwargs: Any) -> Any:
        _inspect_registry._registry[key] = original
        made = original(*args, **kwargs)  # type: ignore[operator]
        if not _on_stack(frame) or not isinstance(made, Task):
            return made
        return transform(made)

    _inspect_registry._registry[key] = once


def record_task_arguments(task: Task, arguments: dict[str, Any]) -> None:
    """Add `arguments` to the task arguments Inspect records for a task made by a `@task`
    function (``eval.task_args`` and ``eval.task_args_passed`` of its log)."""
    for attribute in (REGISTRY_PARAMS, TASK_ALL_PARAMS_ATTR):
        params = getattr(task, attribute, None)
        if isinstance(params, dict):
            params.update(arguments)


def _on_stack(wanted: Any) -> bool:
    frame = sys._getframe(1)
    while frame is not None:
        if frame is wanted:
            return True
        frame = frame.f_back
    return False


DEFERRED_MARK = "__infoseek_deferred__"
"""Attribute set on the entry point's stand-ins (`register_deferred`)."""

_CREATED_TYPES: dict[str, type] = {"task": Task, "scorer": Scorer, "metric": Metric,
                                   "solver": Solver, "tool": Tool}
"""What a registered factory of each deferred kind makes: Inspect's `registry_create`
calls a registered function only when its return annotation names the kind."""


def is_deferred(entry: object) -> bool:
    """Whether `entry` is a stand-in registered by `register_deferred`."""
    return bool(getattr(entry, DEFERRED_MARK, False))


def register_deferred(kind: str, name: str,
                      load: Callable[[], object]) -> Callable[..., Any] | None:
    """Register under `name` (a registry `kind` of `_CREATED_TYPES`) a stand-in whose first
    call runs `load` (which must register the real object under the same name, replacing
    the stand-in) and hands the call on to the real object. A name already registered
    (the real object, imported earlier, or a user's own unqualified scorer) is left as it
    is: None. The stand-in's `resolve()` returns the real object."""
    if kind not in _CREATED_TYPES:
        raise ValueError(f"cannot defer a registry object of kind {kind!r}")
    if registry_has(kind, name):  # type: ignore[arg-type]
        return None

    def resolve() -> Any:
        load()
        found = registry_lookup(kind, name)  # type: ignore[arg-type]
        if found is None or is_deferred(found):
            raise LookupError(
                f"the infoseek entry point lists the {kind} {name!r}, but importing the "
                f"infoseek modules did not register it: remove it from "
                f"infoseek.inspect_tasks._registry.DEFERRED or restore its definition")
        return found

    if kind == "task":
        def deferred(**kwargs: Any) -> Any:
            resolve()
            return task_create(name, **kwargs)
    else:
        def deferred(*args: Any, **kwargs: Any) -> Any:
            return resolve()(*args, **kwargs)

    deferred.__name__ = deferred.__qualname__ = name.rsplit("/", 1)[-1]
    deferred.__annotations__ = {"return": _CREATED_TYPES[kind]}
    setattr(deferred, DEFERRED_MARK, True)
    deferred.resolve = resolve  # type: ignore[attr-defined]
    metadata: dict[str, Any] = dict(attribs={}, params=[]) if kind == "task" else {}
    registry_add(deferred, RegistryInfo(type=kind, name=name, metadata=metadata))  # type: ignore[arg-type]
    return deferred


def inspect_cli() -> Callable[[], Any]:
    """Inspect's command line (what the ``inspect`` command runs), to run it in this
    process: `benchmarks/bench_first_sample.py` times an ``inspect eval`` in a child that
    stops at the first sample, which a separate ``inspect`` process would not let it
    hook."""
    from inspect_ai._cli.main import main

    return main
