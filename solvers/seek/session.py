"""One sample's seek episode as an object: what the built-in loop (`infoseek.solvers.seek.solver`)
and the real `ask` / `answer` tools (`infoseek.solvers.seek.tools`) both play against.

`start_session` does everything the loop did before its first generate call: it builds
the episode (the engine, the oracle for the hidden instance, the parse context), writes
the protocol, the problem (without hidden fields), the options, the initial target values
and an empty turn list to the sample store (`infoseek.solvers.turns.EpisodeWriter`), puts
the system prompt first in the conversation and offers the tools in the tool format. It
keeps the session in a context variable, so every tool call, continue check or loop of
the same sample reaches it (`current_session`); samples never share one (each runs in its
own task, with its own copy of the context).

`SeekSession.play` is one turn, whoever played it: the matcher role (when bound), the
game (`infoseek.solvers.seek.game.play_turn`), the turn record stored whole before
anything else happens, the turn's info event, and the final answer when the turn
answered. The hidden target value and world stay inside the oracle: nothing here puts
them in the store, a message or a tool's description.
"""

from __future__ import annotations

from contextvars import ContextVar
from dataclasses import dataclass, field
from typing import Any

from inspect_ai.log import transcript
from inspect_ai.model import ChatMessageSystem
from inspect_ai.solver import TaskState

from infoseek.answers import answer_kind, answer_spec
from infoseek.contract import ACTION_ANSWER, OFFERS_UNDETERMINED, ParsedTurn, TurnRecord
from infoseek.domains import domain_of
from infoseek.engine import possible_values_record
from infoseek.oracles import WITHHOLDING_ALL_POLICY, WITHHOLDING_POLICY, Oracle
from infoseek.oracles.withholding import episode_withholding, episode_withholding_all
from infoseek.record_views import askable_variables, not_leaf_variables
from infoseek.records import engine_from_record
from infoseek.solvers.dataset import value_label
from infoseek.solvers.seek import prompts
from infoseek.solvers.seek.game import Episode, SeekOptions, play_turn
from infoseek.solvers.seek.matcher import matched_turn
from infoseek.solvers.seek.parse_context import ParseContext
from infoseek.solvers.turns import EpisodeWriter
from infoseek.stored_forms import sample_problem, stored_problem

_SESSION: ContextVar[SeekSession | None] = ContextVar("infoseek_seek_session", default=None)


@dataclass
class SeekSession:
    """The seek episode of the running sample and how it is recorded."""

    episode: Episode
    context: ParseContext
    writer: EpisodeWriter
    sample_options: dict[str, Any]
    """The options the store holds (without ``final_turn``, added per turn)."""
    final_text: str
    """The final turn's message: answer now."""
    turns: list[dict[str, Any]] = field(default_factory=list)
    """The turn records so far, as stored."""
    played_calls: int = 0
    """Tool calls played since the agent's last continue check (`infoseek.solvers.seek.tools`)."""

    @property
    def noun(self) -> str:
        """The domain's word for a variable (the `ask` tool's description uses it)."""
        return self.episode.domain.wording.noun

    def write_options(self) -> None:
        """The options with the next turn's ``final_turn``, before that turn is generated."""
        self.writer.options({**self.sample_options, "final_turn": self.episode.final_turn})

    async def play(self, parsed: ParsedTurn) -> tuple[TurnRecord, list[str]]:
        """One turn: matched (when a matcher role is bound), played, and recorded (the
        turn list, the info event, the final answer when it answered); returns the record
        and the replies in query order."""
        parsed = await matched_turn(parsed, askable=self.context.askable,
                                    asked=self.episode.asked, noun=self.noun)
        record, replies = play_turn(self.episode, parsed)
        self.turns.append(record.to_dict())
        self.writer.turns(self.turns)
        transcript().info(turn_event(self.turns[-1]),
                          source=f"infoseek seek loop, turn {record.turn}")
        if record.action == ACTION_ANSWER:
            self.writer.final({"answer": record.answer, "turn": record.turn})
        return record, replies


def current_session() -> SeekSession | None:
    """The running sample's session, or None when no seek episode was started in it."""
    return _SESSION.get()


def start_session(state: TaskState, opts: SeekOptions) -> SeekSession:
    """Start the sample's episode (module docstring): the store, the system prompt, the
    tools in the tool format; the session becomes `current_session`."""
    from infoseek.solvers.seek.tools import seek_tool_list

    problem: dict[str, Any] = sample_problem(state.metadata)
    episode, context = start_episode(problem, state.metadata, opts)
    wording = episode.domain.wording
    engine = episode.oracle.engine
    sample_opts = {**opts.stored(), "target_index": state.metadata.get("target_index", 0)}
    if episode.withholding is not None:
        sample_opts["withholding"] = episode.withholding
    writer = EpisodeWriter("seek", stored_problem(problem), state.epoch)
    writer.options(sample_opts)
    writer.initial(possible_values_record(engine.target_values(),
                                          engine.domain(engine.target)))
    writer.turns([])
    state.messages.insert(0, ChatMessageSystem(content=prompts.seek_system_prompt(
        wording, entity=episode.entity, target=context.target, fmt=opts.format,
        per_turn=opts.queries_per_turn, max_turns=opts.max_turns,
        budget=opts.budget, force_ask_k=episode.k if opts.force_ask else None)))
    if opts.format == "tool":
        state.tools = seek_tool_list(wording.noun)
        state.tool_choice = "auto"
    final_text = prompts.final_turn_prompt(
        wording, entity=episode.entity, target=context.target, fmt=opts.format,
        multiline=answer_kind(context.answer).multiline)
    session = SeekSession(episode, context, writer, sample_opts, final_text)
    session.write_options()
    _SESSION.set(session)
    return session


def start_episode(problem: dict[str, Any], metadata: dict[str, Any],
                  opts: SeekOptions) -> tuple[Episode, ParseContext]:
    """The episode of one sample (its oracle holds the hidden target value and world)
    and the context its turns are parsed in."""
    target_value = metadata.get("target_value", problem.get("answer"))
    engine = engine_from_record(problem)
    askable = askable_variables(problem, opts.forbid_alternatives)
    withholding = (episode_withholding(problem, askable, opts.seed, engine)
                   if opts.oracle == WITHHOLDING_POLICY else
                   episode_withholding_all(problem, askable, opts.seed, engine)
                   if opts.oracle == WITHHOLDING_ALL_POLICY else None)
    oracle = Oracle(engine, target_value, policy=opts.oracle,
                    seed=hash_seed(opts.seed, problem["id"], target_value),
                    hidden_world=metadata.get("hidden_world", problem.get("hidden_world")),
                    withheld=frozenset(withholding["withheld"] if withholding else ()),
                    keep_open_over=(frozenset(v for v in askable
                                              if v not in withholding["withheld"])
                                    if withholding and withholding.get("none_learnable")
                                    else None))
    domain = domain_of(problem)
    entity = problem.get("entity", "Alice")
    target = problem["target"]
    episode = Episode(oracle=oracle, domain=domain, entity=entity, fmt=opts.format,
                      max_turns=opts.max_turns, k=int(problem.get("k", 0)),
                      force_ask=opts.force_ask, withholding=withholding)
    context = ParseContext(
        entity=entity, variables=problem["variables"],
        askable=askable,
        observed=list(problem["observed"]), target=target,
        queries_per_turn=opts.queries_per_turn, not_leaf=not_leaf_variables(problem),
        descriptions=problem.get("descriptions"),
        answer=answer_spec(domain.answer_kind, entity=entity, target=target,
                           values=engine.target_values()),
        templates=prompts.template_lines(domain.wording, entity=entity, fmt=opts.format),
        undetermined=(opts.oracle == WITHHOLDING_ALL_POLICY
                      or metadata.get(OFFERS_UNDETERMINED) is True))
    return episode, context


def hash_seed(seed: int, problem_id: str, target_value: Any) -> str:
    return f"{seed}:{problem_id}:{target_value!r}"


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
