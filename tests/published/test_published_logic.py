"""Released Logic-Q formats (MT-InfoSeek Logic-Q-MT, QuestBench Logic-Q): loading,
round trip with our builder, structural errors, and verification against the engine."""

from __future__ import annotations

import csv
import importlib.util
import json
from pathlib import Path

import pytest

from infoseek.builders.logic.logic_mt import build_problem
from infoseek.builders.logic.released.rows import (
    MT_COLUMNS,
    QUESTBENCH_COLUMNS,
    mt_row_from_record,
    questbench_row_from_record,
)
from infoseek.builders.logic.released.source_format import (
    MT_INFOSEEK_LOGIC,
    QUESTBENCH_LOGIC,
    mt_record_from_row,
    questbench_record_from_row,
    verify_mt,
    verify_questbench,
)
from infoseek.builders.published import (
    PublishedDataError,
    detect_source_format,
    get_source_format,
    load_published,
    read_published,
)
from infoseek.records import check_record, engine_from_record
from tests.support import FIXTURES
from tests.support.published_logic import MT_FILE, REF
from tests.support.published_logic import check_names as _checks
from tests.support.published_logic import small_row as _small_row

FIXTURES = FIXTURES / "published"
QB_FILE = FIXTURES / "questbench_logic_q.csv"
LOGIC = ("mt-infoseek-logic", "questbench-logic")
ROUND_TRIP_FIELDS = ("variables", "observed", "target", "target_values", "queryable", "k",
                     "mss_family", "forbidden", "alternative_only", "derivation_depth",
                     "difficulty")


def _writer_module():
    spec = importlib.util.spec_from_file_location(
        "write_logic_fixtures", FIXTURES / "write_logic_fixtures.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


WRITER = _writer_module()


@pytest.fixture(scope="module")
def mt_records():
    return load_published(str(MT_FILE), candidates=LOGIC)


@pytest.fixture(scope="module")
def qb_records():
    return load_published(str(QB_FILE), candidates=LOGIC)


def _write(path: Path, columns, rows) -> str:
    with open(path, "w", encoding="utf-8", newline="") as fh:
        writer = csv.DictWriter(fh, fieldnames=list(columns), lineterminator="\n")
        writer.writeheader()
        for row in rows:
            writer.writerow({c: row.get(c, "") for c in columns})
    return str(path)


# ------------------------------------------------------------------ loading
def test_mt_fixture_loads_with_detection_and_keeps_ids(mt_records):
    assert len(mt_records) == 8
    assert [r["id"] for r in mt_records] == [str(i) for i in range(1001, 1009)]
    for record in mt_records:
        check_record(record, record["id"])
        assert record["provenance"]["format"] == "mt-infoseek-logic"
        assert record["provenance"]["source"] == "logic_q_mt.csv"
        assert record["domain"] == "logic" and record["entity"] == "Alice"
        assert record["engine"]["kind"] == "horn"
        assert set(record["released"]) == {"num_vars", "num_constraints", "max_depth",
                                           "cannot_ask_facts"}
        engine = engine_from_record(record)
        assert engine.target_values() == frozenset({False, True})
        assert record["target_values"] == [False, True]
    assert [r["k"] for r in mt_records] == [1, 1, 2, 2, 3, 3, 2, 3]


def test_explicit_format_gives_the_same_records(mt_records, qb_records):
    assert load_published(str(MT_FILE), source_format="mt-infoseek-logic") == mt_records
    assert load_published(str(QB_FILE), source_format="questbench-logic") == qb_records
    assert len(load_published(str(MT_FILE), source_format="mt-infoseek-logic", limit=2)) == 2


def test_questbench_fixture_loads_with_row_ids(qb_records):
    assert [r["id"] for r in qb_records] == [f"questbench-logic-row{i}" for i in range(1, 6)]
    for record in qb_records:
        check_record(record, record["id"])
        assert record["provenance"]["format"] == "questbench-logic"
        assert record["provenance"]["released_id"] is None
        assert record["k"] == 1 and record["alternative_only"] == []
        assert all(len(s) == 1 for s in record["mss_family"])
        assert engine_from_record(record).target_values() == frozenset({False, True})


def test_detection_uses_signature_and_excludes():
    with open(MT_FILE, encoding="utf-8") as fh:
        mt_columns = next(csv.reader(fh))
    with open(QB_FILE, encoding="utf-8") as fh:
        qb_columns = next(csv.reader(fh))
    assert detect_source_format(mt_columns, "x.csv", LOGIC) is MT_INFOSEEK_LOGIC
    assert detect_source_format(qb_columns, "x.csv", LOGIC) is QUESTBENCH_LOGIC
    assert get_source_format("mt-infoseek-logic") is MT_INFOSEEK_LOGIC
    assert get_source_format("questbench-logic") is QUESTBENCH_LOGIC
    with pytest.raises(PublishedDataError, match="match no source format"):
        detect_source_format(["goal", "rules"], "x.csv", LOGIC)


@pytest.mark.skipif(
    importlib.util.find_spec("infoseek.builders.math.released.source_format") is None,
    reason="the GSME source formats are not there yet")
def test_detection_among_all_formats():
    assert read_published(str(MT_FILE))[1] is MT_INFOSEEK_LOGIC
    assert read_published(str(QB_FILE))[1] is QUESTBENCH_LOGIC


def test_fixtures_are_up_to_date(tmp_path):
    """The writer script reproduces the checked-in files byte for byte."""
    mt = tmp_path / "mt.csv"
    qb = tmp_path / "qb.csv"
    WRITER.write_csv(mt, MT_COLUMNS, WRITER.mt_rows())
    WRITER.write_csv(qb, QUESTBENCH_COLUMNS, WRITER.questbench_rows())
    assert mt.read_bytes() == MT_FILE.read_bytes()
    assert qb.read_bytes() == QB_FILE.read_bytes()
    assert MT_FILE.stat().st_size < 60_000 and QB_FILE.stat().st_size < 60_000


# ------------------------------------------------------------------ round trip
def test_fixture_rows_round_trip_the_builder(mt_records, qb_records):
    for record, (k, index) in zip(mt_records, WRITER.MT_CORRECT):
        built = build_problem(WRITER.SEED, k, index)
        for field in ROUND_TRIP_FIELDS:
            assert record[field] == built[field], (record["id"], field)
        assert record["engine"] == built["engine"]
    for record, index in zip(qb_records, WRITER.QUESTBENCH_CORRECT):
        built = build_problem(WRITER.SEED, 1, index)
        for field in ("variables", "observed", "target", "queryable", "k", "forbidden"):
            assert record[field] == built[field], (record["id"], field)
        # QuestBench has no canonical set: the family is the sorted singles
        assert record["mss_family"] == sorted(built["mss_family"])


@pytest.mark.parametrize("k", [1, 2, 3, 4])
def test_row_from_builder_record_round_trips(k):
    for index in range(2):
        built = build_problem(11, k, index)
        record = mt_record_from_row(mt_row_from_record(built, 5), REF)
        for field in ROUND_TRIP_FIELDS:
            assert record[field] == built[field], field
        literals = {lit for clause in built["engine"]["clauses"] for lit in clause}
        known = [v for v, value in built["observed"].items() if value]
        assert record["released"] == {
            "num_vars": len(literals),  # released num_vars counts x and not x apart
            "num_constraints": len(built["engine"]["clauses"]),
            "max_depth": built["derivation_depth"],
            "cannot_ask_facts": sorted({*known, built["target"], *built["forbidden"]})}
        assert verify_mt(record) == []
        if k == 1:
            row = questbench_row_from_record(built, quoted_goal=index == 1)
            single = questbench_record_from_row(row, REF)
            assert single["mss_family"] == sorted(built["mss_family"])
            assert verify_questbench(single) == []


def test_goal_may_be_plain_or_quoted_and_gt_qs_flat():
    plain = mt_record_from_row(_small_row(), REF)
    quoted = mt_record_from_row(_small_row(goal="'g'", gt_qs="['a']"), REF)
    assert plain["target"] == quoted["target"] == "g"
    assert plain["mss_family"] == quoted["mss_family"] == [["a"]]
    assert plain["observed"] == {"c": True}
    assert plain["variables"] == ["a", "b", "c", "g"]
    assert verify_mt(plain) == []


# ------------------------------------------------------------------ verification
def test_correct_fixture_rows_agree(mt_records, qb_records):
    for record in mt_records[:6]:
        assert verify_mt(record) == [], record["id"]
    for record in qb_records[:4]:
        assert verify_questbench(record) == [], record["id"]


def test_wrong_canonical_row_is_reported(mt_records):
    record = mt_records[6]
    built = build_problem(WRITER.SEED, *WRITER.MT_WRONG_CANONICAL)
    _, removed, inserted = WRITER.wrong_canonical_row(built, 0)
    found = verify_mt(record)
    assert _checks(found) == ["canonical_mss", "mss_family"]
    for disagreement in found:
        assert inserted in disagreement["reason"]
        assert "not sufficient" in disagreement["reason"]
    assert json.loads(json.dumps(found)) == found
    canonical = next(d for d in found if d["check"] == "canonical_mss")
    assert inserted in canonical["released"] and removed not in canonical["released"]


def test_wrong_k_row_is_reported(mt_records):
    found = verify_mt(mt_records[7])
    assert _checks(found) == ["k"]
    assert found[0]["released"] == 3 and found[0]["computed"] == 2


def test_wrong_gt_qs_row_is_reported(qb_records):
    built = build_problem(WRITER.SEED, 1, WRITER.QUESTBENCH_WRONG)
    _, extra = WRITER.wrong_singles_row(built)
    found = verify_questbench(qb_records[4])
    assert _checks(found) == ["sufficient_singles"]
    assert extra in found[0]["reason"] and extra in found[0]["released"]
    assert extra not in found[0]["computed"]


def test_missing_single_is_reported(qb_records):
    # a correct row whose goal more than one attribute decides alone
    record = dict(next(r for r in qb_records[:4] if len(r["mss_family"]) > 1))
    dropped = record["mss_family"][-1][0]
    record["mss_family"] = record["mss_family"][:-1]
    found = verify_questbench(record)
    assert _checks(found) == ["sufficient_singles"]
    assert f"{dropped} decides the goal alone but is not listed" in found[0]["reason"]


def test_missing_family_member_and_alternatives(mt_records):
    record = next(r for r in mt_records[:6] if len(r["mss_family"]) > 2)
    dropped = record["mss_family"][-1]
    found = verify_mt({**record, "mss_family": record["mss_family"][:-1]})
    assert _checks(found) == ["mss_family"]
    assert f"{dropped} is missing" in found[0]["reason"]
    found = verify_mt({**record, "alternative_only": []})
    assert _checks(found) == ["forbid_alternatives"]
    assert found[0]["computed"] == record["alternative_only"]
    assert record["alternative_only"][0] in found[0]["reason"]


def test_non_minimal_family_member(mt_records):
    record = mt_records[2]  # k = 2
    canonical = record["mss_family"][0]
    spare = sorted(set(record["queryable"]) - {v for s in record["mss_family"] for v in s})[0]
    bigger = sorted([*canonical, spare])
    found = verify_mt({**record, "mss_family": [*record["mss_family"], bigger]})
    assert _checks(found) == ["mss_family"]
    assert f"{spare} is not essential" in found[0]["reason"]


def test_infeasible_row_loads_and_is_reported(tmp_path):
    row = _small_row(known_facts="['c', 'g']", known_untrue_facts="['a']",
                     rules="[['a', 'not g', 'not c'], ['g', 'not b']]", num_constraints="2")
    records = load_published(_write(tmp_path / "bad.csv", MT_COLUMNS, [row]), candidates=LOGIC)
    assert records[0]["target_values"] == []
    check_record(records[0])
    found = verify_mt(records[0])
    assert _checks(found) == ["infeasible"]


def test_observed_goal_and_bad_queryable():
    record = mt_record_from_row(_small_row(known_facts="['c', 'g']",
                                           all_valid_qs="['a', 'b', 'c', 'g']"), REF)
    found = verify_mt(record)
    assert _checks(found) == ["not_underspecified", "queryable"]
    queryable = next(d for d in found if d["check"] == "queryable")
    assert queryable["extra"] == ["c", "g"] and "g (the goal)" in queryable["reason"]
    assert "c (known true)" in queryable["reason"]
    known = next(d for d in found if d["check"] == "not_underspecified")
    assert "goal g is itself a known fact" in known["reason"]


def test_queryable_missing_and_num_constraints():
    found = verify_mt(mt_record_from_row(
        _small_row(all_valid_qs="['a']", num_constraints="5"), REF))
    assert _checks(found) == ["num_constraints", "queryable"]
    queryable = next(d for d in found if d["check"] == "queryable")
    assert queryable["missing"] == ["b"]
    assert next(d for d in found if d["check"] == "num_constraints")["computed"] == 3


def test_known_goal_from_facts():
    found = verify_mt(mt_record_from_row(_small_row(known_facts="['a', 'c']",
                                                    all_valid_qs="['b']"), REF))
    assert _checks(found) == ["not_underspecified"]
    assert "g is true" in found[0]["reason"]


def test_cnf_rows_use_the_cnf_engine():
    row = _small_row(rules="[['g', 'not a'], ['a', 'not g'], ['a', 'b']]",
                     known_facts="[]", all_valid_qs="['a', 'b', 'c']",
                     all_valid_qs_forbid_alternatives="['a', 'b', 'c']")
    record = mt_record_from_row(row, REF)
    assert record["engine"]["kind"] == "cnf"
    engine_from_record(record)
    assert _checks(verify_mt(record)) == []  # a decides g; b and c do not alone


def test_no_sufficient_set_within_reach():
    row = _small_row(rules="[['g', 'not a', 'not b', 'not c', 'not d', 'not e']]",
                     known_facts="[]", gt_qs="[['a']]", all_alternative_gt_qs="[]",
                     all_valid_qs="['a', 'b', 'c', 'd', 'e']",
                     all_valid_qs_forbid_alternatives="['a', 'b', 'c', 'd', 'e']",
                     num_constraints="1")
    found = verify_mt(mt_record_from_row(row, REF))
    k = next(d for d in found if d["check"] == "k")
    assert k["computed"] is None and "no sufficient set of size <= 3" in k["reason"]


# ------------------------------------------------------------------ malformed rows
MALFORMED = [
    ("rules", "[['a', 'not b'", "not a Python literal"),
    ("rules", "[['g', 'maybe a']]", "'maybe a' is not 'x' or 'not x'"),
    ("rules", "[['g', 'not a'], []]", "clause 2 is empty"),
    ("rules", "['g', 'not a']", "clause 1 is not a list"),
    ("k", "two", "expected an integer"),
    ("k", "0", "expected an integer >= 1"),
    ("known_untrue_facts", "['c']", "'c' is stated both true and untrue"),
    ("goal", "", "is empty"),
    ("goal", "['a', 'b']", "goal attribute"),
    ("gt_qs", "[]", "is empty"),
    ("all_valid_qs", "'a'", "expected a list"),
]


@pytest.mark.parametrize(("field", "value", "message"), MALFORMED)
def test_malformed_rows_name_file_row_and_field(tmp_path, field, value, message):
    path = _write(tmp_path / "broken_mt.csv", MT_COLUMNS,
                  [_small_row(), _small_row(sample_id="8", **{field: value})])
    with pytest.raises(PublishedDataError) as caught:
        load_published(path, candidates=LOGIC)
    text = str(caught.value)
    assert "broken_mt.csv, row 2 (sample_id 8)" in text
    assert f"field {field!r}" in text
    assert message in text


def test_malformed_questbench_gt_qs(tmp_path):
    row = {c: v for c, v in _small_row(gt_qs="[['a', 'b']]").items()
           if c in QUESTBENCH_COLUMNS}
    path = _write(tmp_path / "qb.csv", QUESTBENCH_COLUMNS, [row])
    with pytest.raises(PublishedDataError, match=r"qb.csv, row 1, field 'gt_qs'"):
        load_published(path, candidates=LOGIC)


def test_missing_goal_column_is_a_header_error(tmp_path):
    columns = tuple(c for c in MT_COLUMNS if c != "goal")
    path = _write(tmp_path / "nogoal.csv", columns, [_small_row()])
    with pytest.raises(PublishedDataError, match=r"nogoal.csv: not a mt-infoseek-logic "
                                                 r"file: missing column\(s\) 'goal'"):
        load_published(path, source_format="mt-infoseek-logic")
    with pytest.raises(PublishedDataError, match="match no source format"):
        load_published(path, candidates=LOGIC)
