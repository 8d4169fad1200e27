"""Issue 30 class 2 (with class 1 and the answer-line rule on the problem-level
protocols): k-prediction and MSS answers are read as strictly as seek answers (protocols
§3.8), by the one answer-line rule, with everything after the marker read, each refusal
with its reason."""

from __future__ import annotations

import pytest

from infoseek.scorers.problem_metrics import (
    UNSURE,
    k_prediction_metrics,
    mss_identification_metrics,
    parse_k_prediction,
    read_k_prediction,
    read_variable_list,
)

AFTER_K = {
    "correction": "Actually, 3.",
    "alternative": "Or 3.",
    "or_maybe": "Or maybe 3, if rule 4 counts.",
    "retraction": "Wait, I was wrong.",
    "hedge": "Not sure.",
    "i_think": "I think, but I may be off.",
    "confidence": "70%",
    "confidence_sure": "I am 70% sure.",
    "second_value": "3",
}


@pytest.mark.parametrize("gap", ["\n", "\n\n", "\n\nLet me look again at the rules.\n\n"])
@pytest.mark.parametrize("later", sorted(AFTER_K))
def test_a_k_answer_with_a_later_correction_or_hedge_is_not_credited(later, gap):
    text = f"Answer: 2{gap}{AFTER_K[later]}"
    reading = read_k_prediction(text)
    assert reading.reason == "ambiguous", reading
    assert parse_k_prediction(text) is None
    assert k_prediction_metrics(parse_k_prediction(text), 2)["accuracy"] == 0.0


@pytest.mark.parametrize("text", [
    "Answer: two (or 3)", "Answer: two or three", "Answer: 2 (or maybe three)",
    "Answer: ambiguous but not sure how many\n\nActually, 2.",
    "Answer: not ambiguous\n\nOr 1.",
])
def test_a_number_word_beside_another_value_is_ambiguous(text):
    assert read_k_prediction(text).reason == "ambiguous"


def test_a_negative_k_is_not_its_absolute_value():
    predicted = parse_k_prediction("Answer: -2")
    assert predicted != 2
    assert k_prediction_metrics(predicted, 2) == {
        "accuracy": 0.0, "under": 0.0, "over": 0.0, "unsure": 0.0, "invalid": 1.0}
    assert parse_k_prediction("Answer: \u22122") != 2


@pytest.mark.parametrize(("text", "expected"), [
    ("Answer: 2\n\nRules 3 and 4 each need one more fact.", 2),
    ("Answer: 2\n\nI hope this helps.", 2),
    ("Answer: not ambiguous\n\nEvery rule is already settled.", 0),
    ("Answer: ambiguous but not sure how many\n\nThe rules branch too much.", UNSURE),
    ("The answer is: 2", 2),
    ("Final answer: two", 2),
    ("Answer: 3\n\nBecause rules 1, 4 and 7 each depend on a missing attribute.", 3),
])
def test_a_k_answer_with_a_plain_justification_after_a_blank_line_is_read(text, expected):
    assert parse_k_prediction(text) == expected


@pytest.mark.parametrize("text", [
    "1", "2\n", "The problem is not ambiguous.", "I would say the answer is 2.",
    "So my answer: 2",
])
def test_a_reply_without_an_answer_line_is_no_k_answer(text):
    """The one answer-line rule (a bare ``1`` is no answer in any protocol)."""
    assert read_k_prediction(text).reason == "no_action"
    assert k_prediction_metrics(parse_k_prediction(text), 1)["invalid"] == 1.0


# ------------------------------------------------------------------------ MSS lists

VARIABLES = ["kind", "tall", "hurt", "vain", "courteous"]
FAMILY = [["kind", "tall"], ["kind", "hurt"]]


@pytest.mark.parametrize(("text", "reason"), [
    ("Answer: kind, tall / kind, hurt", "ambiguous"),
    ("Answer: kind, tall/hurt", "ambiguous"),
    ("Answer: I think kind, tall", "ambiguous"),
    ("Answer: kind, tall, I think", "ambiguous"),
    ("Answer: kind, tall, hurt, vain, courteous", "ambiguous"),
    ("Answer: kind, tall\n\nActually, hurt instead of tall.", "ambiguous"),
    ("Answer: kind, tall\n\nkind, hurt", "ambiguous"),
    ("Answer: kind, tall\n\nNot sure.", "ambiguous"),
    ("Answer: kind, tall\n\nWait, I was wrong.", "ambiguous"),
    ("Answer: kind, tall\n\n70%", "ambiguous"),
    ("Answer: kind, tall\nAnswer: kind, hurt", "multiple_actions"),
    ("kind, tall", "no_action"),
])
def test_an_mss_answer_that_is_not_one_chosen_set_is_not_credited(text, reason):
    reading = read_variable_list(text, VARIABLES, FAMILY)
    assert (reading.names, reading.reason) == (None, reason)


def test_a_name_that_is_no_variable_is_never_exact():
    reading = read_variable_list("Answer: kind, tall, unicorn", VARIABLES, FAMILY)
    assert (reading.names, reading.unknown) == (["kind", "tall"], 1)
    scores = mss_identification_metrics(reading.names, FAMILY, canonical_only=True,
                                        unknown=reading.unknown)
    assert scores["exact"] == 0.0 and scores["recall"] == 1.0


@pytest.mark.parametrize("text", [
    "Answer: kind, tall",
    "Answer: kind, tall\n\nThese two decide rule 3.",
    "Answer:\n- kind\n- tall\n\nBecause rule 3 needs both.",
    "The answer is: kind, tall",
])
def test_one_chosen_set_is_read(text):
    reading = read_variable_list(text, VARIABLES, FAMILY)
    assert (reading.names, reading.unknown, reading.reason) == (["kind", "tall"], 0, None)


# -------------------------------------- the answer-line rule is in the prompt


@pytest.mark.parametrize("task", ["k", "mss"])
def test_the_problem_level_prompt_states_the_answer_line_rule(task, tmp_path):
    from inspect_ai import eval
    from inspect_ai.model import get_model

    from infoseek.answers.answer_lines import ANSWER_LINE_RULE
    from infoseek.inspect_tasks.logic_k_prediction import logic_k_prediction
    from infoseek.inspect_tasks.logic_mss import logic_mss
    from tests.support.common import assert_eval_success, text_output

    built = (logic_k_prediction if task == "k" else logic_mss)(k=[1], per_k=1)
    model = get_model("mockllm/model", custom_outputs=[text_output("1")])
    [log] = eval(built, model=model, log_dir=str(tmp_path), display="none", limit=1)
    assert_eval_success(log)
    prompt = log.samples[0].messages[0].text
    assert prompt.rstrip().endswith(ANSWER_LINE_RULE)
    assert "Answer:" in prompt  # the line to write is shown
    [score] = log.samples[0].scores.values()
    assert score.value["invalid"] == 1.0  # a bare "1" is no answer (the answer-line rule)
