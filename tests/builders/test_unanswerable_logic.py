"""Logic problems no question can settle (issue 34): the withheld-premise construction
held to the brute-force referee, its exact checks, the mix count and determinism."""

from __future__ import annotations

import random

import pytest

from infoseek.analysis import possible_target_values
from infoseek.builders.logic.logic_mt import build_problem
from infoseek.builders.logic.unanswerable import (
    build_default,
    validate_unanswerable_logic_record,
    withhold_premise,
)
from infoseek.builders.unanswerable import (
    UnanswerableShareError,
    settles_nothing,
    unanswerable_count,
)
from infoseek.engines.horn import format_literal
from infoseek.jsonl import dumps_record
from infoseek.record_views import askable_variables
from infoseek.records import engine_from_record


def _small_record(rng: random.Random, n: int = 7) -> dict | None:
    """A random small Horn problem in the logic record's shape (target open)."""
    names = [f"v{i}" for i in range(n)]
    target = names[0]
    clauses = []
    for _ in range(rng.randint(3, 9)):
        body = rng.sample(names, rng.randint(1, 3))
        head = rng.choice([None, *[v for v in names if v not in body]])
        clauses.append(([head] if head else []) + [format_literal(b, False) for b in body])
    observed = {v: rng.random() < 0.5 for v in names[1:] if rng.random() < 0.3}
    record = {"id": "small", "domain": "logic", "entity": "Alice",
              "engine": {"kind": "horn", "clauses": clauses}, "variables": names,
              "observed": observed, "target": target, "target_values": [False, True],
              "queryable": [v for v in names[1:] if v not in observed], "forbidden": [],
              "alternative_only": [], "k": 1, "mss_family": [[]]}
    engine = engine_from_record(record)
    if possible_target_values(engine) != [False, True]:
        return None
    return record


def test_withheld_premise_settles_nothing_by_brute_force():
    rng = random.Random(34)
    checked = settled_before = 0
    while checked < 60:
        base = _small_record(rng)
        if base is None:
            continue
        engine = engine_from_record(base)
        settled_before += not settles_nothing(engine, base["queryable"])
        record = withhold_premise(base, rng)
        assert validate_unanswerable_logic_record(record) == []
        askable = askable_variables(record, forbid_alternatives=True)
        assert settles_nothing(engine_from_record(record), askable), record
        checked += 1
    # the referee can fail: most base problems are settled by some answers
    assert settled_before > 10


def test_built_records_pass_the_referee_where_small_enough():
    seen = 0
    for k in (1, 2, 3):
        for index in range(6):
            record = build_default(0, k, index)
            askable = askable_variables(record, forbid_alternatives=True)
            if len(askable) <= 12:
                assert settles_nothing(engine_from_record(record), askable)
                seen += 1
    assert seen >= 2


def test_record_shape_and_key_is_the_missing_premise():
    record = build_default(0, 2, 0)
    assert record["id"] == "logic-mt-s0-k2-1000000-unanswerable"
    assert record["mss_family"] == [] and record["k"] == 2
    key = record["unanswerable"]["withheld"][0]
    assert key in record["forbidden"]
    assert key not in askable_variables(record, forbid_alternatives=True)
    # with the key known true the problem is settled again by its ordinary MSS
    base = build_problem(0, 2, 1_000_000)
    engine = engine_from_record(record)
    assert engine.target_values({key: True}) == frozenset({False, True})
    from infoseek.analysis import is_sufficient
    assert is_sufficient(engine_from_record({**record, "observed": {**record["observed"],
                                                                    key: True}}),
                         base["mss_family"][0])


def test_validator_rejects_a_broken_shape():
    record = build_default(0, 1, 0)
    key = record["unanswerable"]["withheld"][0]
    clauses = [list(c) for c in record["engine"]["clauses"]]
    for clause in clauses:
        if format_literal(key, False) in clause:
            clause.remove(format_literal(key, False))
            break
    broken = {**record, "engine": {"kind": "horn", "clauses": clauses}}
    assert validate_unanswerable_logic_record(broken)
    askable_key = {**record, "forbidden": [v for v in record["forbidden"] if v != key]}
    assert validate_unanswerable_logic_record(askable_key)


def test_deterministic():
    assert dumps_record(build_default(3, 3, 2)) == dumps_record(build_default(3, 3, 2))
    assert build_default(3, 3, 2)["id"] != build_default(3, 3, 1)["id"]


@pytest.mark.parametrize(("share", "ordinary", "expected"), [
    (0, 10, 0), (0.2, 8, 2), (0.25, 6, 2), (0.5, 7, 7), (0.2, 2, 1), (0.1, 4, 0),
    (0.2, 10, 3), ("0.2", 10, 3), (0.9, 1, 9), (0.2, 0, 0),
])
def test_unanswerable_count(share, ordinary, expected):
    # round(share * N / (1 - share)), halves up: 0.2 * 10 / 0.8 = 2.5 -> 3
    assert unanswerable_count(share, ordinary) == expected


@pytest.mark.parametrize("share", [1, 1.5, -0.1, "much", None, True, float("nan")])
def test_bad_share(share):
    with pytest.raises(UnanswerableShareError, match="unanswerable"):
        unanswerable_count(share, 10)
