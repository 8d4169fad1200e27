"""Exact bounds on the minimax question count of the seek game (`infoseek.strategies`).

From a state s (the answers so far), with D(s) the worst-case number of further
questions of an optimal strategy over every reply still consistent:

* upper bound: k(s), the size of a minimum sufficient set of the candidates not yet
  answered. Asking its members, in any order, pins the target whatever the replies, so
  D(s) <= k(s); after asking one member x and any reply v, the others form a sufficient
  set of size k(s) - 1 from s + {x: v}, so asking x costs at most k(s) questions;
* lower bound: for any world w consistent with s, C(w, s), the size of a smallest set T
  of candidates whose values in w force the target (a *certificate* of w). An adversary
  who replies as w does ends a strategy's play with the asked set's values in w forcing
  the target, so the strategy asked at least C(w, s) questions: D(s) >= C(w, s).

So a world with C(w, s) >= k(s) proves D(s) = k(s). `certificate_at_least` decides
"C(w, s) >= m" exactly by an implicit hitting-set search: a set T of candidates is a
certificate of w iff no consistent world w' with another target value agrees with w on
T, i.e. iff T meets the *difference set* of w and every such w'. Each refuted T yields a
world w' that agrees with w on T, so its difference set is a new constraint T misses;
when no set of at most m - 1 candidates meets every constraint found, none is a
certificate. Nothing is sampled: the worlds tried (`probe_worlds`) only decide how soon
a proof is found, never whether a bound holds.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from typing import Any

from infoseek.engine import Engine, ordered_values, require_enumerable


def consistent_world(
    engine: Engine, candidates: Sequence[str], base: Mapping[str, Any], target_value: Any,
    prefer: Mapping[str, Any] | None = None, last: bool = False,
) -> dict[str, Any] | None:
    """Values for `candidates` (those not in `base`) that extend `base` to a world whose
    target is `target_value`, chosen one variable at a time in candidate order: the
    value in `prefer` when it is still possible, else the first (or `last`) value in
    domain order. None when no such world exists."""
    partial = dict(base)
    if target_value not in engine.target_values(partial):
        return None
    world: dict[str, Any] = {}
    for var in candidates:
        if var in base:
            continue
        values = ordered_values(
            require_enumerable(engine.variable_values(var, partial, target_value), var),
            engine.domain(var))
        if not values:  # cannot happen: the partial world extends to one with the value
            return None
        value = values[-1] if last else values[0]
        if prefer is not None and var in prefer and prefer[var] in values:
            value = prefer[var]
        partial[var] = value
        world[var] = value
    return world


def _hitting_set(sets: list[frozenset[str]], limit: int, order: Mapping[str, int]
                 ) -> list[str] | None:
    """Some set of at most `limit` variables meeting every set of `sets` (None: none)."""

    def branch(chosen: list[str]) -> list[str] | None:
        unhit = [s for s in sets if s.isdisjoint(chosen)]
        if not unhit:
            return chosen
        if len(chosen) == limit:
            return None
        unhit.sort(key=len)
        room, used, disjoint = limit - len(chosen), set(), 0
        for s in unhit:  # pairwise disjoint sets need a variable each
            if s.isdisjoint(used):
                used |= s
                disjoint += 1
                if disjoint > room:
                    return None
        for var in sorted(unhit[0], key=order.__getitem__):
            found = branch(chosen + [var])
            if found is not None:
                return found
        return None

    return branch([])


def certificate_at_least(
    engine: Engine, candidates: Sequence[str], base: Mapping[str, Any],
    world: Mapping[str, Any], m: int,
) -> bool:
    """Exactly whether C(world, base) >= m: no set of fewer than m `candidates` (those not
    in `base`) whose values in `world` force the target (module docstring). `world` must
    give every such candidate a value and be consistent with `base`."""
    free = [v for v in candidates if v not in base]
    order = {v: i for i, v in enumerate(free)}
    full = {**base, **{v: world[v] for v in free}}
    values = engine.target_values(full)
    if len(values) != 1:
        return True  # even every candidate's value leaves the target open: no certificate
    (value,) = values
    if m <= 0:
        return True
    constraints: list[frozenset[str]] = []
    while True:
        chosen = _hitting_set(constraints, m - 1, order)
        if chosen is None:
            return True
        fixed = {**base, **{v: world[v] for v in chosen}}
        others = [t for t in ordered_values(engine.target_values(fixed),
                                            engine.domain(engine.target)) if t != value]
        if not others:
            return False  # `chosen` is a certificate with fewer than m members
        rival = consistent_world(engine, free, fixed, others[0], prefer=world)
        if rival is None:  # cannot happen: others[0] is possible under `fixed`
            return False
        diff = frozenset(v for v in free if v not in chosen and rival[v] != world[v])
        if not diff:
            return True  # the worlds agree on every candidate: the target stays open
        constraints.append(diff)


def probe_worlds(engine: Engine, candidates: Sequence[str], base: Mapping[str, Any]
                 ) -> Iterator[dict[str, Any]]:
    """The worlds tried for the lower bound, in a fixed order: for each possible target
    value (domain order), the world taking every candidate's first, then its last,
    possible value in candidate order."""
    targets = ordered_values(engine.target_values(dict(base)), engine.domain(engine.target))
    for last in (False, True):
        for value in targets:
            world = consistent_world(engine, candidates, base, value, last=last)
            if world is not None:
                yield world


def lower_bound_world(engine: Engine, candidates: Sequence[str], base: Mapping[str, Any],
                      goal: int) -> dict[str, Any] | None:
    """The first of `probe_worlds` with C(w, base) >= `goal` (so D(base) >= goal), or None
    when no probe proves it (which says nothing about D)."""
    for world in probe_worlds(engine, candidates, base):
        if certificate_at_least(engine, candidates, base, world, goal):
            return world
    return None
