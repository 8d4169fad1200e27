"""The contract between the layers: one definition of every name that crosses them.

Solvers write the sample store and the turn records; reference models, scorers and
reports read them back. Every key, field, action, reason and answer kind they share is
defined here once and imported from here; `docs/contracts.md` lists exactly these names
(a test compares the two). Pure: no Inspect imports.
"""

from __future__ import annotations

# ------------------------------------------------------------------ sample-store keys

STORE_PROTOCOL = "infoseek:protocol"
"""Which protocol wrote the episode: one of `PROTOCOLS`."""
STORE_PROBLEM = "infoseek:problem"
"""The problem record without its hidden fields, as one line of JSON
(`infoseek.records.stored_problem`; read back with `problem_from_store`)."""
STORE_TURNS = "infoseek:turns"
"""The turn records so far, written before every generate call."""
STORE_OPTIONS = "infoseek:options"
"""The solver's options for this sample (format, turn cap, seed, ...)."""
STORE_INITIAL = "infoseek:initial_possible"
"""Target values possible before the first turn (or `UNBOUNDED`)."""
STORE_FINAL = "infoseek:final"
"""The final answer and the turn that gave it."""
STORE_INCOMPLETE_TURNS = "infoseek:incomplete_turns"
"""The incomplete-questions protocol's own turn records."""

STORE_KEYS: tuple[str, ...] = (
    STORE_PROTOCOL, STORE_PROBLEM, STORE_TURNS, STORE_OPTIONS, STORE_INITIAL, STORE_FINAL,
    STORE_INCOMPLETE_TURNS,
)

SINGLE_TURN_PROTOCOLS: tuple[str, ...] = ("question_selection", "detection", "well_specified")
"""The single-turn protocols (SPEC 3.4-3.6; `infoseek.single_turn`)."""
PROTOCOLS: tuple[str, ...] = ("seek", "k_prediction", "mss_identification", "incomplete",
                              *SINGLE_TURN_PROTOCOLS)
"""Values of `STORE_PROTOCOL`."""

# --------------------------------------------------------------------- turn records

TURN_FIELDS: tuple[str, ...] = (
    "turn", "action", "queries", "answer", "answer_raw", "reason", "final_turn",
    "possible_target_values", "known",
)
"""The fields of one seek turn record (`STORE_TURNS`)."""

QUERY_FIELDS: tuple[str, ...] = ("raw", "variable", "valid", "reason", "value", "reply")
"""The fields of one query inside a turn record."""

ACTION_ASK = "ask"
ACTION_ANSWER = "answer"
ACTION_INVALID = "invalid"
ACTIONS: tuple[str, ...] = (ACTION_ASK, ACTION_ANSWER, ACTION_INVALID)
"""Values of a turn record's `action`."""

UNBOUNDED = "many"
"""`possible_target_values` (and `STORE_INITIAL`) when infinitely many values remain."""

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
)
"""Why a query or a turn is invalid (SPEC 2, 3.8); the scorers count each one."""

NON_ASKING_REASONS: frozenset[str] = frozenset({"early_answer", "no_action"})
"""Invalid turns that are not attempts to ask anything."""

# ------------------------------------------------------------------------ answer kinds

ANSWER_KINDS: tuple[str, ...] = ("boolean", "number", "choice", "vector", "sequence")
"""How a final answer is written, read and compared (SPEC 3.8): yes/no, one exact
number, one of a listed set, named values, an ordered list. Each is a kind of the
registry `infoseek.answers`, which a plug-in kind may join."""
