"""Plan scores of a planning seek episode (``infoseek/plan``), beside the seek scorers.

From the final answer (a plan, read by the ``plan`` answer kind), the hidden target value
(the true state's set of optimal plans) and the oracle's replies:

- ``plan_exact``: 1.0 when the plan is one of the optimal plans (the ``final_answer``
  scorer's accuracy);
- ``plan_credit``: partial credit ``1 - d / max(len(plan), L)``, ``d`` the edit distance
  to the nearest optimal plan (`infoseek.engines.planning.plan_kind.check_plan`); 0.0
  when the plan is not valid or there is no readable plan;
- ``plan_valid``: 1.0 when every action applies in turn from every initial state still
  consistent with the observations, the oracle's replies and the hidden value (the states
  the model could be in); 0.0 otherwise, or when no plan was read;
- ``plan_answered``: 1.0 when a plan was read at all (an unreadable answer is an invalid
  turn with its reason, counted by the ``invalid`` scorer and named in the explanation:
  ``no readable plan (last turn malformed)``).

Pure functions first; the Inspect scorer reads the same store as the seek scorers.
"""

from __future__ import annotations

import math
from typing import Any

from inspect_ai.scorer import Score, Scorer, Target, scorer
from inspect_ai.solver import TaskState

from infoseek.engines.planning.plan_kind import check_plan
from infoseek.oracles import UNSURE, WITHHELD
from infoseek.records import engine_from_record
from infoseek.scorers.group_metric import mean_by_group
from infoseek.scorers.seek import no_question_settles, seek_episode
from infoseek.scorers.seek_turns import final_answer

PLAN_METRICS = ("plan_exact", "plan_credit", "plan_valid", "plan_answered")


def replies(turns: list[dict[str, Any]]) -> dict[str, Any]:
    """The atom values the oracle gave, as one assignment (a reply that gave no value, the
    random oracle's "unsure" or the withholding oracle's "unknown", is left out)."""
    told: dict[str, Any] = {}
    for turn in turns:
        for query in turn.get("queries") or []:
            if (query.get("valid") and query.get("variable") is not None
                    and query.get("value") not in (UNSURE, WITHHELD)):
                told[query["variable"]] = query.get("value")
    return told


def applicable_everywhere(problem: dict[str, Any], plan: list[str], told: dict[str, Any],
                          target_value: Any) -> tuple[bool, str]:
    """Whether `plan` applies step by step from every state consistent with the record,
    `told` and the target value; with the first failing step when not."""
    engine = engine_from_record(problem)
    states = engine.states(told, target_value)
    if not states.size:
        states = engine.states(told)
    number = {name: i for i, name in enumerate(engine.space.operators)}
    for index in states.tolist():
        mask = int(engine.space.masks[index])
        for position, step in enumerate(plan, start=1):
            after = engine.space.apply(mask, number[step]) if step in number else None
            if after is None:
                return False, f"step {position} {step} does not apply in a possible state"
            mask = after
    return True, ""


def plan_metrics(problem: dict[str, Any], turns: list[dict[str, Any]], target_value: Any
                 ) -> tuple[dict[str, float], str]:
    """The `PLAN_METRICS` of one episode and a one-line explanation."""
    plan = final_answer(turns)
    if not isinstance(plan, list):
        last = turns[-1] if turns and isinstance(turns[-1], dict) else {}
        why = f" (last turn {last['reason']})" if last.get("reason") else ""
        return dict.fromkeys(PLAN_METRICS, 0.0), f"no readable plan{why}"
    checked = check_plan(plan, target_value)
    valid, why = applicable_everywhere(problem, plan, replies(turns), target_value)
    credit = checked.credit if valid else 0.0
    values = {"plan_exact": 1.0 if checked.optimal else 0.0, "plan_credit": credit,
              "plan_valid": 1.0 if valid else 0.0, "plan_answered": 1.0}
    note = "an optimal plan" if checked.optimal else (why or checked.why)
    return values, f"{len(plan)} action(s): {note}"


@scorer(metrics=[mean_by_group()], name="plan")
def plan_scorer() -> Scorer:
    """Planning seek episode, ``plan``: ``plan_exact, plan_credit, plan_valid,
    plan_answered`` (`plan_metrics`)."""

    async def score(state: TaskState, target: Target) -> Score:
        episode = seek_episode(state, target)
        if no_question_settles(state):  # no plan is right (issue 34): not applicable
            return Score(value=dict.fromkeys(PLAN_METRICS, math.nan),
                         explanation="no question can settle the plans: plan metrics do not "
                                     "apply")
        values, note = plan_metrics(episode.problem, episode.turns, episode.target_value)
        return Score(value=values, explanation=note)

    return score
