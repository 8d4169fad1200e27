"""Turning a model turn given as tool calls into an action (`ask(variable=...)` /
`answer(value=...)`), with the same vocabulary and validity rules as the plain-text
format of :mod:`infoseek.solvers.seek.parsing`. Whatever the arguments hold (deep nesting, huge
integers, lone surrogates), parsing returns a turn and never raises. `parse_message` reads
one assistant message in either format (the loop's and the tools' single entry)."""

from __future__ import annotations

import json
from collections.abc import Collection
from typing import TYPE_CHECKING

from infoseek.answers import AnswerKind, AnswerReading, AnswerSpec, invalid
from infoseek.answers import answer_kind as registered_kind
from infoseek.answers.answer_lines import answer_lines
from infoseek.contract import ACTION_ASK, ANSWER_TOOL, ASK_TOOL, ParsedTurn
from infoseek.solvers.seek.answer_parsing import copies_template, read_undetermined
from infoseek.solvers.seek.naming import blocked_queries, judge_queries, resolve_name, vocabulary
from infoseek.solvers.seek.parse_context import ParseContext
from infoseek.solvers.seek.parsing import invalid_turn, parse_text_turn, reading_turn

if TYPE_CHECKING:
    from inspect_ai.model import ChatMessageAssistant

_SHOWN_CHARS = 2000
"""At most this many characters of a call's description are kept in the record."""

__all__ = ["parse_tool_calls"]


def _call_arguments(arguments: object) -> dict | None:
    if isinstance(arguments, dict):
        return arguments
    if isinstance(arguments, str):
        try:
            decoded = json.loads(arguments)
        except (ValueError, RecursionError):
            return None
        return decoded if isinstance(decoded, dict) else None
    return None


def _shown(value: object) -> str:
    """A short printable form of anything (never raises: huge ints, deep nesting)."""
    try:
        text = json.dumps(value, sort_keys=True, ensure_ascii=False)
    except (TypeError, ValueError, RecursionError):
        try:
            text = repr(value)
        except Exception:  # a repr that fails must not fail the turn
            text = f"<{type(value).__name__}>"
    if len(text) > _SHOWN_CHARS:
        text = text[:_SHOWN_CHARS] + "..."
    return text


def _describe_call(function: object, arguments: object) -> str:
    name = function if isinstance(function, str) else _shown(function)
    return f"{name}({_shown(arguments)})"


def parse_tool_calls(calls: list[tuple[str, object]], context: ParseContext,
                     asked: Collection[str] = (), text: str = "") -> ParsedTurn:
    """Parse a turn given as tool calls ``(function_name, arguments)`` against the
    episode's `context`, ``asked`` being the variables asked in earlier turns.

    ``ask`` takes ``{"variable": name}``, ``answer`` takes ``{"value": ...}`` (another
    argument beside them, ``answer(value="S1", alternative="S2")``, is
    ``bad_arguments``): text, or any JSON value the answer kind reads
    (`AnswerKind.read_tool`: a boolean for yes/no, a number, an object of named values,
    a list of steps); a value the kind does not
    take is ``bad_arguments``. The kind is the context's. Every call other than
    ``answer`` is recorded as a query, and only the first ``queries_per_turn`` of them
    are processed. Arguments may arrive as a JSON string; anything that does not decode
    to a dict is ``bad_arguments``. An empty answer value is ``empty``; a value that
    copies one of the context's ``templates`` (with or without its ``Answer:`` keyword) is
    ``template``.

    ``text`` is the message text beside the calls (protocols §3.8: whatever the
    channel, two different values in one turn are ``ambiguous``): an answer line in it
    (the one rule of `infoseek.answers.answer_lines`) whose body reads as another value
    than the call's, or as a hedged one, makes the answer ``ambiguous``; the same value
    in both is one answer. Where the task offers it (``context.undetermined``),
    ``answer(value="cannot be determined")`` is the answer
    `infoseek.contract.UNDETERMINED` (`read_undetermined`: the same fixed form as the
    text format's answer line).
    """
    vocab = vocabulary(context, asked)
    kind = registered_kind(vocab.answer)
    calls = list(calls or [])
    if not calls:
        return invalid_turn("no_action")

    attempts: list[tuple[str, str | None, str | None]] = []
    answer_calls: list[tuple[str, object]] = []
    for call in calls:
        function, arguments = (
            call if isinstance(call, tuple | list) and len(call) == 2 else (call, None)
        )
        name = function.strip().lower() if isinstance(function, str) else ""
        raw = _describe_call(function, arguments)
        if name == ANSWER_TOOL:
            answer_calls.append((raw, arguments))
            continue
        if name != ASK_TOOL:
            attempts.append((raw, None, "unknown_tool"))
            continue
        decoded = _call_arguments(arguments)
        variable = decoded.get("variable") if decoded is not None else None
        if not isinstance(variable, str) or set(decoded) - {"variable"}:
            attempts.append((raw, None, "bad_arguments"))
        elif len(variable) > context.max_chars:
            attempts.append((raw, None, "too_long"))
        else:
            attempts.append((raw, *resolve_name(variable, vocab)))

    if answer_calls and (attempts or len(answer_calls) > 1):
        answer_raw = "\n".join(raw for raw, _ in answer_calls)
        return invalid_turn("multiple_actions", blocked_queries(attempts, vocab), answer_raw)

    if answer_calls:
        raw, arguments = answer_calls[0]
        decoded = _call_arguments(arguments)
        value = decoded.get("value") if decoded is not None else None
        if value is not None and set(decoded) - {"value"}:
            # answer(value="S1", alternative="S2"): an unknown argument is never read
            return invalid_turn("bad_arguments", answer_raw=raw)
        if not isinstance(value, str):
            if value is None:
                return invalid_turn("bad_arguments", answer_raw=raw)
            reading = kind.read_tool(value, vocab.answer)
            if reading.reason == "bad_arguments":
                return invalid_turn("bad_arguments", answer_raw=raw)
            return reading_turn(_beside(reading, text, kind, vocab.answer,
                                        vocab.undetermined), _shown(value))
        if len(value) > context.max_chars:
            return invalid_turn("too_long")
        if not value.strip():
            return invalid_turn("empty", answer_raw=value)
        if copies_template(value, context.templates):
            return invalid_turn("template", answer_raw=value)
        reading = (read_undetermined(value, kind, vocab.answer) if vocab.undetermined
                   else None)
        return reading_turn(_beside(reading or kind.read_tool(value, vocab.answer), text,
                                    kind, vocab.answer, vocab.undetermined), value)

    return ParsedTurn(ACTION_ASK, judge_queries(attempts, vocab), None, None, None)


def _beside(reading: AnswerReading, text: object, kind: AnswerKind,
            spec: AnswerSpec, undetermined: bool = False) -> AnswerReading:
    """The call's reading, or ``ambiguous`` when an answer line in the message text beside
    it puts another value forward (or a hedged one): two values in one turn. An answer
    line that does not read at all (``Answer: (pick-up z)`` with no block ``z``) is a
    second value too: the turn says two things and only one of them is the call."""
    if not reading.valid:
        return reading
    for line in answer_lines(text):
        body = line.body(text)
        written = ((read_undetermined(body, kind, spec) if undetermined else None)
                   or kind.read_text(body, spec))  # type: ignore[arg-type]
        if not written.valid and written.reason != "empty":
            return invalid("ambiguous")
        if written.valid and not _same_value(kind, written.value, reading.value, spec):
            return invalid("ambiguous")
    return reading


def _same_value(kind: AnswerKind, left: object, right: object, spec: AnswerSpec) -> bool:
    if left == right:
        return True
    try:
        return kind.compare(left, right, spec) >= 1.0
    except Exception:  # a plug-in kind's comparison must not fail the turn
        return False


def parse_message(message: ChatMessageAssistant, fmt: str, context: ParseContext,
                  asked: list[str]) -> ParsedTurn:
    """The action one assistant message amounts to: its tool calls (with the text beside
    them, where an answer line with another value makes the answer ambiguous) in the
    tool format, its text in the text format."""
    if fmt == "tool":
        calls = [(c.function, None if c.parse_error else c.arguments)
                 for c in (message.tool_calls or [])]
        return parse_tool_calls(calls, context, asked, message.text or "")
    return parse_text_turn(message.text or "", context, asked)
