"""Fuzz test of the planning answer (a plan, answer kind ``plan``) through the real
`planning_mt` seek loop, in both formats: issue 30's classes 1 (the whole reply counts:
a second plan, a correction, a retraction or a doubt after a blank line), 3 (an extra
step, an unknown action word, a percentage hedge) and 4 (tool format: text beside the
``answer`` call that puts forward another plan).

Every kind of `CATALOGUE` is one sample cloned from one k = 1 problem and played by the
scripted `infoseek_fuzz/script` model, the same turn on every call (one eval per
format, turn cap 1, so the kind is read on the first turn and again on the final one).
The plan is the sample's hidden optimal plan, written one action per line; the text
format writes it after ``Answer:``, the tool format as the ``answer`` call's ``value``.

- ``garbage``: no sample error, and never credited as exact: ``accuracy`` and
  ``plan_exact`` are 0 (an extra step may still be read as a longer plan, which is not
  optimal; the rest are invalid turns with a reason);
- ``valid``: the optimal plan with a remark that puts nothing forward is credited
  (``accuracy`` and ``plan_exact`` 1, no invalid turn).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import pytest
from inspect_ai import eval
from inspect_ai.dataset import MemoryDataset
from inspect_ai.model import get_model

from infoseek.answers import answer_kind
from infoseek.inspect_tasks.planning_mt import planning_mt
from infoseek.stored_forms import sample_problem, turns_from_store
from tests.support.common import forbid_tokenizer
from tests.support.fuzz import (
    FORMATS,
    FUZZ_MODEL,
    GARBAGE,
    TOOL,
    VALID,
    Calls,
    Text,
    install,
    sample_problem_id,
)

Plan = list[str]


@dataclass(frozen=True)
class PlanKind:
    """One kind of planning answer: `body` writes the answer from the optimal plan;
    `beside` (tool format) is the message text next to the ``answer`` call."""

    name: str
    expect: str
    body: Callable[[Plan], str]
    beside: Callable[[Plan], str] = lambda plan: ""
    formats: tuple[str, ...] = FORMATS
    known_hole: str = ""
    """Why the suite still credits this garbage (the case is a strict xfail until fixed)."""


def _lines(plan: Plan) -> str:
    return "\n".join(plan)


def _other(plan: Plan) -> Plan:
    """Another plan: the optimal one without its last step (shorter, so never optimal)."""
    return plan[:-1] or ["(pick-up a)"]


CATALOGUE: tuple[PlanKind, ...] = (
    # ---- class 1: whatever follows a blank line is read
    PlanKind("second_plan_after_blank_line", GARBAGE,
             lambda p: f"{_lines(p)}\n\n{_lines(_other(p))}"),
    PlanKind("second_plan_labelled_after_blank_line", GARBAGE,
             lambda p: f"{_lines(p)}\n\nAnother plan:\n{_lines(_other(p))}"),
    PlanKind("second_plan_or_after_blank_line", GARBAGE,
             lambda p: f"{_lines(p)}\n\nOr:\n{_lines(_other(p))}"),
    PlanKind("correction_after_blank_line", GARBAGE,
             lambda p: f"{_lines(p)}\n\nActually, {p[0]} is not needed."),
    PlanKind("retraction_after_blank_line", GARBAGE,
             lambda p: f"{_lines(p)}\n\nWait, that plan is wrong."),
    PlanKind("not_sure_after_blank_line", GARBAGE,
             lambda p: f"{_lines(p)}\n\nI am not sure about this plan."),
    # ---- class 3: an extra step, an unknown action word, a percentage hedge
    PlanKind("extra_step", GARBAGE, lambda p: f"{_lines(p)}\n{p[0]}"),
    PlanKind("extra_step_after_blank_line", GARBAGE, lambda p: f"{_lines(p)}\n\n{p[0]}"),
    PlanKind("extra_bare_step", GARBAGE,
             lambda p: f"{_lines(p)}\n{p[0].strip('()')}"),
    PlanKind("unknown_action_inserted", GARBAGE,
             lambda p: _lines([p[0], "(move a b)", *p[1:]])),
    PlanKind("unknown_action_bare", GARBAGE, lambda p: _lines([p[0], "hover a", *p[1:]])),
    # a bracketed word with no block, "(celebrate)", is set aside like a remark "(done)"
    # by the plan reader: only a word with one or two blocks is step-shaped
    PlanKind("unknown_action_appended", GARBAGE, lambda p: f"{_lines(p)}\n(celebrate a)"),
    PlanKind("percentage_same_line", GARBAGE, lambda p: f"{_lines(p)} (90%)"),
    PlanKind("percentage_next_line", GARBAGE, lambda p: f"{_lines(p)}\nI am 90% sure."),
    PlanKind("percentage_after_blank_line", GARBAGE, lambda p: f"{_lines(p)}\n\n90%"),
    PlanKind("confidence_after_blank_line", GARBAGE,
             lambda p: f"{_lines(p)}\n\nConfidence: 0.7"),
    # ---- class 4: text beside the answer call with another plan (tool format)
    PlanKind("text_answer_line_other_plan", GARBAGE, _lines,
             beside=lambda p: f"Answer: {_lines(_other(p))}", formats=TOOL),
    PlanKind("text_answer_line_other_first_step", GARBAGE, _lines,
             beside=lambda p: "Answer: (pick-up z)", formats=TOOL),
    PlanKind("text_hedged_answer_line", GARBAGE, _lines,
             beside=lambda p: f"Answer: {p[0]} or maybe something else", formats=TOOL),
    # ---- valid: the optimal plan, alone or with a remark that puts nothing forward
    PlanKind("clean", VALID, _lines),
    PlanKind("justification_after_blank_line", VALID,
             lambda p: f"{_lines(p)}\n\nThis is a shortest plan for the goal."),
    PlanKind("text_beside_same_plan", VALID, _lines,
             beside=lambda p: f"Answer: {_lines(p)}", formats=TOOL),
    PlanKind("text_beside_remark", VALID, _lines,
             beside=lambda p: "Here is my plan.", formats=TOOL),
)


def _turn(kind: PlanKind, plan: Plan, fmt: str) -> Text | Calls:
    if fmt == "tool":
        return Calls((("answer", {"value": kind.body(plan)}),), content=kind.beside(plan))
    return Text(f"Answer: {kind.body(plan)}")


def _run(fmt: str, log_dir: str) -> dict[str, Any]:
    built = planning_mt(k=[1], per_k=1, format=fmt, max_turns=1)
    base = next(iter(built.dataset))
    record = sample_problem(base.metadata)
    plan = answer_kind("plan").label(base.metadata["target_value"]).splitlines()
    assert len(plan) >= 2, plan
    samples = []
    for kind in CATALOGUE:
        if fmt not in kind.formats:
            continue
        problem_id = sample_problem_id(record["id"], "planning_mt", fmt, kind.name)
        install(problem_id, [_turn(kind, plan, fmt)])
        samples.append(base.model_copy(update={
            "id": kind.name,
            "metadata": {**base.metadata, "problem": {**record, "id": problem_id}}}))
    built.dataset = MemoryDataset(samples, name=f"fuzz_planning_{fmt}")
    with forbid_tokenizer():
        [log] = eval(built, model=get_model(FUZZ_MODEL), log_dir=log_dir, display="none",
                     max_samples=len(samples))
    assert log.status == "success", log.error
    assert len(log.samples or []) == len(samples)
    found: dict[str, Any] = {}
    for sample in log.samples or []:
        assert sample.error is None, sample.error
        values: dict[str, Any] = {}
        notes = []
        for score in (sample.scores or {}).values():  # the seek and the plan scorers
            values.update(score.value if isinstance(score.value, dict) else {})
            notes.append(score.explanation or "")
        found[str(sample.id)] = (values, " | ".join(notes),
                                 turns_from_store(sample.store["infoseek:turns"]))
    return found


@pytest.fixture(scope="module")
def runs(tmp_path_factory: pytest.TempPathFactory):
    log_dir = str(tmp_path_factory.mktemp("fuzz-planning-logs"))
    done: dict[str, dict[str, Any]] = {}

    def get(fmt: str) -> dict[str, Any]:
        if fmt not in done:
            done[fmt] = _run(fmt, log_dir)
        return done[fmt]

    return get


def test_the_planning_catalogue_has_both_sides_in_both_formats() -> None:
    assert len({kind.name for kind in CATALOGUE}) == len(CATALOGUE)
    for fmt in FORMATS:
        assert {k.expect for k in CATALOGUE if fmt in k.formats} == {GARBAGE, VALID}


_PLAYS = [pytest.param(fmt, kind, id=f"{fmt}-{kind.name}", marks=[pytest.mark.xfail(
              strict=True, reason=kind.known_hole)] if kind.known_hole else [])
          for fmt in FORMATS for kind in CATALOGUE if fmt in kind.formats]


@pytest.mark.parametrize(("fmt", "kind"), _PLAYS)
def test_planning_answer(runs, fmt: str, kind: PlanKind) -> None:
    value, explanation, turns = runs(fmt)[kind.name]
    if kind.expect == GARBAGE:
        assert value["accuracy"] == value["plan_exact"] == 0.0, (value, explanation)
        invalid = [t for t in turns if t["action"] != "answer"]
        assert all(t["reason"] for t in invalid), turns
    else:
        assert value["accuracy"] == value["plan_exact"] == 1.0, (value, explanation)
        assert all(t["action"] == "answer" for t in turns), turns
