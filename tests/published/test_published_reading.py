"""The shared reader of released files (`infoseek.builders.published.reading`) and the format
registry (`infoseek.builders.published`)."""

from __future__ import annotations

import csv
import functools
import http.server
import threading
from fractions import Fraction

import pytest

from infoseek.builders.published import (
    PublishedDataError,
    detect_source_format,
    get_source_format,
    load_published,
    read_published,
    source_format_names,
)
from infoseek.builders.published.cells import (
    RowRef,
    decode_literal,
    exact_number,
    int_cell,
    literal_cell,
    names_cell,
    unique_ids,
)
from infoseek.builders.published.reading import file_kind, read_rows, resolve_source
from infoseek.builders.published.sources import source_records
from tests.support import FIXTURES


def write_csv(path, header, rows) -> str:
    with open(path, "w", newline="", encoding="utf-8") as fh:
        writer = csv.writer(fh)
        writer.writerow(header)
        writer.writerows(rows)
    return str(path)


def test_csv_cells_arrive_as_text_with_empty_cells_kept(tmp_path) -> None:
    path = write_csv(tmp_path / "t.csv", ["k", "rules", "note"],
                     [["1", "[['a', 'not b']]", ""], ["2", "[]", "3.5"]])
    rows = read_rows(resolve_source(path))
    assert rows == [{"k": "1", "rules": "[['a', 'not b']]", "note": ""},
                    {"k": "2", "rules": "[]", "note": "3.5"}]


def test_json_rows_keep_their_types(tmp_path) -> None:
    path = tmp_path / "t.jsonl"
    path.write_text('{"k": 1, "xs": ["a"]}\n{"k": 2, "xs": []}\n')
    assert read_rows(resolve_source(str(path))) == [{"k": 1, "xs": ["a"]}, {"k": 2, "xs": []}]
    assert file_kind("https://x.org/data/f.jsonl?download=1") == "json"
    assert file_kind("f.CSV") == "csv"


def test_literals_python_and_json() -> None:
    assert decode_literal("['a', 'not b']") == ["a", "not b"]
    assert decode_literal('{"x": true, "y": null}') == {"x": True, "y": None}
    assert decode_literal([1]) == [1]
    with pytest.raises(ValueError, match="not a Python literal or JSON"):
        decode_literal("[a, b")


def test_cells_name_file_row_and_field() -> None:
    ref = RowRef("/data/logic_q_mt.csv", 7, "sample_id 12")
    row = {"rules": "[[", "k": "two", "goal": " ", "xs": "['a', 3]"}
    with pytest.raises(PublishedDataError) as info:
        literal_cell(row, "rules", ref)
    assert str(info.value).startswith("logic_q_mt.csv, row 7 (sample_id 12), field 'rules': ")
    with pytest.raises(PublishedDataError, match="row 7.*field 'k': expected an integer"):
        int_cell(row, "k", ref)
    with pytest.raises(PublishedDataError, match="field 'goal': is empty"):
        literal_cell(row, "goal", ref)
    with pytest.raises(PublishedDataError, match="field 'absent': is missing"):
        literal_cell(row, "absent", ref)
    with pytest.raises(PublishedDataError, match="3 is not a name"):
        names_cell(row, "xs", ref)
    assert literal_cell(row, "absent", ref, required=False, default=[]) == []
    assert int_cell({"k": "3.0"}, "k", ref) == 3
    with pytest.raises(PublishedDataError, match=">= 1"):
        int_cell({"k": "0"}, "k", ref, minimum=1)


def test_exact_numbers() -> None:
    assert exact_number("2.5") == Fraction(5, 2)
    assert exact_number(0.1) == Fraction(1, 10)
    assert exact_number("7/2") == Fraction(7, 2)
    assert exact_number("$1,200") == 1200
    assert exact_number(15) == 15
    assert exact_number("1,234.5") == Fraction(2469, 2)
    for bad in ("abc", True, float("nan"), "1/2/3", "1,5", "2,50", "1/0", "1e99999999"):
        with pytest.raises(ValueError):
            exact_number(bad)


def test_repeated_ids_are_made_unique_and_keep_the_released_one() -> None:
    refs = [RowRef("f.csv", i) for i in (1, 2, 3)]
    assert unique_ids(["a", "b", "a"], refs) == ["a~row1", "b", "a~row3"]


def test_missing_sources_say_what_was_tried(tmp_path, monkeypatch) -> None:
    monkeypatch.chdir(tmp_path)
    with pytest.raises(PublishedDataError, match="not found: nowhere.csv"):
        resolve_source("nowhere.csv")
    with pytest.raises(PublishedDataError, match="expected a file path or URL"):
        resolve_source(None)


def test_unreadable_and_empty_files(tmp_path) -> None:
    empty = tmp_path / "empty.csv"
    empty.write_text("")
    with pytest.raises(PublishedDataError, match="empty.csv: the file is empty"):
        read_published(str(empty))
    broken = tmp_path / "broken.json"
    broken.write_text('[{"a": ')
    with pytest.raises(PublishedDataError, match="broken.json: could not read it as json"):
        read_published(str(broken))


def test_format_detection_and_its_errors(tmp_path) -> None:
    assert set(source_format_names()) == {"mt-infoseek-logic", "questbench-logic",
                                          "mt-infoseek-gsme", "mt-infoseek-gsme-ext",
                                          "mt-infoseek-genereg", "questbench-gsm",
                                          "questbench-planning"}
    for name in source_format_names():
        fmt = get_source_format(name)
        assert fmt.name == name
        columns = [*fmt.required, *fmt.signature]
        assert detect_source_format(columns).name == name
    with pytest.raises(PublishedDataError, match="match no source format"):
        detect_source_format(["question", "answer"], "x.csv")
    with pytest.raises(PublishedDataError, match="unknown source format 'logic'"):
        get_source_format("logic")
    path = write_csv(tmp_path / "other.csv", ["question", "answer"], [["q", "1"]])
    with pytest.raises(PublishedDataError, match="other.csv: columns .* match no source"):
        read_published(path)
    # an explicit format whose columns are missing: named before any row is read
    with pytest.raises(PublishedDataError, match="not a mt-infoseek-logic file: missing col"):
        read_published(path, "mt-infoseek-logic")


def test_task_source_options_fail_fast(tmp_path) -> None:
    path = write_csv(tmp_path / "x.csv", ["question"], [["q"]])
    with pytest.raises(PublishedDataError, match="source_format must be one of"):
        source_records(path, domain="logic", source_format="mt-infoseek-gsme")
    with pytest.raises(ValueError, match="limit must be a positive integer"):
        source_records(path, domain="logic", limit=0)


class _QuietHandler(http.server.SimpleHTTPRequestHandler):
    def log_message(self, *args) -> None:
        pass


@pytest.fixture
def fixture_server():
    """The fixture folder served over HTTP on 127.0.0.1 (no outside network)."""
    folder = FIXTURES / "published"
    server = http.server.ThreadingHTTPServer(
        ("127.0.0.1", 0), functools.partial(_QuietHandler, directory=str(folder)))
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{server.server_address[1]}"
    server.shutdown()


def test_a_url_source_reads_like_a_file(fixture_server) -> None:
    local = load_published(str(FIXTURES / "published" /
                               "logic_q_mt.csv"))
    remote = load_published(f"{fixture_server}/logic_q_mt.csv")
    assert [r["id"] for r in remote] == [r["id"] for r in local]
    strip = [{k: v for k, v in r.items() if k != "provenance"} for r in remote]
    assert strip == [{k: v for k, v in r.items() if k != "provenance"} for r in local]
    assert remote[0]["provenance"]["source"] == f"{fixture_server}/logic_q_mt.csv"
    with pytest.raises(PublishedDataError, match="absent.csv: could not read it as csv"):
        load_published(f"{fixture_server}/absent.csv")


def test_a_json_lines_release_loads_like_the_csv(tmp_path) -> None:
    """The same rows as JSON Lines (lists as JSON arrays, numbers as numbers): `datasets`'
    json builder, same records."""
    import ast
    import json

    source = FIXTURES / "published" / "logic_q_mt.csv"
    with open(source, newline="", encoding="utf-8") as fh:
        rows = list(csv.DictReader(fh))
    keep = ("k", "known_facts", "known_untrue_facts", "cannot_ask_facts", "goal", "rules",
            "gt_qs", "all_alternative_gt_qs", "all_valid_qs",
            "all_valid_qs_forbid_alternatives", "num_constraints", "sample_id")
    path = tmp_path / "logic_q_mt.jsonl"
    with open(path, "w", encoding="utf-8") as fh:
        for row in rows:
            native = {}
            for key in keep:
                text = row[key]
                native[key] = (int(text) if key in ("k", "num_constraints", "sample_id")
                               else text if key == "goal" else ast.literal_eval(text))
            fh.write(json.dumps(native) + "\n")
    strip = ("provenance", "released", "derivation_depth", "difficulty")
    from_csv = [{k: v for k, v in r.items() if k not in strip}
                for r in load_published(str(source))]
    from_json = [{k: v for k, v in r.items() if k not in strip}
                 for r in load_published(str(path), "mt-infoseek-logic")]
    assert from_json == from_csv


def test_header_spaces_are_stripped_and_repeated_columns_refused(tmp_path) -> None:
    spaced = write_csv(tmp_path / "spaced.csv", [" k ", "rules"], [["1", "[]"]])
    assert read_rows(resolve_source(spaced)) == [{"k": "1", "rules": "[]"}]
    repeated = write_csv(tmp_path / "twice.csv", ["goal", "k", "goal"], [["a", "1", "b"]])
    with pytest.raises(PublishedDataError, match="twice.csv: the header names column 'goal' "
                                                 "more than once"):
        read_rows(resolve_source(repeated))


def test_an_edited_file_is_read_again(tmp_path) -> None:
    """Same size, same modification time, new content: the cache must not serve the old
    rows."""
    import os

    path = tmp_path / "t.csv"
    path.write_text("k\n1\n")
    stamp = os.stat(path).st_mtime_ns
    assert read_rows(resolve_source(str(path))) == [{"k": "1"}]
    path.write_text("k\n2\n")
    os.utime(path, ns=(stamp, stamp))
    assert read_rows(resolve_source(str(path))) == [{"k": "2"}]
