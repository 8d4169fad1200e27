"""End-to-end runs of the math tasks (`gsme_mt_ext`, `gsme_mt`, `gsm_mt` and their
variants): real `inspect_ai.eval` calls with the reference models, fully offline."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from inspect_ai import Task, eval
from inspect_ai.log import EvalLog

from infoseek.builders.datasets import domain_records, full_information_record
from infoseek.builders.math.gsme_text import CANDIDATES_HEADING, render_equations
from infoseek.domains import get_domain
from infoseek.inspect_tasks import _registry
from infoseek.inspect_tasks.gsm_mt import gsm_mt, gsm_mt_full
from infoseek.inspect_tasks.gsme_mt import gsme_mt, gsme_mt_full, gsme_mt_k_prediction, gsme_mt_mss
from infoseek.inspect_tasks.gsme_mt_ext import (
    gsme_mt_ext,
    gsme_mt_ext_full,
    gsme_mt_ext_k_prediction,
    gsme_mt_ext_mss,
)
from infoseek.oracles import refusals
from infoseek.scorers.group_metric import log_metrics
from infoseek.solvers.seek import prompts
from infoseek.stored_forms import problem_from_store, sample_problem, turns_from_store
from tests.support.common import assert_eval_success

SMALL = {"k": [1, 2], "per_k": 2}


pytestmark = pytest.mark.usefixtures("no_tokenizer")


def run(task: Task, model: str, tmp_path) -> EvalLog:
    [log] = eval(task, model=model, log_dir=str(tmp_path), display="log")
    assert_eval_success(log)
    assert len(log.samples) == 4  # 2 problems per k, k = 1, 2
    return log


def value(sample, name: str) -> float:
    """A value of any of the sample's scorers (metric names do not repeat across them)."""
    merged: dict[str, float] = {}
    for score in sample.scores.values():
        merged.update(score.value)
    return merged[name]


SEEK_TASKS: list[tuple[Callable[..., Task], dict[str, Any]]] = [
    (gsme_mt_ext, {"format": "tool"}),
    (gsme_mt_ext, {"format": "text"}),
    (gsme_mt, {"format": "tool"}),
    (gsm_mt, {"format": "text"}),
]


@pytest.mark.parametrize("factory, options", SEEK_TASKS,
                         ids=[f"{f.__name__}-{o['format']}" for f, o in SEEK_TASKS])
def test_optimal_seek(factory: Callable[..., Task], options: dict[str, Any], tmp_path) -> None:
    log = run(factory(**SMALL, **options), "infoseek/optimal", tmp_path)
    for sample in log.samples:
        assert value(sample, "final_sufficiency") == 1.0, sample.id
        assert value(sample, "accuracy") == 1.0, sample.id
        assert value(sample, "total_turns") <= sample.metadata["k"]
        assert value(sample, "invalid_total") == 0.0
        system = sample.messages[0].text
        assert "quantity" in system and "number" in system
        stored = problem_from_store(sample.store["infoseek:problem"])
        assert "answer" not in stored and "hidden_world" not in stored
        # held-out values are not in the prompt
        prompt = sample.input if isinstance(sample.input, str) else ""
        for leaf in sample_problem(sample.metadata)["mss_family"][0]:
            assert f"\n{leaf} = " not in prompt
    assert log_metrics(log)["accuracy"] == 1.0


@pytest.mark.parametrize("factory", [gsme_mt_ext_full, gsme_mt_full, gsm_mt_full])
def test_optimal_full_information(factory: Callable[..., Task], tmp_path) -> None:
    log = run(factory(**SMALL), "infoseek/optimal", tmp_path)
    for sample in log.samples:
        assert value(sample, "accuracy") == 1.0, sample.id
        assert value(sample, "total_turns") == 0.0
        assert sample.metadata["k"] in (1, 2)


@pytest.mark.parametrize("factory", [gsme_mt_ext_k_prediction, gsme_mt_k_prediction])
def test_optimal_k_prediction(factory: Callable[..., Task], tmp_path) -> None:
    log = run(factory(**SMALL), "infoseek/optimal", tmp_path)
    for sample in log.samples:
        assert value(sample, "accuracy") == 1.0, sample.id
        assert "quantities" in sample.messages[0].text


@pytest.mark.parametrize("factory", [gsme_mt_ext_mss, gsme_mt_mss])
def test_optimal_mss(factory: Callable[..., Task], tmp_path) -> None:
    log = run(factory(**SMALL), "infoseek/optimal", tmp_path)
    for sample in log.samples:
        assert value(sample, "exact") == 1.0, sample.id


def test_random_seek(tmp_path) -> None:
    log = run(gsme_mt_ext(**SMALL, max_turns=3), "infoseek/random", tmp_path)
    for sample in log.samples:
        turns = turns_from_store(sample.store["infoseek:turns"])
        assert turns[-1]["action"] == "answer"
        assert all(q["valid"] for t in turns for q in t["queries"])
        assert 0.0 <= value(sample, "accuracy") <= 1.0


def test_equation_rendering() -> None:
    [record] = domain_records("gsme-mt-ext", ks=[2], per_k=1, seed=0)
    text = render_equations(record)
    for name, rhs in record["engine"]["equations"]:
        assert f"{name} = {rhs}" in text
    for name, v in record["observed"].items():
        assert f"\n{name} = {v}" in text
    for name in record["queryable"]:
        assert f"\n{name} = " not in text
    assert f"Goal: find the value of {record['target']}" in text
    asked = text.split(CANDIDATES_HEADING + ": ")[1].split(", ")
    assert set(asked) == {c["name"] for c in record["candidate_queries"]}
    full = render_equations(full_information_record(record))
    for name in record["queryable"]:
        assert f"\n{name} = " in full


def test_word_problem_states_the_asking_rule_before_listing() -> None:
    """gsm_mt lists its candidates under the heading that says derived ones are refused."""
    task = gsm_mt(k=[1], per_k=1, format="text")
    text = task.dataset[0].input
    assert CANDIDATES_HEADING + ": " in text
    assert "Quantities you may ask about" not in text


def test_math_prompts_are_separate() -> None:
    logic_words, math_words = get_domain("logic").wording, get_domain("math").wording
    assert "attribute name" in refusals.reminder(logic_words, "tool")
    assert "number" in refusals.reminder(math_words, "text")
    logic = prompts.seek_system_prompt(logic_words, entity="Alice", target="kind", fmt="text",
                                       per_turn=1, max_turns=3, budget=False,
                                       force_ask_k=None)
    assert "Question: Is Alice <attribute>?" in logic and "quantity" not in logic
    math = prompts.seek_system_prompt(math_words, entity="Alice", target="T", fmt="text",
                                      per_turn=1, max_turns=3, budget=False, force_ask_k=None)
    assert "Question: What is <quantity name>?" in math and "Answer: <number>" in math


def test_math_tasks_are_registered() -> None:
    for name in ("gsme_mt_ext", "gsme_mt_ext_full", "gsme_mt_ext_k_prediction",
                 "gsme_mt_ext_mss", "gsme_mt", "gsme_mt_full", "gsme_mt_k_prediction",
                 "gsme_mt_mss", "gsm_mt", "gsm_mt_full"):
        assert name in _registry.PACKAGED_TASKS


@pytest.mark.parametrize("factory", [gsme_mt_ext, gsme_mt])
def test_random_falls_with_k(factory: Callable[..., Task], tmp_path) -> None:
    """Enough askable distractor leaves (protocols §5.3) that asking at random within
    the 10-turn cap rarely finds every relevant leaf, less so the larger k."""
    [log] = eval(factory(k=[1, 4], per_k=10), model="infoseek/random",
                 log_dir=str(tmp_path), display="log")
    assert log.status == "success", log.error
    for sample in log.samples:
        assert len(sample_problem(sample.metadata)["queryable"]) >= 15
    metrics = log_metrics(log)
    k1 = metrics["final_sufficiency_k1"]
    k4 = metrics["final_sufficiency_k4"]
    assert k4 < k1 < 1.0
