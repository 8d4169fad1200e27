"""Malformed `-T source` files give one message naming file, line and field (issue 8,
item 12), and `limit` reads a source only as far as it needs (item 14)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

import infoseek.builders.published as published
from infoseek.builders.logic import logic_mt
from infoseek.builders.math import gsme_mt_ext as gsme_mt_ext_builder
from infoseek.builders.published import PublishedDataError
from infoseek.builders.published.sources import source_records
from infoseek.builders.published.verify import verify_source
from infoseek.inspect_tasks.gsme_mt_ext import gsme_mt_ext
from infoseek.inspect_tasks.logic_mt import logic_mt as logic_mt_task
from infoseek.inspect_tasks.task_errors import DataFileError
from infoseek.jsonl import dumps_record
from infoseek.records import RecordError
from infoseek.stored_forms import sample_problem
from tests.support import FIXTURES


@pytest.fixture(scope="module")
def logic_lines() -> list[str]:
    return [dumps_record(r) for r in logic_mt.build_split(0, 2, [1], workers=1)]


@pytest.fixture(scope="module")
def math_lines() -> list[str]:
    return [dumps_record(r) for r in gsme_mt_ext_builder.build_split(0, 2, [1], workers=1)]


def write_lines(path: Path, lines: list[str]) -> str:
    path.write_text("".join(line + "\n" for line in lines), encoding="utf-8")
    return str(path)


def edited(line: str, change) -> str:
    record = json.loads(line)
    change(record)
    return json.dumps(record)


def logic_error(path: str) -> str:
    with pytest.raises(RecordError) as info:
        source_records(path, domain="logic")
    return str(info.value)


def test_binary_jsonl_names_the_line(tmp_path, logic_lines) -> None:
    path = tmp_path / "binary.jsonl"
    path.write_bytes(logic_lines[0].encode() + b"\n\xff\xfe\x00garbage\n")
    assert logic_error(str(path)) == f"{path}:2: not UTF-8 text (is this a JSONL file of " \
                                     "problem records?)"


@pytest.mark.parametrize(("change", "field", "problem"), [
    (lambda r: r["engine"].update(clauses="a or b"), "engine.clauses",
     "must be a list of clauses, got str"),
    (lambda r: r["engine"].update(clauses=[["a", 3]]), "engine.clauses",
     "clause 0 must be a list of literals"),
    (lambda r: r.pop("target_values"), "target_values", "is missing"),
    (lambda r: r.update(observed=sorted(r["observed"])), "observed",
     "must be an object {variable: value}, got list"),
    (lambda r: r["engine"].update(clauses=[["not nobody_knows"]]), "engine.clauses",
     "clause 0 names unknown variable 'nobody_knows'"),
    (lambda r: r.update(mss_family=[["ghost"]]), "mss_family", "names unknown variables"),
    (lambda r: r.update(k="two"), "k", "must be a non-negative integer"),
])
def test_malformed_logic_records_name_file_line_and_field(tmp_path, logic_lines, change,
                                                           field, problem) -> None:
    lines = [logic_lines[0], edited(logic_lines[1], change)]
    path = write_lines(tmp_path / "bad.jsonl", lines)
    message = logic_error(path)
    assert message.startswith(f"{path}:2: field {field!r} {problem}")


@pytest.mark.parametrize(("change", "field", "problem"), [
    (lambda r: r.update(answer="abc"), "answer", "is not an exact number"),
    (lambda r: r.pop("hidden_world"), "hidden_world", "is missing"),
    (lambda r: r.update(hidden_world=[1, 2]), "hidden_world", "must be an object"),
    (lambda r: r["hidden_world"].update({r["queryable"][0]: "lots"}), "hidden_world",
     "value of"),
])
def test_malformed_math_records_name_file_line_and_field(tmp_path, math_lines, change,
                                                          field, problem) -> None:
    path = write_lines(tmp_path / "bad.jsonl", [edited(math_lines[0], change)])
    with pytest.raises(RecordError) as info:
        source_records(path, domain="math")
    assert str(info.value).startswith(f"{path}:1: field {field!r} {problem}")


def test_a_task_shows_the_record_error_as_a_data_file_error(tmp_path, math_lines) -> None:
    path = write_lines(tmp_path / "bad.jsonl",
                       [edited(math_lines[0], lambda r: r.update(answer="abc"))])
    with pytest.raises(DataFileError, match=r"bad.jsonl:1: field 'answer'"):
        gsme_mt_ext(source=path)
    path = write_lines(tmp_path / "bad2.jsonl", ["[1, 2]"])
    with pytest.raises(DataFileError, match=r"bad2.jsonl:1: expected a JSON object"):
        logic_mt_task(source=path)


@pytest.mark.parametrize("suffix", [".jsonl", ".csv"])
def test_an_empty_file_says_it_is_empty(tmp_path, suffix: str) -> None:
    path = tmp_path / f"empty{suffix}"
    path.write_text("\n  \n", encoding="utf-8")
    with pytest.raises(DataFileError, match="the file is empty"):
        logic_mt_task(source=str(path))


RELEASED_LOGIC = FIXTURES / "published" / "logic_q_mt.csv"


def released_logic_lines() -> list[str]:
    return RELEASED_LOGIC.read_text(encoding="utf-8").splitlines(keepends=True)


def test_a_garbage_csv_names_the_row(tmp_path) -> None:
    header, first = released_logic_lines()[:2]
    columns = header.count(",") + 1
    path = tmp_path / "logic.csv"
    path.write_text(header + first + "a,b,c" + ",x" * columns + "\n", encoding="utf-8")
    with pytest.raises(PublishedDataError) as info:
        source_records(str(path), domain="logic")
    assert str(info.value) == (f"logic.csv, line 3 (row 2): expected {columns} fields "
                               f"(the header's), saw {columns + 3}")


def test_a_binary_csv_names_the_line(tmp_path) -> None:
    header, first = released_logic_lines()[:2]
    path = tmp_path / "noise.csv"
    path.write_bytes((header + first).encode() + b"\x81\xff\x00\x9c,\xfe\n")
    with pytest.raises(DataFileError, match=r"^noise.csv, line 3: not UTF-8 text"):
        logic_mt_task(source=str(path))


# ------------------------------------------------------------------ item 14: streaming
def test_limit_reads_only_the_lines_it_needs(tmp_path, logic_lines) -> None:
    # the lines after the second record are garbage: reading them would fail
    path = tmp_path / "long.jsonl"
    path.write_bytes(("\n".join(logic_lines) + "\n").encode() + b"\xff not json\n" * 1000)
    records = source_records(str(path), domain="logic", limit=2)
    assert [r["id"] for r in records] == [json.loads(line)["id"] for line in logic_lines]
    with pytest.raises(RecordError, match=r"long.jsonl:3: not UTF-8"):
        source_records(str(path), domain="logic")
    task = logic_mt_task(source=str(path), limit=1)
    assert {sample_problem(s.metadata)["id"] for s in task.dataset} == {records[0]["id"]}


def test_verify_refuses_our_own_records_from_the_first_rows(tmp_path, logic_lines,
                                                            monkeypatch) -> None:
    path = tmp_path / "ours.jsonl"
    path.write_bytes(("\n".join(logic_lines * 30) + "\n").encode() + b"{broken\n" * 1000)

    def read_everything(*args, **kwargs):
        raise AssertionError("the whole file was read before the format was told")

    monkeypatch.setattr(published, "read_rows", read_everything)
    with pytest.raises(PublishedDataError, match="match no source format"):
        verify_source(str(path), out_dir=tmp_path / "out")


def test_released_rows_stream_with_a_limit(tmp_path) -> None:
    fixture = RELEASED_LOGIC
    lines = released_logic_lines()
    path = tmp_path / "logic_q_mt.csv"
    path.write_text("".join(lines[:3]), encoding="utf-8")
    _, fmt, rows = published.read_published(str(path), limit=1)
    assert fmt.name == "mt-infoseek-logic" and len(rows) == 1
    _, _, all_rows = published.read_published(str(fixture))
    assert rows[0] == all_rows[0]
