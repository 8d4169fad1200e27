"""The floor every protocol's solver stands on: one generate call per model turn and the
reading of how it stopped.

`generate_turn` makes the call and returns the model's message made storable (or None for
a provider reply with no choices); `stopped_reason` says whether Inspect marked the reply
as cut by the context window or the output token limit (`infoseek.contract.STOP_REASONS`);
`drop_from_history` takes a context overflow's text (the provider's error, not the
model's words) out of the conversation. `EpisodeWriter` writes the episode to the sample
store under the contract's keys. `setup_solver` and `agent_solver` are the two solvers a
protocol whose oracle is a set of real tools builds from its session starter: the task's
setup step, and an agent (Inspect's `react()`) playing in the built-in solver's place.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any

from inspect_ai.agent import Agent, as_solver
from inspect_ai.model import ChatMessageAssistant
from inspect_ai.solver import Generate, Solver, TaskState
from inspect_ai.util import store

from infoseek.contract import (
    STOP_REASONS,
    STORE_FINAL,
    STORE_INITIAL,
    STORE_OPTIONS,
    STORE_PROBLEM,
    STORE_PROTOCOL,
    STORE_TURNS,
)
from infoseek.solvers.text_format import storable, storable_text
from infoseek.stored_forms import stored_turns

CONTEXT_OVERFLOW = STOP_REASONS["model_length"]


async def generate_turn(state: TaskState, generate: Generate) -> ChatMessageAssistant | None:
    """One generate call; the model's message, made storable, or None for an empty reply.

    A provider reply with no choices makes Inspect's generate raise IndexError after it
    set ``state.output``; that is an empty turn here, and nothing joins the history. A
    message with text UTF-8 cannot encode (a lone surrogate) is replaced, in the history
    and in ``state.output``, by a copy with that text made storable: Inspect hashes the
    messages it sends to a model with a strict encoder while writing the log."""
    before = state.output
    try:
        await generate(state, tool_calls="none")
    except IndexError:
        # only Inspect's own `output.message` on a new, choice-less output is an empty turn
        if state.output is before or state.output is None or state.output.choices:
            raise
        return None
    message = state.output.message
    cleaned = storable_message(message)
    if cleaned is not message:
        if state.messages and state.messages[-1] is message:
            state.messages[-1] = cleaned
        state.output.choices[0].message = cleaned
        state.output.completion = storable_text(state.output.completion or "")
    return cleaned


def stopped_reason(state: TaskState, message: ChatMessageAssistant | None) -> str | None:
    """The terminal reason of the reply just generated (`infoseek.contract.STOP_REASONS`:
    ``context_overflow`` when Inspect marks it ``model_length``, ``truncated`` for
    ``max_tokens``), or None for a reply that is read as usual."""
    if message is None or state.output is None or not state.output.choices:
        return None
    return STOP_REASONS.get(state.output.stop_reason)


def drop_from_history(state: TaskState, message: ChatMessageAssistant | None) -> None:
    """Take a reply out of the history: a context overflow's text is the provider's
    error message, not words of the model (``state.output`` and the transcript keep it)."""
    if message is not None and state.messages and state.messages[-1] is message:
        state.messages.pop()
    return None


def storable_message(message: ChatMessageAssistant) -> ChatMessageAssistant:
    """``message`` itself when all its text encodes as UTF-8, else a storable copy."""
    data = message.model_dump()
    cleaned = storable(data)
    if cleaned is data:
        return message
    return ChatMessageAssistant.model_validate(cleaned)


class EpisodeWriter:
    """Writes one episode to the sample store under the contract's keys
    (`infoseek.contract`: ``STORE_PROTOCOL``, ``STORE_PROBLEM``, ``STORE_OPTIONS``,
    ``STORE_INITIAL``, ``STORE_TURNS``, ``STORE_FINAL``), the one writer every protocol's
    solver uses. Made at the start of a sample, it writes the protocol and the problem (in
    its stored form, without hidden fields); the solver then writes options and turns
    before every generate call, so a limit that aborts the loop loses nothing. Turn
    records are stored whole each time (`infoseek.stored_forms.stored_turns`) and never
    changed once written.

    `epoch` is the sample's repeat (``TaskState.epoch``, 1 without ``--epochs``): from the
    second repeat on it is stored among the options as ``epoch``, so the seeded random
    reference plays each repeat afresh; the first repeat stores none, so its records are
    the same as a run without ``--epochs``."""

    def __init__(self, protocol: str, problem: str, epoch: int = 1) -> None:
        self._store = store()
        self._epoch = epoch
        self._store.set(STORE_PROTOCOL, protocol)
        self._store.set(STORE_PROBLEM, problem)

    def options(self, options: dict[str, Any]) -> None:
        if self._epoch > 1:
            options = {**options, "epoch": self._epoch}
        self._store.set(STORE_OPTIONS, options)

    def initial(self, possible: Any) -> None:
        """The target values possible before any question (seek episodes)."""
        self._store.set(STORE_INITIAL, possible)

    def turns(self, turns: Iterable[dict[str, Any]]) -> None:
        self._store.set(STORE_TURNS, stored_turns(turns))

    def final(self, final: dict[str, Any]) -> None:
        """The episode's final answer and the turn that gave it."""
        self._store.set(STORE_FINAL, final)


def setup_solver(start: Callable[[TaskState], Any]) -> Solver:
    """A task's setup step that starts the sample's episode with `start(state)`."""

    async def solve(state: TaskState, generate: Generate) -> TaskState:
        start(state)
        return state

    return solve


def agent_solver(started: Callable[[TaskState], Any], agent: Callable[[], Agent]) -> Solver:
    """A solver that makes sure the sample's episode is started (`started(state)`: the
    running session, or a new one when the task's setup started none) and runs the
    `agent()` made for it."""

    async def solve(state: TaskState, generate: Generate) -> TaskState:
        started(state)
        return await as_solver(agent())(state, generate)

    return solve
