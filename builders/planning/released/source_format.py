"""QuestBench Planning-Q released CSV (Blocks World) as planning records (source format
``questbench-planning``).

Columns, as QuestBench's own evaluator reads them (``evaluators/planning.py``):
``conditions`` (the known facts of the initial state, one per line: ``(on a b)`` true,
``not (on a b)`` false), ``goals`` (the goal atoms, one per line), ``num_vars`` (the
number of blocks: the objects are ``a``, ``b``, ...), ``gt_qs`` (a Python set of the
atoms whose answer settles the plan, or ``{'No questions needed.'}`` for a row whose plan
is settled already; sets may be written ``frozenset({...})``), ``all_qs`` (the offered
atoms, every atom of the blocks, the evaluator lists them sorted; ``No questions needed.``
is left out of the atoms where present), ``all_valid_qs`` (the atoms left unknown), and,
kept as released, ``min_depth``, ``check_time`` and ``plan_to_gt_q`` (the plans, written as
Python reprs of the planner's operators).

A row becomes the record the project's planning engine decides
(`infoseek.engines.planning.engine`): observations from ``conditions``, the goal, the
target ``plan`` whose value in a full state is its set of optimal plans, k = 1 (k = 0 for
a "No questions needed" row, with ``answer`` its one plan set when the consistent states
share one) and as MSS family the offered atoms that settle the plan set;
``derivation_depth`` is the released ``min_depth`` (what the bfs-D references read, as
QuestBench's BFS baseline does). The released ``gt_qs`` are kept in ``released``.

QuestBench keeps one BFS plan per state, we keep every optimal plan. An atom that settles
the plan set settles any one-plan-per-state choice too, but not the other way round, so
`verify` reports as disagreements only what holds under every convention, and as notes
what depends on the planner's operator order:

- ``infeasible``: no valid full state agrees with the conditions;
- ``not_underspecified``: ``gt_qs`` names atoms, but every consistent state has the same
  optimal plans (nothing needs asking);
- ``gt_qs_missing``: offered atoms that settle the plan set but are not in ``gt_qs``;
- ``gt_not_offered``: a ``gt_qs`` atom is not among ``all_qs``;
- note ``gt_qs_unconfirmed``: ``gt_qs`` atoms that do not settle the plan set (they may
  settle QuestBench's one BFS plan; its operator order is not in the file);
- note ``plans_differ``: a "No questions needed" row whose consistent states have
  different sets of optimal plans (one BFS plan may still be shared);
- note ``first_plan_differs``: with the first optimal plan in action-name order as a
  state's value (the engine's ``ties = first_plan``: QuestBench's one plan per state with
  the order pinned), the offered atoms that settle it are not ``gt_qs`` (or, for a "No
  questions needed" row, that plan is not settled): QuestBench's planner may order the
  actions otherwise, so this is not a disagreement either;
- note ``valid_qs_differ``: ``all_valid_qs`` is not the set of atoms the conditions leave
  unknown.

The record id is ``<file stem>-row<N>``: the file has no id column.
"""

from __future__ import annotations

import re
from typing import Any

from infoseek.builders.published import Record, SourceFormat, Unposable
from infoseek.builders.published.cells import RowRef, cell, decode_literal, int_cell
from infoseek.engines.planning.engine import TARGET, PlanningEngine, atom_text, variable_name
from infoseek.engines.planning.pddl import MAX_BLOCKS
from infoseek.engines.planning.space import atoms
from infoseek.text import short_repr

NO_QUESTIONS = "No questions needed."
REQUIRED = ("conditions", "goals", "gt_qs", "all_qs", "num_vars")
SIGNATURE = ("conditions", "goals", "gt_qs", "all_qs")
KEPT = ("min_depth", "plan_to_gt_q", "check_time")
CHECKS = ("infeasible", "not_underspecified", "gt_qs_missing", "gt_not_offered")
NOTES = ("gt_qs_unconfirmed", "plans_differ", "first_plan_differs", "valid_qs_differ")


def _atom(text: str, field: str, ref: RowRef, valid: set[str]) -> str:
    """The variable name of one released atom (``(on a b)`` -> ``on a b``)."""
    atom = " ".join(text.strip().split())
    if atom not in valid:
        raise ref.error(field, f"{short_repr(text.strip())} is not an atom of Blocks World "
                        f"with {_count(valid)} blocks")
    return variable_name(atom)


def _count(valid: set[str]) -> int:
    return sum(1 for a in valid if a.startswith("(ontable "))


def _lines(row: dict[str, Any], field: str, ref: RowRef) -> list[str]:
    return [line.strip() for line in str(cell(row, field, ref)).splitlines() if line.strip()]


_WRAPPER = re.compile(r"^\s*(frozenset|set)\((.*)\)\s*$", re.DOTALL)


def _fact_set(row: dict[str, Any], field: str, ref: RowRef, *, required: bool = True
              ) -> list[str] | None:
    """A released collection of atom texts, sorted: a Python set or list literal, also
    wrapped as ``frozenset({...})`` or ``set()`` (as released)."""
    raw = cell(row, field, ref, required=required)
    if raw is None:
        return None
    text = str(raw).strip()
    wrapped = _WRAPPER.match(text)
    if wrapped:
        text = wrapped.group(2).strip() or "[]"
    try:
        value = decode_literal(text)
    except ValueError:
        raise ref.error(field, f"expected a Python set of atoms, got {short_repr(raw)}") from None
    if isinstance(value, str):
        value = [value]
    if isinstance(value, dict) and not value:
        value = []
    if not isinstance(value, (set, frozenset, list, tuple)) or not all(
            isinstance(v, str) for v in value):
        raise ref.error(field, f"expected a Python set of atoms, got {short_repr(raw)}")
    return sorted({" ".join(v.split()) for v in value})


def questbench_planning_record_from_row(row: dict[str, Any], ref: RowRef) -> Record:
    blocks = int_cell(row, "num_vars", ref, minimum=1)
    if blocks > MAX_BLOCKS:
        raise ref.error("num_vars", f"{blocks} blocks: the exact engine takes at most "
                        f"{MAX_BLOCKS}")
    valid = set(atoms(blocks))
    observed: dict[str, bool] = {}
    for line in _lines(row, "conditions", ref):
        negated = line.lower().startswith("not ")
        name = _atom(line[4:] if negated else line, "conditions", ref, valid)
        if observed.get(name, not negated) != (not negated):
            raise ref.error("conditions", f"states both {atom_text(name)} and its negation")
        observed[name] = not negated
    goal = [atom_text(_atom(line, "goals", ref, valid)) for line in _lines(row, "goals", ref)]
    if not goal:
        raise ref.error("goals", "holds no goal atom")
    gt = _fact_set(row, "gt_qs", ref) or []
    well_specified = gt == [NO_QUESTIONS]
    if not well_specified:
        gt = [_atom(a, "gt_qs", ref, valid) for a in gt]
    offered_all = _fact_set(row, "all_qs", ref) or []
    offered = [_atom(a, "all_qs", ref, valid) for a in offered_all if a != NO_QUESTIONS]
    valid_qs = _fact_set(row, "all_valid_qs", ref, required=False)
    if valid_qs is not None:
        valid_qs = [_atom(a, "all_valid_qs", ref, valid) for a in valid_qs
                    if a != NO_QUESTIONS]
    engine = PlanningEngine(blocks, goal, observed)
    values = list(engine.domain(TARGET))
    if well_specified:
        k, family = 0, [[]]
    else:
        from infoseek.single_turn import sufficient_options
        sufficient = sufficient_options(engine, offered) if len(values) > 1 else []
        k, family = 1, [[v] for v in sufficient] or [[v] for v in gt]
    released: dict[str, Any] = {"gt_qs": NO_QUESTIONS if well_specified else gt,
                                "all_qs": offered_all}
    if valid_qs is not None:
        released["all_valid_qs"] = valid_qs
    for field in KEPT:
        value = cell(row, field, ref, required=False)
        if value is not None:
            released[field] = value
    record = {
        "domain": "planning",
        "engine": {"kind": "blocks-world", "blocks": blocks, "goal": goal},
        "variables": sorted(engine.variables),
        "observed": {v: observed[v] for v in sorted(observed)},
        "target": TARGET,
        "target_values": values,
        "queryable": engine.unobserved(),
        "question_options": offered,
        "forbidden": [],
        "alternative_only": [],
        "k": k,
        "mss_family": family,
        "released": released,
    }
    depth = _depth(released.get("min_depth"))
    if depth is not None:
        record["derivation_depth"] = depth
    if well_specified and len(values) == 1:
        record["answer"] = values[0]
    return record


def _depth(value: Any) -> int | None:
    """The released ``min_depth`` as a number of steps, None when absent or not one."""
    try:
        depth = int(str(value).strip())
    except ValueError:
        return None
    return depth if depth >= 0 else None


def verify(record: Record) -> list[dict[str, Any]]:
    """The checks of the module docstring, on the exact engine."""
    from infoseek.records import engine_from_record
    from infoseek.single_turn import sufficient_options

    engine = engine_from_record(record)
    released = record.get("released") or {}
    values = engine.target_values()
    if not values:
        return [{"check": "infeasible", "reason": "no valid full state of the blocks agrees "
                 "with the conditions"}]
    known = len(values) == 1
    offered = list(record.get("question_options") or [])
    found: list[dict[str, Any]] = []
    listed = released.get("all_valid_qs")
    if listed is not None and sorted(listed) != sorted(engine.unobserved()):
        found.append({"check": "valid_qs_differ", "released": listed,
                      "computed": engine.unobserved(),
                      "reason": "all_valid_qs is not the set of atoms the conditions leave "
                      "unknown"})
    first = engine_from_record({**record, "engine": {**record["engine"],
                                                     "ties": "first_plan"}})
    first_known = len(first.target_values()) == 1
    if released.get("gt_qs") == NO_QUESTIONS:
        if not known:
            found.append({"check": "plans_differ", "computed": len(values),
                          "reason": f"the {len(values)} kinds of consistent state have "
                          "different sets of optimal plans (one BFS plan per state may "
                          "still be shared)"})
        if not first_known:
            found.append({"check": "first_plan_differs",
                          "reason": "the consistent states' first optimal plans in "
                          "action-name order differ too"})
        return found
    gt = list(released.get("gt_qs") or [])
    if known:
        found.append({"check": "not_underspecified", "released": gt,
                      "reason": "every state consistent with the conditions has the same "
                      "optimal plans: no question is needed"})
        return found
    sufficient = sufficient_options(engine, offered)
    first_sufficient = [] if first_known else sufficient_options(first, offered)
    if sorted(first_sufficient) != sorted(gt):
        found.append({"check": "first_plan_differs", "released": gt,
                      "computed": first_sufficient,
                      "reason": "with each state's first optimal plan in action-name order "
                      "as its value, the offered atoms that settle it are "
                      f"[{', '.join(atom_text(v) for v in first_sufficient)}] (QuestBench's "
                      "planner may order the actions otherwise)"})
    missing = [v for v in sufficient if v not in gt]
    if missing:
        found.append({"check": "gt_qs_missing", "released": gt, "computed": sufficient,
                      "reason": f"asking {', '.join(atom_text(v) for v in missing)} also "
                      "settles the plan (the set of optimal plans, hence any one of them), "
                      "but gt_qs leaves it out"})
    unoffered = [v for v in gt if v not in offered]
    if unoffered:
        found.append({"check": "gt_not_offered", "released": gt,
                      "reason": f"gt_qs names {', '.join(atom_text(v) for v in unoffered)}, "
                      "which all_qs does not offer"})
    unconfirmed = [v for v in gt if v in offered and v not in sufficient]
    if unconfirmed:
        found.append({"check": "gt_qs_unconfirmed", "released": unconfirmed,
                      "reason": f"{', '.join(atom_text(v) for v in unconfirmed)} does not "
                      "settle the set of optimal plans (it may settle QuestBench's one BFS "
                      "plan per state, whose operator order the file does not give)"})
    return found


def pose(record: Record) -> Record:
    """A task poses the underspecified rows whose plan set some offered atom settles, and
    the "No questions needed" rows whose consistent states share one set of optimal plans
    (a well-specified sample, as a built split's are; its ``answer`` that plan set)."""
    if record["k"] == 0:
        if "answer" not in record:
            raise Unposable("a 'No questions needed' row whose consistent states have "
                            "different sets of optimal plans (see infoseek verify: "
                            "plans_differ)")
        return record
    if len(record.get("target_values") or []) < 2:
        raise Unposable("the conditions already settle the plan")
    gt = (record.get("released") or {}).get("gt_qs") or []
    from infoseek.records import engine_from_record
    from infoseek.single_turn import sufficient_options
    if not sufficient_options(engine_from_record(record),
                              record.get("question_options") or []):
        raise Unposable(f"no offered atom settles the set of optimal plans (gt_qs: {gt}; "
                        "see infoseek verify)")
    return record


QUESTBENCH_PLANNING = SourceFormat(
    name="questbench-planning", domain="planning",
    description="QuestBench Planning-Q CSV: Blocks World with a partly known initial state "
                "and the atoms whose answer settles the plan (gt_qs)",
    required=REQUIRED, signature=SIGNATURE, id_fields=(),
    record_from_row=questbench_planning_record_from_row, verify=verify,
    notes=NOTES, pose=pose, id_from_file=True,
)

__all__ = ["CHECKS", "NOTES", "QUESTBENCH_PLANNING", "questbench_planning_record_from_row",
           "verify"]
