"""The hard logic split (`-T split=hard`) and the second exact method that cross-checks it.

The SAT method (`infoseek.engines.satmss`) is itself checked against the brute-force
referee on small default records, and against the hitting-set search on random Horn
problems; the hard records are checked for their shape caps, validity, determinism and
agreement of both methods; the tasks' split plumbing for its defaults and errors.
"""

from __future__ import annotations

import functools
import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from infoseek.analysis import minimal_sufficient_sets
from infoseek.builders.logic import logic_mt
from infoseek.builders.logic.logic_record import validate_logic_record
from infoseek.builders.math.math_record import validate_math_record
from infoseek.engines.bruteforce import horn_referee, referee_mss_family
from infoseek.engines.horn import HornEngine
from infoseek.engines.satmss import SatMss, cross_check_record, sat_mss
from infoseek.inspect_tasks.versions import task_version
from infoseek.jsonl import dumps_record
from infoseek.records import check_record


@functools.cache
def hard(k: int, index: int) -> dict:
    return logic_mt.build_hard_problem(0, k, index)


@pytest.mark.parametrize(("k", "index"), [(5, 0), (5, 1), (6, 0), (8, 0)])
def test_hard_records_are_valid_and_within_the_caps(k: int, index: int) -> None:
    record = hard(k, index)
    check_record(record)
    assert record["k"] == k and record["provenance"]["builder"] == "logic-mt-hard"
    assert len(record["variables"]) <= 150
    assert len(record["engine"]["clauses"]) <= 300
    assert 1 <= record["derivation_depth"] <= 10
    assert validate_logic_record(record) == []
    assert cross_check_record(record) == []
    result = sat_mss(record)
    assert result.k == k
    assert {frozenset(s) for s in result.family} == {frozenset(s) for s in record["mss_family"]}


def test_hard_records_are_deterministic_and_apart_from_the_default_split() -> None:
    assert dumps_record(logic_mt.build_hard_problem(0, 5, 0)) == dumps_record(hard(5, 0))
    default = logic_mt.build_problem(0, 5, 0)
    assert default["provenance"]["builder"] == "logic-mt"
    assert default["id"] != hard(5, 0)["id"] and default["engine"] != hard(5, 0)["engine"]


def test_the_hard_split_plants_deep_derivations() -> None:
    depths = [hard(k, i)["derivation_depth"] for k, i in [(5, 0), (5, 1), (6, 0), (8, 0)]]
    assert max(depths) >= 4, depths


def test_cross_check_reports_a_wrong_family_or_k() -> None:
    record = dict(hard(5, 0))
    record["mss_family"] = record["mss_family"][:1] + [["nobody", "else"]]
    assert cross_check_record(record)[0].startswith("the SAT method finds")
    assert cross_check_record({**hard(5, 0), "k": 4}) == [
        "the SAT method finds k=None, the record says k=4"]


@pytest.mark.parametrize("k", [1, 2, 3])
def test_sat_method_agrees_with_the_brute_force_referee(k: int) -> None:
    checked = 0
    for index in range(41):
        record = logic_mt.build_problem(0, k, index)
        if len(record["variables"]) > 20:
            continue
        referee = horn_referee(record["variables"], record["engine"]["clauses"],
                               record["observed"], record["target"])
        ref_k, ref_family = referee_mss_family(referee, record["queryable"], k + 1)
        result = sat_mss(record, max_k=k + 1)
        assert result.k == ref_k
        assert {frozenset(s) for s in result.family} == {frozenset(s) for s in ref_family}
        checked += 1
    assert checked >= 2, "too few small records to check"


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.integers(0, 10**6))
def test_sat_method_agrees_with_the_hitting_set_search_on_random_horn(seed: int) -> None:
    rng = random.Random(seed)
    names = [f"v{i}" for i in range(rng.randint(4, 12))]
    clauses = []
    for _ in range(rng.randint(2, 16)):
        head = rng.choice([*names, None])
        body = rng.sample([v for v in names if v != head], rng.randint(1, 3))
        clauses.append(([head] if head else []) + [f"not {b}" for b in body])
    target = names[0]
    observed = {v: rng.random() < 0.5 for v in names[1:] if rng.random() < 0.3}
    engine = HornEngine(names, clauses, observed, target)
    if not engine.target_values():
        with pytest.raises(ValueError):
            SatMss(names, clauses, observed, target, []).minimum(3)
        return
    candidates = [v for v in names if v not in observed and v != target]
    fast = minimal_sufficient_sets(engine, candidates, 3)
    search = SatMss(names, clauses, observed, target, candidates)
    slow = search.minimum(3)
    search.close()
    assert fast.k == slow.k
    assert {frozenset(s) for s in fast.family} == {frozenset(s) for s in slow.family}
    referee = horn_referee(names, clauses, observed, target)
    assert referee_mss_family(referee, candidates, 3)[0] == slow.k


def test_tasks_take_the_split() -> None:
    from infoseek.inspect_tasks.logic_k_prediction import logic_k_prediction
    from infoseek.inspect_tasks.logic_mss import logic_mss
    from infoseek.inspect_tasks.logic_mt import logic_mt as logic_mt_task
    from infoseek.inspect_tasks.task_parameters import TaskParameterError

    task = logic_mt_task(split="hard", k=5, per_k=1)
    assert task.version == task_version("logic-mt-hard", logic_mt.HARD_SPEC.data_version)
    assert {s.metadata["k"] for s in task.dataset} == {5}
    assert logic_mt.split_settings("hard", None)["k"] == [5, 6, 7, 8]
    assert logic_mt.split_settings("hard", None)["max_turns"] == 16
    assert logic_mt.split_settings("default", None)["max_turns"] == 10
    assert logic_mt.split_settings("hard", [5, 6], max_turns=3)["max_turns"] == 3
    assert logic_mt.split_settings("hard", 7)["max_size"] == 7
    hard = task_version("logic-mt-hard", "")
    assert logic_k_prediction(split="hard", k=5, per_k=1).version.startswith(hard)
    assert logic_mss(split="hard", k=5, per_k=1).version.startswith(hard)
    with pytest.raises(TaskParameterError, match="-T split must be one of default, hard"):
        logic_mt_task(split="harder")
    with pytest.raises(TaskParameterError, match="-T k must be an integer from 1 to 5"):
        logic_mt_task(k=8)


@pytest.mark.parametrize("k", [5, 8])
def test_gsme_mt_ext_hard_records_are_valid_and_within_the_caps(k: int) -> None:
    from infoseek.builders.math import gsme_mt_ext

    record = gsme_mt_ext.build_hard_problem(0, k, 0)
    assert validate_math_record(record) == []
    assert record["k"] == k and record["provenance"]["builder"] == "gsme-mt-ext-hard"
    assert record["difficulty"]["depth"] <= 10
    assert dumps_record(gsme_mt_ext.build_hard_problem(0, k, 0)) == dumps_record(record)


def test_gsme_mt_ext_takes_the_split() -> None:
    from infoseek.inspect_tasks.gsme_mt_ext import gsme_mt_ext
    from infoseek.inspect_tasks.task_parameters import TaskParameterError

    task = gsme_mt_ext(split="hard", k=8, per_k=1)
    assert task.version.startswith(task_version("gsme-mt-ext-hard", ""))
    assert {s.metadata["k"] for s in task.dataset} == {8}
    assert gsme_mt_ext(per_k=1).version.startswith(task_version("gsme-mt-ext", ""))
    with pytest.raises(TaskParameterError, match="-T split must be one of default, hard"):
        gsme_mt_ext(split=1)
