"""End-to-end runs of the "or none" withholding oracle (``-T oracle=withholding_all``): the
withheld set closes every route to the target, so "cannot be determined" is the only right
answer. The optimal reference says so and scores 1.0; the random one guesses a value."""

from __future__ import annotations

import pytest
from inspect_ai.log import EvalLog

from infoseek.analysis import is_sufficient
from infoseek.contract import STORE_OPTIONS, UNDETERMINED
from infoseek.inspect_tasks.genereg_mt import genereg_mt
from infoseek.inspect_tasks.gsme_mt import gsme_mt
from infoseek.inspect_tasks.logic_mt import logic_mt
from infoseek.record_views import askable_variables
from infoseek.records import engine_from_record
from infoseek.scorers.group_metric import log_metrics
from infoseek.stored_forms import sample_problem, turns_from_store
from tests.support.withholding import reference_logs, run_eval

LOGIC = {"k": [1, 2], "per_k": 3, "oracle": "withholding_all", "forbid_alternatives": False}


@pytest.fixture(scope="module")
def logs(tmp_path_factory) -> dict[str, EvalLog]:
    return reference_logs(lambda: logic_mt(**LOGIC),
                          tmp_path_factory.mktemp("withholding-all-logs"))


def test_optimal_says_cannot_be_determined_and_random_does_worse(logs) -> None:
    optimal = log_metrics(logs["optimal"])
    random_ = log_metrics(logs["random"])
    assert optimal["accuracy"] == 1.0 and optimal["recognised_unlearnable"] == 1.0
    assert optimal["withheld_asked"] == 0.0
    assert random_["accuracy"] < 1.0 and random_["recognised_unlearnable"] < 1.0
    assert random_["withheld_asked"] > 0.0
    for sample in logs["random"].samples:  # the replies never settle the target
        turns = turns_from_store(sample.store["infoseek:turns"])
        assert turns and not any(t.get("known") for t in turns)
    for sample in logs["optimal"].samples:
        answers = [t.get("answer") for t in turns_from_store(sample.store["infoseek:turns"])
                   if t.get("action") == "answer"]
        assert answers == [UNDETERMINED]
        assert "cannot be determined" in sample.input  # the answer form is shown


def test_no_sufficient_set_is_left_and_none_can_be_given_back(logs) -> None:
    by_problem: dict[str, set] = {}
    for sample in logs["random"].samples:
        chosen = sample.store[STORE_OPTIONS]["withholding"]
        problem = sample_problem(sample.metadata)
        assert chosen["none_learnable"] and chosen["learnable_family"] == []
        engine = engine_from_record(problem)
        askable = askable_variables(problem, False)
        learnable = [v for v in askable if v not in chosen["withheld"]]
        assert chosen["withheld"] and not is_sufficient(engine, learnable)
        for name in chosen["withheld"]:  # a minimal hitting set: each one reopens a route
            assert is_sufficient(engine, [*learnable, name])
        by_problem.setdefault(problem["id"], set()).add(tuple(chosen["withheld"]))
    assert all(len(sets) == 1 for sets in by_problem.values())


def test_the_default_withholding_oracle_has_no_recognised_metric(tmp_path) -> None:
    log = run_eval(logic_mt(**{**LOGIC, "k": [1], "oracle": "withholding"}), "infoseek/optimal",
              tmp_path)
    assert "recognised_unlearnable" not in log_metrics(log)


def test_an_unknown_oracle_name_is_one_clear_line() -> None:
    with pytest.raises(Exception) as caught:
        logic_mt(k=[1], per_k=1, oracle="withholding_none")
    message = str(caught.value)
    assert "withholding_all" in message and "\n" not in message.strip()


@pytest.mark.parametrize("task", [gsme_mt, genereg_mt], ids=lambda t: t.__name__)
def test_problems_it_cannot_keep_open_are_refused_in_one_line(task) -> None:
    with pytest.raises(Exception) as caught:
        task(k=[2], per_k=1, oracle="withholding_all")
    message = str(caught.value).strip()
    assert "needs problems whose target has two values" in message and "\n" not in message
