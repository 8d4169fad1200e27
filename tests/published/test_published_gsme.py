"""MT-InfoSeek GSME-Q-MT(-Ext) released files: loading, round trip, verification."""

from __future__ import annotations

import csv
import json
import re

import pytest

from infoseek.builders.math import gsm_text, gsme_text
from infoseek.builders.math.math_record import candidate_queries
from infoseek.builders.math.released.source_format import (
    MT_INFOSEEK_GSME,
    MT_INFOSEEK_GSME_EXT,
    verify,
)
from infoseek.builders.published import PublishedDataError, detect_source_format, load_published
from infoseek.engines.arith.engine import ArithEngine
from infoseek.record_views import public_record
from infoseek.records import check_record, engine_from_record
from tests.support.published_gsme import EXT_CSV, GSME, MT_CSV, W
from tests.support.published_gsme import load_gsme as _load
from tests.support.published_gsme import small_row as _row
from tests.support.published_gsme import small_row_checks as _checks
from tests.support.published_gsme import write_gsme_rows as _write


@pytest.fixture(scope="module")
def mt_records():
    return _load(MT_CSV)


@pytest.fixture(scope="module")
def ext_records():
    return _load(EXT_CSV)


# --------------------------------------------------------------------------- loading
def test_detection_tells_the_two_formats_apart(mt_records, ext_records):
    assert {r["provenance"]["format"] for r in mt_records} == {"mt-infoseek-gsme"}
    assert {r["provenance"]["format"] for r in ext_records} == {"mt-infoseek-gsme-ext"}
    columns = list(W.MT_COLUMNS)
    assert detect_source_format(columns, candidates=GSME) is MT_INFOSEEK_GSME
    assert detect_source_format(W.EXT_COLUMNS, candidates=GSME) is MT_INFOSEEK_GSME_EXT
    # only one Ext marker column present: still not the plain format
    with pytest.raises(PublishedDataError, match="match no source format"):
        detect_source_format([*columns, "rule_records"], candidates=GSME)


def test_detection_among_all_formats():
    pytest.importorskip("infoseek.builders.logic.released.source_format")
    assert load_published(str(MT_CSV), limit=1)[0]["provenance"]["format"] == \
        "mt-infoseek-gsme"
    assert load_published(str(EXT_CSV), limit=1)[0]["provenance"]["format"] == \
        "mt-infoseek-gsme-ext"


def test_explicit_format_and_ids(mt_records, ext_records):
    records = load_published(str(EXT_CSV), source_format="mt-infoseek-gsme-ext", limit=2)
    expected = [W.ids(r, k)[0] for r, (k, _i, _d) in zip(W.builder_records(True),
                                                          W.PLAN_EXT[:2])]
    assert [r["id"] for r in records] == expected
    assert all(re.fullmatch(r"[0-9a-f]{12}_k\d_0", r["id"]) for r in records)
    sample_id = W.ids(W.builder_records(False)[0], 1)[0]
    assert mt_records[0]["id"] == sample_id
    assert mt_records[0]["provenance"] == {"format": "mt-infoseek-gsme",
                                           "source": "gsme_q_mt.csv", "row": 1,
                                           "released_id": sample_id}
    assert [r["k"] for r in ext_records] == [k + (d == "heldout_not_minimal")
                                             for k, _i, d in W.PLAN_EXT]
    assert MT_INFOSEEK_GSME.id_fields == ("sample_id", "problem_id", "id")


def test_records_are_valid_and_render(mt_records, ext_records):
    for record in mt_records + ext_records:
        check_record(record, record["id"])
        engine = engine_from_record(record)
        assert isinstance(engine, ArithEngine)
        json.dumps(record)
        text = gsme_text.render_equations(record)
        assert f"Goal: find the value of {record['target']}" in text
        words = gsm_text.render_word_problem(record)
        assert words["question"] and words["text"]
        full = gsm_text.render_word_problem(record, reveal=record["queryable"])
        assert len(full["value_sentences"]) > len(words["value_sentences"])
        assert "answer" not in public_record(record)
        assert record["released_text"].startswith("Variables:")
        assert "id" in record and "provenance" in record
    assert all("distractor_vars" in r["released"] for r in ext_records)
    assert not any("distractor_vars" in r["released"] for r in mt_records)


def _written_questions(row):
    return [q.removeprefix("What is ").rstrip("?")
            for q in json.loads(row["Possible Questions"])]


@pytest.mark.parametrize("ext", [False, True], ids=["gsme", "ext"])
def test_round_trip_against_the_builders(tmp_path, ext):
    built = W.builder_records(ext)
    plan = W.PLAN_EXT if ext else W.PLAN_MT
    rows = [W.released_row(r, variant, ext=ext) for variant, r in enumerate(built)]
    loaded = _load(_write(tmp_path, rows),
                   source_format="mt-infoseek-gsme-ext" if ext else "mt-infoseek-gsme")
    assert len(loaded) == len(plan)
    for original, record, row in zip(built, loaded, rows):
        for field in ("engine", "variables", "observed", "target", "k", "hidden_world",
                      "answer", "queryable"):
            assert record[field] == original[field], (original["id"], field)
        # released questions are the leaves (older spelling: every candidate as a sentence)
        asked = set(_written_questions(row))
        assert record["candidate_queries"] == [
            c for c in original["candidate_queries"] if c["name"] in asked]
        if ext:  # Variables holds roles: the names are the descriptions
            assert record["descriptions"] == {v: v for v in original["variables"]}
            assert set(record["released"]["roles"].values()) <= {
                "known_leaf", "known_leaf_distractor", "derived", "derived_distractor",
                "goal"}
            assert record["released"]["roles"][original["target"]] == "goal"
        else:
            assert record["descriptions"] == original["descriptions"]
        assert record["mss_family"] == original["mss_family"][:1]
        for field in ("depth", "num_vars", "num_rules", "num_relevant_leaves",
                      "num_queryable", "compatible_values"):
            assert record["difficulty"][field] == original["difficulty"][field]
        assert verify(record) == []


def test_fixture_rows_match_the_plan(mt_records, ext_records):
    for records, plan in ((mt_records, W.PLAN_MT), (ext_records, W.PLAN_EXT)):
        for record, (k, _index, defect) in zip(records, plan):
            if defect is None:
                assert record["k"] == k
                assert len(record["mss_family"][0]) == k


def test_fixtures_use_the_released_encodings():
    for path, columns in ((MT_CSV, W.MT_COLUMNS), (EXT_CSV, W.EXT_COLUMNS)):
        with open(path, encoding="utf-8", newline="") as fh:
            rows = list(csv.DictReader(fh))
        assert list(rows[0]) == columns
        assert path.stat().st_size < 80_000
        real = [row for i, row in enumerate(rows) if i % 4 not in W.LEGACY]
        legacy = [row for i, row in enumerate(rows) if W.LEGACY.get(i % 4) == "dict"]
        assert real and legacy
        for row in real:
            assert re.fullmatch(r"(\w+ = \S+\n)*\w+ = \S+", row["Pred Values"])
            names = json.loads(row["Given_Conditions"])
            assert all(isinstance(n, str) and "=" not in n for n in names)
        for row in legacy:
            assert isinstance(json.loads(row["Given_Conditions"]), dict)
            assert isinstance(json.loads(row["Pred Values"]), dict)


# --------------------------------------------------------------------------- cell forms
def test_cell_variations(tmp_path):
    record, found = _checks(tmp_path, **{
        "Equations": json.dumps(["T = A + 3 \u00d7 B + 2 x 3 \u00f7 6 \u2212 1"]),
        "Given_Conditions": "A = 4, C = 7",
        "Possible Questions": json.dumps(["How many boxes are there?", "What is C?"]),
        "goal_var": "",
        "answer": "",
        "Full Answer": "So the total is 4 + 6 = 10 apples and boxes.",
        "Pred Values": json.dumps({"A": "4", "B": 2.0, "C": 7, "T": 10, "extra": "n/a"}),
    })
    assert record["engine"]["equations"] == [["T", "A + 3 * B + 2 * 3 / 6 - 1"]]
    assert record["observed"] == {"A": 4, "C": 7}
    assert record["target"] == "T"
    assert [c["name"] for c in record["candidate_queries"]] == ["B"]
    assert record["released"]["answer_source"] == "Full Answer"
    assert found == []  # T = A + 3 * B + 1 - 1


def test_without_possible_questions_every_quantity_is_a_candidate(tmp_path):
    row = _row()
    del row["Possible Questions"]
    (record,) = _load(_write(tmp_path, [row]), source_format="mt-infoseek-gsme")
    engine = engine_from_record(record)
    assert record["candidate_queries"] == candidate_queries(engine, record["observed"])


# --------------------------------------------------------------------------- errors
MALFORMED = [
    ("Equations", {"Equations": json.dumps({"T = A +": "broken"})}, "does not parse"),
    ("Equations", {"Equations": "{not json"}, "not a Python literal or JSON"),
    ("Equations", {"Equations": json.dumps({"A + 1 = T": "x"})}, "single quantity name"),
    ("Equations", {"Equations": json.dumps({"T = A + B": "", "B = T - 1": ""})}, "cyclic"),
    ("Equations", {"Equations": json.dumps({"T = A + B": "", "T = 2 * B": ""})},
     "defined twice"),
    ("Equations", {"Equations": json.dumps({"T = A ^ B": ""})}, "'T = A ^ B'"),
    ("Pred Values", {"Pred Values": json.dumps({"A": 4, "B": 2, "T": 10})}, "'C'"),
    ("Pred Values", {"Pred Values": json.dumps({"A": 4, "B": "two", "C": 1, "T": 10})},
     "expected a number"),
    ("k", {"k": "two"}, "expected an integer"),
    ("k", {"k": "0"}, ">= 1"),
    ("Heldout Value", {"Heldout Value": '["B", "Z"]'}, "unknown quantities ['Z']"),
    ("Heldout Value", {"Heldout Value": "[]"}, "is empty"),
    ("goal_var", {"goal_var": "Q"}, "not a quantity"),
    ("Given_Conditions", {"Given_Conditions": '{"Q": 1}'}, "not a quantity"),
    ("answer", {"answer": "no idea"}, "no number"),
]


@pytest.mark.parametrize(("field", "changes", "detail"), MALFORMED,
                         ids=[f"{m[0]}-{i}" for i, m in enumerate(MALFORMED)])
def test_malformed_rows_name_file_row_and_field(tmp_path, field, changes, detail):
    path = _write(tmp_path, [_row(), _row(**changes)], name="broken_gsme.csv")
    with pytest.raises(PublishedDataError) as caught:
        _load(path, source_format="mt-infoseek-gsme")
    message = str(caught.value)
    assert "broken_gsme.csv" in message and "row 2" in message
    assert f"field {field!r}" in message and detail in message


def test_missing_required_column(tmp_path):
    row = _row()
    del row["Pred Values"]
    with pytest.raises(PublishedDataError, match="missing column.*'Pred Values'"):
        _load(_write(tmp_path, [row]), source_format="mt-infoseek-gsme")


def test_revealed_values_from_text_and_loose_cells(tmp_path):
    text = ("Intro.\nVariables:\n- A = 4, C = 7\nEquations:\nT = A + 3 * B\nZ = 5\n"
            "Goal: What is T?")
    eq = json.dumps({"T = A + 3 * B": "", "Z = 5": "a constant, not a revealed leaf"})
    record, found = _checks(tmp_path, Equations=eq, **{
        "Rewritten Problem": text, "Given_Conditions": "nothing is given here",
        "Heldout Value": "B", "Pred Values": json.dumps({"A": 4, "B": 2, "C": 7, "T": 10,
                                                         "Z": 5})})
    assert record["observed"] == {"A": 4, "C": 7}
    assert record["mss_family"] == [["B"]]
    assert found == []


def test_x_is_a_quantity_then_it_is_never_read_as_times(tmp_path):
    names = json.dumps({"A": "a", "B": "b", "C": "c", "T": "t", "x": "a quantity x"})
    path = _write(tmp_path, [_row(Variables=names, Equations=json.dumps(["T = 2 x 3"]))])
    with pytest.raises(PublishedDataError, match="field 'Equations'.*does not parse"):
        _load(path, source_format="mt-infoseek-gsme")


def test_undecidable_is_reported_not_raised():
    record = {"domain": "math", "variables": ["B", "C", "S", "T"], "target": "T",
              "engine": {"kind": "arith",
                         "equations": [["S", "B * B + C * C"], ["T", "B + C"]]},
              "observed": {"S": 5}, "hidden_world": {"B": 1, "C": 2}, "answer": 3,
              "queryable": ["B", "C"], "k": 1, "mss_family": [["B"]],
              "released": {"heldout": ["B"]}}
    (entry,) = verify(record)
    assert entry["check"] == "undecidable" and "cannot decide" in entry["reason"]


def test_derived_quantities_are_refused_as_not_leaf():
    from infoseek.record_views import askable_variables, not_leaf_variables

    for path in (MT_CSV, EXT_CSV):
        for record in load_published(str(path)):
            engine = engine_from_record(record)
            derived = sorted(v for v in record["variables"]
                             if v != record["target"] and not engine.is_leaf(v))
            assert derived and not_leaf_variables(record) == derived
            assert not set(derived) & set(askable_variables(record, False))
