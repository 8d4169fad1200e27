"""GSME-Q-MT: k-underspecified problems from the grade-school story templates.

One problem per (seed, k, index), deterministic: pick a template with at least k
goal-relevant leaves, instantiate it with seeded numbers (`builders.gsme_templates`),
hide a planted set S of k goal-relevant leaves and about half of the template's
irrelevant leaves, reveal every other leaf, and keep the candidate only when the exact
search over all unrevealed leaves gives k (templates or draws where S is not a k-MSS are
retried with the next attempt; templates without enough relevant leaves for k are
skipped). Every record passes `builders.gsme_ext.validate_math_record`.

Record fields are those of `builders.gsme_ext.math_record`, plus ``template``,
``theme``, ``characters`` and ``sentences`` (for the word-problem renderer).
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterable
from functools import cache
from typing import Any

from builders.gsme_ext import check_ks, math_record, run_jobs, validate_math_record
from builders.gsme_templates import TEMPLATES, TEMPLATES_VERSION, instantiate
from infoseek.analysis import minimal_sufficient_sets
from infoseek.arith import ArithEngine

BUILDER_NAME = "gsme_mt"
BUILDER_VERSION = f"1.0.0+templates-{TEMPLATES_VERSION}"
DEFAULT_KS = (1, 2, 3, 4)
DEFAULT_PER_K = 100
MAX_K = 4
MAX_ATTEMPTS = 100


class BuildError(RuntimeError):
    pass


@cache
def _relevant_count(template_index: int) -> int:
    t = TEMPLATES[template_index]
    engine = ArithEngine(t.variables, [list(e) for e in t.equations], {}, t.goal)
    return len(engine.goal_relevant_leaves())


def eligible_templates(k: int) -> list[int]:
    """Indices of the templates with at least k goal-relevant leaves."""
    return [i for i in range(len(TEMPLATES)) if _relevant_count(i) >= k]


def _candidate(rng: random.Random, k: int) -> dict[str, Any] | None:
    options = eligible_templates(k)
    if not options:
        return None
    template = TEMPLATES[rng.choice(options)]
    inst = instantiate(template, rng)
    free = ArithEngine(inst["variables"], inst["equations"], {}, inst["goal"])
    relevant = free.goal_relevant_leaves()
    irrelevant = [v for v in free.leaves if v not in relevant]
    planted = rng.sample(relevant, k)
    hidden = set(planted) | {v for v in irrelevant if rng.random() < 0.5}
    observed = {v: inst["values"][v] for v in free.leaves if v not in hidden}
    engine = ArithEngine(inst["variables"], inst["equations"], observed, inst["goal"])
    if len(engine.target_values()) == 1:
        return None
    unrevealed = sorted(hidden)
    result = minimal_sufficient_sets(engine, unrevealed, k)
    if result.k != k:
        return None
    planted_set = tuple(sorted(planted))
    family = [tuple(sorted(s)) for s in result.family]
    if planted_set in family:
        family.remove(planted_set)
        family.insert(0, planted_set)
    return math_record(
        engine=engine, descriptions=inst["descriptions"], leaf_values=inst["values"],
        family=family, k=k,
        extra={"template": inst["template"], "theme": inst["theme"],
               "characters": inst["characters"], "sentences": inst["sentences"],
               "planted": sorted(planted_set)},
    )


def build_problem(seed: int, k: int, index: int) -> dict[str, Any]:
    """One validated problem; deterministic in (seed, k, index)."""
    if not 1 <= k <= MAX_K:
        raise ValueError(f"k must be between 1 and {MAX_K}, got {k}")
    for attempt in range(MAX_ATTEMPTS):
        rng = random.Random(f"{BUILDER_NAME}:{BUILDER_VERSION}:{seed}:{k}:{index}:{attempt}")
        record = _candidate(rng, k)
        if record is None:
            continue
        errors = validate_math_record(record)
        if errors:
            raise BuildError(f"validator rejected a candidate (seed={seed}, k={k}): {errors}")
        record = {"id": f"gsme-mt-s{seed}-k{k}-{index:04d}", **record}
        record["provenance"] = {"builder": BUILDER_NAME, "version": BUILDER_VERSION,
                                "seed": seed, "index": index, "attempt": attempt}
        return record
    raise BuildError(f"no valid k={k} problem after {MAX_ATTEMPTS} attempts (seed={seed})")


def _build_job(job: tuple[int, int, int]) -> dict[str, Any]:
    return build_problem(*job)


def build_split(
    seed: int = 0, per_k: int = DEFAULT_PER_K, ks: Iterable[int] = DEFAULT_KS,
    *, workers: int | None = None, progress: Callable[[int, int], None] | None = None,
) -> list[dict[str, Any]]:
    """`per_k` problems for each k, in (k, index) order."""
    ks = check_ks(ks, MAX_K, per_k)
    jobs = [(seed, k, i) for k in ks for i in range(per_k)]
    return run_jobs(_build_job, jobs, workers, progress)
