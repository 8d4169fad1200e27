"""Unit tests of the problem-level metrics and their answer parsers."""

from __future__ import annotations

import pytest

from infoseek.scorers.problem_metrics import (
    UNSURE,
    best_family_match,
    final_answer_body,
    k_prediction_metrics,
    mss_identification_metrics,
    parse_k_prediction,
    parse_variable_list,
)

# ---------------------------------------------------------------------------
# k prediction


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("Let me think.\nAnswer: 2", 2),
        ("Answer: 1\nreconsidering...\nAnswer: 3", None),  # two answers (issue 18)
        ("**Answer:** 4", 4),
        ("answer: 2.", 2),
        ("Answer: two", 2),
        ("Answer: not ambiguous", 0),
        ("Answer: Not ambiguous.", 0),
        ("Answer: 0", 0),
        ("Answer: ambiguous but not sure how many", UNSURE),
        ("Answer: ambiguous but not sure", UNSURE),
        ("Answer: 2 variables", 2),
        ("The answer is probably 2", None),
        ("Answer: many", None),
        ("Answer:", None),
        ("", None),
        (None, None),
    ],
)
def test_parse_k_prediction(text, expected):
    assert parse_k_prediction(text) == expected


@pytest.mark.parametrize("text", [
    "Answer: 1\nLet me reconsider.\nAnswer: 2",
    "Answer: 2\n\nOn reflection the goal needs more.\n\nAnswer: 3",
    "Answer: not ambiguous\nHmm.\nAnswer: 1",
    "Answer: 2. Actually, 3.",
    "Answer: 2; correction: 3",
    "Answer: 2. Wait, I was wrong.",
    "Answer: 2 (or maybe 3)",
    "Answer: 2 (60% sure)",
    "Answer: 2?",
    "Answer: about 2",
    "Answer: ~2",
    "Answer: 2-ish",
    "Answer: 2, I think",
])
def test_a_second_k_answer_or_a_corrected_one_is_invalid(text):
    """protocols §3.8 (issue 18 class 2): two answer lines naming different k are no answer
    (the last one does not win), and a self-correction, retraction, probability,
    approximation or question mark makes the k answer invalid."""
    assert parse_k_prediction(text) is None
    assert k_prediction_metrics(parse_k_prediction(text), 2)["invalid"] == 1.0


@pytest.mark.parametrize(("text", "expected"), [
    ("Answer: 2\nTo repeat:\nAnswer: 2", 2),
    ("Answer: 2 (rules 1 and 3 need it)", 2),
    ("Answer: 2 because rules 1 and 3 are open", 2),
    ("Answer: 2. Two quantities are missing.", 2),
])
def test_one_k_answer_with_a_justification_or_repeated_is_read(text, expected):
    assert parse_k_prediction(text) == expected


@pytest.mark.parametrize(
    ("predicted", "k", "expected"),
    [
        (2, 2, {"accuracy": 1.0, "under": 0.0, "over": 0.0, "unsure": 0.0, "invalid": 0.0}),
        (1, 2, {"accuracy": 0.0, "under": 1.0, "over": 0.0, "unsure": 0.0, "invalid": 0.0}),
        (0, 2, {"accuracy": 0.0, "under": 1.0, "over": 0.0, "unsure": 0.0, "invalid": 0.0}),
        (4, 2, {"accuracy": 0.0, "under": 0.0, "over": 1.0, "unsure": 0.0, "invalid": 0.0}),
        (0, 0, {"accuracy": 1.0, "under": 0.0, "over": 0.0, "unsure": 0.0, "invalid": 0.0}),
        (UNSURE, 2, {"accuracy": 0.0, "under": 0.0, "over": 0.0, "unsure": 1.0, "invalid": 0.0}),
        (None, 2, {"accuracy": 0.0, "under": 0.0, "over": 0.0, "unsure": 0.0, "invalid": 1.0}),
        (-1, 2, {"accuracy": 0.0, "under": 0.0, "over": 0.0, "unsure": 0.0, "invalid": 1.0}),
        ("3", 3, {"accuracy": 0.0, "under": 0.0, "over": 0.0, "unsure": 0.0, "invalid": 1.0}),
        (True, 1, {"accuracy": 0.0, "under": 0.0, "over": 0.0, "unsure": 0.0, "invalid": 1.0}),
    ],
)
def test_k_prediction_metrics(predicted, k, expected):
    assert k_prediction_metrics(predicted, k) == expected


def test_final_answer_body():
    assert final_answer_body("x\nFinal Answer: a, b\n") == "a, b"
    assert final_answer_body("no marker here") is None


# ---------------------------------------------------------------------------
# variable lists

VARIABLES = ["kind", "hurt", "Blue_Eyed", "B", "b"]


def test_parse_variable_list_case_insensitive_and_unknowns():
    text = "I would ask about these.\nAnswer: Kind, HURT, green, blue eyed"
    assert parse_variable_list(text, VARIABLES) == (["kind", "hurt", "Blue_Eyed"], 1)


def test_parse_variable_list_exact_spelling_wins():
    assert parse_variable_list("Answer: b, B", VARIABLES) == (["b", "B"], 0)


def test_parse_variable_list_separators_quotes_and_repeats():
    text = 'Answer: "kind"; `hurt` and [kind].'
    assert parse_variable_list(text, VARIABLES) == (["kind", "hurt"], 0)


def test_parse_variable_list_two_different_answer_lines_are_no_answer():
    # protocols §3.8 (issue 18): a second list is not a correction that wins, it is two answers
    assert parse_variable_list("Answer: kind\nOn reflection:\nAnswer: hurt", VARIABLES) is None
    assert parse_variable_list("Answer: kind\nSo:\nAnswer: kind", VARIABLES) == (["kind"], 0)
    # an echoed example naming no variable is not a second list
    assert parse_variable_list("Like: Answer: GENE1, GENE2\nAnswer: hurt", VARIABLES) == (
        ["hurt"], 0)


def test_parse_variable_list_empty_and_missing():
    assert parse_variable_list("Answer: none", VARIABLES) == ([], 0)
    assert parse_variable_list("Answer:", VARIABLES) == ([], 0)
    assert parse_variable_list("I need kind and hurt", VARIABLES) is None
    assert parse_variable_list(None, VARIABLES) is None


# ---------------------------------------------------------------------------
# MSS identification

FAMILY = [["a", "b"], ["a", "c"]]


def test_exact_canonical():
    assert mss_identification_metrics(["b", "a"], FAMILY, canonical_only=True) == {
        "exact": 1.0,
        "jaccard": 1.0,
        "recall": 1.0,
    }


def test_alternative_counts_only_when_allowed():
    assert mss_identification_metrics(["a", "c"], FAMILY, canonical_only=True) == {
        "exact": 0.0,
        "jaccard": pytest.approx(1 / 3),
        "recall": 0.5,
    }
    assert mss_identification_metrics(["a", "c"], FAMILY, canonical_only=False) == {
        "exact": 1.0,
        "jaccard": 1.0,
        "recall": 1.0,
    }


def test_partial_and_superset():
    assert mss_identification_metrics(["a", "b", "d"], FAMILY, canonical_only=True) == {
        "exact": 0.0,
        "jaccard": pytest.approx(2 / 3),
        "recall": 1.0,
    }
    assert mss_identification_metrics(["d"], FAMILY, canonical_only=False) == {
        "exact": 0.0,
        "jaccard": 0.0,
        "recall": 0.0,
    }
    assert mss_identification_metrics([], FAMILY, canonical_only=True) == {
        "exact": 0.0,
        "jaccard": 0.0,
        "recall": 0.0,
    }


def test_best_match_breaks_jaccard_ties_by_recall():
    family = [["a", "b", "c", "d"], ["a"]]
    # {a, b} vs {a, b, c, d}: jaccard 1/2, recall 1/2; vs {a}: jaccard 1/2, recall 1
    assert best_family_match(["a", "b"], family) == 1
    assert mss_identification_metrics(["a", "b"], family, canonical_only=False) == {
        "exact": 0.0,
        "jaccard": 0.5,
        "recall": 1.0,
    }
    assert mss_identification_metrics(["a", "b"], family, canonical_only=True) == {
        "exact": 0.0,
        "jaccard": 0.5,
        "recall": 0.5,
    }


def test_full_ties_keep_the_canonical_member():
    assert best_family_match(["a"], FAMILY) == 0
    assert best_family_match(["a"], []) == 0


def test_empty_reference():
    assert mss_identification_metrics([], [], canonical_only=True) == {
        "exact": 1.0,
        "jaccard": 1.0,
        "recall": 1.0,
    }
    assert mss_identification_metrics(["a"], [[]], canonical_only=False) == {
        "exact": 0.0,
        "jaccard": 0.0,
        "recall": 1.0,
    }


def test_the_last_answer_marker_on_a_line_wins():
    """Before: the body of "Final answer: Answer: kind, tall" was "Answer: kind, tall", so
    the first named variable read as an unknown item."""
    from infoseek.scorers.problem_metrics import final_answer_body, parse_variable_list

    assert final_answer_body("Final answer: Answer: 2") == "2"
    assert parse_variable_list("Final answer: Answer: kind, tall", ["kind", "tall"]) == (
        ["kind", "tall"], 0)
