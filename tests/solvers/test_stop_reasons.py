"""A reply Inspect marks as stopped by the context window (``model_length``) or by the
output token limit (``max_tokens``) ends the episode with its own invalid reason
(`infoseek.contract.STOP_REASONS`): nothing in it is read or credited, no further call is
made, and a context overflow's text (the provider's error) leaves the history."""

from __future__ import annotations

from typing import Any

import pytest
from inspect_ai import eval
from inspect_ai.model import ChatMessageAssistant, ModelOutput, get_model

from infoseek.builders.datasets import domain_records
from infoseek.contract import NON_ASKING_REASONS, STOP_REASONS, STORE_TURNS, TERMINAL_REASONS
from infoseek.inspect_tasks.genereg_mt import genereg_mt
from infoseek.inspect_tasks.logic_k_prediction import logic_k_prediction
from infoseek.inspect_tasks.logic_mss import logic_mss
from infoseek.inspect_tasks.logic_mt import logic_mt
from infoseek.scorers.group_metric import log_metrics
from infoseek.scorers.seek import seek_values
from infoseek.scorers.seek_turns import invalid_reason_counts
from infoseek.stored_forms import turns_from_store
from tests.support.common import assert_eval_success, mock_usage, text_output, tool_output

pytestmark = pytest.mark.usefixtures("no_tokenizer")

OVERFLOW = ("This model's maximum context length is 2048 tokens. However, you requested "
            "2391 tokens (2135 in the messages, 256 in the completion).")


def stopped(content: str, stop_reason: str) -> ModelOutput:
    output = ModelOutput.from_content("mockllm/model", content, stop_reason=stop_reason)
    output.usage = mock_usage()
    return output


@pytest.fixture(scope="module")
def record() -> dict[str, Any]:
    [rec] = domain_records("logic-mt", seed=0, per_k=1, ks=[2])
    return rec


def _ask(fmt: str, rec: dict, variable: str) -> ModelOutput:
    if fmt == "tool":
        return tool_output(("ask", {"variable": variable}))
    return text_output(f"Question: Is {rec['entity']} {variable}?")


def _answer_line(rec: dict) -> str:
    return f"Answer: {rec['entity']} is not {rec['target']}."


def _play(tmp_path, outputs, task):
    model = get_model("mockllm/model", custom_outputs=outputs)
    [log] = eval(task, model=model, limit=1, log_dir=str(tmp_path), display="none")
    assert_eval_success(log)
    [sample] = log.samples
    return log, sample


def test_the_contract_maps_inspects_stop_reasons():
    assert STOP_REASONS == {"model_length": "context_overflow", "max_tokens": "truncated"}
    assert TERMINAL_REASONS <= NON_ASKING_REASONS


@pytest.mark.parametrize("fmt", ["text", "tool"])
@pytest.mark.parametrize("stop_reason, content", [
    ("model_length", OVERFLOW),
    ("model_length", "Answer: {entity} is not {target}."),  # never read, even if it reads
    ("max_tokens", "Let me think. Answer: {entity} is not {cut}"),  # cut mid-word
    ("max_tokens", "Answer: {entity} is not {target}."),
])
def test_a_stopped_reply_ends_the_seek_episode(record, tmp_path, fmt, stop_reason, content):
    first = record["mss_family"][0][0]
    text = content.format(entity=record["entity"], target=record["target"],
                          cut=record["target"][:2])
    outputs = [_ask(fmt, record, first), stopped(text, stop_reason),
               text_output(_answer_line(record)), tool_output(("answer", {"value": "no"}))]
    log, sample = _play(tmp_path, outputs, logic_mt(per_k=1, k=[2], format=fmt))
    reason = STOP_REASONS[stop_reason]
    turns = turns_from_store(sample.store["infoseek:turns"])
    assert [(t["action"], t["reason"]) for t in turns] == [("ask", None), ("invalid", reason)]
    assert turns[-1]["answer"] is None and turns[-1]["queries"] == []
    assert "infoseek:final" not in sample.store
    values = seek_values(sample.scores)
    assert values["accuracy"] == 0.0
    assert values["invalid_total"] == 1.0
    assert log_metrics(log)[f"invalid_{reason}"] == 1.0
    assert f"no answer: ended by {reason}" in sample.scores["sufficiency"].explanation
    assistant = [m.text for m in sample.messages if isinstance(m, ChatMessageAssistant)]
    assert len(assistant) == 1 + (reason == "truncated")  # no call after the stop
    if reason == "context_overflow":  # the provider's words are not the model's
        assert all(text not in m for m in assistant)
    assert sample.messages[-1].role == "assistant" or reason == "context_overflow"


def test_an_overflow_on_the_first_turn_of_genereg(tmp_path):
    log, sample = _play(tmp_path, [stopped(OVERFLOW, "model_length")],
                        genereg_mt(per_k=1, k=[1], family="steady", format="text"))
    turns = turns_from_store(sample.store["infoseek:turns"])
    assert [(t["turn"], t["action"], t["reason"]) for t in turns] == [
        (1, "invalid", "context_overflow")]
    assert invalid_reason_counts(turns) == {"context_overflow": 1}
    assert not any(isinstance(m, ChatMessageAssistant) for m in sample.messages)


@pytest.mark.parametrize("stop_reason", ["model_length", "max_tokens"])
def test_problem_level_replies_cut_or_overflowing_are_invalid(tmp_path, stop_reason):
    _, sample = _play(tmp_path, [stopped("Answer: 2", stop_reason)],
                      logic_k_prediction(per_k=1, k=[2]))
    values = sample.scores["k_prediction_scorer"].value
    assert values["invalid"] == 1.0 and values["accuracy"] == 0.0
    assert STOP_REASONS[stop_reason] in sample.scores["k_prediction_scorer"].explanation
    [rec] = domain_records("logic-mt", seed=0, per_k=1, ks=[2])
    names = ", ".join(rec["mss_family"][0])
    _, sample = _play(tmp_path, [stopped(f"Answer: {names}", stop_reason)],
                      logic_mss(per_k=1, k=[2]))
    values = sample.scores["mss_identification_scorer"].value
    assert values["invalid"] == 1.0 and values["exact"] == 0.0


@pytest.mark.parametrize("stop_reason", [None, "model_length", "max_tokens"])
def test_single_turn_replies_cut_or_overflowing_are_invalid(tmp_path, stop_reason):
    from infoseek.inspect_tasks.logic_q import logic_q
    task = logic_q(per_k=1)
    meta = task.dataset[0].metadata
    line = f"Answer: {meta['choices'].index(meta['correct'][0]) + 1}"
    output = text_output(line) if stop_reason is None else stopped(line, stop_reason)
    _, sample = _play(tmp_path, [output], task)
    [score] = sample.scores.values()
    if stop_reason is None:  # the same line, read as usual, is right
        assert score.value["correct"] == 1.0 and score.value["invalid"] == 0.0
        return
    assert score.value["correct"] == 0.0 and score.value["invalid"] == 1.0
    assert score.explanation == STOP_REASONS[stop_reason]
    assistant = [m for m in sample.messages if isinstance(m, ChatMessageAssistant)]
    assert len(assistant) == (stop_reason == "max_tokens")


# ---------------------------------------------------------------- incomplete_questions

INCOMPLETE_FIXTURE = "tests/support/fixtures/incomplete_questions.json"  # first record: 19 hens
HENS_ANSWER = "<answer>He has \\boxed{19} hens.</answer>"


def _incomplete(tmp_path, variant: str, fmt: str, outputs: list[ModelOutput]):
    """One incomplete_questions sample played by `outputs` in order; the number of
    generate calls made is the length of the returned list of inputs."""
    from infoseek.inspect_tasks.incomplete_questions import incomplete_questions
    calls: list[int] = []

    def model(input, tools, tool_choice, config) -> ModelOutput:
        calls.append(len(input))
        return outputs[min(len(calls), len(outputs)) - 1]

    log, sample = _play(tmp_path, model, incomplete_questions(
        source=INCOMPLETE_FIXTURE, variant=variant, format=fmt))
    return log, sample, calls


def _hens_question(fmt: str) -> ModelOutput:
    question = "How many hens did he buy at the market?"
    if fmt == "tool":
        return tool_output(("ask_user", {"question": question}))
    return text_output(f"<question>{question}</question>")


@pytest.mark.parametrize("fmt", ["text", "tool"])
@pytest.mark.parametrize("variant", ["raw", "questionable", "full"])
@pytest.mark.parametrize("stop_reason, content", [
    (None, HENS_ANSWER),  # the same reply, not stopped, is credited
    ("model_length", OVERFLOW),
    ("model_length", HENS_ANSWER),  # never read, even if it reads
    ("max_tokens", "<think>12 + 7 = 19</think><answer>He has \\boxed{1"),  # cut mid-box
    ("max_tokens", HENS_ANSWER),
    ("max_tokens", "Before answering I would ask: <question>How many"),
])
def test_a_stopped_reply_ends_the_incomplete_episode(tmp_path, variant, fmt, stop_reason,
                                                     content):
    asks = variant == "questionable"
    reply = text_output(content) if stop_reason is None else stopped(content, stop_reason)
    outputs = ([_hens_question(fmt)] if asks else []) + [reply, text_output(HENS_ANSWER)]
    log, sample, calls = _incomplete(tmp_path, variant, fmt, outputs)
    turns = turns_from_store(sample.store[STORE_TURNS])
    score = sample.scores["incomplete_scorer"]
    assert len(calls) == len(turns) == 1 + asks  # no call after the stopped reply
    if asks:
        assert turns[0]["behaviour"] == "asked_question" and turns[0]["user_reply"]
    final = turns[-1]
    assert final["final"] is True and final["reminded"] is False
    if stop_reason is None:
        assert score.value["accuracy"] == 1.0 and final["behaviour"] == "boxed_answer"
        assert score.metadata.get("stop_reason") is None
        assert score.value.get("behaviour_context_overflow", 0.0) == 0.0
        return
    reason = STOP_REASONS[stop_reason]
    assert (final["behaviour"], final["answer_reason"]) == (reason, reason)
    assert final["boxed"] is None and final["boxes"] == [] and final["question"] is None
    assert final["user_reply"] is None and final["response"] == content
    assert score.value["accuracy"] == 0.0
    assert score.value[f"behaviour_{reason}"] == 1.0
    assert sum(score.value[k] for k in score.value if k.startswith("behaviour_")) == 1.0
    assert score.value["interactions"] == float(asks)
    assert score.metadata["stop_reason"] == reason == score.metadata["answer_reason"]
    assert score.metadata["final_behaviour"] == reason
    assert log.results.scores[0].metrics[f"behaviour_{reason}"].value == 1.0
    assistant = [m.text for m in sample.messages if isinstance(m, ChatMessageAssistant)]
    assert len(assistant) == asks + (reason == "truncated")
    if reason == "context_overflow":  # the provider's words are not the model's
        assert all(content not in m for m in assistant)
    else:
        assert sample.messages[-1].role == "assistant"


@pytest.mark.parametrize("stop_reason", ["model_length", "max_tokens"])
def test_a_stopped_ask_user_call_is_not_asked(tmp_path, stop_reason):
    cut = tool_output(("ask_user", {"question": "How many hens did he buy?"}))
    cut.choices[0].stop_reason = stop_reason
    log, sample, calls = _incomplete(tmp_path, "questionable", "tool",
                                     [cut, text_output(HENS_ANSWER)])
    [turn] = turns_from_store(sample.store[STORE_TURNS])
    reason = STOP_REASONS[stop_reason]
    assert len(calls) == 1 and turn["behaviour"] == reason and turn["question"] is None
    assert turn["tool_calls"][0]["function"] == "ask_user"  # recorded, never asked
    assert turn["user_reply"] is None
    assert not any(m.role == "tool" for m in sample.messages)
    value = sample.scores["incomplete_scorer"].value
    assert value["asked"] == 0.0 and value["accuracy"] == 0.0
    assert value[f"behaviour_{reason}"] == 1.0


def test_the_model_judge_is_not_shown_the_overflow_text():
    from infoseek.scorers.incomplete import render_dialogue
    turns = [{"behaviour": "context_overflow", "response": OVERFLOW},
             {"behaviour": "truncated", "response": "<answer>\\boxed{1"}]
    dialogue = render_dialogue("How many hens?", turns)
    assert OVERFLOW not in dialogue and "context" in dialogue
    assert "<answer>\\boxed{1 [reply cut off at the output limit]" in dialogue
