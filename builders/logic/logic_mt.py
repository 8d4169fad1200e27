"""Seeded generator of k-underspecified Horn-logic problems (SimpleLogic style).

Construction (a fast candidate source; the exact search and the validator decide):

1. draw n adjectives (10-60); plant a gadget that makes the target the conjunction of k
   hidden leaves: forward rules with at most three body atoms (through intermediates that
   may not be asked when k > 3), backward rules from the target to every leaf (sometimes
   through a chain of attributes, which creates alternative MSSs), and padding atoms
   derivable from the observations;
2. add random Horn rules (1-3 body atoms) whose heads lie outside the gadget, up to
   about 1.8 rules per attribute and at most 110 rules;
3. observe the least model of the rules with every gadget attribute true (so every row
   of the leaves stays feasible), and hide a random share of the other attributes as
   distractors, halving the share while the exact k differs from the requested one;
4. compute the exact k and MSS family (`infoseek.analysis.minimal_sufficient_sets`),
   keep the candidate only when k is the requested one and some MSS is derivable by unit
   propagation (the canonical one: the planted leaves when they form an MSS), then run
   the full validator (`validate_logic_record`).

Every emitted record passed the validator; the build is deterministic per (seed, k, index).
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from functools import partial
from typing import Any

from infoseek.analysis import MssResult, minimal_sufficient_sets
from infoseek.builders.jobs import build_split_with, first_valid_problem
from infoseek.builders.logic.logic_record import (
    derivation_depth,
    logic_record,
    validate_logic_record,
)
from infoseek.builders.logic.logic_vocab import pick_variables
from infoseek.domains import BuilderSpec
from infoseek.engines.horn import HornEngine, format_literal

SPEC = BuilderSpec(
    name="logic-mt",
    build=f"{__name__}:build_split",
    version="1.1.0",
    random_stream="logic_mt:1.1.0",
    max_k=5, default_ks=(1, 2, 3, 4), default_per_k=200, max_per_k=10_000,
    unanswerable="infoseek.builders.logic.unanswerable:build_default",
)
"""The default split. 1.1.0: a planted derivation depth (`DEFAULT_DEPTHS`); 1.0.0 had
none (mean depth 2.1-2.8). The random stream is the text the generators were seeded with
when the version was part of it, kept so that a seed draws the same problems."""
MAX_ATTEMPTS = 400

HARD_SPEC = BuilderSpec(
    name="logic-mt-hard",
    build=f"{__name__}:build_hard_split",
    version="1.0.0",
    random_stream="logic_mt_hard:1.0.0",
    max_k=8, default_ks=(5, 6, 7, 8), default_per_k=200, max_per_k=10_000,
    unanswerable="infoseek.builders.logic.unanswerable:build_hard",
)
"""The hard split (`-T split=hard`): k = 5..8 by default, up to 150 attributes, 300 rules
and derivation depth 10, drawn from its own random stream."""
HARD_MAX_ATTEMPTS = 200


@dataclass(frozen=True)
class Shape:
    """The size parameters of a split. `depths`: the planted derivation depth's
    distribution (None: no depth carrier, the shape of version 1.0.0); `chain_choices`:
    the lengths of the backward chains from the target to a leaf, drawn per leaf (each
    link is an alternative MSS member); `chained_leaves`: at most this many leaves get a
    chain (None: all)."""

    min_vars: int
    max_vars: int
    max_rules: int
    rules_per_var: tuple[float, float]
    chain_choices: tuple[int, ...] = (0, 0, 1, 1, 2)
    chained_leaves: int | None = None
    depths: dict[int, float] | None = None
    sat_screen: bool = False
    """Screen candidates with the SAT method instead of the hitting-set search."""
    max_depth: int | None = None
    """Candidates whose canonical MSS is deeper are redrawn."""
    flat_groups: bool = False
    """Leaves in groups of at most three under forbidden intermediates (any k up to 9);
    False: the two-group gadget of version 1.0.0 (k up to 6)."""


DEFAULT_DEPTHS: dict[int, float] = {1: 0.06, 2: 0.1, 3: 0.14, 4: 0.3, 5: 0.2, 6: 0.1,
                                    7: 0.05, 8: 0.04}
"""The default split's planted depth (version 1.1.0): mean 4.2, so that the canonical
MSS's derivation depth averages about 4.4 at k = 3, the published Logic-Q-MT figure."""
DEFAULT_SHAPE = Shape(min_vars=10, max_vars=60, max_rules=110, rules_per_var=(0.9, 1.8),
                      depths=DEFAULT_DEPTHS)
HARD_SHAPE = Shape(min_vars=60, max_vars=150, max_rules=300, rules_per_var=(1.2, 2.0),
                   chain_choices=(0, 1, 1, 2), chained_leaves=2,
                   depths={d: 1.0 for d in range(3, 11)}, flat_groups=True,
                   sat_screen=True, max_depth=10)


def _rule(head: str | None, body: Iterable[str]) -> list[str]:
    return ([head] if head else []) + [format_literal(b, False) for b in body]


def _plant(rng: random.Random, target: str, pool: list[str], k: int, shape: Shape = DEFAULT_SHAPE
           ) -> tuple[list[list[str]], list[str], list[str], list[str]]:
    """Plant a gadget that makes the target the conjunction of k hidden leaves.

    Forward rules derive the target from its leaves (through forbidden intermediates
    when k > 3, because a body has at most three atoms); backward rules (target ->
    leaf, sometimes through a chain of attributes) let unit propagation derive the
    target's falsity from any false leaf, and give alternative MSSs. Padding atoms
    derivable from the observations lengthen derivations. Returns (rules, leaves,
    intermediates, hidden helpers)."""
    leaves = [pool.pop() for _ in range(k)]
    rules: list[list[str]] = []
    intermediates: list[str] = []
    helpers: list[str] = []
    if k <= 3:
        groups: list[list[str]] = [leaves]
        root_body = list(leaves)
    else:
        if shape.flat_groups:
            count = math.ceil(k / 3)
            groups = [leaves[i::count] for i in range(count)]
        else:
            split = rng.randint(max(1, k - 3), min(3, k - 1))
            groups = [leaves[:split], leaves[split:]]
        root_body = []
        for group in groups:  # each group of two or more under a forbidden intermediate
            if len(group) == 1:
                root_body.append(group[0])
                continue
            mid = pool.pop()
            intermediates.append(mid)
            rules.append(_rule(mid, group))
            root_body.append(mid)
    if len(root_body) < 3 and rng.random() < 0.6:
        pad = pool.pop()
        helpers.append(pad)
        support = [pool.pop() for _ in range(rng.randint(1, 2))]
        rules.append(_rule(pad, support))  # support atoms stay observed true
        helpers.extend(f"+{a}" for a in support)
        root_body.append(pad)
    rules.append(_rule(target, root_body))
    carrier = _depth_carrier(rng, pool, shape, rules, helpers, room=len(pool) - 2 * k - 2)
    chained = set(leaves if shape.chained_leaves is None
                  else rng.sample(leaves, min(k, shape.chained_leaves)))
    for leaf in leaves:
        chain_len = rng.choice(shape.chain_choices) if leaf in chained else 0
        prev = target
        steps = [*(pool.pop() for _ in range(chain_len)), leaf]
        for position, link in enumerate(steps):
            if link != leaf:
                helpers.append(link)
            body = [prev] if carrier is None or position else [prev, carrier]
            rules.append(_rule(link, body))
            prev = link
    return rules, leaves, intermediates, helpers


def _depth_carrier(rng: random.Random, pool: list[str], shape: Shape,
                   rules: list[list[str]], helpers: list[str], room: int) -> str | None:
    """Plant the derivation depth (`Shape.depths`): a chain s -> c1 -> ... -> c_d from an
    observed support atom s, whose end c_d joins the first backward rule of every leaf
    (``target and c_d -> leaf``). c_d is forced true by the observations, so no world
    changes, but refuting the target from a false leaf needs c_d, derived in round d: the
    canonical MSS's depth becomes about d + 1. The chain takes at most `room` attributes
    (a small problem gets a shorter one). None when the depth is 1 or the shape has no
    carrier."""
    if shape.depths is None:
        return None
    depth = rng.choices(list(shape.depths), weights=list(shape.depths.values()))[0]
    depth = min(depth, room)
    if depth <= 1:
        return None
    support = pool.pop()
    helpers.append(f"+{support}")
    prev = support
    for _ in range(depth - 1):
        link = pool.pop()
        helpers.append(link)
        rules.append(_rule(link, [prev]))
        prev = link
    return prev


def _noise_rules(rng: random.Random, heads: Sequence[str], bodies: Sequence[str], count: int,
                 ) -> list[list[str]]:
    rules: list[list[str]] = []
    seen: set[tuple[str, tuple[str, ...]]] = set()
    for _ in range(count * 10):
        if len(rules) >= count:
            break
        head = rng.choice(heads)
        options = [v for v in bodies if v != head]
        body = tuple(sorted(rng.sample(options, min(len(options), rng.choice((1, 2, 2, 3))))))
        if (head, body) not in seen:
            seen.add((head, body))
            rules.append(_rule(head, body))
    return rules


def _mss(engine: HornEngine, max_k: int, queryable: Sequence[str]) -> MssResult:
    return minimal_sufficient_sets(engine, queryable, max_k)


def _sat_screen(names: Sequence[str], rules: list[list[str]], observed: dict[str, bool],
                target: str, queryable: Sequence[str], k: int) -> MssResult:
    """The candidate's k and family by the SAT method (`infoseek.engines.satmss`), much
    faster on the hard shapes; the validator still runs the hitting-set search."""
    from infoseek.engines.satmss import SatMss

    search = SatMss(names, rules, observed, target, queryable)
    try:
        found = search.minimum(k)
    finally:
        search.close()
    return MssResult(found.k, found.family)


def _candidate(rng: random.Random, k: int, shape: Shape = DEFAULT_SHAPE
               ) -> dict[str, Any] | None:
    n = rng.randint(max(shape.min_vars, 3 * k + 6), shape.max_vars)
    names = pick_variables(rng, n)
    pool = list(names)
    rng.shuffle(pool)
    target = pool.pop()
    planted, leaves, intermediates, helpers = _plant(rng, target, pool, k, shape)
    support = [h[1:] for h in helpers if h.startswith("+")]
    helpers = [h for h in helpers if not h.startswith("+")]
    gadget = {target, *leaves, *intermediates, *helpers}
    others = [v for v in names if v not in gadget]
    rule_count = min(shape.max_rules,
                     max(len(planted) + 4, round(n * rng.uniform(*shape.rules_per_var))))
    noise = _noise_rules(rng, others, names, rule_count - len(planted))
    rules = planted + noise
    rng.shuffle(rules)
    # Observations: the least model with every gadget attribute true and the support
    # atoms true, so that every row of the leaves stays feasible.
    free = HornEngine(names, rules, {}, target)
    seeds = {v: True for v in others if rng.random() < 0.2}
    seeds.update(dict.fromkeys(support, True))
    seeds.update(dict.fromkeys(gadget, True))
    model = free.least_model(seeds)
    if model is None:
        return None
    base_observed = {v: model[free.index[v]] for v in others}
    # Distractors: hide a random share of the other attributes, backing off on failure.
    candidates = list(others)
    rng.shuffle(candidates)
    share = rng.uniform(0.2, 0.6)
    for _ in range(4):
        hidden = set(candidates[: int(len(candidates) * share)])
        observed = {v: base_observed[v] for v in others if v not in hidden}
        engine = HornEngine(names, rules, observed, target)
        queryable = [v for v in names if v not in observed and v != target
                     and v not in intermediates]
        result = (_sat_screen(names, rules, observed, target, queryable, k)
                  if shape.sat_screen else _mss(engine, k, queryable))
        if result.k == k:
            break
        share /= 2
    else:
        return None
    # Prefer the planted leaves as canonical when they form a derivable MSS (the
    # deepest derivable one otherwise).
    planted_set = tuple(sorted(leaves))
    planted_mss = next((s for s in result.family if tuple(sorted(s)) == planted_set), None)
    planted_depth = None if planted_mss is None else derivation_depth(engine, planted_mss)
    if planted_mss is not None and planted_depth is not None:
        canonical, depth = planted_mss, planted_depth
    else:
        derivable = [(s, derivation_depth(engine, s)) for s in result.family]
        derivable = [(s, d) for s, d in derivable if d is not None]
        if not derivable:
            return None
        canonical, depth = max(derivable, key=lambda sd: (sd[1], sorted(sd[0])))
    if shape.max_depth is not None and depth > shape.max_depth:
        return None
    family = [canonical] + [s for s in result.family if s != canonical]
    return logic_record(rng, names, rules, engine, family, depth, k, sorted(intermediates))


def build_problem(seed: int, k: int, index: int) -> dict[str, Any]:
    """One validated problem; deterministic in (seed, k, index)."""
    return first_valid_problem(
        SPEC, seed=seed, k=k, index=index, max_attempts=MAX_ATTEMPTS,
        candidate=_candidate, validate=validate_logic_record,
    )


def build_split(
    seed: int = 0, per_k: int = SPEC.default_per_k, ks: Iterable[int] = SPEC.default_ks,
    *, workers: int | None = None, progress: Callable[[int, int], None] | None = None,
) -> list[dict[str, Any]]:
    """The default split: `per_k` problems for each k, in (k, index) order."""
    return build_split_with(build_problem, SPEC, seed, per_k, ks, workers, progress)


def build_hard_problem(seed: int, k: int, index: int) -> dict[str, Any]:
    """One validated problem of the hard split (`HARD_SHAPE`), cross-checked by the second
    exact method (`infoseek.engines.satmss.cross_check_record`); deterministic in (seed,
    k, index) and drawn from its own random stream, so the default split is untouched."""
    return first_valid_problem(
        HARD_SPEC, seed=seed, k=k, index=index, max_attempts=HARD_MAX_ATTEMPTS,
        candidate=partial(_candidate, shape=HARD_SHAPE), validate=validate_hard_record,
    )


def validate_hard_record(record: dict[str, Any]) -> list[str]:
    """`validate_logic_record`, then the independent SAT method must find the same k and
    the same MSS family."""
    from infoseek.engines.satmss import cross_check_record

    return validate_logic_record(record) or cross_check_record(record)


def build_hard_split(
    seed: int = 0, per_k: int = HARD_SPEC.default_per_k,
    ks: Iterable[int] = HARD_SPEC.default_ks,
    *, workers: int | None = None, progress: Callable[[int, int], None] | None = None,
) -> list[dict[str, Any]]:
    """The hard split: `per_k` problems for each k, in (k, index) order."""
    return build_split_with(build_hard_problem, HARD_SPEC, seed, per_k, ks, workers,
                            progress)


SPLITS: dict[str, BuilderSpec] = {"default": SPEC, "hard": HARD_SPEC}
"""`-T split=` of the logic tasks -> the builder that makes it."""


def split_settings(split: str, k: int | list[int] | None, max_turns: int | None = None,
                   max_size: int | None = None) -> dict[str, Any]:
    """The builder, k, turn cap and MSS answer size of a split where the task leaves them
    None: the builder's default ks; the turn cap `infoseek.contract.long_turn_cap` (at
    least 2k turns); at most max(4, k) variables in an MSS answer. `split` must be a
    key of `SPLITS` (the tasks check it first); a bad k is left for the task's check."""
    from infoseek.contract import long_turn_cap

    spec = SPLITS[split]
    if k is None:
        k = list(spec.default_ks)
    values = k if isinstance(k, list) else [k]
    largest = max([v for v in values if isinstance(v, int) and not isinstance(v, bool)],
                  default=1)
    return {"builder": spec.name, "k": k,
            "max_turns": long_turn_cap(k) if max_turns is None else max_turns,
            "max_size": max(4, largest) if max_size is None else max_size}
