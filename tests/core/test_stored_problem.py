"""The problem record as the sample store holds it (`infoseek:problem`)."""

from __future__ import annotations

import json

import pytest

from infoseek.record_views import HIDDEN_FIELDS
from infoseek.stored_forms import problem_from_store, stored_problem

RECORD = {
    "id": "p1", "domain": "math", "target": "T", "variables": ["T", "B"],
    "observed": {"B": 6}, "answer": 42, "hidden_world": {"B": 6, "F": 5},
    "released": {"answer": 42}, "released_text": "B is 6 and T is 42",
}


def test_the_store_holds_one_json_string_without_hidden_fields():
    text = stored_problem(RECORD)
    assert isinstance(text, str) and "\n" not in text
    decoded = json.loads(text)
    assert not set(HIDDEN_FIELDS) & set(decoded)
    assert decoded == {k: v for k, v in RECORD.items() if k not in HIDDEN_FIELDS}


def test_reading_it_back_gives_a_fresh_dict_each_time():
    text = stored_problem(RECORD)
    first, second = problem_from_store(text), problem_from_store(text)
    assert first == second and first is not second
    first["observed"]["B"] = 0
    assert problem_from_store(text)["observed"]["B"] == 6


def test_an_older_dict_store_is_read_as_a_copy():
    public = {"id": "p1", "observed": {"B": 6}}
    copy = problem_from_store(public)
    assert copy == public and copy is not public and copy["observed"] is not public["observed"]


@pytest.mark.parametrize("value", [None, 3, [], "not json", "[1, 2]", "\ud800", ""])
def test_anything_else_reads_as_none(value):
    assert problem_from_store(value) is None
