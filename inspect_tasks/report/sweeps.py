"""One-command sweeps: the papers' settings as `eval_set` recipes.

    infoseek sweep oracles --model openai/gpt-4o --log-dir logs/oracles [--per-k 20]
    infoseek report logs/oracles --out report/oracles

A recipe is a list of (task, task arguments): the registered task run once per setting,
so every log records its setting as task arguments and the report puts one row per
setting. Inspect's `eval_set` runs them: rerunning the same command in the same log
folder resumes (finished logs are kept, failed ones retried).

Recipes (``--task`` picks the task where a recipe varies a setting):

- ``oracles``: adversarial, cooperative and random oracles (MT-InfoSeek's oracle sweep);
- ``budgets``: no budget, then "T turns x q queries per turn" 1x4, 2x2, 4x1 and 10x1
  stated in the prompt (MT-InfoSeek Fig. 25-26);
- ``force_ask``: answers before k queries rejected or not (MT-InfoSeek Table 23);
- ``forbid_alternatives``: variables of non-canonical MSSs askable or not;
- ``prompt_modes``: zero-shot, step-by-step and four-shot single-turn question
  selection (QuestBench), with the well-specified and detection tasks for filtered
  accuracy and F1;
- ``suite``: every headline task at a modest size, for a one-page overview of a model.

Which tasks a recipe can vary is read from the tasks themselves, never listed here
(`Recipe.accepts`): a task qualifies when its ``@task`` function takes every parameter
the recipe sets, its default for a swept parameter is one of the values swept (the math
tasks take ``oracle`` but answer from the hidden world, ``oracle="world"``, so they have
no oracle to vary), and the sibling tasks the recipe runs beside it
(``<task>_well_specified``, ``<task>_detection``) exist and qualify too. A new domain's
tasks are swept with no edit here; an installed plug-in's by their full name
(``--task mapcolour/mapcolour_mt``).
"""

from __future__ import annotations

import functools
import inspect
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from infoseek.inspect_tasks.inspect_private import PrerequisiteError
from infoseek.oracles import ORACLE_POLICIES

Runs = list[tuple[str, dict[str, Any]]]
TaskFactories = Mapping[str, Callable[..., Any]]

BUDGETS = ((1, 4), (2, 2), (4, 1), (10, 1))
PROMPT_MODES = ("zs", "cot", "fs")
BOTH = (False, True)
ANY_VALUE: tuple[Any, ...] = ()
"""A parameter a recipe sets to values of its own (the turn caps of ``budgets``)."""


class SweepError(ValueError):
    """A recipe that cannot run as asked (what to fix is in the message)."""


@dataclass(frozen=True)
class Recipe:
    name: str
    description: str
    runs: Callable[[str, dict[str, Any]], Runs]
    """``runs(task, size)``: the (task, arguments) runs for the chosen task."""
    sets: Mapping[str, tuple[Any, ...]] = field(default_factory=dict)
    """The parameters the runs set, each with the values it sweeps (`ANY_VALUE`: set to
    values of the recipe's own). Empty: the recipe runs fixed tasks."""
    default_task: str = ""
    """The task run when ``--task`` is not given (when it qualifies)."""
    siblings: tuple[str, ...] = ()
    """Suffixes of the tasks run beside the chosen one (``_detection``)."""

    def accepts(self, task: str, tasks: TaskFactories) -> bool:
        """Whether the recipe can vary `task` (module docstring)."""
        return bool(self.sets) and all(
            takes_setting(tasks.get(name), self.sets)
            for name in (task, *(task + suffix for suffix in self.siblings)))

    def tasks(self, tasks: TaskFactories | None = None) -> tuple[str, ...]:
        """The tasks ``--task`` may pick, the default first; empty for fixed tasks."""
        tasks = sweep_tasks() if tasks is None else tasks
        eligible = [name for name in tasks if self.accepts(name, tasks)]
        eligible.sort(key=lambda name: name != self.default_task)
        return tuple(eligible)


def takes_setting(factory: Callable[..., Any] | None,
                  sets: Mapping[str, tuple[Any, ...]]) -> bool:
    """Whether a task function takes every parameter of `sets`, each defaulting (when it
    has a default) to one of the values swept."""
    if factory is None:
        return False
    parameters = inspect.signature(factory).parameters
    for name, values in sets.items():
        parameter = parameters.get(name)
        if parameter is None:
            return False
        if values and parameter.default is not inspect.Parameter.empty \
                and parameter.default not in values:
            return False
    return True


def sweep_tasks() -> dict[str, Callable[..., Any]]:
    """The registered tasks by the name ``--task`` takes: infoseek's bare (``logic_mt``),
    an installed plug-in's in full (``mapcolour/mapcolour_mt``)."""
    from infoseek.inspect_tasks._registry import REGISTERED_TASKS, TASK_PREFIX

    return {name.removeprefix(f"{TASK_PREFIX}/"): factory
            for name, factory in REGISTERED_TASKS.items()}


def _settings(parameter: str, values: tuple[Any, ...]) -> Callable[[str, dict], Runs]:
    return lambda task, size: [(task, {**size, parameter: value}) for value in values]


def _budgets(task: str, size: dict[str, Any]) -> Runs:
    return [(task, dict(size))] + [
        (task, {**size, "budget": True, "max_turns": turns, "queries_per_turn": q})
        for turns, q in BUDGETS]


def _prompt_modes(family: str, size: dict[str, Any]) -> Runs:
    return [(t, {**size, "prompt": p}) for p in PROMPT_MODES
            for t in (family, f"{family}_well_specified", f"{family}_detection")]


def _suite(_task: str, size: dict[str, Any]) -> Runs:
    return [
        ("logic_mt", dict(size)), ("gsme_mt_ext", dict(size)), ("genereg_mt", dict(size)),
        ("clinguide_mt", {"per_k": max(size["per_k"], 1)}),
        ("logic_k_prediction", dict(size)), ("logic_mss", dict(size)),
        ("logic_mss", {**size, "k_given": True}),
        ("logic_q", dict(size)), ("logic_q_well_specified", dict(size)),
        ("logic_q_detection", dict(size)),
        ("gsme_mt_ext_k_prediction", dict(size)), ("gsme_mt_ext_mss", dict(size)),
    ]


SEEK_DEFAULT = "logic_mt"

RECIPES = {r.name: r for r in (
    Recipe("oracles", "adversarial, cooperative and random oracles",
           _settings("oracle", ORACLE_POLICIES), {"oracle": ORACLE_POLICIES}, SEEK_DEFAULT),
    Recipe("budgets", "no budget, 1x4, 2x2, 4x1 and 10x1 turns x queries", _budgets,
           {"budget": BOTH, "max_turns": ANY_VALUE, "queries_per_turn": ANY_VALUE},
           SEEK_DEFAULT),
    Recipe("force_ask", "answers before k queries rejected, or not",
           _settings("force_ask", BOTH), {"force_ask": BOTH}, SEEK_DEFAULT),
    Recipe("forbid_alternatives", "non-canonical MSS variables askable, or not",
           _settings("forbid_alternatives", (True, False)), {"forbid_alternatives": BOTH},
           SEEK_DEFAULT),
    Recipe("prompt_modes", "zero-shot, step-by-step and four-shot question selection",
           _prompt_modes, {"prompt": PROMPT_MODES}, "logic_q",
           siblings=("_well_specified", "_detection")),
    Recipe("suite", "every headline task at a modest size", _suite),
)}


def recipe_runs(name: str, task: str | None = None, per_k: int = 10,
                tasks: TaskFactories | None = None) -> Runs:
    """The (task, arguments) runs of a recipe; `tasks` (name -> task function, default
    `sweep_tasks`) is where the tasks it may vary are looked for."""
    if name not in RECIPES:
        raise SweepError(f"unknown sweep {name!r}; choose one of {', '.join(RECIPES)}")
    recipe = RECIPES[name]
    size = {"per_k": per_k}
    if not recipe.sets:
        if task is not None:
            raise SweepError(f"sweep {name} cannot vary {task}; --task takes nothing here")
        return recipe.runs("", size)
    choices = recipe.tasks(tasks)
    if task is not None and task not in choices:
        raise SweepError(f"sweep {name} cannot vary {task}; --task takes "
                         + (", ".join(choices) or "no registered task"))
    if task is None and not choices:
        raise SweepError(f"sweep {name}: no registered task takes "
                         + ", ".join(recipe.sets))
    return recipe.runs(task or choices[0], size)


def run_sweep(name: str, models: Sequence[str], log_dir: str, *, task: str | None = None,
              per_k: int = 10, max_samples: int | None = None,
              display: str | None = None, shard: str | None = None) -> bool:
    """Run a recipe with `inspect_ai.eval_set` into `log_dir`; True when every run
    finished. Everything is checked before the first run starts (`check_log_dir`,
    `check_models`, each task made with its arguments), each problem a `SweepError`
    saying what to fix. The splits the runs read are built before any task is made,
    each once and several at a time (one process per CPU;
    `infoseek.builders.datasets.made_after_builds`), so the eval set starts on cached
    data. `shard` (``i/n``): every run keeps only that share of its
    samples (`infoseek.shards`; `infoseek sweep --workers n` runs the n shares)."""
    import inspect_ai

    from infoseek.builders.datasets import made_after_builds
    from infoseek.inspect_tasks.task_parameters import (
        TaskParameterError,
        checked_shard,
        shard_task,
    )

    registered = sweep_tasks()
    runs = recipe_runs(name, task, per_k, registered)
    missing = sorted({t for t, _ in runs if t not in registered})
    if missing:
        raise SweepError(f"sweep {name} needs tasks that are not registered: "
                         + ", ".join(missing))
    check_log_dir(log_dir)
    check_models(models)
    tasks = made_after_builds([functools.partial(made_task, registered[t], t, args)
                               for t, args in runs])
    if shard is not None:
        try:
            share = checked_shard(shard)
            tasks = [shard_task(made, share) for made in tasks]
        except TaskParameterError as exc:
            raise SweepError(str(exc)) from None
    options: dict[str, Any] = {}
    if max_samples is not None:
        options["max_samples"] = max_samples
    if display is not None:
        options["display"] = display
    try:
        success, _logs = inspect_ai.eval_set(tasks, log_dir=log_dir, model=list(models),
                                             **options)
    except PrerequisiteError as exc:  # Inspect refused to start: its reason, in one line
        raise SweepError(_refusal(exc, log_dir)) from None
    return bool(success)


def build_splits(name: str, task: str | None = None, per_k: int = 10,
                 workers: int = 1) -> None:
    """Build every split the recipe's runs read into the dataset cache, each once and
    several at a time (`infoseek.builders.datasets.made_after_builds`): what `infoseek
    sweep --workers N` does before it starts its N processes, so that they all read the
    cache rather than build the same splits N times over. A run with fewer samples than
    `workers` would leave a share empty: a `SweepError` naming the run and what to change,
    before any worker starts."""
    from infoseek.builders.datasets import made_after_builds

    registered = sweep_tasks()
    runs = [(t, args) for t, args in recipe_runs(name, task, per_k, registered)
            if t in registered]
    tasks = made_after_builds([functools.partial(made_task, registered[t], t, args)
                               for t, args in runs])
    for (run_task, args), made in zip(runs, tasks):
        count = len(made.dataset)
        if count < workers:
            raise SweepError(
                f"--workers {workers} needs at least {workers} samples in every run, and "
                f"{run_task} {args} has {count} at --per-k {per_k}: every worker runs a "
                f"share of each run's samples, so use --workers {max(count, 1)} or a "
                "larger --per-k")


def _refusal(exc: Exception, log_dir: str) -> str:
    """Inspect's reason for not starting the eval set, in one line; a log folder holding
    logs of other runs is said in the sweep's words (it has no option to allow them)."""
    text = " ".join(str(getattr(exc, "message", None) or exc).split())
    if "not associated with a task passed to eval_set" in text:
        log = text.split("'")[1] if text.count("'") >= 2 else "a log"
        return (f"--log-dir {log_dir} holds logs that are not runs of this sweep ({log}); "
                "a sweep needs a log folder of its own: choose another --log-dir")
    return text


def check_log_dir(log_dir: str) -> None:
    """The log folder can be written (`infoseek.cli_files.folder_problem`: not empty,
    not a file or a device, nor under one) and every log already in it can be read (the
    resumed sweep reads them all; a corrupt one would stop it with a traceback)."""
    from inspect_ai.log import list_eval_logs, read_eval_log

    from infoseek.cli_files import folder_problem

    problem = folder_problem(log_dir, "--log-dir")
    if problem is not None:
        raise SweepError(problem)
    if not Path(log_dir).is_dir():
        return
    for info in list_eval_logs(log_dir):
        path = _local_path(info.name)
        try:
            read_eval_log(info, header_only=True)
        except Exception as exc:  # any unreadable log: one line, never a traceback
            raise SweepError(
                f"--log-dir {log_dir} holds a log that cannot be read: {path} "
                f"({_first_line(exc)}); move it out of the folder or choose another "
                "--log-dir") from None


def check_models(models: Sequence[str]) -> None:
    """Every model can be made (a known provider, its prerequisites such as an API key
    present): Inspect's own message for the first that cannot, in one line."""
    from inspect_ai.model import get_model

    for model in models:
        try:
            get_model(model)
        except Exception as exc:  # a provider's own failure: one line naming the model
            raise SweepError(f"--model {model}: {_first_line(exc)}") from None


SWEEP_OPTIONS = {"per_k": "--per-k"}
"""Task arguments the sweep sets from its own options (named in an error about them)."""


def made_task(factory: Callable[..., Any], task: str, args: dict[str, Any]) -> Any:
    """The task of one run; a task argument it refuses (`-T per_k` above the task's cap)
    is a `SweepError` naming the sweep option to change."""
    try:
        return factory(**args)
    except ValueError as exc:
        text = _first_line(exc)
        for argument, option in SWEEP_OPTIONS.items():
            if text.startswith(f"-T {argument} "):
                raise SweepError(f"{option} {args.get(argument)} does not fit {task}: "
                                 f"{text}") from None
        raise SweepError(f"{task} cannot run with {args}: {text}") from None


def _first_line(exc: BaseException) -> str:
    text = str(exc).strip()
    return text.splitlines()[0][:300] if text else type(exc).__name__


def _local_path(name: str) -> str:
    """A log's location as Inspect lists it, as a local path when it is a file URL."""
    if name.startswith("file://"):
        from urllib.parse import unquote, urlparse

        return unquote(urlparse(name).path)
    return name
