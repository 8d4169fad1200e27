"""The seek protocol's `ask` and `answer` as real Inspect tools, and the pieces that let any
agent (Inspect's `react()`, a custom solver) play the episode in the built-in loop's place.

The built-in loop (`infoseek.solvers.seek.solver`) offers these tools and reads the calls
itself (it generates with ``tool_calls="none"``). An agent executes them instead: each
call plays one turn of the sample's episode (`infoseek.solvers.seek.session`), so the
`ask` tool returns the examiner's reply, `answer` records the final answer and ends the
episode, and every call writes the same turn records to the store as the loop does.

How an agent's conversation maps onto turns (docs/tasks/common.md, "Your own agent"):

* one call of `ask` or `answer` is one turn, parsed as the loop parses a message with
  that one call and no text beside it (the tools never see the message's text);
* a message with no call that one of these tools played (plain text, a call Inspect
  refused for its arguments, a call to another tool) is one turn too, read as the loop
  reads it: `seek_continue`, the agent's continue check, plays it and hands back the
  replies or the correction, which the agent sends as a user message; in the text
  format (no tools offered) every turn is played so, the `Question:` / `Answer:` lines
  read as the loop reads them;
* the turn cap, force-ask and the final answer are the game's: on the turn after the cap
  a question is refused (``too_many``) and the episode ends; an early answer under
  force-ask is refused (``early_answer``); a call after the episode ended is a tool error
  and records nothing. `seek_continue` stops the agent once the episode is over, and
  sends the final turn's message ("answer now") as the loop does; the task's message
  limit (`agent_message_limit`) stops an agent that never checks.
"""

from __future__ import annotations

from inspect_ai.agent import AgentState, react
from inspect_ai.solver import Solver, solver
from inspect_ai.tool import Tool, ToolError, ToolSource, tool

from infoseek.contract import (
    ACTION_ANSWER,
    ACTION_INVALID,
    ANSWER_TOOL,
    ASK_TOOL,
    STOP_REASONS,
    ParsedTurn,
)
from infoseek.solvers.seek.game import SeekOptions
from infoseek.solvers.seek.session import SeekSession, current_session, start_session
from infoseek.solvers.seek.tool_parsing import parse_message, parse_tool_calls
from infoseek.solvers.turns import agent_solver, setup_solver

EPISODE_OVER = "The episode is over: nothing more is recorded."
ANSWER_RECORDED = "Your answer is recorded."
NO_EPISODE = ("no infoseek seek episode in this sample: the tools play against the episode "
              "that the task's setup (seek_setup) starts; run them inside a seek task "
              "(logic_mt, genereg_mt, clinguide_mt, planning_mt, ...)")

_ASK_DOC = """Ask the examiner for the value of one {noun} that is not given.

Args:
    variable: The exact name of the {noun} to ask about.
"""


def _session() -> SeekSession:
    session = current_session()
    if session is None:
        raise RuntimeError(NO_EPISODE)
    return session


async def _play_call(function: str, arguments: dict[str, object]) -> str:
    """Play one tool call as one turn and return what the tool says back."""
    session = _session()
    if session.episode.over:
        raise ToolError(EPISODE_OVER)
    parsed = parse_tool_calls([(function, arguments)], session.context, session.episode.asked)
    record, replies = await session.play(parsed)
    session.played_calls += 1
    if not session.episode.over:
        session.write_options()
    if record.action == ACTION_ANSWER:
        return ANSWER_RECORDED
    return "\n".join(replies)


@tool(name=ASK_TOOL)
def ask(noun: str = "attribute"):
    """The `ask` tool, described with the domain's word for a variable (``noun``).

    The words are the function's docstring, which Inspect reads once per tool and
    caches; a `ToolDef` description override would be deep-copied on every generate."""

    async def execute(variable: str) -> str:
        return await _play_call(ASK_TOOL, {"variable": variable})

    execute.__doc__ = _ASK_DOC.format(noun=noun)
    return execute


def ask_tool(noun: str):
    """The `ask` tool, described with the domain's word for a variable."""
    return ask(noun)


@tool(name=ANSWER_TOOL)
def answer():
    async def execute(value: str) -> str:
        """Give your final answer and end the episode.

        Args:
            value: For a yes/no goal, "yes" if it holds and "no" if not; for a numeric
                goal, the number; for a choice, exactly one of the listed options; for
                named values, every name once, like "A=1, B=0"; for an ordered list,
                the steps in order, like "first step; second step".
        """
        return await _play_call(ANSWER_TOOL, {"value": value})

    return execute


def seek_tool_list(noun: str) -> list[Tool]:
    """`ask` (worded with `noun`) and `answer`, in the order the loop offers them."""
    return [ask_tool(noun), answer()]


class SeekTools(ToolSource):
    """The running sample's `ask` and `answer` tools (its domain's word in `ask`): hand
    ``seek_tools()`` to an agent made once for the whole task."""

    async def tools(self) -> list[Tool]:
        session = _session()
        return seek_tool_list(session.noun) if session.episode.fmt == "tool" else []


def seek_tools() -> SeekTools:
    """The seek tools as a tool source (`SeekTools`)."""
    return SeekTools()


async def seek_continue(state: AgentState) -> bool | str:
    """The agent's continue check after each of its turns (module docstring): False once
    the episode is over; a message the agent made with no played call is played here as
    the loop reads it, and its correction comes back to be sent; the final turn's message
    when the next turn is the final one; else True."""
    session = _session()
    played, session.played_calls = session.played_calls, 0
    if session.episode.over:
        return False
    replies: list[str] = []
    if not played:
        stop = STOP_REASONS.get(state.output.stop_reason) if state.output else None
        message = state.output.message if state.output and state.output.choices else None
        if stop is not None or message is None:
            parsed = ParsedTurn(ACTION_INVALID, (), None, None, stop or "empty")
        else:
            parsed = parse_message(message, session.episode.fmt, session.context,
                                   session.episode.asked)
        _, replies = await session.play(parsed)
        if session.episode.over:
            return False
        session.write_options()
    closing = session.final_text if session.episode.final_turn else ""
    said = "\n\n".join(part for part in ("\n".join(replies), closing) if part)
    return said or True


def seek_react():
    """Inspect's `react()` set up to play a seek task in the built-in loop's place: the
    task's system prompt (no prompt of its own), the seek tools, no submit tool (`answer`
    ends the episode) and `seek_continue` as its continue check."""
    return react(prompt=None, tools=[seek_tools()], submit=False, on_continue=seek_continue)


@solver
def seek_agent_solver(options: SeekOptions | None = None) -> Solver:
    """`seek_react()` as a solver (``-T solver=react``): it starts the episode when the
    task's setup did not."""
    opts = SeekOptions() if options is None else options
    return agent_solver(lambda state: current_session() or start_session(state, opts),
                        seek_react)


@solver
def seek_setup(options: SeekOptions | None = None) -> Solver:
    """The task's setup step: starts the sample's episode (`start_session`), so that the
    built-in loop or any solver put in its place (``task_with(task, solver=...)``) plays
    against it."""
    opts = SeekOptions() if options is None else options
    return setup_solver(lambda state: start_session(state, opts))


def agent_message_limit(options: SeekOptions) -> int:
    """The message limit of an agent-played seek task: the system prompt and the problem,
    then per turn (the cap and the final turn) an assistant message, one tool message per
    query and one user message."""
    return 2 + (options.max_turns + 1) * (2 + options.queries_per_turn)
