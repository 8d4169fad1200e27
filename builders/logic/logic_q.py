"""Seeded generator of Logic-Q problems (QuestBench single-turn, k = 1) with a planted
backward-search depth.

QuestBench's Logic-Q problems are 1-sufficient Horn problems whose one missing fact sits
d backward expansions below the goal (appendix B.1.1; `infoseek.single_turn` defines
the search and d). This builder plants such a problem directly:

1. draw the depth d from `DEPTH_WEIGHTS` (1-12, most mass at 3-5, like the published
   split) and the number of attributes |X| (10-59, mean about 38);
2. plant two derivation chains between the goal y and the hidden attribute x: a proving
   chain x -> a_{m-1} -> ... -> a_1 -> y (x true makes y true after m rounds) and a
   refuting chain y -> b_1 -> ... -> b_{l-1} -> x (by contraposition, x false makes y
   false after l rounds), max(m, l) = d; either the same attributes in both directions
   (an equivalence chain) or two separate chains. Each rule may carry one or two
   support attributes that are observed true. Echo attributes, each equivalent to one
   chain attribute, widen the set of deciding attributes (QuestBench's C(A~));
3. add distractor rules up to |C| of about 0.9-1.6 |X| (8-108): dead ends that read chain
   attributes into other attributes, decoy rules that conclude a chain attribute from a
   hidden distractor, and rules among the distractors;
4. observe the least model of the rules with every chain attribute true on a random share
   of the distractors (so both values of x stay feasible) and hide the rest;
5. decide everything exactly on the engine (`infoseek.analysis`, `infoseek.single_turn`):
   the goal must be open, x must be found at level d exactly, and every other attribute
   whose value alone decides the goal is not askable (``forbidden``). Those found at a
   shallower level are QuestBench's invalid set; a deciding attribute found no earlier
   than x (a refuting-chain attribute is only found after the whole round trip) is
   forbidden too, so that x is the one correct option. A candidate that breaks any of
   this is redrawn; the validator (`validate_logic_q_record`) recomputes it all.

The difficulty axes follow protocols §4 with s the number of deciding attributes (askable or
not, QuestBench's C(A~)). Deterministic per (seed, index).
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterable, Sequence
from functools import partial
from typing import Any

from infoseek.analysis import (
    is_sufficient,
    minimal_sufficient_sets,
)
from infoseek.builders.jobs import build_split_with, first_valid_problem
from infoseek.builders.logic.logic_record import horn_problem_fields
from infoseek.builders.logic.logic_vocab import pick_variables
from infoseek.domains import BuilderSpec
from infoseek.engines.horn import HornEngine, format_literal
from infoseek.single_turn import backward_level

SPEC = BuilderSpec(
    name="logic-q",
    build=f"{__name__}:build_split",
    version="1.0.0",
    random_stream="logic_q:1.0.0",
    max_k=1, default_ks=(1,), default_per_k=200, max_per_k=10_000,
)
"""The Logic-Q builder (k = 1 only). The random stream is the text the generators were
seeded with when the version was part of it, kept so that a seed draws the same
problems."""
MAX_ATTEMPTS = 300
MAX_VARS = 59
MIN_VARS = 10
DEPTH_WEIGHTS: dict[int, float] = {1: 0.07, 2: 0.09, 3: 0.12, 4: 0.25, 5: 0.23, 6: 0.1,
                                   7: 0.06, 8: 0.03, 9: 0.02, 10: 0.01, 11: 0.01,
                                   12: 0.01}
"""The planted depth's distribution (mean 4.5; 28% at most 3, 76% at most 5)."""


def _rule(head: str | None, body: Iterable[str]) -> list[str]:
    return ([head] if head else []) + [format_literal(b, False) for b in body]


def _plant(rng: random.Random, depth: int, target: str, hidden: str, pool: list[str],
           supports: list[str]) -> tuple[list[list[str]], list[str]]:
    """The two chains between `target` and `hidden` (module docstring). Returns (rules,
    chain attributes strictly between the two)."""
    def support() -> list[str]:
        count = rng.choice((0, 0, 0, 1, 1, 2))
        return rng.sample(supports, min(count, len(supports)))

    shared = rng.random() < 0.5
    if shared:
        proving = refuting = depth
    elif rng.random() < 0.5:
        proving, refuting = depth, rng.randint(1, depth)
    else:
        proving, refuting = rng.randint(1, depth), depth
    a_chain = [hidden] + [pool.pop() for _ in range(proving - 1)] + [target]
    b_chain = a_chain if shared else \
        [hidden] + [pool.pop() for _ in range(refuting - 1)] + [target]
    rules = [_rule(a_chain[i + 1], [a_chain[i], *support()]) for i in range(proving)]
    rules += [_rule(b_chain[i], [b_chain[i + 1], *support()])
              for i in range(len(b_chain) - 1)]
    between = list(dict.fromkeys(a_chain[1:-1] + b_chain[1:-1]))
    return rules, between


def _distractor_rules(rng: random.Random, count: int, chain: Sequence[str],
                      others: Sequence[str], supports: Sequence[str]) -> list[list[str]]:
    """Dead ends (chain attributes read into a distractor) and rules among the
    distractors; no head is a chain attribute."""
    rules: list[list[str]] = []
    seen: set[tuple[str, tuple[str, ...]]] = set()
    readable = [*others, *supports, *chain]
    for _ in range(count * 10):
        if len(rules) >= count or not others:
            break
        head = rng.choice(others)
        pool = [v for v in (readable if rng.random() < 0.45 else [*others, *supports])
                if v != head]
        body = tuple(sorted(rng.sample(pool, min(len(pool), rng.choice((1, 2, 2, 3))))))
        if (head, body) not in seen:
            seen.add((head, body))
            rules.append(_rule(head, body))
    return rules


def _decoy_rules(rng: random.Random, count: int, chain: Sequence[str],
                 unsettled: Sequence[str], readable: Sequence[str]) -> list[list[str]]:
    """Rules that conclude a chain attribute from a distractor the observations leave
    open (false in the least model with the chain true): branches of the backward search
    that never close."""
    rules: list[list[str]] = []
    for _ in range(count if unsettled else 0):
        body = {rng.choice(unsettled), *rng.sample(readable, rng.choice((0, 0, 1)))}
        head = rng.choice(chain)
        body.discard(head)
        if body:
            rules.append(_rule(head, sorted(body)))
    return rules


def _candidate(rng: random.Random, k: int, max_vars: int = MAX_VARS
               ) -> dict[str, Any] | None:
    if k != 1:
        raise ValueError(f"logic-q builds 1-sufficient problems only (k = 1), got k={k}")
    depth = rng.choices(list(DEPTH_WEIGHTS), weights=list(DEPTH_WEIGHTS.values()))[0]
    # at most 2 * depth chain attributes, the goal, a few supports and distractors
    n = min(max_vars, max(MIN_VARS, round(rng.triangular(MIN_VARS, MAX_VARS + 1, 47))))
    if 2 * depth + 6 > n:
        depth = max(1, (n - 6) // 2)
    names = pick_variables(rng, n)
    pool = list(names)
    rng.shuffle(pool)
    target, hidden = pool.pop(), pool.pop()
    supports = [pool.pop() for _ in range(rng.randint(1, 3))]
    planted, between = _plant(rng, depth, target, hidden, pool, supports)
    chain = [target, *between, hidden]
    # echoes: attributes equivalent to a chain attribute (e <-> c), more deciding
    # attributes for the invalid set, so s (and E_BF) spread like the published split
    wanted = round((n + 1) / rng.uniform(2.5, 13.0)) - 1 - len(chain[1:])
    for _ in range(min(max(0, wanted), len(pool) - 4)):
        echo, twin = pool.pop(), rng.choice(chain)
        planted += [_rule(echo, [twin]), _rule(twin, [echo])]
    others = list(pool)
    rule_total = min(108, max(8, round(n * rng.uniform(0.9, 1.6))))
    decoys = round((rule_total - len(planted)) * rng.uniform(0.1, 0.3))
    rules = planted + _distractor_rules(rng, rule_total - len(planted) - decoys, chain,
                                        others, supports)
    free = HornEngine(names, rules, {}, target)
    seeds = {v: True for v in others if rng.random() < 0.3}
    seeds.update(dict.fromkeys([*supports, *chain], True))
    model = free.least_model(seeds)
    if model is None:
        return None
    unsettled = [v for v in others if not model[free.index[v]]]
    rules += _decoy_rules(rng, decoys, chain, unsettled, [*others, *supports])
    rng.shuffle(rules)
    share = rng.uniform(0.3, 0.8)
    open_premises = {b for r in rules if r[0] in chain for b in r[1:]}
    shown = [v for v in others if format_literal(v, False) not in open_premises
             and rng.random() < share]
    observed = {v: model[free.index[v]] for v in [*supports, *shown]}
    engine = HornEngine(names, rules, observed, target)
    if engine.is_known() or backward_level(engine, hidden) != depth:
        return None
    deciding = [v for v in engine.unobserved() if is_sufficient(engine, [v])]
    if hidden not in deciding:
        return None
    forbidden = sorted(set(deciding) - {hidden})
    queryable = sorted(set(engine.unobserved()) - set(forbidden))
    if minimal_sufficient_sets(engine, queryable, 1).family != [(hidden,)]:
        return None
    return _record(rng, names, rules, engine, hidden, depth, forbidden, queryable,
                   len(deciding))


def logic_q_difficulty(*, num_vars: int, num_rules: int, depth: int, deciding: int,
                       forbidden: int) -> dict[str, Any]:
    """protocols §4's axes of a Logic-Q record (`infoseek.single_turn.difficulty_axes` computes
    the same from the engine), plus the size of the not-askable set."""
    return {"num_vars": num_vars, "num_constraints": num_rules, "depth": depth,
            "e_bf": round((num_vars + 1) / (deciding + 1), 4), "num_deciding": deciding,
            "num_forbidden": forbidden}


def _record(rng: random.Random, names: Sequence[str], rules: list[list[str]],
            engine: HornEngine, hidden: str, depth: int, forbidden: list[str],
            queryable: list[str], deciding: int) -> dict[str, Any]:
    return {
        **horn_problem_fields(rng, names, rules, engine),
        "queryable": queryable,
        "forbidden": forbidden,
        "alternative_only": [],
        "k": 1,
        "mss_family": [[hidden]],
        "derivation_depth": depth,
        "difficulty": logic_q_difficulty(num_vars=len(names), num_rules=len(rules),
                                         depth=depth, deciding=deciding,
                                         forbidden=len(forbidden)),
    }


def validate_logic_q_record(record: dict[str, Any]) -> list[str]:
    """Everything the module docstring promises, recomputed on the engine. Returns a list
    of problems (empty: valid)."""
    from infoseek.records import engine_from_record

    engine = engine_from_record(record)
    errors: list[str] = []
    if engine.is_known() or not engine.is_feasible():
        return ["the goal is Known (or infeasible) from the observations"]
    family = record.get("mss_family") or []
    if record.get("k") != 1 or len(family) != 1 or len(family[0]) != 1:
        return [f"not one planted variable: k={record.get('k')}, family={family}"]
    hidden = family[0][0]
    if engine.variable_values(hidden) != frozenset({False, True}):
        errors.append(f"{hidden} cannot take both values")
    deciding = sorted(v for v in engine.unobserved() if is_sufficient(engine, [v]))
    askable = set(record["queryable"]) - set(record.get("forbidden", ()))
    if sorted(askable & set(deciding)) != [hidden]:
        errors.append(f"askable deciding variables are {sorted(askable & set(deciding))}, "
                      f"not [{hidden}]")
    if sorted(record.get("forbidden", ())) != sorted(set(deciding) - {hidden}):
        errors.append("forbidden is not the set of the other deciding variables")
    level = backward_level(engine, hidden)
    if level != record.get("derivation_depth") or level != record["difficulty"]["depth"]:
        errors.append(f"{hidden} is found at level {level}, the record says "
                      f"{record.get('derivation_depth')}")
    if record["difficulty"]["num_deciding"] != len(deciding):
        errors.append("num_deciding differs from the exact count")
    if minimal_sufficient_sets(engine, sorted(askable), 1).family != [(hidden,)]:
        errors.append("the MSS family differs from the exact search")
    return errors


def build_problem(seed: int, k: int, index: int, max_vars: int = MAX_VARS
                  ) -> dict[str, Any]:
    """One validated problem; deterministic in (seed, index) (and `max_vars`, which
    small property tests lower)."""
    return first_valid_problem(
        SPEC, seed=seed, k=k, index=index, max_attempts=MAX_ATTEMPTS,
        candidate=partial(_candidate, max_vars=max_vars), validate=validate_logic_q_record,
    )


def build_split(
    seed: int = 0, per_k: int = SPEC.default_per_k, ks: Iterable[int] = SPEC.default_ks,
    *, workers: int | None = None, progress: Callable[[int, int], None] | None = None,
) -> list[dict[str, Any]]:
    """The default split: `per_k` problems (k = 1 only), in index order."""
    return build_split_with(build_problem, SPEC, seed, per_k, ks, workers, progress)
