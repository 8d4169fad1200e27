"""Gene-regulation problems no question can settle (issue 34): the one-pass row check
against the brute-force referee, and the built records."""

from __future__ import annotations

from infoseek.builders.genereg.genereg_mt import build_problem
from infoseek.builders.genereg.unanswerable import (
    build_unanswerable,
    rows_settle_nothing,
    validate_unanswerable_genereg_record,
)
from infoseek.builders.unanswerable import INDEX_OFFSET, settles_nothing
from infoseek.record_views import askable_variables
from infoseek.records import engine_from_record


def test_row_check_agrees_with_the_referee():
    agree = {True: 0, False: 0}
    for job in [(0, 1, "steady", "attractor", INDEX_OFFSET),
                (0, 2, "steady", "attractor", INDEX_OFFSET),
                (0, 2, "dynamic", "marker", INDEX_OFFSET + 2)]:
        record = build_problem(job)
        engine = engine_from_record(record)
        askable = askable_variables(record, forbid_alternatives=False)
        genes = sorted({g for s in record["mss_family"] for g in s})
        for withheld in [[], *([g] for g in genes), genes]:
            rest = [g for g in askable if g not in withheld]
            verdict = rows_settle_nothing(engine, rest)
            assert verdict == settles_nothing(engine, rest), (record["id"], withheld)
            agree[verdict] += 1
    assert agree[True] and agree[False]  # both verdicts occur


def test_built_records():
    for index in range(3):  # one per stream
        record = build_unanswerable(0, 1, index)
        assert record["id"].endswith("-unanswerable") and record["mss_family"] == []
        assert validate_unanswerable_genereg_record(record) == []
        askable = askable_variables(record, forbid_alternatives=True)
        assert not set(record["unanswerable"]["withheld"]) & set(askable)
    record = build_unanswerable(0, 2, 0)
    askable = askable_variables(record, forbid_alternatives=True)
    assert settles_nothing(engine_from_record(record), askable)  # the referee, directly
    leaked = {**record, "forbidden": [],
              "queryable": sorted([*record["queryable"], *record["unanswerable"]["withheld"]])}
    assert validate_unanswerable_genereg_record(leaked)
