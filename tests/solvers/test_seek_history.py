"""What the model reads back, and what the log keeps (issue 8, items 5-10, 16, 17).

Real `inspect_ai.eval` runs on one sample with `mockllm/model` (every output carries a
usage) or the reference models:

- text a model writes that UTF-8 cannot encode (a lone surrogate) and a provider reply
  with no choices never sink an eval, in the seek loop, the incomplete-questions solver
  and the problem-level solver;
- the history holds only turns every provider accepts, and only words the model wrote:
  no `(no action)` stand-in, no empty assistant turn, no native tool call without its
  tool reply; corrections are plain sentences, never reason codes;
- the math prompt states the candidate rule; the k-prediction prompt offers 1..max_k;
  the incomplete solver reminds once; the reference models answer yes/no and use no
  tokens; the per-turn info event shows `known` and `possible_target_values` on top.
"""

from __future__ import annotations

import re
from typing import Any

import pytest
from inspect_ai import Task, eval
from inspect_ai.log import EvalLog, EvalSample, resolve_sample_attachments
from inspect_ai.model import (
    ChatMessageAssistant,
    ChatMessageTool,
    ChatMessageUser,
    ModelOutput,
    get_model,
)

from infoseek.builders.datasets import domain_records
from infoseek.builders.math.gsme_text import CANDIDATES_HEADING, render_equations
from infoseek.contract import MAX_TURN_CHARS, STORE_TURNS
from infoseek.domains import get_domain
from infoseek.inspect_tasks.incomplete_questions import incomplete_questions
from infoseek.inspect_tasks.logic_k_prediction import logic_k_prediction
from infoseek.inspect_tasks.logic_mt import logic_mt
from infoseek.oracles import refusals
from infoseek.solvers.incomplete import prompts as incomplete_prompts
from infoseek.solvers.problem_level.game import ProblemLevelOptions
from infoseek.solvers.problem_level.solver import problem_level_solver
from infoseek.solvers.seek import prompts
from infoseek.solvers.seek.parsing import INVALID_REASONS
from infoseek.solvers.text_format import storable_text
from infoseek.stored_forms import turns_from_store
from tests.support import FIXTURES
from tests.support.common import (
    assert_eval_success,
    loop_messages,
    no_choices_output,
    text_output,
    tool_output,
)

SURROGATE = "\ud800"
LOGIC = get_domain("logic").wording
FIXTURE = FIXTURES / "incomplete_questions.json"
pytestmark = pytest.mark.usefixtures("no_tokenizer")


@pytest.fixture(scope="module")
def record() -> dict[str, Any]:
    """The problem of the first sample of `logic_mt(per_k=1, k=[2])` (hidden value: no)."""
    [rec] = domain_records("logic-mt", seed=0, per_k=1, ks=[2])
    assert rec["target_values"][0] is False
    return rec


def ask(fmt: str, rec: dict, variable: str, extra: str = "") -> ModelOutput:
    if fmt == "tool":
        return tool_output(("ask", {"variable": variable + extra}))
    return text_output(f"Question: Is {rec['entity']} {variable}?{extra}")


def answer(fmt: str, rec: dict) -> ModelOutput:
    if fmt == "tool":
        return tool_output(("answer", {"value": "no"}))
    return text_output(f"Answer: {rec['entity']} is not {rec['target']}.")


def run(task: Task, outputs: list[ModelOutput] | str, tmp_path) -> EvalLog:
    model = outputs if isinstance(outputs, str) else get_model(
        "mockllm/model", custom_outputs=outputs)
    [log] = eval(task, model=model, limit=1, log_dir=str(tmp_path), display="none")
    assert_eval_success(log)
    [sample] = log.samples
    return log


def play(tmp_path, rec: dict, fmt: str, first: list[ModelOutput], **task_args: Any
         ) -> EvalSample:
    """`first`, then ask the canonical MSS and answer no."""
    rest = [ask(fmt, rec, v) for v in rec["mss_family"][0]]
    task = logic_mt(per_k=1, k=[2], format=fmt, **task_args)
    log = run(task, [*first, *rest, answer(fmt, rec)], tmp_path)
    return log.samples[0]


def model_inputs(sample: EvalSample) -> list[list[Any]]:
    """The message lists the model was sent, one per generate call."""
    resolved = resolve_sample_attachments(sample, "full")
    return [list(e.input) for e in resolved.events if e.event == "model"]


def check_history_valid(messages: list[Any]) -> None:
    """What every provider accepts: no empty assistant turn, and every tool call has
    exactly one tool reply right after its assistant message."""
    for i, message in enumerate(messages):
        if not isinstance(message, ChatMessageAssistant):
            continue
        assert message.tool_calls or message.text.strip(), f"empty assistant turn {i}"
        ids = [c.id for c in message.tool_calls or []]
        replies = [m.tool_call_id for m in messages[i + 1 : i + 1 + len(ids)]
                   if isinstance(m, ChatMessageTool)]
        assert replies == ids, (ids, replies)
    answered = [m.tool_call_id for m in messages if isinstance(m, ChatMessageTool)]
    assert len(answered) == len(set(answered))


# ------------------------------------------------------------------ item 5: never sink


def test_storable_text() -> None:
    assert storable_text("plain") == "plain"
    assert storable_text(f"a{SURROGATE}b") == "a\ufffdb"
    assert storable_text("\ud83d\ude00") == "\U0001f600"  # a split pair is joined
    assert storable_text("\udfff\ud83d").encode("utf-8")


@pytest.mark.parametrize("fmt", ["tool", "text"])
def test_a_lone_surrogate_in_a_kept_turn_does_not_sink_the_eval(fmt, record, tmp_path):
    """Before: the kept question line held the surrogate; Inspect's log writer hashed the
    next call's input with a strict encoder and the eval ended in error."""
    other = next(v for v in record["queryable"] if v not in record["mss_family"][0]
                 and v not in record["alternative_only"])
    bad = ask(fmt, record, other, extra=SURROGATE)
    sample = play(tmp_path, record, fmt, [bad], carry_reasoning=True)
    turns = turns_from_store(sample.store["infoseek:turns"])
    assert turns[0]["queries"][0]["raw"].count("\ufffd") == 1
    assert turns[-1]["action"] == "answer" and turns[-1]["answer"] is False
    for messages in model_inputs(sample):
        for message in messages:
            message.model_dump_json()  # strict UTF-8: raises on a surrogate


def test_a_surrogate_in_dropped_reasoning_and_the_answer(record, tmp_path) -> None:
    last = text_output(f"Thinking {SURROGATE} hard.\nAnswer: {record['entity']} is not "
                       f"{record['target']}. {SURROGATE}")
    first, second = record["mss_family"][0]
    task = logic_mt(per_k=1, k=[2], format="text")
    log = run(task, [ask("text", record, first), ask("text", record, second), last], tmp_path)
    [sample] = log.samples
    final = turns_from_store(sample.store["infoseek:turns"])[-1]
    assert final["answer"] is False and "\ufffd" in final["answer_raw"]
    assert SURROGATE not in sample.output.completion


@pytest.mark.parametrize("fmt", ["tool", "text"])
def test_a_reply_with_no_choices_is_an_empty_turn(fmt, record, tmp_path) -> None:
    """Before: IndexError inside Inspect's generate; the sample errored."""
    sample = play(tmp_path, record, fmt, [no_choices_output()])
    turns = turns_from_store(sample.store["infoseek:turns"])
    assert turns[0]["action"] == "invalid" and turns[0]["reason"] == "empty"
    assert turns[-1]["answer"] is False
    correction = refusals.invalid_turn_message("empty", wording=LOGIC, fmt=fmt,
                                              answer_kind="boolean", entity=record["entity"])
    assert correction in loop_messages(sample)
    for messages in model_inputs(sample):
        check_history_valid(messages)


def test_incomplete_solver_survives_surrogates_and_no_choices(tmp_path) -> None:
    outputs = [text_output(f"<question>How many {SURROGATE} apples?</question>"),
               no_choices_output(), text_output("<answer>\\boxed{3}</answer>")]
    log = run(incomplete_questions(source=str(FIXTURE)), outputs, tmp_path)
    [sample] = log.samples
    turns = turns_from_store(sample.store[STORE_TURNS])
    assert "\ufffd" in turns[0]["question"] and "\ufffd" in turns[0]["response"]
    assert turns[1]["response"] == "" and turns[1]["reminded"] is True
    assert turns[2]["boxed"] == "3" and turns[2]["final"] is True


def test_problem_level_solver_survives_surrogates_and_no_choices(tmp_path) -> None:
    for output in (no_choices_output(), text_output(f"Hmm {SURROGATE}\nAnswer: 2")):
        run(logic_k_prediction(per_k=1, k=[2]), [output], tmp_path)


# --------------------------------------------------- items 6, 7: history the model reads


def test_text_format_never_keeps_native_tool_calls(record, tmp_path) -> None:
    """Before: with carry_reasoning the stray tool call stayed without a tool reply."""
    first = record["mss_family"][0][0]
    stray = tool_output(("ask", {"variable": first}),
                        content=f"I will ask.\nQuestion: Is {record['entity']} {first}?")
    sample = play(tmp_path, record, "text", [stray], carry_reasoning=True)
    for messages in model_inputs(sample):
        check_history_valid(messages)
        assert not any(isinstance(m, ChatMessageAssistant) and m.tool_calls for m in messages)
    kept = model_inputs(sample)[1][-2]
    assert kept.text.startswith("I will ask.")  # reasoning carried, as asked


@pytest.mark.parametrize("carry", [False, True])
def test_tool_format_every_call_gets_one_reply(carry, record, tmp_path) -> None:
    first, second = record["mss_family"][0]
    both = tool_output(("ask", {"variable": first}), ("answer", {"value": "no"}))
    twice = tool_output(("ask", {"variable": first}), ("ask", {"variable": second}))
    sample = play(tmp_path, record, "tool", [both, twice], carry_reasoning=carry)
    for messages in model_inputs(sample):
        check_history_valid(messages)


@pytest.mark.parametrize("fmt", ["tool", "text"])
def test_an_action_less_turn_is_not_rewritten(fmt, record, tmp_path) -> None:
    """Before: the history showed `(no action)` (text) or an empty assistant turn (tool)
    and the reminder showed the code `(no_action)`. Now the turn stays as the model wrote
    it, so the correction after it refers to words the model can see."""
    chat = "What a lovely puzzle!"
    bad = tool_output(content=chat) if fmt == "tool" else text_output(chat)
    sample = play(tmp_path, record, fmt, [bad])
    second_call = model_inputs(sample)[1]
    check_history_valid(second_call)
    assistant = [m for m in second_call if isinstance(m, ChatMessageAssistant)]
    assert [m.text for m in assistant] == [chat]  # its own words, nothing added
    assert isinstance(second_call[-2], ChatMessageAssistant)
    last = second_call[-1]
    assert isinstance(last, ChatMessageUser)
    assert last.text == refusals.invalid_turn_message("no_action", wording=LOGIC, fmt=fmt,
                                                     answer_kind="boolean",
                                                     entity=record["entity"])
    for messages in model_inputs(sample):
        for message in messages:
            assert "(no action)" not in message.text and "no_action" not in message.text


@pytest.mark.parametrize("fmt", ["tool", "text"])
@pytest.mark.parametrize("content", ["   ", "x" * (MAX_TURN_CHARS + 1)])
def test_an_empty_or_huge_action_less_turn_is_dropped(fmt, content, record, tmp_path) -> None:
    bad = tool_output(content=content) if fmt == "tool" else text_output(content)
    sample = play(tmp_path, record, fmt, [bad])
    second_call = model_inputs(sample)[1]
    check_history_valid(second_call)
    assert not [m for m in second_call if isinstance(m, ChatMessageAssistant)]
    assert isinstance(second_call[-1], ChatMessageUser)


def test_an_action_turn_keeps_only_the_models_own_lines(record, tmp_path) -> None:
    first = record["mss_family"][0][0]
    turn = text_output(f"Let me think.\nQuestion: Is {record['entity']} {first}?")
    sample = play(tmp_path, record, "text", [turn])
    kept = [m for m in model_inputs(sample)[1] if isinstance(m, ChatMessageAssistant)]
    assert [m.text for m in kept] == [f"Question: Is {record['entity']} {first}?"]


@pytest.mark.parametrize("fmt", ["tool", "text"])
@pytest.mark.parametrize("kind", ["boolean", "number"])
@pytest.mark.parametrize("reason", [*INVALID_REASONS, "not_leaf", None])
def test_every_reason_has_a_plain_sentence(reason, kind, fmt) -> None:
    wording = get_domain("logic" if kind == "boolean" else "math").wording
    message = refusals.invalid_turn_message(reason, wording=wording, fmt=fmt, answer_kind=kind,
                                           entity="Clara")
    codes = [r for r in INVALID_REASONS if "_" in r] + ["not_leaf"]
    assert not any(code in message for code in codes), message
    assert not re.search(r"\(\w{2,}\)", message), message
    assert message.startswith("Your ") or message.startswith("The ") or \
        message.startswith("You "), message


@pytest.mark.parametrize("reason", ["ambiguous", "template", "out_of_range"])
def test_new_reasons_have_their_own_words(reason) -> None:
    sentence = refusals.invalid_turn_problem(reason, fmt="text")
    assert sentence != refusals.INVALID_TURN_FALLBACK


@pytest.mark.parametrize("fmt", ["tool", "text"])
@pytest.mark.parametrize("kind", ["boolean", "number"])
def test_template_lines_are_the_prompts_own_example_lines(fmt, kind) -> None:
    wording = get_domain("logic" if kind == "boolean" else "math").wording
    system = prompts.seek_system_prompt(wording, entity="Clara", target="kind", fmt=fmt,
                                        per_turn=1, max_turns=3, budget=False,
                                        force_ask_k=None)
    lines = prompts.template_lines(wording, entity="Clara", fmt=fmt)
    assert all(line in system.splitlines() for line in lines)
    assert bool(lines) == (fmt == "text")
    if fmt == "text" and kind == "boolean":
        # the two answer lines stand alone (each a real answer), not joined with "or"
        assert "Answer: Clara is kind." in system.splitlines()
        assert "Answer: Clara is not kind." in system.splitlines()
        assert not any(" or " in line and "Answer:" in line for line in system.splitlines())


# --------------------------------------------------------------- items 8, 9, 10, 17, 16


def test_math_prompt_states_the_rule_and_keeps_derived_candidates() -> None:
    [rec] = domain_records("gsme-mt-ext", ks=[2], per_k=1, seed=0)
    assert any(c["kind"] == "derived" for c in rec["candidate_queries"])
    listed = render_equations(rec).split(CANDIDATES_HEADING + ": ")[1].split(", ")
    assert set(listed) == {c["name"] for c in rec["candidate_queries"]}
    assert "refused" in CANDIDATES_HEADING and "may ask about" not in render_equations(rec)


@pytest.mark.parametrize("max_k", [1, 4, 5, 7])
def test_k_prediction_prompt_offers_every_count_up_to_max_k(max_k, tmp_path) -> None:
    base = logic_k_prediction(per_k=1, k=[1])
    task = Task(dataset=base.dataset, scorer=base.scorer,
                solver=problem_level_solver(ProblemLevelOptions("k_prediction", max_k=max_k)))
    log = run(task, [text_output(f"Answer: {max_k}")], tmp_path)
    prompt = log.samples[0].messages[0].text
    offered = re.findall(r"^Answer: (\d+)$", prompt, re.MULTILINE)
    assert offered == [str(k) for k in range(1, max_k + 1)]
    quantity = prompts.problem_level_prompts({"domain": "math"})["k_prediction"].format(
        problem="P", entity="", options=prompts.k_prediction_options(max_k))
    assert re.findall(r"^Answer: (\d+)$", quantity, re.MULTILINE) == offered
    with pytest.raises(ValueError, match="max_k"):
        ProblemLevelOptions("k_prediction", max_k=0)


def test_incomplete_reminds_once_after_a_reply_without_tags(tmp_path) -> None:
    """Before: the first untagged reply ended the episode."""
    outputs = [text_output("Let me think about it."), text_output("Still thinking."),
               text_output("<answer>\\boxed{3}</answer>")]
    log = run(incomplete_questions(source=str(FIXTURE)), outputs, tmp_path)
    [sample] = log.samples
    turns = turns_from_store(sample.store[STORE_TURNS])
    assert [t["behaviour"] for t in turns] == ["no_answer_tag", "no_answer_tag"]
    assert [t["reminded"] for t in turns] == [True, False]
    assert [t["final"] for t in turns] == [False, True]
    assert all(t["user_reply"] is None for t in turns)  # a reminder is not an interaction
    users = [m.text for m in sample.messages if isinstance(m, ChatMessageUser)]
    assert users[-1] == incomplete_prompts.NO_TAG_REMINDER_TEXT


def test_incomplete_raw_variant_is_not_reminded(tmp_path) -> None:
    log = run(incomplete_questions(source=str(FIXTURE), variant="raw"),
              [text_output("No tags here."), text_output("<answer>\\boxed{3}</answer>")], tmp_path)
    assert len(turns_from_store(log.samples[0].store[STORE_TURNS])) == 1


def test_reference_models_answer_yes_or_no_and_use_no_tokens(tmp_path) -> None:
    log = run(logic_mt(per_k=1, k=[2], format="tool"), "infoseek/optimal", tmp_path)
    [sample] = log.samples
    answers = [c.arguments["value"] for m in sample.messages
               if isinstance(m, ChatMessageAssistant) for c in m.tool_calls or []
               if c.function == "answer"]
    assert answers and set(answers) <= {"yes", "no"}
    usage = log.stats.model_usage.get("infoseek/optimal")
    assert usage is None or usage.total_tokens == 0
    assert sample.output.usage is not None and sample.output.usage.total_tokens == 0


def test_turn_event_shows_known_and_possible_values_first(record, tmp_path) -> None:
    log = run(logic_mt(per_k=1, k=[2], format="text"), "infoseek/optimal", tmp_path)
    [sample] = log.samples
    turns = turns_from_store(sample.store["infoseek:turns"])
    # k question turns and one answering turn: k + 1 records, numbered 1..k+1
    assert len(turns) == record["k"] + 1
    assert [t["turn"] for t in turns] == list(range(1, record["k"] + 2))
    events = [e for e in sample.events if e.event == "info"
              and isinstance(e.data, dict) and "infoseek_turn" in e.data]
    assert [e.data["infoseek_turn"] for e in events] == turns
    for event, turn in zip(events, turns, strict=True):
        assert list(event.data)[:3] == ["summary", "known", "possible_target_values"]
        assert event.data["known"] == turn["known"]
        assert event.data["possible_target_values"] == turn["possible_target_values"]
        assert event.data["summary"].startswith(f"turn {turn['turn']}: {turn['action']}")
        assert f"known: {'yes' if turn['known'] else 'no'}" in event.data["summary"]


def test_a_copied_template_line_is_invalid_and_explained(record, tmp_path) -> None:
    copied = text_output(f"Question: Is {record['entity']} <attribute>?")
    sample = play(tmp_path, record, "text", [copied])
    bad = turns_from_store(sample.store["infoseek:turns"])[0]
    assert bad["action"] == "invalid" and bad["reason"] == "template"
    assert refusals.invalid_turn_message("template", wording=LOGIC, fmt="text",
                                        answer_kind="boolean",
                                        entity=record["entity"]) in loop_messages(sample)
