"""Seeded generator of Planning-Q problems (QuestBench single turn, k = 1): Blocks World
with one atom of the initial state missing, in the published shape.

1. draw b (4-7 blocks, mean 5.7), one of the six goal templates and a plan length d
   (`infoseek.builders.planning.problems`), and a full initial state s whose optimal
   plans have d steps;
2. take a minimal well-specified partial state of s (every consistent full state has
   s's set of optimal plans) with a random share of s's other atoms observed too
   (`padded_known_state`), and remove one observed atom x, trying the atoms in a
   random order, until the consistent full states split into exactly two sets of optimal
   plans: then x (which separates them) and every atom true in all states of one group
   and false in all of the other are the correct questions (the sufficient atoms);
3. the record's ``question_options`` are all (b+1)^2 atoms, observed ones too (26, 37, 50
   or 65 options with "No questions needed", as published); its MSS family is the
   sufficient atoms as singletons, x first. "No questions needed" is the correct pick of
   the well-specified variants (`infoseek.single_turn.well_specified_variants`: x
   restored to either value).

Difficulty axes (QuestBench's): ``num_vars`` |X| = (b+1)^2 atoms, ``blocks`` b, ``depth``
d the published way: the released data's ``min_depth``, the *shorter* of the two
groups' optimal plans (``derivation_depth`` holds the same number), ``max_depth`` the
longer one (the backward-search level of x, `infoseek.single_turn.backward_level`: what
version 1 called depth), ``e_bf`` = (|X| + 1) / (s + 1) with s the sufficient atoms,
``num_constraints`` the ground actions. The validator recomputes all of it on the
engine. Deterministic per (seed, index): records are byte-identical across
runs, machines and hash seeds (no set order, no search tie-break reaches a record).
"""

from __future__ import annotations

import functools
import random
from collections.abc import Callable, Iterable
from typing import Any

from infoseek.builders.jobs import build_split_with, first_valid_problem
from infoseek.builders.planning.problems import padded_known_state, problem_fields, start
from infoseek.domains import BuilderSpec
from infoseek.engines.planning.engine import TIES, PlanningEngine
from infoseek.single_turn import backward_level, sufficient_options

SPEC = BuilderSpec(
    name="planning-q",
    build=f"{__name__}:build_split",
    version="1.1.0",
    shape=f"{__name__}:shape_lines",
    random_stream="planning_q:1.0.0",
    max_k=1, default_ks=(1,), default_per_k=7500, max_per_k=20_000,
)
"""Planning-Q (k = 1 only). The random stream is the text the generators were seeded with
when the version was part of it, kept so that a seed draws the same problems. Version 1.1:
``depth`` is the published axis (the shorter plan), ``max_depth`` the longer one."""
FIRST_PLAN_SPEC = BuilderSpec(
    name="planning-q-first-plan",
    build=f"{__name__}:build_first_plan_split",
    version="1.1.0",
    shape=f"{__name__}:shape_lines",
    random_stream="planning_q_first_plan",
    max_k=1, default_ks=(1,), default_per_k=7500, max_per_k=20_000,
)
"""Planning-Q under the published tie convention (``ties = first_plan``: a state's target
is its first optimal plan, operator order pinned to name order); its own random stream
(`convention_effect` compares the two conventions on the same partial states)."""
MAX_ATTEMPTS = 200


def plan_depths(engine: PlanningEngine) -> tuple[int, int]:
    """(shorter, longer) optimal plan length over the target values the observations
    leave open: the published depth axis (``min_depth``) and ours of version 1."""
    steps = [engine.steps_of(value) for value in engine.target_values()]
    return min(steps), max(steps)


def planning_q_difficulty(engine: PlanningEngine, sufficient: list[str]) -> dict[str, Any]:
    num_vars = len(engine.space.atoms)
    shorter, longer = plan_depths(engine)
    return {"num_vars": num_vars, "blocks": engine.blocks,
            "num_constraints": len(engine.space.operators), "depth": shorter,
            "max_depth": longer,
            "e_bf": round((num_vars + 1) / (len(sufficient) + 1), 4),
            "num_sufficient": len(sufficient)}


def _candidate(rng: random.Random, k: int, ties: str = TIES[0]) -> dict[str, Any] | None:
    if k != 1:
        raise ValueError(f"planning-q builds 1-sufficient problems only (k = 1), got k={k}")
    drawn = start(rng)
    if drawn is None:
        return None
    blocks, goal, analysis, state = drawn
    known = padded_known_state(rng, analysis, state, ties)
    order = list(known)
    rng.shuffle(order)
    for missing in order:
        observed = {a: v for a, v in known.items() if a != missing}
        engine = PlanningEngine(blocks, goal, observed, ties=ties)
        if len(engine.target_values()) != 2:
            continue
        sufficient = sufficient_options(engine, engine.unobserved())
        if missing not in sufficient:
            continue
        family = [[missing]] + [[v] for v in sufficient if v != missing]
        difficulty = planning_q_difficulty(engine, sufficient)
        return {
            **problem_fields(blocks, goal, engine),
            "queryable": engine.unobserved(),
            "question_options": list(engine.atom_variables),
            "forbidden": [],
            "alternative_only": [],
            "k": 1,
            "mss_family": family,
            "derivation_depth": difficulty["depth"],
            "difficulty": difficulty,
        }
    return None


def validate_planning_q_record(record: dict[str, Any]) -> list[str]:
    """Everything the module docstring promises, recomputed on the engine (empty: valid)."""
    from infoseek.records import engine_from_record

    engine = engine_from_record(record)
    values = engine.target_values()
    if len(values) != 2:
        return [f"the consistent states have {len(values)} sets of optimal plans, not 2"]
    if sorted(values, key=lambda t: (engine.steps_of(t), t)) != record["target_values"]:
        return ["target_values differ from the engine's"]
    family = record.get("mss_family") or []
    sufficient = sufficient_options(engine, engine.unobserved())
    errors = []
    if record.get("k") != 1 or not family or any(len(m) != 1 for m in family):
        errors.append(f"not a family of single atoms: k={record.get('k')}")
    elif sorted(m[0] for m in family) != sorted(sufficient):
        errors.append("the MSS family is not the set of sufficient atoms")
    if record["queryable"] != engine.unobserved():
        errors.append("queryable is not every unobserved atom")
    if record.get("question_options") != list(engine.atom_variables):
        errors.append("question_options is not every atom")
    shorter, longer = plan_depths(engine)
    if shorter != record.get("derivation_depth") or shorter != record["difficulty"]["depth"]:
        errors.append(f"depth {shorter} (the shorter plan) differs from the record's")
    level = backward_level(engine, family[0][0]) if family else None
    if level != longer or longer != record["difficulty"].get("max_depth"):
        errors.append(f"max_depth {longer} (the longer plan, the backward-search level of "
                      f"the missing atom: {level}) differs from the record's")
    if record["difficulty"] != planning_q_difficulty(engine, sufficient):
        errors.append("difficulty axes differ from the exact ones")
    return errors


def under_other_ties(record: dict[str, Any]) -> str:
    """What a Planning-Q record's partial state is under the other tie convention
    (`TIES`): ``same`` (two values the missing atom separates, the same correct atoms),
    ``other atoms`` (still a problem, other correct atoms), ``well-specified`` (one value:
    "No questions needed" would be right) or ``rejected`` (more than two values, or the
    missing atom does not settle them: the builder would not emit it)."""
    spec = record["engine"]
    other = TIES[1] if spec.get("ties", TIES[0]) == TIES[0] else TIES[0]
    engine = PlanningEngine(spec["blocks"], spec["goal"], record["observed"],
                            record["target"], other)
    values = engine.target_values()
    if len(values) == 1:
        return "well-specified"
    sufficient = sufficient_options(engine, engine.unobserved())
    missing = record["mss_family"][0][0]
    if len(values) != 2 or missing not in sufficient:
        return "rejected"
    return ("same" if sorted(sufficient) == sorted(m[0] for m in record["mss_family"])
            else "other atoms")


PUBLISHED_SHAPE: dict[str, tuple[float, float, float]] = {
    "blocks": (4, 7, 5.7), "num_vars": (25, 64, 46.0), "depth": (1, 14, 6.9),
    "e_bf": (3.0, 33.0, 18.5)}
"""QuestBench's Planning-Q (paper, Table 1): (min, max, mean) of b, |X|, d (the released
``min_depth``, the shorter plan) and E_BF over its 7,500 problems."""
PUBLISHED_BFS = {3: 5.75, 5: 27.2, 10: 93.9}
"""QuestBench's BFS baselines on Planning-Q (paper, Table 2), percent correct at depth D."""


def _span(values: list[float]) -> str:
    return f"{min(values):g}-{max(values):g}, mean {sum(values) / len(values):.2f}"


def _within(values: list[int], depth: int) -> float:
    return 100 * sum(v <= depth for v in values) / len(values)


def shape_lines(records: list[dict[str, Any]]) -> list[str]:
    """The split's shape beside QuestBench's (printed by `infoseek build planning-q`): b,
    |X|, depth the published way (the shorter plan) and ours (``max_depth``), E_BF, the
    share of rows whose right answer is "No questions needed", and the BFS references.
    A ``bfs-D`` reference model finds a correct atom exactly when ``max_depth`` <= D (each
    sufficient atom separates the same two groups, so its backward-search level is the
    longer plan); the published baseline finds one at the shorter plan's depth."""
    axes = [r["difficulty"] for r in records]
    out = [f"shape of {len(records)} problems (QuestBench Planning-Q, 7,500 problems, in "
           "brackets):"]
    names = {"blocks": "blocks b", "num_vars": "|X|", "depth": "depth d (shorter plan)",
             "e_bf": "E_BF"}
    for key, label in names.items():
        low, high, mean = PUBLISHED_SHAPE[key]
        out.append(f"  {label}: {_span([a[key] for a in axes])}  "
                   f"[{low:g}-{high:g}, mean {mean}]")
    out.append(f"  max_depth (longer plan): {_span([a['max_depth'] for a in axes])}  "
               "[not published]")
    unneeded = sum(not r.get("mss_family") for r in records)
    out.append(f"  \"No questions needed\" rows: {100 * unneeded / len(records):.1f}%  "
               "[present; share not derived here: issue 31, item 3]")
    shorter = [a["depth"] for a in axes]
    longer = [a["max_depth"] for a in axes]
    for depth, published in PUBLISHED_BFS.items():
        out.append(f"  within depth {depth}: {_within(shorter, depth):.1f}% by the shorter "
                   f"plan, {_within(longer, depth):.1f}% by the longer (what bfs-{depth} "
                   f"finds)  [BFS baseline {published}%]")
    return out


def build_problem(seed: int, k: int, index: int, ties: str = TIES[0]) -> dict[str, Any]:
    """One validated problem; deterministic in (seed, index). `ties`: the target value of
    a state (`infoseek.engines.planning.engine.TIES`): its set of optimal plans, or its
    first optimal plan (the published convention, builder ``planning-q-first-plan``)."""
    if ties not in TIES:
        raise ValueError(f"ties must be one of {', '.join(TIES)}; got {ties!r}")
    return first_valid_problem(
        SPEC if ties == TIES[0] else FIRST_PLAN_SPEC, seed=seed, k=k, index=index,
        max_attempts=MAX_ATTEMPTS, candidate=functools.partial(_candidate, ties=ties),
        validate=validate_planning_q_record)


def build_first_plan_problem(seed: int, k: int, index: int) -> dict[str, Any]:
    return build_problem(seed, k, index, "first_plan")


def build_split(seed: int = 0, per_k: int = SPEC.default_per_k,
                ks: Iterable[int] = SPEC.default_ks,
                *, workers: int | None = None,
                progress: Callable[[int, int], None] | None = None,
                ties: str = TIES[0]) -> list[dict[str, Any]]:
    """`per_k` problems (k = 1 only), in index order; `ties` as in `build_problem`."""
    if ties not in TIES:
        raise ValueError(f"ties must be one of {', '.join(TIES)}; got {ties!r}")
    if ties == TIES[0]:
        return build_split_with(build_problem, SPEC, seed, per_k, ks, workers, progress)
    return build_split_with(build_first_plan_problem, FIRST_PLAN_SPEC, seed, per_k, ks,
                            workers, progress)


def build_first_plan_split(seed: int = 0, per_k: int = SPEC.default_per_k,
                           ks: Iterable[int] = SPEC.default_ks,
                           *, workers: int | None = None,
                           progress: Callable[[int, int], None] | None = None
                           ) -> list[dict[str, Any]]:
    """`build_split` with ``ties = first_plan`` (the builder ``planning-q-first-plan``)."""
    return build_split(seed, per_k, ks, workers=workers, progress=progress,
                       ties="first_plan")
