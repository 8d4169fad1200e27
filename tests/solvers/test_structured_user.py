"""Issue 30, class 6: the default simulated user of incomplete_questions cannot leak the
answer by construction. The `user` model only picks whether the question asks for the
missing condition; the words the seeker receives are the suite's own. A user model that
tries to state the answer in any form changes nothing the seeker sees."""

from __future__ import annotations

import json
from typing import Any

import pytest
from inspect_ai import eval
from inspect_ai.log import EvalSample
from inspect_ai.model import ChatMessageAssistant, ModelOutput, get_model
from inspect_ai.util import store

from infoseek.contract import STORE_PROBLEM, STORE_TURNS
from infoseek.inspect_tasks.incomplete_questions import incomplete_questions
from infoseek.solvers.incomplete.user import (
    USER_REVEAL,
    USER_UNKNOWN,
    read_user_pick,
)
from infoseek.stored_forms import problem_from_store, turns_from_store
from tests.support import FIXTURES
from tests.support.common import assert_eval_success, text_output

pytestmark = pytest.mark.usefixtures("no_tokenizer")

HENS = next(r for r in json.loads((FIXTURES / "incomplete_questions.json").read_text())
            if r["id"] == "hens")
ATTEMPTS = {
    "clean": "1",
    "roman": "XIX",
    "roman_sentence": "1. He now has XIX hens.",
    "hex": "0x13",
    "spanish": "diecinueve",
    "german": "Er hat jetzt neunzehn Hühner.",
    "riddle": "one more than eighteen",
    "product": "7 times 3 minus 2",
    "dozen": "a dozen and seven",
    "spaced": "1 9",
    "letter": "The answer is C",
    "pick_then_answer": "1\n\nThe farmer has 19 hens.",
    "none_then_answer": "none, but he has 19 hens",
}


def _sample_id() -> str:
    return str(problem_from_store(store().get(STORE_PROBLEM))["id"])


def _seeker(input, tools, tool_choice, config) -> ModelOutput:
    done = len(turns_from_store(store().get(STORE_TURNS)) or [])
    if done == 0:
        return text_output("<question>How many hens did the farmer buy?</question>")
    return text_output("<answer>\\boxed{19}</answer>")


def _adversary(input, tools, tool_choice, config) -> ModelOutput:
    return text_output(ATTEMPTS[_sample_id()])


def _seen(sample: EvalSample) -> list[str]:
    """Everything the seeker is shown: every message that is not its own."""
    return [m.text for m in sample.messages if not isinstance(m, ChatMessageAssistant)]


@pytest.fixture(scope="module")
def played(tmp_path_factory) -> dict[str, Any]:
    folder = tmp_path_factory.mktemp("structured-user")
    source = folder / "records.json"
    source.write_text(json.dumps([{**HENS, "id": name} for name in ATTEMPTS]))
    [log] = eval(incomplete_questions(source=str(source)),
                 model=get_model("mockllm/model", custom_outputs=_seeker),
                 model_roles={"user": get_model("mockllm/model", custom_outputs=_adversary)},
                 log_dir=str(folder), display="none", ctl_server=False)
    assert_eval_success(log)
    return {str(s.id): s for s in log.samples}


@pytest.mark.parametrize("name", [n for n in ATTEMPTS if n != "clean"])
def test_a_user_model_stating_the_answer_changes_nothing_the_seeker_sees(played, name):
    assert _seen(played[name]) == _seen(played["clean"])
    for text in _seen(played[name])[2:]:
        assert ATTEMPTS[name] not in text


def test_the_seeker_gets_the_suites_words_from_the_condition(played):
    [reply] = [t["user_reply"] for t in turns_from_store(played["clean"].store[STORE_TURNS])
               if t["user_reply"] is not None]
    assert reply == USER_REVEAL.format(condition=HENS["condition"])
    turns = turns_from_store(played["clean"].store[STORE_TURNS])
    assert turns[0]["user_source"] == "model-choice"
    assert turns_from_store(played["roman"].store[STORE_TURNS])[0]["user_source"] == (
        "model-unreadable")


def test_the_users_pick_is_read_strictly_like_the_matchers():
    assert read_user_pick("1") is True and read_user_pick(" 1. ") is True
    assert read_user_pick("None") is False and read_user_pick("`none`") is False
    for reply in ("1 or none", "1, he bought 7", "XIX", "one", "", "none.\n19"):
        assert read_user_pick(reply) is None, reply


def test_none_gives_the_suites_unknown_reply(tmp_path):
    [log] = eval(incomplete_questions(source=str(FIXTURES / "incomplete_questions.json")),
                 model=get_model("mockllm/model", custom_outputs=_seeker),
                 model_roles={"user": get_model("mockllm/model",
                                                custom_outputs=[text_output("none")])},
                 sample_id="hens", log_dir=str(tmp_path), display="none", ctl_server=False)
    assert_eval_success(log)
    first = turns_from_store(log.samples[0].store[STORE_TURNS])[0]
    assert first["user_reply"] == USER_UNKNOWN and first["revealed"] is False
