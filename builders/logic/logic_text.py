"""Natural-language rendering of logic problem records.

A logic record (see ``docs/contracts.md``) stores its rules as Horn clauses in the
literal encoding ``"x"`` / ``"not x"``.  This module turns a record into the text
the model reads: the rules, the known facts, the goal, and which attributes may or
may not be asked about.  It never looks at the hidden parts of a record (``k``,
``mss_family``, ``derivation_depth``), so the prompt cannot leak them.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from infoseek.record_views import askable_variables

__all__ = [
    "askable_variables",
    "join_words",
    "not_askable_variables",
    "render_clause",
    "render_facts",
    "render_logic_problem",
    "split_clause",
]

_NEGATION_PREFIX = "not "


def split_clause(clause: Iterable[str]) -> tuple[str | None, list[str]]:
    """Split a Horn clause into ``(head, body)``.

    ``head`` is the single positive literal (or ``None``); ``body`` lists the
    variables of the negative literals in clause order.  Raises ``ValueError``
    for an empty clause or a clause with two positive literals, and ``TypeError``
    for a literal that is not a string.
    """
    head: str | None = None
    body: list[str] = []
    literals = list(clause)
    if not literals:
        raise ValueError("cannot render an empty clause")
    for literal in literals:
        if not isinstance(literal, str):
            raise TypeError(f"literal must be a string, got {literal!r}")
        text = " ".join(literal.split())
        if text == _NEGATION_PREFIX.strip():
            raise ValueError(f"negative literal without a variable: {literal!r}")
        if text.startswith(_NEGATION_PREFIX):
            variable = text[len(_NEGATION_PREFIX) :].strip()
            if not variable:
                raise ValueError(f"negative literal without a variable: {literal!r}")
            body.append(variable)
        else:
            if not text:
                raise ValueError("empty literal in clause")
            if head is not None:
                raise ValueError(f"clause has more than one positive literal: {literals!r}")
            head = text
    return head, body


def join_words(words: Sequence[str]) -> str:
    """Join words as English prose: ``a``, ``a and b``, ``a, b and c``."""
    if not words:
        return ""
    if len(words) == 1:
        return words[0]
    return ", ".join(words[:-1]) + " and " + words[-1]


def render_clause(clause: Iterable[str], entity: str) -> str:
    """Render one Horn clause as an English sentence about ``entity``.

    * head and body: ``If Alice is b1 and b2, then Alice is h.``
    * body only:     ``Alice cannot be both b1 and b2.`` / ``Alice is not b1.``
      (three or more: ``Alice cannot be b1, b2 and b3 all at once.``)
    * head only:     ``Alice is h.``
    """
    head, body = split_clause(clause)
    if head is not None and body:
        return f"If {entity} is {join_words(body)}, then {entity} is {head}."
    if head is not None:
        return f"{entity} is {head}."
    if len(body) == 1:
        return f"{entity} is not {body[0]}."
    if len(body) == 2:
        return f"{entity} cannot be both {body[0]} and {body[1]}."
    return f"{entity} cannot be {join_words(body)} all at once."


def render_facts(observed: Mapping[str, bool], entity: str) -> list[str]:
    """One sentence per observed variable, in sorted variable order."""
    sentences = []
    for variable in sorted(observed):
        if observed[variable]:
            sentences.append(f"{entity} is {variable}.")
        else:
            sentences.append(f"{entity} is not {variable}.")
    return sentences


def not_askable_variables(record: Mapping[str, Any], forbid_alternatives: bool) -> list[str]:
    """Unobserved, non-target attributes that may not be asked about, sorted."""
    open_variables = set(record.get("variables", ()))
    open_variables -= set(record.get("observed", {}))
    open_variables.discard(record["target"])
    # Forbidden names belong here even if a record forgot to list them in variables.
    open_variables |= set(record.get("forbidden", ()))
    if forbid_alternatives:
        open_variables |= set(record.get("alternative_only", ()))
    return sorted(open_variables - set(askable_variables(record, forbid_alternatives)))


def _word_list(words: Sequence[str]) -> str:
    return ", ".join(words) + "." if words else "(none)"


def render_logic_problem(record: Mapping[str, Any], *, forbid_alternatives: bool = True) -> str:
    """The full problem statement shown to the model (deterministic)."""
    entity = record.get("entity", "Alice")
    target = record["target"]
    clauses = record["engine"]["clauses"]

    lines = [
        f"The following rules describe {entity}. Each rule always holds.",
        "",
        "Rules:",
    ]
    if clauses:
        lines.extend(
            f"{number}. {render_clause(clause, entity)}"
            for number, clause in enumerate(clauses, start=1)
        )
    else:
        lines.append("(none)")

    lines += ["", f"What is known about {entity}:"]
    facts = render_facts(record.get("observed", {}), entity)
    if facts:
        lines.extend(f"- {fact}" for fact in facts)
    else:
        lines.append("(nothing yet)")

    askable = askable_variables(record, forbid_alternatives)
    not_askable = not_askable_variables(record, forbid_alternatives)
    lines += [
        "",
        f"Goal: determine whether {entity} is {target}.",
        "",
        f"Attributes of {entity} you may ask about: {_word_list(askable)}",
        f"Attributes of {entity} you may not ask about: {_word_list(not_askable)}",
    ]
    return "\n".join(lines)
