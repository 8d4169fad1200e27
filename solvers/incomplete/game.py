"""The incomplete-questions protocol's pure game (protocols §3.7): its options, one
episode's state, and the step from the model's parsed reply to the turn record and what
the model is told next. No Inspect here; the solver (`infoseek.solvers.incomplete.solver`)
is the adapter that generates, parses, asks the simulated user and keeps the history.

`IncompleteOptions` holds the options of one run, checked once when made; `stored` is the
dict the solver writes under ``infoseek:options`` (with the turn's ``final_turn``).

`play_turn` applies the rules of one turn:

* in the `questionable` variant a question (`asked_question`) is answered by the user
  while the model has questions left (`IncompleteEpisode.final_turn` is false): the
  episode goes on, and the solver hands the user's reply to `user_replied`, which fills
  it into the turn record and says what the model is told (the reply, and that no
  question is left once the last one is used);
* in the `questionable` variant the first reply with neither an answer tag nor a
  question (`no_answer_tag`) gets one reminder in plain words (`reminded`; it costs no
  question), also on the final turn;
* anything else ends the episode (`final`): an answer, a question with none left, a
  second reply without an answer, every reply in `raw` and `full`, and a reply Inspect
  marked as stopped at the context window or the output limit (`stopped_reply`: nothing
  in it is read).
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Any

from infoseek.contract import STOP_REASONS, IncompleteTurnRecord
from infoseek.solvers.incomplete.prompts import (
    NO_QUESTIONS_LEFT,
    NO_TAG_REMINDER_FINAL,
    NO_TAG_REMINDER_TEXT,
    NO_TAG_REMINDER_TOOL,
)
from infoseek.solvers.incomplete.reading import ParsedReply
from infoseek.solvers.options import SolverOptions

QUESTIONABLE = "questionable"
"""The variant in which the model may ask the user."""
VARIANTS: tuple[str, ...] = ("raw", QUESTIONABLE, "full")
FORMATS: tuple[str, ...] = ("text", "tool")
STRUCTURED, FREE_TEXT = "structured", "free_text"
USER_KINDS: tuple[str, ...] = (STRUCTURED, FREE_TEXT)
"""The simulated user's kinds (the task's ``user`` parameter)."""


@dataclass(frozen=True)
class IncompleteOptions(SolverOptions):
    """The options of an incomplete-questions run, checked when made (a ValueError names
    the bad one)."""

    variant: str = QUESTIONABLE
    """``raw`` (the incomplete question), ``questionable`` (a reply may ask the user one
    question) or ``full`` (the original question)."""
    max_interactions: int = 5
    """The most questions the user answers (>= 0)."""
    format: str = "text"
    """``"text"`` (``<question>`` tags) or ``"tool"`` (the ``ask_question`` tool)."""
    seed: int = 0
    """Recorded in the options."""
    user: str = STRUCTURED
    """``"structured"`` (the user model only picks which missing condition a question asks
    for; the seeker reads the suite's own words) or ``"free_text"`` (the user model's own
    words, through the leak filter: documented as leaky)."""

    def __post_init__(self) -> None:
        self.check_choice("variant", VARIANTS)
        self.check_choice("format", FORMATS)
        self.check_whole("max_interactions", least=0)
        self.check_choice("user", USER_KINDS)

    def stored(self) -> dict[str, Any]:
        """The options as the store holds them (`infoseek.contract.STORE_OPTIONS`; the
        solver adds ``final_turn``)."""
        return {"variant": self.variant, "max_interactions": self.max_interactions,
                "format": self.format, "seed": self.seed, "user": self.user}


@dataclass
class IncompleteEpisode:
    """The state of one episode: its rules (variant, question cap, format), the questions
    the user answered, whether the one reminder was sent, and the turns played."""

    variant: str
    max_interactions: int
    fmt: str
    """``"text"`` or ``"tool"``: how the reminders tell the model to ask."""
    turns: list[IncompleteTurnRecord] = field(default_factory=list)
    asked: int = 0
    """The questions the user answered so far."""
    reminded: bool = False

    @property
    def may_ask(self) -> bool:
        return self.variant == QUESTIONABLE

    @property
    def uses_tools(self) -> bool:
        """Whether the model asks with the `ask_question` tool (else with a tag)."""
        return self.may_ask and self.fmt == "tool"

    @property
    def final_turn(self) -> bool:
        """Whether the model has no question left for its next reply."""
        return not self.may_ask or self.asked >= self.max_interactions


@dataclass(frozen=True)
class UserReply:
    """The simulated user's reply to a question: its text, who wrote it (`user_source`:
    ``rule``, ``model-choice``, ``model-unreadable``, ``model``, ``model-replaced``,
    ``model-too-long``, ``rule-after-error``; `infoseek.solvers.incomplete.user`),
    whether it conveys the condition, and the exception the role raised (if it did)."""

    text: str
    source: str
    revealed: bool
    error: str | None = None


@dataclass(frozen=True)
class Step:
    """What one turn did: its record, whether the user must now reply to the question it
    asked (then `user_replied` says what the model is told), and otherwise what the model
    is told next (a reminder), or ``None`` when the episode is over."""

    record: IncompleteTurnRecord
    asks_user: bool
    told: str | None


def stopped_reply(reason: str) -> ParsedReply:
    """What a reply Inspect marks as stopped amounts to: nothing read (no box, no
    question, no hedge word), its behaviour and `answer_reason` the stop reason
    (`context_overflow` or `truncated`; `STOP_REASONS`)."""
    if reason not in STOP_REASONS.values():
        raise ValueError(f"not a stop reason: {reason!r}")
    return ParsedReply(behaviour=reason, boxed=None, question=None, question_via=None,
                       extra_questions=0, says_assume_or_suppose=False,
                       says_lets_say=False, answer_reason=reason)


def play_turn(episode: IncompleteEpisode, parsed: ParsedReply, *, response: str,
              tool_calls: tuple[dict[str, Any], ...] = ()) -> Step:
    """Play one model reply (module docstring): the episode records it
    (``episode.turns``, ``episode.reminded``) and the step says what comes next.
    `response` is the reply's text, `tool_calls` its ``{"function", "arguments"}``."""
    final_turn = episode.final_turn
    asks_user = (episode.may_ask and not final_turn
                 and parsed.behaviour == "asked_question")
    remind = (episode.may_ask and not episode.reminded
              and parsed.behaviour == "no_answer_tag")
    record = IncompleteTurnRecord(
        turn=len(episode.turns) + 1, response=response, tool_calls=tuple(tool_calls),
        behaviour=parsed.behaviour, boxed=parsed.boxed, boxes=tuple(parsed.boxes),
        answer_reason=parsed.answer_reason, set_aside=tuple(parsed.set_aside),
        question=parsed.question, question_via=parsed.question_via,
        extra_questions=parsed.extra_questions,
        says_assume_or_suppose=parsed.says_assume_or_suppose,
        says_lets_say=parsed.says_lets_say,
        user_reply=None, user_source=None, revealed=None,
        reminded=remind, final_turn=final_turn, final=not (asks_user or remind))
    episode.turns.append(record)
    told = None
    if remind:
        episode.reminded = True
        told = NO_TAG_REMINDER_FINAL if final_turn else (
            NO_TAG_REMINDER_TOOL if episode.uses_tools else NO_TAG_REMINDER_TEXT)
    return Step(record=record, asks_user=asks_user, told=told)


def user_replied(episode: IncompleteEpisode, reply: UserReply) -> str:
    """Record the user's reply to the question of the last turn (which `play_turn` said
    asks the user) and count the question; what the model is told: the reply, and that
    it has no question left once the last one is used."""
    last = episode.turns[-1]
    episode.turns[-1] = replace(last, user_reply=reply.text, user_source=reply.source,
                                revealed=reply.revealed, user_error=reply.error)
    episode.asked += 1
    if episode.asked >= episode.max_interactions:
        return f"{reply.text}\n\n{NO_QUESTIONS_LEFT}"
    return reply.text
