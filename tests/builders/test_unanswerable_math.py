"""Math problems no question can settle (issue 34): the withheld-leaf criterion held to
the brute-force referee on small finite-domain systems, and the built records."""

from __future__ import annotations

import random

from infoseek.builders.math.unanswerable import (
    build_default,
    build_ext,
    validate_unanswerable_math_record,
    withheld_leaf_settles_nothing,
)
from infoseek.builders.unanswerable import settles_nothing
from infoseek.jsonl import dumps_record
from infoseek.record_views import askable_variables
from infoseek.records import engine_from_record


def _small_system(rng: random.Random) -> dict:
    """A random tree of + - * / over four leaves with small finite domains (0 allowed)."""
    leaves = ["a", "b", "c", "d"]
    rng.shuffle(leaves)
    nodes = list(leaves)
    equations = []
    while len(nodes) > 1:
        left, right = nodes.pop(), nodes.pop()
        name = "T" if not nodes else f"m{len(equations)}"
        equations.append([name, f"{left} {rng.choice('+-*/')} {right}"])
        nodes.insert(rng.randrange(len(nodes) + 1), name)
    return {"id": "small", "domain": "math", "target": "T",
            "engine": {"kind": "arith", "equations": equations,
                       "domains": {leaf: [0, 1, 2] for leaf in leaves}},
            "variables": sorted({"T", *leaves, *(n for n, _ in equations)}),
            "observed": {}}


def test_criterion_agrees_with_the_referee():
    rng = random.Random(34)
    qualified = pinned = 0
    for _ in range(40):
        record = _small_system(rng)
        engine = engine_from_record(record)
        if len(engine.target_values()) < 2:
            continue
        for leaf in ("a", "b", "c", "d"):
            others = [v for v in ("a", "b", "c", "d") if v != leaf]
            if withheld_leaf_settles_nothing(record, leaf):
                assert settles_nothing(engine, others), (record, leaf)
                qualified += 1
            else:
                pinned += not settles_nothing(engine, others)
    assert qualified > 20 and pinned > 5  # both sides occur: the referee can fail


def test_built_records():
    for k in (1, 2, 4):
        record = build_default(0, k, 0)
        assert record["id"].endswith("-unanswerable") and record["k"] == k
        assert validate_unanswerable_math_record(record) == []
        [leaf] = record["unanswerable"]["withheld"]
        assert leaf not in askable_variables(record, forbid_alternatives=True)
        assert leaf in record["hidden_world"]  # the oracle still answers from a world
    assert dumps_record(build_default(1, 2, 1)) == dumps_record(build_default(1, 2, 1))


def test_validator_rejects_an_askable_or_cancellable_leaf():
    record = build_default(0, 1, 0)
    [leaf] = record["unanswerable"]["withheld"]
    askable = {**record, "forbidden": [], "queryable": sorted([*record["queryable"], leaf])}
    assert validate_unanswerable_math_record(askable)
    observed_leaf = next(iter(record["observed"]))
    other = {**record, "unanswerable": {"withheld": [observed_leaf]}}
    assert validate_unanswerable_math_record(other)


def test_built_ext_record():
    record = build_ext(0, 3, 0)
    assert record["id"] == "gsme-mt-ext-s0-k3-1000000-unanswerable"
    assert validate_unanswerable_math_record(record) == []
