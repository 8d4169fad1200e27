"""The single-turn protocols' ground truth (protocols §3.4-3.6, 4), for any domain.

Written against the engine contract only, so every domain with a 1-sufficient builder
gets the protocols with nothing of its own:

* `sufficient_options`: the listed variables whose value alone makes the target Known
  (exact, `infoseek.analysis.is_sufficient` over feasible rows);
* `search_levels`: QuestBench's backward search (Logic-Q, appendix B.1.1). The target y
  is g_0; one expansion replaces every goal literal by the premises of each clause that
  can conclude it. Rules are clauses, so a clause concludes any of its literals from the
  negations of the others: both polarities are searched (y and not y), and the
  contrapositive of "a and b -> c" concludes "not a" from b and not c. A goal literal
  that is observed true is settled. A variable x is *found* at level i when, for every
  value x can take, some conjunction of g_i consists of settled literals and that value
  of x only: x's value then decides the target within i expansions. The shallowest such
  i is the height of the shallowest derivation of the target's value from the
  observations plus x = v, which is exactly the number of parallel propagation rounds
  that fix the target (`Engine.derivation_rounds`; unit propagation for the horn and cnf
  engines); the level is the largest of those over x's feasible values. A variable no
  propagation decides is never found. Engines that do not expose propagation (arith)
  fall back to the constraint graph (`constraint_graph_levels`: a variable sharing a
  constraint with an unobserved level-i variable gets level i + 1);
* `difficulty_axes`: QuestBench's four axes, computed exactly: ``num_vars`` |X| (every
  variable of the problem), ``num_constraints`` |C|, ``depth`` d (the level of the
  deepest sufficient option: the expansions needed before every sufficient option is
  found; None when the search finds none) and ``e_bf`` = (|X| + 1) / (s + 1) with s the
  number of variables of X whose value alone decides the target (QuestBench's
  C(A~): the sufficient options and the sufficient variables the record forbids, its
  invalid set, alike) (protocols §4);
* `bfs_pick`: the reference backward search cut at a depth: the first sufficient
  option found within the depth (level order, then option order), the same levels; on
  planning, a row counts as reached when its depth the published way (the shorter plan,
  or for a Known row `settling_depth`) is within the cut, as QuestBench's BFS baseline;
* `well_specified_variants`: the record with its missing value restored, one record per
  value the variable can take (the hidden world's value when the record has one).

A well-specified problem (the target already Known) has no sufficient variable: only "No
questions needed" is correct, its depth is 0 and s counts that one option. Planning (an
engine whose target values are plans, `plan_depths`) measures depth as QuestBench's
released data does: ``depth`` is the shorter optimal plan over the target values left
open (the one plan when the target is Known) and ``max_depth`` the longer. Pure: no
Inspect imports.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Sequence
from typing import Any

from infoseek.analysis import is_sufficient
from infoseek.contract import SINGLE_TURN_PROTOCOLS
from infoseek.engine import Engine, is_unbounded, json_value, ordered_values
from infoseek.record_views import askable_variables
from infoseek.records import engine_from_record

NO_QUESTION = "No questions needed"
"""The last option of every question-selection prompt."""
NOT_SURE = "Not sure"
"""The detection protocol's answer for an underspecified problem."""
AXES: tuple[str, ...] = ("num_vars", "num_constraints", "depth", "e_bf")
"""The difficulty axes every single-turn sample carries (protocols §4), in report order."""


__all__ = ["SINGLE_TURN_PROTOCOLS", "NO_QUESTION", "NOT_SURE", "AXES"]


class SingleTurnError(ValueError):
    """A record the single-turn protocols cannot use (not 1-sufficient, ...)."""


def question_options(record: dict[str, Any]) -> list[str]:
    """The variables listed as questions: the record's own ``question_options`` when it
    has them (Planning-Q lists every atom, observed ones too, as published), else every
    askable variable (alternative MSS members included: any sufficient variable is a
    correct pick), sorted."""
    listed = record.get("question_options")
    if isinstance(listed, list) and listed:
        return [str(name) for name in listed]
    return askable_variables(record, forbid_alternatives=False)


def constraint_scopes(engine: Engine) -> list[tuple[str, ...]]:
    scopes = engine.constraint_scopes()
    if scopes is None:
        raise SingleTurnError(f"engine {type(engine).__name__} does not expose its "
                              "constraints (Engine.constraint_scopes); the difficulty "
                              "axes and backward search need them")
    return scopes


def constraint_graph_levels(engine: Engine) -> dict[str, int]:
    """Distance from the target in the constraint graph, not continuing through observed
    variables (the fallback of `search_levels`); deterministic (constraint order, then
    scope order)."""
    scopes = constraint_scopes(engine)
    touching: dict[str, list[int]] = {}
    for index, scope in enumerate(scopes):
        for name in scope:
            touching.setdefault(name, []).append(index)
    levels = {engine.target: 0}
    queue = deque([engine.target])
    while queue:
        name = queue.popleft()
        for index in touching.get(name, ()):
            for other in scopes[index]:
                if other in levels:
                    continue
                levels[other] = levels[name] + 1
                if other not in engine.observed:
                    queue.append(other)
    return levels


def backward_level(engine: Engine, name: str) -> int | None:
    """The backward-search level at which `name` is found (module docstring): the most
    propagation rounds any feasible value of `name` needs to fix the target; None when
    some feasible value leaves it open (or the engine exposes no propagation)."""
    worst: int | None = None
    for value in engine.domain(name):
        if not engine.is_feasible({name: value}):
            continue
        rounds = engine.derivation_rounds({name: value})
        if rounds is NotImplemented or rounds is None:
            return None
        worst = rounds if worst is None else max(worst, rounds)
    return worst


def search_levels(engine: Engine, names: Sequence[str] | None = None) -> dict[str, int]:
    """Backward-search level of each of `names` (default: every unobserved variable) that
    the search finds deciding the target (module docstring); the constraint-graph levels
    for an engine without `Engine.derivation_rounds`."""
    if engine.derivation_rounds() is NotImplemented:
        return constraint_graph_levels(engine)
    levels = {}
    for name in engine.unobserved() if names is None else names:
        level = backward_level(engine, name)
        if level is not None:
            levels[name] = level
    return levels


def sufficient_options(engine: Engine, options: Sequence[str]) -> list[str]:
    """The options whose value alone makes the target Known, in option order; none when
    the target is Known already (then no question is needed)."""
    if engine.is_known():
        return []
    return [name for name in options if is_sufficient(engine, [name])]


def plan_depths(engine: Engine) -> tuple[int, int] | None:
    """(shorter, longer) optimal plan over the target values left open, for an engine
    whose values are plans (it has ``steps_of``: Blocks World); None for any other."""
    steps_of = getattr(engine, "steps_of", None)
    if steps_of is None:
        return None
    steps = [steps_of(value) for value in engine.target_values()]
    if not steps or None in steps:
        return None
    return min(steps), max(steps)


def difficulty_axes(engine: Engine, sufficient: Sequence[str],
                    not_askable: Sequence[str] = ()) -> dict[str, Any]:
    """|X|, |C|, d and E_BF of one problem (module docstring), plus ``num_sufficient``
    (sufficient options) and ``num_deciding`` (s of E_BF: the sufficient options and the
    sufficient ones among `not_askable`, the record's forbidden variables)."""
    levels = search_levels(engine, list(sufficient)) if sufficient else {}
    found = [levels[name] for name in sufficient if name in levels]
    others = [v for v in dict.fromkeys(not_askable)
              if v not in sufficient and v not in engine.observed and v != engine.target]
    deciding = len(sufficient) + len(sufficient_options(engine, others))
    num_vars = len(engine.variables)
    correct = deciding or 1  # a well-specified problem: "No questions needed"
    axes = {
        "num_vars": num_vars,
        "num_constraints": len(constraint_scopes(engine)),
        "depth": max(found) if found else (None if sufficient else 0),
        "e_bf": round((num_vars + 1) / (correct + 1), 4),
        "num_sufficient": len(sufficient),
        "num_deciding": deciding,
    }
    plans = plan_depths(engine)
    if plans is not None:  # planning: the shorter plan, as QuestBench's min_depth
        axes["depth"], axes["max_depth"] = plans
    return axes


def bfs_pick(engine: Engine, options: Sequence[str], sufficient: Sequence[str],
             depth: int, known_depth: int = 0) -> str | None:
    """What backward search to `depth` picks, or None when it settles nothing within
    `depth` levels (the caller decides what the reference model then does):

    * a Known target: "No questions needed" when the search reaches what is known within
      `depth` levels, i.e. `known_depth` <= `depth` (`known_depth`: `settling_depth`;
      0 when nothing needs expanding);
    * planning (an engine whose values are plans, `plan_depths`): the first sufficient
      option (option order) when the shorter of the open values' optimal plans is within
      `depth`, as QuestBench's BFS baseline on Planning-Q counts a row settled when its
      ``min_depth`` is (docs/tasks/planning.md);
    * otherwise the first sufficient option found within `depth` levels (level order,
      then option order; the levels of `search_levels`)."""
    if engine.is_known():
        return NO_QUESTION if known_depth <= depth else None
    good = [name for name in options if name in set(sufficient)]
    plans = plan_depths(engine)
    if plans is not None:
        return good[0] if good and plans[0] <= depth else None
    levels = search_levels(engine, good)
    reached = sorted((levels[name], index) for index, name in enumerate(options)
                     if name in levels and name in good and levels[name] <= depth)
    return options[reached[0][1]] if reached else None


def settling_depth(record: dict[str, Any], engine: Engine) -> int:
    """How many backward-search levels settle a record whose target is Known, measured as
    the data it came from measures it: 0 (nothing to expand) outside planning; for a
    Planning-Q "No questions needed" row its published depth, ``derivation_depth`` (a
    built row: the length of the backward-search path that proposed it,
    `infoseek.builders.planning.planning_q`; a released row: its ``min_depth``); for any
    other Known planning record (a restored variant, a row without a depth) the length of
    its one optimal plan."""
    plans = plan_depths(engine)
    if plans is None:
        return 0
    recorded = record.get("derivation_depth")
    if "restored" not in record and isinstance(recorded, int) and recorded >= 0:
        return recorded
    return plans[0]


def missing_variable(record: dict[str, Any], engine: Engine) -> str:
    """The variable a 1-sufficient record withholds: the first member of its MSS family
    (canonical first) that is sufficient by the exact check (a released family may
    list one that is not)."""
    family = record.get("mss_family") or []
    if record.get("k") != 1 or not family or len(family[0]) != 1:
        raise SingleTurnError(f"{record.get('id', 'record')}: the single-turn protocols "
                              f"need 1-sufficient problems (k = 1); this one has k = "
                              f"{record.get('k')!r}")
    for members in family:
        if len(members) == 1 and is_sufficient(engine, members):
            return members[0]
    raise SingleTurnError(f"{record.get('id', 'record')}: no variable of its MSS family "
                          "decides the target by itself")


def well_specified_variants(record: dict[str, Any]) -> list[dict[str, Any]]:
    """The record with its missing value restored, one record per value: the hidden
    world's value when the record has a world, else every value the engine still allows.
    Each variant has k = 0, an empty MSS, ``restored`` {variable: value},
    ``problem_id`` the original id and ``answer`` the target's (Known) value; its
    ``target_values`` stay those of the original problem (the answer's possible values)."""
    engine = engine_from_record(record)
    name = missing_variable(record, engine)
    if "hidden_world" in record:
        values = [record["hidden_world"][name]]
    else:
        allowed = engine.variable_values(name)
        if is_unbounded(allowed):
            raise SingleTurnError(f"{record.get('id')}: {name} has infinitely many values "
                                  "and the record holds no world to restore it from")
        values = [json_value(v) for v in ordered_values(allowed, engine.domain(name))]
    variants = []
    for value in values:
        observed = {**record["observed"], name: value}
        restored = {
            **record, "observed": {v: observed[v] for v in sorted(observed)},
            "queryable": [v for v in record.get("queryable", []) if v != name],
            "alternative_only": [], "k": 0, "mss_family": [[]],
            "restored": {name: value}, "problem_id": record["id"],
            "id": f"{record['id']}-ws-{_id_label(value)}",
        }
        if "candidate_queries" in record:
            restored["candidate_queries"] = [
                e for e in record["candidate_queries"]
                if (e.get("name") if isinstance(e, dict) else e) != name]
        known = engine_from_record(restored).target_values()
        if len(known) != 1 or is_unbounded(known):
            raise SingleTurnError(f"{record['id']}: restoring {name} = {value!r} does not "
                                  "make the target Known")
        restored["answer"] = json_value(next(iter(known)))
        variants.append(restored)
    return variants


def _id_label(value: Any) -> str:
    """A value as it appears in a sample id (yes/no, and no slash: 7/2 is 7_2)."""
    if value is True:
        return "yes"
    if value is False:
        return "no"
    return str(value).replace("/", "_")
