"""incomplete_questions' asking tool as a real Inspect tool, and the pieces that let any
agent (Inspect's `react()`, a custom solver) play the episode in the built-in solver's place.

The tool is `ask_question` (`ASK_QUESTION_TOOL`; it was `ask_user`, the name of Inspect's
own built-in tool, which an agent may hold beside it). The built-in solver offers it and
reads the calls itself; an agent executes it: each call plays one reply of the sample's
episode (`infoseek.solvers.incomplete.session`) whose question is the call's, and the
tool returns the simulated user's reply (with "no questions left" once the last one is
used), writing the same turn record to the store as the solver does.

How an agent's conversation maps onto replies (docs/tasks/common.md, "Your own agent"):

* one call of the tool is one reply, read as the solver reads a message with that one
  call and no text beside it (the tool never sees the message's text);
* a message with no call the tool played (an ``<answer>`` reply, a ``<question>`` tag,
  plain text) is one reply too, read as the solver reads it: `incomplete_continue`, the
  agent's continue check, plays it and hands back what the model is told (the user's
  reply, a reminder), which the agent sends as a user message;
* the question cap is the game's: a question with none left ends the episode unanswered;
  a call after the episode ended is a tool error and records nothing; the continue check
  stops the agent once the episode is over, and the task's message limit stops an agent
  that never checks.
"""

from __future__ import annotations

from inspect_ai.agent import AgentState, react
from inspect_ai.solver import Solver, solver
from inspect_ai.tool import Tool, ToolError, ToolSource, tool

from infoseek.contract import STOP_REASONS
from infoseek.solvers.incomplete.game import IncompleteOptions
from infoseek.solvers.incomplete.session import (
    ASK_QUESTION_TOOL,
    IncompleteSession,
    current_session,
    start_session,
)
from infoseek.solvers.turns import agent_solver, setup_solver

EPISODE_OVER = "The episode is over: nothing more is recorded."
NO_EPISODE = ("no infoseek incomplete-questions episode in this sample: the tool plays "
              "against the episode the task's setup (incomplete_setup) starts")


def _session() -> IncompleteSession:
    session = current_session()
    if session is None:
        raise RuntimeError(NO_EPISODE)
    return session


@tool(name=ASK_QUESTION_TOOL)
def ask_question():
    async def execute(question: str) -> str:
        """Ask the user one question about the problem.

        Args:
            question: Your question, in plain words.
        """
        session = _session()
        if session.over:
            raise ToolError(EPISODE_OVER)
        parsed = session.read("", [(ASK_QUESTION_TOOL, {"question": question})], None)
        _, told = await session.play(parsed, response="", tool_calls=(
            {"function": ASK_QUESTION_TOOL, "arguments": {"question": question}},))
        session.played_calls += 1
        return EPISODE_OVER if told is None else told

    return execute


class IncompleteTools(ToolSource):
    """The running sample's asking tool, where its variant and format offer one."""

    async def tools(self) -> list[Tool]:
        return [ask_question()] if _session().episode.uses_tools else []


async def incomplete_continue(state: AgentState) -> bool | str:
    """The agent's continue check after each of its turns (module docstring)."""
    session = _session()
    played, session.played_calls = session.played_calls, 0
    if session.over:
        return False
    if played:
        return True
    output = state.output
    message = output.message if output is not None and output.choices else None
    stop = STOP_REASONS.get(output.stop_reason) if message is not None else None
    calls = list(message.tool_calls or []) if message is not None else []
    text = message.text if message is not None else ""
    parsed = session.read(text, [(c.function, c.arguments) for c in calls], stop)
    _, told = await session.play(parsed, response=text or "", tool_calls=tuple(
        {"function": c.function, "arguments": c.arguments} for c in calls))
    return False if told is None else told


def incomplete_react():
    """Inspect's `react()` set up to play incomplete_questions in the built-in solver's
    place: the task's system prompt, the asking tool, no submit tool (an ``<answer>``
    reply ends the episode) and `incomplete_continue` as its continue check."""
    return react(prompt=None, tools=[IncompleteTools()], submit=False,
                 on_continue=incomplete_continue)


@solver
def incomplete_agent_solver(options: IncompleteOptions | None = None) -> Solver:
    """`incomplete_react()` as a solver (``-T solver=react``)."""
    opts = IncompleteOptions() if options is None else options
    return agent_solver(lambda state: current_session() or start_session(state, opts),
                        incomplete_react)


@solver
def incomplete_setup(options: IncompleteOptions | None = None) -> Solver:
    """The task's setup step: starts the sample's episode, so that the built-in solver or
    any solver put in its place plays against it."""
    opts = IncompleteOptions() if options is None else options
    return setup_solver(lambda state: start_session(state, opts))


def agent_message_limit(options: IncompleteOptions) -> int:
    """The message limit of an agent-played episode: the system prompt and the question,
    then per reply (each question, one reminder, the answer) an assistant message, a tool
    message and a user message."""
    return 2 + (options.max_interactions + 2) * 3
