"""Planning problems no question can settle (issue 34): the exact state check against the
brute-force referee on small askable sets, and a built record."""

from __future__ import annotations

import random

from infoseek.builders.planning.planning_mt import (
    build_problem,
    build_unanswerable,
    plans_settled_by_nothing,
    validate_unanswerable_planning_record,
)
from infoseek.builders.unanswerable import INDEX_OFFSET, settles_nothing
from infoseek.record_views import askable_variables
from infoseek.records import engine_from_record


def test_state_check_agrees_with_the_referee():
    rng = random.Random(34)
    verdicts = {True: 0, False: 0}
    record = build_problem(0, 2, INDEX_OFFSET)
    engine = engine_from_record(record)
    askable = askable_variables(record, forbid_alternatives=False)
    canonical = record["mss_family"][0]
    for trial in range(12):
        others = rng.sample([a for a in askable if a not in canonical], 5)
        subset = sorted(others + (canonical if trial % 2 else []))
        verdict = plans_settled_by_nothing(engine, subset)
        assert verdict == settles_nothing(engine, subset), subset
        verdicts[verdict] += 1
    assert verdicts[True] and verdicts[False]


def test_built_record():
    record = build_unanswerable(0, 2, 0)
    assert record["id"] == "planning-mt-s0-k2-1000000-unanswerable"
    assert record["mss_family"] == [] and validate_unanswerable_planning_record(record) == []
    askable = askable_variables(record, forbid_alternatives=True)
    assert not set(record["unanswerable"]["withheld"]) & set(askable)
    leaked = {**record, "forbidden": [],
              "queryable": sorted([*record["queryable"], *record["unanswerable"]["withheld"]])}
    assert validate_unanswerable_planning_record(leaked)
