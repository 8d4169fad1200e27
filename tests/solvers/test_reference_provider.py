"""The `infoseek/...` reference model provider and the Inspect plumbing around it.

Every eval here is a real `inspect_ai.eval` run on a throwaway one- or two-sample task,
fully offline: outputs carry usage, and the tokenizer is made to fail if Inspect ever
reaches for it.
"""

from __future__ import annotations

import asyncio
import os
import subprocess
import sys
import textwrap
import threading
import time
import uuid
from typing import Any

import pytest
from inspect_ai import Task, eval
from inspect_ai.dataset import Sample
from inspect_ai.log import EvalLog
from inspect_ai.model import (
    ChatMessageAssistant,
    ChatMessageTool,
    ModelOutput,
    ModelUsage,
    get_model,
)
from inspect_ai.scorer import Score, Target, mean, scorer
from inspect_ai.solver import Generate, TaskState, solver
from inspect_ai.tool import Tool, tool
from inspect_ai.util import registry_info, store

from infoseek.inspect_tasks import _registry
from infoseek.solvers.reference import strategy as reference_strategy
from infoseek.solvers.reference.models import REQUIRED_STORE_KEYS, ReferenceModelAPI
from infoseek.solvers.text_format import render_text_action
from infoseek.stored_forms import stored_problem

PROBLEMS = {
    "p1": {"id": "p1", "domain": "logic", "entity": "Alice", "target": "adorable",
           "queryable": ["kind", "tall"]},
    "p2": {"id": "p2", "domain": "logic", "entity": "Bob", "target": "hungry",
           "queryable": ["cold"]},
}


# --- a throwaway task: tools, a two-turn solver that writes the store, a trivial scorer --


@tool
def ask() -> Tool:
    async def execute(variable: str) -> str:
        """Ask for the value of one variable.

        Args:
            variable: Name of the variable to ask about.
        """
        return f"You asked about {variable}."

    return execute


@tool
def answer() -> Tool:
    async def execute(value: str) -> str:
        """Give the final answer.

        Args:
            value: The value of the target.
        """
        return "Answer recorded."

    return execute


@solver
def two_turn_episode(fmt: str, offer_tools: bool):
    """Write the episode into the store before each generate call, like the real loop."""

    async def solve(state: TaskState, generate: Generate) -> TaskState:
        sample_store = store()
        sample_store.set("infoseek:protocol", "seek")
        sample_store.set("infoseek:problem", stored_problem(PROBLEMS[state.metadata["problem"]]))
        sample_store.set("infoseek:turns", [])
        sample_store.set(
            "infoseek:options",
            {"format": fmt, "queries_per_turn": 2, "max_turns": 3, "seed": 0},
        )
        if offer_tools:
            state.tools = [ask(), answer()]
        model = get_model()
        for turn in (1, 2):
            state.output = await model.generate(state.messages, state.tools)
            message = state.output.message
            state.messages.append(message)
            for call in message.tool_calls or []:
                state.messages.append(
                    ChatMessageTool(content="noted", tool_call_id=call.id, function=call.function)
                )
            turns = sample_store.get("infoseek:turns")
            sample_store.set("infoseek:turns", turns + [{"turn": turn, "action": "ask"}])
        return state

    return solve


@scorer(metrics=[mean()])
def always_one():
    async def score(state: TaskState, target: Target) -> Score:
        return Score(value=1.0)

    return score


def episode_task(fmt: str, offer_tools: bool, problems: tuple[str, ...] = ("p1",)) -> Task:
    return Task(
        dataset=[
            Sample(id=name, input=f"Solve problem {name}.", target="x", metadata={"problem": name})
            for name in problems
        ],
        solver=two_turn_episode(fmt, offer_tools),
        scorer=always_one(),
    )


def fake_decide(
    model_name: str,
    protocol: str,
    problem: dict[str, Any],
    turns: list[dict[str, Any]],
    options: dict[str, Any],
) -> dict[str, Any]:
    """First turn: ask every queryable variable; then answer (True for optimal)."""
    assert protocol == "seek"
    if not turns:
        return {"kind": "ask", "variables": list(problem["queryable"])}
    return {"kind": "answer", "value": model_name == "optimal"}


@pytest.fixture(autouse=True)
def offline(monkeypatch: pytest.MonkeyPatch, no_tokenizer: None) -> None:
    """Fake strategy in place, and any tokenizer use turned into a failure."""
    monkeypatch.setattr(reference_strategy, "decide", fake_decide)


def run_eval(tasks: Any, model: Any, tmp_path, **kwargs: Any) -> EvalLog:
    [log] = eval(
        tasks,
        model=model,
        log_dir=str(tmp_path),
        display="none",
        ctl_server=False,
        **kwargs,
    )
    assert log.status == "success", log.error
    assert log.samples
    return log


def assistant_messages(log: EvalLog, sample_id: str) -> list[ChatMessageAssistant]:
    [sample] = [sample for sample in log.samples if sample.id == sample_id]
    return [message for message in sample.messages if isinstance(message, ChatMessageAssistant)]


# --- the reference provider inside real evals ------------------------------------------


def test_optimal_calls_tools_when_tools_are_offered(tmp_path) -> None:
    log = run_eval(
        episode_task("tool", offer_tools=True, problems=("p1", "p2")), "infoseek/optimal", tmp_path
    )
    for sample_id, variables in (("p1", ["kind", "tall"]), ("p2", ["cold"])):
        first, second = assistant_messages(log, sample_id)
        assert [call.function for call in first.tool_calls] == ["ask"] * len(variables)
        assert [call.arguments for call in first.tool_calls] == [
            {"variable": name} for name in variables
        ]
        assert [(call.function, call.arguments) for call in second.tool_calls] == [
            ("answer", {"value": "yes"})
        ]
        ids = [call.id for message in (first, second) for call in message.tool_calls]
        assert len(set(ids)) == len(ids)
    [sample] = [sample for sample in log.samples if sample.id == "p1"]
    # a reference model calls nothing: usage is set (no tokenizer) and is zero
    assert sample.output.usage is not None and sample.output.usage.total_tokens == 0
    stats = log.stats.model_usage.get("infoseek/optimal")
    assert stats is None or stats.total_tokens == 0


def test_text_when_no_tools_are_offered(tmp_path) -> None:
    log = run_eval(episode_task("text", offer_tools=False), "infoseek/random", tmp_path)
    first, second = assistant_messages(log, "p1")
    assert not first.tool_calls and not second.tool_calls
    assert first.text == "Question: Is Alice kind?\nQuestion: Is Alice tall?"
    assert second.text == "Answer: Alice is not adorable."


def test_text_format_option_wins_over_offered_tools(tmp_path) -> None:
    log = run_eval(episode_task("text", offer_tools=True), "infoseek/optimal", tmp_path)
    first, second = assistant_messages(log, "p1")
    assert not first.tool_calls
    assert second.text == "Answer: Alice is adorable."


def test_outside_an_infoseek_task_the_output_explains_itself() -> None:
    model = get_model("infoseek/optimal")
    output = asyncio.run(model.generate("Is Alice kind?"))
    assert "sample store" in output.completion
    for key in REQUIRED_STORE_KEYS:
        assert key in output.completion
    assert output.usage is not None


def test_the_strategy_decides_in_a_worker_thread_one_decision_at_a_time(
        tmp_path, monkeypatch) -> None:
    """An exact search may take seconds (the hard logic split): it runs off the event
    loop, in a worker thread, and never beside another decision (the strategies' caches
    are shared), with the same outputs as on the loop."""
    seen: list[tuple[bool, bool]] = []
    running = threading.Lock()

    def recording_decide(*args: Any) -> dict[str, Any]:
        alone = running.acquire(blocking=False)
        try:
            asyncio.get_running_loop()
            on_loop = True
        except RuntimeError:
            on_loop = False
        time.sleep(0.01)  # room for a second decision to overlap, were it allowed to
        if alone:
            running.release()
        seen.append((on_loop, alone))
        return fake_decide(*args)

    monkeypatch.setattr(reference_strategy, "decide", recording_decide)
    log = run_eval(episode_task("tool", offer_tools=True, problems=("p1", "p2")),
                   "infoseek/optimal", tmp_path, max_connections=10)
    assert seen == [(False, True)] * 4  # two samples, two turns each
    first, second = assistant_messages(log, "p1")
    assert [call.arguments for call in first.tool_calls] == [{"variable": "kind"},
                                                             {"variable": "tall"}]
    assert [call.arguments for call in second.tool_calls] == [{"value": "yes"}]


def test_unknown_reference_model_lists_the_valid_names() -> None:
    with pytest.raises(ValueError, match="infoseek/optimal, infoseek/random"):
        ReferenceModelAPI(model_name="perfect")


# --- mockllm with scripted outputs ---------------------------------------------------


def test_mockllm_scripted_outputs_with_usage_run_offline(tmp_path) -> None:
    usage = ModelUsage(input_tokens=10, output_tokens=3, total_tokens=13)
    ask_kind = ModelOutput.for_tool_call(
        model="mockllm/model",
        tool_name="ask",
        tool_arguments={"variable": "kind"},
        tool_call_id="call-1",
    )
    ask_kind.usage = usage
    final = ModelOutput.from_content(model="mockllm/model", content="Answer: Alice is adorable.")
    final.usage = usage

    log = run_eval(
        episode_task("tool", offer_tools=True),
        "mockllm/model",
        tmp_path,
        model_args={"custom_outputs": [ask_kind, final]},
    )
    first, second = assistant_messages(log, "p1")
    assert [(call.function, call.arguments) for call in first.tool_calls] == [
        ("ask", {"variable": "kind"})
    ]
    assert second.text == "Answer: Alice is adorable."
    assert log.stats.model_usage["mockllm/model"].total_tokens == 26


# --- text rendering ----------------------------------------------------------------------


def test_render_text_action() -> None:
    problem = {"domain": "logic", "entity": "Bob", "target": "hungry"}
    assert render_text_action({"kind": "ask", "variables": ["cold"]}, problem) == (
        "Question: Is Bob cold?"
    )
    quantities = {"domain": "math", "target": "T"}
    assert render_text_action({"kind": "ask", "variables": ["A", "B"]}, quantities) == (
        "Question: What is A?\nQuestion: What is B?"
    )
    assert render_text_action({"kind": "answer", "value": True}, problem) == (
        "Answer: Bob is hungry."
    )
    assert render_text_action({"kind": "answer", "value": False}, {"target": "hungry"}) == (
        "Answer: Alice is not hungry."
    )
    assert render_text_action({"kind": "answer", "value": 42}, problem) == "Answer: 42"
    assert render_text_action({"kind": "text", "text": "2"}, problem) == "2"
    with pytest.raises(ValueError):
        render_text_action({"kind": "shrug"}, problem)


# --- the entry-point registry ------------------------------------------------------------


def write_task_package(tmp_path, monkeypatch: pytest.MonkeyPatch) -> str:
    """A throwaway package of task modules on sys.path; returns its import name."""
    package = f"fake_tasks_{uuid.uuid4().hex[:8]}"
    root = tmp_path / package
    root.mkdir()
    (root / "__init__.py").write_text("")
    (root / "demo.py").write_text(
        textwrap.dedent(
            f"""
            from inspect_ai import Task, task
            from inspect_ai.dataset import Sample
            from inspect_ai.model import get_model
            from inspect_ai.solver import solver
            from inspect_ai.util import store


            @solver
            def one_turn():
                async def solve(state, generate):
                    store().set("infoseek:protocol", "seek")
                    store().set("infoseek:problem",
                               {{"domain": "logic", "entity": "Alice", "queryable": ["kind"]}})
                    store().set("infoseek:turns", [])
                    store().set("infoseek:options", {{"format": "text"}})
                    state.output = await get_model().generate(state.messages)
                    state.messages.append(state.output.message)
                    return state

                return solve


            @task
            def demo_{package}(samples: int = 1):
                return Task(
                    dataset=[Sample(id=f"s{{i}}", input="Go.") for i in range(samples)],
                    solver=one_turn(),
                )
            """
        )
    )
    (root / "broken.py").write_text("import a_dependency_that_does_not_exist_xyz\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    return package


def test_registry_imports_task_modules_and_skips_absent_ones(tmp_path, monkeypatch) -> None:
    """A task module outside the infoseek package (a plug-in's) is imported and its task
    keeps the name Inspect gives it (bare here: the temporary package is not installed)."""
    package = write_task_package(tmp_path, monkeypatch)
    registered = _registry.import_task_modules([f"{package}.demo", f"{package}.absent"])
    name = f"demo_{package}"
    assert list(registered) == [name]
    assert registry_info(registered[name]).name == name


def test_infoseek_tasks_are_named_by_inspect_under_the_package_prefix(tmp_path) -> None:
    """No re-registration: Inspect itself names the installed package's tasks
    `infoseek/<name>`, and the log says so."""
    assert registry_info(_registry.PACKAGED_TASKS["logic_mt"]).name == "infoseek/logic_mt"
    log = run_eval("infoseek/logic_mt", "infoseek/optimal", tmp_path, limit=1)
    assert log.eval.task_registry_name == "infoseek/logic_mt"
    assert log.eval.task_file is None
    assert log.eval.packages.get("infoseek")


def test_registry_propagates_real_import_errors(tmp_path, monkeypatch) -> None:
    package = write_task_package(tmp_path, monkeypatch)
    with pytest.raises(ModuleNotFoundError, match="a_dependency_that_does_not_exist_xyz"):
        _registry.import_task_modules([f"{package}.broken"])


def test_a_stray_egg_info_that_hides_the_install_is_named(tmp_path) -> None:
    """An `infoseek.egg-info` folder first on sys.path makes Inspect think infoseek is not
    installed; the entry point then says so instead of registering bare task names."""
    stray = tmp_path / "infoseek.egg-info"
    stray.mkdir()
    (stray / "PKG-INFO").write_text("Metadata-Version: 2.1\nName: infoseek\nVersion: 0.1.0\n")
    done = subprocess.run(
        [sys.executable, "-c", "import infoseek.inspect_tasks._registry"],
        cwd=tmp_path, env={**os.environ, "PYTHONPATH": str(tmp_path)},
        capture_output=True, text=True, timeout=300)
    assert done.returncode != 0
    assert "RegistrationError" in done.stderr
    assert "egg-info" in done.stderr


def test_every_task_file_is_registered_by_the_walk_of_the_package() -> None:
    """Each inspect_tasks module with a @task is found by the registry's walk of the
    package, so every task is reachable as infoseek/<name>. Only the infoseek package's
    own modules are compared: an installed plug-in adds its own task modules."""
    from pathlib import Path

    folder = Path(_registry.__file__).resolve().parent
    with_tasks = sorted(f"infoseek.inspect_tasks.{p.stem}" for p in folder.glob("*.py")
                        if "\n@task" in p.read_text(encoding="utf-8"))
    ours = [m for m in _registry.task_module_names() if m.split(".")[0] == _registry.TASK_PREFIX]
    assert set(with_tasks) <= set(ours)
    for module in with_tasks:
        for name, _ in _registry.tasks_defined_in(__import__(module, fromlist=["x"])):
            assert name.startswith("infoseek/")
            assert name.removeprefix("infoseek/") in _registry.PACKAGED_TASKS
