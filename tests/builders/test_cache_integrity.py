"""The dataset cache serves an entry only when it holds what its header promises (issue 8,
item 13): a record count and a content hash are stored with each entry and checked on
load; a truncated, empty, edited or older entry is rebuilt with a warning."""

from __future__ import annotations

import logging
import threading

import pytest

from infoseek.builders.cache import CACHE_FORMAT, cache_path, entry_bytes, load_or_build, read_entry
from infoseek.builders.datasets import domain_records
from infoseek.domains import get_builder

RECORDS = [{"id": f"r{i}", "value": i, "text": "é" * i} for i in range(60)]


class Builder:
    def __init__(self) -> None:
        self.calls = 0

    def __call__(self) -> list[dict]:
        self.calls += 1
        return [dict(r) for r in RECORDS]


@pytest.fixture
def cache(tmp_path, monkeypatch):
    monkeypatch.setenv("INFOSEEK_CACHE_DIR", str(tmp_path))
    build = Builder()
    params = {"seed": 1}
    assert load_or_build("demo", "1", params, build) == RECORDS
    return cache_path("demo", "1", params), build, params


def reload(cache) -> list[dict]:
    path, build, params = cache
    return load_or_build("demo", "1", params, build)


def test_a_whole_entry_is_served_without_rebuilding(cache) -> None:
    assert reload(cache) == RECORDS and cache[1].calls == 1


@pytest.mark.parametrize("damage", [
    lambda data: b"".join(data.splitlines(keepends=True)[:11]),  # cut at a line boundary
    lambda data: b"",  # empty
    lambda data: data.replace(b'"value":5,', b'"value":6,'),  # edited
    lambda data: data.split(b"\n", 1)[1],  # an older entry: records, no header
    lambda data: data + b'{"id":"extra"}\n',  # one record too many
    # an entry of the previous cache format (same key, old record spelling)
    lambda data: data.replace(f'"infoseek_cache": {CACHE_FORMAT}'.encode(),
                              f'"infoseek_cache": {CACHE_FORMAT - 1}'.encode(), 1),
])
def test_a_damaged_entry_is_rebuilt_with_a_warning(cache, damage, caplog) -> None:
    path, build, _ = cache
    path.write_bytes(damage(path.read_bytes()))
    with caplog.at_level(logging.WARNING, logger="infoseek.builders.cache"):
        assert reload(cache) == RECORDS
    assert build.calls == 2
    assert any("damaged" in r.getMessage() and "rebuilding" in r.getMessage()
               for r in caplog.records)
    assert read_entry(path) == RECORDS  # the rebuilt entry is whole again


def test_the_header_counts_and_hashes_the_records() -> None:
    header = entry_bytes(RECORDS).split(b"\n", 1)[0].decode()
    assert '"records": 60' in header and '"sha256": "' in header


def test_concurrent_builds_leave_a_whole_entry(tmp_path, monkeypatch) -> None:
    monkeypatch.setenv("INFOSEEK_CACHE_DIR", str(tmp_path))
    results = []

    def one() -> None:
        results.append(load_or_build("race", "1", {"n": 1}, Builder()))

    threads = [threading.Thread(target=one) for _ in range(8)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert results == [RECORDS] * 8
    assert read_entry(cache_path("race", "1", {"n": 1})) == RECORDS
    assert not list(tmp_path.glob("*.tmp"))


def test_a_truncated_logic_split_is_rebuilt_in_full(tmp_path, monkeypatch) -> None:
    monkeypatch.setenv("INFOSEEK_CACHE_DIR", str(tmp_path))
    whole = domain_records("logic-mt", seed=3, per_k=6, ks=[1])
    spec = get_builder("logic-mt")[1]
    path = cache_path(spec.name, spec.data_version, {"seed": 3, "per_k": 6, "k": 1})
    path.write_bytes(b"".join(path.read_bytes().splitlines(keepends=True)[:3]))
    assert domain_records("logic-mt", seed=3, per_k=6, ks=[1]) == whole and len(whole) == 6
