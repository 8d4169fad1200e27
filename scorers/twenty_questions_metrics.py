"""The Twenty Questions information metrics (protocols §4; the paper's D.5.4-D.5.5), computed
offline from the recorded game. Pure: no Inspect imports.

Over the DECLARED pool (every candidate of the game record's table, never a category
list the target happens to be in): the belief starts uniform; after a question with
labels ``g(c)`` (``yes`` / ``no`` / ``pass`` per candidate) and the examiner's evidence
``a`` (``yes`` / ``no`` / ``pass``), each candidate's weight is multiplied by the likelihood
``L(a | c)`` = 0.98 when ``g(c) == a``, 0.50 when ``g(c)`` is pass (and ``a`` is not), 0.02
otherwise, and the belief renormalised.

- entropy ``H(p) = -sum p log p`` in nats;
- soft expected information gain, the paper's definition: with ``Lbar(a | c) = L(a | c) /
  sum_a' L(a' | c)``, ``P(a) = sum_c p(c) Lbar(a | c)`` and ``p_a(c) = p(c) Lbar(a | c) /
  P(a)``, ``EIG = H(p) - sum_a P(a) H(p_a)`` (the mutual information of the target and the
  answer). The published code used hard partitions of the candidates instead, which
  disagree with this and reward questions that draw many Pass labels; not here.
- ``nEIG = EIG / (H(p) + 1e-12)``;
- pass mass: the belief, before the update, on candidates labelled pass.

A candidate the evaluator gave no readable label (``fail``) is updated as pass and
counted (`label_failures`), never silently turned into a pass.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

from infoseek.twenty_questions import (
    EPSILON,
    FAILED,
    entropy,
    expected_information_gain,
    pass_mass,
    uniform,
    update,
)


def game_metrics(pool_size: int, questions: Sequence[tuple[int, Sequence[str], str]],
                 turns: int) -> dict[str, Any]:
    """Per-turn and summary metrics of one game.

    `questions`: ``(turn, labels, evidence)`` for every answered question, in order;
    `turns`: the turns the game took (questions asked, the winning one included, and
    the final guess). Returns ``entropy`` (after each turn 1..turns, carried over turns
    without a question), ``eig`` / ``neig`` / ``pass_mass`` by question turn, their means,
    the final entropy and the label failures."""
    belief = uniform(pool_size)
    per_turn: dict[int, dict[str, float]] = {}
    failures = 0
    for turn, labels, evidence in questions:
        before = entropy(belief)
        gain = expected_information_gain(belief, labels)
        per_turn[turn] = {"eig": gain, "neig": gain / (before + EPSILON),
                          "pass_mass": pass_mass(belief, labels)}
        failures += sum(1 for g in labels if g == FAILED)
        belief = update(belief, labels, evidence)
        per_turn[turn]["entropy"] = entropy(belief)
    curve, current = [], math.log(pool_size)
    for turn in range(1, turns + 1):
        current = per_turn.get(turn, {}).get("entropy", current)
        curve.append(current)

    def mean(key: str) -> float:
        values = [v[key] for v in per_turn.values()]
        return sum(values) / len(values) if values else math.nan

    return {"initial_entropy": math.log(pool_size), "entropy": curve,
            "final_entropy": curve[-1] if curve else math.log(pool_size),
            "eig": {t: v["eig"] for t, v in per_turn.items()},
            "neig": {t: v["neig"] for t, v in per_turn.items()},
            "pass_mass": {t: v["pass_mass"] for t, v in per_turn.items()},
            "mean_eig": mean("eig"), "mean_neig": mean("neig"),
            "mean_pass_mass": mean("pass_mass"), "label_failures": failures,
            "belief": belief}
