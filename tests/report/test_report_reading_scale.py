"""The report's fast reading and its per-log cache change nothing in what it writes.

The six logs under ``data/scale_reference/logs`` (logic_mt, logic_q and twenty_questions
under infoseek/optimal and infoseek/random, logic_mt/random at two epochs) were reported
before the fast reading existed; ``expected/`` holds that report's long-form files
(samples, turns, logs: everything the reader hands to the tables); the only changes since
are that a task argument at its declared default is no setting (`log_entry`), so those
``setting.*`` cells are blank, and that the usage says whether cache reads were reported
(``cache_reported`` in ``usage_json``, the ``tokens.cache_reported`` column). Here the
same logs are read (1) cold, through the fast read of the summaries and the leading
sample fields, (2) warm, from the cache, (3)
through Inspect's `samples_df` (the fast read switched off): the three reads must be
identical frame for frame, and the long-form files written from them byte-identical to
``expected/``.
(Every table, figure and page of the report is built from these frames alone; the whole
report was compared byte for byte when the fast read came in.)
"""

from __future__ import annotations

import json
import os
import shutil
from pathlib import Path

import pytest

from infoseek.inspect_tasks.report import eval_reader, log_cache, reading
from infoseek.inspect_tasks.report.build import _write_long_form

DATA = Path(__file__).parent / "data" / "scale_reference"
LONG_FORM = ("samples.csv", "turns.csv", "logs.csv")


@pytest.fixture
def work(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A folder holding ``logs/`` (the reference logs), the working folder (the reports
    name the logs ``logs/<file>`` as the reference did), with its own cache."""
    shutil.copytree(DATA / "logs", tmp_path / "logs")
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("INFOSEEK_CACHE_DIR", str(tmp_path / "cache"))
    monkeypatch.delenv("INFOSEEK_REPORT_CACHE", raising=False)
    monkeypatch.delenv("INFOSEEK_REPORT_WORKERS", raising=False)
    return tmp_path


def _same(one: reading.Logs, other: reading.Logs) -> None:
    for frame in ("evals", "samples", "turns"):
        left, right = getattr(one, frame), getattr(other, frame)
        assert list(left.columns) == list(right.columns), frame
        assert left.equals(right), frame
    assert one.skipped == other.skipped and one.paths == other.paths


def test_fast_cached_and_samples_df_reads_are_identical(work, monkeypatch) -> None:
    for path in sorted((work / "logs").iterdir()):  # the fast read applies to all six
        assert eval_reader.summary_frame(path) is not None, path
    cold = reading.read_logs(["logs"])
    assert len(cold.fresh) == 6 and len(list(log_cache.cache_folder().glob("*.json"))) == 6
    warm = reading.read_logs(["logs"])
    assert len(warm.cached) == 6 and warm.fresh == []
    monkeypatch.setattr(eval_reader, "summary_frame", lambda path, reduce=None: None)
    monkeypatch.setenv("INFOSEEK_REPORT_CACHE", "0")
    plain = reading.read_logs(["logs"])
    assert len(plain.fresh) == 6
    _same(cold, warm)
    _same(cold, plain)
    for logs, name in ((cold, "cold"), (warm, "warm")):  # what the tables are built from
        (work / name).mkdir()
        _write_long_form(logs, work / name, {})
        for file in LONG_FORM:
            assert ((work / name / file).read_bytes()
                    == (DATA / "expected" / file).read_bytes()), (name, file)


def test_a_second_report_reads_only_new_or_changed_logs(work) -> None:
    logs = work / "logs"
    held = work / "held"
    held.mkdir()
    shutil.move(logs / "logic_q.random.eval", held / "logic_q.random.eval")
    first = reading.read_logs(["logs"])
    assert len(first.fresh) == 5 and first.cached == []
    shutil.move(held / "logic_q.random.eval", logs / "logic_q.random.eval")
    second = reading.read_logs(["logs"])
    assert [p.name for p in second.fresh] == ["logic_q.random.eval"]
    assert len(second.cached) == 5
    stat = (logs / "logic_mt.optimal.eval").stat()
    os.utime(logs / "logic_mt.optimal.eval", ns=(stat.st_atime_ns, stat.st_mtime_ns + 10**9))
    third = reading.read_logs(["logs"])
    assert [p.name for p in third.fresh] == ["logic_mt.optimal.eval"]
    assert third.samples.equals(second.samples) and third.turns.equals(second.turns)


def _entries() -> list[Path]:
    return sorted(log_cache.cache_folder().glob("*.json"))


@pytest.mark.parametrize("damage", ["not json", "cut", "edited body", "foreign key",
                                    "older format"])
def test_a_bad_cache_entry_is_ignored_and_rewritten(work, damage) -> None:
    reading.read_logs(["logs"])
    entries = _entries()
    assert len(entries) == 6
    good = {p: p.read_bytes() for p in entries}
    for path, data in good.items():
        first, _, body = data.partition(b"\n")
        header = json.loads(first)
        if damage == "not json":
            data = b"garbage"
        elif damage == "cut":
            data = data[: len(data) // 2]
        elif damage == "edited body":  # a sample's epoch changed, the hash left as it was
            rows = json.loads(body)
            rows["samples"][0]["epoch"] = 99
            data = first + b"\n" + json.dumps(rows).encode()
        elif damage == "foreign key":  # another log's entry under this name
            data = good[next(p for p in entries if p != path)]
        else:
            header["infoseek_report_cache"] = log_cache.READ_FORMAT - 1
            data = json.dumps(header).encode() + b"\n" + body
        path.write_bytes(data)
    again = reading.read_logs(["logs"])
    assert again.cached == [] and len(again.fresh) == 6
    assert 99 not in set(again.samples["epoch"])
    assert {p: p.read_bytes() for p in _entries()} == good  # rewritten
    assert len(reading.read_logs(["logs"]).cached) == 6


def test_values_json_lacks_survive_the_cache(work) -> None:
    import pandas as pd

    key = log_cache.log_key(work / "logs" / "logic_q.optimal.eval")
    value = {"a": pd.NA, "b": float("nan"), "c": [float("-inf"), 1, "x", None, True]}
    assert log_cache.store(key, value)
    back = log_cache.load(key)
    assert back["a"] is pd.NA and back["b"] != back["b"]
    assert back["c"][0] == float("-inf") and back["c"][1:] == [1, "x", None, True]
    assert not log_cache.store(key, {"d": object()})  # not storable: not cached
    # a mapping of the read holding the tag's own key, however deep: not cached either
    assert not log_cache.store(key, {"e": [1, {"f": {"$infoseek": "NA"}}]})
    assert log_cache.store(key, {"e": ['"$infoseek": "NA"']})  # in a string: fine
    assert log_cache.load(key) == {"e": ['"$infoseek": "NA"']}


def test_reading_in_two_processes_gives_the_same_frames(work, monkeypatch) -> None:
    monkeypatch.setenv("INFOSEEK_REPORT_CACHE", "0")
    one = reading.read_logs(["logs"], workers=1)
    two = reading.read_logs(["logs"], workers=2)
    for frame in ("evals", "samples", "turns"):
        assert getattr(one, frame).equals(getattr(two, frame)), frame
    assert one.skipped == two.skipped


def test_leading_fields_stop_before_the_transcript() -> None:
    text = ' { "id" : "a", "epoch": 1, "scores": {"s": {"value": 1}}, "metadata": {},\n'
    text += '"store": {}, "events": [ this is never parsed'
    assert eval_reader.top_fields(text, eval_reader.FULL_FIELDS) == {
        "id": "a", "epoch": 1, "scores": {"s": {"value": 1}}, "metadata": {}, "store": {}}
    assert eval_reader.top_fields('{"id": 3}', eval_reader.FULL_FIELDS) == {"id": 3}
    with pytest.raises(ValueError):
        eval_reader.top_fields("[1, 2]", eval_reader.FULL_FIELDS)
    with pytest.raises(ValueError):
        eval_reader.top_fields('{"id": 1 "epoch": 2}', eval_reader.FULL_FIELDS)


def test_worker_count(monkeypatch) -> None:
    monkeypatch.delenv("INFOSEEK_REPORT_WORKERS", raising=False)
    assert reading.worker_count(5, reading.PARALLEL_BYTES - 1) == 1  # little to read
    assert 1 <= reading.worker_count(5, reading.PARALLEL_BYTES) <= 5
    assert reading.worker_count(1, 2**40) == 1
    monkeypatch.setenv("INFOSEEK_REPORT_WORKERS", "3")
    assert reading.worker_count(5, 0) == 3 and reading.worker_count(2, 0) == 2
