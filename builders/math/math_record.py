"""The fields of a math record and its validator, shared by every math builder
(`gsme_mt_ext`, `gsme_mt`) and the released GSME formats: the askable quantities with
their kinds (`candidate_queries`), the difficulty axes (`math_difficulty`), the record
itself (`math_record`) and the from-scratch check every emitted record passes
(`validate_math_record`). Numbers are JSON ints or ``"p/q"`` strings.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

from infoseek.analysis import is_sufficient, minimal_sufficient_sets
from infoseek.engines.arith.engine import (
    ArithEngine,
    ArithUndecidable,
    encode_rational,
    is_unbounded,
    parse_rational,
)


def candidate_queries(engine: ArithEngine, observed: Iterable[str]) -> list[dict[str, str]]:
    """Every quantity but the target and the revealed ones, with its kind:
    ``relevant_leaf`` (an unrevealed goal-relevant leaf), ``irrelevant_leaf`` (an
    unrevealed leaf that is not an ancestor of the target: askable, never needed),
    ``derived`` (a derived quantity: refused by the oracle)."""
    seen = set(observed)
    relevant = set(engine.goal_relevant_leaves())
    out = []
    for v in sorted(engine.variables):
        if v in seen or v == engine.target:
            continue
        if engine.is_leaf(v):
            kind = "relevant_leaf" if v in relevant else "irrelevant_leaf"
        else:
            kind = "derived"
        out.append({"name": v, "kind": kind})
    return out


def math_difficulty(engine: ArithEngine, queryable: Sequence[str], family_size: int
                    ) -> dict[str, Any]:
    """The difficulty axes of a math record: graph depth and sizes, MSS family size, and
    how many target values the observations leave ("unbounded" over the rationals;
    "undecidable" where the exact engine cannot tell)."""
    try:
        values = engine.target_values()
        compatible: int | str = "unbounded" if is_unbounded(values) else len(values)
    except ArithUndecidable:
        compatible = "undecidable"
    return {
        "depth": engine.depth(),
        "num_vars": len(engine.variables),
        "num_rules": len(engine.equations),
        "num_relevant_leaves": len(engine.goal_relevant_leaves()),
        "num_queryable": len(queryable),
        "mss_family_size": family_size,
        "compatible_values": compatible,
    }


def math_record(
    *, engine: ArithEngine, descriptions: dict[str, str], leaf_values: dict[str, Any],
    family: list[tuple[str, ...]], k: int, extra: dict[str, Any] | None = None,
) -> dict[str, Any]:
    """The record fields shared by the math builders (without id and provenance)."""
    observed = engine.observed
    queryable = sorted(v for v in engine.leaves if v not in observed)
    hidden_world = {v: encode_rational(leaf_values[v]) for v in sorted(engine.leaves)}
    answer = engine.world_target(hidden_world)
    record: dict[str, Any] = {
        "domain": "math",
        "engine": engine.engine_spec(),
        "variables": sorted(engine.variables),
        "descriptions": {v: descriptions[v] for v in sorted(engine.variables)},
        "observed": {v: encode_rational(observed[v]) for v in sorted(observed)},
        "target": engine.target,
        "hidden_world": hidden_world,
        "answer": encode_rational(answer),
        "queryable": queryable,
        "forbidden": [],
        "alternative_only": sorted({v for s in family[1:] for v in s} - set(family[0])),
        "candidate_queries": candidate_queries(engine, observed),
        "k": k,
        "mss_family": [sorted(family[0])] + sorted(sorted(s) for s in family[1:]),
        "difficulty": math_difficulty(engine, queryable, len(family)),
    }
    if extra:
        record.update(extra)
    return record


def validate_math_record(record: dict[str, Any]) -> list[str]:
    """Re-check a math record from scratch; returns the problems found (empty: valid).

    (1) the target is not Known from the revealed leaves, (2) every set of the family
    is sufficient and of size k, (3) no sufficient set of size k-1 among the unrevealed
    leaves (global minimality); plus the family equals the exact search, the hidden world
    agrees with the observations and gives the recorded answer."""
    from infoseek.records import engine_from_record

    errors: list[str] = []
    engine = engine_from_record(record)
    assert isinstance(engine, ArithEngine)
    k = record["k"]
    family = [tuple(s) for s in record["mss_family"]]
    values = engine.target_values()
    if not values:
        return ["infeasible: no world agrees with the observations"]
    if len(values) == 1:
        errors.append("not underspecified: the target is Known from the observations")
    world = record["hidden_world"]
    for v, value in record["observed"].items():
        if parse_rational(world[v]) != parse_rational(value):
            errors.append(f"hidden world disagrees with observed {v!r}")
    try:
        answer = engine.world_target(world)
    except ValueError as exc:
        errors.append(f"hidden world: {exc}")
    else:
        if answer != parse_rational(record["answer"]):
            errors.append("answer differs from the target in the hidden world")
    queryable = list(record["queryable"])
    unrevealed = sorted(v for v in engine.leaves if v not in engine.observed)
    if sorted(queryable) != unrevealed:
        errors.append("queryable is not the set of unrevealed leaves")
    if not family:
        errors.append("empty MSS family")
    for s in family:
        if len(s) != k:
            errors.append(f"MSS {list(s)} has size {len(s)}, not k={k}")
        if not set(s) <= set(queryable):
            errors.append(f"MSS {list(s)} uses quantities outside the queryable set")
        if not is_sufficient(engine, s):
            errors.append(f"MSS {list(s)} is not sufficient")
    if k >= 1 and minimal_sufficient_sets(engine, queryable, k - 1).k is not None:
        errors.append(f"not globally minimal: a sufficient set of size < {k} exists")
    full = minimal_sufficient_sets(engine, queryable, k)
    if sorted(map(sorted, full.family)) != sorted(map(sorted, family)):
        errors.append("the MSS family differs from the exact search")
    return errors
