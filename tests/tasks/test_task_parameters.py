"""Bad `-T` values: one clear line naming the parameter and what is allowed (issue 8,
item 11). The task functions raise `TaskParameterError` (an Inspect `PrerequisiteError`,
printed alone by `inspect eval`, and a `ValueError`); a subprocess run checks what the
command line shows."""

from __future__ import annotations

import inspect as pyinspect
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from infoseek.inspect_tasks.gsm_mt import gsm_mt, gsm_mt_full
from infoseek.inspect_tasks.gsme_mt import gsme_mt, gsme_mt_full, gsme_mt_k_prediction, gsme_mt_mss
from infoseek.inspect_tasks.gsme_mt_ext import (
    gsme_mt_ext,
    gsme_mt_ext_full,
    gsme_mt_ext_k_prediction,
    gsme_mt_ext_mss,
)
from infoseek.inspect_tasks.incomplete_questions import incomplete_questions
from infoseek.inspect_tasks.inspect_private import PrerequisiteError
from infoseek.inspect_tasks.logic_k_prediction import logic_k_prediction
from infoseek.inspect_tasks.logic_mss import logic_mss
from infoseek.inspect_tasks.logic_mt import logic_mt
from infoseek.inspect_tasks.task_parameters import TaskParameterError

ROOT = Path(__file__).resolve().parents[2]
LOGIC_TASKS = [logic_mt, logic_k_prediction, logic_mss]
MATH_TASKS = [gsm_mt, gsm_mt_full, gsme_mt, gsme_mt_full, gsme_mt_k_prediction, gsme_mt_mss,
              gsme_mt_ext, gsme_mt_ext_full, gsme_mt_ext_k_prediction, gsme_mt_ext_mss]
ALL_TASKS = [*LOGIC_TASKS, *MATH_TASKS, incomplete_questions]


def refused(task, **params) -> str:
    with pytest.raises(TaskParameterError) as info:
        task(**params)
    error = info.value
    assert isinstance(error, PrerequisiteError) and isinstance(error, ValueError)
    message = str(error)
    assert "\n" not in message
    return message


def parameters_of(task) -> dict[str, pyinspect.Parameter]:
    return dict(pyinspect.signature(task).parameters)


@pytest.mark.parametrize(("params", "expected"), [
    ({"k": [9]}, "-T k must be an integer from 1 to 5 or a list of them (2 or [1,2]); got [9]"),
    ({"k": "abc"}, "-T k must be an integer from 1 to 5 or a list of them (2 or [1,2]); "
                   "got 'abc'"),
    ({"per_k": 0}, "-T per_k must be an integer >= 1; got 0"),
    ({"oracle": "bogus"}, "-T oracle must be one of adversarial, cooperative, random, "
                          "withholding, withholding_all; "
                          "got 'bogus'"),
    ({"oracle": "world"}, "-T oracle must be one of adversarial, cooperative, random, "
                          "withholding, withholding_all; "
                          "got 'world'"),
    ({"format": "xml"}, "-T format must be one of tool, text; got 'xml'"),
    ({"max_turns": 0}, "-T max_turns must be an integer >= 1; got 0"),
    ({"queries_per_turn": "two"}, "-T queries_per_turn must be an integer >= 1; got 'two'"),
    ({"seed": "abc"}, "-T seed must be an integer; got 'abc'"),
    ({"budget": "banana"}, "-T budget must be true or false; got 'banana'"),
    ({"force_ask": "nope"}, "-T force_ask must be true or false; got 'nope'"),
    ({"source_format": "records"}, "-T source_format needs -T source=FILE (it applies to a "
                                   "source file; got source_format='records' without a "
                                   "source)"),
])
def test_logic_mt_refuses_each_bad_value_in_one_line(params, expected) -> None:
    assert refused(logic_mt, **params) == expected


def test_a_source_format_in_format_points_to_source_format() -> None:
    message = refused(gsme_mt_ext, format="mt-infoseek-gsme-ext")
    assert message.startswith("-T format=mt-infoseek-gsme-ext is a source format (a data "
                              "file's layout): pass it as source_format=mt-infoseek-gsme-ext")


@pytest.mark.parametrize("task", ALL_TASKS, ids=lambda t: t.__name__)
def test_every_bool_parameter_of_every_task_refuses_a_string(task) -> None:
    flags = [name for name, p in parameters_of(task).items() if p.annotation in (bool, "bool")]
    if task.__name__.endswith(("_mt", "_full", "_mss")):
        assert flags
    for name in flags:
        message = refused(task, **{name: "nope"})
        assert message == f"-T {name} must be true or false; got 'nope'"


@pytest.mark.parametrize("task", ALL_TASKS, ids=lambda t: t.__name__)
def test_every_integer_parameter_of_every_task_refuses_garbage(task) -> None:
    for name, p in parameters_of(task).items():
        if name == "k" or p.annotation not in (int, "int", "int | None"):
            continue
        message = refused(task, **{name: "abc"})
        assert message.startswith(f"-T {name} must be an integer") and "'abc'" in message


@pytest.mark.parametrize("task", [*LOGIC_TASKS, *MATH_TASKS], ids=lambda t: t.__name__)
def test_every_task_refuses_a_k_outside_its_builder(task) -> None:
    for bad in ([9], "abc", 0, [], True, "1,x"):
        assert refused(task, k=bad).startswith("-T k must be an integer from 1 to ")


@pytest.mark.parametrize("task", [*LOGIC_TASKS, *MATH_TASKS], ids=lambda t: t.__name__)
def test_limit_without_source_takes_the_first_problems_of_the_split(task) -> None:
    """Only those are built (infoseek.builders.datasets; the records are the split's)."""
    problems = {json.loads(s.metadata["problem"])["id"] for s in task(limit=2).dataset}
    assert 1 <= len(problems) <= 2
    assert all("k1" in problem for problem in problems)  # the first k's first problems
    assert refused(task, limit=0).startswith("-T limit must be an integer >= 1")


@pytest.mark.parametrize("task", [gsm_mt, gsme_mt, gsme_mt_ext], ids=lambda t: t.__name__)
def test_math_seek_tasks_accept_only_the_world_oracle(task) -> None:
    for policy in ("adversarial", "cooperative", "random", "bogus"):
        assert refused(task, oracle=policy) == (f"-T oracle must be one of world, withholding, "
                                                f"withholding_all; "
                                                f"got {policy!r}")
    built = task(k=1, per_k=1, oracle="world")
    assert len(built.dataset) == 1
    assert len(task(k=1, per_k=1, oracle="withholding").dataset) == 1


@pytest.mark.parametrize("policy", ["adversarial", "cooperative", "random", "withholding"])
def test_logic_mt_accepts_each_of_its_oracles(policy: str) -> None:
    built = logic_mt(k=1, per_k=1, oracle=policy)
    assert len(built.dataset) >= 1


def test_yaml_booleans_and_a_k_string_still_work() -> None:
    built = logic_mt(k="1", per_k=1, budget=True, force_ask=False)
    assert {s.metadata["k"] for s in built.dataset} == {1}


def test_incomplete_questions_names_its_choices() -> None:
    assert refused(incomplete_questions, variant="odd") == (
        "-T variant must be one of raw, questionable, full; got 'odd'")
    assert refused(incomplete_questions, format="xml") == (
        "-T format must be one of text, tool; got 'xml'")
    assert refused(incomplete_questions, max_interactions=-1) == (
        "-T max_interactions must be an integer >= 0; got -1")


def run_inspect(*args: str) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "COLUMNS": "300"}
    return subprocess.run(
        [sys.executable, "-m", "inspect_ai", "eval", *args, "--model", "infoseek/optimal",
         "--limit", "1"],
        cwd=ROOT, env=env, capture_output=True, text=True, timeout=120)


@pytest.mark.parametrize(("task_file", "param", "expected"), [
    ("inspect_tasks/logic_mt.py", "k=abc",
     "-T k must be an integer from 1 to 5 or a list of them (2 or [1,2]); got 'abc'"),
    ("inspect_tasks/gsme_mt_ext.py", "budget=banana",
     "-T budget must be true or false; got 'banana'"),
])
def test_inspect_eval_prints_one_line_and_fails(task_file: str, param: str,
                                                expected: str) -> None:
    done = run_inspect(task_file, "-T", param)
    assert done.returncode != 0
    lines = [line for line in (done.stdout + done.stderr).splitlines() if line.strip()]
    assert lines == [expected]


@pytest.mark.parametrize(("task", "k", "offered"), [
    (logic_k_prediction, 5, 5), (logic_k_prediction, 1, 4), (gsme_mt_ext_k_prediction, 6, 6),
    (gsme_mt_k_prediction, 2, 4),
], ids=lambda v: getattr(v, "__name__", str(v)))
def test_k_prediction_offers_every_k_the_task_holds(task, k: int, offered: int,
                                                    tmp_path) -> None:
    from inspect_ai import eval

    [log] = eval(task(k=k, per_k=1), model="infoseek/optimal", log_dir=str(tmp_path),
                 display="none")
    prompt = next(m.text for m in log.samples[0].messages if m.role == "user")
    assert f"Answer: {offered}\n" in prompt and f"Answer: {offered + 1}\n" not in prompt
    assert log.samples[0].scores
