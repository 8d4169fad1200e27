"""Scoring a Twenty Questions game from what the solver recorded (`STORE_TURNS`,
`STORE_FINAL`, and the turn cap from `STORE_OPTIONS`;
`infoseek.solvers.twenty_questions.solver`), never from the model's or the examiner's
say-so. Value keys (NaN where a key does not apply):

- ``accuracy``: the suite's verdict (the guess names the target through its aliases);
  ``examiner_win``: the examiner confirmed a guess; ``examiner_disagrees``: the two differ
  on some guess of the game (its mean is the disagreement rate);
- ``turns``: guesser turns, the winning one included (a first-question win is 1);
  ``questions``: questions the examiner answered; ``invalid_turns``;
  ``examiner_invalid``: examiner replies outside the allowed set (replaced by Not
  applicable); ``label_failures``: candidate labels the evaluator never gave (updated as
  pass, counted here); ``label_retries``;
- ``mean_eig``, ``mean_neig``, ``mean_pass_mass``, ``final_entropy`` (nats), over the
  declared pool (`infoseek.scorers.twenty_questions_metrics`);
- ``entropy_tNN`` (remaining entropy after turn NN, the final value carried to the last
  turn), ``neig_tNN`` and ``pass_mass_tNN`` (question turns only): the curves, overall;
- ``transfer_accuracy``: the transfer reader named the target (0 when it named nothing);
  ``transfer_model``: 1 when a `transfer` model read the dialogue;
- with role models bound, the role counts of `infoseek.scorers.role_metrics`
  (``role_examiner_measured``/``_wrong``/``_raised``, the same for ``evaluator``, where
  the evaluator's unit is a candidate label, and ``transfer`` (raises only: its reading
  has no exact truth), and ``role_error_episodes``), with the pooled
  ``examiner_error_rate`` and ``evaluator_error_rate`` (`role_error_rates`).
Grouped by the record's ``pool``.
"""

from __future__ import annotations

import math
from typing import Any

from inspect_ai.scorer import Score, Scorer, Target, scorer
from inspect_ai.solver import TaskState

from infoseek.contract import STORE_FINAL, STORE_ROLES, STORE_TURNS
from infoseek.scorers.group_metric import mean_by_group
from infoseek.scorers.role_metrics import role_error_rates, role_values
from infoseek.scorers.twenty_questions_metrics import game_metrics
from infoseek.stored_forms import sample_problem, stored_option, turns_from_store

CURVES = ("entropy_t", "neig_t", "pass_mass_t")


def game_values(record: dict[str, Any], turns: list[dict[str, Any]],
                final: dict[str, Any], max_turns: int) -> tuple[dict[str, float], dict]:
    """The score values of one game and the per-turn metrics (module docstring)."""
    asked = [t for t in turns if t.get("question") and "labels" in t]
    metrics = game_metrics(len(record["engine"]["candidates"]),
                           [(t["turn"], t["labels"], t["evidence"]) for t in asked],
                           len(turns))
    guesses = [t for t in turns if t.get("guess") is not None or t.get("examiner_confirmed")]
    values: dict[str, float] = {
        "accuracy": float(any(t.get("win") for t in turns)),
        "examiner_win": float(any(t.get("examiner_confirmed") for t in turns)),
        "examiner_disagrees": (float(any(bool(t.get("win")) != bool(t.get("examiner_confirmed"))
                                         for t in guesses)) if guesses else math.nan),
        "turns": float(len(turns)), "questions": float(len(asked)),
        "invalid_turns": float(sum(t["action"] == "invalid" for t in turns)),
        "examiner_invalid": float(sum(t.get("examiner_valid") is False for t in turns)),
        "label_failures": float(metrics["label_failures"]),
        "label_retries": float(sum(t.get("label_retries", 0) for t in asked)),
        "mean_eig": metrics["mean_eig"], "mean_neig": metrics["mean_neig"],
        "mean_pass_mass": metrics["mean_pass_mass"], "final_entropy": metrics["final_entropy"],
        "transfer_accuracy": float(final.get("transfer_guess") == record["answer"]),
        "transfer_model": float(final.get("transfer_source") == "model"),
    }
    for turn in range(1, max_turns + 1):
        curve = metrics["entropy"]
        values[f"entropy_t{turn:02d}"] = (curve[min(turn, len(curve)) - 1] if curve
                                          else metrics["initial_entropy"])
        values[f"neig_t{turn:02d}"] = metrics["neig"].get(turn, math.nan)
        values[f"pass_mass_t{turn:02d}"] = metrics["pass_mass"].get(turn, math.nan)
    return values, metrics


@scorer(metrics=[mean_by_group(group_key="pool", overall_only=(*CURVES, "role_")),
                 role_error_rates()], name="twenty_questions")
def twenty_questions_scorer() -> Scorer:
    """Score one Twenty Questions game (value keys in the module doc); the curves run to
    the game's turn cap, the ``max_turns`` the solver stored in the episode's options."""

    async def score(state: TaskState, target: Target) -> Score:
        record = sample_problem(state.metadata)
        max_turns = stored_option(state.store, "max_turns")
        turns = turns_from_store(state.store.get(STORE_TURNS)) or []
        final = dict(state.store.get(STORE_FINAL) or {})
        values, metrics = game_values(record, turns, final, max_turns)
        values.update(role_values(state.store.get(STORE_ROLES) or []))
        last = next((t for t in reversed(turns) if t.get("guess")), {})
        return Score(value=values, answer=last.get("guess"),
                     explanation=f"target {record['answer']}; "
                                 f"{'won' if values['accuracy'] else 'lost'} in "
                                 f"{len(turns)} turn(s)",
                     metadata={"entropy": metrics["entropy"],
                               **{key: {str(t): v for t, v in metrics[key].items()}
                                  for key in ("eig", "neig", "pass_mass")},
                               "transfer_guess": final.get("transfer_guess")})

    return score
