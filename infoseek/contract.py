"""The contract between the layers: one definition of every name that crosses them.

Solvers write the sample store and the turn records; reference models, scorers and
reports read them back. Every key, field, action, reason and answer kind they share is
defined here once and imported from here; `docs/contracts.md` lists exactly these names
(a test compares the two). Pure: no Inspect imports.
"""

from __future__ import annotations

from dataclasses import dataclass, fields
from typing import Any

# ------------------------------------------------------------------ sample-store keys

STORE_PROTOCOL = "infoseek:protocol"
"""Which protocol wrote the episode: one of `PROTOCOLS`."""
STORE_PROBLEM = "infoseek:problem"
"""The problem record without its hidden fields, as one line of JSON
(`infoseek.stored_forms.stored_problem`; read back with `problem_from_store`)."""
STORE_TURNS = "infoseek:turns"
"""The turn records so far, written before every generate call."""
STORE_OPTIONS = "infoseek:options"
"""The solver's options for this sample (format, turn cap, seed, ...)."""
STORE_INITIAL = "infoseek:initial_possible"
"""Target values possible before the first turn (or `UNBOUNDED`)."""
STORE_FINAL = "infoseek:final"
"""The final answer and the turn that gave it."""

STORE_ROLES = "infoseek:roles"
"""Every reply of a bound model role, measured against the suite's exact truth
(`infoseek.oracles.roles.record_role_reply`); absent when no role model replied."""

TASK_SOURCE = "infoseek:source"
"""Key of ``Task(metadata=...)`` (``eval.metadata`` in the log) naming the file a task read
with ``-T source=``: ``file`` (its name), ``sha256`` (of its bytes; of the records read for
a URL, ``sha256_of`` saying which) and ``format`` (the source format its rows were read
in); absent for a built split. A task that reads more than one file (Twenty Questions'
name lists) also lists each in ``files``. The report keys its rows on it
(`infoseek.inspect_tasks.assembly.source_metadata` writes it)."""

STORE_KEYS: tuple[str, ...] = (
    STORE_PROTOCOL, STORE_PROBLEM, STORE_TURNS, STORE_OPTIONS, STORE_INITIAL, STORE_FINAL,
    STORE_ROLES,
)

SINGLE_TURN_PROTOCOLS: tuple[str, ...] = ("question_selection", "detection", "well_specified")
"""The single-turn protocols (protocols §3.4-3.6; `infoseek.single_turn`)."""
PROTOCOLS: tuple[str, ...] = ("seek", "k_prediction", "mss_identification", "incomplete",
                              *SINGLE_TURN_PROTOCOLS, "twenty_questions")
"""Values of `STORE_PROTOCOL`."""

# --------------------------------------------------------------------- turn records

ACTION_ASK = "ask"
ACTION_ANSWER = "answer"
ACTION_INVALID = "invalid"
ACTIONS: tuple[str, ...] = (ACTION_ASK, ACTION_ANSWER, ACTION_INVALID)
"""Values of a turn record's `action` (and of a parsed turn's `kind`)."""


@dataclass(frozen=True)
class ParsedQuery:
    """One attempted query, as a parser read it.

    ``variable`` is the problem's own spelling of the variable whenever exactly one
    known variable could be read (even if the query is invalid for another reason, e.g.
    ``forbidden``); it is ``None`` for unknown or malformed names.
    """

    raw: str
    variable: str | None
    valid: bool
    reason: str | None


@dataclass(frozen=True)
class ParsedTurn:
    """The action a model turn amounts to, before the oracle replies.

    ``kind`` is `ACTION_ASK` (``queries`` holds every attempted query, valid or not),
    `ACTION_ANSWER` (``answer_value`` holds the parsed value) or `ACTION_INVALID`
    (``reason`` says why; nothing is asked and nothing is answered).
    """

    kind: str
    queries: tuple[ParsedQuery, ...]
    answer_value: object | None
    answer_raw: str | None
    reason: str | None

    @property
    def asked_variables(self) -> tuple[str, ...]:
        """The variables of the valid queries, in order."""
        return tuple(q.variable for q in self.queries if q.valid and q.variable is not None)


@dataclass(frozen=True)
class QueryRecord:
    """One query of a turn record, with the oracle's reply (``value`` and ``reply`` stay
    ``None`` for a query that was refused before the oracle saw it)."""

    raw: str
    variable: str | None
    valid: bool
    reason: str | None
    value: Any = None
    reply: str | None = None

    def to_dict(self) -> dict[str, Any]:
        """The stored form: one key per `QUERY_FIELDS`, in that order."""
        return {name: getattr(self, name) for name in QUERY_FIELDS}


@dataclass(frozen=True)
class TurnRecord:
    """One seek turn as the sample store holds it (`STORE_TURNS`, through `to_dict`)."""

    turn: int
    action: str
    queries: tuple[QueryRecord, ...]
    answer: Any
    answer_raw: str | None
    reason: str | None
    final_turn: bool
    possible_target_values: Any
    known: bool

    def to_dict(self) -> dict[str, Any]:
        """The stored form: one key per `TURN_FIELDS`, in that order, the queries as
        `QueryRecord.to_dict` writes them."""
        stored = {name: getattr(self, name) for name in TURN_FIELDS}
        stored["queries"] = [query.to_dict() for query in self.queries]
        return stored


TURN_FIELDS: tuple[str, ...] = tuple(field.name for field in fields(TurnRecord))
"""The fields of one seek turn record (`STORE_TURNS`)."""

QUERY_FIELDS: tuple[str, ...] = tuple(field.name for field in fields(QueryRecord))
"""The fields of one query inside a turn record."""

UNBOUNDED = "many"
"""`possible_target_values` (and `STORE_INITIAL`) when infinitely many values remain."""


@dataclass(frozen=True)
class IncompleteTurnRecord:
    """One incomplete-questions turn as the sample store holds it (`STORE_TURNS`,
    through `to_dict`): the model's reply as read (``behaviour``, its answer boxes, the
    question it asked, what was set aside), the simulated user's reply to the question
    (``None`` until the user replied), and what the turn did to the episode
    (``reminded``: answered by a reminder; ``final``: it ended the episode;
    ``final_turn``: the model had no question left)."""

    turn: int
    response: str
    tool_calls: tuple[dict[str, Any], ...]
    """``{"function", "arguments"}`` of each tool call of the reply, in order."""
    behaviour: str
    boxed: str | None
    boxes: tuple[str, ...]
    answer_reason: str | None
    set_aside: tuple[str, ...]
    question: str | None
    question_via: str | None
    extra_questions: int
    says_assume_or_suppose: bool
    says_lets_say: bool
    user_reply: str | None
    user_source: str | None
    revealed: bool | None
    reminded: bool
    final_turn: bool
    final: bool
    user_error: str | None = None
    """The exception the `user` role's model raised on this turn's question (the rule
    answered instead), as ``"TypeName: message"``; None when it did not raise."""

    def to_dict(self) -> dict[str, Any]:
        """The stored form: one key per `INCOMPLETE_TURN_FIELDS`, in that order, the
        tuples as lists."""
        stored = {name: getattr(self, name) for name in INCOMPLETE_TURN_FIELDS}
        stored["tool_calls"] = [dict(call) for call in self.tool_calls]
        stored["boxes"] = list(self.boxes)
        stored["set_aside"] = list(self.set_aside)
        return stored


USER_RULE = "rule"
"""`user_source` of a reply the deterministic rule wrote (no `user` model bound)."""
USER_CHOICE = "model-choice"
"""The structured `user` model picked; the suite wrote the words."""
USER_UNREADABLE = "model-unreadable"
"""The structured `user` model's pick was unreadable; the rule replied."""
USER_FREE_TEXT = "model"
"""The free-text `user` model's own words (``-T user=free_text``)."""
USER_LEAK = "model-replaced"
"""The free-text `user` model stated the answer; the rule replied (a counted leak)."""
USER_TOO_LONG = "model-too-long"
"""The free-text `user` model's reply was too long; the rule replied."""
USER_AFTER_ERROR = "rule-after-error"
"""The `user` model raised; the rule replied (the exception in `user_error`)."""
USER_SOURCES: tuple[str, ...] = (USER_RULE, USER_CHOICE, USER_UNREADABLE, USER_FREE_TEXT,
                                 USER_LEAK, USER_TOO_LONG, USER_AFTER_ERROR)
"""Values of an incomplete turn record's `user_source` (null until the user replied)."""

INCOMPLETE_TURN_FIELDS: tuple[str, ...] = tuple(
    field.name for field in fields(IncompleteTurnRecord))
"""The fields of one incomplete-questions turn record (`STORE_TURNS`)."""


@dataclass(frozen=True)
class SingleTurnRecord:
    """The one turn of a single-turn protocol (`SINGLE_TURN_PROTOCOLS`) as the sample store
    holds it (`STORE_TURNS`, through `to_dict`): the reply's pick (the chosen option in
    question selection, the value or ``Not sure`` otherwise; ``None`` when it was not
    read), the end of the reply, and why it was not read (``None`` when it was)."""

    turn: int
    action: str
    """`ACTION_ANSWER` for a reply read, else `ACTION_INVALID`."""
    answer: Any
    answer_raw: str
    """The reply's last 2,000 characters."""
    reason: str | None

    def to_dict(self) -> dict[str, Any]:
        """The stored form: one key per `SINGLE_TURN_FIELDS`, in that order."""
        return {name: getattr(self, name) for name in SINGLE_TURN_FIELDS}


SINGLE_TURN_FIELDS: tuple[str, ...] = tuple(field.name for field in fields(SingleTurnRecord))
"""The fields of one single-turn turn record (`STORE_TURNS`)."""

# ------------------------------------------------------------------ invalid reasons

INVALID_REASONS: tuple[str, ...] = (
    "unknown",  # the name is not a variable of the problem
    "forbidden",  # a real variable that may not be asked
    "observed",  # its value was given in the problem
    "target",  # asking for the target itself
    "repeated",  # asked before, or twice in one turn
    "malformed",  # no single clean variable name, or an answer that cannot be read
    "too_many",  # beyond the queries allowed per turn
    "empty",  # an empty reply or answer (also a reply with no choices)
    "too_long",  # the reply (or a tool argument) is longer than allowed
    "bad_arguments",  # tool arguments that are not an object with the expected string
    "unknown_tool",  # a tool other than ask / answer
    "early_answer",  # an answer before k questions under force-ask
    "not_boolean",  # an answer of the wrong kind
    "no_action",  # neither a question nor an answer
    "multiple_actions",  # questions and an answer, or several answers, in one turn
    "ambiguous",  # an answer holding two or more candidate values
    "template",  # a verbatim copy of a template line of the prompt
    "out_of_range",  # a number too large or too long to read
    "not_leaf",  # a derived quantity where only leaves may be asked
    "not_sure",  # free text the matcher role could map to no listed variable
    "context_overflow",  # the prompt no longer fits the model's context (ends the episode)
    "truncated",  # the reply was cut at the output token limit (ends the episode)
)
"""Why a query or a turn is invalid (protocols §2, 3.8); the scorers count each one."""

STOP_REASONS: dict[str, str] = {"model_length": "context_overflow", "max_tokens": "truncated"}
"""Inspect's ``ModelOutput.stop_reason`` values that end an episode, and the invalid
reason each is recorded with: ``model_length`` (the provider reports the context window
exhausted; its error text comes back as the reply and is not the model's words) and
``max_tokens`` (the reply was cut at the output limit, so no action in it is read: a cut
line may hold a cut value). Nothing in such a reply is read or credited."""

TERMINAL_REASONS: frozenset[str] = frozenset(STOP_REASONS.values())
"""Invalid turn reasons after which no further generate call is made."""

NON_ASKING_REASONS: frozenset[str] = frozenset({"early_answer", "no_action",
                                               *TERMINAL_REASONS})
"""Invalid turns that are not attempts to ask anything."""

# ------------------------------------------------------------------------ answer kinds

ANSWER_KINDS: tuple[str, ...] = ("boolean", "number", "choice", "vector", "sequence")
"""How a final answer is written, read and compared (protocols §3.8): yes/no, one exact
number, one of a listed set, named values, an ordered list. Each is a kind of the
registry `infoseek.answers`, which a plug-in kind may join."""

UNDETERMINED = "cannot be determined"
"""The answer that says no question the model may ask can settle the target (issue 34,
`-T unanswerable=`): written as the whole answer line (``Answer: cannot be determined``) or
as the answer tool's value (``answer(value="cannot be determined")``); read as this text
by the seek parsers, credited only on samples that no askable variable can settle."""

OFFERS_UNDETERMINED = "offers_undetermined"
"""The sample metadata key, True on every sample of a task that offers the
`UNDETERMINED` answer (``-T unanswerable=`` above 0): only there do the seek parsers read
it (`infoseek.solvers.seek.parse_context.ParseContext.undetermined`)."""

# ------------------------------------------------------------------ limits and defaults

MAX_TURN_CHARS = 20_000
"""The longest model turn that is read whole: a longer text (or tool argument) is
``too_long`` in the seek loop, and dropped from the history when it holds no action; in
the single-turn protocols an answer (the text after the ``Answer:`` line, or a reply
without one) longer than this is ``too_long``."""

INTERACTION_FORMATS: tuple[str, ...] = ("tool", "text")
"""How a model asks and answers, a task's ``-T format=`` (an options object's ``format``):
``tool`` (the ``ask`` / ``answer`` tools) or ``text`` (``Question:`` / ``Answer:`` lines,
or the protocol's tags)."""

ASK_TOOL = "ask"
ANSWER_TOOL = "answer"
"""The two tools of the tool format: the seek loop offers them, the tool parser reads
calls of them, the reference models make them."""
ASK_QUESTION_TOOL = "ask_question"
"""The asking tool of incomplete_questions. It was ``ask_user`` until issue 32, the name of
Inspect's own built-in tool; a call of that name is still read as a question."""

DEFAULT_MAX_TURNS = 10
"""The seek loop's turn cap unless a task says otherwise; after it one more turn asks
for the final answer."""
FULL_INFORMATION_MAX_TURNS = 1
"""The turn cap of the full-information tasks (``*_full``): every value is given, so the
model answers at once."""


def long_turn_cap(k: Any) -> int:
    """The turn cap of a task whose k may be large (`logic_mt`, `gsme_mt_ext`, their hard
    splits) when it is not given: `DEFAULT_MAX_TURNS`, or twice the largest k (an int or
    a list; what is not an integer is left for the task's check) when that is more."""
    values = k if isinstance(k, list) else [k]
    largest = max([v for v in values if isinstance(v, int) and not isinstance(v, bool)],
                  default=1)
    return max(DEFAULT_MAX_TURNS, 2 * largest)

DEFAULT_FORBID_ALTERNATIVES = False
"""Whether variables found only in non-canonical MSSs may not be asked (and only the
canonical MSS counts in MSS identification), unless a task says otherwise."""
LOGIC_FORBID_ALTERNATIVES = True
"""The logic tasks' default: protocols §3.1 makes forbid-alternatives the Logic default (the
published Logic-Q-MT setting), so the canonical MSS is the only way through."""
