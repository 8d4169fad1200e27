"""Source records that pass a loose check and then crash (issue 18, classes 9 and 10):
each is a one-line data-file error naming the file, the line and the field, raised when
the task is made, before any sample runs. The records are real built ones with one field
broken; every domain with a seek task is covered."""

from __future__ import annotations

import copy
import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from inspect_ai import eval

from infoseek.builders.datasets import domain_records
from infoseek.inspect_tasks._registry import PACKAGED_TASKS
from infoseek.inspect_tasks.task_errors import DataFileError
from infoseek.records import MAX_ID_LENGTH, RecordError, check_record, check_shape
from infoseek.solvers.dataset import MAX_LABEL_LENGTH, instance_id
from tests.support.common import assert_eval_success

ROOT = Path(__file__).resolve().parents[2]
TASKS = {"logic-mt": "logic_mt", "genereg": "genereg_mt", "clinguide": "clinguide_mt",
         "gsme-mt": "gsme_mt", "gsme-mt-ext": "gsme_mt_ext"}
MISSING = object()


def built(builder: str) -> dict[str, Any]:
    return copy.deepcopy(domain_records(builder, ks=[1], per_k=1, seed=0)[0])


def changed(record: dict[str, Any], **fields: Any) -> dict[str, Any]:
    out = copy.deepcopy(record)
    for name, value in fields.items():
        if value is MISSING:
            out.pop(name)
        else:
            out[name] = value
    return out


def write(path: Path, *records: dict[str, Any]) -> Path:
    # surrogatepass writes a lone surrogate as JSON's "\ud800" escape (ensure_ascii)
    path.write_text("".join(json.dumps(r) + "\n" for r in records), encoding="utf-8")
    return path


def refused(builder: str, path: Path, **params: Any) -> str:
    task = PACKAGED_TASKS[TASKS[builder]]
    extra = {"oracle": "world"} if builder.startswith("gsme") else {}
    with pytest.raises(DataFileError) as info:
        task(source=str(path), **extra, **params)
    message = str(info.value)
    assert "\n" not in message
    return message


def queryable_outside_family(record: dict[str, Any]) -> list[str]:
    inside = {v for s in record["mss_family"] for v in s}
    return [v for v in record["queryable"] if v not in inside]


BROKEN = {
    "empty family": lambda r: changed(r, mss_family=[]),
    "empty set in family": lambda r: changed(r, mss_family=[[]]),
    "target in family": lambda r: changed(r, mss_family=[[r["target"]]]),
    "lone surrogate in the entity": lambda r: changed(r, entity="Al\ud800ice"),
    "lone surrogate in the id": lambda r: changed(r, id="p\udfff"),
    "lone surrogate in a key": lambda r: changed(r, **{"note\ud800": 1}),
    "id of 200,000 characters": lambda r: changed(r, id="x" * 200_000),
    "entity not a text": lambda r: changed(r, entity=["Alice"]),
}
FIELD = {"empty family": "mss_family", "empty set in family": "mss_family",
         "target in family": "mss_family", "lone surrogate in the entity": "entity",
         "lone surrogate in the id": "id", "lone surrogate in a key": "note\\ud800",
         "id of 200,000 characters": "id", "entity not a text": "entity"}


@pytest.mark.parametrize("builder", sorted(TASKS))
@pytest.mark.parametrize("case", sorted(BROKEN))
def test_a_broken_field_is_named_with_file_and_line(tmp_path, builder, case) -> None:
    record = built(builder)
    if case == "entity not a text" and "entity" not in record:
        pytest.skip("the domain's records have no entity")
    good, bad = record, BROKEN[case](record)
    path = write(tmp_path / "records.jsonl", good, bad)
    message = refused(builder, path)
    assert message.startswith(f"{path}:2: field {FIELD[case]!r} "), message
    assert len(message) < 400


@pytest.mark.parametrize("builder", ["logic-mt", "genereg", "clinguide"])
def test_a_family_that_pins_no_value_is_refused(tmp_path, builder) -> None:
    record = built(builder)
    outside = queryable_outside_family(record)
    if not outside:
        pytest.skip("every queryable variable is in the family")
    family = [[outside[0]]]
    bad = changed(record, id="unpinned", mss_family=family)
    with pytest.raises(RecordError, match="pin"):
        check_record(bad)
    message = refused(builder, write(tmp_path / "r.jsonl", record, bad))
    assert message.startswith(f"{tmp_path / 'r.jsonl'}:2: "), message
    assert "field 'mss_family' does not pin the target value " in message


@pytest.mark.parametrize(("field", "value", "shown"), [
    ("tree", MISSING, "field 'tree' is missing"),
    ("tree", [1], "a field has the wrong form (TypeError"),
    ("tree", {"area": "x"}, "field 'title' is missing"),
])
def test_a_clinguide_record_its_renderer_cannot_show(tmp_path, field, value, shown) -> None:
    records = [built("clinguide")] * 2
    bad = changed(records[0], id="broken-one", **{field: value})
    path = write(tmp_path / "c.jsonl", records[0], bad)
    for task in ("clinguide_mt", "clinguide_mt_k_prediction", "clinguide_mt_mss"):
        with pytest.raises(DataFileError) as info:
            PACKAGED_TASKS[task](source=str(path))
        assert str(info.value).startswith(
            f"{path}:2: record 'broken-one': cannot be shown to the model: {shown}")


def test_no_samples_is_an_error_at_task_load(tmp_path) -> None:
    path = write(tmp_path / "c.jsonl", built("clinguide"))  # a d0 problem
    with pytest.raises(DataFileError, match="no samples to run"):
        PACKAGED_TASKS["clinguide_mt"](source=str(path), distractors=20)
    steady = [r for r in domain_records("genereg", ks=[1], per_k=2, seed=0)
              if r["family"] == "steady"]
    path = write(tmp_path / "g.jsonl", *steady)
    with pytest.raises(DataFileError, match="no samples to run"):
        PACKAGED_TASKS["genereg_mt"](source=str(path), family="dynamic")


def test_check_shape_bounds_ids_and_names() -> None:
    record = built("logic-mt")
    check_shape(changed(record, id="x" * MAX_ID_LENGTH))
    with pytest.raises(RecordError, match=f"at most {MAX_ID_LENGTH}"):
        check_shape(changed(record, id="x" * (MAX_ID_LENGTH + 1)))
    long_name = "n" * 1001
    with pytest.raises(RecordError, match="field 'variables' has a name of 1,001"):
        check_shape(changed(record, variables=[*record["variables"], long_name]))


def test_instance_ids_are_bounded_and_distinct() -> None:
    short = instance_id("p1", "Refer")
    assert short == "p1-Refer"
    first = instance_id("p1", "a" * 5000 + "1")
    second = instance_id("p1", "a" * 5000 + "2")
    assert first != second and first.startswith("p1-" + "a" * MAX_LABEL_LENGTH + "~")
    assert len(first) == len("p1-") + MAX_LABEL_LENGTH + 13
    assert instance_id("p1", "b" * MAX_LABEL_LENGTH) == "p1-" + "b" * MAX_LABEL_LENGTH


def test_a_long_target_value_runs_and_is_logged(tmp_path) -> None:
    """A recommendation of 5,000 characters makes a bounded sample id; the eval writes
    its samples."""
    record = built("clinguide")
    long_leaf = "Refer " + "x" * 5000
    old = record["target_values"][0]
    text = json.dumps(record).replace(json.dumps(old)[1:-1], long_leaf)
    path = tmp_path / "c.jsonl"
    path.write_text(text + "\n", encoding="utf-8")
    task = PACKAGED_TASKS["clinguide_mt"](source=str(path))
    ids = [s.id for s in task.dataset]
    assert any(len(i) < 300 and "~" in i for i in ids)
    [log] = eval(task, model="infoseek/optimal", log_dir=str(tmp_path / "logs"),
                 display="none")
    assert_eval_success(log)
    assert len(log.samples) == len(ids)


def test_inspect_eval_refuses_the_file_in_one_line(tmp_path) -> None:
    path = write(tmp_path / "r.jsonl", changed(built("logic-mt"), entity="Al\ud800ice"))
    done = subprocess.run(
        [sys.executable, "-m", "inspect_ai", "eval", "infoseek/logic_mt", "-T",
         f"source={path}", "--model", "infoseek/optimal", "--log-dir",
         str(tmp_path / "logs")],
        cwd=ROOT, env={**os.environ, "COLUMNS": "300"}, capture_output=True, text=True,
        timeout=120)
    assert done.returncode != 0
    lines = [line for line in (done.stdout + done.stderr).splitlines() if line.strip()]
    assert lines == [f"{path}:1: field 'entity' holds text UTF-8 cannot encode (a lone "
                     "surrogate in 'Al\\ud800ice'); write it as real characters"]
    assert not list((tmp_path / "logs").glob("*.eval"))
