"""The multi-turn seek loop (SPEC 3.1), in the tool format and the plain-text format.

Each sample's metadata carries the problem record and the hidden target value
(``target_value``, default the record's ``answer``), and for problems whose values cannot
be enumerated the hidden world (``hidden_world``, default the record's). The loop builds
the engine and the oracle, then alternates model turns and oracle replies. Nothing here
depends on the domain: the askable set, the ``not_leaf`` refusals, the question and
answer forms (yes/no or a number, from the target's domain) all come from the record and
the engine. The store holds the record without its hidden fields.
Before every generate call it writes the episode to the sample store, so a message or
token limit that aborts the loop loses nothing, and so the reference models can read
the problem without parsing the prompt.

There is one turn record per model turn, the answering turn included: an episode with
k valid question turns and one answer holds k + 1 records, numbered 1..k+1.

History (SPEC 3.8): the model's own turn stays as it wrote it, with its reasoning
dropped unless ``carry_reasoning``: in the text format its question/answer lines, in
the tool format its tool calls. A turn without any action (no action line, no tool
call) is kept as the model wrote it, so that the correction after it refers to words
the model can see; an empty one, or one longer than `MAX_KEPT_CHARS`, is dropped. The
loop never writes words in the model's place. The text
format never keeps native tool calls (no provider accepts a tool call without its tool
reply); in the tool format every kept tool call gets exactly one tool reply. Every
correction is a user or tool message in plain words (`prompts.invalid_turn_message`).
Text the loop keeps is made storable first (`infoseek.solvers.text_format.storable_text`), and a
provider reply with no choices is an empty turn.
"""

from __future__ import annotations

import re
from typing import Any

from inspect_ai.log import transcript
from inspect_ai.model import (
    ChatMessageAssistant,
    ChatMessageSystem,
    ChatMessageTool,
    ChatMessageUser,
)
from inspect_ai.solver import Generate, Solver, TaskState, solver
from inspect_ai.tool import ToolDef, ToolFunction, tool
from inspect_ai.util import store

from infoseek.answers import answer_spec
from infoseek.contract import (
    STORE_FINAL,
    STORE_INITIAL,
    STORE_OPTIONS,
    STORE_PROBLEM,
    STORE_PROTOCOL,
    STORE_TURNS,
)
from infoseek.domains import Domain, domain_of
from infoseek.engine import possible_values_record
from infoseek.oracles import ORACLE_POLICIES, UNSURE, WORLD_POLICY, Oracle, refusal_text
from infoseek.records import (
    askable_variables,
    engine_from_record,
    not_leaf_variables,
    stored_problem,
)
from infoseek.solvers import prompts
from infoseek.solvers.dataset import value_label
from infoseek.solvers.matcher import matched_turn
from infoseek.solvers.parsing import INVALID, ParsedTurn, parse_text_turn
from infoseek.solvers.text_format import storable, storable_text
from infoseek.solvers.tool_parsing import parse_tool_calls

FORMATS = ("tool", "text")
_ACTION_LINE = re.compile(r"^\W*(question|answer|final answer)\b", re.IGNORECASE)
_EMPTY_TURN = ParsedTurn(INVALID, (), None, None, "empty")


@tool
def ask():
    async def execute(variable: str) -> str:
        """Ask the examiner for the value of one attribute that is not given.

        Args:
            variable: The exact name of the attribute to ask about.
        """
        return "handled by the infoseek seek loop"

    return execute


def ask_tool(noun: str):
    """The `ask` tool, described with the domain's word for a variable."""
    return ToolDef(ask(), description=f"Ask the examiner for the value of one {noun} that "
                   "is not given.",
                   parameters={"variable": f"The exact name of the {noun} to ask about."}
                   ).as_tool()


@tool
def answer():
    async def execute(value: str) -> str:
        """Give your final answer and end the episode.

        Args:
            value: For a yes/no goal, "yes" if it holds and "no" if not; for a numeric
                goal, the number; for a choice, exactly one of the listed options; for
                named values, every name once, like "A=1, B=0"; for an ordered list,
                the steps in order, like "first step; second step".
        """
        return "handled by the infoseek seek loop"

    return execute


def seek_options(
    *, fmt: str = "tool", max_turns: int = 10, queries_per_turn: int = 1, budget: bool = False,
    force_ask: bool = False, forbid_alternatives: bool = True, carry_reasoning: bool = False,
    oracle: str = "adversarial", seed: int = 0,
) -> dict[str, Any]:
    """Validated solver options (raises ValueError naming the bad option)."""
    if fmt not in FORMATS:
        raise ValueError(f"format must be one of {', '.join(FORMATS)}; got {fmt!r}")
    if oracle not in (*ORACLE_POLICIES, WORLD_POLICY):
        raise ValueError(f"oracle must be one of {', '.join((*ORACLE_POLICIES, WORLD_POLICY))}; "
                         f"got {oracle!r}")
    for name, value in (("max_turns", max_turns), ("queries_per_turn", queries_per_turn)):
        if not isinstance(value, int) or isinstance(value, bool) or value < 1:
            raise ValueError(f"{name} must be an integer >= 1; got {value!r}")
    return {
        "format": fmt, "max_turns": max_turns, "queries_per_turn": queries_per_turn,
        "budget": bool(budget), "force_ask": bool(force_ask),
        "forbid_alternatives": bool(forbid_alternatives),
        "carry_reasoning": bool(carry_reasoning), "oracle": oracle, "seed": seed,
    }


def reply_text(domain: Domain, entity: str, variable: str, value: Any) -> str:
    """The oracle's reply in the domain's wording (`infoseek.domains.Wording`)."""
    if value == UNSURE:
        return domain.wording.unsure.format(entity=entity, variable=variable)
    return domain.reply(entity, variable, value)


def _action_only(text: str) -> str:
    lines = [line for line in text.splitlines() if _ACTION_LINE.match(line)]
    return "\n".join(lines)


@solver
def seek_solver(
    *, fmt: str = "tool", max_turns: int = 10, queries_per_turn: int = 1, budget: bool = False,
    force_ask: bool = False, forbid_alternatives: bool = True, carry_reasoning: bool = False,
    oracle: str = "adversarial", seed: int = 0,
) -> Solver:
    """The seek loop (SPEC 3.1).

    Args:
        fmt: ``"tool"`` (``ask`` / ``answer`` tools) or ``"text"`` (``Question:`` /
            ``Answer:`` lines).
        max_turns: turn cap; after it one more turn asks for the final answer.
        queries_per_turn: how many variables one turn may ask.
        budget: state "T turns x q queries per turn" in the prompt.
        force_ask: refuse an answer given before k questions were asked.
        forbid_alternatives: variables of non-canonical MSSs may not be asked.
        carry_reasoning: keep the model's earlier reasoning in the history.
        oracle: the oracle policy (``infoseek.oracles.ORACLE_POLICIES`` or ``"world"``).
        seed: oracle seed (the random policy's draws).
    """
    opts = seek_options(
        fmt=fmt, max_turns=max_turns, queries_per_turn=queries_per_turn, budget=budget,
        force_ask=force_ask, forbid_alternatives=forbid_alternatives,
        carry_reasoning=carry_reasoning, oracle=oracle, seed=seed,
    )

    async def solve(state: TaskState, generate: Generate) -> TaskState:
        problem: dict[str, Any] = state.metadata["problem"]
        target_value = state.metadata.get("target_value", problem.get("answer"))
        hidden_world = state.metadata.get("hidden_world", problem.get("hidden_world"))
        sample_opts = {**opts, "target_index": state.metadata.get("target_index", 0)}
        engine = engine_from_record(problem)
        oracle = Oracle(engine, target_value, policy=opts["oracle"],
                        seed=hash_seed(opts["seed"], problem["id"], target_value),
                        hidden_world=hidden_world)
        entity = problem.get("entity", "Alice")
        target = problem["target"]
        askable = askable_variables(problem, opts["forbid_alternatives"])
        not_leaf = not_leaf_variables(problem)
        declared = domain_of(problem)
        wording = declared.wording
        domain = engine.domain(target)
        answer_kind = declared.answer_kind
        initial = possible_values_record(engine.target_values(), domain)
        k = int(problem.get("k", 0))
        fmt = opts["format"]

        st = store()
        turns: list[dict[str, Any]] = []
        st.set(STORE_PROTOCOL, "seek")
        st.set(STORE_PROBLEM, stored_problem(problem))
        st.set(STORE_OPTIONS, sample_opts)
        st.set(STORE_INITIAL, initial)
        st.set(STORE_TURNS, [])

        system = prompts.seek_system_prompt(
            wording, entity=entity, target=target, fmt=fmt, per_turn=opts["queries_per_turn"],
            max_turns=opts["max_turns"], budget=opts["budget"],
            force_ask_k=k if opts["force_ask"] else None,
        )
        state.messages.insert(0, ChatMessageSystem(content=system))
        if fmt == "tool":
            state.tools = [ask_tool(wording.noun), answer()]
            state.tool_choice = "auto"
        asked: list[str] = []
        templates = prompts.template_lines(wording, entity=entity, fmt=fmt)
        spec = answer_spec(answer_kind, entity=entity, target=target,
                           values=engine.target_values())

        def parse(message: ChatMessageAssistant) -> ParsedTurn:
            common = dict(
                entity=entity, variables=problem["variables"], askable=askable,
                observed=list(problem["observed"]), target=target, asked=asked,
                queries_per_turn=opts["queries_per_turn"], not_leaf=not_leaf,
                descriptions=problem.get("descriptions"), answer=spec,
                templates=templates,
            )
            if fmt == "tool":
                calls = [(c.function, None if c.parse_error else c.arguments)
                         for c in (message.tool_calls or [])]
                return parse_tool_calls(calls, **common)
            return parse_text_turn(message.text or "", **common)

        for turn_no in range(1, opts["max_turns"] + 2):
            final_turn = turn_no > opts["max_turns"]
            if final_turn:
                state.messages.append(ChatMessageUser(content=prompts.FINAL_TURN))
                if fmt == "tool":
                    state.tool_choice = ToolFunction(name="answer")
            st.set(STORE_OPTIONS, {**sample_opts, "final_turn": final_turn})
            message = await generate_turn(state, generate)
            parsed = _EMPTY_TURN if message is None else parse(message)
            parsed = await matched_turn(parsed, askable=askable, asked=asked,
                                        noun=wording.noun)
            record: dict[str, Any] = {
                "turn": turn_no, "action": parsed.kind, "queries": [], "answer": None,
                "answer_raw": parsed.answer_raw, "reason": parsed.reason,
                "final_turn": final_turn,
            }
            replies: list[str] = []
            if parsed.kind == "answer":
                valid_asked = len(asked)
                if opts["force_ask"] and valid_asked < k and not final_turn:
                    record["action"] = "invalid"
                    record["reason"] = "early_answer"
                    replies.append(prompts.EARLY_ANSWER.format(k=k, asked=valid_asked))
                else:
                    record["answer"] = parsed.answer_value
            elif parsed.kind == "ask":
                for query in parsed.queries:
                    entry = {"raw": query.raw, "variable": query.variable,
                             "valid": query.valid, "reason": query.reason,
                             "value": None, "reply": None}
                    if query.valid and query.variable and not final_turn:
                        value = oracle.reply(query.variable)
                        asked.append(query.variable)
                        entry["value"] = value
                        entry["reply"] = reply_text(declared, entity, query.variable, value)
                    elif query.valid and final_turn:
                        entry["valid"] = False
                        entry["reason"] = "too_many"
                        entry["reply"] = refusal_text("too_many", query.variable)
                    else:
                        entry["reply"] = refusal_text(query.reason or "malformed",
                                                      query.variable)
                    record["queries"].append(entry)
                    replies.append(entry["reply"])
            else:
                for query in parsed.queries:
                    record["queries"].append({"raw": query.raw, "variable": query.variable,
                                              "valid": False, "reason": query.reason,
                                              "value": None, "reply": None})
                replies.append(prompts.invalid_turn_message(
                    parsed.reason, wording=wording, fmt=fmt, answer_kind=answer_kind,
                    entity=entity))
            record["possible_target_values"], record["known"] = oracle.target_status()
            turns.append(record)
            st.set(STORE_TURNS, list(turns))  # records are never changed once stored
            transcript().info(turn_event(record), source=f"infoseek seek loop, turn {turn_no}")
            message = _keep_in_history(state, message, fmt, opts["carry_reasoning"])
            if record["action"] == "answer":
                st.set(STORE_FINAL, {"answer": record["answer"], "turn": turn_no})
                break
            if final_turn:
                break
            _append_replies(state, message, fmt, replies)
        return state

    return solve


def hash_seed(seed: int, problem_id: str, target_value: Any) -> str:
    return f"{seed}:{problem_id}:{target_value!r}"


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


def storable_message(message: ChatMessageAssistant) -> ChatMessageAssistant:
    """``message`` itself when all its text encodes as UTF-8, else a storable copy."""
    data = message.model_dump()
    cleaned = storable(data)
    if cleaned is data:
        return message
    return ChatMessageAssistant.model_validate(cleaned)


def turn_event(record: dict[str, Any]) -> dict[str, Any]:
    """The info event of one turn: a one-line summary, ``known`` and
    ``possible_target_values`` first (Inspect View shows a dict as a JSON panel, top
    keys first, collapsed), then the whole record under ``infoseek_turn``."""
    values = record["possible_target_values"]
    if isinstance(values, list):
        possible = ", ".join(value_label(v) for v in values)
    else:  # the UNBOUNDED marker: infinitely many values
        possible = "infinitely many"
    summary = (f"turn {record['turn']}: {record['action']}"
               f"{' (' + record['reason'] + ')' if record.get('reason') else ''}"
               f"; known: {'yes' if record['known'] else 'no'}; possible: {possible or 'none'}")
    return {"summary": summary, "known": record["known"],
            "possible_target_values": record["possible_target_values"],
            "infoseek_turn": record}




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


MAX_KEPT_CHARS = 20000
"""An action-less turn longer than this is dropped from the history rather than sent back
to the model on every later turn (the parser's `too_long` limit)."""


def _kept_turn(message: ChatMessageAssistant, fmt: str,
               carry: bool) -> ChatMessageAssistant | None:
    text = message.text or ""
    if fmt == "tool" and message.tool_calls:
        if carry:
            return message
        return ChatMessageAssistant(content="", tool_calls=message.tool_calls,
                                    model=message.model)
    actions = _action_only(text) if fmt == "text" else ""
    if actions and not carry:
        return ChatMessageAssistant(content=actions, model=message.model)
    if not text.strip() or (not actions and len(text) > MAX_KEPT_CHARS):
        return None
    if message.tool_calls:  # the text format keeps no native tool call
        return message.model_copy(update={"tool_calls": None})
    return message


def _append_replies(state: TaskState, message: ChatMessageAssistant | None, fmt: str,
                    replies: list[str]) -> None:
    """The loop's answer to a turn: one tool message per tool call the kept message
    holds (tool format), and what is left, or everything, in one user message."""
    calls = (message.tool_calls or []) if message is not None and fmt == "tool" else []
    if calls:
        # Every tool call needs a tool message; replies line up with the parsed queries.
        for i, call in enumerate(calls):
            text = replies[i] if i < len(replies) else (replies[-1] if replies else "")
            state.messages.append(
                ChatMessageTool(content=text, tool_call_id=call.id, function=call.function)
            )
        if len(replies) > len(calls):
            state.messages.append(ChatMessageUser(content="\n".join(replies[len(calls):])))
    else:
        state.messages.append(ChatMessageUser(content="\n".join(replies)))
