"""The toy domain of `tests/support/toy_domain.py` proves the seam: registered with one
`register_engine` and one `register_domain` line, it is built, checked by the brute-force
referee, cached, written by `infoseek build`, read back as a source file, and run end to
end (seek, k-prediction, MSS identification) with the reference models, offline.

Nothing here touches a project module's internals: if the toy needed that, the seam
would not be done.
"""

from __future__ import annotations

import itertools
import json
import random
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from inspect_ai import Task, eval
from inspect_ai.log import EvalLog, EvalSample
from inspect_ai.model import ChatMessageAssistant, get_model

from infoseek import cli
from infoseek.analysis import is_known, minimal_sufficient_sets
from infoseek.builders.datasets import domain_records
from infoseek.domains import builder_names, domain_names
from infoseek.engine import ANY
from infoseek.engines.bruteforce import (
    BruteForceEngine,
    referee_known,
    referee_mss_family,
    referee_sufficient,
)
from infoseek.inspect_tasks.assembly import (
    checked_parameters,
    k_prediction_task,
    mss_task,
    seek_task,
)
from infoseek.jsonl import read_jsonl
from infoseek.records import RecordError, check_record, engine_from_record
from infoseek.scorers.group_metric import log_metrics
from infoseek.scorers.seek import seek_values
from infoseek.solvers.dataset import task_level_ks
from infoseek.stored_forms import sample_problem, turns_from_store
from tests.support import toy_domain as toy
from tests.support.common import assert_eval_success, forbid_tokenizer, text_output

SEEK = {"oracle": "adversarial", "max_turns": 10}


@pytest.fixture(scope="module", autouse=True)
def toy_registered(tmp_path_factory: pytest.TempPathFactory) -> Iterator[None]:
    """The toy domain joins for this module only; its records are cached in a tmp dir."""
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("INFOSEEK_CACHE_DIR", str(tmp_path_factory.mktemp("toy-cache")))
        toy.register()
        try:
            with forbid_tokenizer():
                yield
        finally:
            toy.unregister()


# ---------------------------------------------------------------- the referee


def referee(record: dict[str, Any]) -> BruteForceEngine:
    """Every world of the record, enumerated from its table by the brute-force engine:
    the colour must be the one the row of the input bits gives."""
    spec = record["engine"]
    target = record["target"]

    def consistent(world: dict[str, Any]) -> bool:
        key = "".join(str(world[bit]) for bit in spec["inputs"])
        return world[target] == spec["table"][key]

    domains = {v: (0, 1) for v in record["variables"]}
    domains[target] = tuple(spec["labels"])
    return BruteForceEngine(record["variables"], domains, consistent, record["observed"],
                            target)


def referee_task_k(ref: BruteForceEngine, family: list[list[str]], value: Any) -> int:
    """protocols §1, task-level degree, from the worlds: the fewest variables inside some MSS
    whose true values pin the target to `value` in every world where it has `value`."""
    worlds = ref.matching(None)
    with_value = [w for w in worlds if w[ref.target] == value]

    def pins(subset: tuple[str, ...]) -> bool:
        return all(all(other[ref.target] == value for other in worlds
                       if all(other[v] == w[v] for v in subset)) for w in with_value)

    return min(len(subset) for mss in family for size in range(len(mss) + 1)
               for subset in itertools.combinations(mss, size) if pins(subset))


def referee_depth(ref: BruteForceEngine, candidates: list[str]) -> int:
    """The fewest questions that make the target Known whatever the replies (exact
    minimax over the worlds, adaptive)."""

    def depth(worlds: tuple[dict[str, Any], ...], left: tuple[str, ...]) -> int:
        if len({w[ref.target] for w in worlds}) <= 1:
            return 0
        best = len(left) + 1
        for var in left:
            values = sorted({w[var] for w in worlds})
            if len(values) < 2:
                continue
            rest = tuple(v for v in left if v != var)
            best = min(best, 1 + max(depth(tuple(w for w in worlds if w[var] == x), rest)
                                     for x in values))
        return best

    return depth(tuple(ref.matching(None)), tuple(candidates))


def check_against_referee(record: dict[str, Any]) -> None:
    check_record(record)
    ref = referee(record)
    engine = engine_from_record(record)
    assert not referee_known(ref) and not is_known(engine)
    k, family = referee_mss_family(ref, record["queryable"], toy.SPEC.max_k)
    assert record["k"] == k
    assert sorted(tuple(sorted(s)) for s in record["mss_family"]) == family
    assert referee_sufficient(ref, record["mss_family"][0])
    labels = record["engine"]["labels"]
    assert record["target_values"] == [c for c in labels if c in ref.target_values()]
    assert task_level_ks(record) == [referee_task_k(ref, family, v)
                                     for v in record["target_values"]]


def test_built_records_pass_check_record_and_agree_with_the_referee() -> None:
    records = toy.build_split(0, 3, [1, 2, 3])
    assert [r["k"] for r in records] == [1] * 3 + [2] * 3 + [3] * 3
    assert len({r["id"] for r in records}) == 9
    for record in records:
        assert record["domain"] == "toy"
        check_against_referee(record)


@settings(max_examples=12, deadline=None)
@given(seed=st.integers(0, 10**6))
def test_records_of_any_seed_agree_with_the_referee(seed: int) -> None:
    for record in toy.build_split(seed, 1, [1, 2, 3]):
        check_against_referee(record)


@settings(max_examples=12, deadline=None)
@given(seed=st.integers(0, 10**6), draw=st.randoms(use_true_random=False))
def test_engine_primitives_agree_with_the_referee(seed: int, draw: random.Random) -> None:
    """target_values and variable_values under random partial assignments (some with
    values that clash with the observed bits, some fixing the colour)."""
    record = toy.build_split(seed, 1, [draw.randint(1, 3)])[0]
    engine, ref = engine_from_record(record), referee(record)
    bits = [v for v in record["variables"] if v != record["target"]]
    for _ in range(20):
        assignment = {b: draw.randint(0, 1) for b in draw.sample(bits, draw.randint(0, 3))}
        assert engine.target_values(assignment) == ref.target_values(assignment)
        for target_value in (ANY, *record["engine"]["labels"]):
            for var in record["variables"]:
                assert (engine.variable_values(var, assignment, target_value)
                        == ref.variable_values(var, assignment, target_value)), (
                    var, assignment, target_value)


def test_the_builder_is_deterministic_and_refuses_other_degrees() -> None:
    first = [json.dumps(r, sort_keys=False) for r in toy.build_split(7, 2, [2, 3])]
    again = [json.dumps(r, sort_keys=False) for r in toy.build_split(7, 2, [2, 3])]
    assert first == again
    assert first[:2] == [json.dumps(r) for r in toy.build_split(7, 2, [2])]  # k alone, same
    assert first != [json.dumps(r) for r in toy.build_split(8, 2, [2, 3])]
    with pytest.raises(ValueError, match="1..3"):
        toy.build_split(0, 1, [4])


def test_the_registered_check_names_what_is_wrong() -> None:
    record = toy.build_split(0, 1, [2])[0]
    table = dict(record["engine"]["table"])
    table.pop(sorted(table)[0])
    broken = {**record, "engine": {**record["engine"], "table": table}}
    with pytest.raises(RecordError, match="field 'engine'.*one row for each"):
        check_record(broken, "toy.jsonl:1")
    with pytest.raises(RecordError, match="field 'observed'"):
        check_record({**record, "observed": {record["queryable"][0]: 2}})


# ------------------------------------------------------------- the seek task


def run(task: Task, model: Any, log_dir: Path) -> EvalLog:
    [log] = eval(task, model=model, log_dir=str(log_dir), display="none")
    assert_eval_success(log)
    return log


def question_turns(sample: EvalSample) -> int:
    turns = turns_from_store(sample.store["infoseek:turns"])
    return sum(1 for turn in turns if any(q["valid"] for q in turn["queries"]))


@pytest.fixture(scope="module", params=["tool", "text"])
def optimal_seek(request, tmp_path_factory) -> EvalLog:
    params = checked_parameters("toy-table", k=[1, 2, 3], per_k=2, seed=0,
                                format=request.param, **SEEK)
    return run(seek_task("toy_seek", "toy-table", params), "infoseek/optimal",
               tmp_path_factory.mktemp("logs"))


def test_optimal_settles_every_instance_within_the_fewest_questions(optimal_seek) -> None:
    records = {r["id"]: r for r in domain_records("toy-table", ks=[1, 2, 3], per_k=2)}
    assert len(optimal_seek.samples) == sum(len(r["target_values"]) for r in records.values())
    for sample in optimal_seek.samples:
        values = seek_values(sample.scores)
        assert values["final_sufficiency"] == 1.0, sample.id
        assert values["accuracy"] == 1.0, sample.id
        assert values["invalid_total"] == 0.0, sample.id
        assert values["over_questioning"] == 0.0, sample.id
        record = sample_problem(sample.metadata)
        asked = question_turns(sample)
        # answered on the turn after the target became Known
        assert values["turn_to_sufficiency"] == asked == values["total_turns"], sample.id
        # no more questions than the referee's worst-case optimum, itself at most k. Not
        # "== task_k": the task-level k is a fixed set that pins one value, while the
        # policy adapts to replies (fewer questions) without knowing the value (more);
        # both happen on this split (toy-table-k3-s0-000-red: 2 < 3;
        # toy-table-k2-s0-000-green: 2 > 1)
        ref = referee(record)
        assert 1 <= asked <= referee_depth(ref, record["queryable"]) <= record["k"], sample.id
        assert sample.metadata["task_k"] == referee_task_k(
            ref, record["mss_family"], sample.metadata["target_value"])
        final = turns_from_store(sample.store["infoseek:turns"])[-1]
        assert final["action"] == "answer" and final["answer"] == sample.target
    metrics = log_metrics(optimal_seek)
    assert metrics["accuracy"] == metrics["final_sufficiency"] == 1.0
    assert {"accuracy_k1", "accuracy_k2", "accuracy_k3"} <= set(metrics)


def test_optimal_speaks_the_interaction_format_and_the_domain_wording(optimal_seek) -> None:
    fmt = optimal_seek.samples[0].store["infoseek:options"]["format"]
    for sample in optimal_seek.samples:
        assistant = [m for m in sample.messages if isinstance(m, ChatMessageAssistant)]
        assert all(bool(m.tool_calls) == (fmt == "tool") for m in assistant)
        for turn in turns_from_store(sample.store["infoseek:turns"]):
            for query in turn["queries"]:
                assert query["reply"] == f"{query['variable']} = {query['value']}"
        system = sample.messages[0].text
        assert "lamp whose colour depends on hidden bits" in system
        if fmt == "text":
            assert "Question: What is <bit>?" in system
            assert assistant[-1].text == f"Answer: {sample.target}"
        else:
            assert assistant[-1].tool_calls[0].arguments == {"value": sample.target}


def test_text_questions_of_the_reference_models_follow_the_domain_template(
        tmp_path) -> None:
    params = checked_parameters("toy-table", k=[1], per_k=1, seed=0, format="text", **SEEK)
    log = run(seek_task("toy_seek", "toy-table", params), "infoseek/optimal", tmp_path)
    asked = [m.text for s in log.samples for m in s.messages
             if isinstance(m, ChatMessageAssistant) and m.text.startswith("Question:")]
    assert asked and all(line.startswith("Question: What is bit") for line in asked)


def test_random_model_completes_with_scores_in_range(tmp_path) -> None:
    params = checked_parameters("toy-table", k=[1, 2, 3], per_k=2, seed=0, format="tool",
                                max_turns=3, oracle="random")
    log = run(seek_task("toy_seek", "toy-table", params), "infoseek/random", tmp_path)
    for sample in log.samples:
        values = seek_values(sample.scores)
        for name in ("accuracy", "final_sufficiency", "query_correctness", "over_questioning"):
            value = values[name]
            assert value != value or 0.0 <= value <= 1.0, (sample.id, name, value)
        assert 0 <= values["total_turns"] <= 3
        assert values["invalid_total"] == 0.0
        turns = turns_from_store(sample.store["infoseek:turns"])
        assert turns[-1]["action"] == "answer"
        # the random oracle's replies stay consistent with the hidden colour
        assert all(sample.metadata["target_value"] in t["possible_target_values"]
                   for t in turns)


def test_an_answer_naming_no_option_is_corrected_in_the_kinds_words(tmp_path) -> None:
    params = checked_parameters("toy-table", k=[1], per_k=1, seed=0, format="text",
                                max_turns=2, oracle="adversarial")
    model = get_model("mockllm/model", custom_outputs=[text_output("Answer: purple")] * 9)
    [log] = eval(seek_task("toy_seek", "toy-table", params), model=model,
                 log_dir=str(tmp_path), display="none", limit=1)
    sample = log.samples[0]
    first = turns_from_store(sample.store["infoseek:turns"])[0]
    assert (first["action"], first["reason"]) == ("invalid", "malformed")
    correction = next(m.text for m in sample.messages[3:] if m.role == "user")
    assert "listed options" in correction


# ------------------------------------------------------ the problem-level tasks


def test_k_prediction_with_optimal_scores_one(tmp_path) -> None:
    params = checked_parameters("toy-table", k=[1, 2, 3], per_k=2, seed=0)
    log = run(k_prediction_task("toy_k_prediction", "toy-table", params),
              "infoseek/optimal", tmp_path)
    assert len(log.samples) == 6
    assert "how many more bits of the lamp" in log.samples[0].messages[0].text
    metrics = log_metrics(log)
    assert metrics["accuracy"] == 1.0 and metrics["invalid"] == 0.0


@pytest.mark.parametrize("forbid", [True, False])
def test_mss_identification_with_optimal_scores_one(forbid: bool, tmp_path) -> None:
    params = checked_parameters("toy-table", k=[1, 2, 3], per_k=2, seed=0, k_given=False,
                                max_size=4, forbid_alternatives=forbid)
    log = run(mss_task("toy_mss", "toy-table", params), "infoseek/optimal", tmp_path)
    assert len(log.samples) == 6
    assert "smallest set of bits" in log.samples[0].messages[0].text
    metrics = log_metrics(log)
    assert metrics["exact"] == metrics["jaccard"] == metrics["recall"] == 1.0


# ----------------------------------------------- loader, cache, CLI and sources


def test_the_records_loader_builds_once_and_caches_per_k(monkeypatch, tmp_path) -> None:
    monkeypatch.setenv("INFOSEEK_CACHE_DIR", str(tmp_path))
    records = domain_records("toy-table", ks=[1, 2], per_k=2, seed=3)
    assert records == toy.build_split(3, 2, [1]) + toy.build_split(3, 2, [2])
    entries = sorted(p.name for p in tmp_path.iterdir())
    assert len(entries) == 2 and all(n.startswith("toy-table-1.0.0-") for n in entries)
    assert domain_records("toy-table", ks=[2], per_k=2, seed=3) == records[2:]
    assert len(list(tmp_path.iterdir())) == 2  # k = 2 came from the cache


def test_infoseek_build_writes_toy_records_and_a_task_runs_on_them(tmp_path, capsys) -> None:
    out = tmp_path / "toy.jsonl"
    status = cli.main(["build", "toy-table", "--out", str(out), "--seed", "5",
                       "--per-k", "2", "--k", "1", "2", "--quiet"])
    assert status == 0, capsys.readouterr().err
    assert "built 4 problems in " in capsys.readouterr().out
    written = list(read_jsonl(out))  # read_jsonl checks every record
    assert written == toy.build_split(5, 2, [1, 2])

    params = checked_parameters("toy-table", k=[2], source=str(out), format="text", **SEEK)
    log = run(seek_task("toy_seek", "toy-table", params), "infoseek/optimal", tmp_path)
    from_file = [r for r in written if r["k"] == 2]
    assert sorted({sample_problem(s.metadata)["id"] for s in log.samples}) == sorted(
        r["id"] for r in from_file)
    assert len(log.samples) == sum(len(r["target_values"]) for r in from_file)
    assert all(seek_values(s.scores)["accuracy"] == 1.0 for s in log.samples)

    with pytest.raises(ValueError, match="holds \\['toy'\\] problem records"):
        domain_records("logic-mt", ks=[1, 2], source=str(out))


def test_the_registration_is_the_only_connection(tmp_path) -> None:
    assert "toy" in domain_names() and "toy-table" in builder_names()
    toy.unregister()
    try:
        assert "toy" not in domain_names() and "toy-table" not in builder_names()
        with pytest.raises(SystemExit):
            cli.main(["build", "toy-table", "--out", str(tmp_path / "x.jsonl")])
    finally:
        toy.register()
    # the exact algorithms need nothing but the engine
    record = toy.build_split(1, 1, [3])[0]
    result = minimal_sufficient_sets(engine_from_record(record), record["queryable"], 3)
    assert result.k == 3
