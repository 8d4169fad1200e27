"""Equation-system rendering (GSME style): a math record as its equations and values.

The text lists, in order: the equations (one ``T = B + P`` line each, as in the
record's engine), the revealed values (``A = 15``; the observed leaves plus any in
``reveal``), a description of every quantity, the goal, and the candidate quantities to ask about
(the names of the record's ``candidate_queries``, else its ``queryable`` list; derived
distractors included, under a heading, `CANDIDATES_HEADING`, that says only inputs are
answered). Held-out values never appear.

``render_equations(record)`` returns the text; ``reveal`` adds the hidden-world values of
more leaves (e.g. every leaf, for the full-information variant).
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from infoseek.builders.math.gsm_text import format_number


def askable_names(record: dict[str, Any]) -> list[str]:
    """The quantities the record offers for asking: ``candidate_queries`` names (entries
    are ``{"name", "kind"}`` dicts or plain names), else ``queryable``."""
    entries = record.get("candidate_queries")
    if entries is None:
        return list(record.get("queryable") or [])
    return [entry["name"] if isinstance(entry, dict) else str(entry) for entry in entries]


def shown_values(record: dict[str, Any], reveal: Iterable[str] = ()) -> dict[str, Any]:
    """Observed values plus the hidden-world values of the `reveal` names."""
    shown = dict(record["observed"])
    world = record.get("hidden_world") or {}
    for name in reveal:
        if name not in world:
            raise KeyError(f"{name!r} has no value in the hidden world")
        shown[name] = world[name]
    return shown


def render_equations(record: dict[str, Any], reveal: Iterable[str] = ()) -> str:
    """The equation-system text of a math record (see the module docstring)."""
    shown = shown_values(record, reveal)
    descriptions = record.get("descriptions") or {}
    target = record["target"]
    order = [v for v in record["variables"] if v in shown]
    lines = ["Equations:"]
    lines += [f"{name} = {rhs}" for name, rhs in record["engine"]["equations"]]
    lines += ["", "Known values:"]
    lines += [f"{v} = {format_number(shown[v])}" for v in order] or ["(none)"]
    lines += ["", "Quantities:"]
    lines += [f"{v}: {descriptions.get(v, v)}" for v in record["variables"]]
    goal = f"Goal: find the value of {target}"
    if descriptions.get(target) and descriptions[target] != target:
        goal += f" ({descriptions[target]})"
    lines += ["", goal + "."]
    asked = [v for v in askable_names(record) if v not in shown and v != target]
    lines += ["", candidates_line(", ".join(asked) if asked else "(none)")]
    return "\n".join(lines)


CANDIDATES_HEADING = (
    "Candidate quantities (only input quantities, which no equation defines, can be "
    "answered; asking for a quantity an equation defines will be refused)"
)
"""The heading of the list of quantities a math prompt offers for asking. The list keeps
the derived distractors of the published design, so the heading states the rule before
the model asks."""


def candidates_line(listed: str) -> str:
    """``"<CANDIDATES_HEADING>: <listed>"``; every math rendering ends with this line."""
    return f"{CANDIDATES_HEADING}: {listed}"
