"""The planning problem as the model reads it: the PDDL domain, the blocks, the observed
atoms of the initial state (true and false), the goal and what is asked. It never reads
the hidden parts of a record (``k``, ``mss_family``, the target values)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from infoseek.engines.planning.engine import atom_text
from infoseek.engines.planning.pddl import block_names, domain_text
from infoseek.record_views import askable_variables


def _atoms(names: list[str]) -> str:
    return " ".join(atom_text(n) for n in names) if names else "(none)"


def render(record: Mapping[str, Any], *, forbid_alternatives: bool = False) -> str:
    """The problem statement (deterministic)."""
    spec = record["engine"]
    blocks = block_names(spec["blocks"])
    observed = record.get("observed", {})
    true = sorted(a for a, v in observed.items() if v is True)
    false = sorted(a for a, v in observed.items() if v is False)
    askable = askable_variables(dict(record), forbid_alternatives)
    hidden = sorted(set(record["variables"]) - set(observed) - {record["target"]})
    lines = [
        "A Blocks World planning problem. The domain, in PDDL:",
        "",
        domain_text().strip(),
        "",
        f"Blocks: {' '.join(blocks)}. Every block is on the table, on exactly one other "
        "block, or held by the arm; the arm holds at most one block.",
        "",
        "What is known about the initial state:",
        f"- true: {_atoms(true)}",
        f"- false: {_atoms(false)}",
        f"Every other atom of the initial state is unknown ({len(hidden)} atoms).",
        "",
        f"Goal: {' '.join(spec['goal'])}",
        "The task: a shortest plan (fewest actions) from the initial state to a state where "
        "the goal holds.",
    ]
    if len(askable) < len(hidden):
        lines += ["", f"Atoms you may ask about: {_atoms(askable)}"]
    return "\n".join(lines)
