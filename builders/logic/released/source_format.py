"""Released Logic-Q data: MT-InfoSeek `logic_q_mt.csv` and the QuestBench Logic-Q CSV.

Both files describe one SimpleLogic problem per row with Python-literal cells: `rules`
(clauses of literals, `"x"` positive and `"not x"` negative), `known_facts` and
`known_untrue_facts` (the observations), `cannot_ask_facts`, `goal`, the ground truth
(`gt_qs`, and for MT the whole family `all_alternative_gt_qs`) and the offered questions
(`all_valid_qs`). A row becomes a logic problem record (`docs/contracts.md`) that keeps
the released values; `verify` recomputes them with the exact engine and reports every
disagreement (our engine is ground truth; nothing is fixed).

Mapping notes: `variables` is every name the row mentions anywhere; `queryable` is the
released `all_valid_qs` as given (the model is offered exactly that list);
`alternative_only` is `all_valid_qs` minus `all_valid_qs_forbid_alternatives` (MT; [] when
that column is absent or for QuestBench); a name of the forbid-alternatives list missing
from `all_valid_qs` still becomes a variable, so the `queryable` check reports it. MT
`gt_qs` normally holds one set (a flat list of names is one set); further sets are read
as family members. QuestBench has no canonical set: its family is the sorted singles.
`released` keeps the file's `num_vars`, `num_constraints` and `max_depth` (None when
absent); `derivation_depth` is the released `max_depth`.

Load errors are structural only (a cell that cannot be decoded, a literal that is not
`x` / `not x`, an empty clause, a fact both true and false, a missing goal, a bad `k`,
an empty `gt_qs`). Semantic problems (infeasible observations, an observed goal, a wrong
family, an offered list that is not U(P)) still load and are what `verify` reports.

Checks reported by `verify`: see `infoseek.builders.logic.released.verify`.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import Any

from infoseek.analysis import (
    possible_target_values,
)
from infoseek.builders.logic.logic_record import logic_difficulty
from infoseek.builders.logic.released.verify import verify_mt, verify_questbench
from infoseek.builders.published import Record, SourceFormat
from infoseek.builders.published.cells import (
    RowRef,
    cell,
    decode_literal,
    int_cell,
    is_blank,
    literal_cell,
    names_cell,
)
from infoseek.engines.horn import is_horn
from infoseek.records import engine_from_record
from infoseek.text import short_repr

ENTITY = "Alice"
_TOKEN = re.compile(r"^[^\s'\"\[\](),]+$")
_NEGATED = re.compile(r"^not\s+(\S+)$")

# ------------------------------------------------------------------ cell decoding
def _name(value: Any, field: str, ref: RowRef, what: str = "an attribute name") -> str:
    if not isinstance(value, str) or not _TOKEN.match(value.strip()) or value.strip() == "not":
        raise ref.error(field, f"expected {what} (one word, no quotes or brackets), "
                               f"got {short_repr(value)}")
    return value.strip()


def _as_list(value: Any, field: str, ref: RowRef, what: str) -> list[Any]:
    if isinstance(value, (set, frozenset)):
        value = sorted(value, key=repr)
    if isinstance(value, tuple):
        value = list(value)
    if not isinstance(value, list):
        raise ref.error(field, f"expected {what}, got {short_repr(value)}")
    return value


def _names(row: dict[str, Any], field: str, ref: RowRef, *, required: bool = True
           ) -> list[str]:
    """A list of attribute names; an absent optional column or blank cell is []."""
    return [_name(item, field, ref)
            for item in names_cell(row, field, ref, required=required) or []]


def _literal(text: Any, ref: RowRef) -> tuple[str, bool]:
    if not isinstance(text, str):
        raise ref.error("rules", f"expected a literal 'x' or 'not x', got {short_repr(text)}")
    stripped = text.strip()
    negated = _NEGATED.match(stripped)
    if negated:
        name, positive = negated.group(1), False
    else:
        name, positive = stripped, True
    if not _TOKEN.match(name) or name == "not":
        raise ref.error("rules", f"literal {text!r} is not 'x' or 'not x' "
                                 "(x one attribute name)")
    return name, positive


def _rules(row: dict[str, Any], ref: RowRef) -> list[list[str]]:
    value = literal_cell(row, "rules", ref)
    clauses = _as_list(value, "rules", ref, "a list of clauses (lists of literals)")
    out: list[list[str]] = []
    for number, clause in enumerate(clauses, 1):
        literals = _as_list(clause, "rules", ref,
                            f"a list of clauses; clause {number} is not a list of literals")
        if not literals:
            raise ref.error("rules", f"clause {number} is empty; a clause needs at least "
                                     "one literal")
        parsed = [_literal(lit, ref) for lit in literals]
        out.append([name if positive else f"not {name}" for name, positive in parsed])
    return out


def _goal(row: dict[str, Any], ref: RowRef) -> str:
    raw = cell(row, "goal", ref)
    value: Any = raw
    if isinstance(raw, str):
        try:
            value = decode_literal(raw)
        except ValueError:
            value = raw.strip()  # a plain name (not a literal)
    if isinstance(value, (list, tuple)) and len(value) == 1:
        value = value[0]
    return _name(value, "goal", ref, "the goal attribute's name")


def _sets(value: Any, field: str, ref: RowRef) -> list[list[str]]:
    """A list of name sets; a flat list of names is one set."""
    items = _as_list(value, field, ref, "a list of lists of attribute names")
    if items and all(isinstance(item, str) for item in items):
        return [sorted({_name(item, field, ref) for item in items})]
    sets = []
    for item in items:
        members = _as_list(item, field, ref,
                           "a list of lists of attribute names (or one flat list of names)")
        sets.append(sorted({_name(m, field, ref) for m in members}))
    return sets


def _facts(row: dict[str, Any], field: str, ref: RowRef, value: bool
           ) -> list[tuple[str, bool]]:
    """(name, value) pairs of a facts column; an entry `not x` states the opposite."""
    out = []
    for item in names_cell(row, field, ref) or []:
        negated = _NEGATED.match(item)
        if negated:
            out.append((_name(negated.group(1), field, ref), not value))
        else:
            out.append((_name(item, field, ref), value))
    return out


def _known_facts(row: dict[str, Any], ref: RowRef) -> dict[str, bool]:
    observed: dict[str, bool] = {}
    for field, value in (("known_facts", True), ("known_untrue_facts", False)):
        for name, fact in _facts(row, field, ref, value):
            if observed.get(name, fact) != fact:
                raise ref.error(field, f"{name!r} is stated both true and untrue by "
                                       "known_facts / known_untrue_facts; a fact has one "
                                       "value")
            observed[name] = fact
    return {v: observed[v] for v in sorted(observed)}


# ------------------------------------------------------------------ rows -> records
def _logic_record(*, rules: list[list[str]], observed: dict[str, bool], goal: str,
                  forbidden: list[str], queryable: list[str], family: list[list[str]],
                  alternative_only: list[str], k: int, extra_names: Iterable[str],
                  released: dict[str, Any]) -> Record:
    names = {goal, *observed, *forbidden, *queryable, *extra_names}
    names.update(lit.removeprefix("not ") for clause in rules for lit in clause)
    for members in family:
        names.update(members)
    kind = "horn" if is_horn(rules) else "cnf"
    record: Record = {
        "domain": "logic",
        "entity": ENTITY,
        "engine": {"kind": kind, "clauses": rules},
        "variables": sorted(names),
        "observed": observed,
        "target": goal,
        "target_values": [],
        "queryable": queryable,
        "forbidden": forbidden,
        "alternative_only": alternative_only,
        "k": k,
        "mss_family": family,
        "derivation_depth": released.get("max_depth"),
    }
    record["target_values"] = possible_target_values(engine_from_record(record))
    record["difficulty"] = logic_difficulty(
        num_vars=len(record["variables"]), rules=rules, depth=released.get("max_depth"),
        queryable=queryable, family=family, k=k)
    record["released"] = released
    return record


def _released_numbers(row: dict[str, Any], ref: RowRef) -> dict[str, Any]:
    return {field: int_cell(row, field, ref, required=False, minimum=0)
            for field in ("num_vars", "num_constraints", "max_depth")}


def _cannot_ask(row: dict[str, Any], ref: RowRef, observed: dict[str, bool], goal: str
                ) -> tuple[list[str], list[str]]:
    """(forbidden, released cannot_ask_facts). The released list also names the known
    facts and the goal, which are never askable anyway; `forbidden` keeps the rest."""
    released = sorted(set(_names(row, "cannot_ask_facts", ref, required=False)))
    return [v for v in released if v not in observed and v != goal], released


def _family(canonical: list[str], others: Iterable[list[str]]) -> list[list[str]]:
    rest = {tuple(s) for s in others} - {tuple(canonical)}
    return [canonical] + [list(s) for s in sorted(rest)]


def mt_record_from_row(row: dict[str, Any], ref: RowRef) -> Record:
    """One `logic_q_mt.csv` row -> a logic record (without `id`)."""
    k = int_cell(row, "k", ref, minimum=1)
    rules = _rules(row, ref)
    goal = _goal(row, ref)
    observed = _known_facts(row, ref)
    forbidden, cannot_ask = _cannot_ask(row, ref, observed, goal)
    gt = _sets(literal_cell(row, "gt_qs", ref), "gt_qs", ref)
    if not gt or not gt[0]:
        raise ref.error("gt_qs", "is empty; expected the canonical MSS, e.g. [['a', 'b']]")
    alternatives = literal_cell(row, "all_alternative_gt_qs", ref, required=False,
                                default=None)
    others = [] if alternatives is None else _sets(alternatives, "all_alternative_gt_qs",
                                                   ref)
    queryable = sorted(set(_names(row, "all_valid_qs", ref)))
    # The released forbid-alternatives list is all_valid_qs minus every name of every
    # MSS (the canonical ones too); the alternative-only names are the withheld ones
    # outside the canonical MSS. Absent column: none are known.
    forbid_alt = _names(row, "all_valid_qs_forbid_alternatives", ref, required=False)
    withheld = set(queryable) - set(forbid_alt)
    alternative_only = ([] if is_blank(row.get("all_valid_qs_forbid_alternatives"))
                        else sorted(withheld - set(gt[0])))
    # gt_qs normally holds one set; further sets are taken as family members
    family = _family(gt[0], [*gt[1:], *others])
    released = {**_released_numbers(row, ref), "cannot_ask_facts": cannot_ask}
    return _logic_record(
        rules=rules, observed=observed, goal=goal, forbidden=forbidden, queryable=queryable,
        family=family, alternative_only=alternative_only, k=k,
        extra_names=[*forbid_alt, *cannot_ask], released=released)


def questbench_record_from_row(row: dict[str, Any], ref: RowRef) -> Record:
    """One QuestBench Logic-Q row -> a logic record with k = 1 (without `id`)."""
    rules = _rules(row, ref)
    goal = _goal(row, ref)
    observed = _known_facts(row, ref)
    forbidden, cannot_ask = _cannot_ask(row, ref, observed, goal)
    items = _as_list(literal_cell(row, "gt_qs", ref), "gt_qs", ref,
                     "a list of attribute names")
    singles = []
    for item in items:
        if isinstance(item, (list, tuple)) and len(item) == 1:
            item = item[0]
        if not isinstance(item, str):
            raise ref.error("gt_qs", "expected single attributes (a list of names, or of "
                                     f"one-name lists), got {short_repr(item)}")
        singles.append(_name(item, "gt_qs", ref))
    singles = sorted(set(singles))
    if not singles:
        raise ref.error("gt_qs", "is empty; expected the attributes that each decide "
                                 "the goal, e.g. ['a', 'b']")
    queryable = sorted(set(_names(row, "all_valid_qs", ref)))
    return _logic_record(
        rules=rules, observed=observed, goal=goal, forbidden=forbidden, queryable=queryable,
        family=[[v] for v in singles], alternative_only=[], k=1, extra_names=cannot_ask,
        released={**_released_numbers(row, ref), "cannot_ask_facts": cannot_ask})


MT_INFOSEEK_LOGIC = SourceFormat(
    name="mt-infoseek-logic",
    domain="logic",
    description="MT-InfoSeek Logic-Q-MT (logic_q_mt.csv): k-underspecified SimpleLogic "
                "problems with the canonical MSS and the whole k-MSS family",
    required=("k", "goal", "rules", "known_facts", "known_untrue_facts", "gt_qs",
              "all_valid_qs"),
    signature=("rules", "goal", "gt_qs", "all_alternative_gt_qs"),
    id_fields=("sample_id",),
    record_from_row=mt_record_from_row,
    verify=verify_mt,
    notes=("queryable", "num_constraints"),
)

QUESTBENCH_LOGIC = SourceFormat(
    name="questbench-logic",
    domain="logic",
    description="QuestBench Logic-Q: 1-sufficient SimpleLogic problems whose gt_qs lists "
                "every single attribute that decides the goal",
    required=("goal", "rules", "known_facts", "known_untrue_facts", "gt_qs", "all_valid_qs"),
    signature=("rules", "goal", "gt_qs"),
    id_fields=("sample_id", "id"),
    record_from_row=questbench_record_from_row,
    verify=verify_questbench,
    excludes=("all_alternative_gt_qs",),
    notes=("queryable", "num_constraints"),
)

__all__ = [
    "MT_INFOSEEK_LOGIC", "QUESTBENCH_LOGIC", "mt_record_from_row",
    "questbench_record_from_row", "verify_mt", "verify_questbench",
]
