"""The fields of a logic record and its validator, shared by the logic builders
(`logic_mt`, `logic_q`) and the released logic formats: the opening fields of every
Horn problem (`horn_problem_fields`), the difficulty axes (`logic_difficulty`), a whole
record from a candidate's MSS family (`logic_record`), the derivation depth of an MSS
(`derivation_depth`) and the full validator every emitted record passes
(`validate_logic_record`).
"""

from __future__ import annotations

import math
import random
from collections.abc import Sequence
from typing import Any

from infoseek.analysis import (
    feasible_rows,
    is_essential,
    is_known,
    is_sufficient,
    minimal_sufficient_sets,
    possible_target_values,
)
from infoseek.builders.logic.logic_vocab import NAMES
from infoseek.engines.horn import HornEngine


def derivation_depth(engine: HornEngine, subset: Sequence[str]) -> int | None:
    """Max over feasible rows of the unit-propagation rounds that derive the target;
    None when some row needs more than unit propagation."""
    depth = 0
    for row in feasible_rows(engine, list(subset)):
        value, rounds = engine.unit_propagation_depth(row)
        if value is None or value == "conflict":
            return None
        depth = max(depth, rounds)
    return depth


def logic_difficulty(*, num_vars: int, rules: Sequence[Sequence[str]], depth: int | None,
                     queryable: Sequence[str], family: Sequence[Sequence[str]], k: int
                     ) -> dict[str, Any]:
    """The difficulty axes of a logic record (protocols §4): sizes, derivation depth, MSS family
    size and the expected random guesses `e_bf` over k-sets of the queryable variables."""
    candidate_sets = math.comb(len(queryable), k)
    return {
        "num_vars": num_vars,
        "num_constraints": len(rules),
        "depth": depth,
        "num_queryable": len(queryable),
        "mss_family_size": len(family),
        "e_bf": round((candidate_sets + 1) / (len(family) + 1), 4),
    }


def horn_problem_fields(rng: random.Random, names: Sequence[str], rules: list[list[str]],
                        engine: HornEngine) -> dict[str, Any]:
    """The fields every logic record opens with: a person, the Horn rules, the
    variables, the observed facts, the target and its possible values."""
    return {
        "domain": "logic",
        "entity": rng.choice(NAMES),
        "engine": {"kind": "horn", "clauses": rules},
        "variables": sorted(names),
        "observed": {v: engine.observed[v] for v in sorted(engine.observed)},
        "target": engine.target,
        "target_values": possible_target_values(engine),
    }


def logic_record(rng: random.Random, names: Sequence[str], rules: list[list[str]],
            engine: HornEngine, family: list[tuple[str, ...]], depth: int, k: int,
            forbidden: list[str]) -> dict[str, Any]:
    queryable = sorted(set(engine.unobserved()) - set(forbidden))
    canonical = sorted(family[0])
    alternatives = sorted({v for s in family[1:] for v in s} - set(canonical))
    return {
        **horn_problem_fields(rng, names, rules, engine),
        "queryable": queryable,
        "forbidden": forbidden,
        "alternative_only": alternatives,
        "k": k,
        "mss_family": [canonical] + sorted(sorted(s) for s in family[1:]),
        "derivation_depth": depth,
        "difficulty": logic_difficulty(num_vars=len(names), rules=rules, depth=depth,
                                       queryable=queryable, family=family, k=k),
    }


def validate_logic_record(record: dict[str, Any]) -> list[str]:
    """The full validator of protocols §1. Returns a list of problems (empty: valid)."""
    from infoseek.records import engine_from_record

    errors: list[str] = []
    engine = engine_from_record(record)
    k = record["k"]
    family = [tuple(s) for s in record["mss_family"]]
    if not engine.target_values():
        return ["infeasible: no world satisfies the rules and observations"]
    if is_known(engine):
        errors.append("not underspecified: the target is Known from the observations")
    queryable = list(record["queryable"])
    if not family:
        errors.append("empty MSS family")
    for s in family:
        if len(s) != k:
            errors.append(f"MSS {list(s)} has size {len(s)}, not k={k}")
        if not set(s) <= set(queryable):
            errors.append(f"MSS {list(s)} uses variables outside the queryable set")
        if not is_sufficient(engine, s, use_fast_path=False):
            errors.append(f"MSS {list(s)} is not sufficient over its feasible rows")
        elif not is_essential(engine, list(s)):
            errors.append(f"MSS {list(s)} has a variable that is not essential")
    # One search up to k: it tries every size from 0, so k is global minimality too.
    full = minimal_sufficient_sets(engine, queryable, k)
    if full.k is not None and full.k < k:
        errors.append(f"not globally minimal: a sufficient set of size < {k} exists")
    elif sorted(map(sorted, full.family)) != sorted(map(sorted, family)):
        errors.append("the MSS family differs from the exact search")
    if family and derivation_depth(engine, family[0]) != record.get("derivation_depth"):
        errors.append("canonical MSS derivation depth is wrong or not forward-derivable")
    return errors
