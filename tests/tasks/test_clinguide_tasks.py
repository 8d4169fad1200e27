"""ClinGuide-MT end to end: the task (distractor levels, closed and open book), the
reference models (optimal asks each instance's hidden path in order; reversed covers it
in the wrong order; random is the floor), the per-instance required order and the
coverage x order strata; the problem-level tasks (k-prediction, MSS identification)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from inspect_ai import eval
from inspect_ai.log import EvalLog
from inspect_ai.scorer import SampleScore, Score

from infoseek.inspect_tasks.clinguide_mt import (
    clinguide_mt,
    clinguide_mt_k_prediction,
    clinguide_mt_mss,
)
from infoseek.inspect_tasks.task_parameters import TaskParameterError
from infoseek.scorers.group_metric import log_metrics
from infoseek.scorers.ordered import stratified_accuracy, stratum_values
from infoseek.scorers.problem_metrics import parse_variable_list
from infoseek.scorers.seek import seek_values
from infoseek.scorers.seek_metrics import query_metrics, required_order_of
from infoseek.stored_forms import sample_problem, turns_from_store
from tests.support.common import assert_eval_success, forbid_tokenizer

SMALL = {"per_k": 3, "seed": 0}


@pytest.fixture(autouse=True)
def _cache(monkeypatch, tmp_path_factory) -> None:
    monkeypatch.setenv("INFOSEEK_CACHE_DIR", str(tmp_path_factory.getbasetemp() / "cache"))


def run(model: str, log_dir: Path, **params: Any) -> EvalLog:
    with forbid_tokenizer():
        [log] = eval(clinguide_mt(**{**SMALL, **params}), model=model, log_dir=str(log_dir),
                     display="none")
    assert_eval_success(log)
    return log


def asked(sample) -> list[str]:
    turns = turns_from_store(sample.store["infoseek:turns"])
    return [q["variable"] for t in turns for q in t["queries"] if q["valid"]]


@pytest.mark.parametrize("fmt, distractors", [("tool", 10), ("text", 20)])
def test_optimal_asks_each_instance_path_in_order(tmp_path, fmt, distractors) -> None:
    log = run("infoseek/optimal", tmp_path, format=fmt, distractors=distractors)
    assert {sample_problem(s.metadata)["distractors"] for s in log.samples} == {distractors}
    assert {s.metadata["k"] for s in log.samples} == {1, 2, 3, 4}
    for sample in log.samples:
        problem = sample_problem(sample.metadata)
        assert asked(sample) == problem["required_orders"][sample.target], sample.id
        values = seek_values(sample.scores)
        assert values["order_correctness"] == 1.0, sample.id
        assert values["final_sufficiency"] == values["accuracy"] == 1.0, sample.id
        assert values["invalid_total"] == 0.0
    metrics = log_metrics(log)
    for k in (1, 2, 3, 4):
        assert metrics[f"order_correctness_k{k}"] == 1.0
        assert metrics[f"n_all_correct_k{k}_d{distractors}"] > 0
        assert metrics[f"n_all_incorrect_k{k}_d{distractors}"] == 0.0
    assert metrics["accuracy_all_correct"] == 1.0


def test_reversed_covers_the_path_in_the_wrong_order(tmp_path) -> None:
    log = run("infoseek/reversed", tmp_path, distractors=0)
    metrics = log_metrics(log)
    assert metrics["query_coverage"] == 1.0
    assert metrics["order_correctness_k1"] == 1.0
    for k in (2, 3, 4):
        assert metrics[f"order_correctness_k{k}"] < 1.0
        assert metrics[f"query_coverage_k{k}"] == 1.0
        assert metrics[f"n_all_incorrect_k{k}_d0"] > 0
    for sample in log.samples:
        assert asked(sample) == sample_problem(sample.metadata)["required_order"][::-1]


def test_random_is_the_floor(tmp_path) -> None:
    optimal = log_metrics(run("infoseek/optimal", tmp_path / "o", distractors=20))
    floor = log_metrics(run("infoseek/random", tmp_path / "r", distractors=20, max_turns=4))
    assert floor["final_sufficiency"] < optimal["final_sufficiency"] == 1.0
    assert floor["order_correctness"] < 1.0
    for name in ("accuracy", "final_sufficiency", "query_coverage", "order_correctness"):
        assert 0.0 <= floor[name] <= 1.0


def test_the_book_and_distractor_parameters(monkeypatch) -> None:
    closed = clinguide_mt(**SMALL, k=[2])
    opened = clinguide_mt(**SMALL, k=[2], book="open")
    assert len(closed.dataset) == len(opened.dataset) > 0
    assert "Guideline:" not in closed.dataset[0].input
    assert opened.dataset[0].input.endswith(closed.dataset[0].input)
    assert "Guideline: Low back pain in an adult" in opened.dataset[0].input
    with pytest.raises(TaskParameterError, match="-T distractors must be one of 0, 10, 20"):
        clinguide_mt(distractors=5)
    with pytest.raises(TaskParameterError, match="-T book must be one of closed, open"):
        clinguide_mt(book="shut")


PROBLEM = {"mss_family": [["a", "b", "c"]], "required_order": ["a", "b", "c"],
           "required_orders": {"L1": ["a"], "L3": ["a", "b", "c"]}}


def turns_asking(*names: str) -> list[dict[str, Any]]:
    return [{"turn": i, "action": "ask", "queries": [{"variable": n, "valid": True}]}
            for i, n in enumerate(names, 1)] + [{"action": "answer", "answer": "L1"}]


def test_the_required_order_is_the_instances_own() -> None:
    assert required_order_of(PROBLEM, "L1") == ["a"]
    assert required_order_of(PROBLEM, "L2") == ["a", "b", "c"]  # no entry: the problem's
    assert required_order_of({"mss_family": [["a"]]}, "x") is None
    assert query_metrics(PROBLEM, turns_asking("a"), target_value="L1")[
        "order_correctness"] == 1.0
    # protocols §4: 1 - DL(Q*, Q) / max(|Q*|, |Q|); a transposition costs one edit
    assert query_metrics(PROBLEM, turns_asking("b", "a", "c"), target_value="L3")[
        "order_correctness"] == pytest.approx(1 - 1 / 3)
    assert query_metrics(PROBLEM, turns_asking("c", "b", "a"), target_value="L3")[
        "order_correctness"] == pytest.approx(1 - 2 / 3)


def test_strata_and_their_sizes() -> None:
    cases = [("L3", ("a", "b", "c")), ("L3", ("b", "a", "c")), ("L3", ("a",)),
             ("L1", ("a",)), ("L3", ("c", "x"))]
    scores = []
    for value, names in cases:
        values = stratum_values(PROBLEM, turns_asking(*names), value)
        scores.append(SampleScore(score=Score(value=values),
                                  sample_metadata={"k": 3, "problem": {"distractors": 10}}))
    metrics = stratified_accuracy()(scores)
    assert metrics["n_all_correct"] == 2.0  # (a, b, c) for L3 and (a) for L1
    assert metrics["accuracy_all_correct"] == 0.5  # only the L1 episode answered L1
    assert metrics["n_all_incorrect"] == 1.0
    assert metrics["n_partial_incorrect_k3_d10"] == 2.0
    assert metrics["n_partial_correct"] == 0.0 and "accuracy_partial_correct" not in metrics


# ------------------------------------------------------ the problem-level tasks


def run_task(task, model: str, log_dir: Path) -> EvalLog:
    with forbid_tokenizer():
        [log] = eval(task, model=model, log_dir=str(log_dir), display="none")
    assert_eval_success(log)
    return log


@pytest.mark.parametrize("distractors, book", [(0, "closed"), (20, "open")])
def test_optimal_predicts_every_k(tmp_path, distractors, book) -> None:
    log = run_task(clinguide_mt_k_prediction(**SMALL, distractors=distractors, book=book),
                   "infoseek/optimal", tmp_path)
    assert len(log.samples) == 4 * SMALL["per_k"]  # one sample per problem
    assert {sample_problem(s.metadata)["distractors"] for s in log.samples} == {distractors}
    assert all(("Guideline:" in s.input) == (book == "open") for s in log.samples)
    assert "how many" in log.samples[0].messages[0].text.lower()
    metrics = log_metrics(log)
    assert metrics["invalid"] == 0.0
    for k in (1, 2, 3, 4):
        assert metrics[f"accuracy_k{k}"] == 1.0


@pytest.mark.parametrize("k_given", [False, True])
def test_optimal_names_the_hidden_variables(tmp_path, k_given) -> None:
    log = run_task(clinguide_mt_mss(**SMALL, k_given=k_given), "infoseek/optimal", tmp_path)
    family = [sample_problem(s.metadata)["mss_family"] for s in log.samples]
    assert all(len(f) == 1 for f in family)  # one set: the pathway's hidden variables
    # a hidden variable whose name holds "and" is read as one name
    assert any(" and " in v for f in family for v in f[0])
    for sample in log.samples:
        values = next(iter(sample.scores.values())).value
        assert values["exact"] == values["recall"] == 1.0, sample.id
        assert values["unknown_names"] == 0.0, sample.id
        assert values["predicted_size"] == sample.metadata["k"], sample.id


def test_random_is_the_floor_of_the_problem_level_tasks(tmp_path) -> None:
    k_prediction = log_metrics(run_task(clinguide_mt_k_prediction(**SMALL), "infoseek/random",
                                        tmp_path / "k"))
    mss = log_metrics(run_task(clinguide_mt_mss(**SMALL), "infoseek/random", tmp_path / "m"))
    assert 0.0 <= k_prediction["accuracy"] < 1.0
    assert 0.0 <= mss["exact"] < 1.0 and 0.0 <= mss["jaccard"] <= 1.0


def test_the_problem_level_tasks_check_their_parameters() -> None:
    for factory in (clinguide_mt_k_prediction, clinguide_mt_mss):
        with pytest.raises(TaskParameterError, match="-T distractors must be one of 0, 10, 20"):
            factory(distractors=5)
        with pytest.raises(TaskParameterError, match="-T book must be one of closed, open"):
            factory(book="shut")
    with pytest.raises(TaskParameterError, match="-T max_size must be an integer >= 1"):
        clinguide_mt_mss(max_size=0)


def test_a_name_holding_and_is_one_item_of_a_named_set() -> None:
    names = ["Blood and protein on urine dipstick", "Fever", "Rash"]
    assert parse_variable_list("Answer: Blood and protein on urine dipstick, Fever", names) \
        == (["Blood and protein on urine dipstick", "Fever"], 0)
    assert parse_variable_list("Answer: Fever and Rash", names) == (["Fever", "Rash"], 0)


@pytest.mark.parametrize(("text", "expected"), [
    # decoration and case do not hide the whole name
    ('Answer: "blood and protein on urine dipstick"; `Rash`.',
     (["Blood and protein on urine dipstick", "Rash"], 0)),
    # joined by "and" without a comma, the name is split: its pieces count as unknown
    # names (no credit is invented), the listed one still counts
    ("Answer: Blood and protein on urine dipstick and Fever",
     (["Fever"], 2)),
    # a piece that is no name at all stays unknown, split or not
    ("Answer: Blood and sweat, Fever", (["Fever"], 2)),
    ("Answer: and, ;", ([], 0)),
])
def test_names_holding_and_edge_cases(text: str, expected: tuple) -> None:
    names = ["Blood and protein on urine dipstick", "Fever", "Rash"]
    assert parse_variable_list(text, names) == expected
