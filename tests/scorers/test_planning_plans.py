"""Issue 30, class 3: a planning_mt plan is credited as exact only when it is one optimal
plan and nothing else. A plan with an extra step after it (after a blank line, or written
without brackets), a step with an unknown action word among the others, or a percentage
beside the plan is never credited, each with its reason: the extra step makes the plan
longer than optimal (``plan_exact`` 0, the scorer says why), the unknown or unbracketed
step is ``malformed``, the percentage ``ambiguous``. Read as the seek loop reads a text
turn (`parse_text_turn`) and a tool ``answer`` value, scored by `plan_metrics`."""

from __future__ import annotations

from typing import Any

import pytest

from infoseek.answers import answer_kind
from infoseek.builders.datasets import domain_records
from infoseek.contract import ACTION_ANSWER
from infoseek.scorers.planning import plan_metrics
from infoseek.solvers.seek.game import SeekOptions
from infoseek.solvers.seek.parsing import parse_text_turn
from infoseek.solvers.seek.session import start_episode
from infoseek.solvers.seek.tool_parsing import parse_tool_calls


@pytest.fixture(scope="module")
def problem() -> tuple[dict[str, Any], Any, list[str]]:
    [record] = domain_records("planning-mt", ks=[2], per_k=1, seed=0)
    value = record["target_values"][0]
    plan = answer_kind("plan").label(value).splitlines()
    assert len(plan) >= 3
    return record, value, plan


def _read(problem, text: str, fmt: str = "text"):
    record, value, _ = problem
    _, context = start_episode(record, {"target_value": value}, SeekOptions(format=fmt))
    if fmt == "tool":
        return parse_tool_calls([("answer", {"value": text})], context, [], "")
    return parse_text_turn(f"Answer: {text}", context, [])


def _scored(problem, parsed) -> tuple[dict[str, float], str]:
    record, value, _ = problem
    turn = {"turn": 1, "action": parsed.kind, "answer": parsed.answer_value,
            "reason": parsed.reason, "queries": []}
    return plan_metrics(record, [turn], value)


def test_the_optimal_plan_with_a_justification_is_exact(problem) -> None:
    _, _, plan = problem
    for text in ("\n".join(plan), "\n".join(plan) + "\n\nThis is shortest because a is "
                 "on b.", "\n".join(plan) + "\n(the shortest plan; (on a b) holds)"):
        parsed = _read(problem, text)
        assert parsed.kind == ACTION_ANSWER, text
        assert _scored(problem, parsed)[0]["plan_exact"] == 1.0


@pytest.mark.parametrize("extra", ["\n\n{step}", "\n{step}", "\nThen {step}"])
def test_an_extra_step_after_the_plan_is_not_exact(problem, extra) -> None:
    _, _, plan = problem
    step = "(put-down a)" if plan[-1].startswith("(stack") else "(pick-up a)"
    parsed = _read(problem, "\n".join(plan) + extra.format(step=step))
    values, note = _scored(problem, parsed)
    assert values["plan_exact"] == 0.0
    if parsed.kind == ACTION_ANSWER:  # read with the extra step: longer than optimal
        assert len(parsed.answer_value) == len(plan) + 1
        assert "not optimal" in note or "does not apply" in note
    else:
        assert parsed.reason in ("malformed", "ambiguous")


@pytest.mark.parametrize("fmt", ["text", "tool"])
@pytest.mark.parametrize("step", ["put-down a", "then put-down a", "- stack a b."])
def test_an_extra_step_without_brackets_is_malformed(problem, step, fmt) -> None:
    _, _, plan = problem
    parsed = _read(problem, "\n".join(plan) + "\n" + step, fmt)
    assert parsed.kind != ACTION_ANSWER and parsed.reason == "malformed"
    assert _scored(problem, parsed)[0]["plan_exact"] == 0.0


@pytest.mark.parametrize("fmt", ["text", "tool"])
@pytest.mark.parametrize("inserted", ["(move a b)", "(lift a)", "move a b", "2. (hover c)",
                                      "(unstack a b) (teleport b c)"])
def test_a_step_with_an_unknown_action_word_is_malformed(problem, inserted, fmt) -> None:
    _, _, plan = problem
    text = "\n".join([plan[0], inserted, *plan[1:]])
    parsed = _read(problem, text, fmt)
    assert parsed.kind != ACTION_ANSWER and parsed.reason == "malformed", text
    values, note = _scored(problem, parsed)
    assert values["plan_exact"] == values["plan_credit"] == 0.0
    assert note == "no readable plan (last turn malformed)"


def test_a_tool_list_with_an_unknown_action_is_malformed(problem) -> None:
    record, value, plan = problem
    _, context = start_episode(record, {"target_value": value}, SeekOptions(format="tool"))
    steps = [plan[0], "(move a b)", *plan[1:]]
    parsed = parse_tool_calls([("answer", {"value": steps})], context, [], "")
    assert parsed.kind != ACTION_ANSWER and parsed.reason == "malformed"


@pytest.mark.parametrize("fmt", ["text", "tool"])
@pytest.mark.parametrize("hedge", ["{plan} (80%)", "{plan}\nI am 80% confident.",
                                   "{plan}\n\n80%", "{plan}\nConfidence: 80 percent",
                                   "{first} 90%\n{rest}", "{plan}\n\n\nabout 75 % sure"])
def test_a_plan_with_a_percentage_is_ambiguous(problem, hedge, fmt) -> None:
    _, _, plan = problem
    text = hedge.format(plan="\n".join(plan), first=plan[0], rest="\n".join(plan[1:]))
    parsed = _read(problem, text, fmt)
    assert parsed.kind != ACTION_ANSWER and parsed.reason == "ambiguous", text
    assert _scored(problem, parsed)[0]["plan_exact"] == 0.0
