"""Every `-T` parameter of every task, whatever YAML made of it (issue 18, classes 7, 8
and 19): a list, a dict, null, a float, a boolean for a number, a huge or a negative
number is either a value the parameter takes or a one-line `TaskParameterError`, never
a traceback (`TypeError: unhashable type`) and never a build without end (`per_k` and the
other sizes are capped). The records are not built here: loading them is replaced by a
stop, so a value that passes the checks ends in `ReachedLoading`."""

from __future__ import annotations

import inspect as pyinspect
import os
import subprocess
import sys
from pathlib import Path

import pytest

import infoseek.inspect_tasks.assembly as assembly
import infoseek.inspect_tasks.incomplete_questions as incomplete_task
import infoseek.inspect_tasks.single_turn_assembly as single_turn_assembly
from infoseek.domains import get_builder
from infoseek.inspect_tasks._registry import PACKAGED_TASKS
from infoseek.inspect_tasks.task_parameters import CAPS, SEED_LIMIT, TaskParameterError

ROOT = Path(__file__).resolve().parents[2]
HUGE = 10**5000  # more digits than Python prints
TASKS = sorted(PACKAGED_TASKS.items())


class ReachedLoading(Exception):
    """The parameters passed their checks and the task went on to load its records (of
    the builder named in ``args``, when it loads through `domain_records`)."""


@pytest.fixture
def no_loading(monkeypatch: pytest.MonkeyPatch) -> None:
    def stop(*args, **kwargs):
        raise ReachedLoading(*args[:1])

    monkeypatch.setattr(assembly, "domain_records", stop)
    monkeypatch.setattr(single_turn_assembly, "domain_records", stop)
    monkeypatch.setattr(incomplete_task, "incomplete_records", stop)


def outcome(task, **params) -> str:
    """"loading" when the task accepted `params` (it went on to load its records, or
    built its task: a task that loads its records some other way), else the one-line
    refusal."""
    try:
        task(**params)
    except ReachedLoading:
        return "loading"
    except TaskParameterError as exc:
        message = str(exc)
        assert "\n" not in message and len(message) < 400, message
        return message
    return "loading"


def parameters(task) -> dict[str, pyinspect.Parameter]:
    return dict(pyinspect.signature(task).parameters)


def takes_none(name: str, parameter: pyinspect.Parameter) -> bool:
    """null means "the default" for `per_k` and for the parameters that default to None."""
    return parameter.default is None or name == "per_k"


def kind_of(parameter: pyinspect.Parameter) -> str:
    return str(parameter.annotation).replace("typing.", "")


@pytest.mark.parametrize(("name", "task"), TASKS, ids=[n for n, _ in TASKS])
def test_containers_null_and_floats_are_refused_in_one_line(no_loading, name, task) -> None:
    for param, parameter in parameters(task).items():
        bad = [{"x": 1}, {}, 2.5, [["deep"]]]
        if param != "k":
            bad += [["steady"], [], [1, 2]]
        if not takes_none(param, parameter):
            bad.append(None)
        for value in bad:
            message = outcome(task, **{param: value})
            assert message.startswith(f"-T {param}"), (name, param, value, message)


@pytest.mark.parametrize(("name", "task"), TASKS, ids=[n for n, _ in TASKS])
def test_numbers_are_bounded_and_typed(no_loading, name, task) -> None:
    for param, parameter in parameters(task).items():
        kind = kind_of(parameter)
        if kind.startswith("int") and param != "k":
            for value in (True, False, HUGE, -HUGE, "12"):
                message = outcome(task, **{param: value})
                assert message.startswith(f"-T {param} must be an integer"), (param, value)
            if param != "seed":
                message = outcome(task, **{param: -5})
                assert message.startswith(f"-T {param} must be"), (name, param, message)
        if kind == "bool":
            for value in (1, 0, "yes please", 2.0):
                assert outcome(task, **{param: value}) == (
                    f"-T {param} must be true or false; got {value!r}")


@pytest.mark.parametrize(("name", "task"), TASKS, ids=[n for n, _ in TASKS])
def test_every_choice_parameter_names_its_values(no_loading, name, task) -> None:
    choices = [p for p, parameter in parameters(task).items()
               if kind_of(parameter) == "str" and p not in ("format",)]
    for param in choices:
        for value in (["steady"], {"x": 1}, 7, "no-such-value"):
            message = outcome(task, **{param: value})
            assert message.startswith(f"-T {param} must be "), (name, param, message)
            assert "one of" in message or "must be world" in message, message


def test_a_seed_is_any_64_bit_integer(no_loading) -> None:
    task = PACKAGED_TASKS["logic_mt"]
    for seed in (-SEED_LIMIT, -1, 0, SEED_LIMIT):
        assert outcome(task, seed=seed) == "loading"
    assert outcome(task, seed=SEED_LIMIT + 1) == (
        "-T seed must be an integer from -(2**63 - 1) to 2**63 - 1; got 9223372036854775808")


@pytest.mark.parametrize(("name", "task"), TASKS, ids=[n for n, _ in TASKS])
def test_per_k_is_capped_at_the_builders_cap(no_loading, name, task) -> None:
    if "per_k" not in parameters(task):
        return
    with pytest.raises(ReachedLoading) as reached:
        task(per_k=1)
    if not reached.value.args:
        pytest.skip(f"{name} does not load through domain_records")
    cap = get_builder(reached.value.args[0])[1].max_per_k
    assert outcome(task, per_k=cap) == "loading"
    assert outcome(task, per_k=999_999_999) == (
        f"-T per_k must be an integer from 1 to {cap} (the cap for this task); "
        "got 999999999")


@pytest.mark.parametrize("param", sorted(CAPS))
def test_each_size_is_capped(no_loading, param) -> None:
    holders = [(n, t) for n, t in TASKS if param in parameters(t)]
    assert holders, f"no task has {param}"
    for name, task in holders:
        extra = {"source": "x.jsonl"} if param == "limit" else {}
        assert outcome(task, **{param: CAPS[param]}, **extra) == "loading", name
        message = outcome(task, **{param: CAPS[param] + 1}, **extra)
        assert message.endswith(f"(the cap for this task); got {CAPS[param] + 1}"), message


@pytest.mark.parametrize("name", ["logic_mt", "genereg_mt", "clinguide_mt", "gsme_mt"])
def test_force_ask_needs_turns_for_k_questions(no_loading, name) -> None:
    task = PACKAGED_TASKS[name]
    oracle = {"oracle": "world"} if name == "gsme_mt" else {}
    message = outcome(task, k=[1, 3], force_ask=True, max_turns=2, **oracle)
    assert message == ("-T force_ask=true needs max_turns * queries_per_turn >= k (k=3 "
                       "questions must fit in the turns); got max_turns=2, "
                       "queries_per_turn=1")
    assert outcome(task, k=[1, 3], force_ask=True, max_turns=3, **oracle) == "loading"
    assert outcome(task, k=[1, 3], force_ask=True, max_turns=2, queries_per_turn=2,
                   **oracle) == "loading"
    assert outcome(task, k=[1, 3], force_ask=False, max_turns=1, **oracle) == "loading"


def run_inspect(*args: str) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "COLUMNS": "300"}
    return subprocess.run(
        [sys.executable, "-m", "inspect_ai", "eval", *args, "--model", "infoseek/optimal",
         "--limit", "1"],
        cwd=ROOT, env=env, capture_output=True, text=True, timeout=120)


@pytest.mark.parametrize(("task", "param", "expected"), [
    ("infoseek/genereg_mt", "family=[steady]",
     "-T family must be one of steady, dynamic, both; got ['steady']"),
    ("infoseek/clinguide_mt", "book={x: 1}",
     "-T book must be one of closed, open; got {'x': 1}"),
    ("infoseek/logic_mt", "per_k=999999999",
     "-T per_k must be an integer from 1 to 10000 (the cap for this task); got 999999999"),
])
def test_inspect_eval_prints_the_one_line(task: str, param: str, expected: str) -> None:
    done = run_inspect(task, "-T", param)
    assert done.returncode != 0
    lines = [line for line in (done.stdout + done.stderr).splitlines() if line.strip()]
    assert lines == [expected]


def test_a_mockllm_role_that_cannot_run_is_refused(monkeypatch, tmp_path) -> None:
    from inspect_ai.model import ModelOutput, get_model

    import infoseek.inspect_tasks.task_parameters as task_parameters

    monkeypatch.setenv("TIKTOKEN_CACHE_DIR", str(tmp_path))  # empty: nothing cached
    monkeypatch.setattr(task_parameters, "_encoding_cached", lambda: False)
    default = get_model("mockllm/model", memoize=False)
    monkeypatch.setattr(task_parameters, "given_model_roles", lambda: {"judge": default})
    with pytest.raises(TaskParameterError) as info:
        PACKAGED_TASKS["incomplete_questions"](count=1)
    assert str(info.value).startswith(
        "--model-role judge=mockllm/model cannot run offline: mockllm's default replies "
        "carry no token usage")
    scripted = get_model("mockllm/model", memoize=False,
                         custom_outputs=[ModelOutput.from_content("mockllm", "no")])
    monkeypatch.setattr(task_parameters, "given_model_roles", lambda: {"judge": scripted})
    task_parameters.check_model_roles()  # custom outputs: left alone
    monkeypatch.setattr(task_parameters, "given_model_roles", lambda: {"judge": default})
    monkeypatch.setattr(task_parameters, "_encoding_cached", lambda: True)
    task_parameters.check_model_roles()  # the encoding is here: mockllm runs


def test_the_tokenizer_cache_is_looked_up_where_tiktoken_keeps_it(monkeypatch,
                                                                    tmp_path) -> None:
    import hashlib

    import infoseek.inspect_tasks.task_parameters as task_parameters

    monkeypatch.setenv("TIKTOKEN_CACHE_DIR", str(tmp_path))
    monkeypatch.setattr("tiktoken.registry.ENCODINGS", {})
    assert not task_parameters._encoding_cached()
    name = hashlib.sha1(task_parameters.TIKTOKEN_ENCODING.encode()).hexdigest()
    (tmp_path / name).write_bytes(b"cached")
    assert task_parameters._encoding_cached()


def test_inspect_eval_refuses_a_mockllm_role_in_one_line(tmp_path) -> None:
    env = {**os.environ, "COLUMNS": "400", "TIKTOKEN_CACHE_DIR": str(tmp_path)}
    done = subprocess.run(
        [sys.executable, "-m", "inspect_ai", "eval", "infoseek/logic_mt", "-T", "per_k=1",
         "--model", "infoseek/optimal", "--model-role", "matcher=mockllm/model",
         "--log-dir", str(tmp_path / "logs")],
        cwd=ROOT, env=env, capture_output=True, text=True, timeout=120)
    assert done.returncode != 0
    lines = [line for line in (done.stdout + done.stderr).splitlines() if line.strip()]
    assert len(lines) == 1 and lines[0].startswith(
        "--model-role matcher=mockllm/model cannot run offline")
