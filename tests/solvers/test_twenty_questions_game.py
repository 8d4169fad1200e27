"""The Twenty Questions game: reading the guesser (every guess form, in a fuzz test),
the examiner and evaluator readers, the reference guessers over both pools, and
end-to-end games with mockllm playing guesser, examiner, evaluator and transfer reader,
including the published defects (2), (4), (5) and (6) that the suite must not repeat."""

from __future__ import annotations

import inspect
import random
import re
from dataclasses import fields

import pytest
from inspect_ai import eval
from inspect_ai.model import ModelOutput, get_model

from infoseek.builders.twenty_questions import builder
from infoseek.contract import STORE_FINAL, STORE_TURNS
from infoseek.inspect_tasks.twenty_questions import twenty_questions
from infoseek.record_views import public_record
from infoseek.solvers.twenty_questions.game import (
    CONFIRMED,
    EVIDENCE,
    NOT_APPLICABLE,
    GameTable,
    TwentyQuestionsOptions,
    read_examiner,
    read_labels,
    read_turn,
    table_answer,
)
from infoseek.solvers.twenty_questions.strategy import twenty_questions_move
from infoseek.stored_forms import turns_from_store
from tests.support.common import assert_eval_success, text_output

pytestmark = pytest.mark.usefixtures("no_tokenizer")

COMMON = builder.game_records("common")
TABLE = GameTable.from_record(COMMON[0])
assert COMMON[0]["answer"] == "dog"


# ------------------------------------------------------------------------ the options


def test_the_options_are_checked_when_made_and_stored_as_before():
    assert list(TwentyQuestionsOptions().stored().items()) == [
        ("format", "text"), ("max_turns", 20), ("seed", 0)]
    assert TwentyQuestionsOptions(5, 10, 3).stored() == {
        "format": "text", "max_turns": 5, "seed": 3}  # label_batch is not stored
    for given, message in (
            ({"max_turns": 0}, "max_turns must be an integer >= 1; got 0"),
            ({"max_turns": True}, "max_turns must be an integer >= 1; got True"),
            ({"label_batch": 0}, "label_batch must be an integer >= 1; got 0"),
            ({"label_batch": "25"}, "label_batch must be an integer >= 1; got '25'")):
        with pytest.raises(ValueError, match=f"^{re.escape(message)}$"):
            TwentyQuestionsOptions(**given)


def test_the_task_offers_the_options_defaults():
    offered = inspect.signature(twenty_questions).parameters
    for option in fields(TwentyQuestionsOptions):
        assert offered[option.name].default == option.default, option.name


# ---------------------------------------------------------------- reading the guesser

GUESS_FORMS = [
    ("Guess: dog", "dog"), ("Guess: the dog", "dog"), ("Guess: a puppy", "dog"),
    ("Guess: dogs", "dog"), ("guess: Dogs.", "dog"), ("Final guess: **dog**", "dog"),
    ('X is "dog"', "dog"), ("My guess is a hound", "dog"), ("Guess: Dog (it barks)", "dog"),
    ("Guess: New York City", "New York"), ("Guess: nyc", "New York"),
    ("Guess: french fries", "french fries"), ("Guess: oranges", "orange"),
    ("Guess: the Eiffel Tower", "Eiffel Tower"), ("Guess: mice", "mouse"),
]
NEVER_CREDITED = [
    ("Guess: dog or cat", "ambiguous"), ("Guess: dog, cat", "ambiguous"),
    ("Guess: maybe a dog", "ambiguous"), ("Guess: probably a cat", "ambiguous"),
    ("Guess: dog/cat", "ambiguous"), ("Guess: dog\nGuess: cat", "multiple_actions"),
    ("Guess: unicorn", "malformed"), ("Guess: ", "malformed"),
    ("Is it alive?\nGuess: dog", "multiple_actions"), ("", "empty"), ("   ", "empty"),
    ("Is it alive? Does it fly?", "too_many"), ("I think so.", "no_action"),
    ("x" * 30_000, "too_long"),
]


@pytest.mark.parametrize(("text", "candidate"), GUESS_FORMS)
def test_every_guess_form_names_its_candidate(text, candidate):
    turn = read_turn(text, TABLE, final_turn=False)
    assert (turn.kind, turn.guess) == ("guess", candidate)


@pytest.mark.parametrize(("text", "reason"), NEVER_CREDITED)
def test_two_guesses_hedges_and_junk_are_never_credited(text, reason):
    turn = read_turn(text, TABLE, final_turn=False)
    assert (turn.kind, turn.guess, turn.reason) == ("invalid", None, reason)


def test_fuzz_guess_forms_with_decorations():
    """Random decorations of every guess form keep their candidate; any form joined
    with a second name or a hedge is never credited."""
    rng = random.Random(20)
    names = [c for c in TABLE.candidates if " " not in c][:60]
    for _ in range(300):
        name = rng.choice(names)
        alias = rng.choice((name, *TABLE.aliases[name]))
        lead = rng.choice(["Guess: ", "guess:", "Final guess: ", "My guess is ", "X is "])
        body = rng.choice(["{}", "the {}", "a {}", '"{}"', "**{}**", "{}.", "{}!"]).format(alias)
        turn = read_turn(lead + body, TABLE, final_turn=rng.random() < 0.5)
        assert turn.guess == name, (lead + body, turn)
        other = rng.choice([n for n in names if n != name])
        joined = rng.choice(["{} or {}", "{}, {}", "either {} or {}", "{} / {}"]).format(
            alias, other)
        hedged = rng.choice(["maybe {}", "perhaps the {}", "probably {}"]).format(alias)
        for text in (lead + joined, lead + hedged):
            turn = read_turn(text, TABLE, final_turn=False)
            assert turn.kind == "invalid" and turn.guess is None, (text, turn)


def test_a_guess_question_wins_only_on_the_target():
    turn = read_turn("Is X a puppy?", TABLE, final_turn=False)
    assert (turn.kind, turn.guess) == ("question", "dog")
    assert read_examiner(table_answer(turn.question, turn.guess, "dog", TABLE))[0] == CONFIRMED
    assert table_answer("Is it a cat?", "cat", "dog", TABLE) == "No"
    assert read_turn("Is X a mammal?", TABLE, final_turn=False).guess is None
    # on the final turn a question is read as the guess it names, anything else fails
    assert read_turn("Is it a cat?", TABLE, final_turn=True).kind == "guess"
    assert read_turn("Is it alive?", TABLE, final_turn=True).kind == "invalid"


def test_the_offline_examiner_answers_attributes_and_nothing_else():
    assert table_answer("Is X alive?", None, "dog", TABLE) == "Yes"
    assert table_answer("Can it fly?", None, "dog", TABLE) == "No"
    assert table_answer("Is it a mammal or a bird?", None, "dog", TABLE) == NOT_APPLICABLE
    assert table_answer("Is it not alive?", None, "dog", TABLE) == NOT_APPLICABLE
    assert table_answer("What colour is it?", None, "dog", TABLE) == NOT_APPLICABLE


@pytest.mark.parametrize(("text", "answer", "valid"), [
    ("Yes", "Yes", True), ("no.", "No", True), ("Partially", "Partially", True),
    ("Not applicable", NOT_APPLICABLE, True), ("**Yes**", "Yes", True),
    ("You guessed it. X is dog.", CONFIRMED, True), ("You guessed it!", CONFIRMED, True),
    ("Yes, because it barks.", "Yes", True),  # issue 30: the whole reply says Yes
    ("Yes, but no.", NOT_APPLICABLE, False), ("Maybe", NOT_APPLICABLE, False),
    ("Yes and no", NOT_APPLICABLE, False), ("", NOT_APPLICABLE, False),
])
def test_examiner_replies_outside_the_set_become_not_applicable(text, answer, valid):
    assert read_examiner(text) == (answer, valid)


def test_defect_2_every_examiner_answer_maps_to_evidence():
    assert EVIDENCE == {"Yes": "yes", "No": "no", "Partially": "pass",
                        "Not applicable": "pass", CONFIRMED: "yes"}


@pytest.mark.parametrize(("text", "labels"), [
    ("1. Yes\n2. No\n3. Pass", ["yes", "no", "pass"]),
    ("1) yes\n\n2: NO\n3. pass.", ["yes", "no", "pass"]),
    ("1. Yes\n2. No", None), ("1. Yes\n2. Maybe\n3. No", None),
    ("1. Yes\n1. No\n3. Pass", None), ("Here you go:\n1. Yes\n2. No\n3. Pass", None),
])
def test_evaluator_labels_are_read_strictly(text, labels):
    assert read_labels(text, 3) == labels


# ------------------------------------------------------------ the reference guessers


def play(record: dict, model: str) -> tuple[bool, int]:
    """One offline game of a reference guesser against the table examiner."""
    table, target, turns = GameTable.from_record(record), record["answer"], []
    public = public_record(record)
    for number in range(1, 21):
        final = number == 20
        move = twenty_questions_move(model, "twenty_questions", public, turns,
                                     {"final_turn": final},
                                     random.Random(f"{model}:{record['id']}:{number}"))
        turn = read_turn(move["text"], table, final_turn=final)
        assert turn.kind != "invalid", move
        reply = table_answer(turn.question or "", turn.guess, target, table)
        turns.append({"turn": number, "question": turn.question, "guess": turn.guess,
                      "evidence": EVIDENCE[read_examiner(reply)[0]]})
        if turn.guess == target:
            return True, number
        if turn.kind == "guess":
            return False, number
    return False, 20


def accuracy(records: list[dict], model: str) -> float:
    return sum(play(r, model)[0] for r in records) / len(records)


@pytest.mark.parametrize("pool", ["common", "thing"])
def test_optimal_wins_and_random_is_far_below(pool):
    records = builder.game_records(pool)[::6]
    optimal = accuracy(records, "optimal")
    assert optimal >= 0.95
    assert accuracy(records, "random") <= optimal - 0.4


@pytest.mark.slow
@pytest.mark.parametrize("pool", ["common", "thing"])
def test_optimal_wins_on_every_target_of_the_pool(pool):
    records = builder.game_records(pool)
    assert accuracy(records, "optimal") >= 0.95


# ------------------------------------------------------------------ end to end


def run_game(guesser, tmp_path, pool="common", **roles):
    model = get_model("mockllm/model", custom_outputs=guesser)
    bound = {name: get_model("mockllm/model", custom_outputs=reply)
             for name, reply in roles.items()}
    [log] = eval(twenty_questions(pool=pool, label_batch=200), model=model, limit=1,
                 model_roles=bound or None, log_dir=str(tmp_path), display="none")
    assert_eval_success(log)
    [sample] = log.samples
    return sample, sample.scores["twenty_questions"].value


def replies(*texts):
    outputs = iter(texts)

    def reply(input, tools, tool_choice, config) -> ModelOutput:
        return text_output(next(outputs))

    return reply


def always(text):
    return lambda input, tools, tool_choice, config: text_output(text)


def test_defect_4_a_first_question_win_takes_one_turn(tmp_path):
    sample, value = run_game(replies("Is X a puppy?"), tmp_path)
    assert value["accuracy"] == 1.0 and value["turns"] == 1.0 and value["questions"] == 1.0
    assert value["examiner_disagrees"] == 0.0
    # the confirmation is evidence: the belief moves onto the target
    assert value["entropy_t01"] < value["entropy_t02"] + 1e-9 < 6.0


def test_defect_5_the_win_is_the_suites_and_the_examiners_verdict_is_kept(tmp_path):
    examiner = replies("Yes and no: it barks.", "You guessed it. X is cat.")
    sample, value = run_game(replies("Is X alive?", "Guess: cat"), tmp_path,
                             examiner=examiner)
    turns = turns_from_store(sample.store[STORE_TURNS])
    assert [t["examiner_answer"] for t in turns] == [NOT_APPLICABLE, CONFIRMED]
    assert turns[0]["examiner_raw"] == "Yes and no: it barks."
    assert turns[0]["examiner_valid"] is False
    assert value["accuracy"] == 0.0 and value["examiner_win"] == 1.0
    assert value["examiner_disagrees"] == 1.0 and value["examiner_invalid"] == 1.0


def test_defect_2_a_not_applicable_answer_stays_in_the_metrics(tmp_path):
    sample, value = run_game(replies("Is X heavy?", "Is X alive?", "Guess: dog"), tmp_path,
                             examiner=always("Not applicable"))
    assert value["questions"] == 2.0 and value["turns"] == 3.0 and value["accuracy"] == 1.0
    # labelled pass for everyone: no information
    assert value["neig_t01"] == pytest.approx(0.0, abs=1e-12)
    assert value["neig_t02"] > 0.0   # answered Not applicable: pass evidence, kept


def test_defect_6_labelling_failures_are_recorded_and_counted(tmp_path):
    evaluator = always("1. Yes\n2. Maybe")
    sample, value = run_game(replies("Is X alive?", "Guess: dog"), tmp_path,
                             evaluator=evaluator)
    pool_size = len(COMMON[0]["engine"]["candidates"])
    [asked] = [t for t in turns_from_store(sample.store[STORE_TURNS]) if t.get("question")]
    assert asked["labels"] == ["fail"] * pool_size and asked["label_source"] == "model"
    assert value["label_failures"] == pool_size and value["label_retries"] == 2.0


def test_a_model_evaluator_labels_in_batches(tmp_path):
    def evaluator(input, tools, tool_choice, config) -> ModelOutput:
        count = input[-1].text.count("\n") - 1
        return text_output("\n".join(f"{i}. Yes" for i in range(1, count + 1)))

    sample, value = run_game(replies("Is X alive?", "Guess: dog"), tmp_path,
                             evaluator=evaluator)
    [asked] = [t for t in turns_from_store(sample.store[STORE_TURNS]) if t.get("question")]
    assert set(asked["labels"]) == {"yes"} and value["label_failures"] == 0.0


def test_trace_transfer_reads_the_dialogue(tmp_path):
    seen = []

    def transfer(input, tools, tool_choice, config) -> ModelOutput:
        seen.append(input[-1].text)
        return text_output("Guess: puppy")

    sample, value = run_game(replies("Is X alive?", "Guess: cat"), tmp_path,
                             transfer=transfer)
    assert seen == ["Q1: Is X alive?\nA1: Yes"]
    assert value["accuracy"] == 0.0 and value["transfer_accuracy"] == 1.0
    assert value["transfer_model"] == 1.0 and sample.store[STORE_FINAL]["win"] is False


def test_the_last_turn_must_be_a_guess(tmp_path):
    sample, value = run_game(always("Is X alive?"), tmp_path)
    turns = turns_from_store(sample.store[STORE_TURNS])
    assert len(turns) == 20 and turns[-1]["action"] == "invalid" and turns[-1]["final_turn"]
    assert value["accuracy"] == 0.0 and value["questions"] == 19.0


def test_the_scorer_takes_the_turn_cap_from_the_stored_options(tmp_path):
    [log] = eval(twenty_questions(max_turns=3), model="infoseek/optimal", limit=1,
                 log_dir=str(tmp_path), display="none")
    assert_eval_success(log)
    value = log.samples[0].scores["twenty_questions"].value
    assert "entropy_t03" in value and "entropy_t04" not in value
    assert log.eval.scorers[0].options == {}  # no option of its own


@pytest.mark.parametrize("pool", ["common", "thing"])
def test_optimal_plays_the_task_end_to_end(pool, tmp_path):
    [log] = eval(twenty_questions(pool=pool), model="infoseek/optimal", limit=2,
                 log_dir=str(tmp_path), display="none")
    assert_eval_success(log)
    for sample in log.samples:
        value = sample.scores["twenty_questions"].value
        assert value["accuracy"] == 1.0 and value["final_entropy"] < 0.5
        assert value["transfer_accuracy"] == 1.0
