"""MT-InfoSeek GSME-Q-MT(-Ext) verification: the seeded fixture defects, symbolic
targets, held-out sets, and how released decimals are compared with exact values."""

from __future__ import annotations

import json

from infoseek.builders.math.released.source_format import CHECKS, verify
from infoseek.stored_forms import sample_problem
from tests.support.published_gsme import EXT_CSV, MT_CSV, W
from tests.support.published_gsme import load_gsme as _load
from tests.support.published_gsme import small_row as _row
from tests.support.published_gsme import small_row_checks as _checks
from tests.support.published_gsme import write_gsme_rows as _write


def test_verify_agrees_on_correct_rows_and_names_seeded_defects():
    mt_records, ext_records = _load(MT_CSV), _load(EXT_CSV)
    for records, plan in ((mt_records, W.PLAN_MT), (ext_records, W.PLAN_EXT)):
        for record, (_k, _index, defect) in zip(records, plan):
            found = verify(record)
            assert {d["check"] for d in found} == W.EXPECTED_CHECKS[defect], record["id"]
            for entry in found:
                assert entry["check"] in CHECKS and entry["reason"]
                json.dumps(entry)
    wrong_answer = next(r for r, (_k, _i, d) in zip(mt_records, W.PLAN_MT) if d == "answer")
    (entry,) = verify(wrong_answer)
    assert entry["released"] == entry["computed"] + 1
    assert "compared exactly" in entry["reason"]


def test_small_row_agrees(tmp_path):
    record, found = _checks(tmp_path)
    assert found == []
    assert record["observed"] == {"A": 4}
    assert record["hidden_world"] == {"A": 4, "B": 2, "C": 7}
    assert record["candidate_queries"] == [{"name": "B", "kind": "relevant_leaf"},
                                           {"name": "C", "kind": "irrelevant_leaf"}]
    assert record["id"] == "mt-infoseek-gsme-row1"


def test_symbolic_target_is_not_known(tmp_path):
    # T = 3 * B with B unrevealed: one expression, infinitely many values
    eq = json.dumps({"T = 3 * B": "the total"})
    pred = json.dumps({"B": 2, "C": 7, "T": 6})
    text = "Variables:\nB: boxes\nC: crates\nEquations:\nT = 3 * B\nGoal: T"
    names = json.dumps({"B": "boxes", "C": "crates", "T": "total"})
    _record, found = _checks(tmp_path, Equations=eq, Variables=names, **{
        "Pred Values": pred, "answer": "6", "Heldout Value": '["C"]',
        "Rewritten Problem": text})
    assert [d["check"] for d in found] == ["heldout_not_sufficient"]
    # a cancelling expression is Known: the released problem is not underspecified
    eq = json.dumps({"T = B - B + 4": "the total"})
    _record, found = _checks(tmp_path, Equations=eq, Variables=names, **{
        "Pred Values": json.dumps({"B": 2, "C": 7, "T": 4}), "answer": "4",
        "Rewritten Problem": text})
    checks = {d["check"] for d in found}
    assert "not_underspecified" in checks and "k" in checks
    k_entry = next(d for d in found if d["check"] == "k")
    assert k_entry["computed"] == 0 and k_entry["released"] == 1


def test_heldout_not_leaf_and_not_minimal(tmp_path):
    _record, found = _checks(tmp_path, **{"Heldout Value": '["T"]'})
    assert [d["check"] for d in found] == ["heldout_not_leaf"]
    _record, found = _checks(tmp_path, **{"Heldout Value": '["B", "C"]', "k": "2"})
    assert [d["check"] for d in found] == ["heldout_not_minimal", "k"]
    assert found[0]["computed"] == ["B"]
    _record, found = _checks(tmp_path, **{"Heldout Value": '["B", "C"]'})
    assert found[-1]["check"] == "k" and "size 2 of the held-out set" in found[-1]["reason"]


def test_values_are_compared_exactly_or_with_tolerance(tmp_path):
    eq = json.dumps({"T = A / B": "the share"})
    text = "Variables:\nA = 100\nEquations:\nT = A / B\nGoal: T"
    base = {"Equations": eq, "Rewritten Problem": text}
    # 100/3 released as a double (as a float pipeline prints it) and rounded to 7 places
    record, found = _checks(tmp_path, **base, **{
        "Pred Values": json.dumps({"A": 100, "B": 3, "C": 1, "T": 33.333333333333336}),
        "answer": "33.3333333"})
    assert found == []
    assert record["released"]["decimal_places"] == {"T": 15}
    assert record["released"]["answer_decimal_places"] == 7
    # rounded to the places written: agree; one more place would be needed otherwise
    _r, found = _checks(tmp_path, **base, **{
        "Pred Values": json.dumps({"A": 100, "B": 3, "C": 1, "T": 33.3}), "answer": "33.33"})
    assert found == []
    _r, found = _checks(tmp_path, **base, **{
        "Pred Values": json.dumps({"A": 100, "B": 3, "C": 1, "T": 33.4}), "answer": "33.32"})
    assert [d["check"] for d in found] == ["answer", "pred_values"]
    assert "more than rounding to 2 decimals" in found[0]["reason"]
    assert "more than rounding to 1 decimal allows" in found[1]["reason"]
    assert found[1]["released"] == {"T": "167/5"} and found[1]["computed"] == {"T": "100/3"}
    # a zero divisor in the released world
    _r, found = _checks(tmp_path, **base, **{
        "Pred Values": json.dumps({"A": 100, "B": 0, "C": 1, "T": 1}), "answer": "1"})
    assert [d["check"] for d in found] == ["infeasible"]


def test_decimal_places_as_written():
    from infoseek.builders.math.released.parse import decimal_places

    assert [decimal_places(v) for v in (290.0, "290.0", "3.33", 0.45, "2.50", "$1,200.5",
                                        "1.5e3", "2e-3", "1.25E1", 1e16)] == [
        1, 1, 2, 2, 2, 1, 0, 3, 1, 0]
    assert [decimal_places(v) for v in (15, "15", "7/2", "40%", "1,200")] == [None] * 5


def test_close_enough_allows_the_rounding_the_places_written_allow():
    from fractions import Fraction as F

    from infoseek.builders.published.cells import close_enough

    assert close_enough(F("290.0"), F("290.04"), 1)
    assert close_enough(F("290.0"), F("290.05"), 1)  # the bound is included
    assert not close_enough(F("290.0"), F("290.06"), 1)
    assert close_enough(F("3.33"), F(10, 3), 2) and not close_enough(F("3.3"), F(10, 3), 2)
    assert not close_enough(F("1000000.2"), F(1000001), 1)
    assert not close_enough(F(1000000), F(1000001), None)  # written exactly: must be equal
    assert close_enough(F(7), F(7), None) and not close_enough(F(7), F(71, 10), None)
    assert close_enough(F("33.333333333333336"), F(100, 3), 15)  # 100/3 as a double


_SHARE = {"Equations": json.dumps({"T = A / B": "the share"}),
          "Rewritten Problem": "Variables:\nA = 10\nB\nT\n\nEquations:\nT = A / B\n\n"
                               "Goal:\nT",
          "Variables": json.dumps({"A": "a", "B": "b", "T": "share"}),
          "Possible Questions": '["B"]', "Given_Conditions": '["A"]'}


def test_large_values_with_a_wrong_decimal_disagree(tmp_path):
    from infoseek.builders.math.released.pose import unposable_reason

    sum_row = {"Equations": json.dumps({"T = A + B": "the sum"}),
               "Rewritten Problem": "Variables:\nA = 1000000\nB\nT\n\nEquations:\n"
                                    "T = A + B\n\nGoal:\nT",
               "Variables": json.dumps({"A": "a", "B": "b", "T": "sum"}),
               "Possible Questions": '["B"]', "Given_Conditions": '["A"]'}
    record, found = _checks(tmp_path, **sum_row, **{
        "Pred Values": "A = 1000000\nB = 1\nT = 1000001", "answer": "1000000.2"})
    assert [d["check"] for d in found] == ["answer"]
    assert "more than rounding to 1 decimal" in found[0]["reason"]
    assert "released answer differs" in unposable_reason(record)
    record, found = _checks(tmp_path, **sum_row, **{
        "Pred Values": "A = 1000000\nB = 1\nT = 1000000.4", "answer": ""})
    assert [d["check"] for d in found] == ["pred_values"]
    assert found[0]["released"] == {"T": "5000002/5"}
    assert "released answer differs" in unposable_reason(record)
    # written with one decimal and right: agrees
    _r, found = _checks(tmp_path, **sum_row, **{
        "Pred Values": "A = 1000000\nB = 1\nT = 1000001.0", "answer": "1000001.0"})
    assert found == []


def test_an_integer_written_answer_must_be_exact(tmp_path):
    from infoseek.builders.math.released.pose import unposable_reason

    record, found = _checks(tmp_path, **_SHARE, **{
        "Pred Values": "A = 10\nB = 3\nT = 3.33", "answer": "3"})
    assert [d["check"] for d in found] == ["answer"]
    assert "compared exactly" in found[0]["reason"]
    assert record["released"]["answer_decimal_places"] is None
    assert "compared exactly" in unposable_reason(record)


def test_a_decimal_value_agrees_within_its_rounding(tmp_path):
    eq = {"Equations": json.dumps({"T = A + B / 10": "t"}),
          "Rewritten Problem": "Variables:\nA = 290\nB\nT\n\nEquations:\n"
                               "T = A + B / 10\n\nGoal:\nT",
          "Variables": json.dumps({"A": "a", "B": "b", "T": "t"}),
          "Possible Questions": '["B"]', "Given_Conditions": '["A"]'}
    # 290.0 for 290.04: agrees; for 290.06: disagrees (answer and Pred Values)
    _r, found = _checks(tmp_path, **eq, **{"Pred Values": "A = 290\nB = 0.4\nT = 290.0",
                                           "answer": "290.0"})
    assert found == []
    _r, found = _checks(tmp_path, **eq, **{"Pred Values": "A = 290\nB = 0.6\nT = 290.0",
                                           "answer": "290.0"})
    assert [d["check"] for d in found] == ["answer", "pred_values"]


def test_a_rounded_answer_is_posed_with_the_exact_one(tmp_path):
    from infoseek.builders.math.released.pose import unposable_reason
    from infoseek.builders.published.sources import source_records
    from infoseek.inspect_tasks.gsme_mt import gsme_mt

    path = _write(tmp_path, [_row(**_SHARE, **{"Pred Values": "A = 10\nB = 3\nT = 3.33",
                                               "answer": "", "Full Answer": "3.33"})])
    (record,) = _load(path, source_format="mt-infoseek-gsme")
    assert verify(record) == []
    assert record["released"]["decimal_places"] == {"T": 2}
    assert record["released"]["answer_decimal_places"] == 2
    assert unposable_reason(record) == "rounded answer"
    (kept,) = source_records(str(path), domain="math")
    assert kept["answer"] == "10/3"
    assert kept["released"]["answer"] == "333/100"
    assert kept["released"]["answer_rounding"] == (
        "the released answer 3.33 is 10/3 rounded to 2 decimals")
    task = gsme_mt(source=str(path))
    (sample,) = task.dataset
    problem = sample_problem(sample.metadata)
    assert problem["answer"] == "10/3" and problem["released"]["answer"] == "333/100"


def test_the_math_posing_rule_follows_released_records_into_our_jsonl(tmp_path):
    """The rule is the source format's (`SourceFormat.pose`): a released record saved
    as our JSONL keeps its provenance's format and is posed the same way; a record whose
    released answer disagrees with its values is left out either way."""
    from infoseek.builders.math.released.pose import pose
    from infoseek.builders.math.released.source_format import MT_INFOSEEK_GSME, MT_INFOSEEK_GSME_EXT
    from infoseek.builders.published.sources import source_records
    from infoseek.jsonl import write_jsonl

    assert MT_INFOSEEK_GSME.pose is pose and MT_INFOSEEK_GSME_EXT.pose is pose
    path = _write(tmp_path, [
        _row(**_SHARE, **{"Pred Values": "A = 10\nB = 3\nT = 3.33", "answer": "",
                          "Full Answer": "3.33", "sample_id": "rounded"}),
        _row(**_SHARE, **{"Pred Values": "A = 10\nB = 3\nT = 3.33", "answer": "4",
                          "sample_id": "wrong"})])
    records = _load(path, source_format="mt-infoseek-gsme")
    assert [r["provenance"]["format"] for r in records] == ["mt-infoseek-gsme"] * 2
    ours = tmp_path / "ours.jsonl"
    write_jsonl(records, ours)
    for source in (str(path), str(ours)):
        (kept,) = source_records(source, domain="math")
        assert kept["id"] == "rounded" and kept["answer"] == "10/3", source


def test_revealed_values_and_derived_reveals(tmp_path):
    _r, found = _checks(tmp_path, Given_Conditions='{"A": 5}')
    assert [d["check"] for d in found] == ["revealed_values"]
    record, found = _checks(tmp_path, Given_Conditions='["A = 4", "T = 10"]')
    assert record["observed"] == {"A": 4}
    assert [d["check"] for d in found] == ["revealed_not_leaf"]
    assert found[0]["computed"] == {"T": 10}
