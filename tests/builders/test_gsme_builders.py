"""The math builders: GSME-Q-MT-Ext (DAGs), GSME-Q-MT (story templates), the word-problem
renderer and the `infoseek build` choices for them."""

from __future__ import annotations

import json

import pytest

from infoseek.analysis import is_sufficient, minimal_sufficient_sets
from infoseek.builders.math import gsm_text, gsme_mt, gsme_mt_ext
from infoseek.builders.math.math_record import validate_math_record
from infoseek.engines.arith.engine import is_unbounded, parse_rational
from infoseek.jsonl import dumps_record
from infoseek.records import engine_from_record


@pytest.fixture(scope="module")
def ext_records():
    return [gsme_mt_ext.build_problem(3, k, i) for k in range(1, 7) for i in range(3)]


@pytest.fixture(scope="module")
def mt_records():
    return [gsme_mt.build_problem(3, k, i) for k in range(1, 5) for i in range(6)]


def _check_semantics(record):
    engine = engine_from_record(record)
    k = record["k"]
    values = engine.target_values()
    assert len(values) != 1 and is_unbounded(values)  # target not Known initially
    assert record["difficulty"]["compatible_values"] == "unbounded"
    canonical = record["mss_family"][0]
    assert len(canonical) == k
    assert is_sufficient(engine, canonical)
    assert minimal_sufficient_sets(engine, record["queryable"], k - 1).k is None
    # Revealing S from the hidden world gives the recorded answer.
    world = record["hidden_world"]
    assert engine.target_values({v: world[v] for v in canonical}) == frozenset(
        {parse_rational(record["answer"])})
    assert engine.world_target(world) == parse_rational(record["answer"])
    assert set(record["queryable"]) == {v for v in engine.leaves if v not in engine.observed}
    assert validate_math_record(record) == []


def test_ext_records_are_valid_k_mss(ext_records):
    for record, k in zip(ext_records, [k for k in range(1, 7) for _ in range(3)]):
        assert record["k"] == k
        assert record["domain"] == "math"
        assert record["engine"]["kind"] == "arith"
        assert record["provenance"]["builder"] == "gsme-mt-ext"
        _check_semantics(record)


def test_ext_candidates_have_every_distractor_kind(ext_records):
    for record in ext_records:
        kinds = {c["kind"] for c in record["candidate_queries"]}
        assert {"relevant_leaf", "derived"} <= kinds
        names = {c["name"] for c in record["candidate_queries"]}
        assert set(record["queryable"]) <= names
        assert record["target"] not in names
        assert not names & set(record["observed"])
    assert any(c["kind"] == "irrelevant_leaf" for r in ext_records
               for c in r["candidate_queries"])


def test_ext_difficulty_and_structure(ext_records):
    for record in ext_records:
        engine = engine_from_record(record)
        d = record["difficulty"]
        assert d["depth"] == engine.depth() >= 3
        assert d["num_vars"] == len(record["variables"])
        assert d["num_rules"] == len(record["engine"]["equations"])
        # all values are integers (integer-friendly division)
        world = engine.complete_world(record["hidden_world"])
        assert all(v.denominator == 1 and v > 0 for v in world.values())
        assert record["descriptions"][record["target"]] == f"quantity {record['target']}"


def test_validator_rejects_broken_records(ext_records):
    record = json.loads(dumps_record(ext_records[4]))  # k = 2
    smaller = dict(record, k=1, mss_family=[record["mss_family"][0][:1]])
    assert validate_math_record(smaller)
    revealed = dict(record, observed={**record["observed"],
                                      **{v: record["hidden_world"][v]
                                         for v in record["mss_family"][0]}})
    assert validate_math_record(revealed)
    wrong = dict(record, answer=parse_rational(record["answer"]) + 1)
    wrong["answer"] = str(wrong["answer"])
    assert validate_math_record(wrong)


def test_ext_build_is_deterministic_across_runs_and_workers():
    a = gsme_mt_ext.build_split(5, per_k=2, ks=(1, 2, 3, 4), workers=1)
    b = gsme_mt_ext.build_split(5, per_k=2, ks=(4, 3, 2, 1), workers=2)
    assert [dumps_record(r) for r in a] == [dumps_record(r) for r in b]
    assert [r["k"] for r in a] == [1, 1, 2, 2, 3, 3, 4, 4]
    assert len({r["id"] for r in a}) == len(a)


def test_build_split_checks_arguments():
    with pytest.raises(ValueError):
        gsme_mt_ext.build_split(0, per_k=1, ks=(7,))
    with pytest.raises(ValueError):
        gsme_mt.build_split(0, per_k=1, ks=(5,))


def test_mt_records_are_valid_k_mss(mt_records):
    for record, k in zip(mt_records, [k for k in range(1, 5) for _ in range(6)]):
        assert record["k"] == k
        assert record["provenance"]["builder"] == "gsme-mt"
        _check_semantics(record)
        kinds = {c["kind"] for c in record["candidate_queries"]}
        assert "relevant_leaf" in kinds
        answer = parse_rational(record["answer"])
        assert answer.denominator == 1 and answer > 0
        assert set(record["descriptions"]) == set(record["variables"])


def test_mt_has_derived_distractors(mt_records):
    assert any(c["kind"] == "derived" for r in mt_records for c in r["candidate_queries"])
    for record in mt_records:
        derived = {n for n, _ in record["engine"]["equations"]} - {record["target"]}
        kinds = {c["name"]: c["kind"] for c in record["candidate_queries"]}
        assert all(kinds[n] == "derived" for n in derived)


def test_mt_build_is_deterministic():
    a = gsme_mt.build_split(2, per_k=2, ks=(1, 2, 3, 4), workers=1)
    b = gsme_mt.build_split(2, per_k=2, ks=(1, 2, 3, 4), workers=2)
    assert [dumps_record(r) for r in a] == [dumps_record(r) for r in b]


def test_rendering_omits_held_out_values(mt_records, ext_records):
    for record in mt_records + ext_records:
        rendered = gsm_text.render_word_problem(record)
        text = rendered["text"]
        hidden = list(record["queryable"])
        for v in record["observed"]:
            assert gsm_text.value_sentence(record, v) in rendered["value_sentences"]
        for v in hidden:
            assert gsm_text.value_sentence(record, v) not in text
        assert len(rendered["equation_sentences"]) == len(record["engine"]["equations"])
        assert text.endswith(rendered["question"])
        full = gsm_text.render_word_problem(record, reveal=hidden)
        for v in hidden:
            assert gsm_text.value_sentence(record, v) in full["value_sentences"]


def test_rendering_of_ext_equations_in_words():
    record = {"descriptions": {"A": "quantity A", "B": "quantity B", "C": "quantity C"}}
    words = gsm_text.expression_in_words(record, "A + B * (C / 2)")
    assert words == "quantity A plus (quantity B times (quantity C divided by 2))"


@pytest.mark.parametrize("builder", ["gsme-mt-ext", "gsme-mt"])
def test_cli_builds_file(tmp_path, capsys, builder):
    from infoseek.cli import main

    out = tmp_path / "split.jsonl"
    assert main(["build", builder, "--out", str(out), "--per-k", "2", "--k", "1", "2",
                 "--workers", "1"]) == 0
    captured = capsys.readouterr()
    assert "built 4 problems in" in captured.out and str(out) in captured.out
    assert "4/4" in captured.err
    lines = out.read_text().splitlines()
    assert len(lines) == 4
    assert all(validate_math_record(json.loads(line)) == [] for line in lines)


def test_cli_rejects_bad_k(tmp_path, capsys):
    from infoseek.cli import main

    assert main(["build", "gsme-mt-ext", "--out", str(tmp_path / "x.jsonl"), "--k", "9",
                 "--quiet"]) == 2


@pytest.mark.slow
def test_default_ext_split_is_fast_and_byte_identical(tmp_path):
    import time

    from infoseek.cli import main

    a, b = tmp_path / "a.jsonl", tmp_path / "b.jsonl"
    start = time.perf_counter()
    assert main(["build", "gsme-mt-ext", "--out", str(a), "--workers", "2", "--quiet"]) == 0
    assert time.perf_counter() - start < 60
    assert main(["build", "gsme-mt-ext", "--out", str(b), "--workers", "1", "--quiet"]) == 0
    assert a.read_bytes() == b.read_bytes()
    assert len(a.read_text().splitlines()) == 520
