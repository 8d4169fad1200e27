"""One seek episode as a plain game (protocols §3.1): the model's parsed turn in, the turn
record and the examiner's replies out. No Inspect here; the seek solver
(`infoseek.solvers.seek.solver`) is the adapter that generates, parses and keeps the history.

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
    TERMINAL_REASONS,
    ParsedQuery,
    ParsedTurn,
    QueryRecord,
    TurnRecord,
)
from infoseek.domains import Domain
from infoseek.oracles.policies import UNSURE, Oracle
from infoseek.oracles.refusals import (
    EARLY_ANSWER,
    EARLY_ANSWER_LAST,
    invalid_turn_message,
    invalid_turn_problem,
    refusal_text,
)


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
    """The oracle's reply in the domain's wording (`infoseek.domains.Wording`)."""
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
