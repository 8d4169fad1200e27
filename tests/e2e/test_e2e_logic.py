"""End-to-end runs of the logic tasks: real `inspect_ai.eval` calls, fully offline.

The reference models (`infoseek/optimal`, `infoseek/random`) play the seek loop on small
built datasets; `mockllm/model` stands in where a scripted misbehaviour is needed.
"""

from __future__ import annotations

import json
import statistics
from typing import Any

import pytest
from inspect_ai import Task, eval
from inspect_ai.log import EvalLog, EvalSample
from inspect_ai.model import (
    ChatMessageAssistant,
    ChatMessageSystem,
    ChatMessageTool,
    ChatMessageUser,
    ModelOutput,
    get_model,
)
from inspect_ai.tool import ToolCall

from infoseek.inspect_tasks.logic_k_prediction import logic_k_prediction
from infoseek.inspect_tasks.logic_mss import logic_mss
from infoseek.inspect_tasks.logic_mt import logic_mt
from infoseek.oracles import refusals
from infoseek.scorers.group_metric import log_metrics
from infoseek.scorers.seek import seek_values
from infoseek.stored_forms import sample_problem, turns_from_store
from tests.support.common import assert_eval_success, mock_usage, text_output

TURN_KEYS = {"turn", "action", "queries", "possible_target_values", "known"}
QUERY_KEYS = {"raw", "variable", "valid", "reason", "value", "reply"}
ACTIONS = {"ask", "answer", "invalid", "none"}


# Every output here carries usage: reaching for a tokenizer is a failure.
pytestmark = pytest.mark.usefixtures("no_tokenizer")


# --------------------------------------------------------------------------- helpers


def run(task: Task, model: Any, tmp_path, *, ok: bool = True, **kwargs: Any) -> EvalLog:
    [log] = eval(task, model=model, log_dir=str(tmp_path), display="log", **kwargs)
    if ok:
        assert_eval_success(log)
    return log


def turns_of(sample: EvalSample) -> list[dict[str, Any]]:
    turns = turns_from_store(sample.store.get("infoseek:turns"))
    assert isinstance(turns, list)
    return turns


def value(sample: EvalSample, name: str, scorer: str | None = None) -> float:
    """A value of one scorer, or (no scorer named) of the four seek scorers."""
    if scorer is None:
        return seek_values(sample.scores)[name]
    return sample.scores[scorer].value[name]


def metric(log: EvalLog, name: str) -> float:
    return log_metrics(log)[name]


def check_contract(sample: EvalSample) -> None:
    """The turn records follow docs/contracts.md."""
    turns = turns_of(sample)
    assert turns, sample.id
    for number, turn in enumerate(turns, start=1):
        assert TURN_KEYS <= set(turn), (sample.id, turn)
        assert turn["turn"] == number
        assert turn["action"] in ACTIONS
        assert isinstance(turn["queries"], list)
        assert isinstance(turn["possible_target_values"], list)
        assert turn["possible_target_values"], "an empty set means an inconsistent oracle"
        assert turn["known"] == (len(turn["possible_target_values"]) == 1)
        for query in turn["queries"]:
            assert set(query) >= QUERY_KEYS, (sample.id, query)
            assert isinstance(query["valid"], bool)
            if query["valid"]:
                assert query["reason"] is None
                assert query["variable"] is not None
                assert query["value"] is not None
                assert isinstance(query["reply"], str) and query["reply"]
            else:
                assert query["reason"] is not None
    # every value the oracle gave stays consistent with the hidden target
    target_value = sample.metadata["target_value"]
    for turn in turns:
        assert target_value in turn["possible_target_values"]


def check_solved(log: EvalLog) -> None:
    for sample in log.samples:
        check_contract(sample)
        assert value(sample, "final_sufficiency") == 1.0, sample.id
        assert value(sample, "accuracy") == 1.0, sample.id
        turns = turns_of(sample)
        assert turns[-1]["action"] == "answer"
        assert turns[-1]["answer"] == sample.metadata["target_value"]
        assert sample.store["infoseek:final"]["answer"] == sample.metadata["target_value"]


def mean_value(log: EvalLog, name: str) -> float:
    return statistics.fmean(value(sample, name) for sample in log.samples)


# ------------------------------------------------------------------------ seek loop


@pytest.mark.parametrize("fmt", ["tool", "text"])
def test_optimal_solves_every_instance(fmt: str, tmp_path) -> None:
    log = run(logic_mt(per_k=2, k=[1, 2], format=fmt), "infoseek/optimal", tmp_path)
    assert len(log.samples) == 8  # 2 problems per k, two target values each
    check_solved(log)
    for sample in log.samples:
        k = sample.metadata["k"]
        assert value(sample, "total_turns") <= k, sample.id
        assert value(sample, "invalid_total") == 0.0
        turns = turns_of(sample)
        assert all(q["valid"] for turn in turns for q in turn["queries"])
        assert sample.store["infoseek:options"]["format"] == fmt
        # Inspect View shows each turn record as an info event in the transcript.
        shown = [e.data["infoseek_turn"] for e in sample.events
                 if e.event == "info" and isinstance(e.data, dict) and "infoseek_turn" in e.data]
        assert shown == turns
        assistant = [m for m in sample.messages if isinstance(m, ChatMessageAssistant)]
        if fmt == "tool":
            assert all(m.tool_calls for m in assistant)
            assert any(isinstance(m, ChatMessageTool) for m in sample.messages)
        else:
            assert not any(m.tool_calls for m in assistant)
            assert all(
                line.startswith(("Question:", "Answer:"))
                for m in assistant
                for line in m.text.splitlines()
            )
    assert metric(log, "final_sufficiency") == 1.0
    assert metric(log, "accuracy") == 1.0


def test_random_runs_and_does_not_beat_optimal(tmp_path) -> None:
    task_args = dict(per_k=3, k=[1, 4])
    optimal = run(logic_mt(**task_args), "infoseek/optimal", tmp_path / "optimal")
    rand = run(logic_mt(**task_args), "infoseek/random", tmp_path / "random")
    for sample in rand.samples:
        check_contract(sample)
        assert turns_of(sample)[-1]["action"] == "answer"
    assert len(rand.samples) == len(optimal.samples) == 12
    assert mean_value(optimal, "final_sufficiency") == 1.0
    assert mean_value(rand, "final_sufficiency") <= mean_value(optimal, "final_sufficiency")
    # the random model asks more than the optimal one on average
    assert mean_value(rand, "total_turns") >= mean_value(optimal, "total_turns")


@pytest.mark.parametrize("oracle", ["adversarial", "cooperative", "random"])
def test_every_oracle_policy_with_optimal(oracle: str, tmp_path) -> None:
    log = run(logic_mt(per_k=2, k=[1, 2], oracle=oracle), "infoseek/optimal", tmp_path)
    check_solved(log)
    for sample in log.samples:
        assert sample.store["infoseek:options"]["oracle"] == oracle
        assert value(sample, "total_turns") <= sample.metadata["k"]


# ------------------------------------------------------------------- problem level


def test_k_prediction_optimal_is_exact(tmp_path) -> None:
    log = run(logic_k_prediction(per_k=2, k=[1, 2, 3]), "infoseek/optimal", tmp_path)
    assert len(log.samples) == 6
    for sample in log.samples:
        assert value(sample, "accuracy", "k_prediction_scorer") == 1.0, sample.id
        assert value(sample, "invalid", "k_prediction_scorer") == 0.0
    assert metric(log, "accuracy") == 1.0


def test_k_prediction_random_runs(tmp_path) -> None:
    log = run(logic_k_prediction(per_k=2, k=[1, 2, 3]), "infoseek/random", tmp_path)
    for sample in log.samples:
        score = sample.scores["k_prediction_scorer"].value
        assert score["accuracy"] in (0.0, 1.0)
        assert score["invalid"] == 0.0  # the random model still writes a readable line
    assert 0.0 <= metric(log, "accuracy") <= 1.0


@pytest.mark.parametrize("k_given", [False, True])
def test_mss_optimal_is_exact(k_given: bool, tmp_path) -> None:
    log = run(logic_mss(per_k=2, k=[1, 2, 3], k_given=k_given), "infoseek/optimal", tmp_path)
    assert len(log.samples) == 6
    for sample in log.samples:
        score = sample.scores["mss_identification_scorer"].value
        assert score["exact"] == 1.0, sample.id
        assert score["jaccard"] == 1.0
        assert score["recall"] == 1.0
        assert score["invalid"] == 0.0
    assert metric(log, "exact") == 1.0
    prompt = log.samples[0].messages[0].text
    if k_given:
        assert "Exactly" in prompt
    else:
        assert "between 1 and 4" in prompt


@pytest.mark.parametrize("k_given", [False, True])
def test_mss_random_runs(k_given: bool, tmp_path) -> None:
    log = run(logic_mss(per_k=2, k=[1, 2, 3], k_given=k_given), "infoseek/random", tmp_path)
    for sample in log.samples:
        score = sample.scores["mss_identification_scorer"].value
        assert score["invalid"] == 0.0
        assert 0.0 <= score["jaccard"] <= 1.0
        assert score["unknown_names"] == 0.0
        if k_given:
            assert score["predicted_size"] == sample.metadata["k"]
        else:
            assert 1 <= score["predicted_size"] <= 4


# -------------------------------------------------------------------- determinism


def _fingerprint(log: EvalLog) -> dict[str, str]:
    return {
        str(sample.id): json.dumps(
            {
                "scores": {name: score.value for name, score in sample.scores.items()},
                "turns": turns_from_store(sample.store.get("infoseek:turns")),
            },
            sort_keys=True,
            default=repr,
        )
        for sample in log.samples
    }


@pytest.mark.parametrize(
    ("model", "oracle"),
    [("infoseek/random", "random"), ("infoseek/optimal", "adversarial")],
)
def test_reruns_are_identical(model: str, oracle: str, tmp_path) -> None:
    def once(where: str) -> dict[str, str]:
        task = logic_mt(per_k=2, k=[1, 3], oracle=oracle, seed=0)
        return _fingerprint(run(task, model, tmp_path / where))

    first, second = once("a"), once("b")
    assert first == second
    assert len(first) == 8


def test_message_limit_keeps_turns_written_before_the_abort(tmp_path) -> None:
    # system + problem + (assistant + tool) reaches 4 messages after the first turn,
    # while a k=2 instance needs at least three model turns
    log = run(logic_mt(per_k=1, k=[2]), "infoseek/optimal", tmp_path, message_limit=4)
    for sample in log.samples:
        assert sample.limit is not None and sample.limit.type == "message", sample.id
        turns = turns_of(sample)
        assert len(turns) >= 1
        assert turns[-1]["action"] != "answer"  # the episode did not finish
        check_contract(sample)
        assert turns[0]["queries"][0]["valid"]
        # the scorer still reads what was recorded
        assert value(sample, "accuracy") == 0.0
        assert value(sample, "total_turns") == len(turns)
        assert "infoseek:final" not in sample.store


# ------------------------------------------------------------------------ options


@pytest.mark.parametrize(
    "options",
    [
        {"budget": True},
        {"force_ask": True},
        {"queries_per_turn": 2},
        {"carry_reasoning": True},
        {"carry_reasoning": True, "format": "text"},
        {"queries_per_turn": 2, "format": "text"},
        {"forbid_alternatives": False},
    ],
    ids=lambda o: ",".join(f"{k}={v}" for k, v in o.items()),
)
def test_options_with_optimal_reach_sufficiency(options: dict[str, Any], tmp_path) -> None:
    log = run(logic_mt(per_k=2, k=[1, 2], **options), "infoseek/optimal", tmp_path)
    check_solved(log)
    for sample in log.samples:
        stored = sample.store["infoseek:options"]
        for name, wanted in options.items():
            assert stored[name] == wanted
        system = sample.messages[0]
        assert isinstance(system, ChatMessageSystem)
        if options.get("budget"):
            assert "Budget:" in system.text
        if options.get("force_ask"):
            k = sample.metadata["k"]
            assert f"at least {k} question" in system.text
            assert len([q for t in turns_of(sample) for q in t["queries"] if q["valid"]]) >= k
        if options.get("queries_per_turn") == 2:
            assert all(len(t["queries"]) <= 2 for t in turns_of(sample))
            assert all(q["valid"] for t in turns_of(sample) for q in t["queries"])


@pytest.mark.parametrize("fmt", ["tool", "text"])
def test_optimal_fills_a_one_turn_budget(fmt: str, tmp_path) -> None:
    task = logic_mt(per_k=2, k=[2], max_turns=1, queries_per_turn=2, budget=True, format=fmt)
    log = run(task, "infoseek/optimal", tmp_path)
    for sample in log.samples:
        assert len(turns_of(sample)[0]["queries"]) == 2, sample.id
        assert value(sample, "final_sufficiency") == 1.0, sample.id
        assert value(sample, "accuracy") == 1.0, sample.id


def _answer_now(fmt: str):
    def output(input, tools, tool_choice, config) -> ModelOutput:
        if fmt == "tool":
            out = ModelOutput.for_tool_call(
                "mockllm/model",
                "answer",
                {"value": "no"},
                tool_call_id=f"answer-{len(input)}",
                content="",
            )
            out.usage = mock_usage()
            return out
        return text_output("Answer: no")

    return output


@pytest.mark.parametrize("fmt", ["tool", "text"])
def test_force_ask_rejects_an_immediate_answer(fmt: str, tmp_path) -> None:
    model = get_model("mockllm/model", custom_outputs=_answer_now(fmt))
    task = logic_mt(per_k=1, k=[2], force_ask=True, max_turns=2, format=fmt)
    log = run(task, model, tmp_path, limit=1)
    [sample] = log.samples
    turns = turns_of(sample)
    check_contract(sample)
    first = turns[0]
    assert first["action"] == "invalid"
    assert first["reason"] == "early_answer"
    assert first["answer"] is None
    # the early answers cost turns; the final forced turn accepts the answer
    assert [t["reason"] for t in turns[:2]] == ["early_answer", "early_answer"]
    assert turns[-1]["action"] == "answer" and turns[-1]["final_turn"] is True
    assert len(turns) == 3
    early = refusals.EARLY_ANSWER.format(k=2, asked=0)
    if fmt == "tool":
        replies = [m.text for m in sample.messages if isinstance(m, ChatMessageTool)]
    else:
        replies = [m.text for m in sample.messages[2:] if isinstance(m, ChatMessageUser)]
    assert early in replies
    assert value(sample, "final_sufficiency") == 0.0


def test_tool_call_ids_need_not_be_unique_across_turns(tmp_path) -> None:
    """A mock that reuses one tool-call id every turn still gets a tool reply per call."""

    def output(input, tools, tool_choice, config) -> ModelOutput:
        asked = sum(1 for m in input if isinstance(m, ChatMessageAssistant))
        variables = input_record["mss_family"][0]
        if asked < len(variables):
            call = ToolCall(id="same", function="ask", arguments={"variable": variables[asked]})
        else:
            call = ToolCall(id="same", function="answer", arguments={"value": "no"})
        out = ModelOutput.for_tool_call(
            "mockllm/model", call.function, call.arguments, tool_call_id=call.id, content=""
        )
        out.usage = mock_usage()
        return out

    task = logic_mt(per_k=1, k=[2])
    input_record = sample_problem(task.dataset[0].metadata)
    assert task.dataset[0].metadata["target_value"] is False
    log = run(task, get_model("mockllm/model", custom_outputs=output), tmp_path, limit=1)
    [sample] = log.samples
    check_solved(log)
    assert sum(isinstance(m, ChatMessageTool) for m in sample.messages) == 2


@pytest.mark.parametrize("carry", [False, True])
def test_carry_reasoning_controls_the_history(carry: bool, tmp_path) -> None:
    task = logic_mt(per_k=1, k=[2], format="text", carry_reasoning=carry)
    problem = sample_problem(task.dataset[0].metadata)
    entity = problem["entity"]
    thought = "Let me think about which attribute matters most."
    outputs = [
        *(f"{thought}\nQuestion: Is {entity} {v}?" for v in problem["mss_family"][0]),
        f"{thought}\nAnswer: {entity} is not {problem['target']}.",
    ]
    scripted = [text_output(content) for content in outputs]
    model = get_model("mockllm/model", custom_outputs=scripted)
    log = run(task, model, tmp_path, limit=1)
    check_solved(log)
    [sample] = log.samples
    history = [m.text for m in sample.messages if isinstance(m, ChatMessageAssistant)]
    assert len(history) == 3
    assert all(("Question:" in h) or ("Answer:" in h) for h in history)
    assert all((thought in h) == carry for h in history)
