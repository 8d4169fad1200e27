"""The options objects as the logs show them: each task hands its solver one options object
(`SeekOptions`, `ProblemLevelOptions`, `IncompleteOptions`, `TwentyQuestionsOptions`), the
log's plan records its every field (`infoseek.solvers.options.SolverOptions`), and the store
holds its `stored()` dict as the solvers always wrote it."""

from __future__ import annotations

import pytest
from inspect_ai import eval

from infoseek.inspect_tasks.incomplete_questions import incomplete_questions
from infoseek.inspect_tasks.logic_k_prediction import logic_k_prediction
from infoseek.inspect_tasks.logic_mt import logic_mt
from infoseek.inspect_tasks.twenty_questions import twenty_questions
from tests.support import FIXTURES
from tests.support.common import assert_eval_success

pytestmark = pytest.mark.usefixtures("no_tokenizer")

SEEK = {"format": "text", "max_turns": 3, "queries_per_turn": 2, "budget": True,
        "force_ask": False, "forbid_alternatives": True, "carry_reasoning": False,
        "oracle": "random", "seed": 5}
K_PREDICTION = {"protocol": "k_prediction", "k_given": False, "max_size": 4,
                "forbid_alternatives": False, "seed": 0, "max_k": 4}
INCOMPLETE = {"variant": "raw", "max_interactions": 2, "format": "tool", "seed": 0,
              "user": "structured"}
TWENTY_QUESTIONS = {"max_turns": 5, "label_batch": 10, "seed": 3}


@pytest.mark.parametrize(("make", "plan", "stored"), [
    (lambda: logic_mt(k=1, per_k=1, format="text", max_turns=3, queries_per_turn=2,
                      budget=True, oracle="random", seed=5),
     SEEK, [*SEEK.items(), ("target_index", 0), ("final_turn", False)]),
    (lambda: logic_k_prediction(k=1, per_k=1), K_PREDICTION,
     [("k_given", False), ("max_size", 4), ("seed", 0), ("forbid_alternatives", False),
      ("max_k", 4), ("format", "text")]),
    (lambda: incomplete_questions(source=str(FIXTURES / "incomplete_questions.json"),
                                  variant="raw", max_interactions=2, format="tool"),
     INCOMPLETE, [*INCOMPLETE.items(), ("final_turn", True)]),
    (lambda: twenty_questions(max_turns=5, label_batch=10, seed=3), TWENTY_QUESTIONS,
     [("format", "text"), ("max_turns", 5), ("seed", 3), ("final_turn", True)]),
], ids=["seek", "k_prediction", "incomplete", "twenty_questions"])
def test_the_plan_and_the_store_show_every_option(make, plan, stored, tmp_path) -> None:
    [log] = eval(make(), model="infoseek/optimal", limit=1, log_dir=str(tmp_path),
                 display="none")
    assert_eval_success(log)
    assert log.plan.steps[0].params == {"options": plan}
    assert list(log.samples[0].store["infoseek:options"].items()) == stored
