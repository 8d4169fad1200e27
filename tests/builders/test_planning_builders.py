"""The planning builders: byte-identical across runs and hash seeds, the published
Planning-Q shape, validators that catch a tampered record, and the brute-force referee
on built records (a few here; a larger split in the slow test). Also the plan reader on
the outputs models write."""

from __future__ import annotations

import collections
import copy
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from infoseek.answers import answer_spec
from infoseek.answers.sequence import EMPTY_SEQUENCE
from infoseek.builders.planning import planning_mt, planning_q
from infoseek.engines.planning.engine import atom_text
from infoseek.engines.planning.plan_kind import KIND, check_plan, read_plan
from infoseek.records import check_record, engine_from_record
from tests.support.planning_referee import Referee

ROOT = Path(__file__).resolve().parents[2]
BUILD = ("import json, sys; from infoseek.builders.planning import planning_q, planning_mt;"
         "r = planning_q.build_split(seed=5, per_k=6, workers=1)"
         " + planning_mt.build_split(seed=5, per_k=1, ks=[2], workers=1);"
         "sys.stdout.write(json.dumps(r, sort_keys=True))")


def test_builds_are_byte_identical_across_hash_seeds() -> None:
    outputs = [subprocess.run([sys.executable, "-c", BUILD], capture_output=True, text=True,
                              cwd=ROOT, env={**os.environ, "PYTHONHASHSEED": seed},
                              check=True).stdout for seed in ("0", "4242")]
    assert outputs[0] == outputs[1] and len(json.loads(outputs[0])) == 7


@pytest.fixture(scope="module")
def q_records() -> list[dict]:
    return planning_q.build_split(seed=2, per_k=12, workers=1)


def test_planning_q_has_the_published_shape(q_records) -> None:
    for record in q_records:
        blocks = record["engine"]["blocks"]
        assert 4 <= blocks <= 7 and record["k"] == 1
        assert len(record["question_options"]) == (blocks + 1) ** 2
        assert record["difficulty"]["num_vars"] == (blocks + 1) ** 2
        assert 1 <= record["difficulty"]["depth"] <= 20
        assert len(record["target_values"]) == 2
        check_record(record)
        assert planning_q.validate_planning_q_record(record) == []


def test_depth_is_the_shorter_plan_as_published_and_max_depth_the_longer(q_records) -> None:
    """QuestBench's released ``min_depth`` is the shorter of the two groups' optimal plans;
    ``max_depth`` keeps the longer one (the backward-search level of the missing atom)."""
    from infoseek.single_turn import backward_level

    differs = 0
    for record in q_records:
        engine = engine_from_record(record)
        steps = sorted(engine.steps_of(v) for v in record["target_values"])
        axes = record["difficulty"]
        assert (axes["depth"], axes["max_depth"]) == (steps[0], steps[-1])
        assert record["derivation_depth"] == axes["depth"]
        assert axes["max_depth"] == backward_level(engine, record["mss_family"][0][0])
        differs += axes["depth"] < axes["max_depth"]
    assert differs  # the two axes are not the same number under another name
    swapped = copy.deepcopy(next(r for r in q_records
                                 if r["difficulty"]["depth"] < r["difficulty"]["max_depth"]))
    axes = swapped["difficulty"]
    axes["depth"], axes["max_depth"] = axes["max_depth"], axes["depth"]
    swapped["derivation_depth"] = axes["depth"]
    assert any("depth" in e for e in planning_q.validate_planning_q_record(swapped))


def test_bfs_references_find_an_atom_exactly_within_max_depth(q_records) -> None:
    """What `planning_q.shape_lines` says of the bfs-D reference models: each sufficient
    atom's backward-search level is the longer plan, so bfs-D finds one iff max_depth <= D."""
    from infoseek.single_turn import bfs_pick, sufficient_options

    for record in q_records:
        engine = engine_from_record(record)
        options = record["question_options"]
        good = sufficient_options(engine, options)
        for depth in (3, 5, 7, 10):
            found = bfs_pick(engine, options, good, depth) is not None
            assert found == (record["difficulty"]["max_depth"] <= depth), record["id"]


def test_infoseek_build_prints_the_shape_beside_questbench(tmp_path, capsys) -> None:
    from infoseek.cli import main

    out = tmp_path / "q.jsonl"
    assert main(["build", "planning-q", "--per-k", "4", "--seed", "2", "--out", str(out),
                 "--quiet", "--workers", "1"]) == 0
    printed = capsys.readouterr().out
    records = [json.loads(line) for line in out.read_text().splitlines()]
    assert len(records) == 4
    depths = [r["difficulty"]["depth"] for r in records]
    mean = sum(depths) / 4
    assert f"depth d (shorter plan): {min(depths)}-{max(depths)}, mean {mean:.2f}  " \
           "[1-14, mean 6.9]" in printed
    assert "E_BF:" in printed and "[3-33, mean 18.5]" in printed
    assert '"No questions needed" rows: 0.0%' in printed
    assert "[BFS baseline 93.9%]" in printed and "blocks b: " in printed


def test_planning_mt_reports_depth_both_ways() -> None:
    records = planning_mt.build_split(seed=4, per_k=2, ks=[2], workers=1)
    for record in records:
        engine = engine_from_record(record)
        steps = [engine.steps_of(v) for v in record["target_values"]]
        assert record["difficulty"]["depth"] == min(steps)
        assert record["difficulty"]["max_depth"] == max(steps)
        assert "max_plan_steps" not in record["difficulty"]
        wrong = copy.deepcopy(record)
        wrong["difficulty"]["depth"] = wrong["difficulty"]["max_depth"] + 1
        assert planning_mt.validate_planning_mt_record(wrong)


def test_validators_catch_tampered_records(q_records) -> None:
    record = q_records[0]
    wrong = copy.deepcopy(record)
    wrong["mss_family"] = wrong["mss_family"][:1] + [["handempty"]] \
        if ["handempty"] not in wrong["mss_family"] else wrong["mss_family"][1:]
    assert planning_q.validate_planning_q_record(wrong)
    missing = next(a for a in record["question_options"] if a not in record["observed"]
                   and [a] not in record["mss_family"])
    told = copy.deepcopy(record)
    told["observed"][record["mss_family"][0][0]] = True
    told["queryable"] = [v for v in told["queryable"] if v != record["mss_family"][0][0]]
    assert planning_q.validate_planning_q_record(told)
    deeper = copy.deepcopy(record)
    deeper["difficulty"]["depth"] += 1
    assert planning_q.validate_planning_q_record(deeper)
    [mt] = planning_mt.build_split(seed=2, per_k=1, ks=[2], workers=1)
    assert planning_mt.validate_planning_mt_record(mt) == []
    shifted = copy.deepcopy(mt)
    shifted["k"] = 3
    assert planning_mt.validate_planning_mt_record(shifted)
    assert missing  # the record has unobserved atoms that decide nothing


def labelled_plan(value: str) -> list[str]:
    label = KIND.label(value)
    return [] if label == EMPTY_SEQUENCE else label.split("\n")


def referee_agrees(record: dict) -> bool:
    """The referee recomputes the record: its plan sets (as explicit sets of action
    tuples, matched to the engine's values one to one), the sufficient atoms, the degree
    and the MSS family (multi-turn records)."""
    spec = record["engine"]
    referee = Referee(spec["blocks"], tuple(spec["goal"]),
                      first_plan=spec.get("ties") == "first_plan")
    told = {atom_text(v): x for v, x in record["observed"].items()}
    engine = engine_from_record(record)
    states = referee.consistent(told)
    by_value: dict[str, set] = {}
    for index in engine.states().tolist():
        state = frozenset(engine.space.true_atoms(index))
        by_value.setdefault(engine.value_of_state(index), set()).add(referee.target(state))
    if sorted(by_value) != sorted(record["target_values"]) or any(
            len(sets) != 1 for sets in by_value.values()):
        return False
    if referee.first_plan and any(
            list(next(iter(sets))) != labelled_plan(value) for value, sets in by_value.items()):
        return False  # the value's plan is the referee's smallest optimal plan
    if len({referee.target(s) for s in states}) != len(by_value) or len(states) != len(
            engine.states()):
        return False
    open_atoms = [v for v in record["variables"] if v not in record["observed"]
                  and v != record["target"]]
    if record["k"] == 1:
        sufficient = sorted(v for v in open_atoms if referee.sufficient(told, [atom_text(v)]))
        return sufficient == sorted(m[0] for m in record["mss_family"])
    for member in record["mss_family"]:
        if not referee.sufficient(told, [atom_text(v) for v in member]):
            return False
    return all(not referee.sufficient(told, [atom_text(v) for v in smaller])
               for smaller in __import__("itertools").combinations(open_atoms, record["k"] - 1))


def test_the_referee_agrees_on_built_records(q_records) -> None:
    small = [r for r in q_records if r["engine"]["blocks"] <= 5][:4]
    assert small and all(referee_agrees(r) for r in small)
    mt = [r for r in planning_mt.build_split(seed=3, per_k=2, ks=[2], workers=1)
          if r["engine"]["blocks"] <= 5]
    assert all(referee_agrees(r) for r in mt)


@pytest.mark.slow
def test_the_referee_agrees_on_every_record_of_a_larger_build() -> None:
    records = planning_q.build_split(seed=0, per_k=80, workers=2)
    records += planning_mt.build_split(seed=0, per_k=3, ks=[2, 3], workers=2)
    assert all(referee_agrees(r) for r in records)


def test_first_plan_ties_build_the_published_convention_and_the_referee_agrees() -> None:
    """``ties = first_plan``: a state's target is its first optimal plan (QuestBench's one
    BFS plan per state, the order pinned); records validate, agree with the referee's own
    smallest plan, score only that plan as optimal, and differ from the plan-set build of
    the same seed where the convention matters."""
    records = planning_q.build_split(seed=2, per_k=12, workers=1, ties="first_plan")
    assert [r["id"] for r in records][:1] == ["planning-q-first-plan-s2-k1-0000"]
    for record in records:
        assert record["engine"]["ties"] == "first_plan"
        assert all(v.endswith(("step", "steps")) and ": first optimal plan of " in v
                   for v in record["target_values"])
        check_record(record)
        assert planning_q.validate_planning_q_record(record) == []
    small = [r for r in records if r["engine"]["blocks"] <= 5][:4]
    assert small and all(referee_agrees(r) for r in small)
    plan_set = planning_q.build_split(seed=2, per_k=12, workers=1)
    assert all("ties" not in r["engine"] for r in plan_set)
    assert [r["observed"] for r in records] != [r["observed"] for r in plan_set]
    with pytest.raises(ValueError, match="ties must be one of plan_set, first_plan"):
        planning_q.build_split(seed=2, per_k=1, workers=1, ties="lexicographic")


def test_the_other_convention_classifies_records_by_the_other_validator() -> None:
    """`under_other_ties`: a record called ``same`` passes the other convention's validator
    once its engine says so; one called ``well-specified`` has one value there; the
    plan-set build of seed 0 has records that exist only because of its convention."""
    seen = collections.Counter()
    for ties in ("plan_set", "first_plan"):
        for record in planning_q.build_split(seed=0, per_k=40, workers=1, ties=ties):
            verdict = planning_q.under_other_ties(record)
            seen[ties, verdict] += 1
            switched = copy.deepcopy(record)
            if ties == "plan_set":
                switched["engine"]["ties"] = "first_plan"
            else:
                del switched["engine"]["ties"]
            engine = engine_from_record(switched)
            switched["target_values"] = list(engine.domain(engine.target))
            errors = planning_q.validate_planning_q_record(switched)
            assert (errors == []) == (verdict == "same"), (record["id"], verdict, errors)
            if verdict == "well-specified":
                assert engine.is_known()
    assert seen["plan_set", "well-specified"] > 0 and seen["plan_set", "same"] > 30


def test_a_first_plan_value_credits_only_its_own_plan() -> None:
    """A state with two optimal plans: under the plan-set value both are optimal; under the
    first-plan value only the smaller one is, the other gets edit-distance credit."""
    from infoseek.engines.planning.engine import PlanningEngine

    start = {"on a b": True, "clear a": True, "ontable b": True, "on c d": True,
             "clear c": True, "ontable d": True, "handempty": True}
    goal = ["(ontable a)", "(ontable c)"]
    both = PlanningEngine(4, goal, start)
    first = PlanningEngine(4, goal, start, ties="first_plan")
    [set_value], [plan_value] = both.target_values(), first.target_values()
    plans = both.analysis.optimal_plans(int(both.states()[0]))
    assert len(plans) == 2 and plans[0] < plans[1]
    assert all(check_plan(p, set_value).optimal for p in plans)
    assert check_plan(plans[0], plan_value).optimal
    later = check_plan(plans[1], plan_value)  # the same actions, the towers swapped
    assert not later.optimal and later.applicable and later.credit == 0.0
    assert check_plan(plans[0][:-1], plan_value).credit == 0.75  # one action short of 4
    assert KIND.label(plan_value).split("\n") == plans[0]


def test_an_unknown_ties_value_is_refused_in_the_record() -> None:
    record = copy.deepcopy(planning_q.build_split(seed=2, per_k=1, workers=1)[0])
    record["engine"]["ties"] = "random"
    with pytest.raises(Exception, match="'ties' must be one of plan_set, first_plan"):
        check_record(record)


# ------------------------------------------------------------------ reading plans

SPEC = answer_spec("plan", values=["goal (on b a) from (clear a) (clear b) (clear c) "
                                   "(clear d) (handempty) (ontable a) (ontable b) "
                                   "(ontable c) (ontable d): 1 optimal plan of 2 steps"])


@pytest.mark.parametrize("text, plan", [
    ("(pick-up b)\n(stack b a)", ["(pick-up b)", "(stack b a)"]),
    ("1. (pick-up b)\n2. (stack b a)", ["(pick-up b)", "(stack b a)"]),
    ("- (PICK-UP B)\n- (stack b a)  because a is clear", ["(pick-up b)", "(stack b a)"]),
    ("(pick-up b) (stack b a)", ["(pick-up b)", "(stack b a)"]),
    ("(pick-up b), then (stack b a)", ["(pick-up b)", "(stack b a)"]),
    ('["(pick-up b)", "(stack b a)"]', ["(pick-up b)", "(stack b a)"]),
    ("(pickup b)\n(stack b a)", ["(pick-up b)", "(stack b a)"]),
    ("none", []),
])
def test_plans_are_read_in_the_forms_models_write(text, plan) -> None:
    reading = KIND.read_text(text, SPEC)
    assert reading.valid and reading.value == plan
    assert KIND.compare(plan, SPEC_VALUE) == (1.0 if plan else 0.0)


SPEC_VALUE = ("goal (on b a) from (clear a) (clear b) (clear c) (clear d) (handempty) "
              "(ontable a) (ontable b) (ontable c) (ontable d): 1 optimal plan of 2 steps")


@pytest.mark.parametrize("text, reason", [
    ("unstack a b\nput-down a", "malformed"),
    ("(unstack z a)", "malformed"),
    ("(stack a)", "malformed"),
    ("(stack a a)", "malformed"),
    ("(fly a)", "malformed"),
    ("(stack a b) or (stack b a)", "ambiguous"),
    ("(pick-up a)\nActually, (pick-up b)", "ambiguous"),
    ("maybe (pick-up a)", "ambiguous"),
    ("(pick-up a) / (pick-up b)", "ambiguous"),
    ("", "empty"),
    ("I am not sure what to do", "malformed"),
    ("Move the blocks.", "malformed"),
])
def test_bad_plans_are_invalid_with_a_reason(text, reason) -> None:
    reading = KIND.read_text(text, SPEC)
    assert not reading.valid and reading.reason == reason
    assert read_plan(text, {"a", "b", "c", "d"}).reason == reason


@pytest.mark.parametrize("text", [
    "(pick-up b)\n(stack b a)\nprobably",
    "I think (pick-up b)\n(stack b a)",
    "(pick-up b)\n(stack b a)\nScratch that.",
    "(pick-up b)\n(stack b a), just a guess",
])
def test_a_hedged_or_retracted_plan_is_ambiguous(text) -> None:
    """The hedges every answer kind refuses (issue 18: `read_undoubted`) hold for plans,
    in the text and the tool format."""
    assert KIND.read_text(text, SPEC).reason == "ambiguous"
    assert KIND.read_tool(text, SPEC).reason == "ambiguous"


def test_credit_is_partial_for_applicable_plans_and_zero_for_inapplicable_ones() -> None:
    assert check_plan(["(pick-up b)", "(stack b a)"], SPEC_VALUE).optimal
    detour = check_plan(["(pick-up c)", "(put-down c)", "(pick-up b)", "(stack b a)"],
                        SPEC_VALUE)
    assert detour.applicable and not detour.optimal and detour.credit == 0.5
    assert check_plan(["(stack b a)"], SPEC_VALUE).credit == 0.0  # b is not held
    assert check_plan(["(pick-up b)"], SPEC_VALUE).credit == 0.5
    for junk in (None, "x", [1, 2], [["(pick-up b)"]]):
        assert KIND.compare(junk, SPEC_VALUE) == 0.0
    assert KIND.compare(["(pick-up b)"], "not a plan set") == 0.0
    assert KIND.label(SPEC_VALUE) == "(pick-up b)\n(stack b a)"
    assert KIND.read_tool(["(pick-up b)", "(stack b a)"], SPEC).value == ["(pick-up b)",
                                                                          "(stack b a)"]
    assert KIND.read_tool(3, SPEC).reason == "bad_arguments"
