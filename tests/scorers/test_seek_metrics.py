"""Unit tests of the per-episode seek metrics, on hand-built turn records."""

from __future__ import annotations

import math

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from infoseek.scorers.seek_metrics import (
    SCALAR_METRIC_NAMES,
    answers_match,
    episode_metrics,
    order_correctness,
)
from infoseek.scorers.seek_turns import INVALID_REASONS, invalid_reason_counts, uncertainty_curves

BOTH = [False, True]

PROBLEM = {
    "id": "toy",
    "target": "y",
    "target_values": BOTH,
    "variables": ["a", "b", "c", "d", "y"],
    "queryable": ["a", "b", "c", "d"],
    "alternative_only": ["c"],
    "k": 2,
    "mss_family": [["a", "b"], ["a", "c"]],
}

ORDERED = {
    "id": "path",
    "target": "rec",
    "target_values": ["r1", "r2", "r3"],
    "k": 3,
    "mss_family": [["x", "y", "z"]],
    "required_order": ["x", "y", "z"],
}


def query(variable, *, valid=True, reason=None, value=True):
    return {
        "raw": f"ask {variable}",
        "variable": variable,
        "valid": valid,
        "reason": reason,
        "value": value if valid else None,
        "reply": "ok" if valid else f"refused: {reason}",
    }


def ask(number, *queries, possible=BOTH, known=None):
    return {
        "turn": number,
        "action": "ask" if all(q["valid"] for q in queries) else "invalid",
        "queries": list(queries),
        "answer": None,
        "answer_raw": None,
        "possible_target_values": list(possible),
        "known": len(possible) == 1 if known is None else known,
    }


def answer(number, value, *, possible=BOTH):
    return {
        "turn": number,
        "action": "answer",
        "queries": [],
        "answer": value,
        "answer_raw": f"Answer: {value}",
        "possible_target_values": list(possible),
        "known": len(possible) == 1,
    }


def no_action(number, *, possible=BOTH):
    return {
        "turn": number,
        "action": "none",
        "queries": [],
        "answer": None,
        "answer_raw": None,
        "possible_target_values": list(possible),
        "known": len(possible) == 1,
    }


def metrics(turns, target=True, problem=PROBLEM, initial=BOTH, **kwargs):
    return episode_metrics(problem, turns, target, initial_possible=list(initial), **kwargs)


def invalid_counts(result):
    return {
        reason: result[f"invalid_{reason}"]
        for reason in INVALID_REASONS
        if result[f"invalid_{reason}"]
    }


def test_keys_are_the_documented_scalar_names():
    result = metrics([ask(1, query("a")), answer(2, True)])
    assert list(result) == list(SCALAR_METRIC_NAMES)
    assert all(value is None or isinstance(value, float) for value in result.values())


def test_perfect_episode():
    turns = [
        ask(1, query("a", value=False)),
        ask(2, query("b"), possible=[True]),
        answer(3, True, possible=[True]),
    ]
    result = metrics(turns)
    assert result["accuracy"] == 1.0
    assert result["final_sufficiency"] == 1.0
    assert result["turn_to_sufficiency"] == 2.0
    assert result["total_turns"] == 2.0
    assert result["over_questioning"] == 0.0
    assert result["first_turn_hit"] == 1.0
    assert result["second_turn_hit"] == 1.0
    assert result["query_correctness"] == 1.0
    assert result["query_coverage"] == 1.0
    assert result["best_mss_hits"] == 1.0
    assert result["order_correctness"] is None
    assert result["invalid_total"] == 0.0
    assert result["invalid_other"] == 0.0
    assert invalid_counts(result) == {}
    curves = uncertainty_curves(turns, initial_possible=BOTH)
    assert curves == {
        "uncertainty_curve": [2.0, 2.0, 1.0, 1.0],
        "entropy_curve": [1.0, 1.0, 0.0, 0.0],
    }


def test_wrong_answer_after_sufficiency_is_inaccurate_but_sufficient():
    turns = [
        ask(1, query("a")),
        ask(2, query("b"), possible=[True]),
        answer(3, False, possible=[True]),
    ]
    result = metrics(turns, target=True)
    assert result["accuracy"] == 0.0
    assert result["final_sufficiency"] == 1.0


def test_no_turns():
    result = metrics([])
    assert result["accuracy"] == 0.0
    assert result["final_sufficiency"] == 0.0
    assert result["turn_to_sufficiency"] is None
    assert result["total_turns"] == 0.0
    assert result["over_questioning"] == 0.0
    assert result["first_turn_hit"] is None
    assert result["second_turn_hit"] is None
    assert result["query_correctness"] is None
    assert result["query_coverage"] == 0.0
    assert result["best_mss_hits"] == 0.0
    assert result["order_correctness"] is None
    assert result["invalid_total"] == 0.0
    assert uncertainty_curves([], initial_possible=BOTH) == {
        "uncertainty_curve": [2.0],
        "entropy_curve": [1.0],
    }


def test_no_turns_when_known_initially():
    result = metrics([], initial=[True])
    assert result["final_sufficiency"] == 1.0
    assert result["turn_to_sufficiency"] == 0.0
    assert result["over_questioning"] == 0.0


def test_asking_when_known_initially_is_over_questioning():
    result = metrics(
        [ask(1, query("a"), possible=[True]), answer(2, True, possible=[True])], initial=[True]
    )
    assert result["over_questioning"] == 1.0
    assert result["turn_to_sufficiency"] == 0.0


def test_only_invalid_turns():
    turns = [
        ask(1, query("zzz", valid=False, reason="unknown")),
        ask(2, query("y", valid=False, reason="target")),
        no_action(3),
        ask(
            4,
            query("d", valid=False, reason="forbidden"),
            query("e", valid=False, reason="too_many"),
        ),
    ]
    result = metrics(turns)
    assert result["accuracy"] == 0.0
    assert result["final_sufficiency"] == 0.0
    assert result["turn_to_sufficiency"] is None
    assert result["total_turns"] == 4.0
    assert result["over_questioning"] == 0.0
    assert result["first_turn_hit"] is None
    assert result["second_turn_hit"] is None
    assert result["query_correctness"] is None
    assert result["query_coverage"] == 0.0
    assert result["best_mss_hits"] == 0.0
    assert invalid_counts(result) == {
        "unknown": 1.0,
        "target": 1.0,
        "no_action": 1.0,
        "forbidden": 1.0,
        "too_many": 1.0,
    }
    assert result["invalid_other"] == 0.0
    assert result["invalid_total"] == 5.0
    assert uncertainty_curves(turns, initial_possible=BOTH)["uncertainty_curve"] == [2.0] * 5


def test_answer_without_queries():
    result = metrics([answer(1, False)], target=False)
    assert result["accuracy"] == 1.0
    assert result["final_sufficiency"] == 0.0  # a lucky guess is not sufficiency
    assert result["turn_to_sufficiency"] is None
    assert result["total_turns"] == 0.0
    assert result["over_questioning"] == 0.0
    assert result["first_turn_hit"] is None
    assert result["query_correctness"] is None
    assert result["query_coverage"] == 0.0


def test_over_questioning_after_known():
    turns = [
        ask(1, query("a")),
        ask(2, query("b"), possible=[True]),
        ask(3, query("d"), possible=[True]),
        answer(4, True, possible=[True]),
    ]
    result = metrics(turns)
    assert result["over_questioning"] == 1.0
    assert result["turn_to_sufficiency"] == 2.0
    assert result["total_turns"] == 3.0
    assert result["query_correctness"] == pytest.approx(2 / 3)
    assert result["query_coverage"] == 1.0


def test_invalid_query_after_known_is_still_over_questioning():
    turns = [
        ask(1, query("a")),
        ask(2, query("b"), possible=[True]),
        ask(3, query("qq", valid=False, reason="unknown"), possible=[True]),
    ]
    assert metrics(turns)["over_questioning"] == 1.0


def test_rejected_early_answer_after_known_is_not_over_questioning():
    early = {
        "turn": 2,
        "action": "invalid",
        "queries": [
            {
                "raw": "Answer: True",
                "variable": None,
                "valid": False,
                "reason": "early_answer",
                "value": None,
                "reply": "ask first",
            }
        ],
        "answer": None,
        "answer_raw": "Answer: True",
        "possible_target_values": [True],
        "known": True,
    }
    turns = [ask(1, query("a"), possible=[True]), early, answer(3, True, possible=[True])]
    result = metrics(turns)
    assert result["over_questioning"] == 0.0
    assert result["invalid_early_answer"] == 1.0
    assert result["total_turns"] == 2.0
    assert result["turn_to_sufficiency"] == 1.0


def test_repeated_queries_rejected_as_invalid():
    turns = [
        ask(1, query("a")),
        ask(2, query("a", valid=False, reason="repeated")),
        ask(3, query("c")),
        answer(4, False),
    ]
    result = metrics(turns)
    assert result["invalid_repeated"] == 1.0
    assert result["invalid_total"] == 1.0
    assert result["first_turn_hit"] == 1.0
    assert result["second_turn_hit"] == 0.0  # "c" is only in the alternative MSS
    assert result["query_correctness"] == 0.5
    assert result["query_coverage"] == 0.5
    assert result["best_mss_hits"] == 1.0  # {"a", "c"} is fully covered
    assert result["accuracy"] == 0.0
    # when the alternative-only variable was not askable, only the canonical MSS counts
    restricted = metrics(turns, queryable_for_coverage=["a", "b", "d"])
    assert restricted["best_mss_hits"] == 0.5


def test_repeated_queries_recorded_as_valid():
    turns = [ask(1, query("a")), ask(2, query("a")), ask(3, query("b"), possible=[True])]
    result = metrics(turns)
    assert result["first_turn_hit"] == 1.0
    assert result["second_turn_hit"] == 0.0  # not a *new* MSS variable
    assert result["query_correctness"] == 1.0
    assert result["query_coverage"] == 1.0
    assert result["turn_to_sufficiency"] == 3.0


def test_first_turn_miss():
    turns = [ask(1, query("d")), ask(2, query("a")), ask(3, query("b"), possible=[True])]
    result = metrics(turns)
    assert result["first_turn_hit"] == 0.0
    assert result["second_turn_hit"] == 1.0
    assert result["query_correctness"] == pytest.approx(2 / 3)


def test_several_queries_in_one_turn_keep_their_order():
    turns = [ask(1, query("d"), query("b"), query("a"), possible=[True])]
    result = metrics(turns)
    assert result["first_turn_hit"] == 0.0
    assert result["second_turn_hit"] == 1.0
    assert result["turn_to_sufficiency"] == 1.0
    assert result["total_turns"] == 1.0
    assert result["over_questioning"] == 0.0
    assert result["final_sufficiency"] == 1.0


def test_final_sufficiency_is_read_from_the_last_query_turn():
    # the final answer turn records nothing new; the last query turn decides
    turns = [ask(1, query("a")), ask(2, query("d")), answer(3, True)]
    assert metrics(turns)["final_sufficiency"] == 0.0


def test_known_falls_back_to_possible_values():
    turns = [ask(1, query("a")), ask(2, query("b"), possible=[True])]
    for turn in turns:
        del turn["known"]
    result = metrics(turns)
    assert result["final_sufficiency"] == 1.0
    assert result["turn_to_sufficiency"] == 2.0


def test_unlisted_reason_and_bare_invalid_turn_count_as_other():
    bare = {
        "turn": 2,
        "action": "invalid",
        "queries": [],
        "answer": None,
        "possible_target_values": BOTH,
        "known": False,
    }
    turns = [ask(1, query("?", valid=False, reason="something_new")), bare]
    counts = invalid_reason_counts(turns)
    assert counts == {"other": 2}
    result = metrics(turns)
    assert result["invalid_other"] == 2.0
    assert result["invalid_total"] == 2.0


def test_last_answer_counts():
    turns = [answer(1, False), answer(2, True)]
    assert metrics(turns, target=True)["accuracy"] == 1.0
    assert metrics(turns, target=False)["accuracy"] == 0.0


def test_missing_answer_value_is_wrong():
    assert metrics([answer(1, None)], target=True)["accuracy"] == 0.0


@pytest.mark.parametrize(
    ("given", "hidden", "expected"),
    [
        (True, True, True),
        ("true", True, True),
        ("True ", True, True),
        (False, True, False),
        (3.0000000001, 3, True),
        ("42", 42, True),
        (41.9, 42, False),
        ("Refer to cardiology", "refer to cardiology", True),
        (["a", "b"], ["a", "b"], True),
        (["b", "a"], ["a", "b"], False),
        (None, None, False),
        (1, True, False),
    ],
)
def test_answers_match(given, hidden, expected):
    assert answers_match(given, hidden) is expected


def test_order_correctness_values():
    assert order_correctness(["x", "y", "z"], ["x", "y", "z"]) == 1.0
    assert order_correctness(["y", "x", "z"], ["x", "y", "z"]) == pytest.approx(2 / 3)
    assert order_correctness(["x"], ["x", "y", "z"]) == pytest.approx(1 / 3)
    assert order_correctness([], ["x", "y", "z"]) == 0.0
    assert order_correctness([], []) is None
    # elements are whole names, not characters
    assert order_correctness(["xy"], ["x", "y"]) == 0.0


def test_order_correctness_in_episode():
    three = ["r1", "r2", "r3"]
    turns = [
        ask(1, query("y"), possible=three),
        ask(2, query("w"), possible=three),
        ask(3, query("x"), possible=["r1", "r2"]),
        ask(4, query("y", valid=False, reason="repeated"), possible=["r1", "r2"]),
        ask(5, query("z"), possible=["r2"]),
        answer(6, "r2", possible=["r2"]),
    ]
    result = metrics(turns, target="r2", problem=ORDERED, initial=["r1", "r2", "r3"])
    assert result["order_correctness"] == pytest.approx(2 / 3)
    assert result["accuracy"] == 1.0
    assert result["query_correctness"] == pytest.approx(3 / 4)
    assert result["query_coverage"] == 1.0
    assert result["turn_to_sufficiency"] == 5.0
    curves = uncertainty_curves(turns, initial_possible=["r1", "r2", "r3"])
    assert curves["uncertainty_curve"] == [3.0, 3.0, 3.0, 2.0, 2.0, 1.0, 1.0]
    assert curves["entropy_curve"][0] == pytest.approx(math.log2(3))
    assert curves["entropy_curve"][-1] == 0.0


def test_order_correctness_without_queries_on_ordered_problem():
    result = metrics([answer(1, "r1")], target="r1", problem=ORDERED, initial=["r1", "r2", "r3"])
    assert result["order_correctness"] == 0.0


def test_uncertainty_curve_carries_missing_counts_forward():
    turns = [ask(1, query("a"), possible=[1, 2]), {"turn": 2, "action": "none", "queries": []}]
    curves = uncertainty_curves(turns, initial_possible=[1, 2, 3, 4])
    assert curves["uncertainty_curve"] == [4.0, 2.0, 2.0]
    assert curves["entropy_curve"] == [2.0, 1.0, 1.0]


def test_empty_mss_family():
    problem = {"mss_family": [], "target_values": [True]}
    result = episode_metrics(
        problem, [ask(1, query("a"), possible=[True])], True, initial_possible=[True]
    )
    assert result["first_turn_hit"] == 0.0
    assert result["query_coverage"] is None
    assert result["best_mss_hits"] is None
    assert result["over_questioning"] == 1.0


# ---------------------------------------------------------------------------
# properties over random turn lists

_VARIABLES = ["a", "b", "c", "d", "zzz"]


@st.composite
def random_turns(draw):
    turns = []
    possible = list(BOTH)
    for number in range(1, draw(st.integers(0, 6)) + 1):
        kind = draw(st.sampled_from(["ask", "invalid", "none", "answer"]))
        if kind == "answer":
            turns.append(answer(number, draw(st.booleans()), possible=possible))
            continue
        if kind == "none":
            turns.append(no_action(number, possible=possible))
            continue
        queries = []
        for _ in range(draw(st.integers(1, 3))):
            variable = draw(st.sampled_from(_VARIABLES))
            if kind == "ask":
                queries.append(query(variable))
            else:
                queries.append(
                    query(variable, valid=False, reason=draw(st.sampled_from(INVALID_REASONS)))
                )
        if kind == "ask" and draw(st.booleans()):
            possible = [True]
        turns.append(ask(number, *queries, possible=possible))
    return turns


@settings(max_examples=200, deadline=None)
@given(random_turns())
def test_metric_invariants(turns):
    result = metrics(turns)
    assert list(result) == list(SCALAR_METRIC_NAMES)
    for name in (
        "accuracy",
        "final_sufficiency",
        "over_questioning",
        "first_turn_hit",
        "second_turn_hit",
        "query_correctness",
        "query_coverage",
        "best_mss_hits",
    ):
        assert result[name] is None or 0.0 <= result[name] <= 1.0
    assert (
        result["invalid_total"]
        == sum(result[f"invalid_{reason}"] for reason in INVALID_REASONS) + result["invalid_other"]
    )
    assert result["total_turns"] == sum(1 for t in turns if t["action"] != "answer")
    assert result["best_mss_hits"] >= result["query_coverage"]
    if result["turn_to_sufficiency"] is not None:
        assert 1 <= result["turn_to_sufficiency"] <= len(turns)
    curves = uncertainty_curves(turns, initial_possible=BOTH)
    assert len(curves["uncertainty_curve"]) == len(turns) + 1
    assert len(curves["entropy_curve"]) == len(turns) + 1
