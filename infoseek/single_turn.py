"""The single-turn protocols' ground truth (SPEC 3.4-3.6, 4), for any domain.

Written against the engine contract only, so every domain with a 1-sufficient builder
gets the protocols with nothing of its own:

* `sufficient_options`: the listed variables whose value alone makes the target Known
  (exact, `infoseek.analysis.is_sufficient` over feasible rows);
* `search_levels`: backward search over the constraint graph (`Engine.constraint_scopes`):
  the target is level 0; a variable sharing a constraint with a level-i variable that is
  not observed gets level i + 1 (an observed variable is known, so the search does not
  continue through it, but it is itself reached);
* `difficulty_axes`: QuestBench's four axes, computed exactly: ``num_vars`` |X| (every
  variable of the problem), ``num_constraints`` |C|, ``depth`` d (the level at which the
  last sufficient variable is found: the expansions needed before every sufficient
  variable is reached) and ``e_bf`` = (|X| + 1) / (s + 1) with s the number of sufficient
  variables (SPEC 4);
* `bfs_pick`: the reference backward search cut at a depth: the first sufficient
  variable among those reached within the depth (level order, then option order);
* `well_specified_variants`: the record with its missing value restored, one record per
  value the variable can take (the hidden world's value when the record has one).

A well-specified problem (the target already Known) has no sufficient variable: only "No
questions needed" is correct, its depth is 0 and s counts that one option. Pure: no
Inspect imports.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Sequence
from typing import Any

from infoseek.analysis import is_sufficient
from infoseek.contract import SINGLE_TURN_PROTOCOLS
from infoseek.engine import Engine, is_unbounded, json_value, ordered_values
from infoseek.records import askable_variables, engine_from_record

NO_QUESTION = "No questions needed"
"""The last option of every question-selection prompt."""
NOT_SURE = "Not sure"
"""The detection protocol's answer for an underspecified problem."""
AXES: tuple[str, ...] = ("num_vars", "num_constraints", "depth", "e_bf")
"""The difficulty axes every single-turn sample carries (SPEC 4), in report order."""


__all__ = ["SINGLE_TURN_PROTOCOLS", "NO_QUESTION", "NOT_SURE", "AXES"]


class SingleTurnError(ValueError):
    """A record the single-turn protocols cannot use (not 1-sufficient, ...)."""


def question_options(record: dict[str, Any]) -> list[str]:
    """The variables listed as questions: every askable variable (alternative MSS
    members included: any sufficient variable is a correct pick), sorted."""
    return askable_variables(record, forbid_alternatives=False)


def constraint_scopes(engine: Engine) -> list[tuple[str, ...]]:
    scopes = engine.constraint_scopes()
    if scopes is None:
        raise SingleTurnError(f"engine {type(engine).__name__} does not expose its "
                              "constraints (Engine.constraint_scopes); the difficulty "
                              "axes and backward search need them")
    return scopes


def search_levels(engine: Engine) -> dict[str, int]:
    """Backward-search level of every variable reachable from the target (module
    docstring); deterministic (constraint order, then scope order)."""
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


def sufficient_options(engine: Engine, options: Sequence[str]) -> list[str]:
    """The options whose value alone makes the target Known, in option order; none when
    the target is Known already (then no question is needed)."""
    if engine.is_known():
        return []
    return [name for name in options if is_sufficient(engine, [name])]


def difficulty_axes(engine: Engine, sufficient: Sequence[str]) -> dict[str, Any]:
    """|X|, |C|, d and E_BF of one problem (module docstring), plus ``num_sufficient``."""
    levels = search_levels(engine)
    found = [levels[name] for name in sufficient if name in levels]
    if len(found) != len(sufficient):  # cannot happen: a sufficient variable is connected
        raise SingleTurnError("a sufficient variable is not reachable from the target")
    correct = len(sufficient) or 1  # a well-specified problem: "No questions needed"
    num_vars = len(engine.variables)
    return {
        "num_vars": num_vars,
        "num_constraints": len(constraint_scopes(engine)),
        "depth": max(found, default=0),
        "e_bf": round((num_vars + 1) / (correct + 1), 4),
        "num_sufficient": len(sufficient),
    }


def bfs_pick(engine: Engine, options: Sequence[str], sufficient: Sequence[str],
             depth: int) -> str | None:
    """What backward search to `depth` picks: "No questions needed" when the target is
    Known, else the first sufficient option reached within `depth` levels (level order,
    then option order), else None (the caller guesses)."""
    if engine.is_known():
        return NO_QUESTION
    levels = search_levels(engine)
    good = set(sufficient)
    reached = sorted((levels[name], index) for index, name in enumerate(options)
                     if name in levels and levels[name] <= depth)
    for _level, index in reached:
        if options[index] in good:
            return options[index]
    return None


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
            "id": f"{record['id']}-ws-{_label(value)}",
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


def _label(value: Any) -> str:
    if value is True:
        return "yes"
    if value is False:
        return "no"
    return str(value).replace("/", "_")


def known_value(record: dict[str, Any]) -> Any:
    """The target's value when the record's observations fix it, else None."""
    values = engine_from_record(record).target_values()
    if len(values) != 1 or is_unbounded(values):
        return None
    return json_value(next(iter(values)))
