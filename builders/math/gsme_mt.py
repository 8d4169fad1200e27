"""GSME-Q-MT: k-underspecified problems from the grade-school story templates.

One problem per (seed, k, index), deterministic: pick a template with at least k
goal-relevant leaves, instantiate it with seeded numbers (`infoseek.builders.math.templates`),
hide a planted set S of k goal-relevant leaves and about half of the template's
irrelevant leaves, add disconnected distractor subgraphs (the quantities of other,
seeded-chosen template instances, renamed with a ``dN_`` prefix, their leaves never
revealed) until the problem has about 15-20 askable leaves, reveal every other leaf of
the main template, and keep the candidate only when the exact
search over all unrevealed leaves gives k (templates or draws where S is not a k-MSS are
retried with the next attempt; templates without enough relevant leaves for k are
skipped). Every record passes `infoseek.builders.math.math_record.validate_math_record`.

Record fields are those of `infoseek.builders.math.math_record.math_record`, plus ``template``,
``theme``, ``characters`` and ``sentences`` (for the word-problem renderer).
"""

from __future__ import annotations

import random
import re
from collections.abc import Callable, Iterable
from functools import cache
from typing import Any

from infoseek.analysis import minimal_sufficient_sets
from infoseek.builders.jobs import build_split_with, first_valid_problem
from infoseek.builders.math.math_record import math_record, validate_math_record
from infoseek.builders.math.templates import TEMPLATES, TEMPLATES_CONTENT_HASH, instantiate
from infoseek.domains import BuilderSpec
from infoseek.engines.arith.engine import ArithEngine

SPEC = BuilderSpec(
    name="gsme-mt",
    build=f"{__name__}:build_split",
    version="1.1.0",
    data_hash=TEMPLATES_CONTENT_HASH[:12],
    random_stream="gsme_mt:1.1.0+templates-1.0.0",
    max_k=4, default_ks=(1, 2, 3, 4), default_per_k=100, max_per_k=10_000,
    unanswerable="infoseek.builders.math.unanswerable:build_default",
)
"""The story-template builder; its data hash is the templates' (an edited template file
is never served from a stale cache entry). The random stream is the text the generators
were seeded with when the version (then ``1.1.0+templates-1.0.0``) was part of it, kept
so that a seed draws the same problems."""
MAX_ATTEMPTS = 100


@cache
def _relevant_count(template_index: int) -> int:
    t = TEMPLATES[template_index]
    engine = ArithEngine(t.variables, [list(e) for e in t.equations], {}, t.goal)
    return len(engine.goal_relevant_leaves())


def eligible_templates(k: int) -> list[int]:
    """Indices of the templates with at least k goal-relevant leaves."""
    return [i for i in range(len(TEMPLATES)) if _relevant_count(i) >= k]


def _add_distractors(rng: random.Random, main_index: int, inst: dict[str, Any],
                     target_leaves: int) -> list[str]:
    """Add disconnected distractor subgraphs to `inst` (in place): the quantities of
    other, seeded-chosen template instances, renamed with a prefix (``d1_``, ``d2_``,
    ...), until the problem has `target_leaves` leaves or more. Their leaves are never
    revealed (askable ``irrelevant_leaf`` queries), their derived quantities are
    ``derived`` distractors; descriptions and sentences are kept (the story tells the
    distractor relations, never the distractor values; the oracle's replies use the
    value sentences). Returns the distractor leaves."""
    others = [i for i in range(len(TEMPLATES)) if i != main_index]
    rng.shuffle(others)
    leaves: list[str] = []
    have = len(inst["leaves"])
    for number, index in enumerate(others, start=1):
        if have + len(leaves) >= target_leaves:
            break
        other = instantiate(TEMPLATES[index], rng)
        prefix = f"d{number}_"

        def ren(expr: str, names: frozenset[str] = frozenset(other["variables"]),
                prefix: str = prefix) -> str:
            return re.sub(r"[A-Za-z_][A-Za-z0-9_]*",
                          lambda m: prefix + m.group(0) if m.group(0) in names
                          else m.group(0), expr)

        inst["variables"] = inst["variables"] + [prefix + v for v in other["variables"]]
        inst["equations"] = inst["equations"] + [[prefix + n, ren(e)]
                                                 for n, e in other["equations"]]
        inst["descriptions"] = {**inst["descriptions"], **{
            prefix + v: d for v, d in other["descriptions"].items()}}
        inst["values"] = {**inst["values"], **{
            prefix + v: x for v, x in other["values"].items()}}
        inst["sentences"] = {**inst["sentences"], "values": {
            **inst["sentences"]["values"],
            **{prefix + v: t for v, t in other["sentences"]["values"].items()}},
            "equations": {
            **inst["sentences"]["equations"],
            **{prefix + v: t for v, t in other["sentences"]["equations"].items()}}}
        leaves.extend(prefix + v for v in other["leaves"])
    return leaves


def _candidate(rng: random.Random, k: int) -> dict[str, Any] | None:
    options = eligible_templates(k)
    if not options:
        return None
    main_index = rng.choice(options)
    template = TEMPLATES[main_index]
    inst = instantiate(template, rng)
    free = ArithEngine(inst["variables"], inst["equations"], {}, inst["goal"])
    relevant = free.goal_relevant_leaves()
    irrelevant = [v for v in free.leaves if v not in relevant]
    planted = rng.sample(relevant, k)
    hidden = set(planted) | {v for v in irrelevant if rng.random() < 0.5}
    target_leaves = len(free.leaves) - len(hidden) + rng.randint(15, 20)
    hidden |= set(_add_distractors(rng, main_index, inst, target_leaves))
    free = ArithEngine(inst["variables"], inst["equations"], {}, inst["goal"])
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
    return first_valid_problem(
        SPEC, seed=seed, k=k, index=index, max_attempts=MAX_ATTEMPTS,
        candidate=_candidate, validate=validate_math_record,
    )


def build_split(
    seed: int = 0, per_k: int = SPEC.default_per_k, ks: Iterable[int] = SPEC.default_ks,
    *, workers: int | None = None, progress: Callable[[int, int], None] | None = None,
) -> list[dict[str, Any]]:
    """`per_k` problems for each k, in (k, index) order."""
    return build_split_with(build_problem, SPEC, seed, per_k, ks, workers, progress)
