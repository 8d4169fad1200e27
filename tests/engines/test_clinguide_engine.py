"""The decision-tree engine (infoseek/engines/tree.py) against the brute-force referee:
primitives, Known, sufficiency and the MSS family on random small trees (with fixed
outside variables), and the record check."""

from __future__ import annotations

import random
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from infoseek.analysis import is_sufficient, minimal_sufficient_sets
from infoseek.engine import ANY
from infoseek.engines.bruteforce import referee_mss_family, referee_sufficient
from infoseek.engines.tree import DecisionTreeEngine, from_record
from infoseek.records import RecordError, check_record
from tests.support.clinguide import all_leaves, referee

TARGET = "recommendation"


def random_tree(rng: random.Random, names: list[str], domains: dict[str, list[str]],
                depth: int, path: tuple[str, ...], counter: list[int]) -> dict[str, Any]:
    free = [n for n in names if n not in path]
    if depth == 0 or not free or rng.random() < 0.25:
        counter[0] += 1
        return {"leaf": f"leaf{counter[0]}"}
    var = rng.choice(free)
    values = list(domains[var])
    rng.shuffle(values)
    cut = rng.randint(1, len(values) - 1)
    groups = [values[:cut], values[cut:]] if rng.random() < 0.5 else [[v] for v in values]
    return {"ask": var, "branches": [
        {"values": sorted(g), "then": random_tree(rng, names, domains, depth - 1,
                                                  (*path, var), counter)}
        for g in groups]}


def random_record(seed: int) -> dict[str, Any]:
    rng = random.Random(seed)
    names = [f"x{i}" for i in range(rng.randint(2, 5))]
    domains = {n: [f"v{j}" for j in range(rng.randint(2, 3))] for n in names}
    tree = random_tree(rng, names, domains, 4, (), [0])
    if "leaf" in tree:
        tree = {"ask": names[0], "branches": [
            {"values": [v], "then": {"leaf": f"only{v}"}} for v in domains[names[0]]]}
    extra = {f"d{i}": ["p", "q"] for i in range(rng.randint(0, 2))}
    fixed = {d: rng.choice(vals) for d, vals in extra.items()}
    all_domains = {**domains, **extra}
    observed = {}
    node = tree
    while "leaf" not in node and rng.random() < 0.4:
        branch = rng.choice(node["branches"])
        observed[node["ask"]] = branch["values"][0]
        node = branch["then"]
    record = {"id": f"t{seed}", "domain": "clinguide",
              "engine": {"kind": "decision-tree", "tree": tree, "domains": all_domains,
                         "fixed": fixed},
              "variables": [*all_domains, TARGET], "observed": observed, "target": TARGET,
              "queryable": sorted(v for v in all_domains if v not in observed), "k": 0,
              "mss_family": []}
    record["target_values"] = sorted(from_record(record).target_values())
    found = minimal_sufficient_sets(from_record(record), record["queryable"],
                                    len(record["queryable"]))
    record["k"], record["mss_family"] = found.k, [list(s) for s in found.family] or [[]]
    return record


@settings(max_examples=60, deadline=None)
@given(seed=st.integers(0, 10**6), draw=st.randoms(use_true_random=False))
def test_primitives_agree_with_the_referee(seed: int, draw: random.Random) -> None:
    record = random_record(seed)
    engine, ref = from_record(record), referee(record, narrow_fixed=False)
    names = [v for v in record["variables"] if v != TARGET]
    leaves = all_leaves(record["engine"]["tree"])
    for _ in range(15):
        chosen = draw.sample(names, draw.randint(0, min(3, len(names))))
        assignment = {v: draw.choice(engine.domain(v)) for v in chosen}
        if draw.random() < 0.2:
            assignment[TARGET] = draw.choice(leaves)
        assert engine.target_values(assignment) == ref.target_values(assignment)
        for target_value in (ANY, draw.choice(leaves)):
            for var in record["variables"]:
                assert (engine.variable_values(var, assignment, target_value)
                        == ref.variable_values(var, assignment, target_value)), (
                    var, assignment, target_value)


@settings(max_examples=60, deadline=None)
@given(seed=st.integers(0, 10**6))
def test_sufficiency_and_the_mss_family_agree_with_the_referee(seed: int) -> None:
    record = random_record(seed)
    engine, ref = from_record(record), referee(record, narrow_fixed=False)
    queryable = record["queryable"]
    ref_k, ref_family = referee_mss_family(ref, queryable, len(queryable))
    found = minimal_sufficient_sets(engine, queryable, len(queryable))
    assert found.k == ref_k
    assert sorted(tuple(sorted(s)) for s in found.family) == ref_family
    slow = minimal_sufficient_sets(engine, queryable, len(queryable), use_fast_path=False)
    assert sorted(tuple(sorted(s)) for s in slow.family) == ref_family
    rng = random.Random(seed)
    for _ in range(10):
        subset = rng.sample(queryable, rng.randint(0, len(queryable)))
        assert is_sufficient(engine, subset) == referee_sufficient(ref, subset), subset
        pair = engine.distinguishing_pair(subset)
        if pair is not None:  # a real pair: feasible worlds, equal on subset, other leaf
            for world in pair:
                assert world in ref.worlds
            assert all(pair[0][v] == pair[1][v] for v in subset)
            assert pair[0][TARGET] != pair[1][TARGET]


def test_a_branch_that_the_observed_prefix_leaves_is_irrelevant() -> None:
    tree = {"ask": "a", "branches": [
        {"values": ["1"], "then": {"ask": "b", "branches": [
            {"values": ["1"], "then": {"leaf": "L1"}},
            {"values": ["2", "3"], "then": {"leaf": "L2"}}]}},
        {"values": ["2"], "then": {"ask": "c", "branches": [
            {"values": ["1"], "then": {"leaf": "L3"}},
            {"values": ["2"], "then": {"leaf": "L4"}}]}}]}
    domains = {"a": ["1", "2"], "b": ["1", "2", "3"], "c": ["1", "2"], "d": ["x", "y"]}
    engine = DecisionTreeEngine(tree, domains, {"d": "y"}, {"a": "1"}, TARGET)
    assert engine.target_values() == {"L1", "L2"}
    assert engine.target_values({"b": "3"}) == {"L2"}
    assert engine.target_values({"d": "x"}) == frozenset()  # the fixed value only
    assert engine.variable_values("c", {}) == {"1", "2"}  # off the path: free
    assert engine.variable_values("b", {}, "L2") == {"2", "3"}
    result = minimal_sufficient_sets(engine, ["b", "c", "d"], 3)
    assert (result.k, result.family) == (1, [("b",)])


def test_the_record_check_names_what_is_wrong() -> None:
    record = random_record(3)
    check_record(record)
    spec = record["engine"]
    first = spec["tree"]["branches"][0]
    broken = {**record, "engine": {**spec, "tree": {**spec["tree"], "branches": [first]}}}
    with pytest.raises(RecordError, match="field 'engine'.*two or more branches"):
        check_record(broken)
    domains = dict(spec["domains"])
    var = spec["tree"]["ask"]
    domains[var] = [*domains[var], "extra"]
    with pytest.raises(RecordError, match="must split its values"):
        check_record({**record, "engine": {**spec, "domains": domains}})
    with pytest.raises(RecordError, match="field 'target_values'"):
        check_record({**record, "target_values": ["no such leaf"]})
