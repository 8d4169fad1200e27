"""`infoseek play TASK [-T NAME=VALUE ...]`: a person plays a task in the terminal.

The task runs through Inspect's own `eval`, as `inspect eval` would run it, with the model
`infoseek/human` (`infoseek.solvers.reference.human`): the same prompts, reading rules,
oracle and scorers as a model gets, and an ordinary Inspect log. The settings a person
needs are fixed here:

- the text format (``-T format=text``) for every task that has a ``format`` parameter
  (a person types text; no one can make a tool call), and a refusal of any other format;
- one sample at a time (``max_samples=1``, ``max_connections=1``), since a terminal holds
  one conversation;
- no Inspect display (``display="none"``), which would draw over the conversation.

Task arguments are read as Inspect's command line reads them (each value as YAML: ``k=1``
is the number 1). At the end `summary` says where the log is and each sample's scores.
"""

from __future__ import annotations

import inspect
import math
from collections.abc import Sequence
from typing import Any

import yaml
from inspect_ai import eval as inspect_eval
from inspect_ai.log import EvalLog

HUMAN_MODEL = "infoseek/human"
TEXT_FORMAT = "text"
SHOWN_KEYS = 6


class PlayError(ValueError):
    """A `play` request that cannot run; the message names what to fix."""


def parse_task_args(items: Sequence[str]) -> dict[str, Any]:
    """``NAME=VALUE`` items as task arguments, each value read as YAML (as ``inspect eval
    -T`` reads it)."""
    parsed: dict[str, Any] = {}
    for item in items:
        name, sep, value = item.partition("=")
        if not sep or not name.strip():
            raise PlayError(f"-T {item!r} must be NAME=VALUE (for example -T k=1)")
        parsed[name.strip()] = yaml.safe_load(value)
    return parsed


def resolve_task(task: str, task_args: dict[str, Any]) -> tuple[str, dict[str, Any]]:
    """The task's registry name (``logic_mt`` -> ``infoseek/logic_mt``) and its arguments
    with the text format set where the task has a ``format`` parameter."""
    from infoseek.inspect_tasks._registry import REGISTERED_TASKS, TASK_PREFIX

    name = task if "/" in task else f"{TASK_PREFIX}/{task}"
    factory = REGISTERED_TASKS.get(name)
    if factory is None:
        known = ", ".join(sorted(n.removeprefix(f"{TASK_PREFIX}/") for n in REGISTERED_TASKS))
        raise PlayError(f"unknown task {task!r}; the tasks are: {known}")
    args = dict(task_args)
    if "format" in inspect.signature(factory).parameters:
        chosen = args.setdefault("format", TEXT_FORMAT)
        if chosen != TEXT_FORMAT:
            raise PlayError(f"a person plays in the text format: drop -T format={chosen} "
                            "(play sets -T format=text)")
    return name, args


def play(task: str, task_args: dict[str, Any], *, limit: int | None = None,
         log_dir: str | None = None) -> EvalLog | None:
    """Run `task` with the person at the terminal as the model; the Inspect log, or None
    when the run was stopped (Ctrl-C: Inspect returns no log, and writes the one of the
    run so far, status ``cancelled``)."""
    name, args = resolve_task(task, task_args)
    logs = inspect_eval(name, model=HUMAN_MODEL, task_args=args, limit=limit,
                        log_dir=log_dir, max_samples=1, max_connections=1, display="none")
    return logs[0] if logs else None


def _shown(value: Any) -> str:
    if isinstance(value, float):
        return "nan" if math.isnan(value) else f"{value:g}"
    return str(value)


def _shown_dict(value: dict[str, Any]) -> str:
    defined = {key: item for key, item in value.items()
               if not (isinstance(item, float) and math.isnan(item))}
    if len(defined) > SHOWN_KEYS:
        zeros = [key for key in list(defined)[1:] if defined[key] == 0]
        for key in zeros:
            del defined[key]
        tail = [f"{len(zeros)} more at 0"] if zeros else []
    else:
        tail = []
    return ", ".join([*(f"{key}={_shown(item)}" for key, item in defined.items()), *tail])


def summary(log: EvalLog) -> str:
    """Where the log is, its status, and each sample's scores: a score's value that is a
    dict is shown key by key, leaving out the undefined (NaN) ones, and, when more than
    `SHOWN_KEYS` remain, the zeros after the first key (`invalid_total=0, 23 more at
    0`)."""
    lines = [f"log: {log.location}", f"status: {log.status}"]
    if log.error is not None:
        lines.append(f"error: {log.error.message}")
    for sample in log.samples or []:
        lines.append(f"sample {sample.id} (epoch {sample.epoch}):")
        for scorer, score in (sample.scores or {}).items():
            value = score.value
            if isinstance(value, dict):
                shown = _shown_dict(value)
            else:
                shown = _shown(value)
            lines.append(f"  {scorer}: {shown}")
    return "\n".join(lines)
