"""Incomplete questions with a simulated user (protocols §3.7): loader, reply parsing, the
deterministic user and judge, and real offline evals of all three variants."""

from __future__ import annotations

import json
import math
import re
from typing import Any

import pytest
from inspect_ai import Task, eval
from inspect_ai.log import EvalLog, EvalSample
from inspect_ai.model import (
    ChatMessageAssistant,
    ChatMessageTool,
    ChatMessageUser,
    ModelOutput,
    get_model,
)
from inspect_ai.util import store

from infoseek.builders.math.released.incomplete import (
    RECORD_FIELDS,
    IncompleteDataError,
    incomplete_records,
    load_incomplete_questions,
)
from infoseek.contract import STORE_TURNS
from infoseek.inspect_tasks.incomplete_questions import incomplete_questions
from infoseek.scorers.incomplete import answers_match, parse_judgement, rule_judgement, to_number
from infoseek.solvers.incomplete import prompts as incomplete_prompts
from infoseek.solvers.incomplete.boxes import extract_boxed
from infoseek.solvers.incomplete.reading import parse_reply
from infoseek.solvers.incomplete.user import (
    USER_UNKNOWN,
    condition_revealed,
    content_words,
    leaks_number,
    rule_user_reply,
)
from infoseek.stored_forms import problem_from_store, turns_from_store
from tests.support import FIXTURES
from tests.support.common import assert_eval_success, mock_usage, text_output

FIXTURE = FIXTURES / "incomplete_questions.json"
SCORER = "incomplete_scorer"


# Every output here carries usage: reaching for a tokenizer is a failure.
pytestmark = pytest.mark.usefixtures("no_tokenizer")


def run(task: Task, model: Any, tmp_path, **kwargs: Any) -> EvalLog:
    [log] = eval(task, model=model, log_dir=str(tmp_path), display="none",
                 ctl_server=False, **kwargs)
    assert_eval_success(log)
    return log


def task(**kwargs: Any) -> Task:
    return incomplete_questions(source=str(FIXTURE), **kwargs)


def turns_of(sample: EvalSample) -> list[dict[str, Any]]:
    assert "infoseek:incomplete_turns" not in sample.store  # one key holds the turns
    return turns_from_store(sample.store[STORE_TURNS])


def values(sample: EvalSample) -> dict[str, float]:
    return sample.scores[SCORER].value


def metric(log: EvalLog, name: str) -> float:
    return log.results.scores[0].metrics[name].value


def mentions(text: str, answer: Any) -> bool:
    return re.search(rf"(?<![\w.]){re.escape(str(answer))}(?![\w])", text) is not None


# ------------------------------------------------------------------------- loader


def test_loader_reads_the_fixture() -> None:
    records = load_incomplete_questions(str(FIXTURE))
    assert len(records) == 8
    assert all(tuple(r) == RECORD_FIELDS for r in records)
    by_id = {r["id"]: r for r in records}
    assert by_id["hens"]["answer"] == 19
    assert by_id["juice"]["answer"] == 0.625
    assert by_id["rectangle"]["answer"] == "C"
    for record in records:
        assert record["condition"] not in record["new_question"]
        assert not mentions(record["condition"], record["answer"])


def test_loader_uses_row_indices_and_reads_json_lines(tmp_path) -> None:
    rows = [{k: v for k, v in r.items() if k != "id"} for r in json.loads(FIXTURE.read_text())]
    path = tmp_path / "rows.jsonl"
    path.write_text("\n".join(json.dumps(r) for r in rows[:3]) + "\n")
    records = load_incomplete_questions(str(path))
    assert [r["id"] for r in records] == [1, 2, 3]
    assert records[2]["answer"] == 240


BASE = {"question": "Q with c.", "condition": "c", "new_question": "Q.", "answer": 3}


@pytest.mark.parametrize(
    ("bad_row", "field", "words"),
    [
        ({k: v for k, v in BASE.items() if k != "condition"}, "condition", "missing"),
        ({**BASE, "question": 5}, "question", "non-empty string"),
        ({**BASE, "new_question": "   "}, "new_question", "non-empty string"),
        ({**BASE, "answer": True}, "answer", "number or a choice letter"),
        ({**BASE, "answer": None}, "answer", "missing"),
        ({**BASE, "answer": ""}, "answer", "number or a choice letter"),
        ({**BASE, "new_question": "Q with c."}, "new_question", "equals"),
        ({**BASE, "id": "first"}, "id", "repeats"),
    ],
)
def test_malformed_row_names_the_row_and_the_field(tmp_path, bad_row, field, words) -> None:
    path = tmp_path / "bad.json"
    path.write_text(json.dumps([{**BASE, "id": "first"}, {**BASE, "id": "second"}, bad_row]))
    with pytest.raises(IncompleteDataError) as info:
        load_incomplete_questions(str(path))
    message = str(info.value)
    assert "bad.json, row 3" in message and f"'{field}'" in message and words in message, message


def test_missing_or_unreadable_sources_give_clear_errors(tmp_path) -> None:
    # no source: the built math records (tests/builders/test_incomplete_math.py); bad build params
    with pytest.raises(IncompleteDataError, match="count must be"):
        incomplete_records(None, count=0)
    with pytest.raises(IncompleteDataError, match="not found"):
        incomplete_records(str(tmp_path / "absent.json"))
    broken = tmp_path / "broken.json"
    broken.write_text("[{\"question\": ")
    with pytest.raises(IncompleteDataError, match="could not read"):
        incomplete_records(str(broken))
    empty = tmp_path / "empty.json"
    empty.write_text("[]")
    with pytest.raises(IncompleteDataError, match="no incomplete-question rows"):
        incomplete_records(str(empty))
    with pytest.raises(ValueError, match="variant must be one of"):
        task(variant="partial")
    with pytest.raises(ValueError, match="format must be one of"):
        task(format="xml")


# ------------------------------------------------------------------ reply parsing


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("<answer>\\boxed{19}</answer>", "19"),
        ("first \\boxed{3} then \\boxed{4}", "4"),
        ("\\boxed{\\frac{5}{8}}", "\\frac{5}{8}"),
        ("\\boxed{ C }", "C"),
        ("/boxed{12}", "12"),
        ("\\boxed {7}", "7"),
        ("\\boxed{12} and an unclosed \\boxed{13", "12"),
        ("\\boxed{}", None),
        ("\\boxed{8} \\boxed{ }", "8"),
        ("no box at all: 19", None),
        ("", None),
        (None, None),
    ],
)
def test_extract_boxed(text, expected) -> None:
    assert extract_boxed(text) == expected


@pytest.mark.parametrize(
    ("boxed", "answer", "match"),
    [
        ("19", 19, True),
        ("19.00001", 19, True),
        ("19.1", 19, False),
        ("1,900", 1900, True),
        ("\\$130", 130, True),
        ("130 dollars", 130, True),
        ("x = 240", 240, True),
        ("\\frac{5}{8}", 0.625, True),
        ("5/8", 0.625, True),
        ("0.625", "0.625", True),
        ("c", "C", True),
        ("(C)", "C", True),
        ("\\text{C}", "C", True),
        ("C: 21 square cm", "C", True),
        ("D", "C", False),
        ("Cat", "C", False),
        ("seven", 7, False),
        (None, 7, False),
    ],
)
def test_answers_match(boxed, answer, match) -> None:
    assert answers_match(boxed, answer) is match


def test_to_number_reads_plain_values() -> None:
    assert to_number(3) == 3.0
    assert to_number("-2.5") == -2.5
    assert to_number("-\\frac{1}{4}") == -0.25
    assert to_number(True) is None
    assert to_number("B") is None


@pytest.mark.parametrize(
    ("text", "tool_questions", "behaviour", "question"),
    [
        ("<think>easy</think><answer>It is \\boxed{5}.</answer>", None, "boxed_answer", None),
        ("The result is \\boxed{5}.", None, "boxed_answer", None),
        ("<answer>I cannot tell without the price.</answer>", None, "unboxed_answer", None),
        ("<question>How many?</question><answer>\\boxed{2}</answer>", None,
         "boxed_answer", None),
        ("<question>How many?</question><answer>no idea</answer>", None,
         "unboxed_answer", None),
        ("<think>hmm</think><question> How many hens? </question>", None,
         "asked_question", "How many hens?"),
        ("<question>First?</question> <question>Second?</question>", None,
         "asked_question", "First?"),
        ("", ["How fast is the train?"], "asked_question", "How fast is the train?"),
        ("<question>tag?</question>", ["tool?"], "asked_question", "tool?"),
        ("The answer is probably 19.", None, "no_answer_tag", None),
        ("<think>I could write <question>x</question></think>The end.", None,
         "no_answer_tag", None),
        ("<think>\\boxed{3}</think>", None, "no_answer_tag", None),
    ],
)
def test_behaviour_classes(text, tool_questions, behaviour, question) -> None:
    parsed = parse_reply(text, tool_questions)
    assert parsed.behaviour == behaviour
    assert parsed.question == question
    if question is None:
        assert parsed.question_via is None


def test_parsed_reply_details() -> None:
    parsed = parse_reply("<question>First?</question> <question>Second?</question>")
    assert parsed.extra_questions == 1 and parsed.question_via == "tag"
    assert parse_reply("", ["a?"]).question_via == "tool"
    assert parse_reply("Let's assume 5 hens. \\boxed{17}").says_assume_or_suppose
    assert parse_reply("Supposing a speed of 60").says_assume_or_suppose
    assert not parse_reply("Let's say 5 hens. \\boxed{17}").says_assume_or_suppose
    assert parse_reply("Let's say 5 hens. \\boxed{17}").says_lets_say
    assert parse_reply("let us say 5").says_lets_say


# --------------------------------------------------------------- deterministic user


def test_content_words() -> None:
    assert content_words("He buys 7 more hens at the market.") == ["buy", "7", "hen", "market"]
    assert content_words("Each box holds 6 pencils; boxes of berries.") == [
        "box", "hold", "6", "pencil", "berry"]
    assert content_words("How many do you know about it? Please tell me.") == []
    assert content_words("It costs $1,500.") == ["cost", "1500"]


def test_rule_user_reveals_only_related_questions() -> None:
    condition = "He buys 7 more hens at the market."
    reply, revealed = rule_user_reply("How many hens did he buy?", condition)
    assert revealed and condition in reply
    reply, revealed = rule_user_reply("Was it 7?", condition)
    assert revealed
    reply, revealed = rule_user_reply("What is the answer?", condition)
    assert (reply, revealed) == (USER_UNKNOWN, False)
    assert rule_user_reply("", condition) == (USER_UNKNOWN, False)
    assert rule_user_reply(None, condition) == (USER_UNKNOWN, False)


def test_condition_revealed_and_leak_checks() -> None:
    assert condition_revealed("He got 7 more.", "He buys 7 more hens.")
    assert not condition_revealed("He got some more.", "He buys 7 more hens.")
    assert condition_revealed("Yes, the ball is red and round.", "The ball is red and round.")
    assert not condition_revealed("I don't know.", "The ball is red and round.")
    assert leaks_number("So he has 19 hens.", 19, "He buys 7 more hens.")
    assert not leaks_number("He buys 7 more.", 19, "He buys 7 more hens.")
    assert not leaks_number("He buys 7 more.", 7, "He buys 7 more hens.")  # the condition's own
    assert not leaks_number("Option C.", "C", "The rectangle is 7 cm long.")
    assert leaks_number("about 0.625 each", "0.625", "The jug holds 2.5 litres.")


# --------------------------------------------------------------- deterministic judge


def turn(behaviour: str, *, response: str = "", boxed: str | None = None,
         reply: str | None = None, revealed: bool | None = None,
         assume: bool = False, lets_say: bool = False) -> dict[str, Any]:
    return {"behaviour": behaviour, "response": response, "boxed": boxed,
            "user_reply": reply, "revealed": revealed,
            "says_assume_or_suppose": assume, "says_lets_say": lets_say}


def test_rule_judge() -> None:
    asked_and_told = [turn("asked_question", reply="Here...", revealed=True),
                      turn("boxed_answer", boxed="19")]
    assert rule_judgement(asked_and_told) == {"condition_acquired": True,
                                              "assumption_made": False}
    answered_blind = [turn("boxed_answer", boxed="19", response="\\boxed{19}")]
    assert rule_judgement(answered_blind) == {"condition_acquired": False,
                                              "assumption_made": True}
    unboxed_number = [turn("unboxed_answer", response="<answer>about 19</answer>")]
    assert rule_judgement(unboxed_number)["assumption_made"] is True
    refused = [turn("unboxed_answer", response="<answer>I cannot tell.</answer>")]
    assert rule_judgement(refused)["assumption_made"] is False
    asked_in_vain = [turn("asked_question", reply="Sorry", revealed=False),
                     turn("boxed_answer", boxed="19")]
    assert rule_judgement(asked_in_vain)["assumption_made"] is False
    asked_then_assumed = [turn("asked_question", reply="Sorry", revealed=False),
                          turn("boxed_answer", boxed="19", assume=True)]
    assert rule_judgement(asked_then_assumed)["assumption_made"] is True
    lets_say = [turn("asked_question", reply="Sorry", revealed=False),
                turn("boxed_answer", boxed="19", lets_say=True)]
    assert rule_judgement(lets_say)["assumption_made"] is True
    still_asking = [turn("asked_question", reply="Sorry", revealed=False),
                    turn("asked_question")]
    assert rule_judgement(still_asking) == {"condition_acquired": False,
                                            "assumption_made": False}
    assert rule_judgement([]) == {"condition_acquired": False, "assumption_made": False}


def test_parse_judgement() -> None:
    assert parse_judgement("acquired: yes\nassumed: no") == {
        "condition_acquired": True, "assumption_made": False}
    assert parse_judgement("**Acquired**: NO\n**Assumed** - Yes") == {
        "condition_acquired": False, "assumption_made": True}
    assert parse_judgement("acquired: yes") is None
    assert parse_judgement("I think so.") is None


# ------------------------------------------------------------- end to end: reference


@pytest.mark.parametrize(
    ("variant", "fmt"), [("raw", "text"), ("questionable", "text"), ("questionable", "tool"),
                         ("full", "text")],
)
def test_optimal_reference_in_every_variant(variant: str, fmt: str, tmp_path) -> None:
    log = run(task(variant=variant, format=fmt), "infoseek/optimal", tmp_path)
    assert len(log.samples) == 8
    assert metric(log, "accuracy") == 1.0
    assert metric(log, "behaviour_boxed_answer") == 1.0
    for sample in log.samples:
        record = sample.metadata["record"]
        turns = turns_of(sample)
        assert sample.store["infoseek:protocol"] == "incomplete"
        assert problem_from_store(sample.store["infoseek:problem"]) == record
        assert sample.store["infoseek:options"]["variant"] == variant
        first_user = next(m for m in sample.messages if isinstance(m, ChatMessageUser))
        shown = record["question"] if variant == "full" else record["new_question"]
        assert first_user.text == shown
        score = values(sample)
        if variant == "questionable":
            assert [t["behaviour"] for t in turns] == ["asked_question", "boxed_answer"]
            assert turns[0]["user_source"] == "rule" and turns[0]["revealed"]
            assert score["interactions"] == 1.0 and score["interactions_eq_1"] == 1.0
            assert score["condition_acquired"] == 1.0 and score["assumption_made"] == 0.0
            for reply in (t["user_reply"] for t in turns if t["user_reply"]):
                assert not mentions(reply, record["answer"]), (sample.id, reply)
        else:
            assert len(turns) == 1 and score["interactions"] == 0.0
            assert score["interactions_eq_0"] == 1.0
        if variant == "full":
            assert math.isnan(score["condition_acquired"])
            assert math.isnan(score["assumption_made"])
        if variant == "raw":  # the oracle-informed answer is given blind: flagged
            assert score["assumption_made"] == 1.0 and score["condition_acquired"] == 0.0
    assert f"accuracy_variant{variant}" in log.results.scores[0].metrics
    if variant == "questionable":
        assert metric(log, "condition_acquired") == 1.0
        assert metric(log, "interactions_eq_1") == 1.0
        assert "interactions_eq_1_stderr" not in log.results.scores[0].metrics


@pytest.mark.parametrize("variant", ["raw", "questionable", "full"])
def test_random_reference_answers_at_once(variant: str, tmp_path) -> None:
    log = run(task(variant=variant), "infoseek/random", tmp_path)
    assert metric(log, "accuracy") < 1.0
    for sample in log.samples:
        [only] = turns_of(sample)
        assert only["behaviour"] == "boxed_answer"
        assert to_number(only["boxed"]) is not None
        if variant != "full":
            assert values(sample)["assumption_made"] == 1.0
    assert metric(log, "interactions") == 0.0


# ---------------------------------------------------------- end to end: mockllm roles


def test_mockllm_plays_model_user_and_judge(tmp_path) -> None:
    record = next(r for r in json.loads(FIXTURE.read_text()) if r["id"] == "hens")
    seen_turns: list[int] = []
    main_replies = iter([
        "<think>Something is missing.</think><question>What colour are the hens?</question>",
        "<question>How many hens did the farmer buy?</question>",
        "<think>Suppose nothing else changes: 12 + 7.</think><answer>\\boxed{19}</answer>",
    ])

    def main_model(input, tools, tool_choice, config) -> ModelOutput:
        # the solver wrote every earlier turn to the store before this call
        seen_turns.append(len(turns_from_store(store().get(STORE_TURNS))))
        assert store().get("infoseek:protocol") == "incomplete"
        return text_output(next(main_replies))

    user_inputs: list[str] = []
    user_replies = iter(["I'm not sure, I don't know their colour.",
                         "He bought 7 more hens at the market."])

    def user_model(input, tools, tool_choice, config) -> ModelOutput:
        user_inputs.append("\n".join(m.text for m in input))
        return text_output(next(user_replies))

    judge_inputs: list[str] = []

    def judge_model(input, tools, tool_choice, config) -> ModelOutput:
        judge_inputs.append("\n".join(m.text for m in input))
        return text_output("acquired: yes\nassumed: no")

    log = run(
        task(variant="questionable", user="free_text"),
        get_model("mockllm/model", custom_outputs=main_model),
        tmp_path, sample_id="hens",
        model_roles={"user": get_model("mockllm/model", custom_outputs=user_model),
                     "judge": get_model("mockllm/model", custom_outputs=judge_model)},
    )
    [sample] = log.samples
    turns = turns_of(sample)
    assert seen_turns == [0, 1, 2]
    assert [t["behaviour"] for t in turns] == ["asked_question", "asked_question", "boxed_answer"]
    assert [t["user_source"] for t in turns[:2]] == ["model", "model"]
    assert [t["revealed"] for t in turns[:2]] == [False, True]
    # the user model is told the condition and the question, never the answer or the problem
    assert len(user_inputs) == 2
    for text in user_inputs:
        assert record["condition"] in text
        assert record["new_question"] not in text and record["question"] not in text
        assert not mentions(text, record["answer"])
    assert "What colour are the hens?" in user_inputs[0]
    for t in turns[:2]:
        assert not mentions(t["user_reply"], record["answer"])
    # the judge reads the condition and the whole dialogue
    [judged] = judge_inputs
    assert record["condition"] in judged and record["new_question"] in judged
    assert "He bought 7 more hens at the market." in judged
    score = values(sample)
    assert score["accuracy"] == 1.0
    assert score["interactions"] == 2.0 and score["interactions_eq_2"] == 1.0
    assert score["assume_share"] == pytest.approx(1 / 3)
    assert score["condition_acquired"] == 1.0 and score["assumption_made"] == 0.0
    assert score["judge_invalid"] == 0.0
    assert sample.scores[SCORER].metadata["judge_source"] == "model"
    replies = [m.text for m in sample.messages if isinstance(m, ChatMessageUser)][1:]
    assert replies == ["I'm not sure, I don't know their colour.",
                       "He bought 7 more hens at the market."]


def test_tool_format_and_the_question_cap(tmp_path) -> None:
    calls = iter(range(100))

    def main_model(input, tools, tool_choice, config) -> ModelOutput:
        assert [t.name for t in tools] == ["ask_question"]
        number = next(calls)
        out = ModelOutput.for_tool_call("mockllm/model", "ask_question",
                                        {"question": f"How fast does the train go? ({number})"},
                                        tool_call_id=f"call-{number}", content="")
        out.usage = mock_usage()
        return out

    log = run(task(variant="questionable", format="tool", max_interactions=2),
              get_model("mockllm/model", custom_outputs=main_model), tmp_path,
              sample_id="train")
    [sample] = log.samples
    turns = turns_of(sample)
    assert [t["behaviour"] for t in turns] == ["asked_question"] * 3
    assert [t["question_via"] for t in turns] == ["tool"] * 3
    assert [t["final_turn"] for t in turns] == [False, False, True]
    assert [t["user_reply"] is not None for t in turns] == [True, True, False]
    tool_replies = [m.text for m in sample.messages if isinstance(m, ChatMessageTool)]
    assert len(tool_replies) == 2
    assert "80 kilometres per hour" in tool_replies[0]
    assert incomplete_prompts.NO_QUESTIONS_LEFT in tool_replies[1]
    score = values(sample)
    assert score["behaviour_asked_question"] == 1.0 and score["accuracy"] == 0.0
    assert score["interactions"] == 2.0 and score["interactions_eq_2"] == 1.0
    assert set(k for k in score if k.startswith("interactions_eq_")) == {
        "interactions_eq_0", "interactions_eq_1", "interactions_eq_2"}
    assert score["condition_acquired"] == 1.0 and score["assumption_made"] == 0.0
    assert sum(isinstance(m, ChatMessageAssistant) for m in sample.messages) == 3


def test_a_user_reply_that_leaks_the_answer_is_replaced(tmp_path) -> None:
    main = [text_output("<question>How many hens did he buy?</question>"),
            text_output("<answer>\\boxed{19}</answer>")]
    leaky_user = [text_output("He bought 7, so he has 19 hens now.")]
    unreadable_judge = [text_output("Looks fine to me.")]
    log = run(
        task(variant="questionable", user="free_text"),
        get_model("mockllm/model", custom_outputs=main),
        tmp_path, sample_id="hens",
        model_roles={"user": get_model("mockllm/model", custom_outputs=leaky_user),
                     "judge": get_model("mockllm/model", custom_outputs=unreadable_judge)},
    )
    [sample] = log.samples
    first = turns_of(sample)[0]
    assert first["user_source"] == "model-replaced"
    assert first["user_reply"] == "Here is what I know: He buys 7 more hens at the market."
    assert first["revealed"] is True
    assert not any(mentions(m.text, 19) for m in sample.messages[2:]
                   if isinstance(m, ChatMessageUser))
    score = values(sample)
    assert score["judge_invalid"] == 1.0
    assert math.isnan(score["condition_acquired"]) and math.isnan(score["assumption_made"])


def test_raw_variant_behaviours_with_mockllm(tmp_path) -> None:
    replies = {
        "hens": "<think>Let's say he buys 5.</think><answer>\\boxed{17}</answer>",
        "pencils": "<answer>I need to know how many pencils fit in a box.</answer>",
        "train": "How fast is the train going?",
        "rectangle": "<answer>\\boxed{c}</answer>",
    }

    def main_model(input, tools, tool_choice, config) -> ModelOutput:
        question = input[-1].text
        [key] = [k for k, r in by_id.items() if r["new_question"] == question]
        return text_output(replies[key])

    by_id = {r["id"]: r for r in json.loads(FIXTURE.read_text())}
    log = run(task(variant="raw"), get_model("mockllm/model", custom_outputs=main_model),
              tmp_path, sample_id=list(replies))
    got = {s.id: (s.scores[SCORER].metadata["final_behaviour"], values(s)) for s in log.samples}
    assert got["hens"][0] == "boxed_answer" and got["hens"][1]["accuracy"] == 0.0
    assert got["hens"][1]["assumption_made"] == 1.0
    assert got["pencils"][0] == "unboxed_answer"
    assert got["pencils"][1]["assumption_made"] == 0.0
    assert got["train"][0] == "no_answer_tag"
    assert got["rectangle"][0] == "boxed_answer" and got["rectangle"][1]["accuracy"] == 1.0
    assert metric(log, "behaviour_boxed_answer") == 0.5
    for sample in log.samples:
        assert len(turns_of(sample)) == 1  # raw: one reply, no user


def test_registered_under_the_infoseek_prefix() -> None:
    from infoseek.inspect_tasks import _registry

    assert "incomplete_questions" in _registry.PACKAGED_TASKS
