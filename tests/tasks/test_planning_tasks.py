"""Planning end to end: Planning-Q's three single-turn tasks with the reference models
(optimal 1.0; the BFS references rise with depth), multi-turn planning with optimal
(final sufficiency and accuracy 1.0 at every k) and random (lower), the plan scorer, and
malformed plans from a scripted model (invalid with a reason, never credited, never a
crash)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from inspect_ai import eval
from inspect_ai.log import EvalLog
from inspect_ai.model import get_model

from infoseek.builders.datasets import domain_records
from infoseek.inspect_tasks.planning_mt import (
    planning_mt,
    planning_mt_full,
    planning_mt_k_prediction,
    planning_mt_mss,
)
from infoseek.inspect_tasks.planning_q import (
    planning_q,
    planning_q_detection,
    planning_q_well_specified,
)
from infoseek.records import engine_from_record
from infoseek.scorers.planning import plan_metrics
from infoseek.stored_forms import sample_problem, turns_from_store
from tests.support.common import assert_eval_success, forbid_tokenizer, text_output, tool_output


@pytest.fixture(autouse=True)
def _cache(monkeypatch, tmp_path_factory) -> None:
    monkeypatch.setenv("INFOSEEK_CACHE_DIR", str(tmp_path_factory.getbasetemp() / "cache"))


def run(task, model: str, log_dir: Path, **kwargs: Any) -> EvalLog:
    with forbid_tokenizer():
        [log] = eval(task, model=model, log_dir=str(log_dir), display="none", **kwargs)
    assert_eval_success(log)
    return log


def values(sample) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for score in sample.scores.values():
        out.update(score.value if isinstance(score.value, dict) else {})
    return out


@pytest.mark.parametrize("task, prompt", [(planning_q, "zs"), (planning_q_detection, "fs"),
                                          (planning_q_well_specified, "cot")])
def test_optimal_solves_every_single_turn_task(tmp_path, task, prompt) -> None:
    log = run(task(per_k=6, prompt=prompt), "infoseek/optimal", tmp_path)
    assert log.samples
    for sample in log.samples:
        assert values(sample)["correct"] == 1.0, sample.id
        assert values(sample)["invalid"] == 0.0


@pytest.mark.parametrize("task", [planning_q, planning_q_well_specified])
def test_ties_default_is_the_published_convention_and_plan_set_still_runs(tmp_path,
                                                                          task) -> None:
    """The default `-T ties=first_plan`: the problems of builder planning-q, whose target is
    one plan per state (QuestBench's convention); `-T ties=plan_set`: builder
    planning-q-plan-set, whose target is the set of optimal plans. Optimal scores 1.0 on
    both, and the two conventions pose different problems."""
    default = run(task(per_k=3), "infoseek/optimal", tmp_path / "default")
    plan_set = run(task(per_k=3, ties="plan_set"), "infoseek/optimal", tmp_path / "set")
    assert default.eval.task_args["ties"] == "first_plan"
    for sample in default.samples:
        assert sample.id.startswith("planning-q-s0-"), sample.id
        assert sample_problem(sample.metadata)["engine"]["ties"] == "first_plan"
        assert values(sample)["correct"] == 1.0, sample.id
    for sample in plan_set.samples:
        assert sample.id.startswith("planning-q-plan-set-s0-"), sample.id
        assert "ties" not in sample_problem(sample.metadata)["engine"]
        assert values(sample)["correct"] == 1.0, sample.id
    assert [sample_problem(s.metadata)["target_values"] for s in default.samples] != \
        [sample_problem(s.metadata)["target_values"] for s in plan_set.samples]


def test_an_unknown_ties_value_fails_in_one_line() -> None:
    from infoseek.inspect_tasks.task_parameters import TaskParameterError

    with pytest.raises(TaskParameterError) as caught:
        planning_q(per_k=1, ties="set")
    assert str(caught.value) == "-T ties must be one of plan_set, first_plan; got 'set'"


def test_question_options_are_every_atom_and_no_question(tmp_path) -> None:
    log = run(planning_q(per_k=7, mix_well_specified=True), "infoseek/optimal", tmp_path)
    for sample in log.samples:
        record = sample_problem(sample.metadata)
        blocks = record["engine"]["blocks"]
        assert len(sample.metadata["choices"]) == (blocks + 1) ** 2 + 1
        assert "Is (on a b) true?" in str(sample.input)
    assert {s.metadata["variant"] for s in log.samples} == {"underspecified",
                                                           "well_specified"}


def test_bfs_references_credit_exactly_the_rows_within_their_depth(tmp_path) -> None:
    """bfs-D is right on a sample iff the row's published depth (``depth``: the shorter
    plan of a problem, the proposing path of a "No questions needed" row) is within D,
    as QuestBench's BFS baseline counts; otherwise it gives no answer (``no_action``),
    never a lucky guess. So its share correct is the split's share within depth D."""
    scores = {}
    for depth in (5, 10):
        log = run(planning_q(per_k=40, seed=3), f"infoseek/bfs-{depth}", tmp_path)
        for sample in log.samples:
            record = sample_problem(sample.metadata)
            within = record["difficulty"]["depth"] <= depth
            assert values(sample)["correct"] == float(within), (sample.id, depth)
            assert values(sample)["invalid"] == float(not within), sample.id
            if not within:
                assert sample.scores["single_turn_scorer"].explanation == "no_action"
        scores[depth] = sum(values(s)["correct"] for s in log.samples) / len(log.samples)
    assert {record["k"] for record in map(sample_problem, (s.metadata for s in log.samples))
            } == {0, 1}
    assert 0 < scores[5] < scores[10]


@pytest.mark.parametrize("fmt", ["tool", "text"])
def test_optimal_seeks_to_sufficiency_and_plans_optimally_at_every_k(tmp_path, fmt) -> None:
    log = run(planning_mt(k=[2, 3, 4], per_k=1, format=fmt), "infoseek/optimal", tmp_path)
    assert {s.metadata["k"] for s in log.samples} == {2, 3, 4}
    for sample in log.samples:
        got = values(sample)
        assert got["final_sufficiency"] == got["accuracy"] == 1.0, sample.id
        assert got["plan_exact"] == got["plan_credit"] == got["plan_valid"] == 1.0
        assert got["invalid_total"] == 0.0
        assert got["total_turns"] <= sample.metadata["k"]


def test_random_is_lower_than_optimal(tmp_path) -> None:
    task = planning_mt(k=[2, 3], per_k=2, seed=1)
    best = run(task, "infoseek/optimal", tmp_path)
    floor = run(planning_mt(k=[2, 3], per_k=2, seed=1), "infoseek/random", tmp_path)

    def mean(log, key):
        return sum(values(s)[key] for s in log.samples) / len(log.samples)

    assert mean(floor, "final_sufficiency") < mean(best, "final_sufficiency") == 1.0
    assert mean(floor, "plan_exact") < 1.0


def test_full_information_and_problem_level_tasks(tmp_path) -> None:
    full = run(planning_mt_full(k=[2], per_k=1), "infoseek/optimal", tmp_path)
    assert all(values(s)["plan_exact"] == 1.0 for s in full.samples)
    for task in (planning_mt_k_prediction(k=[2, 3], per_k=1),
                 planning_mt_mss(k=[2, 3], per_k=1)):
        log = run(task, "infoseek/optimal", tmp_path)
        for sample in log.samples:
            got = values(sample)
            assert got.get("k_correct", got.get("exact", got.get("accuracy"))) == 1.0, got


BAD_PLANS = {
    "wrong_format": "Answer: unstack a b\nput-down a",
    "unknown_block": "Answer: (unstack z a)",
    "hedge": "Answer: (stack a b) or (stack b a)",
    "self_correction": "Answer: (pick-up a)\nActually, (pick-up b)",
    "wrong_arity": "Answer: (stack a)",
    "no_action": "Answer: I would move some blocks around.",
    # issue 30, class 3: an unknown action word among the steps, an unbracketed extra
    # step after the plan, a percentage after a blank line
    "unknown_action_inserted": "Answer: (unstack a b)\n(move a b)\n(put-down a)",
    "unknown_action_bare": "Answer: (unstack a b)\nhover a\n(put-down a)",
    "extra_bare_step": "Answer: (unstack a b)\n(put-down a)\nthen pick-up b",
    "percentage_later": "Answer: (unstack a b)\n(put-down a)\n\nI am 80% sure.",
}


@pytest.mark.parametrize("name", sorted(BAD_PLANS))
def test_unreadable_plans_are_invalid_answers_with_a_reason(tmp_path, name) -> None:
    outputs = [text_output(BAD_PLANS[name])] * 12
    model = get_model("mockllm/model", custom_outputs=outputs)
    log = run(planning_mt(k=[1], per_k=1, format="text", max_turns=1), model, tmp_path,
              limit=1)
    [sample] = log.samples
    turns = turns_from_store(sample.store["infoseek:turns"])
    assert all(t["action"] != "answer" for t in turns)
    assert {t["reason"] for t in turns} <= {"malformed", "ambiguous"}
    got = values(sample)
    assert got["accuracy"] == got["plan_exact"] == got["plan_credit"] == 0.0
    assert got["plan_answered"] == 0.0


TOOL_PLANS = {
    "hedge_list": ["(stack a b) or (stack b a)"],
    "unknown_block": ["(pick-up z)"],
    "not_a_list": 42,
    "nested": [["(pick-up a)"]],
    "two_per_item": ["(pick-up a) (stack a b)"],
    "unknown_action_inserted": ["(unstack a b)", "(move a b)", "(put-down a)"],
    "percentage_in_text": "(unstack a b)\n(put-down a)\n\n80%",
}


@pytest.mark.parametrize("name", sorted(TOOL_PLANS))
def test_unreadable_tool_answers_are_invalid(tmp_path, name) -> None:
    outputs = [tool_output(("answer", {"value": TOOL_PLANS[name]}))] * 12
    model = get_model("mockllm/model", custom_outputs=outputs)
    log = run(planning_mt(k=[1], per_k=1, max_turns=1), model, tmp_path, limit=1)
    [sample] = log.samples
    turns = turns_from_store(sample.store["infoseek:turns"])
    assert all(t["action"] != "answer" for t in turns)
    assert {t["reason"] for t in turns} <= {"malformed", "ambiguous", "bad_arguments"}
    assert values(sample)["plan_credit"] == values(sample)["accuracy"] == 0.0


def test_an_inapplicable_plan_is_invalid_and_earns_nothing() -> None:
    [record] = domain_records("planning-mt", ks=[1], per_k=1, seed=0)
    value = record["target_values"][0]
    turns = [{"turn": 1, "action": "answer", "answer": ["(stack a b)", "(stack a b)"],
              "queries": []}]
    got, note = plan_metrics(record, turns, value)
    assert got["plan_valid"] == got["plan_credit"] == got["plan_exact"] == 0.0
    assert "does not apply" in note
    turns[0]["answer"] = "(stack a b)"  # not a list: never credit, never a crash
    assert plan_metrics(record, turns, value)[0]["plan_answered"] == 0.0


SMALL_SEED = 97
"""A seed no other test builds: the small builds below are cached under the default
builder's key."""


@pytest.fixture
def small_split(monkeypatch):
    """The built split over 4 and 5 blocks only (the backward search over 7 blocks takes a
    minute): 7 problems (built in this process), pair rows and "No questions needed" rows."""
    from infoseek.builders.planning import planning_q as builder

    monkeypatch.setitem(builder.build_split.__kwdefaults__, "sizes", (4, 5))
    return {"per_k": 7, "seed": SMALL_SEED}


@pytest.mark.parametrize("task", [planning_q, planning_q_detection, planning_q_well_specified])
def test_no_questions_needed_rows_are_well_specified_samples(tmp_path, small_split,
                                                              task) -> None:
    """A built "No questions needed" row (k = 0) is one well-specified sample in every
    protocol: in question selection its one correct pick is "No questions needed", and
    optimal scores 1.0 on it as on the problems."""
    from infoseek.single_turn import NO_QUESTION

    log = run(task(**small_split), "infoseek/optimal", tmp_path)
    rows = [s for s in log.samples if sample_problem(s.metadata)["k"] == 0
            and "restored" not in sample_problem(s.metadata)]  # not a restored variant
    assert rows and len(rows) < len(log.samples)
    for sample in rows:
        assert sample.metadata["variant"] == "well_specified"
        assert sample.metadata["problem_id"] == sample.id
        if task is planning_q:
            assert sample.metadata["correct"] == [NO_QUESTION]
    assert all(values(s)["correct"] == 1.0 for s in log.samples)


def test_sample_depth_is_the_shorter_plan_and_max_depth_the_longer(tmp_path,
                                                                   small_split) -> None:
    log = run(planning_q(**small_split), "infoseek/optimal", tmp_path)
    for sample in log.samples:
        record = sample_problem(sample.metadata)
        engine = engine_from_record(record)
        steps = sorted(engine.steps_of(v) for v in engine.target_values())
        assert sample.metadata["depth"] == steps[0] == record["difficulty"]["optimal_depth"]
        assert sample.metadata["axes"]["max_depth"] == steps[-1]


def test_ties_with_a_source_is_refused_in_one_line(tmp_path) -> None:
    from infoseek.inspect_tasks.task_parameters import TaskParameterError

    source = tmp_path / "records.jsonl"
    source.write_text("")
    for task in (planning_q, planning_q_detection, planning_q_well_specified):
        with pytest.raises(TaskParameterError) as caught:
            task(source=str(source), ties="plan_set")
        assert str(caught.value).startswith("-T ties=plan_set chooses how a built split")
        assert "\n" not in str(caught.value)
