"""The forced final turn restates the exact answer to write (`prompts.final_turn_prompt`):
the ``Answer:`` line(s) of the domain's own rules in the text format, the ``answer``
call and what its value is in the tool format, for every registered domain. A bare
answer sentence without ``Answer:`` is still no answer (protocols §3.8)."""

from __future__ import annotations

from typing import Any

import pytest
from inspect_ai import eval
from inspect_ai.model import get_model

from infoseek.answers import answer_kind
from infoseek.builders.datasets import domain_records
from infoseek.domains import domain_names, get_domain
from infoseek.inspect_tasks.genereg_mt import genereg_mt
from infoseek.inspect_tasks.logic_mt import logic_mt
from infoseek.scorers.seek import seek_values
from infoseek.solvers.seek import prompts
from infoseek.stored_forms import turns_from_store
from tests.support.common import assert_eval_success, loop_messages, text_output, tool_output

pytestmark = pytest.mark.usefixtures("no_tokenizer")


def _final(name: str, fmt: str) -> str:
    domain = get_domain(name)
    return prompts.final_turn_prompt(domain.wording, entity="Alice", target="kind", fmt=fmt,
                                     multiline=answer_kind(domain.answer_kind).multiline)


@pytest.mark.parametrize("name", domain_names())
def test_text_final_turn_restates_the_answer_lines_of_the_rules(name):
    wording = get_domain(name).wording
    rules = wording.text_rules.format(
        per_turn=1, entity="Alice", target="kind",
        question_template=wording.question_template.format(entity="Alice"),
        answer_template=wording.answer_template or "")
    shown = [line.strip() for line in rules.splitlines() if line.strip().startswith("Answer:")]
    text = _final(name, "text")
    assert text.startswith(prompts.FINAL_TURN)
    assert "`Answer:`" in text
    lines = text.splitlines()
    if wording.answer_template is not None:
        assert wording.answer_template in lines
    else:  # the prompt shows the whole answer lines: every one of them, copied
        assert shown and all(line in lines for line in shown)


@pytest.mark.parametrize("name", domain_names())
def test_tool_final_turn_names_the_call(name):
    text = _final(name, "tool")
    assert text.startswith(prompts.FINAL_TURN)
    assert "call the `answer` tool, with your answer as its `value`" in text
    assert "kind" not in text  # names no value of the goal


def test_logic_final_turn_lists_both_answer_sentences():
    assert _final("logic", "text").splitlines()[1:3] == [
        "Answer: Alice is kind.", "Answer: Alice is not kind."]


@pytest.fixture(scope="module")
def record() -> dict[str, Any]:
    [rec] = domain_records("logic-mt", seed=0, per_k=1, ks=[2])
    return rec


def _play(tmp_path, rec, outputs, fmt="text"):
    model = get_model("mockllm/model", custom_outputs=outputs)
    [log] = eval(logic_mt(per_k=1, k=[2], format=fmt, max_turns=1), model=model, limit=1,
                 log_dir=str(tmp_path), display="none")
    assert_eval_success(log)
    [sample] = log.samples
    return sample


@pytest.mark.parametrize("reply, read", [
    ("{entity} is not {target}.", False),  # a bare listed sentence: not an answer
    ("Answer: {entity} is not {target}.", True),
])
def test_the_final_logic_turn_in_an_episode(record, tmp_path, reply, read):
    entity, target = record["entity"], record["target"]
    first = record["mss_family"][0][0]
    sample = _play(tmp_path, record, [
        text_output(f"Question: Is {entity} {first}?"),
        text_output(reply.format(entity=entity, target=target))])
    # the final turn's words close the message that answers the last question turn
    final = [m for m in loop_messages(sample) if prompts.FINAL_TURN in m]
    assert len(final) == 1 and final[0].endswith(prompts.final_turn_prompt(
        get_domain("logic").wording, entity=entity, target=target, fmt="text"))
    assert f"Answer: {entity} is {target}.\nAnswer: {entity} is not {target}." in final[0]
    turns = turns_from_store(sample.store["infoseek:turns"])
    assert [t["final_turn"] for t in turns] == [False, True]
    if read:
        assert turns[-1]["action"] == "answer" and turns[-1]["answer"] is False
    else:
        assert turns[-1]["action"] == "invalid" and turns[-1]["answer"] is None
        assert seek_values(sample.scores)["accuracy"] == 0.0


def test_the_final_genereg_tool_turn(tmp_path):
    model = get_model("mockllm/model", custom_outputs=[
        tool_output(("ask", {"variable": "nothing"})),
        tool_output(("answer", {"value": "A1"}))])
    [log] = eval(genereg_mt(per_k=1, k=[1], family="dynamic", target="attractor",
                            max_turns=1), model=model, limit=1, log_dir=str(tmp_path),
                 display="none")
    assert_eval_success(log)
    [sample] = log.samples
    final = [m for m in loop_messages(sample) if prompts.FINAL_TURN in m]
    assert len(final) == 1 and final[0].endswith(_final("genereg", "tool"))
    assert "call the `answer` tool" in final[0]
