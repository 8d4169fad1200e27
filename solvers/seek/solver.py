"""The multi-turn seek loop (protocols §3.1), in the tool format and the plain-text format:
the Inspect adapter over the plain game of `infoseek.solvers.seek.game`.

Each sample's metadata carries the problem record and the hidden target value
(``target_value``, default the record's ``answer``), and for problems whose values cannot
be enumerated the hidden world (``hidden_world``, default the record's). The sample's
session (`infoseek.solvers.seek.session`: the engine, the oracle, the episode and the
parse context; started by the task's setup step, or here when there was none) is what the
loop plays against; the loop is one player among others (the real `ask` / `answer` tools
of `infoseek.solvers.seek.tools` let any agent play the same session). It alternates model
turns and the game: each turn is generated, parsed (`parse_text_turn` /
`parse_tool_calls`), and played by the session (matched when a ``matcher`` role is bound,
`infoseek.solvers.seek.game.play_turn`, recorded), which gives the turn record and the
replies.
Nothing here depends on the domain: the askable set, the ``not_leaf`` refusals, the
question and answer forms all come from the record and the engine. The store holds the
record without its hidden fields.
Before every generate call it writes the episode to the sample store, so a message or
token limit that aborts the loop loses nothing, and so the reference models can read
the problem without parsing the prompt.

There is one turn record per model turn, the answering turn included: an episode with
k valid question turns and one answer holds k + 1 records, numbered 1..k+1.

History (protocols §3.8): the model's own turn stays as it wrote it, with its reasoning
dropped unless ``carry_reasoning``: in the text format its action text
(`infoseek.turn_text.split_turn`: its question lines, and its answer line with every line
after it, which the reader read as the answer: a plan's further steps, a justification),
in the tool format its tool calls. A turn without any action (no action line, no tool
call) is kept as the model wrote it, so that the correction after it refers to words
the model can see; an empty one, or one longer than `MAX_TURN_CHARS`, is dropped. The
loop never writes words in the model's place. The text
format never keeps native tool calls (no provider accepts a tool call without its tool
reply); in the tool format every kept tool call gets exactly one tool reply. Every
correction is a user or tool message in plain words
(`infoseek.oracles.refusals.invalid_turn_message`).
Text the loop keeps is made storable first (`infoseek.solvers.text_format.storable_text`), and a
provider reply with no choices is an empty turn.

A reply Inspect marks as stopped by the context window (``model_length``) or by the
output token limit (``max_tokens``) ends the episode (`infoseek.contract.STOP_REASONS`):
its turn record is invalid with reason ``context_overflow`` or ``truncated``, nothing in
it is read (a cut line may hold a cut value), and no further call is made. The text of a
context overflow is the provider's error, so it leaves the history; a truncated reply is
the model's own and stays as any turn does. The forced final turn restates the answer
line to write (`infoseek.solvers.seek.prompts.final_turn_prompt`).
"""

from __future__ import annotations

from inspect_ai.model import ChatMessageAssistant, ChatMessageTool, ChatMessageUser
from inspect_ai.solver import Generate, Solver, TaskState, solver
from inspect_ai.tool import ToolFunction

from infoseek.contract import ACTION_INVALID, ANSWER_TOOL, MAX_TURN_CHARS, ParsedTurn
from infoseek.solvers.seek.game import SeekOptions
from infoseek.solvers.seek.session import current_session, start_session
from infoseek.solvers.seek.tool_parsing import parse_message
from infoseek.solvers.turns import (
    CONTEXT_OVERFLOW,
    drop_from_history,
    generate_turn,
    stopped_reason,
)
from infoseek.turn_text import split_turn

_EMPTY_TURN = ParsedTurn(ACTION_INVALID, (), None, None, "empty")


@solver
def seek_solver(options: SeekOptions | None = None) -> Solver:
    """The seek loop (protocols §3.1) with `options` (`infoseek.solvers.seek.game.SeekOptions`,
    checked when made; none: its defaults), e.g. ``seek_solver(SeekOptions(format="text",
    max_turns=5))``. Each sample's metadata holds the problem and its hidden value
    (module docstring). It plays the episode the task's setup started
    (`infoseek.solvers.seek.tools.seek_setup`), or starts it itself."""
    opts = SeekOptions() if options is None else options
    fmt = opts.format

    async def solve(state: TaskState, generate: Generate) -> TaskState:
        session = current_session() or start_session(state, opts)
        episode = session.episode
        while not episode.over:
            if episode.final_turn and fmt == "tool":
                state.tool_choice = ToolFunction(name=ANSWER_TOOL)
            session.write_options()
            message = await generate_turn(state, generate)
            stop = stopped_reason(state, message)
            if stop is not None:  # ends the episode; nothing in the reply is read
                parsed = ParsedTurn(ACTION_INVALID, (), None, None, stop)
            elif message is None:
                parsed = _EMPTY_TURN
            else:
                parsed = parse_message(message, fmt, session.context, episode.asked)
            _, replies = await session.play(parsed)
            if stop == CONTEXT_OVERFLOW:
                message = drop_from_history(state, message)
            message = _keep_in_history(state, message, fmt, opts.carry_reasoning)
            if not episode.over:  # one message per turn: the final turn's words join it
                _append_replies(state, message, fmt, replies,
                                session.final_text if episode.final_turn else None)
        return state

    return solve


def _keep_in_history(state: TaskState, message: ChatMessageAssistant | None, fmt: str,
                     carry: bool) -> ChatMessageAssistant | None:
    """Put the model's turn in the history as it stays there (see the module docstring);
    returns the kept message, or None when the turn was dropped."""
    if message is None:
        return None
    if not state.messages or state.messages[-1] is not message:
        return message  # not ours to rewrite
    kept = _kept_turn(message, fmt, carry)
    if kept is None:
        state.messages.pop()
    elif kept is not message:
        state.messages[-1] = kept
    return kept


def _kept_turn(message: ChatMessageAssistant, fmt: str,
               carry: bool) -> ChatMessageAssistant | None:
    text = message.text or ""
    if fmt == "tool" and message.tool_calls:
        if carry or (message.content == "" and not message.metadata):
            return message  # nothing to drop: the model's own message stays
        return ChatMessageAssistant(content="", tool_calls=message.tool_calls,
                                    model=message.model)
    actions = split_turn(text).action if fmt == "text" else ""
    if actions and not carry:
        return ChatMessageAssistant(content=actions, model=message.model)
    if not text.strip() or (not actions and len(text) > MAX_TURN_CHARS):
        return None
    if message.tool_calls:  # the text format keeps no native tool call
        return message.model_copy(update={"tool_calls": None})
    return message


def _append_replies(state: TaskState, message: ChatMessageAssistant | None, fmt: str,
                    replies: list[str], closing: str | None = None) -> None:
    """The loop's answer to a turn: one tool message per tool call the kept message
    holds (tool format), and what is left, or everything, in one user message, which
    also holds `closing` (the final turn's message) when the next turn is the final one:
    never two user messages in a row."""
    calls = (message.tool_calls or []) if message is not None and fmt == "tool" else []
    if calls:
        # Every tool call needs a tool message; replies line up with the parsed queries.
        for i, call in enumerate(calls):
            text = replies[i] if i < len(replies) else (replies[-1] if replies else "")
            state.messages.append(
                ChatMessageTool(content=text, tool_call_id=call.id, function=call.function)
            )
        replies = replies[len(calls):]
    said = "\n\n".join(part for part in ("\n".join(replies), closing or "") if part)
    if said or not calls:
        state.messages.append(ChatMessageUser(content=said))
