"""The seek protocol's pure game (protocols §3.1): its options, one episode's state, and
the step from the model's parsed turn to the turn record and the examiner's replies. No
Inspect here; the seek solver (`infoseek.solvers.seek.solver`) is the adapter that
generates, parses and keeps the history.

`SeekOptions` holds the options of one run, checked once when made (a task makes them
from its checked `-T` parameters, `infoseek.inspect_tasks.assembly.seek_task`); its
defaults are the loop's own, for what a task does not offer. `stored` is the dict the
solver writes under ``infoseek:options`` (`infoseek.contract.STORE_OPTIONS`), which the
scorers and the reference models read.

`play_turn` applies the rules of one turn:

* an answer ends the episode, except under force-ask before k valid questions (and not
  on the final turn), where it is refused with ``early_answer``;
* each valid question gets the oracle's value in the domain's wording; on the final
  turn (after the cap) a question is refused with ``too_many`` and the oracle never sees
  it; an invalid question gets its refusal in the domain's word for a variable;
* an invalid turn records its queries as invalid and gets one correction; when the next
  turn is the final one, the correction only says what was wrong (no "ask or answer"
  reminder, and an early answer is not told to ask first), since the final turn's
  message, which the solver sends in the same user message, says to answer now: one
  message per turn, never two that contradict each other;
* a reply Inspect marks as stopped by the context window or the output limit
  (`infoseek.contract.STOP_REASONS`: ``context_overflow``, ``truncated``) is an invalid
  turn that ends the episode (`infoseek.contract.TERMINAL_REASONS`): nothing in it is
  read, no correction follows, no further turn is played.

The oracle alone knows the hidden target value; nothing here writes it anywhere but in
`possible_target_values` / `known`, which the record holds after every turn (the same
engine verdict the scorers rebuild).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from infoseek.contract import (
    ACTION_ANSWER,
    ACTION_ASK,
    ACTION_INVALID,
    DEFAULT_FORBID_ALTERNATIVES,
    DEFAULT_MAX_TURNS,
    INTERACTION_FORMATS,
    TERMINAL_REASONS,
    ParsedQuery,
    ParsedTurn,
    QueryRecord,
    TurnRecord,
)
from infoseek.domains import Domain
from infoseek.oracles.policies import UNSURE, Oracle, check_policy
from infoseek.oracles.refusals import (
    EARLY_ANSWER,
    EARLY_ANSWER_LAST,
    invalid_turn_message,
    invalid_turn_problem,
    refusal_text,
)
from infoseek.oracles.withholding import WITHHELD, WITHHELD_REPLY
from infoseek.solvers.options import SolverOptions


@dataclass(frozen=True)
class SeekOptions(SolverOptions):
    """The options of the seek loop, checked when made: a ValueError names the bad one
    (the format, the oracle policy through `infoseek.oracles.check_policy`, a turn cap
    or a query count that is not an integer >= 1). The flags are stored as booleans."""

    format: str = "tool"
    """``"tool"`` (``ask`` / ``answer`` tools) or ``"text"`` (``Question:`` /
    ``Answer:`` lines)."""
    max_turns: int = DEFAULT_MAX_TURNS
    """The turn cap; after it one more turn asks for the final answer."""
    queries_per_turn: int = 1
    """How many variables one turn may ask."""
    budget: bool = False
    """State "T turns x q queries per turn" in the prompt."""
    force_ask: bool = False
    """Refuse an answer given before k questions were asked."""
    forbid_alternatives: bool = DEFAULT_FORBID_ALTERNATIVES
    """Variables of non-canonical MSSs may not be asked."""
    carry_reasoning: bool = False
    """Keep the model's earlier reasoning in the history."""
    oracle: str = "adversarial"
    """The oracle policy (`infoseek.oracles.ORACLE_POLICIES` or ``"world"``)."""
    seed: int = 0
    """The oracle's seed (the random policy's draws)."""

    def __post_init__(self) -> None:
        self.check_choice("format", INTERACTION_FORMATS)
        check_policy(self.oracle)
        self.check_whole("max_turns", "queries_per_turn", least=1)
        for name in ("budget", "force_ask", "forbid_alternatives", "carry_reasoning"):
            object.__setattr__(self, name, bool(getattr(self, name)))

    def stored(self) -> dict[str, Any]:
        """The options as the store holds them (`infoseek.contract.STORE_OPTIONS`; the
        solver adds the sample's ``target_index`` and the turn's ``final_turn``)."""
        return {"format": self.format, "max_turns": self.max_turns,
                "queries_per_turn": self.queries_per_turn, "budget": self.budget,
                "force_ask": self.force_ask, "forbid_alternatives": self.forbid_alternatives,
                "carry_reasoning": self.carry_reasoning, "oracle": self.oracle,
                "seed": self.seed}


@dataclass
class Episode:
    """The state of one seek episode: the oracle for the hidden instance, the rules that
    apply (turn cap, force-ask), the variables validly asked and the turns played."""

    oracle: Oracle
    domain: Domain
    """The record's domain declaration: its wording of replies and refusals, its
    answer kind."""
    entity: str
    fmt: str
    """``"tool"`` or ``"text"``: how the corrections tell the model to act."""
    max_turns: int
    k: int = 0
    force_ask: bool = False
    withholding: dict[str, Any] | None = None
    """The withholding oracle's stored choice for this episode
    (`infoseek.oracles.withholding.episode_withholding`); None under other oracles."""
    asked: list[str] = field(default_factory=list)
    turns: list[TurnRecord] = field(default_factory=list)

    @property
    def turn_number(self) -> int:
        """The number of the turn to play next (1-based)."""
        return len(self.turns) + 1

    @property
    def final_turn(self) -> bool:
        """Whether the next turn is the one after the cap, when only an answer counts."""
        return self.turn_number > self.max_turns

    @property
    def over(self) -> bool:
        """Whether the last turn answered, was the final turn, or ended the episode
        (a terminal reason: the model's context or output limit was reached)."""
        return bool(self.turns) and (self.turns[-1].action == ACTION_ANSWER
                                     or self.turns[-1].final_turn
                                     or self.turns[-1].reason in TERMINAL_REASONS)


def reply_text(domain: Domain, entity: str, variable: str, value: Any) -> str:
    """The oracle's reply in the domain's wording (`infoseek.domains.Wording`); a withheld
    variable's "unknown" in the withholding oracle's words."""
    if value == WITHHELD:
        return WITHHELD_REPLY.format(noun=domain.wording.noun, variable=variable)
    if value == UNSURE:
        return domain.wording.unsure.format(entity=entity, variable=variable)
    return domain.reply(entity, variable, value)


def play_turn(episode: Episode, parsed: ParsedTurn) -> tuple[TurnRecord, list[str]]:
    """Play one model turn: the oracle replies to its valid questions, the episode
    records it (``episode.turns``, ``episode.asked``), and the result is the turn record
    with the replies to send back, in query order (module docstring)."""
    final_turn = episode.final_turn
    # the next turn is the final one, whose message says to answer now
    closing = not final_turn and episode.turn_number >= episode.max_turns
    action, reason, answer = parsed.kind, parsed.reason, None
    queries: list[QueryRecord] = []
    replies: list[str] = []
    if parsed.kind == ACTION_ANSWER:
        if episode.force_ask and len(episode.asked) < episode.k and not final_turn:
            action, reason = ACTION_INVALID, "early_answer"
            early = EARLY_ANSWER_LAST if closing else EARLY_ANSWER
            replies.append(early.format(k=episode.k, asked=len(episode.asked)))
        else:
            answer = parsed.answer_value
    elif parsed.kind == ACTION_ASK:
        for query in parsed.queries:
            queries.append(_asked(episode, query, final_turn))
            replies.append(queries[-1].reply)
    elif parsed.reason in TERMINAL_REASONS:
        pass  # the episode ends: nothing was read, nothing is said back
    else:
        queries = [QueryRecord(q.raw, q.variable, False, q.reason) for q in parsed.queries]
        if closing:  # what was wrong only: the final turn's message says what to do
            replies.append(invalid_turn_problem(parsed.reason, fmt=episode.fmt,
                                                answer_kind=episode.domain.answer_kind))
        else:
            replies.append(invalid_turn_message(
                parsed.reason, wording=episode.domain.wording, fmt=episode.fmt,
                answer_kind=episode.domain.answer_kind, entity=episode.entity))
    possible, known = episode.oracle.target_status()
    record = TurnRecord(
        turn=episode.turn_number, action=action, queries=tuple(queries), answer=answer,
        answer_raw=parsed.answer_raw, reason=reason, final_turn=final_turn,
        possible_target_values=possible, known=known)
    episode.turns.append(record)
    return record, replies


def _asked(episode: Episode, query: ParsedQuery, final_turn: bool) -> QueryRecord:
    """One question of an asking turn, replied to or refused."""
    noun = episode.domain.wording.noun
    if query.valid and query.variable and not final_turn:
        value = episode.oracle.reply(query.variable)
        episode.asked.append(query.variable)
        return QueryRecord(query.raw, query.variable, query.valid, query.reason, value,
                           reply_text(episode.domain, episode.entity, query.variable, value))
    if query.valid and final_turn:
        return QueryRecord(query.raw, query.variable, False, "too_many", None,
                           refusal_text("too_many", query.variable, noun=noun))
    return QueryRecord(query.raw, query.variable, query.valid, query.reason, None,
                       refusal_text(query.reason or "malformed", query.variable, noun=noun))
