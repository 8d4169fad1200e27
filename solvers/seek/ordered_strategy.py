"""Seek decisions of the reference models on problems with a required query order
(records with ``required_order``, e.g. ClinGuide-MT pathways); part of the seek strategy
(`infoseek.solvers.seek.strategy`).

* ``optimal`` asks, one after another, the variables of the required order that can
  still change the possible target values (a variable the replies so far made
  irrelevant, such as a later finding on a branch the patient is not on, is skipped), and
  answers as soon as the target is Known. On a decision-tree pathway this asks exactly
  the instance's own hidden path, in path order, which the exact minimax strategy does not
  promise (several questions can be equally good in the worst case).
* ``reversed`` asks every variable of the required order in reverse, then answers: the
  right variables (coverage 1) in the wrong order.

Both read the problem from the store like every reference model, never the hidden value.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any

from infoseek.engine import Engine

ORDERED_MODELS: tuple[str, ...] = ("optimal", "reversed")


def can_change_target(engine: Engine, var: str, state: Mapping[str, Any]) -> bool:
    """Whether some two values `var` can still take leave different target values."""
    outcomes = {engine.target_values({**state, var: value})
                for value in engine.variable_values(var, state)}
    return len(outcomes) > 1


def ordered_seek_decision(model_name: str, problem: dict[str, Any], engine: Engine,
                          candidates: list[str], answers: dict[str, Any], asked: list[str],
                          possible: list[Any], *, at_cap: bool, must_ask: bool,
                          per_turn: int, rng: random.Random) -> dict[str, Any] | None:
    """The decision of `model_name` (one of `ORDERED_MODELS`) on a problem with a
    ``required_order``; None when the optimal order-following plan has nothing left to
    ask (the caller then falls back to its general strategy)."""
    order = [v for v in problem.get("required_order") or [] if v in candidates]
    known = len(possible) == 1
    answer = {"kind": "answer", "value": possible[0] if known else rng.choice(possible)}
    if model_name == "reversed":
        plan = [v for v in reversed(order) if v not in asked]
        if at_cap or not plan:
            return answer
        return {"kind": "ask", "variables": plan[:per_turn]}
    if (known and not must_ask) or at_cap:
        return answer
    picks: list[str] = []
    state = dict(answers)
    for var in order:
        if len(picks) == per_turn or len(engine.target_values(state)) <= 1:
            break
        if var in asked or not can_change_target(engine, var, state):
            continue
        picks.append(var)
        # batched questions are answered together: plan on the adversary's reply
        values = sorted(engine.variable_values(var, state), key=str)
        state[var] = max(values, key=lambda v: len(engine.target_values({**state, var: v})))
    return {"kind": "ask", "variables": picks} if picks else None
