"""Inspect's `react()` agent plays the seek tasks through the real `ask` / `answer` tools
(`-T solver=react`, `infoseek.solvers.seek.tools`) and leaves the same episode as the
built-in loop: on the same scripted conversation the two runs store the same turn
records, options and final answer and get the same scores, in every seek domain; and
`infoseek/optimal` behind `react()` scores 1.0 on the headline metrics.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import partial
from typing import Any

import pytest
from inspect_ai import Task, task_with
from inspect_ai.agent import react
from inspect_ai.model import ModelOutput

from infoseek.inspect_tasks.clinguide_mt import clinguide_mt
from infoseek.inspect_tasks.genereg_mt import genereg_mt
from infoseek.inspect_tasks.logic_mt import logic_mt
from infoseek.inspect_tasks.planning_mt import planning_mt
from infoseek.inspect_tasks.task_parameters import TaskParameterError
from infoseek.record_views import askable_variables
from infoseek.solvers.reference.models import answer_label
from infoseek.solvers.seek.game import SeekOptions
from infoseek.solvers.seek.tools import agent_message_limit, seek_continue, seek_tools
from infoseek.stored_forms import sample_problem
from tests.support.agent_play import episode_of, loop_and_agent, played, scripted
from tests.support.common import text_output, tool_output

pytestmark = pytest.mark.usefixtures("no_tokenizer")

TASKS: dict[str, Callable[..., Task]] = {
    "logic_mt": partial(logic_mt, k=1, per_k=1),
    "genereg_mt": partial(genereg_mt, k=1, per_k=1),
    "clinguide_mt": partial(clinguide_mt, k=1, per_k=1),
    "planning_mt": partial(planning_mt, k=2, per_k=1),
}


def first_sample(make: Callable[..., Task]) -> tuple[dict[str, Any], Any]:
    """The problem of the task's first sample and its hidden target value."""
    metadata = make().dataset[0].metadata
    problem = sample_problem(metadata)
    return problem, metadata.get("target_value", problem.get("answer"))


def ask(variable: str) -> ModelOutput:
    return tool_output(("ask", {"variable": variable}))


def answer(value: str) -> ModelOutput:
    return tool_output(("answer", {"value": value}))


def scripts(problem: dict[str, Any], target: Any) -> dict[str, tuple[dict, list]]:
    """Scripted conversations with the task options they run under: a mixed one (a
    valid question, a turn with no tool call, an unknown variable, the answer), one that
    reaches the turn cap, and an early answer under force-ask."""
    first, *rest = askable_variables(problem, False)
    second = rest[0] if rest else first
    right = answer_label(problem, target)
    return {
        "mixed": ({}, [ask(first), text_output("Let me think about it."),
                       ask("no_such_variable_here"), answer(right)]),
        "turn_cap": ({"max_turns": 1}, [ask(first), ask(second)]),
        "force_ask": ({"force_ask": True}, [answer(right), ask(first), ask(second),
                                             answer(right)]),
    }


@pytest.mark.parametrize("script", ["mixed", "turn_cap", "force_ask"])
@pytest.mark.parametrize("name", list(TASKS))
def test_react_and_the_loop_leave_the_same_episode(name, script, tmp_path):
    make = TASKS[name]
    options, outputs = scripts(*first_sample(make))[script]
    loop, agent = loop_and_agent(lambda solver: make(solver=solver, **options),
                                 lambda: scripted(outputs), tmp_path, limit=1)
    assert [episode_of(s) for s in agent] == [episode_of(s) for s in loop]
    turns = episode_of(loop[0])["store"]["infoseek:turns"]
    assert len(turns) == {"mixed": 4, "turn_cap": 2, "force_ask": 4}[script]
    if script == "turn_cap":
        assert turns[-1]["final_turn"] and turns[-1]["queries"][0]["reason"] == "too_many"
    if script == "force_ask":
        assert turns[0]["reason"] == "early_answer"


def test_the_tool_replies_are_the_oracle_replies(tmp_path):
    """The agent's conversation: each `ask` call's tool message is the reply the turn
    record holds; a turn with no call gets the loop's correction as a user message."""
    problem, target = first_sample(TASKS["logic_mt"])
    _, outputs = scripts(problem, target)["mixed"]
    _, [sample] = loop_and_agent(lambda solver: TASKS["logic_mt"](solver=solver),
                                 lambda: scripted(outputs), tmp_path, limit=1)
    turns = episode_of(sample)["store"]["infoseek:turns"]
    tool_texts = [m.text for m in sample.messages if m.role == "tool"]
    assert tool_texts[0] == turns[0]["queries"][0]["reply"]
    assert tool_texts[1] == turns[2]["queries"][0]["reply"]
    assert sample.store["infoseek:final"]["turn"] == 4


@pytest.mark.parametrize("name", list(TASKS))
def test_optimal_behind_react_scores_one(name, tmp_path):
    make = TASKS[name]
    loop, agent = loop_and_agent(lambda solver: make(solver=solver),
                                 lambda: "infoseek/optimal", tmp_path, limit=2)
    assert [episode_of(s) for s in agent] == [episode_of(s) for s in loop]
    for sample in agent:
        assert sample.scores["sufficiency"].value["final_sufficiency"] == 1.0
        assert sample.scores["final_answer"].value["accuracy"] == 1.0
        assert sample.scores["invalid"].value["invalid_total"] == 0.0


def test_react_in_the_text_format_plays_the_same_turns(tmp_path):
    """No tools offered: the agent's text turns are read as the loop reads them."""
    problem, target = first_sample(TASKS["logic_mt"])
    first = askable_variables(problem, False)[0]
    outputs = [text_output(f"Question: Is {problem.get('entity', 'Alice')} {first}?"),
               text_output("Hmm."), text_output(f"Answer: {answer_label(problem, target)}")]
    loop, agent = loop_and_agent(lambda solver: TASKS["logic_mt"](format="text", solver=solver),
                                 lambda: scripted(outputs), tmp_path, limit=1)
    assert [episode_of(s) for s in agent] == [episode_of(s) for s in loop]
    assert [t["action"] for t in episode_of(loop[0])["store"]["infoseek:turns"]] == [
        "ask", "invalid", "answer"]
    assert not agent[0].output.message.tool_calls


def test_an_unknown_player_is_refused():
    with pytest.raises(TaskParameterError, match="solver"):
        logic_mt(k=1, per_k=1, solver="agent")


def test_the_documented_task_with_recipe(tmp_path):
    """docs/tasks/common.md: `task_with(task, solver=react(...))` with the seek tools and
    the continue check keeps the task's setup and leaves the loop's episode."""
    problem, target = first_sample(TASKS["logic_mt"])
    _, outputs = scripts(problem, target)["mixed"]
    agent = react(prompt=None, tools=[seek_tools()], submit=False, on_continue=seek_continue)

    def make(solver: str) -> Task:
        task = TASKS["logic_mt"]()
        if solver == "loop":
            return task
        return task_with(task, solver=agent, message_limit=agent_message_limit(SeekOptions()))

    loop, mine = loop_and_agent(make, lambda: scripted(outputs), tmp_path, limit=1)
    assert [episode_of(s) for s in mine] == [episode_of(s) for s in loop]


def test_a_call_after_the_episode_ended_records_nothing(tmp_path):
    """One turn per call (docs/tasks/common.md): an answer and a question in one message
    are two turns for an agent; the question comes after the episode ended, so it is a
    tool error and no turn record."""
    problem, target = first_sample(TASKS["logic_mt"])
    first = askable_variables(problem, False)[0]
    both = tool_output(("answer", {"value": answer_label(problem, target)}),
                       ("ask", {"variable": first}))
    [sample] = played(TASKS["logic_mt"](solver="react"), scripted([both]), str(tmp_path),
                      limit=1)
    turns = episode_of(sample)["store"]["infoseek:turns"]
    assert [t["action"] for t in turns] == ["answer"]
    [_, late] = [m for m in sample.messages if m.role == "tool"]
    assert late.error is not None and "episode is over" in late.error.message
