"""GeneReg-MT: the curated networks, the random generator, the builder's records against
the plain referee (tests/support/boolnet_referee.py), and the tasks end to end with the
reference models."""

from __future__ import annotations

import itertools
import json
import random
from pathlib import Path

import pytest
from inspect_ai import eval

from infoseek import cli
from infoseek.builders.genereg import genereg_mt as builder
from infoseek.builders.genereg.generator import random_network
from infoseek.builders.genereg.genereg_text import render_genereg_problem
from infoseek.builders.genereg.networks_pool import NETWORKS_DIR, curated_networks, curated_sources
from infoseek.engines.boolnet.rules import read_rules_file
from infoseek.engines.bruteforce import referee_known, referee_mss_family, referee_sufficient
from infoseek.inspect_tasks.genereg_mt import (
    genereg_mt,
    genereg_mt_full,
    genereg_mt_k_prediction,
    genereg_mt_mss,
)
from infoseek.inspect_tasks.task_parameters import TaskParameterError
from infoseek.jsonl import read_jsonl
from infoseek.oracles.policies import Oracle
from infoseek.records import check_record, engine_from_record
from infoseek.scorers.group_metric import log_metrics
from infoseek.scorers.seek import seek_values
from infoseek.stored_forms import sample_problem, turns_from_store
from tests.support.boolnet_referee import referee_for
from tests.support.common import assert_eval_success

REFEREE_STEADY_GENES = 16
"""The steady referee walks all 2^n states in plain Python: only up to this size here."""


@pytest.fixture(autouse=True)
def _cache(tmp_path_factory, monkeypatch):
    monkeypatch.setenv("INFOSEEK_CACHE_DIR", str(tmp_path_factory.getbasetemp() / "gr"))


def test_curated_networks_are_many_sized_and_sourced():
    nets = curated_networks()
    sources = curated_sources()
    assert len(nets) >= 20
    for net in nets:
        assert 6 <= len(net.genes) <= 30, net.name
        assert len(sources[net.name]) > 40, net.name
    for path in NETWORKS_DIR.glob("*.txt"):
        assert read_rules_file(path).name == path.stem


def test_random_networks_are_nested_canalizing_and_seeded():
    for seed in range(20):
        net = random_network(random.Random(seed), 10, 3)
        again = random_network(random.Random(seed), 10, 3)
        assert net == again
        assert all(1 <= len(net.regulators(g)) <= 4 for g in net.regulated)
        assert set(net.inputs) == {"I1", "I2", "I3"}


def _records(per_k: int = 2, ks=(1, 2, 3, 4), seed: int = 0):
    return builder.build_split(seed, per_k, list(ks))


def _check_against_referee(record):
    check_record(record)
    ref = referee_for(record)
    engine = engine_from_record(record)
    assert not referee_known(ref)
    assert sorted(ref.target_values(), key=str) == sorted(record["target_values"], key=str)
    k, family = referee_mss_family(ref, record["queryable"], record["k"])
    assert k == record["k"], record["id"]
    assert family == sorted(tuple(sorted(s)) for s in record["mss_family"]), record["id"]
    assert referee_sufficient(ref, record["mss_family"][0])
    assert engine.target_values() == ref.target_values()


def test_built_records_agree_with_the_referee():
    records = _records()
    assert len(records) == 2 * 4 * 3
    checked = 0
    for record in records:
        if record["family"] == "steady" and len(record["engine"]["genes"]) > \
                REFEREE_STEADY_GENES:
            continue
        _check_against_referee(record)
        checked += 1
    assert checked >= 16


@pytest.mark.slow
def test_every_default_record_agrees_with_the_referee():
    for record in _records(per_k=builder.SPEC.default_per_k):
        _check_against_referee(record)


def test_builder_is_deterministic_and_shaped():
    first = [json.dumps(r) for r in _records(per_k=1)]
    assert first == [json.dumps(r) for r in _records(per_k=1)]
    alone = [json.dumps(r) for r in builder.build_split(0, 1, [3])]
    assert alone == first[6:9]
    records = [json.loads(line) for line in first]
    assert [(r["family"], r["target_type"]) for r in records[:3]] == list(builder.STREAMS)
    for record in records:
        assert record["domain"] == "genereg"
        family = record["mss_family"]
        assert all(len(s) == record["k"] for s in family)
        assert set(record["alternative_only"]).isdisjoint(family[0])
        assert record["difficulty"]["mss_family_size"] == len(family)
        # more askable genes than the default turn cap (asking at random cannot ask all),
        # and the number set by the problem's index, the same mix at every k
        index = record["provenance"]["index"]
        askable = builder.ASKABLE_LEVELS[index % len(builder.ASKABLE_LEVELS)]
        assert len(record["queryable"]) == askable >= builder.MIN_ASKABLE > 10
        text = render_genereg_problem(record)
        assert all(rule in text for rule in record["engine"]["rules"])
        assert all(e["id"] in text for e in record["engine"]["catalogue"])
        if record["target_type"] == "marker":
            assert record["target_values"] == [0, 1]
            assert f"marker gene {record['engine']['target']['gene']}" in text


def test_askable_genes_are_balanced_across_k():
    records = _records(per_k=3)
    for k in (1, 2, 3, 4):
        for family, target in builder.STREAMS:
            sizes = sorted(len(r["queryable"]) for r in records if r["k"] == k
                           and (r["family"], r["target_type"]) == (family, target))
            assert sizes == sorted(builder.ASKABLE_LEVELS)


def test_steady_problems_leave_few_changeable_genes():
    """At most k + STEADY_SPARE_GENES askable genes can still change; every other askable
    gene is fixed by the observed genes and the steady-state conditions, checked here
    on the referee's own list of fixed points."""
    checked = 0
    for record in _records(per_k=3):
        if record["family"] != "steady" or len(record["engine"]["genes"]) > \
                REFEREE_STEADY_GENES:
            continue
        points = referee_for(record).worlds
        changeable = [g for g in record["queryable"] if len({w[g] for w in points}) == 2]
        assert record["difficulty"]["changeable_genes"] == len(changeable)
        assert len(changeable) <= record["k"] + builder.STEADY_SPARE_GENES
        checked += 1
    assert checked >= 6


def _episode_known(engine, target_value, questions) -> bool:
    oracle = Oracle(engine, target_value, "adversarial")
    for gene in questions:
        oracle.reply(gene)
    return oracle.known()


def test_marker_is_known_exactly_when_the_whole_mss_is_asked():
    """Coincidence markers: against the adversarial oracle, for either marker value and
    in any order, asking every MSS gene pins the marker and any set that misses one
    (with every other askable gene asked too) does not."""
    rng = random.Random(7)
    checked = 0
    for record in _records(per_k=3):
        if record["target_type"] != "marker":
            continue
        engine = engine_from_record(record)
        mss = record["mss_family"][0]
        others = [g for g in record["queryable"] if g not in mss]
        for value in (0, 1):
            for missing in mss:
                asked = [g for g in mss if g != missing] + others
                for _ in range(3):
                    rng.shuffle(asked)
                    assert not _episode_known(engine, value, asked), (record["id"], missing)
            full = list(mss)
            rng.shuffle(full)
            assert _episode_known(engine, value, full)
            checked += 1
    assert checked == 2 * 3 * 4


class _TableEngine:
    """A stand-in engine whose marker is `rule` of the named genes."""

    def __init__(self, genes, rule):
        self.genes, self.rule = genes, rule

    def target_values(self, assignment):
        free = [g for g in self.genes if g not in assignment]
        return frozenset(self.rule({**assignment, **dict(zip(free, combo))})
                         for combo in itertools.product((0, 1), repeat=len(free)))


def test_coincidence_marker_test_tells_conjunctions_from_nested_mixes():
    genes = ["a", "b", "c"]
    assert builder.is_coincidence_marker(
        _TableEngine(genes, lambda w: int(w["a"] and not w["b"] and w["c"])), genes)
    assert builder.is_coincidence_marker(
        _TableEngine(genes, lambda w: int(w["a"] or w["b"] or w["c"])), genes)
    # (a AND b) OR c: a one-step adversary answering a = 0 first makes b irrelevant
    assert not builder.is_coincidence_marker(
        _TableEngine(genes, lambda w: int((w["a"] and w["b"]) or w["c"])), genes)
    assert not builder.is_coincidence_marker(
        _TableEngine(genes, lambda w: w["a"] ^ w["b"]), genes)
    # genes that do not decide the marker
    assert not builder.is_coincidence_marker(_TableEngine(genes, lambda w: w["a"]), ["b"])


def test_cli_build_writes_the_split(tmp_path: Path):
    out = tmp_path / "genereg.jsonl"
    assert cli.main(["build", "genereg", "--out", str(out), "--per-k", "1", "--k", "1",
                     "2"]) == 0
    records = list(read_jsonl(out))
    assert [r["k"] for r in records] == [1, 1, 1, 2, 2, 2]


def test_stream_parameters_fail_fast():
    with pytest.raises(TaskParameterError, match="family must be one of"):
        genereg_mt(family="static")
    with pytest.raises(TaskParameterError, match="attractor targets only"):
        genereg_mt(family="steady", target="marker")


def _run(task, model, tmp_path):
    [log] = eval(task, model=model, log_dir=str(tmp_path), display="none")
    assert_eval_success(log)
    return log


@pytest.mark.parametrize("fmt", ["tool", "text"])
def test_optimal_seek_is_sufficient_and_accurate(fmt, tmp_path):
    log = _run(genereg_mt(per_k=1, format=fmt), "infoseek/optimal", tmp_path)
    streams = {(sample_problem(s.metadata)["family"], sample_problem(s.metadata)["target_type"])
               for s in log.samples}
    assert streams == set(builder.STREAMS)
    for sample in log.samples:
        values = seek_values(sample.scores)
        assert values["final_sufficiency"] == 1.0, sample.id
        assert values["accuracy"] == 1.0, sample.id
        assert values["invalid_total"] == 0.0, sample.id
        turns = turns_from_store(sample.store["infoseek:turns"])
        replies = [q["reply"] for t in turns for q in t["queries"] if q.get("valid")]
        assert all(" = " in r and r.split(" = ")[1] in ("0", "1") for r in replies)
    metrics = log_metrics(log)
    for k in (1, 2, 3, 4):
        assert metrics[f"accuracy_k{k}"] == 1.0


def test_family_and_target_select_streams(tmp_path):
    log = _run(genereg_mt(per_k=1, k=[2], family="dynamic", target="marker"),
               "infoseek/optimal", tmp_path)
    assert {sample_problem(s.metadata)["target_type"] for s in log.samples} == {"marker"}
    assert {s.target for s in log.samples} == {"0", "1"}


def test_random_seeks_less_well_than_optimal(tmp_path):
    log = _run(genereg_mt(per_k=2, k=[3, 4], max_turns=3), "infoseek/random", tmp_path)
    suff = [seek_values(s.scores)["final_sufficiency"] for s in log.samples]
    assert sum(suff) / len(suff) < 1.0


def test_problem_level_and_full_information_with_optimal(tmp_path):
    log = _run(genereg_mt_k_prediction(per_k=1, k=[1, 4]), "infoseek/optimal", tmp_path)
    metrics = log_metrics(log)
    assert metrics["accuracy_k1"] == metrics["accuracy_k4"] == 1.0
    assert len(log.samples) == 6
    log = _run(genereg_mt_mss(per_k=1, k=[2]), "infoseek/optimal", tmp_path)
    assert log_metrics(log)["exact_k2"] == 1.0
    log = _run(genereg_mt_full(per_k=1, k=[2]), "infoseek/optimal", tmp_path)
    for sample in log.samples:
        values = seek_values(sample.scores)
        assert values["accuracy"] == 1.0 and values["final_sufficiency"] == 1.0
        assert sample_problem(sample.metadata)["k"] == 0
