"""Every packaged task run once, tiny: what the task-log and eval-version tests read."""

from __future__ import annotations

import inspect
from pathlib import Path

from inspect_ai import Task
from inspect_ai import eval as inspect_eval
from inspect_ai.log import EvalLog

from infoseek.inspect_tasks._registry import PACKAGED_TASKS

TINY = {"k": [1], "per_k": 1, "count": 1}
"""The smallest split each task accepts (only the parameters a task has are passed)."""


def tiny_task(name: str) -> Task:
    """The packaged task `name` over its smallest split (`TINY`)."""
    factory = PACKAGED_TASKS[name]
    parameters = inspect.signature(factory).parameters
    return factory(**{key: value for key, value in TINY.items() if key in parameters})


def run_tiny_tasks(log_dir: Path) -> dict[str, EvalLog]:
    """Every packaged task run tiny (`limit=1`, `infoseek/optimal`) into `log_dir`, its
    log by bare task name; fails unless every run succeeds."""
    names = sorted(PACKAGED_TASKS)
    results = inspect_eval([tiny_task(name) for name in names], model="infoseek/optimal",
                           limit=1, log_dir=str(log_dir), display="none")
    assert [log.status for log in results] == ["success"] * len(names)
    by_task = {log.eval.task: log for log in results}
    assert sorted(by_task) == names
    return by_task
