"""What the planning builders share: the six goal templates, the draws of a problem's
size, goal and depth, and the minimal well-specified partial states they start from.

A well-specified partial state here is found from a full initial state s: starting
from all (b+1)^2 atoms of s observed, the atoms are dropped one at a time in a random
order, each kept only when dropping it would let some consistent full state have
another set of optimal plans than s. The result is Known (every consistent state has
s's plan set) and minimal (dropping any one atom more leaves two or more plan sets):
QuestBench's well-specified partial states from the backward search, found forwards.
Everything is decided on the exact state space (`infoseek.engines.planning.space`).
"""

from __future__ import annotations

import random
from typing import Any

import numpy as np

from infoseek.engines.planning.engine import KIND, TARGET, TIES, PlanningEngine, variable_name
from infoseek.engines.planning.space import GoalAnalysis, goal_analysis

DOMAIN_NAME = "planning"
GOAL_TEMPLATES: tuple[tuple[str, ...], ...] = (
    ("(on b a)",),
    ("(on b a)", "(on c b)"),
    ("(on b a)", "(on d c)"),
    ("(on b a)", "(ontable a)"),
    ("(on b a)", "(ontable a)", "(on c b)"),
    ("(on b a)", "(ontable a)", "(on d c)", "(ontable c)"),
)
"""QuestBench Planning-Q's six goals (as published: facts, written here as atoms)."""
BLOCK_WEIGHTS: dict[int, float] = {4: 0.1, 5: 0.3, 6: 0.4, 7: 0.2}
"""Blocks per problem: 4-7, mean 5.7 (|X| mean 45.7), like the published split."""
DEPTH_MEAN, DEPTH_SD, MAX_DEPTH = 5.5, 1.6, 14
"""The optimal plan length drawn for the start state: a rounded normal, 1-14. A record's
depth d is the longer plan of its two groups, about 1.7 steps more on average, so d
comes out like the published split (1-14, mean 6.9; 5.75% at most 3, 27% at most 5, 94%
at most 10): 150 records of seed 0 gave mean 7.2, 7% / 24% / 91%."""
EXTRA_SHARE = 0.6
"""`padded_known_state` observes each other atom of the start state with a probability
drawn from [0, EXTRA_SHARE)."""


def draw_size_and_goal(rng: random.Random) -> tuple[int, tuple[str, ...]]:
    blocks = rng.choices(list(BLOCK_WEIGHTS), weights=list(BLOCK_WEIGHTS.values()))[0]
    return blocks, rng.choice(GOAL_TEMPLATES)


def draw_depth(rng: random.Random) -> int:
    return min(MAX_DEPTH, max(1, round(rng.gauss(DEPTH_MEAN, DEPTH_SD))))


def draw_state(rng: random.Random, analysis: GoalAnalysis, depth: int) -> int | None:
    """A random state whose optimal plans have `depth` steps (None: there is none)."""
    found = np.flatnonzero(analysis.dist == depth)
    return int(found[rng.randrange(len(found))]) if found.size else None


def target_groups(analysis: GoalAnalysis, ties: str) -> np.ndarray:
    """Each state's target value as a number: its plan-set id, or (``first_plan``) its
    first-plan id (`infoseek.engines.planning.engine.TIES`)."""
    return analysis.plan_set if ties == TIES[0] else analysis.canonical


def minimal_known_state(rng: random.Random, analysis: GoalAnalysis, state: int,
                        ties: str = TIES[0]) -> dict[str, bool]:
    """The observations of a minimal well-specified partial state of `state` (module
    docstring), by variable name (``on a b``), sorted."""
    space = analysis.space
    masks, plan_set = space.masks, target_groups(analysis, ties)
    full = int(masks[state])
    wanted = plan_set[state]
    kept = list(space.atoms)
    order = list(space.atoms)
    rng.shuffle(order)
    mask = (1 << len(space.atoms)) - 1
    for atom in order:
        trial = mask & ~(1 << space.bit[atom])
        chosen = (masks & np.uint64(trial)) == np.uint64(full & trial)
        if np.all(plan_set[chosen] == wanted):
            mask = trial
            kept.remove(atom)
    found = {variable_name(atom): bool(full >> space.bit[atom] & 1) for atom in kept}
    return {name: found[name] for name in sorted(found)}


def padded_known_state(rng: random.Random, analysis: GoalAnalysis, state: int,
                       ties: str = TIES[0]) -> dict[str, bool]:
    """A minimal well-specified partial state plus a random share of the start state's
    other atoms (QuestBench's backward-search partial states are not minimal either);
    still Known, since every atom added is the start state's own."""
    known = minimal_known_state(rng, analysis, state, ties)
    share = rng.uniform(0.0, EXTRA_SHARE)
    space = analysis.space
    full = int(space.masks[state])
    for atom in space.atoms:
        name = variable_name(atom)
        if name not in known and rng.random() < share:
            known[name] = bool(full >> space.bit[atom] & 1)
    return {name: known[name] for name in sorted(known)}


def problem_fields(blocks: int, goal: tuple[str, ...], engine: PlanningEngine
                   ) -> dict[str, Any]:
    """The fields every planning record opens with."""
    spec: dict[str, Any] = {"kind": KIND, "blocks": blocks, "goal": list(goal)}
    if engine.ties != TIES[0]:
        spec["ties"] = engine.ties
    return {
        "domain": DOMAIN_NAME,
        "engine": spec,
        "variables": sorted(engine.variables),
        "observed": {v: engine.observed[v] for v in sorted(engine.observed)},
        "target": TARGET,
        "target_values": list(engine.domain(TARGET)),
    }


def start(rng: random.Random) -> tuple[int, tuple[str, ...], GoalAnalysis, int] | None:
    """A drawn size, goal and depth, and a start state at that depth (None: no state)."""
    blocks, goal = draw_size_and_goal(rng)
    analysis = goal_analysis(blocks, goal)
    depth = draw_depth(rng)
    state = draw_state(rng, analysis, depth)
    if state is None:
        return None
    return blocks, goal, analysis, state
