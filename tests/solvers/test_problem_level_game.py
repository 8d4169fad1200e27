"""The problem-level game without Inspect (`infoseek.solvers.problem_level.game`): the
options checked once and stored as before, and the prompt of each protocol."""

from __future__ import annotations

import re

import pytest

from infoseek.solvers.problem_level.game import ProblemLevelOptions, problem_prompt

LOGIC = {"domain": "logic", "entity": "Bob", "k": 2}


def test_the_stored_options_keep_their_keys_values_and_order() -> None:
    assert list(ProblemLevelOptions("k_prediction").stored().items()) == [
        ("k_given", False), ("max_size", 4), ("seed", 0), ("forbid_alternatives", False),
        ("max_k", 4), ("format", "text")]
    options = ProblemLevelOptions("mss_identification", k_given=True, max_size=6,
                                  forbid_alternatives=True, seed=3, max_k=5)
    assert options.stored() == {"k_given": True, "max_size": 6, "seed": 3,
                                "forbid_alternatives": True, "max_k": 5, "format": "text"}


@pytest.mark.parametrize(("given", "message"), [
    ({"protocol": "seek"}, "protocol must be one of k_prediction, mss_identification; "
                           "got 'seek'"),
    ({"max_size": 0}, "max_size must be a positive integer; got 0"),
    ({"max_k": True}, "max_k must be a positive integer; got True"),
    ({"max_k": 0}, "max_k must be a positive integer; got 0"),
])
def test_options_are_checked_when_made(given, message) -> None:
    with pytest.raises(ValueError, match=f"^{re.escape(message)}$"):
        ProblemLevelOptions(**{"protocol": "k_prediction", **given})


def test_the_prompts_offer_the_counts_and_the_size_rule() -> None:
    text = problem_prompt(ProblemLevelOptions("k_prediction", max_k=6), LOGIC, "THE PROBLEM")
    assert "THE PROBLEM" in text
    assert re.findall(r"^Answer: (\d+)$", text, re.M) == ["1", "2", "3", "4", "5", "6"]
    given = problem_prompt(ProblemLevelOptions("mss_identification", k_given=True), LOGIC, "P")
    free = problem_prompt(ProblemLevelOptions("mss_identification", max_size=7), LOGIC, "P")
    assert "2" in given and "7" in free and given != free
