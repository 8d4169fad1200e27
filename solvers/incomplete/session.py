"""One sample's incomplete-questions episode as an object: what the built-in solver
(`infoseek.solvers.incomplete.solver`) and the real asking tool
(`infoseek.solvers.incomplete.tools`) both play against.

`start_session` does what the solver did before its first generate call: the store's
protocol and record (`infoseek.solvers.turns.EpisodeWriter`), the system prompt, the
asking tool in the tool format of the questionable variant, and the options. It keeps the
session in a context variable (`current_session`), one per sample.

`IncompleteSession.play` is one reply, whoever played it: the game's step
(`infoseek.solvers.incomplete.game.play_turn`), the simulated user's reply to a question,
the turn records and options written to the store, and the turn's info event. It returns
the step and what the model is told next (None: the episode is over).
"""

from __future__ import annotations

from contextvars import ContextVar
from dataclasses import dataclass
from typing import Any

from inspect_ai.log import transcript
from inspect_ai.model import ChatMessageSystem
from inspect_ai.solver import TaskState

from infoseek.contract import ASK_QUESTION_TOOL
from infoseek.jsonl import dumps_record
from infoseek.solvers.incomplete.game import (
    IncompleteEpisode,
    IncompleteOptions,
    Step,
    play_turn,
    stopped_reply,
    user_replied,
)
from infoseek.solvers.incomplete.prompts import PROMPT_ECHOES, system_prompt
from infoseek.solvers.incomplete.reading import ParsedReply, answer_kind_of, parse_reply
from infoseek.solvers.incomplete.user import simulated_user_reply
from infoseek.solvers.turns import EpisodeWriter

PROTOCOL = "incomplete"
ASKING_TOOLS: tuple[str, ...] = (ASK_QUESTION_TOOL, "ask_user")
"""The tool names read as the asking tool: the current one, and the former one (older
logs and scripted conversations)."""

_SESSION: ContextVar[IncompleteSession | None] = ContextVar("infoseek_incomplete_session",
                                                            default=None)


@dataclass
class IncompleteSession:
    """The incomplete-questions episode of the running sample and how it is recorded."""

    episode: IncompleteEpisode
    record: dict[str, Any]
    options: IncompleteOptions
    writer: EpisodeWriter
    played_calls: int = 0
    """Asking-tool calls played since the agent's last continue check."""

    @property
    def over(self) -> bool:
        """Whether the last reply ended the episode."""
        return bool(self.episode.turns) and self.episode.turns[-1].final

    def write(self, final_turn: bool) -> None:
        """The options (with `final_turn`) and the turn records so far."""
        self.writer.options({**self.options.stored(), "final_turn": final_turn})
        self.writer.turns(turn.to_dict() for turn in self.episode.turns)

    def read(self, text: str | None, calls: list[tuple[str, Any]],
             stop: str | None) -> ParsedReply:
        """One reply read as the solver reads it: its text and the questions of its
        asking-tool calls ``(function, arguments)``; nothing read when it was stopped."""
        if stop is not None:
            return stopped_reply(stop)
        questions = ([question_argument(arguments) for function, arguments in calls
                      if function in ASKING_TOOLS] if self.episode.uses_tools else [])
        return parse_reply(text, questions, answer_kind=answer_kind_of(self.record["answer"]),
                           echoes=PROMPT_ECHOES)

    async def play(self, parsed: ParsedReply, *, response: str,
                   tool_calls: tuple[dict[str, Any], ...] = ()) -> tuple[Step, str | None]:
        """Play one reply (module docstring)."""
        step = play_turn(self.episode, parsed, response=response, tool_calls=tool_calls)
        told = step.told
        if step.asks_user:
            told = user_replied(self.episode, await simulated_user_reply(
                parsed.question, self.record, kind=self.options.user, turn=step.record.turn))
        self.write(step.record.final_turn)
        transcript().info({"infoseek_incomplete_turn": self.episode.turns[-1].to_dict()},
                          source="infoseek incomplete-questions solver")
        return step, told


def current_session() -> IncompleteSession | None:
    """The running sample's session, or None when none was started in it."""
    return _SESSION.get()


def start_session(state: TaskState, opts: IncompleteOptions) -> IncompleteSession:
    """Start the sample's episode (module docstring); it becomes `current_session`."""
    from infoseek.solvers.incomplete.tools import ask_question

    record: dict[str, Any] = state.metadata["record"]
    writer = EpisodeWriter(PROTOCOL, dumps_record(record), state.epoch)
    episode = IncompleteEpisode(opts.variant, opts.max_interactions, opts.format)
    session = IncompleteSession(episode, record, opts, writer)
    state.messages.insert(0, ChatMessageSystem(
        content=system_prompt(opts.variant, opts.format, opts.max_interactions)))
    if episode.uses_tools:
        state.tools = [ask_question()]
        state.tool_choice = "auto"
    session.write(episode.final_turn)
    _SESSION.set(session)
    return session


def question_argument(arguments: Any) -> str:
    """The question of an asking-tool call: its ``question`` argument, or its one argument
    under another name; empty when there is none."""
    if isinstance(arguments, dict):
        value = arguments.get("question")
        if value is None and len(arguments) == 1:
            value = next(iter(arguments.values()))
        return "" if value is None else str(value)
    return ""
