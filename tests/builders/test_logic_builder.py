"""The seeded Logic-MT builder: validity, an independent re-check with the brute-force
referee, determinism (serial and parallel), and no leaks of hidden fields into the text.
"""

from __future__ import annotations

import functools
import itertools
import os
import subprocess
import sys
from pathlib import Path

import pytest

from infoseek.builders.logic.logic_mt import build_problem, build_split
from infoseek.builders.logic.logic_record import validate_logic_record
from infoseek.builders.logic.logic_text import render_logic_problem
from infoseek.engines.bruteforce import (
    BruteForceEngine,
    horn_referee,
    referee_known,
    referee_mss_family,
    referee_sufficient,
)
from infoseek.engines.horn import HornEngine
from infoseek.jsonl import dumps_record
from infoseek.records import check_record, engine_from_record

REFEREE_MAX_VARIABLES = 20
SEARCH_INDICES = range(41)


@functools.cache
def built(seed: int, k: int, index: int) -> dict:
    return build_problem(seed, k, index)


def small_records(ks=(1, 2, 3), indices=SEARCH_INDICES) -> list[dict]:
    """Default-seed records small enough for the referee (2^n worlds)."""
    return [
        built(0, k, i) for k in ks for i in indices
        if len(built(0, k, i)["variables"]) <= REFEREE_MAX_VARIABLES
    ]


def referee_for(record: dict) -> BruteForceEngine:
    return horn_referee(
        record["variables"], record["engine"]["clauses"], record["observed"], record["target"]
    )


def referee_check(record: dict) -> None:
    referee = referee_for(record)
    k = record["k"]
    family = {frozenset(s) for s in record["mss_family"]}
    queryable = record["queryable"]
    assert referee.worlds, "infeasible problem"
    assert not referee_known(referee), "the target is Known from the observations"
    assert record["target_values"] == sorted(referee.target_values())
    ref_k, ref_family = referee_mss_family(referee, queryable, k)
    assert ref_k == k, "global minimality or sufficiency fails under the referee"
    assert {frozenset(s) for s in ref_family} == family
    assert len(family) == len(record["mss_family"]), "duplicate MSS in the family"
    canonical = record["mss_family"][0]
    assert frozenset(canonical) in {frozenset(s) for s in ref_family}
    assert referee_sufficient(referee, canonical)
    # Every variable of the canonical MSS matters: dropping it loses sufficiency.
    for x in canonical:
        assert not referee_sufficient(referee, [v for v in canonical if v != x])
    # alternative_only: variables of non-canonical MSSs outside the canonical one.
    others = {v for s in record["mss_family"][1:] for v in s}
    assert set(record["alternative_only"]) == others - set(canonical)
    # The canonical MSS derives the target by unit propagation on every feasible row,
    # with the recorded depth as the worst case.
    engine = HornEngine(record["variables"], record["engine"]["clauses"],
                        record["observed"], record["target"])
    rows = {tuple(w[v] for v in canonical) for w in referee.worlds}
    depths = []
    for row in rows:
        assignment = dict(zip(canonical, row))
        value, rounds = engine.unit_propagation_depth(assignment)
        assert value == next(iter(referee.target_values(assignment)))
        depths.append(rounds)
    assert max(depths) == record["derivation_depth"]


# ---------------------------------------------------------------- validity
@pytest.mark.parametrize("k", [1, 2, 3, 4])
def test_built_records_pass_the_validator(k: int) -> None:
    for index in range(3):
        record = built(0, k, index)
        check_record(record)
        assert validate_logic_record(record) == []
        assert record["k"] == k
        assert all(len(s) == k for s in record["mss_family"])
        assert record["id"].endswith(f"{index:04d}") and f"k{k}" in record["id"]
        assert record["provenance"]["seed"] == 0 and record["provenance"]["index"] == index


@pytest.mark.parametrize("k", [1, 2, 3, 4])
def test_queryable_is_exactly_unobserved_minus_forbidden(k: int) -> None:
    for index in range(3):
        record = built(0, k, index)
        queryable = set(record["queryable"])
        observed = set(record["observed"])
        forbidden = set(record["forbidden"])
        assert not queryable & observed
        assert record["target"] not in queryable
        assert not queryable & forbidden
        assert queryable == set(record["variables"]) - observed - {record["target"]} - forbidden
        assert record["queryable"] == sorted(record["queryable"])
        for s in record["mss_family"]:
            assert set(s) <= queryable


def test_small_records_exist() -> None:
    for k in (1, 2, 3):
        assert small_records(ks=(k,)), f"no k={k} record with <= 20 variables in 0..40"


@pytest.mark.parametrize("k", [1, 2, 3])
def test_small_records_agree_with_the_referee(k: int) -> None:
    records = small_records(ks=(k,))
    assert records
    for record in records[:6]:
        referee_check(record)


def test_referee_check_rejects_broken_records() -> None:
    """The referee re-check is not vacuous: each of these corruptions fails it."""
    record = next(r for r in small_records(ks=(2,)) if len(r["mss_family"]) >= 2)
    referee_check(record)
    family = record["mss_family"]
    for broken in (
        dict(record, mss_family=family[:-1]),
        dict(record, mss_family=[family[1], family[0], *family[2:]], alternative_only=[]),
        dict(record, k=3),
        dict(record, derivation_depth=record["derivation_depth"] + 1),
        dict(record, queryable=[v for v in record["queryable"] if v not in family[0]]),
    ):
        with pytest.raises(AssertionError):
            referee_check(broken)


@pytest.mark.slow
def test_all_small_records_agree_with_the_referee() -> None:
    records = small_records(ks=(1, 2, 3, 4))
    assert len(records) >= 10
    for record in records:
        referee_check(record)


@pytest.mark.slow
def test_records_with_few_unobserved_variables_agree_with_the_referee() -> None:
    """The referee enumerates only unobserved variables, so larger records whose open
    part is small can be re-checked too."""
    checked = 0
    for k in (1, 2, 3, 4):
        for index in range(20):
            record = built(0, k, index)
            unobserved = len(record["variables"]) - len(record["observed"])
            if unobserved <= 16:
                referee_check(record)
                checked += 1
    assert checked >= 20


def test_validator_catches_broken_records() -> None:
    """The validator must fail (not just pass): break a record in several ways."""
    record = next(r for r in small_records(ks=(2,)) if len(r["mss_family"]) >= 2)
    referee = referee_for(record)
    assert validate_logic_record(dict(record, k=1))
    short_family = dict(record, mss_family=record["mss_family"][:1])
    assert any("differs" in e for e in validate_logic_record(short_family))
    bogus = next(
        list(s) for s in itertools.combinations(record["queryable"], 2)
        if not referee_sufficient(referee, s)
    )
    errors = validate_logic_record(dict(record, mss_family=[bogus, *record["mss_family"]]))
    assert any("not sufficient" in e for e in errors)
    world = referee.worlds[0]
    canonical = record["mss_family"][0]
    known = dict(record, observed={**record["observed"], **{v: world[v] for v in canonical}})
    assert any("not underspecified" in e for e in validate_logic_record(known))


# ------------------------------------------------------------- determinism
def test_build_is_the_same_in_another_process() -> None:
    """Same seed and version, same bytes: a fresh interpreter with another hash seed
    (set iteration order differs) builds the same records."""
    cases = [(1, 0), (2, 5), (3, 1), (4, 2)]
    script = ("from infoseek.builders.logic.logic_mt import build_problem; "
              "from infoseek.jsonl import dumps_record; "
              f"print('\\n'.join(dumps_record(build_problem(0, k, i)) for k, i in {cases!r}))")
    root = Path(__file__).resolve().parents[2]
    other = subprocess.run([sys.executable, "-c", script], cwd=root, capture_output=True,
                           text=True, check=True, env={**os.environ, "PYTHONHASHSEED": "7"})
    here = [dumps_record(build_problem(0, k, index)) for k, index in cases]
    assert other.stdout.splitlines() == here


def test_parallel_split_equals_serial() -> None:
    parallel = build_split(seed=3, per_k=2, ks=[1, 2], workers=2)
    serial = build_split(seed=3, per_k=2, ks=[1, 2], workers=1)
    assert [dumps_record(r) for r in parallel] == [dumps_record(r) for r in serial]
    assert [r["k"] for r in serial] == [1, 1, 2, 2]
    # per_k=2 over two ks is below the pool threshold; 8 jobs really use the pool.
    parallel = build_split(seed=3, per_k=4, ks=[2, 1], workers=2)
    serial = build_split(seed=3, per_k=4, ks=[1, 2], workers=1)
    assert [dumps_record(r) for r in parallel] == [dumps_record(r) for r in serial]
    assert [dumps_record(r) for r in serial[:2]] == [
        dumps_record(build_problem(3, 1, i)) for i in range(2)
    ]


def _content(record: dict) -> str:
    return dumps_record({k: v for k, v in record.items() if k not in ("id", "provenance")})


def test_different_seeds_and_indices_give_different_problems() -> None:
    by_seed = {_content(build_problem(seed, 2, 0)) for seed in range(4)}
    assert len(by_seed) == 4
    by_index = {_content(built(0, 2, i)) for i in range(4)}
    assert len(by_index) == 4


@pytest.mark.parametrize("k", [0, 9, -1])
def test_build_problem_rejects_bad_k(k: int) -> None:
    with pytest.raises(ValueError):
        build_problem(0, k, 0)


def test_build_split_rejects_bad_arguments() -> None:
    with pytest.raises(ValueError):
        build_split(seed=0, per_k=1, ks=[9])
    with pytest.raises(ValueError):
        build_split(seed=0, per_k=-1, ks=[1])
    assert build_split(seed=0, per_k=0, ks=[1]) == []


# --------------------------------------------------------------- rendering
HIDDEN_MARKERS = ("k=", "mss", "minimal sufficient", "canonical", "derivation", "alternative")


@pytest.mark.parametrize("k", [1, 2, 3, 4])
def test_rendered_problem_leaks_no_hidden_fields(k: int) -> None:
    for index in range(3):
        record = built(0, k, index)
        for forbid in (True, False):
            text = render_logic_problem(record, forbid_alternatives=forbid).lower()
            for marker in HIDDEN_MARKERS:
                assert marker not in text, (marker, record["id"])
            assert record["id"].lower() not in text
            assert f"depth {record['derivation_depth']}" not in text
        # The target, the entity and every askable variable are in the text.
        text = render_logic_problem(record)
        assert record["target"] in text and record["entity"] in text


def test_engine_from_record_matches_referee_on_small_records() -> None:
    """The engine a record rebuilds (used by every task) agrees with the referee."""
    for record in small_records(indices=range(12))[:6]:
        engine = engine_from_record(record)
        referee = referee_for(record)
        assert engine.target_values() == referee.target_values()
        for v, canonical_row in itertools.islice(
            ((v, r) for v in record["queryable"] for r in (False, True)), 20
        ):
            assignment = {v: canonical_row}
            assert engine.target_values(assignment) == referee.target_values(assignment)
