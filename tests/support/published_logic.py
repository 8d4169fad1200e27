"""Shared pieces of the logic published-format tests: a row reference and a small
hand-made Logic-Q-MT row."""

from __future__ import annotations

from pathlib import Path

from infoseek.builders.published.cells import RowRef

REF = RowRef("made.csv", 1)
MT_FILE = Path(__file__).parent / "fixtures" / "published" / "logic_q_mt.csv"


def check_names(found) -> list[str]:
    """The sorted check names of what `verify` reported."""
    return sorted(d["check"] for d in found)


def small_row(**changes) -> dict[str, str]:
    """A hand-made k = 1 Logic-Q-MT row: g <-> a, and g <- b & c with c known true."""
    row = {
        "sample_id": "7", "k": "1", "goal": "g",
        "known_facts": "['c']", "known_untrue_facts": "[]", "cannot_ask_facts": "[]",
        "rules": "[['g', 'not a'], ['a', 'not g'], ['g', 'not b', 'not c']]",
        "gt_qs": "[['a']]", "all_alternative_gt_qs": "[['a']]",
        "all_valid_qs": "['a', 'b']", "all_valid_qs_forbid_alternatives": "['a', 'b']",
        "max_depth": "1", "num_constraints": "3", "num_vars": "4",
    }
    row.update(changes)
    return row
