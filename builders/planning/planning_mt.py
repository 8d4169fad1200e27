"""Seeded generator of multi-turn planning problems: Blocks World with k atoms of the
initial state jointly needed to settle the set of optimal plans (k = 1..4; beyond the
published work).

1. draw a size, a goal, a plan length and a start state, and take a minimal
   well-specified partial state of it, as Planning-Q does
   (`infoseek.builders.planning.problems`);
2. remove observed atoms one at a time (the recursive step of protocols §1: a random order of
   the observed atoms, the first removal whose problem has degree j + 1 at step j), until
   the degree is k;
3. every emitted problem passes the full validator of the generic core: the MSS family
   (`infoseek.analysis.minimal_sufficient_sets` over every unobserved atom: global
   minimality) is recomputed, its canonical member is checked essential and k-MSS
   (`is_k_mss`), and the target values are the engine's.

The canonical MSS is the family's first member that consists of removed atoms, else its
first member; ``alternative_only`` lists the atoms of the other members. The target
values are the sets of optimal plans the observations leave possible (one task instance
each). Deterministic per (seed, k, index).
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterable
from typing import Any

import numpy as np

from infoseek.analysis import is_k_mss, minimal_sufficient_sets
from infoseek.builders.jobs import build_split_with, first_valid_problem
from infoseek.builders.planning.planning_q import plan_depths
from infoseek.builders.planning.problems import minimal_known_state, problem_fields, start
from infoseek.domains import BuilderSpec
from infoseek.engines.planning.engine import PlanningEngine

SPEC = BuilderSpec(
    name="planning-mt",
    build=f"{__name__}:build_split",
    version="1.1.0",
    random_stream="planning_mt:1.0.0",
    max_k=4, default_ks=(2, 3, 4), default_per_k=100, max_per_k=5_000,
    unanswerable=f"{__name__}:build_unanswerable",
)
"""Multi-turn planning. The random stream is the text the generators were seeded with when
the version was part of it, kept so that a seed draws the same problems. Version 1.1: the
difficulty reports depth both ways, ``depth`` the shortest optimal plan over the target
values (QuestBench's ``min_depth`` convention) and ``max_depth`` the longest (version 1's
``max_plan_steps``)."""
MAX_ATTEMPTS = 400
MAX_VALUES = 16
"""At most this many sets of optimal plans per problem (each is one task instance)."""


def _degree(engine: PlanningEngine, k: int):
    return minimal_sufficient_sets(engine, engine.unobserved(), k)


def _candidate(rng: random.Random, k: int) -> dict[str, Any] | None:
    drawn = start(rng)
    if drawn is None:
        return None
    blocks, goal, analysis, state = drawn
    observed = minimal_known_state(rng, analysis, state)
    removed: list[str] = []
    result = None
    for degree in range(1, k + 1):
        order = list(observed)
        rng.shuffle(order)
        for atom in order:
            trial = {a: v for a, v in observed.items() if a != atom}
            engine = PlanningEngine(blocks, goal, trial)
            if len(engine.target_values()) > min(MAX_VALUES, 2 ** degree):
                continue
            found = _degree(engine, degree)
            if found.k == degree:
                observed, result = trial, found
                removed.append(atom)
                break
        else:
            return None
    engine = PlanningEngine(blocks, goal, observed)
    family = [tuple(sorted(m)) for m in result.family]
    canonical = next((m for m in family if set(m) <= set(removed)), family[0])
    others = sorted(m for m in family if m != canonical)
    return {
        **problem_fields(blocks, goal, engine),
        "queryable": engine.unobserved(),
        "forbidden": [],
        "alternative_only": sorted({a for m in others for a in m} - set(canonical)),
        "k": k,
        "mss_family": [list(canonical)] + [list(m) for m in others],
        "difficulty": {"num_vars": len(engine.space.atoms), "blocks": blocks,
                       "num_queryable": len(engine.unobserved()),
                       "num_target_values": len(engine.target_values()),
                       "mss_family_size": len(family),
                       **dict(zip(("depth", "max_depth"), plan_depths(engine)))},
    }


def validate_planning_mt_record(record: dict[str, Any]) -> list[str]:
    """The full validator (module docstring, step 3); empty: valid."""
    from infoseek.records import engine_from_record

    engine = engine_from_record(record)
    k = record.get("k")
    if engine.is_known():
        return ["the plans are Known from the observations"]
    if list(engine.domain(engine.target)) != record["target_values"]:
        return ["target_values differ from the engine's"]
    found = _degree(engine, k)
    family = record.get("mss_family") or []
    errors = []
    if found.k != k:
        errors.append(f"the degree is {found.k}, the record says {k}")
    elif sorted(tuple(sorted(m)) for m in found.family) != sorted(tuple(m) for m in family):
        errors.append("the MSS family differs from the exact search")
    elif not is_k_mss(engine, family[0], engine.unobserved()):
        errors.append("the canonical MSS is not a k-MSS (sufficient, essential, minimal)")
    if record["queryable"] != engine.unobserved():
        errors.append("queryable is not every unobserved atom")
    difficulty = record.get("difficulty") or {}
    if (difficulty.get("depth"), difficulty.get("max_depth")) != plan_depths(engine):
        errors.append(f"depth / max_depth differ from the shortest / longest optimal plan "
                      f"{plan_depths(engine)}")
    return errors


def build_problem(seed: int, k: int, index: int) -> dict[str, Any]:
    return first_valid_problem(
        SPEC, seed=seed, k=k, index=index, max_attempts=MAX_ATTEMPTS,
        candidate=_candidate, validate=validate_planning_mt_record)


def build_split(seed: int = 0, per_k: int = SPEC.default_per_k,
                ks: Iterable[int] = SPEC.default_ks,
                *, workers: int | None = None,
                progress: Callable[[int, int], None] | None = None) -> list[dict[str, Any]]:
    """`per_k` problems for each k, in (k, index) order."""
    return build_split_with(build_problem, SPEC, seed, per_k, ks, workers, progress)


# -------------------------------------------------- problems no question can settle
# Issue 34 (`-T unanswerable=` on planning_mt; docs/tasks/unanswerable.md): made from an
# ordinary problem at index INDEX_OFFSET + i (+ TRY_STRIDE per retry) by making needed
# atoms unaskable: the first of one canonical-MSS atom (seeded order), the canonical MSS,
# every atom of the MSS family, whose removal leaves the optimal plans open whatever the
# askable atoms are (the search: `infoseek.builders.unanswerable.first_unanswerable`).
# The engine holds every feasible state, so the check is exact and complete: group the
# feasible states of each plan set by the askable atoms' values; every group of askable
# values must meet at least two plan sets (`plans_settled_by_nothing`).

UNANSWERABLE_VERSION = "1.0.0"
UNANSWERABLE_STREAM = "planning_mt_unanswerable:1.0.0"
UNANSWERABLE_TRIES = 10


def plans_settled_by_nothing(engine: PlanningEngine, askable: Iterable[str]) -> bool:
    """True iff every feasible assignment of the `askable` atoms leaves at least two
    plan sets possible (exact: every feasible state of every plan set is read)."""
    bit = engine._bit  # atom variable -> its bit in a state's mask
    wanted = np.uint64(sum(1 << bit[a] for a in askable))
    plans_of: dict[int, set[Any]] = {}
    for value in sorted(engine.target_values()):
        keys = engine.space.masks[engine.states(target_value=value)] & wanted
        for key in np.unique(keys).tolist():
            plans_of.setdefault(key, set()).add(value)
    return bool(plans_of) and all(len(plans) >= 2 for plans in plans_of.values())


def forbid_atoms(record: dict[str, Any], atoms: list[str]) -> dict[str, Any]:
    """The record with `atoms` made unaskable (forbidden, out of ``queryable``); the id
    gets the suffix ``-unanswerable``, the MSS family is empty, ``k`` stays."""
    from infoseek.builders.unanswerable import UNANSWERABLE_SUFFIX

    out = {key: value for key, value in record.items() if key != "provenance"}
    out["id"] = f"{record['id']}-{UNANSWERABLE_SUFFIX}"
    out["queryable"] = [a for a in record["queryable"] if a not in atoms]
    out["forbidden"] = sorted({*record.get("forbidden", ()), *atoms})
    out["alternative_only"] = []
    out["mss_family"] = []
    out["unanswerable"] = {"withheld": sorted(atoms), "made_from": record["id"]}
    out["provenance"] = {**(record.get("provenance") or {}),
                         "unanswerable": UNANSWERABLE_VERSION}
    return out


def validate_unanswerable_planning_record(record: dict[str, Any]) -> list[str]:
    """The withheld atoms are forbidden, the plans are not Known, the askable atoms
    together are not sufficient (the engine's fast path) and no assignment of them
    settles the plans (`plans_settled_by_nothing`); empty: valid."""
    from infoseek.analysis import is_sufficient
    from infoseek.record_views import askable_variables
    from infoseek.records import engine_from_record

    engine = engine_from_record(record)
    askable = askable_variables(record, forbid_alternatives=True)
    withheld = list((record.get("unanswerable") or {}).get("withheld") or [])
    errors = []
    if not withheld or set(withheld) & set(askable):
        errors.append("the withheld atoms must be forbidden")
    if engine.is_known():
        errors.append("the plans are Known from the observations")
    if is_sufficient(engine, askable):
        errors.append("the askable atoms together settle the plans")
    elif not plans_settled_by_nothing(engine, askable):
        errors.append("some answers to the askable atoms settle the plans")
    return errors


def build_unanswerable(seed: int, k: int, index: int) -> dict[str, Any]:
    """Unanswerable record `index` at (seed, k) (the comment above); deterministic."""
    from infoseek.builders.unanswerable import (
        canonical_then_family,
        first_unanswerable,
        open_whatever_is_asked,
    )

    return first_unanswerable(
        "planning", seed=seed, k=k, index=index, random_stream=UNANSWERABLE_STREAM,
        tries=UNANSWERABLE_TRIES, ordinary=lambda at: build_problem(seed, k, at),
        withheld_sets=canonical_then_family,
        leaves_open=open_whatever_is_asked(plans_settled_by_nothing),
        withhold=forbid_atoms, validate=validate_unanswerable_planning_record)
