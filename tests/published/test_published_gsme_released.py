"""MT-InfoSeek GSME-Q-MT(-Ext) files in the released encodings (Pred Values as
`name = value` lines, Given_Conditions as names, Ext roles and `pred_values_dict`)."""

from __future__ import annotations

import json

import pytest

from infoseek.builders.math.released.source_format import verify
from infoseek.builders.published import PublishedDataError
from tests.support.published_gsme import load_gsme as _load
from tests.support.published_gsme import write_gsme_rows as _write


def _real_row(**changes):
    """A small row in the released encodings: Pred Values lines, Given_Conditions names."""
    row = {
        "sample_id": "0123456789ab_k1_0", "problem_id": "0123456789ab",
        "Full Problem": "A = 4\nB = 2\nC = 7\nP = A * B\nT = P + 1.5\nWhat is T?",
        "CSP": "Variables:\nA = 4 [apples]\nB = 2 [boxes]\nC = 7 [crates]\nP [product]\n"
               "T [total]\n\nEquations:\nP = A * B [the product]\nT = P + 1.5 [the total]"
               "\n\nGoal:\nT [What is the total?]",
        "Full Answer": "9.5",
        "Variables": json.dumps({"A": "apples", "B": "boxes", "C": "crates", "P": "product",
                                 "T": "total"}),
        "Equations": json.dumps({"P = A * B": "the product", "T = P + 1.5": "the total"}),
        "Pred Values": "A = 4\nB = 2\nC = 7\nP = 8.0\nT = 9.5",
        "Heldout Value": '["B"]',
        "Rewritten Problem": "Variables:\nA = 4\nB\nC\nP\nT\n\nEquations:\nP = A * B\n"
                             "T = P + 1.5\n\nGoal:\nT",
        "Possible Questions": '["A", "B", "C"]',
        "Given_Conditions": '["A"]',
        "k": "1", "goal_var": "T",
    }
    row.update(changes)
    return row


def _load_real(tmp_path, fmt="mt-infoseek-gsme", **changes):
    (record,) = _load(_write(tmp_path, [_real_row(**changes)]), source_format=fmt)
    return record, verify(record)


def test_released_encodings_load_and_agree(tmp_path):
    record, found = _load_real(tmp_path)
    assert found == []
    assert record["id"] == "0123456789ab_k1_0"
    assert record["observed"] == {"A": 4}
    assert record["hidden_world"] == {"A": 4, "B": 2, "C": 7}
    assert record["answer"] == "19/2"
    assert record["released"]["pred_values"]["P"] == 8
    assert record["released"]["decimal_places"] == {"P": 1, "T": 1}
    assert record["released"]["answer_decimal_places"] == 1
    assert record["released"]["goal_question"] == "What is the total?"
    assert [c["name"] for c in record["candidate_queries"]] == ["B", "C"]
    # auto-detection picks the plain format for these columns
    (auto,) = _load(_write(tmp_path, [_real_row()], name="auto.csv"))
    assert auto["provenance"]["format"] == "mt-infoseek-gsme"


def test_given_condition_names_take_values_from_text_else_pred_values(tmp_path):
    # C is not shown with a value in the text: its value comes from Pred Values
    record, found = _load_real(tmp_path, Given_Conditions='["A", "C"]')
    assert record["observed"] == {"A": 4, "C": 7}
    assert record["released"]["revealed_from_pred_values"] == ["C"]
    assert found == []
    # the text and Pred Values disagree on A: loaded (text value), reported by verify
    record, found = _load_real(tmp_path, **{"Pred Values": "A = 5\nB = 2\nC = 7\nP = 10\n"
                                                           "T = 11.5", "Full Answer": "11.5"})
    assert record["observed"] == {"A": 4}
    assert [d["check"] for d in found] == ["revealed_values"]
    assert found[0]["released"] == {"A": 5} and found[0]["computed"] == {"A": 4}
    # nothing revealed
    record, found = _load_real(tmp_path, Given_Conditions="[]", **{
        "Rewritten Problem": "Variables:\nA\nB\nC\nP\nT\n\nEquations:\nP = A * B\n"
                             "T = P + 1.5\n\nGoal:\nT", "Heldout Value": '["A", "B"]',
        "k": "2"})
    assert record["observed"] == {} and found == []


def test_text_value_not_listed_in_given_conditions_is_reported(tmp_path):
    text = "Variables:\nA = 4\nB\nC = 7\nP\nT\n\nEquations:\nP = A * B\nT = P + 1.5\n\nGoal:\nT"
    record, found = _load_real(tmp_path, **{"Rewritten Problem": text})
    assert record["observed"] == {"A": 4}
    assert [d["check"] for d in found] == ["revealed_values"]
    assert found[0]["released"] == {"C": 7} and "does not list" in found[0]["reason"]


REAL_MALFORMED = [
    ("Given_Conditions", {"Given_Conditions": '["A", "Q"]'}, "'Q' is not a quantity"),
    ("Given_Conditions", {"Given_Conditions": '["C"]', "Pred Values": "A = 4\nB = 2\nP = 8"},
     "neither the Rewritten Problem nor Pred Values"),
    ("Pred Values", {"Pred Values": "A = 4\nB two\nC = 7"}, "expected 'name = number'"),
    ("Pred Values", {"Pred Values": "A = 4\nB = two\nC = 7"}, "expected a number"),
    ("Pred Values", {"Pred Values": "A = 4\nB = 2\nB = 3\nC = 7"}, "two different values"),
]


@pytest.mark.parametrize(("field", "changes", "detail"), REAL_MALFORMED,
                         ids=[f"{m[0]}-{i}" for i, m in enumerate(REAL_MALFORMED)])
def test_released_encoding_errors_name_the_field(tmp_path, field, changes, detail):
    path = _write(tmp_path, [_real_row(), _real_row(**changes)], name="broken_real.csv")
    with pytest.raises(PublishedDataError) as caught:
        _load(path, source_format="mt-infoseek-gsme")
    message = str(caught.value)
    assert "row 2" in message and f"field {field!r}" in message and detail in message


def _ext_changes(**more):
    roles = {"A": "known_leaf", "B": "known_leaf", "C": "known_leaf_distractor",
             "P": "derived", "T": "goal"}
    changes = {
        "Variables": json.dumps(roles),
        "Equations": json.dumps({"P = A * B": "mul_xy", "T = P + 1.5": "add_k"}),
        "CSP": "Variables:\nA = 4 [known_leaf]\nB = 2 [known_leaf]\n"
               "C = 7 [known_leaf_distractor]\nP [derived]\nT [goal]\n\nEquations:\n"
               "P = A * B [mul_xy]\nT = P + 1.5 [add_k]\n\nGoal:\nT [goal]",
        "distractor_vars": '["C"]', "answer": "9.5",
        "pred_values_dict": json.dumps({"A": 4, "B": 2, "C": 7, "P": 8, "T": 9.5}),
        "has_distractor": "True", "has_merge": "False", "y_cand_count": "",
        "rule_records": "[]", "graph": '{"nodes": [], "edges": [], "rules": []}',
    }
    changes.update(more)
    return changes


def test_ext_roles_and_pred_values_dict(tmp_path):
    record, found = _load_real(tmp_path, "mt-infoseek-gsme-ext", **_ext_changes())
    assert found == []
    assert record["descriptions"] == {v: v for v in "ABCPT"}
    assert record["released"]["roles"]["C"] == "known_leaf_distractor"
    assert record["released"]["equation_descriptions"] == {"P": "mul_xy", "T": "add_k"}
    assert record["released"]["pred_values_source"] == "pred_values_dict"
    assert record["released"]["flags"] == {"has_distractor": True, "has_merge": False}
    assert "goal_question" not in record["released"]
    (auto,) = _load(_write(tmp_path, [_real_row(**_ext_changes())], name="auto.csv"))
    assert auto["provenance"]["format"] == "mt-infoseek-gsme-ext"
    # role-valued Variables with described CSP lines: the CSP descriptions are used
    csp = _real_row()["CSP"]
    record, _found = _load_real(tmp_path, "mt-infoseek-gsme-ext", **_ext_changes(CSP=csp))
    assert record["descriptions"]["A"] == "apples" and record["descriptions"]["P"] == "product"


def test_ext_pred_values_dict_is_preferred_and_a_mismatch_is_reported(tmp_path):
    # the text gives P a wrong value: loaded from the dict, reported by verify
    record, found = _load_real(tmp_path, "mt-infoseek-gsme-ext", **_ext_changes(**{
        "Pred Values": "A = 4\nB = 2\nC = 7\nP = 9\nT = 9.5"}))
    assert record["released"]["pred_values"]["P"] == 8
    assert [d["check"] for d in found] == ["pred_values"]
    assert found[0]["released"] == {"Pred Values": {"P": 9}, "pred_values_dict": {"P": 8}}
    # an unreadable Pred Values does not matter when the dict is there
    record, found = _load_real(tmp_path, "mt-infoseek-gsme-ext", **_ext_changes(**{
        "Pred Values": "not values"}))
    assert found == []
    # an unreadable dict: Pred Values is used, and the note is kept
    record, found = _load_real(tmp_path, "mt-infoseek-gsme-ext", **_ext_changes(**{
        "pred_values_dict": "{broken"}))
    assert found == [] and "pred_values_dict_unread" in record["released"]
    # a blank dict: Pred Values alone
    record, found = _load_real(tmp_path, "mt-infoseek-gsme-ext", **_ext_changes(**{
        "pred_values_dict": ""}))
    assert found == [] and "pred_values_source" not in record["released"]


def test_optional_ext_columns_are_kept(tmp_path):
    record, _found = _load_real(tmp_path, "mt-infoseek-gsme-ext", **_ext_changes(**{
        "Possible Questions Forbid Alternatives": '["B", "C"]',
        "has_alternative_path": "False"}))
    assert record["released"]["questions_forbid_alternatives"] == ["B", "C"]
    assert record["released"]["flags"]["has_alternative_path"] is False
