"""The seek scores as Inspect View shows them: four scorers (final_answer, sufficiency,
queries, invalid) on every seek task, short metric rows, no metric that never applies,
and one turn count in the explanation, the metric and the recorded turns; `seek_values`
also reads a log that recorded a scorer's old name."""

from __future__ import annotations

from typing import Any

import pytest
from inspect_ai import eval

from infoseek.inspect_tasks.gsm_mt import gsm_mt, gsm_mt_full
from infoseek.inspect_tasks.gsme_mt import gsme_mt, gsme_mt_full
from infoseek.inspect_tasks.gsme_mt_ext import gsme_mt_ext, gsme_mt_ext_full
from infoseek.inspect_tasks.inspect_private import registry_unqualified_name
from infoseek.inspect_tasks.logic_mt import logic_mt
from infoseek.scorers.group_metric import log_metrics
from infoseek.scorers.seek import SEEK_SCORER_NAMES, seek_values
from infoseek.scorers.seek_explanations import (
    sufficiency_explanation,
    turn_count_text,
)
from infoseek.scorers.seek_metrics import (
    SCALAR_METRIC_NAMES,
    SEEK_SCORE_GROUPS,
    episode_metrics,
    query_metrics,
    sufficiency_metrics,
)
from infoseek.stored_forms import turns_from_store

SEEK_TASKS = [logic_mt, gsme_mt, gsme_mt_full, gsme_mt_ext, gsme_mt_ext_full, gsm_mt,
              gsm_mt_full]


@pytest.mark.parametrize("factory", SEEK_TASKS, ids=[f.__name__ for f in SEEK_TASKS])
def test_every_seek_task_has_the_four_scorers(factory) -> None:
    task = factory(k=[1], per_k=1)
    assert [registry_unqualified_name(s) for s in task.scorer] == list(SEEK_SCORER_NAMES)
    assert list(SEEK_SCORER_NAMES) == ["final_answer", "sufficiency", "queries", "invalid"]


def test_groups_cover_every_scalar_metric_once() -> None:
    grouped = [name for names in SEEK_SCORE_GROUPS.values() for name in names]
    assert sorted(grouped) == sorted(SCALAR_METRIC_NAMES)
    assert len(set(grouped)) == len(grouped)


PROBLEM = {"id": "p", "target_values": [False, True], "k": 2, "mss_family": [["a", "b"]]}


def _turn(number: int, action: str, variable: str | None = None, possible=(False, True),
          answer: Any = None) -> dict[str, Any]:
    queries = [] if variable is None else [{"raw": variable, "variable": variable,
                                            "valid": True, "reason": None, "value": True,
                                            "reply": "yes"}]
    return {"turn": number, "action": action, "queries": queries, "answer": answer,
            "possible_target_values": list(possible), "known": len(possible) == 1}


TURNS = [_turn(1, "ask", "a"), _turn(2, "ask", "c"), _turn(3, "ask", "b", possible=[True]),
         _turn(4, "answer", possible=[True], answer=True)]


def test_order_correctness_only_where_the_domain_has_an_order() -> None:
    assert "order_correctness" not in query_metrics(PROBLEM, TURNS)
    ordered = {**PROBLEM, "required_order": ["b", "a"]}
    assert query_metrics(ordered, TURNS)["order_correctness"] == pytest.approx(0.5)
    # the flat dict keeps every documented key (None where it does not apply)
    assert episode_metrics(PROBLEM, TURNS, True, initial_possible=[False, True])[
        "order_correctness"] is None


def test_turn_count_in_words_of_total_turns() -> None:
    values = sufficiency_metrics(TURNS, initial_possible=[False, True])
    assert values["total_turns"] == 3.0
    assert turn_count_text(TURNS) == "3 turn(s) + answer (turn 4)"
    assert sufficiency_explanation(TURNS, values) == (
        "3 turn(s) + answer (turn 4); sufficient after turn 3")
    unanswered = TURNS[:3]
    assert turn_count_text(unanswered) == "3 turn(s), no answer"


@pytest.fixture(scope="module")
def logic_log(tmp_path_factory):
    [log] = eval(logic_mt(per_k=1), model="infoseek/random", display="none",
                 log_dir=str(tmp_path_factory.mktemp("layout")))
    assert log.status == "success", log.error
    return log


def test_metric_rows_stay_short_and_names_do_not_repeat(logic_log) -> None:
    assert logic_log.results is not None
    by_scorer = {s.name: list(s.metrics) for s in logic_log.results.scores}
    assert list(by_scorer) == list(SEEK_SCORER_NAMES)
    # before the split one scorer carried every metric in one row
    assert max(len(names) for names in by_scorer.values()) <= 30
    assert len(log_metrics(logic_log)) == sum(len(names) for names in by_scorer.values())
    assert not any(name.startswith("order_correctness") for name in log_metrics(logic_log))
    for scorer_name, names in by_scorer.items():
        for name in names:
            base = name.removesuffix("_stderr").rsplit("_k", 1)[0]
            assert base in SEEK_SCORE_GROUPS[scorer_name], (scorer_name, name)


def test_explanation_metric_and_turn_records_agree(logic_log) -> None:
    for sample in logic_log.samples:
        turns = turns_from_store(sample.store["infoseek:turns"])
        total = seek_values(sample.scores)["total_turns"]
        answered = [t for t in turns if t["action"] == "answer"]
        assert total == len(turns) - len(answered)
        explanation = sample.scores["sufficiency"].explanation
        if answered:
            assert explanation.startswith(
                f"{int(total)} turn(s) + answer (turn {answered[-1]['turn']})"), explanation
        else:
            assert explanation.startswith(f"{int(total)} turn(s), no answer"), explanation
        assert "order_correctness" not in sample.scores["queries"].value


def test_seek_values_read_a_log_that_recorded_the_old_name(logic_log) -> None:
    """Logs before eval version 2-A record the final-answer scorer as ``answer``."""
    for sample in logic_log.samples:
        old = {("answer" if name == "final_answer" else name): score
               for name, score in sample.scores.items()}
        assert "final_answer" not in old
        assert seek_values(old) == seek_values(sample.scores)
        assert "accuracy" in seek_values(old)
