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
from infoseek.contract import NON_ASKING_REASONS, STOP_REASONS, TERMINAL_REASONS
from infoseek.inspect_tasks.genereg_mt import genereg_mt
from infoseek.inspect_tasks.logic_k_prediction import logic_k_prediction
from infoseek.inspect_tasks.logic_mss import logic_mss
from infoseek.inspect_tasks.logic_mt import logic_mt
from infoseek.scorers.inspect_scorers import log_metrics, seek_values
from infoseek.scorers.seek_metrics import invalid_reason_counts
from tests.support import assert_eval_success, mock_usage, text_output, tool_output

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
    turns = sample.store["infoseek:turns"]
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
    turns = sample.store["infoseek:turns"]
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
