"""Inspect's `react()` agent plays incomplete_questions through the real `ask_question`
tool and its text replies (`-T solver=react`, `infoseek.solvers.incomplete.tools`) and
leaves the same episode as the built-in solver: on the same scripted conversation the two
runs store the same turn records and options and get the same scores; `infoseek/optimal`
behind `react()` is right on every sample; and the tool no longer shares its name with
Inspect's built-in `ask_user`.
"""

from __future__ import annotations

import pytest
from inspect_ai.model import ModelOutput
from inspect_ai.tool import ToolDef, ask_user

from infoseek.inspect_tasks.incomplete_questions import incomplete_questions
from infoseek.solvers.incomplete.tools import ask_question
from tests.support.agent_play import episode_of, loop_and_agent, scripted
from tests.support.common import text_output, tool_output

pytestmark = pytest.mark.usefixtures("no_tokenizer")

QUESTION = "How many does each one hold?"


def asks(question: str = QUESTION) -> ModelOutput:
    return tool_output(("ask_question", {"question": question}))


def answers(value: int = 7) -> ModelOutput:
    return text_output(f"<answer>The answer is \\boxed{{{value}}}.</answer>")


SCRIPTS: dict[str, tuple[dict, list[ModelOutput]]] = {
    "ask_then_answer": ({"format": "tool"}, [asks(), answers()]),
    "reminded": ({"format": "tool"}, [text_output("I am not sure yet."), asks(), answers()]),
    "question_cap": ({"format": "tool", "max_interactions": 1},
                     [asks(), asks("And what else?")]),
    "text_format": ({"format": "text"},
                    [text_output(f"<question>{QUESTION}</question>"), answers()]),
    "raw": ({"format": "tool", "variant": "raw"}, [answers()]),
}


@pytest.mark.parametrize("script", list(SCRIPTS))
def test_react_and_the_solver_leave_the_same_episode(script, tmp_path):
    options, outputs = SCRIPTS[script]
    loop, agent = loop_and_agent(
        lambda solver: incomplete_questions(count=2, solver=solver, **options),
        lambda: scripted(outputs), tmp_path, limit=1)
    assert [episode_of(s) for s in agent] == [episode_of(s) for s in loop]
    turns = episode_of(loop[0])["store"]["infoseek:turns"]
    assert len(turns) == len(outputs)
    assert turns[-1]["final"]
    if script == "reminded":
        assert turns[0]["reminded"]


def test_the_tool_reply_is_the_users_reply(tmp_path):
    _, [sample] = loop_and_agent(
        lambda solver: incomplete_questions(count=2, format="tool", solver=solver),
        lambda: scripted([asks(), answers()]), tmp_path, limit=1)
    turns = episode_of(sample)["store"]["infoseek:turns"]
    [tool_message] = [m for m in sample.messages if m.role == "tool"]
    assert tool_message.function == "ask_question"
    assert tool_message.text == turns[0]["user_reply"]


@pytest.mark.parametrize("fmt", ["text", "tool"])
def test_optimal_behind_react_is_right(fmt, tmp_path):
    loop, agent = loop_and_agent(
        lambda solver: incomplete_questions(count=3, format=fmt, solver=solver),
        lambda: "infoseek/optimal", tmp_path)
    assert [episode_of(s) for s in agent] == [episode_of(s) for s in loop]
    assert [s.scores["incomplete_scorer"].value["accuracy"] for s in agent] == [1.0] * 3


def test_the_asking_tool_is_not_named_as_inspects_ask_user():
    assert ToolDef(ask_question()).name == "ask_question"
    assert ToolDef(ask_user()).name != ToolDef(ask_question()).name
