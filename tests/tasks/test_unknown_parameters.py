"""A `-T` parameter a task does not take is an error (issue 31, item 5): one line naming
the parameter, the task and what the task takes, for every registered task, by name, by
file, in `eval-set`; Inspect alone only warns and runs the defaults. Every sweep passes
only parameters its tasks take."""

from __future__ import annotations

import inspect as pyinspect
import os
import subprocess
import sys
from pathlib import Path

import pytest
from inspect_ai import Task, task
from inspect_ai import eval as inspect_eval

from infoseek.inspect_tasks._registry import REGISTERED_TASKS
from infoseek.inspect_tasks.inspect_private import PrerequisiteError
from infoseek.inspect_tasks.report.sweeps import RECIPES, recipe_runs, sweep_tasks
from infoseek.inspect_tasks.task_parameters import (
    UnknownParameterError,
    closest_parameter,
    refuse_unknown_parameter,
    unknown_parameter_message,
)

ROOT = Path(__file__).resolve().parents[2]
TINY = {"k": [1], "per_k": 1, "count": 1}


def tiny_args(factory) -> dict:
    parameters = pyinspect.signature(factory).parameters
    return {key: value for key, value in TINY.items() if key in parameters}


@pytest.mark.parametrize("name", sorted(REGISTERED_TASKS))
def test_every_task_refuses_an_unknown_parameter_in_one_line(name: str) -> None:
    factory = REGISTERED_TASKS[name]
    with pytest.raises(UnknownParameterError) as info:
        inspect_eval(name, task_args={**tiny_args(factory), "no_such_param": 1},
                     model="infoseek/optimal", limit=1, display="none")
    error = info.value
    assert isinstance(error, PrerequisiteError) and isinstance(error, ValueError)
    message = str(error)
    assert "\n" not in message
    assert message.startswith(f"-T no_such_param is not a parameter of {name}")
    accepted = ", ".join(pyinspect.signature(factory).parameters)
    assert message.endswith(f"; {name} takes {accepted}")


def test_a_near_spelling_is_suggested_and_a_far_one_is_not() -> None:
    accepted = ["k", "per_k", "seed", "max_turns", "oracle"]
    assert closest_parameter("per_K", accepted) == "per_k"
    assert closest_parameter("max_turn", accepted) == "max_turns"
    assert closest_parameter("no_such_param", accepted) is None
    assert unknown_parameter_message("logic_mt", "per_K", accepted) == (
        "-T per_K is not a parameter of logic_mt (did you mean per_k?); logic_mt takes "
        "k, per_k, seed, max_turns, oracle")


def test_a_parameter_of_another_task_of_the_file_names_that_task() -> None:
    name = "infoseek/gsme_mt_ext_k_prediction"
    with pytest.raises(UnknownParameterError) as info:
        inspect_eval(name, task_args={"per_k": 1, "split": "hard"},
                     model="infoseek/optimal", limit=1, display="none")
    assert str(info.value).startswith(
        f"-T split is not a parameter of {name} (gsme_mt_ext of the same file takes it: "
        "name the tasks to run (file.py@task)); ")


@task
def not_ours() -> Task:
    return Task()


def test_a_task_of_somebody_else_keeps_inspects_warning() -> None:
    refuse_unknown_parameter("not_ours", "no_such_param", not_ours)  # no error


def test_the_known_parameters_still_run() -> None:
    logs = inspect_eval("infoseek/logic_mt", task_args={"k": [1], "per_k": 1},
                        model="infoseek/optimal", limit=1, display="none")
    assert logs[0].status == "success"


def cli(*args: str) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "COLUMNS": "1000"}
    inspect_cli = Path(sys.executable).with_name("inspect")
    return subprocess.run([str(inspect_cli), *args, "--model", "infoseek/optimal"],
                          cwd=ROOT, env=env, capture_output=True, text=True, timeout=300)


@pytest.mark.parametrize("command", [
    ("eval", "inspect_tasks/logic_mt.py", "-T", "per_K=1"),
    ("eval", "infoseek/twenty_questions", "-T", "per_K=1"),
    ("eval-set", "inspect_tasks/logic_mt.py@logic_mt", "-T", "per_K=1"),
], ids=["file", "name", "eval-set"])
def test_the_command_line_prints_one_line_and_fails(command, tmp_path) -> None:
    done = cli(*command, "--log-dir", str(tmp_path))
    assert done.returncode != 0
    lines = [line for line in (done.stdout + done.stderr).splitlines() if line.strip()]
    refusal = [line for line in lines if "-T per_K is not a parameter of" in line]
    assert len(refusal) == 1, lines
    assert "Traceback" not in done.stdout + done.stderr
    assert not list(tmp_path.rglob("*.eval"))


@pytest.mark.parametrize("recipe", sorted(RECIPES))
def test_every_sweep_passes_only_parameters_its_tasks_take(recipe: str) -> None:
    tasks = sweep_tasks()
    choices = RECIPES[recipe].tasks(tasks) or (None,)
    for chosen in choices:
        for name, args in recipe_runs(recipe, chosen, per_k=1, tasks=tasks):
            taken = pyinspect.signature(tasks[name]).parameters
            assert set(args) <= set(taken), (recipe, name, sorted(set(args) - set(taken)))
