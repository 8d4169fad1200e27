"""A records file with two records of the same id, or a record listing a target value
twice, is refused when it is read, in one line naming file, line and field (issue 30,
class 9): before, Inspect stopped the eval on duplicate sample ids, naming neither."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from inspect_ai import eval as inspect_eval

from infoseek.builders.logic.logic_mt import build_split
from infoseek.inspect_tasks._registry import PACKAGED_TASKS
from infoseek.jsonl import read_jsonl
from infoseek.records import RecordError, check_record


@pytest.fixture(scope="module")
def records() -> list[dict]:
    return build_split(0, 1, [1, 2], workers=1)


def write(path: Path, records: list[dict]) -> Path:
    path.write_text("".join(json.dumps(r) + "\n" for r in records), encoding="utf-8")
    return path


def test_two_records_of_the_same_id(records, tmp_path) -> None:
    first, second = records
    path = write(tmp_path / "r.jsonl", [first, second, {**second, "id": first["id"]}])
    with pytest.raises(RecordError) as caught:
        list(read_jsonl(path))
    message = str(caught.value)
    assert message.startswith(f"{path}:3: field 'id' ")
    assert repr(first["id"]) in message and "line 1" in message and "\n" not in message


def test_a_target_value_listed_twice(records, tmp_path) -> None:
    record = records[0]
    values = record["target_values"]
    twice = {**record, "target_values": [*values, values[0]]}
    with pytest.raises(RecordError, match=r"^here: field 'target_values' lists "):
        check_record(twice, "here")
    path = write(tmp_path / "r.jsonl", [records[1], twice])
    with pytest.raises(RecordError) as caught:
        list(read_jsonl(path))
    assert str(caught.value).startswith(f"{path}:2: field 'target_values' lists ")


@pytest.mark.parametrize("repeat", ["id", "target value"])
def test_a_task_stops_before_any_sample_runs(records, tmp_path, repeat) -> None:
    first, second = records
    if repeat == "id":
        rows = [first, {**second, "id": first["id"]}]
        field = "'id'"
    else:
        rows = [first, {**second, "target_values": second["target_values"] * 2}]
        field = "'target_values'"
    path = write(tmp_path / "r.jsonl", rows)
    with pytest.raises(ValueError) as caught:
        task = PACKAGED_TASKS["logic_mt"](source=str(path))
        inspect_eval(task, model="infoseek/optimal", display="none",
                     log_dir=str(tmp_path / "logs"))
    message = str(caught.value)
    assert message.startswith(f"{path}:2: field {field}") and "\n" not in message
    assert not (tmp_path / "logs").exists()


def test_a_released_row_listing_a_value_twice(tmp_path) -> None:
    """The released genereg rows list their feasible values: one listed twice stops the
    load at that row and field (`infoseek verify` counts it as a malformed row)."""
    from infoseek.builders.published import PublishedDataError, load_published
    from tests.support import FIXTURES

    released = FIXTURES / "published" / "mt_infoseek_genereg.jsonl"
    rows = [json.loads(line) for line in released.read_text(encoding="utf-8").splitlines()]
    rows[1]["feasible_target_values"] = [*rows[1]["feasible_target_values"],
                                         rows[1]["feasible_target_values"][0]]
    path = write(tmp_path / "released.jsonl", rows)
    with pytest.raises(PublishedDataError) as caught:
        load_published(str(path), "mt-infoseek-genereg",
                       inputs={"rules": str(FIXTURES / "published" / "genereg_rules")})
    message = str(caught.value)
    assert message.startswith("released.jsonl, row 2") and "\n" not in message
    assert "field 'feasible_target_values': lists 0 twice" in message
