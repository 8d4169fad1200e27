"""Issue 30, classes 7 and 8: every model-backed role is measured against the exact truth
the suite holds (scripted role models that err at planted rates: the measured rate is
the planted one, and the seeker's episodes touched by a wrong reply are counted apart),
and a role whose model raises never makes the sample an error: the rule answers, and
the error is recorded and counted."""

from __future__ import annotations

import json
import re
from typing import Any

import pytest
from inspect_ai import eval, task_with
from inspect_ai.model import ModelOutput, get_model
from inspect_ai.util import store

from infoseek.builders.twenty_questions import builder
from infoseek.contract import STORE_FINAL, STORE_PROBLEM, STORE_ROLES, STORE_TURNS
from infoseek.inspect_tasks.clinguide_mt import clinguide_mt
from infoseek.inspect_tasks.incomplete_questions import incomplete_questions
from infoseek.inspect_tasks.twenty_questions import twenty_questions
from infoseek.scorers.role_metrics import pooled_error_rates, role_values
from infoseek.solvers.incomplete.user import shares_content_word
from infoseek.solvers.twenty_questions.game import GameTable, table_truth, truth_labels
from infoseek.stored_forms import problem_from_store, turns_from_store
from tests.support import FIXTURES
from tests.support.common import assert_eval_success, text_output

pytestmark = pytest.mark.usefixtures("no_tokenizer")

COMMON = builder.game_records("common")
TABLE = GameTable.from_record(COMMON[0])
ATTRIBUTE_QUESTIONS = [q for q in list(COMMON[0]["questions"].values())[:10]]
RECORDS = {r["id"]: r for r in json.loads((FIXTURES / "incomplete_questions.json").read_text())}


def raises(input, tools, tool_choice, config) -> ModelOutput:
    raise RuntimeError("role model down")


def metrics_of(log) -> dict[str, float]:
    return {name: m.value for s in log.results.scores for name, m in s.metrics.items()}


def play_20q(tmp_path, guesser_turns: list[str], **roles: Any):
    outputs = iter(guesser_turns)
    model = get_model("mockllm/model",
                      custom_outputs=lambda *a: text_output(next(outputs)))
    bound = {name: get_model("mockllm/model", custom_outputs=fn) for name, fn in roles.items()}
    [log] = eval(twenty_questions(pool="common", label_batch=200), model=model, limit=1,
                 model_roles=bound or None, log_dir=str(tmp_path), display="none")
    assert_eval_success(log)
    return log, log.samples[0]


# ------------------------------------------------------------------ class 7: planted rates


def test_the_examiners_measured_error_rate_is_the_planted_one(tmp_path):
    planted = {2, 5, 9}  # the examiner's 2nd, 5th and 9th replies are wrong
    calls: list[int] = []

    def examiner(input, tools, tool_choice, config) -> ModelOutput:
        calls.append(1)
        question = input[-1].text
        guess = re.fullmatch(r"Is X (\w+)\?", question)
        named = guess.group(1) if guess and guess.group(1) in TABLE.candidates else None
        truth = table_truth(question, named, "dog", TABLE)
        flipped = {"Yes": "No", "No": "Yes", "Partially": "Yes"}[truth]
        return text_output(flipped if len(calls) in planted else truth)

    log, sample = play_20q(tmp_path, ATTRIBUTE_QUESTIONS + ["Guess: cat"],
                           examiner=examiner)
    value = sample.scores["twenty_questions"].value
    # ten questions and the final guess, each measured against the table
    assert len(calls) == 11 and value["role_examiner_measured"] == len(calls)
    assert value["role_examiner_wrong"] == len(planted)
    assert value["role_error_episodes"] == 1.0
    assert metrics_of(log)["examiner_error_rate"] == pytest.approx(len(planted) / len(calls))


def test_the_evaluators_measured_error_rate_is_the_planted_one(tmp_path):
    wrong_per_question = 7

    def evaluator(input, tools, tool_choice, config) -> ModelOutput:
        text = input[-1].text
        question = re.search(r"Question: (.*)", text).group(1)
        truth = truth_labels(question, None, TABLE)
        listed = [TABLE.candidates.index(n) for n in re.findall(r"(?m)^\d+\. (.*)$", text)]
        labels = [("no" if truth[i] == "yes" else "yes") if i < wrong_per_question
                  else truth[i] for i in listed]
        return text_output("\n".join(f"{i}. {label}" for i, label in enumerate(labels, 1)))

    questions = ATTRIBUTE_QUESTIONS[:4]
    log, sample = play_20q(tmp_path, questions + ["Guess: cat"], evaluator=evaluator)
    value = sample.scores["twenty_questions"].value
    pool = len(TABLE.candidates)
    assert value["role_evaluator_measured"] == pool * len(questions)
    assert value["role_evaluator_wrong"] == wrong_per_question * len(questions)
    assert metrics_of(log)["evaluator_error_rate"] == pytest.approx(wrong_per_question / pool)


def test_the_structured_users_measured_error_rate_is_the_planted_one(tmp_path):
    questions = ["How many hens did he buy?", "What colour is the barn?",
                 "Where is the market?", "How old is the farmer?", "Did he buy more hens?"]
    planted = {("hens-a", 2), ("hens-b", 0), ("hens-b", 4)}  # (sample, question index)

    def seeker(input, tools, tool_choice, config) -> ModelOutput:
        done = len(turns_from_store(store().get(STORE_TURNS)) or [])
        if done < len(questions):
            return text_output(f"<question>{questions[done]}</question>")
        return text_output("<answer>\\boxed{19}</answer>")

    def user(input, tools, tool_choice, config) -> ModelOutput:
        sample = problem_from_store(store().get(STORE_PROBLEM))["id"]
        turn = len(turns_from_store(store().get(STORE_TURNS)) or [])
        question = input[-1].text.removeprefix("Question: ")
        related = shares_content_word(question, RECORDS["hens"]["condition"])
        right = "1" if related else "none"
        wrong = "none" if related else "1"
        return text_output(wrong if (sample, turn) in planted else right)

    source = tmp_path / "records.json"
    ids = ["hens-a", "hens-b", "hens-c", "hens-d"]
    source.write_text(json.dumps([{**RECORDS["hens"], "id": i} for i in ids]))
    [log] = eval(incomplete_questions(source=str(source)),
                 model=get_model("mockllm/model", custom_outputs=seeker),
                 model_roles={"user": get_model("mockllm/model", custom_outputs=user)},
                 log_dir=str(tmp_path), display="none")
    assert_eval_success(log)
    metrics = metrics_of(log)
    assert metrics["user_error_rate"] == pytest.approx(len(planted) / (len(ids) * 5))
    episodes = {s.id: s.scores["incomplete_scorer"].value["role_error_episodes"]
                for s in log.samples}
    assert episodes == {"hens-a": 1.0, "hens-b": 1.0, "hens-c": 0.0, "hens-d": 0.0}
    assert metrics["role_error_episodes"] == 0.5


def test_the_judges_measured_error_rate_is_the_planted_one(tmp_path):
    # the transcript's exact reading: the optimal seeker asks and the rule user reveals,
    # so acquired is yes in every sample; the judge says no in one sample of four
    def judge(input, tools, tool_choice, config) -> ModelOutput:
        wrong = "A farmer has 12 hens" in input[-1].text
        return text_output(f"acquired: {'no' if wrong else 'yes'}\nassumed: no")

    [log] = eval(incomplete_questions(source=str(FIXTURES / "incomplete_questions.json")),
                 model="infoseek/optimal", sample_id=["hens", "pencils", "train", "ages"],
                 model_roles={"judge": get_model("mockllm/model", custom_outputs=judge)},
                 log_dir=str(tmp_path), display="none")
    assert_eval_success(log)
    metrics = metrics_of(log)
    assert metrics["judge_error_rate"] == pytest.approx(0.25)
    assert metrics["judge_measured"] == 4.0
    assert metrics["role_error_episodes"] == pytest.approx(0.25)


def test_infoseek_report_shows_each_roles_error_rate(tmp_path):
    import pandas as pd

    from infoseek.inspect_tasks.report.build import build_report

    def judge(input, tools, tool_choice, config) -> ModelOutput:
        wrong = "A farmer has 12 hens" in input[-1].text
        return text_output(f"acquired: {'no' if wrong else 'yes'}\nassumed: no")

    [log] = eval(incomplete_questions(source=str(FIXTURES / "incomplete_questions.json")),
                 model="infoseek/optimal", sample_id=["hens", "pencils", "train", "ages"],
                 model_roles={"judge": get_model("mockllm/model", custom_outputs=judge),
                              "user": get_model("mockllm/model", custom_outputs=raises)},
                 log_dir=str(tmp_path / "logs"), display="none")
    assert_eval_success(log)
    build_report([tmp_path / "logs"], tmp_path / "report", bundle=False)
    table = pd.read_csv(tmp_path / "report" / "tables" / "incomplete_questions.roles.csv")
    rows = {r["role"]: r for r in table.to_dict("records")}
    assert rows["judge"]["measured"] == 4 and rows["judge"]["wrong"] == 1
    assert rows["judge"]["error_rate"] == pytest.approx(0.25)
    assert rows["judge"]["role_error_episodes"] == 1
    assert rows["user"]["raised"] == 4 and rows["user"]["measured"] == 0
    assert rows["judge"]["role_model"] == "mockllm/model"
    assert "Model roles measured against exact truth" in (
        tmp_path / "report" / "report.md").read_text()


CLINICAL = "clinguide-low_back_pain-n2-d0"
CLINICAL_TARGET = "Urgent spinal surgical referral for radiculopathy with motor deficit"
TYPED = ["Back pain duration", "Pain radiating below the knee", "Progressive leg weakness"]


def clinical_episode(tmp_path, matcher) -> Any:
    seek = clinguide_mt(k=3, format="text", max_turns=8)
    one = seek.dataset.filter(lambda s: s.id == f"{CLINICAL}-{CLINICAL_TARGET}")
    turns = iter([f"Question: {name}?" for name in TYPED] + [f"Answer: {CLINICAL_TARGET}"])
    model = get_model("mockllm/model", custom_outputs=lambda *a: text_output(next(turns)))
    [log] = eval(task_with(seek, dataset=one), model=model,
                 model_roles={"matcher": get_model("mockllm/model", custom_outputs=matcher)},
                 log_dir=str(tmp_path), display="none")
    assert_eval_success(log)
    return log, log.samples[0]


def test_the_matchers_measured_error_rate_is_the_planted_one(tmp_path, monkeypatch):
    monkeypatch.setenv("INFOSEEK_CACHE_DIR", str(tmp_path / "cache"))
    calls: list[str] = []

    def matcher(input, tools, tool_choice, config) -> ModelOutput:
        question = re.search(r"Question: (.*)\?", input[-1].text).group(1)
        calls.append(question)
        return text_output("not sure" if len(calls) == 2 else question)

    log, sample = clinical_episode(tmp_path, matcher)
    value = sample.scores["invalid"].value
    assert calls == TYPED  # one audit per exactly-read question
    assert value["role_matcher_measured"] == 3.0 and value["role_matcher_wrong"] == 1.0
    assert metrics_of(log)["matcher_error_rate"] == pytest.approx(1 / 3)
    # the audit changes nothing: the typed names were asked as read
    queries = [q for t in turns_from_store(sample.store[STORE_TURNS]) for q in t["queries"]]
    assert [(q["variable"], q["valid"]) for q in queries] == [(n, True) for n in TYPED]


def test_pooled_rates_are_not_means_of_sample_rates():
    a = role_values([{"role": "user", "wrong": True}])
    b = role_values([{"role": "user", "wrong": False}] * 3)
    assert pooled_error_rates([a, b]) == {"user_error_rate": 0.25, "user_measured": 4.0}
    assert role_values([]) == {}


# ------------------------------------------------------------------ class 8: roles that raise


@pytest.mark.parametrize("kind", ["structured", "free_text"])
def test_a_user_model_that_raises_gets_the_rules_reply(tmp_path, kind):
    seeker = [text_output("<question>How many hens did he buy?</question>"),
              text_output("<answer>\\boxed{19}</answer>")]
    [log] = eval(incomplete_questions(source=str(FIXTURES / "incomplete_questions.json"),
                                      user=kind),
                 model=get_model("mockllm/model", custom_outputs=seeker), sample_id="hens",
                 model_roles={"user": get_model("mockllm/model", custom_outputs=raises)},
                 log_dir=str(tmp_path), display="none")
    assert_eval_success(log)
    [sample] = log.samples
    first = turns_from_store(sample.store[STORE_TURNS])[0]
    assert first["user_source"] == "rule-after-error"
    assert first["user_reply"] == "Here is what I know: He buys 7 more hens at the market."
    assert "RuntimeError: role model down" in first["user_error"]
    value = sample.scores["incomplete_scorer"].value
    assert value["role_user_raised"] == 1.0 and value["role_user_measured"] == 0.0
    assert value["accuracy"] == 1.0


def test_a_judge_model_that_raises_gets_the_rules_rating(tmp_path):
    [log] = eval(incomplete_questions(source=str(FIXTURES / "incomplete_questions.json")),
                 model="infoseek/optimal", sample_id="hens",
                 model_roles={"judge": get_model("mockllm/model", custom_outputs=raises)},
                 log_dir=str(tmp_path), display="none")
    assert_eval_success(log)
    score = log.samples[0].scores["incomplete_scorer"]
    assert score.metadata["judge_source"] == "rule-after-error"
    assert "role model down" in score.metadata["judge_error"]
    assert score.value["condition_acquired"] == 1.0 and score.value["role_judge_raised"] == 1.0


def test_examiner_evaluator_and_transfer_models_that_raise_fall_back_to_the_table(tmp_path):
    log, sample = play_20q(tmp_path, ["Is X alive?", "Guess: dog"], examiner=raises,
                           evaluator=raises, transfer=raises)
    turns = turns_from_store(sample.store[STORE_TURNS])
    assert [t["examiner_source"] for t in turns] == ["table-after-error"] * 2
    assert all("role model down" in t["examiner_error"] for t in turns)
    assert turns[0]["examiner_answer"] == "Yes" and turns[1]["win"] is True
    assert turns[0]["labels"] == truth_labels("Is X alive?", None, TABLE)
    assert turns[0]["label_errors"] and "role model down" in turns[0]["label_errors"][0]
    final = sample.store[STORE_FINAL]
    assert final["transfer_source"] == "table-after-error"
    assert "role model down" in final["transfer_error"]
    value = sample.scores["twenty_questions"].value
    assert value["accuracy"] == 1.0
    assert value["role_examiner_raised"] == 2.0 and value["role_evaluator_raised"] == 1.0
    assert value["role_transfer_raised"] == 1.0 and value["role_error_episodes"] == 0.0


def test_a_matcher_model_that_raises_leaves_the_rules_reading(tmp_path, monkeypatch):
    monkeypatch.setenv("INFOSEEK_CACHE_DIR", str(tmp_path / "cache"))
    log, sample = clinical_episode(tmp_path, raises)
    queries = [q for t in turns_from_store(sample.store[STORE_TURNS]) for q in t["queries"]]
    assert [(q["variable"], q["valid"]) for q in queries] == [(n, True) for n in TYPED]
    ledger = sample.store[STORE_ROLES]
    assert len(ledger) == 3 and all("role model down" in e["raised"] for e in ledger)
    assert sample.scores["invalid"].value["role_matcher_raised"] == 3.0
