"""Issue 30 on Twenty Questions: a role's reply is read whole (an examiner that says No in
words is read as No, one that says both or hedges stays invalid), an echoed placeholder
or template line is no question, and an evaluator retry says what was wrong with the last
reply (the same request would get the same reply at temperature 0)."""

from __future__ import annotations

import re

import pytest
from inspect_ai import eval
from inspect_ai.model import ModelOutput, get_model

from infoseek.builders.twenty_questions import builder
from infoseek.contract import STORE_TURNS
from infoseek.inspect_tasks.twenty_questions import twenty_questions
from infoseek.solvers.twenty_questions.game import (
    CONFIRMED,
    NO,
    NOT_APPLICABLE,
    PARTIALLY,
    YES,
    GameTable,
    label_problems,
    read_examiner,
    read_labels,
    read_turn,
    truth_labels,
)
from infoseek.solvers.twenty_questions.prompts import TEMPLATE_LINES
from infoseek.stored_forms import turns_from_store
from tests.support.common import assert_eval_success, text_output

pytestmark = pytest.mark.usefixtures("no_tokenizer")

COMMON = builder.game_records("common")
TABLE = GameTable.from_record(COMMON[0])

# ------------------------------------------------------------- the examiner, read whole

SAYS_NO = [
    ("No, I'm afraid. X is a tool.", None), ("No, I'm afraid not.", None),
    ("No. It cannot fly.", "Can X fly?"), ("NO!", None), ("**No**, it is not.", None),
    ("X is not radio.", "Is X a radio?"), ("X is not a radio.", "Is X a radio?"),
    ("It isn't alive.", "Is X alive?"), ("It does not.", "Can X fly?"),
]
SAYS_YES = [
    ("Yes, it is.", None), ("Yes! X is alive.", None), ("Yes, because it barks.", None),
    ("X is alive.", "Is X alive?"), ("It is a mammal.", "Is X a mammal?"),
]
STAYS_INVALID = [
    ("Yes and no.", None), ("No, well, yes.", None), ("Probably yes.", None),
    ("No, I think.", None), ("Maybe.", None), ("Yes, sometimes.", None),
    ("No... actually yes.", None), ("Yes, but not always.", None),
    ("Partially, in some ways yes.", None), ("Yes (80%).", None),
    # a statement that does not repeat the question says nothing about it
    ("X is a dog.", "Is X a cat?"), ("X is not radio.", None),
    # a statement answering a negated question is not read
    ("X is not alive.", "Is X not alive?"), ("Nope, it could be.", None),
]


@pytest.mark.parametrize(("text", "question"), SAYS_NO)
def test_an_examiner_no_said_in_words_is_no(text, question):
    assert read_examiner(text, question) == (NO, True)


@pytest.mark.parametrize(("text", "question"), SAYS_YES)
def test_an_examiner_yes_said_in_words_is_yes(text, question):
    assert read_examiner(text, question) == (YES, True)


@pytest.mark.parametrize(("text", "question"), STAYS_INVALID)
def test_an_examiner_reply_that_says_both_or_hedges_stays_invalid(text, question):
    assert read_examiner(text, question) == (NOT_APPLICABLE, False)


def test_the_bare_answers_are_read_as_before():
    for text, answer in (("Yes", YES), ("no.", NO), ("Partially", PARTIALLY),
                         ("Not applicable", NOT_APPLICABLE), ("You guessed it!", CONFIRMED),
                         ("You guessed it. X is dog.", CONFIRMED)):
        assert read_examiner(text) == (answer, True)


def play(tmp_path, guesser: list[str], **roles):
    outputs = iter(guesser)
    seen: list[str] = []

    def guess(input, tools, tool_choice, config) -> ModelOutput:
        seen.append(input[-1].text)
        return text_output(next(outputs))

    bound = {name: get_model("mockllm/model", custom_outputs=fn) for name, fn in roles.items()}
    [log] = eval(twenty_questions(pool="common", label_batch=200),
                 model=get_model("mockllm/model", custom_outputs=guess), limit=1,
                 model_roles=bound or None, log_dir=str(tmp_path), display="none")
    assert_eval_success(log)
    [sample] = log.samples
    return sample, sample.scores["twenty_questions"].value, seen


def test_an_examiner_model_saying_no_in_words_is_read_as_no_and_measured_right(tmp_path):
    replies = iter(["No, I'm afraid. X is something else.", "X is not radio.",
                    "Yes, X is alive."])
    sample, value, seen = play(
        tmp_path, ["Can X fly?", "Is X a radio?", "Is X alive?", "Guess: cat"],
        examiner=lambda *a: text_output(next(replies)))
    turns = turns_from_store(sample.store[STORE_TURNS])
    assert [t["examiner_answer"] for t in turns[:3]] == [NO, NO, YES]
    assert all(t["examiner_valid"] for t in turns[:3])
    assert value["role_examiner_wrong"] == 0 and value["examiner_invalid"] == 0.0
    # the guesser gets the suite's word for the answer, never the model's text
    assert seen[1].startswith("No\n\n") and "afraid" not in "".join(seen)


# ------------------------------------------------------------- placeholders and templates

PLACEHOLDERS = ["Is X a [X]?", "Is X a [thing]?", "Is X a <thing>?", "Is X {name}?",
                "Guess: <your guess>", "Guess: [your guess]", "Does X [verb]?",
                *TEMPLATE_LINES[:3]]


@pytest.mark.parametrize("final_turn", [False, True])
@pytest.mark.parametrize("text", PLACEHOLDERS)
def test_an_echoed_placeholder_or_template_line_is_no_question(text, final_turn):
    turn = read_turn(text, TABLE, final_turn=final_turn)
    assert (turn.kind, turn.reason, turn.question, turn.guess) == (
        "invalid", "template", None, None)


def test_the_example_question_alone_is_a_fair_question():
    assert read_turn("Is X alive?", TABLE, final_turn=False).kind == "question"


def test_a_placeholder_question_in_a_game_is_counted_as_no_question(tmp_path):
    sample, value, seen = play(tmp_path, ["Is X a [X]?", "Is X alive?", "Guess: dog"])
    turns = turns_from_store(sample.store[STORE_TURNS])
    assert (turns[0]["action"], turns[0]["reason"]) == ("invalid", "template")
    assert value["questions"] == 1.0 and value["accuracy"] == 1.0
    assert "placeholder" in seen[1]  # the correction says what was wrong


# ------------------------------------------------------------------- evaluator retries


def test_label_problems_name_what_is_missing_or_unreadable():
    assert label_problems("1. Yes\n2. No", 2) == "" and read_labels("1. Yes\n2. No", 2)
    said = label_problems("1. Yes\nTwo: no\n4. Pass", 4)
    assert "missing for candidates 2, 3" in said and "'Two: no'" in said
    assert label_problems("1. yes\n1. no\n2. no", 2) == "labels repeated for candidates 1"
    assert label_problems("1. Yes", 3, ["dog", "cat", "horse"]) == (
        "labels missing for candidates 2 (cat), 3 (horse)")
    assert label_problems("", 3) == "the reply was empty"
    assert "no candidate has the numbers 9" in label_problems("1. yes\n9. no", 1)


def test_an_evaluator_retry_says_what_was_wrong_and_is_not_the_same_request(tmp_path):
    requests: list[str] = []

    def evaluator(input, tools, tool_choice, config) -> ModelOutput:
        text = input[-1].text
        requests.append(text)
        if "could not be used" not in text:  # the first reply drops candidates 3 onwards
            return text_output("1. Yes\n2. No")
        question = text.split("\n", 1)[0].removeprefix("Question: ")
        truth = dict(zip(TABLE.candidates, truth_labels(question, None, TABLE), strict=True))
        listed = re.findall(r"(?m)^\d+\. (.+)$", text.split("Candidates:\n", 1)[1])
        return text_output("\n".join(f"{i}. {truth[n]}" for i, n in enumerate(listed, 1)))

    sample, value, _ = play(tmp_path, ["Is X alive?", "Guess: dog"], evaluator=evaluator)
    batches = -(-len(TABLE.candidates) // 200)
    assert len(requests) == 2 * batches
    for first, retry in zip(requests[::2], requests[1::2], strict=True):
        assert retry != first and retry.startswith(first)
        listed = re.findall(r"(?m)^\d+\. (.+)$", first.split("Candidates:\n", 1)[1])
        assert f"labels missing for candidates 3 ({listed[2]}), 4 ({listed[3]})" in retry
    [asked] = [t for t in turns_from_store(sample.store[STORE_TURNS]) if t.get("question")]
    assert asked["label_retries"] == batches and "fail" not in asked["labels"]
    assert value["role_evaluator_wrong"] == 0 and value["label_failures"] == 0
