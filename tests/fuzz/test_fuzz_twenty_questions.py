"""Fuzz of the Twenty Questions game through real offline evals (issue 30): the classes of
the harness that read a role's reply or a guesser's turn wrongly, one kind each, played by
scripted mockllm models in the guesser, examiner and evaluator roles.

The game has one interaction format (text: the guesser writes its questions and its
guess; `infoseek.solvers.twenty_questions.game.TEXT_FORMAT`), so every kind runs in it.
Kinds:

* the examiner says Yes or No in words (``No, I'm afraid. ...``, ``X is not radio.``):
  read as that answer, valid, measured right against the table;
* the examiner says both or hedges: invalid, Not applicable, measured wrong;
* the guesser echoes a placeholder or a template line: no question (``template``);
* the evaluator leaves out labels and is told so on the retry (and labels then);
* the evaluator keeps leaving them out: ``fail`` labels, counted, never credited.

What holds for every kind: the eval ends ``success`` with one scored sample; the
guesser never receives the examiner model's text (only the suite's answer words); a game
is won only by a guess or guess question that names the target.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, field

import pytest
from inspect_ai import eval
from inspect_ai.model import ModelOutput, get_model

from infoseek.builders.twenty_questions import builder
from infoseek.contract import STORE_TURNS
from infoseek.inspect_tasks.twenty_questions import twenty_questions
from infoseek.solvers.twenty_questions.game import (
    EXAMINER_ANSWERS,
    NO,
    NOT_APPLICABLE,
    YES,
    GameTable,
    truth_labels,
)
from infoseek.stored_forms import turns_from_store
from tests.support.common import assert_eval_success, text_output

pytestmark = pytest.mark.usefixtures("no_tokenizer")

RECORD = builder.game_records("common")[0]
TABLE = GameTable.from_record(RECORD)
TARGET = RECORD["answer"]
assert TARGET == "dog"
BATCH = 200


@dataclass(frozen=True)
class Kind:
    """One fuzz kind: what the scripted roles say, and what each turn must read as."""

    guesser: tuple[str, ...]
    turns: tuple[tuple[str, str | None, str | None, bool | None], ...]
    """Per turn: (action, reason, examiner answer, examiner valid)."""
    examiner: tuple[str, ...] | None = None
    evaluator: Callable[[str], str] | None = None
    expect: dict[str, float] = field(default_factory=dict)
    """Score values the sample must have."""


def _labels_of(request: str) -> str:
    """The table's true labels for the candidates an evaluator request lists."""
    question = request.split("\n", 1)[0].removeprefix("Question: ")
    truth = dict(zip(TABLE.candidates, truth_labels(question, None, TABLE), strict=True))
    listed = re.findall(r"(?m)^\d+\. (.+)$", request.split("Candidates:\n", 1)[1])
    return "\n".join(f"{i}. {truth[n]}" for i, n in enumerate(listed, 1))


def _drops_until_told(request: str) -> str:
    return _labels_of(request) if "could not be used" in request else "1. Yes\n2. No"


KINDS: dict[str, Kind] = {
    "examiner_no_in_words": Kind(
        guesser=("Can X fly?", "Is X a radio?", "Does X have feathers?", "Guess: dog"),
        examiner=("No, I'm afraid. X is something else.", "X is not radio.",
                  "No. It does not.", "You guessed it! X is dog."),
        turns=(("question", None, NO, True), ("question", None, NO, True),
               ("question", None, NO, True), ("guess", None, "You guessed it", True)),
        expect={"accuracy": 1.0, "role_examiner_wrong": 0, "examiner_invalid": 0.0}),
    "examiner_yes_in_words": Kind(
        guesser=("Is X alive?", "Is X a mammal?", "Guess: cat"),
        examiner=("Yes, it is.", "It is a mammal.", "No, X is not cat."),
        turns=(("question", None, YES, True), ("question", None, YES, True),
               ("guess", None, NO, True)),
        expect={"accuracy": 0.0, "role_examiner_wrong": 0, "examiner_invalid": 0.0}),
    "examiner_says_both_or_hedges": Kind(
        guesser=("Is X alive?", "Can X fly?", "Is X a mammal?", "Guess: dog"),
        examiner=("Yes and no.", "Probably not.", "No... actually yes.",
                  "You guessed it. X is dog."),
        turns=(("question", None, NOT_APPLICABLE, False),
               ("question", None, NOT_APPLICABLE, False),
               ("question", None, NOT_APPLICABLE, False), ("guess", None, "You guessed it", True)),
        expect={"accuracy": 1.0, "role_examiner_wrong": 3}),
    "placeholder_questions": Kind(
        guesser=("Is X a [X]?", "Is X a <thing>?", "Guess: <your guess>",
                 "- one yes/no question about X, such as: Is X alive?", "Guess: dog"),
        turns=(("invalid", "template", None, None),) * 4 + (("guess", None, None, None),),
        expect={"accuracy": 1.0, "questions": 0.0}),
    "placeholder_final_turn": Kind(
        guesser=("Is X alive?", "Guess: [dog]"),
        turns=(("question", None, YES, None), ("invalid", "template", None, None)),
        expect={"accuracy": 0.0, "questions": 1.0}),
    "evaluator_told_what_was_wrong": Kind(
        guesser=("Is X alive?", "Guess: dog"),
        evaluator=_drops_until_told,
        turns=(("question", None, YES, None), ("guess", None, None, None)),
        expect={"accuracy": 1.0, "label_failures": 0, "role_evaluator_wrong": 0}),
    "evaluator_never_labels": Kind(
        guesser=("Is X alive?", "Guess: dog"),
        evaluator=lambda request: "1. Yes\n2. No",
        turns=(("question", None, YES, None), ("guess", None, None, None)),
        expect={"accuracy": 1.0, "label_failures": len(TABLE.candidates)}),
}


def _play(kind: Kind, tmp_path):
    guesser = iter(kind.guesser)
    seen: list[str] = []

    def guess(input, tools, tool_choice, config) -> ModelOutput:
        seen.append(input[-1].text)
        return text_output(next(guesser))

    roles = {}
    if kind.examiner is not None:
        examiner = iter(kind.examiner)
        roles["examiner"] = get_model(
            "mockllm/model", custom_outputs=lambda *a: text_output(next(examiner)))
    if kind.evaluator is not None:
        label = kind.evaluator
        roles["evaluator"] = get_model(
            "mockllm/model", custom_outputs=lambda input, *a: text_output(label(input[-1].text)))
    [log] = eval(twenty_questions(pool="common", label_batch=BATCH,
                                  max_turns=len(kind.guesser)),
                 model=get_model("mockllm/model", custom_outputs=guess), limit=1,
                 model_roles=roles or None, log_dir=str(tmp_path), display="none")
    assert_eval_success(log)
    [sample] = log.samples
    return sample, seen


@pytest.mark.parametrize("name", list(KINDS))
def test_fuzz_twenty_questions_kind(name, tmp_path):
    kind = KINDS[name]
    sample, seen = _play(kind, tmp_path)
    value = sample.scores["twenty_questions"].value
    turns = turns_from_store(sample.store[STORE_TURNS])
    assert len(turns) == len(kind.turns), turns
    for turn, (action, reason, answer, valid) in zip(turns, kind.turns, strict=True):
        assert (turn["action"], turn["reason"]) == (action, reason), turn
        if answer is not None:
            assert turn["examiner_answer"] == answer, turn
        if valid is not None:
            assert turn["examiner_valid"] is valid, turn
    for key, want in kind.expect.items():
        assert value[key] == want, (key, value[key])
    # what holds for every kind
    said = set(kind.examiner or ()) - set(EXAMINER_ANSWERS)
    assert not any(text in message for text in said for message in seen)
    won = [t for t in turns if t["win"]]
    assert all(t["guess"] == TARGET for t in won)
    assert value["accuracy"] == float(bool(won))
