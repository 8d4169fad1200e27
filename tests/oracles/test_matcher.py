"""The `matcher` model role in the seek loop: a free-text question is mapped to a listed
variable, an unmatched one is refused as `not_sure`, and no reply reveals the value of a
variable the model did not ask for. Without the role only listed names count."""

from __future__ import annotations

from typing import Any

import pytest
from inspect_ai import eval, task_with
from inspect_ai.event import ModelEvent
from inspect_ai.log import EvalSample, resolve_sample_attachments
from inspect_ai.model import get_model

from infoseek.inspect_tasks.clinguide_mt import clinguide_mt
from infoseek.oracles import refusal_text
from infoseek.oracles.matcher import matcher_messages, read_matcher_reply
from infoseek.solvers.seek.matcher import question_text
from infoseek.stored_forms import sample_problem, turns_from_store
from tests.support.common import assert_eval_success, forbid_tokenizer, text_output

PROBLEM = "clinguide-low_back_pain-n2-d0"
"""Red flags absent; hidden: Back pain duration, Pain radiating below the knee,
Progressive leg weakness."""
TARGET = "Urgent spinal surgical referral for radiculopathy with motor deficit"
MODEL_TURNS = [
    "I should find out how long this has gone on.\nQuestion: How long has it been hurting?",
    "Question: Does the pain shoot down past the knee into the leg?",
    "Question: Is anything else worrying you?",
    "Question: So what should we do for this patient?",
    "Question: Has the weakness got worse, and what about the duration?",
    f"Answer: {TARGET}",
]
MATCHER_REPLIES = [
    "Back pain duration",
    "`pain radiating below the knee`.",
    "not sure",
    "recommendation",  # the target: not on the list of askable names
    "Progressive leg weakness: yes",  # a name with a value attached: not one name
]


@pytest.fixture(autouse=True)
def _cache(monkeypatch, tmp_path) -> None:
    monkeypatch.setenv("INFOSEEK_CACHE_DIR", str(tmp_path / "cache"))


def episode(tmp_path, matcher: list[str] | None) -> EvalSample:
    seek = clinguide_mt(k=3, format="text", max_turns=8)
    one = seek.dataset.filter(lambda s: s.id == f"{PROBLEM}-{TARGET}")
    assert len(one) == 1
    model = get_model("mockllm/model", custom_outputs=[text_output(t) for t in MODEL_TURNS])
    roles: dict[str, Any] = {}
    if matcher is not None:
        roles["matcher"] = get_model("mockllm/model", custom_outputs=[
            text_output(reply) for reply in matcher])
    with forbid_tokenizer():
        [log] = eval(task_with(seek, dataset=one), model=model, model_roles=roles or None,
                     log_dir=str(tmp_path / "logs"), display="none")
    assert_eval_success(log)
    return log.samples[0]


def queries(sample: EvalSample) -> list[dict[str, Any]]:
    return [q for t in turns_from_store(sample.store["infoseek:turns"]) for q in t["queries"]]


def test_the_matcher_maps_paraphrases_and_refuses_the_rest(tmp_path) -> None:
    sample = episode(tmp_path, MATCHER_REPLIES)
    found = [(q["variable"], q["valid"], q["reason"]) for q in queries(sample)]
    assert found == [
        ("Back pain duration", True, None),
        ("Pain radiating below the knee", True, None),
        (None, False, "not_sure"),
        (None, False, "not_sure"),
        (None, False, "not_sure"),
    ]
    asked = queries(sample)
    assert asked[0]["reply"] == "Back pain duration: 6 to 12 weeks"
    assert asked[1]["reply"] == "Pain radiating below the knee: yes"
    for query in asked[2:]:
        assert query["value"] is None
        assert query["reply"] == refusal_text("not_sure", None, noun="clinical variable")
    # nothing the model did not ask for is revealed: no other variable's name with a
    # value, and never the weakness the last free-text question hinted at
    problem = sample_problem(sample.metadata)
    told = "\n".join(m.text for m in sample.messages if m.role in ("user", "tool"))
    for name in problem["queryable"]:
        if name not in ("Back pain duration", "Pain radiating below the knee"):
            assert f"{name}:" not in told
    # the matcher saw only the question and the askable names, no values
    resolved = resolve_sample_attachments(sample)
    matcher_inputs = [e for e in resolved.events
                      if isinstance(e, ModelEvent) and e.role == "matcher"]
    assert len(matcher_inputs) == 5
    for event in matcher_inputs:
        text = "\n".join(m.text for m in event.input)
        assert "match a question" in text and "- Progressive leg weakness" in text
        assert "6 to 12 weeks" not in text and "absent" not in text
    assert turns_from_store(sample.store["infoseek:turns"])[-1]["answer"] == TARGET


def test_without_a_matcher_only_listed_names_count(tmp_path) -> None:
    sample = episode(tmp_path, None)
    assert [(q["valid"], q["reason"]) for q in queries(sample)] == [(False, "unknown")] * 5
    assert all(q["value"] is None for q in queries(sample))


def test_the_matcher_reply_is_read_strictly() -> None:
    names = ["Back pain duration", "Pregnancy test"]
    assert read_matcher_reply("  **back pain  DURATION**. ", names) == "Back pain duration"
    for reply in ("not sure", "Back pain duration, Pregnancy test", "Pregnancy",
                  "It is Pregnancy test", ""):
        assert read_matcher_reply(reply, names) is None
    system, user = matcher_messages("How long?", names, "clinical variable")
    assert "not sure" in system and user.endswith("- Back pain duration\n- Pregnancy test")


def test_the_matcher_is_given_the_question_of_a_tool_call() -> None:
    assert question_text('ask({"variable": "How long has it hurt?"})') == "How long has it hurt?"
    assert question_text("Question: How long?") == "Question: How long?"
    assert question_text("ask({not json})") == "ask({not json})"
