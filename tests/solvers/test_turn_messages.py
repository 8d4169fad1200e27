"""Issue 30, prompts a real model can follow, in the seek loop:

(b) the prompt says what happens at the turn cap (``max_turns`` turns in which the model
    may ask, then one last turn in which only an answer counts) and ``total_turns`` counts
    what it said: never more than ``max_turns``, however the last turn went;
(c) one message per turn, never two that contradict each other: after an invalid turn,
    an early answer or a question just before the final turn, the model gets one user
    message, which says what was wrong and then to answer now (no "ask" reminder beside
    "Do not ask");
(d) every template the seek prompts show (system prompt, final turn, reminder) has its
    filled example beside it, so a placeholder such as ``Answer: <number>`` is not the
    only form the model sees.

On e3d0e63: the prompt said "up to N turns in total" while the model got N + 1 calls and
``total_turns`` counted N + 1; the final turn came as a second user message after the
correction that told the model to ask; no template had an example.
"""

from __future__ import annotations

from typing import Any

import pytest
from inspect_ai import eval
from inspect_ai.log import EvalSample, resolve_sample_attachments
from inspect_ai.model import ChatMessageSystem, ChatMessageUser, get_model

from infoseek.answers import answer_kind
from infoseek.builders.datasets import domain_records
from infoseek.domains import domain_names, get_domain
from infoseek.inspect_tasks.gsme_mt import gsme_mt
from infoseek.inspect_tasks.logic_mt import logic_mt
from infoseek.oracles.refusals import reminder
from infoseek.scorers.seek import seek_values
from infoseek.solvers.seek import prompts
from infoseek.stored_forms import turns_from_store
from tests.support.common import assert_eval_success, text_output, tool_output

pytestmark = pytest.mark.usefixtures("no_tokenizer")


@pytest.fixture(scope="module")
def record() -> dict[str, Any]:
    [rec] = domain_records("logic-mt", seed=0, per_k=1, ks=[2])
    return rec


def _run(tmp_path, outputs, **task_args: Any) -> EvalSample:
    model = get_model("mockllm/model", custom_outputs=outputs)
    [log] = eval(logic_mt(per_k=1, k=[2], **task_args), model=model, limit=1,
                 log_dir=str(tmp_path), display="none")
    assert_eval_success(log)
    return log.samples[0]


def _inputs(sample: EvalSample) -> list[list[Any]]:
    resolved = resolve_sample_attachments(sample, "full")
    return [list(e.input) for e in resolved.events if e.event == "model"]


def _no_two_user_messages_in_a_row(sample: EvalSample) -> None:
    for messages in _inputs(sample):
        roles = [m.role for m in messages]
        assert not any(a == b == "user" for a, b in zip(roles, roles[1:])), roles


# ------------------------------------------------------------------ (b) say, then count


@pytest.mark.parametrize("budget", [False, True])
def test_the_prompt_says_what_happens_and_total_turns_counts_it(record, tmp_path,
                                                                budget) -> None:
    entity = record["entity"]
    never = [text_output(f"Question: Is {entity} nothing-at-all?")] * 6
    sample = _run(tmp_path, never, format="text", max_turns=2, budget=budget)
    system = next(m.text for m in sample.messages if isinstance(m, ChatMessageSystem))
    assert "one last turn, in which only an answer counts" in system
    assert "2 turn(s)" in system and "in total" not in system
    calls = _inputs(sample)
    assert len(calls) == 3  # the 2 turns the prompt offers for questions, then the last
    turns = turns_from_store(sample.store["infoseek:turns"])
    assert [t["final_turn"] for t in turns] == [False, False, True]
    values = seek_values(sample.scores)
    assert values["total_turns"] == 2.0  # never more than the prompt's 2
    assert "no answer in the final turn (turn 3)" in sample.scores["sufficiency"].explanation


def test_an_answer_in_the_final_turn_counts_the_turns_before_it(record, tmp_path) -> None:
    entity, target = record["entity"], record["target"]
    outputs = [text_output(f"Question: Is {entity} nothing-at-all?")] * 2 + [
        text_output(f"Answer: {entity} is not {target}.")]
    sample = _run(tmp_path, outputs, format="text", max_turns=2)
    assert seek_values(sample.scores)["total_turns"] == 2.0


# ------------------------------------------------------------ (c) one message per turn


@pytest.mark.parametrize("fmt", ["text", "tool"])
@pytest.mark.parametrize("last", ["no_action", "question", "early_answer", "malformed"])
def test_the_turn_before_the_final_one_gets_one_message(record, tmp_path, fmt,
                                                        last) -> None:
    entity, target, first = record["entity"], record["target"], record["mss_family"][0][0]
    if fmt == "tool":
        turn = {"no_action": tool_output(content="Let me think about it."),
                "question": tool_output(("ask", {"variable": first})),
                "early_answer": tool_output(("answer", {"value": "no"})),
                "malformed": tool_output(("answer", {"value": "perhaps"}))}[last]
        final = tool_output(("answer", {"value": "no"}))
    else:
        turn = text_output({"no_action": "Let me think about it.",
                            "question": f"Question: Is {entity} {first}?",
                            "early_answer": f"Answer: {entity} is not {target}.",
                            "malformed": "Answer: perhaps"}[last])
        final = text_output(f"Answer: {entity} is not {target}.")
    early = last == "early_answer"  # force-ask (k=2) needs two turns: one question first
    ask = (tool_output(("ask", {"variable": first})) if fmt == "tool"
           else text_output(f"Question: Is {entity} {first}?"))
    sample = _run(tmp_path, [ask, turn, final] if early else [turn, final], format=fmt,
                  max_turns=2 if early else 1, force_ask=early)
    _no_two_user_messages_in_a_row(sample)
    calls = _inputs(sample)
    assert len(calls) == (3 if early else 2)
    said = [m.text for m in calls[-1][len(calls[-2]) + 1:] if m.role in ("user", "tool")]
    closing = said[-1]
    assert closing.endswith(prompts.final_turn_prompt(
        get_domain("logic").wording, entity=entity, target=target, fmt=fmt))
    # nothing before the final turn's words tells the model to ask
    before = "\n".join(said)[: -len(prompts.final_turn_prompt(
        get_domain("logic").wording, entity=entity, target=target, fmt=fmt))]
    for contradiction in ("End your message with question line", "Call `ask`",
                          "ask at least"):
        assert contradiction not in before, before
    if last != "question":
        assert before.strip()  # what was wrong is still said


def test_a_turn_that_is_not_the_last_still_gets_its_reminder(record, tmp_path) -> None:
    entity, target = record["entity"], record["target"]
    sample = _run(tmp_path, [text_output("Let me think."),
                             text_output(f"Answer: {entity} is not {target}.")],
                  format="text", max_turns=3)
    _no_two_user_messages_in_a_row(sample)
    [correction] = [m.text for m in sample.messages[2:] if isinstance(m, ChatMessageUser)]
    assert "End your message with question line" in correction
    assert prompts.FINAL_TURN not in correction


# --------------------------------------------------------- (d) examples beside templates


def _domain_templates(name: str) -> list[tuple[str, str]]:
    wording = get_domain(name).wording
    shown = [(wording.question_template.format(entity="Alice"),
              wording.question_example.format(entity="Alice"))]
    if wording.answer_template is not None:
        shown.append((wording.answer_template, wording.answer_example))
    return shown


@pytest.mark.parametrize("name", domain_names())
def test_every_template_shown_has_a_filled_example_beside_it(name) -> None:
    wording = get_domain(name).wording
    system = prompts.seek_system_prompt(wording, entity="Alice", target="kind", fmt="text",
                                        per_turn=1, max_turns=5, budget=False,
                                        force_ask_k=None).splitlines()
    for template, example in _domain_templates(name):
        assert example and "<" not in example and example != template
        assert example.split(":", 1)[0] == template.split(":", 1)[0]
        if template in system:
            assert system[system.index(template) + 1] == f"(for example: {example})"
    final = prompts.final_turn_prompt(
        wording, entity="Alice", target="kind", fmt="text",
        multiline=answer_kind(get_domain(name).answer_kind).multiline).splitlines()
    if wording.answer_template is not None:
        at = final.index(wording.answer_template)
        assert final[at + 1] == f"(for example: {wording.answer_example})"
    text = reminder(wording, "text").format(entity="Alice")
    for _, example in _domain_templates(name):
        assert f"`{example}`" in text


def test_a_math_model_sees_a_filled_answer_line_in_the_final_turn(tmp_path) -> None:
    """End to end on gsme_mt: the final turn shows ``Answer: <number>`` and beside it
    ``Answer: 42``; the example line, echoed whole, is no action (it opens with a
    bracket), while the filled line is an answer."""
    model = get_model("mockllm/model", custom_outputs=[
        text_output("Question: What is nothing_at_all?"),
        text_output("(for example: Answer: 42)"), text_output("Answer: 42")])
    [log] = eval(gsme_mt(k=[1], per_k=1, format="text", max_turns=2), model=model, limit=1,
                 log_dir=str(tmp_path), display="none")
    assert_eval_success(log)
    [sample] = log.samples
    final = [m.text for m in sample.messages if prompts.FINAL_TURN in m.text]
    assert final and "Answer: <number>\n(for example: Answer: 42)" in final[0]
    turns = turns_from_store(sample.store["infoseek:turns"])
    assert turns[1]["reason"] == "no_action" and turns[2]["action"] == "answer"
