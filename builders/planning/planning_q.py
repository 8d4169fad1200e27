"""Seeded generator of Planning-Q problems (QuestBench single turn), built the way
QuestBench built its 7,500 (`infoseek.builders.planning.backward`: the backward search
over partial states, branching held-out states, pair and single rows), with the ground
truth of every record recomputed on the exact engine:

* a **pair row** becomes a 1-sufficient problem (k = 1) when the full states consistent
  with its partial state fall into exactly two target values and some atom settles them;
  its MSS family is every sufficient atom as a singleton (the row's held-out questions
  that are sufficient first), exact: an atom counts when its value alone fixes the target
  (true in every state of one group and false in every state of the other);
* a **single row** becomes a well-specified problem (k = 0, MSS family ``[[]]``,
  ``answer`` its one target value) when every consistent state has the same target
  value: "No questions needed" is the right pick, as in the released data.

A state's target value follows the published tie convention by default (``ties =
first_plan``: its first optimal plan with the actions in name order, QuestBench's one BFS
plan per state with the order pinned; builder ``planning-q``); ``ties = plan_set`` (its
set of optimal plans, builder ``planning-q-plan-set``) judges the same candidate rows.
The split is the passing rows in a seeded random order, so the share of "No questions
needed" rows, the block counts and the depths come out of the procedure. The record's
``question_options`` are all (b+1)^2 atoms, observed ones too (26, 37, 50 or 65 options
with "No questions needed", as published); ``proposal`` keeps what proposed the row (the
atoms left unknown and the backward-search path of each).

Difficulty axes: ``num_vars`` |X| = (b+1)^2, ``blocks`` b, ``depth`` d as the released
data's ``min_depth``: for a pair row the shorter of the two groups' optimal plans, for a
"No questions needed" row the length of the backward-search path that proposed it (what
the released generator writes; that search does not check delete effects, so the path is
often shorter than the optimal plan); ``optimal_depth`` the shorter optimal plan in both
kinds (exact); ``max_depth`` the longer optimal plan (the backward-search level of every
sufficient atom, `infoseek.single_turn.backward_level`; the one optimal plan of a
well-specified row); ``e_bf`` = (|X| + 1) / (s + 1) with s the sufficient atoms, or s = 1
("No questions needed" is the one right option) for a well-specified row;
``num_constraints`` the ground actions. The validator recomputes all of it on the
engine. Deterministic per (seed, index): records are byte-identical across runs,
machines and hash seeds (no set order reaches a record, and the one plan of a state is
the first in name order, never pyperplan's hash-dependent operator order).
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Iterable
from typing import Any

from infoseek.builders.jobs import build_split_with, first_valid_problem
from infoseek.builders.planning.backward import Row, candidate_rows, held_out_states
from infoseek.builders.planning.problems import GOAL_TEMPLATES, problem_fields
from infoseek.domains import BuilderSpec
from infoseek.engines.planning.engine import TIES, PlanningEngine, variable_name
from infoseek.engines.planning.space import blocks_space
from infoseek.single_turn import backward_level, sufficient_options

DEFAULT_TIES = "first_plan"
"""The tie convention of the default builder ``planning-q``: QuestBench's (one BFS plan per
state, operator order pinned to name order); ``plan_set`` builds ``planning-q-plan-set``."""
SPEC = BuilderSpec(
    name="planning-q",
    build=f"{__name__}:build_split",
    version="1.3.0",
    shape=f"{__name__}:shape_lines",
    random_stream="planning_q:backward",
    max_k=1, default_ks=(1,), default_per_k=7500, max_per_k=8000,
)
"""Planning-Q (k = 1 only: 1-sufficient problems and "No questions needed" rows), under
the published tie convention (``ties = first_plan``: a state's target is its first
optimal plan, operator order pinned to name order). This is the split whose shape
matches the published one (seed 0: within depth 3 / 5 / 10 5.9 / 27.1 / 94.2%, b mean
5.68, depth mean 6.89): the published generator keeps its rows under one plan per state,
and plan sets reject nearly a third of those rows (docs/tasks/planning.md).
Version 1.3: ``first_plan`` is the default (1.2 built plan sets under this name and the
first-plan split as ``planning-q-first-plan``); 1.2 built the published way
(`infoseek.builders.planning.backward`), with "No questions needed" rows; 1.1 made
``depth`` the shorter plan; 1.0 took a minimal well-specified state and removed one atom.
``max_per_k``: a seed's passing rows run out a little above 8,000."""
PLAN_SET_SPEC = BuilderSpec(
    name="planning-q-plan-set",
    build=f"{__name__}:build_plan_set_split",
    version="1.3.0",
    shape=f"{__name__}:shape_lines",
    random_stream="planning_q:backward",
    max_k=1, default_ks=(1,), default_per_k=7500, max_per_k=8000,
)
"""Planning-Q under the plan-set convention (``ties = plan_set``: a state's target is its
set of optimal plans, any of them a correct plan; no search tie-break reaches a record).
It shares the default builder's random stream, so both judge the same candidate rows
(`under_other_ties` compares the two conventions on the same partial states); its split
is deeper than the published one (seed 0: within depth 3 / 5 / 10 4.4 / 21.3 / 92.0%).
Version 1.3.0 is version 1.2.0 of ``planning-q`` under a new name (the same records, ids
aside)."""
SIZES = (4, 5, 6, 7)
"""Block counts of the published split."""


def plan_depths(engine: PlanningEngine) -> tuple[int, int]:
    """(shorter, longer) optimal plan length over the target values the observations
    leave open."""
    steps = [engine.steps_of(value) for value in engine.target_values()]
    return min(steps), max(steps)


def _sufficient_first(engine: PlanningEngine, held_out: list[str]) -> list[str]:
    sufficient = sufficient_options(engine, engine.unobserved())
    return [v for v in held_out if v in sufficient] + [
        v for v in sufficient if v not in held_out]


def planning_q_difficulty(engine: PlanningEngine, sufficient: list[str],
                          proposal: dict[str, Any]) -> dict[str, Any]:
    """The record's axes (module docstring); `proposal` gives a well-specified row's
    published depth (the length of the backward-search path that proposed it)."""
    num_vars = len(engine.space.atoms)
    shorter, longer = plan_depths(engine)
    depth = shorter if sufficient else len(proposal["paths"][0])
    return {"num_vars": num_vars, "blocks": engine.blocks,
            "num_constraints": len(engine.space.operators), "depth": depth,
            "optimal_depth": shorter, "max_depth": longer,
            "e_bf": round((num_vars + 1) / ((len(sufficient) or 1) + 1), 4),
            "num_sufficient": len(sufficient)}


def row_record(row: Row, ties: str = DEFAULT_TIES) -> dict[str, Any] | None:
    """The record a candidate row becomes (module docstring), or None when it fails: a
    pair row without exactly two target values or without a sufficient atom, a single
    row whose consistent states do not share one target value."""
    space = blocks_space(row.blocks)
    observed = {variable_name(a): v for a, v in row.observed().items()}
    engine = PlanningEngine(row.blocks, row.goal, observed, ties=ties)
    values = engine.target_values()
    held = held_out_states(row.blocks, row.goal)[row.state]
    unknown = [variable_name(space.atoms[bit]) for bit in row.unknown]
    paths = [[space.operators[n] for n in path] for path in
             (held.paths[held.questions.index(bit)] for bit in row.unknown)]
    proposal = {"unknown": unknown, "paths": paths}
    if len(row.unknown) == 1:
        if len(values) != 1:
            return None
        sufficient: list[str] = []
        family: list[list[str]] = [[]]
    else:
        if len(values) != 2:
            return None
        sufficient = _sufficient_first(engine, unknown)
        if not sufficient:
            return None
        family = [[v] for v in sufficient]
    difficulty = planning_q_difficulty(engine, sufficient, proposal)
    record = {
        **problem_fields(row.blocks, row.goal, engine),
        "queryable": engine.unobserved(),
        "question_options": list(engine.atom_variables),
        "forbidden": [],
        "alternative_only": [],
        "k": 1 if sufficient else 0,
        "mss_family": family,
        "derivation_depth": difficulty["depth"],
        "difficulty": difficulty,
        "proposal": proposal,
    }
    if not sufficient:
        record["answer"] = record["target_values"][0]
    return record


_PASSING: dict[tuple[int, str, tuple[int, ...]], tuple[list[Row], list[int]]] = {}


def passing_rows(seed: int, ties: str, sizes: tuple[int, ...] = SIZES,
                 count: int | None = None) -> list[Row]:
    """The candidate rows of `seed` that become records, in the candidates' seeded order:
    the first `count` of them (all when None; fewer when the seed has fewer). Candidates
    are judged only as far as needed, and what was judged is kept for the process."""
    rows = candidate_rows(SPEC.random_stream, seed, tuple(sizes), GOAL_TEMPLATES)
    found, position = _PASSING.setdefault((seed, ties, tuple(sizes)), ([], [0]))
    while (count is None or len(found) < count) and position[0] < len(rows):
        row = rows[position[0]]
        position[0] += 1
        if row_record(row, ties) is not None:
            found.append(row)
    return found[:count] if count is not None else list(found)


def validate_planning_q_record(record: dict[str, Any]) -> list[str]:
    """Everything the module docstring promises, recomputed on the engine (empty: valid)."""
    from infoseek.records import engine_from_record

    engine = engine_from_record(record)
    values = engine.target_values()
    well_specified = record.get("k") == 0
    if len(values) != (1 if well_specified else 2):
        return [f"the consistent states have {len(values)} target values, not "
                f"{1 if well_specified else 2} (k={record.get('k')})"]
    if sorted(values, key=lambda t: (engine.steps_of(t), t)) != record["target_values"]:
        return ["target_values differ from the engine's"]
    family = record.get("mss_family") or []
    sufficient = sufficient_options(engine, engine.unobserved())
    errors = []
    if well_specified:
        if family != [[]] or record.get("answer") != record["target_values"][0]:
            errors.append("a well-specified row needs mss_family [[]] and its one value "
                          "as answer")
    elif record.get("k") != 1 or not family or any(len(m) != 1 for m in family):
        errors.append(f"not a family of single atoms: k={record.get('k')}")
    elif sorted(m[0] for m in family) != sorted(sufficient):
        errors.append("the MSS family is not the set of sufficient atoms")
    if record["queryable"] != engine.unobserved():
        errors.append("queryable is not every unobserved atom")
    if record.get("question_options") != list(engine.atom_variables):
        errors.append("question_options is not every atom")
    proposal = record.get("proposal") or {}
    unknown = proposal.get("unknown") or []
    if (len(unknown) != (1 if well_specified else 2)
            or any(v in record["observed"] for v in unknown)
            or len(proposal.get("paths") or []) != len(unknown)
            or not all(set(p) <= set(engine.space.operators) for p in proposal["paths"])):
        errors.append("proposal does not name the row's unknown atoms and their paths")
        return errors
    shorter, longer = plan_depths(engine)
    difficulty = record["difficulty"]
    depth = len(proposal["paths"][0]) if well_specified else shorter
    if depth != record.get("derivation_depth") or depth != difficulty.get("depth"):
        errors.append(f"depth {depth} differs from the record's")
    level = backward_level(engine, family[0][0]) if family and family[0] else longer
    if level != longer or longer != difficulty.get("max_depth"):
        errors.append(f"max_depth {longer} (the longer plan, the backward-search level of "
                      f"the sufficient atoms: {level}) differs from the record's")
    if difficulty != planning_q_difficulty(engine, sufficient, proposal):
        errors.append("difficulty axes differ from the exact ones")
    return errors


def under_other_ties(record: dict[str, Any]) -> str:
    """What a Planning-Q record's partial state is under the other tie convention
    (`TIES`): ``same`` (the same kind of problem with the same correct atoms; for a
    well-specified row: still one value), ``other atoms`` (still a 1-sufficient problem,
    other correct atoms), ``well-specified`` (one value: "No questions needed" would be
    right) or ``rejected`` (the builder would not emit it: more than two values, no
    settling atom, or a single row with more than one value)."""
    spec = record["engine"]
    other = TIES[1] if spec.get("ties", TIES[0]) == TIES[0] else TIES[0]
    engine = PlanningEngine(spec["blocks"], spec["goal"], record["observed"],
                            record["target"], other)
    values = engine.target_values()
    if len(values) == 1:
        return "same" if record.get("k") == 0 else "well-specified"
    if record.get("k") == 0 or len(values) != 2:
        return "rejected"
    sufficient = sufficient_options(engine, engine.unobserved())
    if not sufficient:
        return "rejected"
    return ("same" if sorted(sufficient) == sorted(m[0] for m in record["mss_family"])
            else "other atoms")


PUBLISHED_SHAPE: dict[str, tuple[float, float, float]] = {
    "blocks": (4, 7, 5.7), "num_vars": (25, 64, 46.0), "depth": (1, 14, 6.9),
    "e_bf": (3.0, 33.0, 18.5)}
"""QuestBench's Planning-Q (paper, Table 1): (min, max, mean) of b, |X|, d (the released
``min_depth``) and E_BF over its 7,500 problems."""
PUBLISHED_BFS = {3: 5.75, 5: 27.2, 10: 93.9}
"""QuestBench's BFS baselines on Planning-Q (paper, Table 2), percent correct at depth D."""
PUBLISHED_UNDERSPECIFIED = 41.8
"""Share (percent) of underspecified problems in QuestBench's Planning-Q detection data
(paper, Table 7 and section 5.4): the "No questions needed" rows are the rest."""


def _span(values: list[float]) -> str:
    return f"{min(values):g}-{max(values):g}, mean {sum(values) / len(values):.2f}"


def _within(values: list[int], depth: int) -> float:
    return 100 * sum(v <= depth for v in values) / len(values)


def shape_lines(records: list[dict[str, Any]]) -> list[str]:
    """The split's shape beside QuestBench's (printed by `infoseek build planning-q`): b,
    |X|, depth the published way and exactly, E_BF, the share of rows whose right answer
    is "No questions needed", and the share within depth 3 / 5 / 10 measured the
    published way (``depth``, the released ``min_depth``) beside the BFS baselines."""
    axes = [r["difficulty"] for r in records]
    out = [f"shape of {len(records)} problems (QuestBench Planning-Q, 7,500 problems, in "
           "brackets):"]
    names = {"blocks": "blocks b", "num_vars": "|X|",
             "depth": "depth d (published min_depth)", "e_bf": "E_BF"}
    for key, label in names.items():
        low, high, mean = PUBLISHED_SHAPE[key]
        out.append(f"  {label}: {_span([a[key] for a in axes])}  "
                   f"[{low:g}-{high:g}, mean {mean}]")
    out.append(f"  optimal_depth (shorter optimal plan): "
               f"{_span([a['optimal_depth'] for a in axes])}  [not published]")
    out.append(f"  max_depth (longer optimal plan): {_span([a['max_depth'] for a in axes])}"
               "  [not published]")
    unneeded = sum(r.get("k") == 0 for r in records)
    out.append(f"  \"No questions needed\" rows: {100 * unneeded / len(records):.1f}%  "
               f"[{100 - PUBLISHED_UNDERSPECIFIED:.1f}%: 41.8% underspecified in the "
               "paper's detection data]")
    depths = [a["depth"] for a in axes]
    optimal = [a["optimal_depth"] for a in axes]
    for depth, published in PUBLISHED_BFS.items():
        out.append(f"  within depth {depth}: {_within(depths, depth):.1f}% by min_depth, "
                   f"{_within(optimal, depth):.1f}% by the shorter optimal plan  "
                   f"[BFS baseline {published}%]")
    return out


def _spec(ties: str) -> BuilderSpec:
    return SPEC if ties == DEFAULT_TIES else PLAN_SET_SPEC


def build_problem(seed: int, k: int, index: int, ties: str = DEFAULT_TIES,
                  sizes: tuple[int, ...] = SIZES) -> dict[str, Any]:
    """Problem `index` of the split: the index-th passing row (`passing_rows`);
    deterministic in (seed, index). `ties`: the target value of a state
    (`infoseek.engines.planning.engine.TIES`): its first optimal plan (the published
    convention, the default, builder ``planning-q``) or its set of optimal plans (builder
    ``planning-q-plan-set``); `sizes`: the block counts (the published 4-7 by default;
    fewer make a smaller, faster split)."""
    if ties not in TIES:
        raise ValueError(f"ties must be one of {', '.join(TIES)}; got {ties!r}")
    if k != 1:
        raise ValueError(f"planning-q builds 1-sufficient problems only (k = 1), got k={k}")
    rows = passing_rows(seed, ties, tuple(sizes), index + 1)
    if index >= len(rows):
        raise ValueError(f"planning-q: seed {seed} gives {len(rows)} problems "
                         f"(blocks {', '.join(map(str, sizes))}); index {index} asked for")
    return first_valid_problem(
        _spec(ties), seed=seed, k=k, index=index,
        max_attempts=1, candidate=lambda _rng, _k: row_record(rows[index], ties),
        validate=validate_planning_q_record)


def build_plan_set_problem(seed: int, k: int, index: int,
                           sizes: tuple[int, ...] = SIZES) -> dict[str, Any]:
    return build_problem(seed, k, index, "plan_set", sizes)


def _sized(function: Callable, sizes: tuple[int, ...]) -> Callable:
    return function if tuple(sizes) == SIZES else functools.partial(
        function, sizes=tuple(sizes))


def build_split(seed: int = 0, per_k: int = SPEC.default_per_k,
                ks: Iterable[int] = SPEC.default_ks,
                *, workers: int | None = None,
                progress: Callable[[int, int], None] | None = None,
                ties: str = DEFAULT_TIES, sizes: Iterable[int] = SIZES
                ) -> list[dict[str, Any]]:
    """`per_k` problems (k = 1 only), in index order; `ties` and `sizes` as in
    `build_problem`."""
    if ties not in TIES:
        raise ValueError(f"ties must be one of {', '.join(TIES)}; got {ties!r}")
    sizes = tuple(sizes)
    if not sizes or any(b not in SIZES for b in sizes):
        raise ValueError(f"sizes must be block counts among {SIZES}; got {sizes}")
    problem = build_problem if ties == DEFAULT_TIES else build_plan_set_problem
    return build_split_with(_sized(problem, sizes), _spec(ties), seed, per_k, ks,
                            workers, progress)


def build_plan_set_split(seed: int = 0, per_k: int = SPEC.default_per_k,
                         ks: Iterable[int] = SPEC.default_ks,
                         *, workers: int | None = None,
                         progress: Callable[[int, int], None] | None = None,
                         sizes: Iterable[int] = SIZES) -> list[dict[str, Any]]:
    """`build_split` with ``ties = plan_set`` (the builder ``planning-q-plan-set``)."""
    return build_split(seed, per_k, ks, workers=workers, progress=progress,
                       ties="plan_set", sizes=sizes)
