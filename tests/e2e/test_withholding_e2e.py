"""End-to-end runs of the seek tasks under the withholding oracle (``-T oracle=withholding``):
real `inspect_ai.eval` calls with the reference models, offline. The optimal reference
plays over what can still be learned and reaches sufficiency every time; the random one
meets withheld variables, gets the "unknown" reply, and does worse."""

from __future__ import annotations

import pytest
from inspect_ai.log import EvalLog
from inspect_ai.model import ChatMessageTool, ChatMessageUser

from infoseek.contract import STORE_OPTIONS
from infoseek.inspect_tasks.genereg_mt import genereg_mt
from infoseek.inspect_tasks.gsme_mt import gsme_mt
from infoseek.inspect_tasks.logic_mt import logic_mt
from infoseek.inspect_tasks.planning_mt import planning_mt
from infoseek.oracles import WITHHELD
from infoseek.oracles.withholding import WITHHELD_REPLY
from infoseek.scorers.group_metric import log_metrics
from infoseek.stored_forms import sample_problem, turns_from_store
from tests.support.withholding import reference_logs, run_eval

LOGIC = {"k": [1, 2], "per_k": 3, "oracle": "withholding", "forbid_alternatives": False}


def unknown_replies(log: EvalLog) -> list[tuple[dict, dict]]:
    """(sample metadata, query record) for every "unknown" reply of the log."""
    found = []
    for sample in log.samples or []:
        for turn in turns_from_store(sample.store.get("infoseek:turns")) or []:
            for query in turn["queries"]:
                if query["value"] == WITHHELD:
                    found.append((sample.metadata, query))
    return found


@pytest.fixture(scope="module")
def logic_logs(tmp_path_factory) -> dict[str, EvalLog]:
    return reference_logs(lambda: logic_mt(**LOGIC),
                          tmp_path_factory.mktemp("withholding-logs"))


def test_optimal_reaches_sufficiency_and_random_does_worse(logic_logs) -> None:
    optimal = log_metrics(logic_logs["optimal"])
    random_ = log_metrics(logic_logs["random"])
    assert optimal["final_sufficiency"] == 1.0 and optimal["accuracy"] == 1.0
    assert optimal["withheld_asked"] == 0.0  # it plays over what can be learned
    assert random_["final_sufficiency"] < 1.0
    assert random_["withheld_asked"] > 0.0 and "recovery" in random_
    assert [s.name for s in logic_logs["optimal"].results.scores][-1] == "withholding"


def test_every_episode_keeps_a_way_and_its_exact_k(logic_logs) -> None:
    by_problem: dict[str, set] = {}
    for sample in logic_logs["random"].samples:
        chosen = sample.store[STORE_OPTIONS]["withholding"]
        problem = sample_problem(sample.metadata)
        assert chosen["learnable_k"] == problem["k"]
        assert not set(chosen["kept"]) & set(chosen["withheld"])
        assert chosen["learnable_family"][0] == chosen["kept"]
        by_problem.setdefault(problem["id"], set()).add(tuple(chosen["withheld"]))
    # the withheld set does not depend on the hidden target value
    assert all(len(sets) == 1 for sets in by_problem.values())
    assert any(s.store[STORE_OPTIONS]["withholding"]["closes_canonical"]
               for s in logic_logs["random"].samples)


def test_the_unknown_reply_is_recorded_and_reads_well_in_tool_format(logic_logs) -> None:
    replies = unknown_replies(logic_logs["random"])
    assert replies
    for _metadata, query in replies:
        assert query["valid"] and query["reason"] is None
        assert query["reply"] == WITHHELD_REPLY.format(noun="attribute",
                                                       variable=query["variable"])
    tool_texts = [m.text for s in logic_logs["random"].samples for m in s.messages
                  if isinstance(m, ChatMessageTool)]
    assert any("cannot be learned in this problem" in text for text in tool_texts)


def test_text_format_sends_the_unknown_reply_as_a_user_line(tmp_path) -> None:
    log = run_eval(logic_mt(**{**LOGIC, "per_k": 2}, format="text"), "infoseek/random", tmp_path)
    replies = unknown_replies(log)
    assert replies
    user_texts = [m.text for s in log.samples for m in s.messages
                  if isinstance(m, ChatMessageUser)]
    for _metadata, query in replies:
        assert any(query["reply"] in text for text in user_texts)


def test_default_oracle_adds_no_withholding_scorer(tmp_path) -> None:
    log = run_eval(logic_mt(k=[1], per_k=1), "infoseek/optimal", tmp_path)
    assert "withholding" not in [s.name for s in log.results.scores]


DOMAINS = {
    "gsme_mt": (gsme_mt, {"k": [1, 2], "per_k": 3}, "accuracy"),
    "genereg_mt": (genereg_mt, {"k": [1, 2], "per_k": 2}, "accuracy"),
    "planning_mt": (planning_mt, {"k": [1, 2], "per_k": 2}, "plan_exact"),
}
"""Math, gene regulation and planning (Logic has the module's fixture): the task, a small
size and the metric that says the answer is right."""


@pytest.mark.parametrize("name", DOMAINS)
def test_optimal_reaches_sufficiency_and_random_does_worse_in_each_domain(name,
                                                                          tmp_path) -> None:
    make_task, size, right = DOMAINS[name]
    logs = reference_logs(lambda: make_task(**size, oracle="withholding"), tmp_path)
    optimal, random_ = (log_metrics(logs[model]) for model in ("optimal", "random"))
    assert optimal["final_sufficiency"] == 1.0 and optimal[right] == 1.0
    assert optimal["withheld_asked"] == 0.0  # it plays over what can be learned
    assert random_["final_sufficiency"] < 1.0 and random_["withheld_asked"] > 0.0
    for sample in logs["random"].samples:  # every episode withholds, and keeps its k
        chosen = sample.store[STORE_OPTIONS]["withholding"]
        assert chosen["withheld"] and chosen["learnable_k"] == sample_problem(
            sample.metadata)["k"]
