"""The Logic-Q builder (`infoseek.builders.logic.logic_q`): every built record against the
brute-force referee on small instances (the goal is open, exactly the planted attribute
decides it among the askable ones, the forbidden set is every other deciding attribute,
the MSS family), the backward-search levels against the top-down referee, determinism,
the validator, and the split's shape."""

from __future__ import annotations

import statistics

import pytest

from infoseek.builders.datasets import domain_records
from infoseek.builders.logic import logic_q
from infoseek.engines.bruteforce import (
    horn_referee,
    referee_known,
    referee_mss_family,
    referee_sufficient,
)
from infoseek.jsonl import dumps_record
from infoseek.records import engine_from_record
from infoseek.single_turn import backward_level
from tests.support.backward_referee import referee_level


@pytest.fixture(autouse=True)
def _cache(tmp_path, monkeypatch):
    monkeypatch.setenv("INFOSEEK_CACHE_DIR", str(tmp_path / "cache"))


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_small_records_agree_with_the_referees(seed):
    for index in range(8):
        record = logic_q.build_problem(seed, 1, index, max_vars=14)
        assert logic_q.validate_logic_q_record(record) == []
        clauses = record["engine"]["clauses"]
        ref = horn_referee(record["variables"], clauses, record["observed"],
                           record["target"])
        assert not referee_known(ref)
        hidden = record["mss_family"][0][0]
        unobserved = [v for v in record["variables"]
                      if v not in record["observed"] and v != record["target"]]
        deciding = [v for v in unobserved if referee_sufficient(ref, [v])]
        assert sorted(deciding) == sorted([hidden, *record["forbidden"]])
        assert referee_mss_family(ref, record["queryable"], 1) == (1, [(hidden,)])
        assert record["difficulty"]["num_deciding"] == len(deciding)
        engine = engine_from_record(record)
        for name in deciding:
            values = sorted({w[name] for w in ref.matching(None)})
            assert backward_level(engine, name) == referee_level(
                clauses, record["observed"], record["target"], name, values)
        assert referee_level(clauses, record["observed"], record["target"], hidden,
                             [False, True]) == record["difficulty"]["depth"]


def test_same_seed_same_bytes_and_other_seeds_differ():
    first = [dumps_record(r) for r in logic_q.build_split(seed=4, per_k=6)]
    again = [dumps_record(r) for r in logic_q.build_split(seed=4, per_k=6)]
    other = [dumps_record(r) for r in logic_q.build_split(seed=5, per_k=6)]
    assert first == again
    assert not set(first) & set(other)
    assert len(set(first)) == 6


def test_the_validator_catches_tampering():
    record = logic_q.build_problem(0, 1, 0)
    while not record["forbidden"]:
        record = logic_q.build_problem(0, 1, record["provenance"]["index"] + 1)
    loose = {**record, "queryable": sorted(record["queryable"] + record["forbidden"]),
             "forbidden": []}
    assert any("askable deciding" in e for e in logic_q.validate_logic_q_record(loose))
    deeper = {**record, "derivation_depth": record["derivation_depth"] + 1}
    assert any("level" in e for e in logic_q.validate_logic_q_record(deeper))
    with pytest.raises(ValueError, match="between 1 and 1"):
        logic_q.build_problem(0, 2, 0)


def test_the_built_split_has_the_published_shape():
    records = domain_records("logic-q", ks=[1], per_k=120, seed=0)
    axes = {key: [r["difficulty"][key] for r in records]
            for key in ("num_vars", "num_constraints", "depth", "e_bf")}
    assert 10 <= min(axes["num_vars"]) and max(axes["num_vars"]) <= 59
    assert 8 <= min(axes["num_constraints"]) and max(axes["num_constraints"]) <= 108
    assert min(axes["depth"]) == 1 and max(axes["depth"]) >= 8
    assert 3.0 <= statistics.mean(axes["depth"]) <= 5.5
    assert 30 <= statistics.mean(axes["num_vars"]) <= 45
    shallow = sum(d <= 3 for d in axes["depth"]) / len(records)
    mid = sum(d <= 5 for d in axes["depth"]) / len(records)
    assert 0.15 <= shallow <= 0.45 and 0.6 <= mid <= 0.9


def test_infoseek_build_uses_the_builders_default_k(tmp_path, capsys):
    from infoseek.cli import main as cli_main
    from infoseek.jsonl import read_jsonl

    out = tmp_path / "logic_q.jsonl"
    assert cli_main(["build", "logic-q", "--out", str(out), "--per-k", "3", "--quiet",
                     "--workers", "1"]) == 0
    records = list(read_jsonl(out))
    assert [r["k"] for r in records] == [1, 1, 1]
    assert cli_main(["build", "logic-q", "--out", str(tmp_path / "x.jsonl"), "--k", "2"]) == 2
    assert "not available for logic-q" in capsys.readouterr().err


def test_same_bytes_in_a_fresh_interpreter_with_another_hash_seed():
    import os
    import subprocess
    import sys

    code = ("from infoseek.builders.logic import logic_q; "
            "from infoseek.jsonl import dumps_record;"
            "print('\\n'.join(dumps_record(r) for r in logic_q.build_split(seed=7, per_k=4)))")
    here = "\n".join(dumps_record(r) for r in logic_q.build_split(seed=7, per_k=4))
    env = {**os.environ, "PYTHONHASHSEED": "12345"}
    there = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                           env=env, check=True).stdout.strip()
    assert there == here
