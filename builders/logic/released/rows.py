"""Logic records written back in the released Logic-Q layouts (the inverse of
`infoseek.builders.logic.released.source_format`): used to write the test fixtures, the
round-trip tests and the source-format benchmark. Cells are encoded as released: Python
literals for fact lists and rules, JSON for Logic-Q-MT's ground-truth lists, set literals
for QuestBench's `all_qs` / `all_valid_qs`.
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from typing import Any

from infoseek.builders.published import Record

# The released column orders (the loaders read columns by name; these are for writing
# fixtures and round trips in the released layout).
MT_COLUMNS = (
    "k", "known_facts", "known_untrue_facts", "cannot_ask_facts", "cannot_ask_facts_sets",
    "goal", "rules", "max_depth", "min_num_rules_needed", "num_constraints", "num_vars",
    "all_qs", "all_valid_qs", "gt_qs", "gt_q_to_derivations_min_rules",
    "gt_q_to_derivations_min_depth", "all_alternative_gt_qs",
    "all_valid_qs_forbid_alternatives", "num_all_alternative_gt_qs", "num_all_valid_qs",
    "num_all_valid_qs_forbid_alternatives", "inferred_variable_values", "sample_id",
)
QUESTBENCH_COLUMNS = (
    "known_facts", "known_untrue_facts", "cannot_ask_facts", "goal", "rules", "max_depth",
    "min_num_rules_needed", "num_constraints", "num_vars", "all_qs", "all_valid_qs", "gt_qs",
    "gt_q_to_true_derivation", "gt_q_to_false_derivation",
)


def _set_text(names: Iterable[str]) -> str:
    """A Python set literal with sorted members (a set's own repr order varies by run)."""
    names = sorted(names)
    return "{" + ", ".join(map(repr, names)) + "}" if names else "set()"


def _literal_counts(record: Record) -> tuple[list[str], int]:
    """(attributes that occur positively in a rule, number of distinct literals): the
    released `all_qs` and `num_vars` (which counts `x` and `not x` separately)."""
    clauses = record["engine"]["clauses"]
    literals = {lit for clause in clauses for lit in clause}
    positive = sorted(lit for lit in literals if not lit.startswith("not "))
    return positive, len(literals)


def _cannot_ask_text(record: Record) -> str:
    """The released `cannot_ask_facts`: the known facts, the goal and the forbidden."""
    known = [v for v, x in record["observed"].items() if x]
    return repr(sorted({*known, record["target"], *record.get("forbidden", ())}))


def mt_row_from_record(record: Record, sample_id: Any = None) -> dict[str, str]:
    """A record in the `logic_q_mt.csv` layout, cells encoded as in the release (Python
    literals, JSON for the ground-truth lists); the inverse of `mt_record_from_row`, used
    for fixtures and round-trip tests. The forbid-alternatives list is `all_valid_qs`
    minus every name of every MSS, as released."""
    family = [sorted(s) for s in record["mss_family"]]
    in_family = {v for s in family for v in s}
    queryable = sorted(record["queryable"])
    offered = [v for v in queryable if v not in in_family]
    all_qs, num_literals = _literal_counts(record)
    return {
        "k": str(record["k"]),
        "known_facts": repr(sorted(v for v, x in record["observed"].items() if x)),
        "known_untrue_facts": repr(sorted(v for v, x in record["observed"].items() if not x)),
        "cannot_ask_facts": _cannot_ask_text(record),
        "cannot_ask_facts_sets": "[]",
        "goal": record["target"],
        "rules": repr(record["engine"]["clauses"]),
        "max_depth": _text(record.get("derivation_depth")),
        "min_num_rules_needed": "",
        "num_constraints": str(len(record["engine"]["clauses"])),
        "num_vars": str(num_literals),
        "all_qs": repr(all_qs),
        "all_valid_qs": repr(queryable),
        "gt_qs": json.dumps([family[0]]),
        "gt_q_to_derivations_min_rules": "[]",
        "gt_q_to_derivations_min_depth": "[]",
        "all_alternative_gt_qs": json.dumps(sorted(family)),
        "all_valid_qs_forbid_alternatives": json.dumps(offered),
        "num_all_alternative_gt_qs": str(len(family)),
        "num_all_valid_qs": str(len(queryable)),
        "num_all_valid_qs_forbid_alternatives": str(len(offered)),
        "inferred_variable_values": "{}",
        "sample_id": "" if sample_id is None else str(sample_id),
    }


def questbench_row_from_record(record: Record, *, quoted_goal: bool = False) -> dict[str, str]:
    """A k = 1 record in the QuestBench Logic-Q layout (`gt_qs` = every sufficient
    single attribute, taken from the record's family; `all_qs` / `all_valid_qs` as set
    literals, as released)."""
    if record["k"] != 1:
        raise ValueError("QuestBench Logic-Q rows describe k = 1 problems")
    singles = sorted({v for s in record["mss_family"] for v in s})
    all_qs, num_literals = _literal_counts(record)
    return {
        "known_facts": repr(sorted(v for v, x in record["observed"].items() if x)),
        "known_untrue_facts": repr(sorted(v for v, x in record["observed"].items() if not x)),
        "cannot_ask_facts": _cannot_ask_text(record),
        "goal": repr(record["target"]) if quoted_goal else record["target"],
        "rules": repr(record["engine"]["clauses"]),
        "max_depth": _text(record.get("derivation_depth")),
        "min_num_rules_needed": "",
        "num_constraints": str(len(record["engine"]["clauses"])),
        "num_vars": str(num_literals),
        "all_qs": _set_text(all_qs),
        "all_valid_qs": _set_text(record["queryable"]),
        "gt_qs": repr(singles),
        "gt_q_to_true_derivation": "{}",
        "gt_q_to_false_derivation": "{}",
    }


def _text(value: Any) -> str:
    return "" if value is None else str(value)




