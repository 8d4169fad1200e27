"""Generic exact algorithms written once against the engine contract.

Known, sufficiency (over feasible rows only), essentiality on the feasible truth table,
the full MSS family with global minimality, task-level k, and the target values still
possible after a partial assignment. Engines that offer `distinguishing_pair` get the
implicit-hitting-set MSS search, which is exact: every candidate set is checked by the
engine and every refutation becomes a constraint that all sufficient sets must meet.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

from infoseek.engine import ANY, Assignment, Engine, World, ordered_values, require_enumerable


def possible_target_values(engine: Engine, assignment: Assignment | None = None) -> list[Any]:
    """Target values still possible, in domain order (empty: infeasible).

    Raises `UnboundedDomainError` when infinitely many are possible."""
    values = require_enumerable(engine.target_values(assignment), engine.target)
    return ordered_values(values, engine.domain(engine.target))


def is_known(engine: Engine, assignment: Assignment | None = None) -> bool:
    return len(engine.target_values(assignment)) == 1


def feasible_rows(
    engine: Engine, subset: Sequence[str], assignment: Assignment | None = None,
    target_value: Any = ANY,
) -> list[dict[str, Any]]:
    """Every assignment to `subset` consistent with C, A, `assignment` (and the target).

    Raises `UnboundedDomainError` (a ValueError naming the variable) when some variable
    of `subset` can take infinitely many values: rows cannot be enumerated then."""
    base = dict(assignment or {})
    rows: list[dict[str, Any]] = []

    def extend(i: int, partial: dict[str, Any]) -> None:
        if i == len(subset):
            rows.append({v: partial[v] for v in subset})
            return
        var = subset[i]
        if var in partial:
            extend(i + 1, partial)
            return
        values = require_enumerable(engine.variable_values(var, partial, target_value), var)
        for value in ordered_values(values, engine.domain(var)):
            partial[var] = value
            extend(i + 1, partial)
            del partial[var]

    if target_value is ANY:
        if not engine.target_values(base):
            return []
    elif target_value not in engine.target_values(base):
        return []
    extend(0, base)
    return rows


def is_sufficient(
    engine: Engine, subset: Iterable[str], assignment: Assignment | None = None,
    *, use_fast_path: bool = True,
) -> bool:
    """S is sufficient iff every feasible row of S makes the target Known.

    A set with no feasible row is not sufficient.
    """
    subset = list(subset)
    base = dict(assignment or {})
    if not engine.target_values(base):
        return False
    if use_fast_path:
        pair = engine.distinguishing_pair(subset, base)
        if pair is not NotImplemented:
            return pair is None
    for row in feasible_rows(engine, subset, base):
        merged = {**base, **row}
        if len(engine.target_values(merged)) != 1:
            return False
    return True


def truth_table(
    engine: Engine, subset: Sequence[str], assignment: Assignment | None = None
) -> list[tuple[dict[str, Any], frozenset]]:
    base = dict(assignment or {})
    return [
        (row, engine.target_values({**base, **row}))
        for row in feasible_rows(engine, subset, base)
    ]


def is_essential(
    engine: Engine, subset: Sequence[str], assignment: Assignment | None = None
) -> bool:
    """Every variable matters: for each x two feasible rows differ only in x and give
    different target values. Checked on the feasible table, not via subsets."""
    table = truth_table(engine, subset, assignment)
    for x in subset:
        groups: dict[tuple, set] = {}
        for row, targets in table:
            if len(targets) != 1:
                continue
            key = tuple(row[v] for v in subset if v != x)
            groups.setdefault(key, set()).update(targets)
        if not any(len(values) > 1 for values in groups.values()):
            return False
    return True


@dataclass
class MssResult:
    """k is None when no sufficient set of size <= max_k exists."""

    k: int | None
    family: list[tuple[str, ...]] = field(default_factory=list)
    checks: int = 0


def _hitting_set_search(
    engine: Engine, candidates: Sequence[str], max_k: int, base: dict[str, Any]
) -> MssResult:
    cand_set = set(candidates)
    order = {v: i for i, v in enumerate(candidates)}
    diff_sets: list[frozenset[str]] = []
    checks = 0

    def check(chosen: tuple[str, ...]) -> bool:
        nonlocal checks
        checks += 1
        pair = engine.distinguishing_pair(chosen, base)
        if pair is None:
            return True
        # Shrink the refutation: agree on one more differing variable at a time while
        # two worlds still differ on the target. Every pair found agrees on `chosen`, so
        # its difference set is a valid constraint; the last one's is minimal (agreeing
        # on any of its variables as well makes the set sufficient), so it cuts more.
        agreed, tried = list(chosen), set(chosen)
        while True:
            w1, w2 = pair
            diff = [v for v in candidates if w1[v] != w2[v] and v not in tried]
            if not diff:
                break
            tried.add(diff[0])
            closer = engine.distinguishing_pair((*agreed, diff[0]), base)
            if closer is not None:
                agreed.append(diff[0])
                pair = closer
        w1, w2 = pair
        diff_sets.append(frozenset(v for v in cand_set if w1[v] != w2[v]))
        return False

    def enumerate_size(limit: int) -> list[tuple[str, ...]]:
        found: list[tuple[str, ...]] = []

        def branch(chosen: list[str], excluded: set[str]) -> None:
            while True:
                # The unhit difference sets, less the excluded variables: every
                # sufficient set extending `chosen` (avoiding `excluded`) meets each.
                open_sets = sorted((d - excluded for d in diff_sets if d.isdisjoint(chosen)),
                                   key=len)
                if not open_sets:
                    if len(chosen) == limit:
                        if check(tuple(chosen)):
                            found.append(tuple(sorted(chosen, key=order.__getitem__)))
                            return
                        continue  # a new difference set was added; look again
                    # Fewer than `limit` and hits everything known: test it, since a
                    # smaller set may already be sufficient at this size only if no
                    # smaller round found one (then it cannot be); extend instead.
                    if check(tuple(chosen)):
                        return  # cannot happen after smaller rounds came back empty
                    continue
                break
            if len(chosen) == limit or not open_sets[0]:
                return  # full, or an unhit set cannot be hit: no sufficient set here
            # Pairwise disjoint open sets each need their own variable: more of them than
            # the room left means no set of size `limit` extends `chosen` (exact bound).
            room, used, disjoint = limit - len(chosen), set(), 0
            for d in open_sets:
                if d.isdisjoint(used):
                    used |= d
                    disjoint += 1
                    if disjoint > room:
                        return
            # Branch on the smallest open set: any gives a complete split, the smallest
            # the fewest branches.
            options = sorted(open_sets[0], key=order.__getitem__)
            added: list[str] = []
            for v in options:
                branch(chosen + [v], excluded | set(added))
                added.append(v)

        branch([], set())
        return found

    if check(()):
        return MssResult(0, [()], checks)
    if not diff_sets[-1]:
        return MssResult(None, [], checks)  # two worlds differ on the target only
    for size in range(1, max_k + 1):
        family = enumerate_size(size)
        if family:
            family = sorted(set(family), key=lambda s: [order[v] for v in s])
            return MssResult(size, family, checks)
    return MssResult(None, [], checks)


def _subset_search(
    engine: Engine, candidates: Sequence[str], max_k: int, base: dict[str, Any]
) -> MssResult:
    checks = 0
    for size in range(0, max_k + 1):
        family = []
        for subset in itertools.combinations(candidates, size):
            checks += 1
            if is_sufficient(engine, subset, base, use_fast_path=False):
                family.append(tuple(subset))
        if family:
            return MssResult(size, family, checks)
    return MssResult(None, [], checks)


def minimal_sufficient_sets(
    engine: Engine, candidates: Sequence[str], max_k: int,
    assignment: Assignment | None = None, *, use_fast_path: bool = True,
) -> MssResult:
    """The smallest k with a sufficient k-subset of `candidates` and every such subset.

    Global minimality: k is the size of the smallest sufficient set anywhere in
    `candidates`; every returned set is sufficient and has size k. Sets are returned
    in candidate order, the family sorted by candidate order.
    """
    base = dict(assignment or {})
    if not engine.target_values(base):
        raise ValueError("the problem is infeasible under this assignment")
    candidates = list(dict.fromkeys(candidates))
    if use_fast_path and engine.distinguishing_pair((), base) is not NotImplemented:
        return _hitting_set_search(engine, candidates, max_k, base)
    return _subset_search(engine, candidates, max_k, base)


def is_k_mss(
    engine: Engine, subset: Sequence[str], candidates: Sequence[str],
    assignment: Assignment | None = None,
) -> bool:
    """The full validator of protocols §1 for one set: sufficient over feasible rows,
    essential on the feasible table, and no sufficient set of size k-1 in `candidates`
    (monotonicity makes that rule out all smaller sets)."""
    k = len(subset)
    base = dict(assignment or {})
    if not is_sufficient(engine, subset, base) or not is_essential(engine, subset, base):
        return False
    if k == 0:
        return True
    return not any(
        is_sufficient(engine, s, base) for s in itertools.combinations(candidates, k - 1)
    )


def task_level_k(
    engine: Engine, family: Sequence[Sequence[str]], target_value: Any,
    assignment: Assignment | None = None,
) -> int:
    """Fewest variables, taken from inside some MSS, whose true values pin the target to
    `target_value` in every world where the target has that value.

    With exactly two target values possible (a yes/no goal), a subset pins one value
    in this sense iff it is sufficient: a row feasible with that value that leaves the
    other open is a row that does not make the target Known, and conversely. The
    sufficiency check (one propagation on engines with a fast path) then replaces the
    enumeration of rows; the answer is the same."""
    base = dict(assignment or {})
    possible = engine.target_values(base)
    if possible == frozenset((target_value,)):
        return 0
    binary = len(possible) == 2 and target_value in possible
    sufficient = sufficiency_memo(engine, base)

    def pins(subset: list[str]) -> bool:
        if binary:
            return sufficient(subset)
        rows = feasible_rows(engine, subset, base, target_value)
        return bool(rows) and all(
            engine.target_values({**base, **row}) == frozenset((target_value,))
            for row in rows
        )

    def smallest(mss: list[str], limit: int | None) -> int | None:
        # Pinning is monotone (a superset of a pinning set pins: each of its rows extends
        # a row of the smaller set), so a set that does not pin has no pinning subset, and
        # a set that pins while none of its one-smaller subsets does is its own smallest.
        if not pins(mss):
            return None
        if mss and not any(pins(list(sub)) for sub in itertools.combinations(mss, len(mss) - 1)):
            return len(mss) if limit is None or len(mss) < limit else None
        for size in range(0, len(mss)):
            if limit is not None and size >= limit:
                return None
            if any(pins(list(sub)) for sub in itertools.combinations(mss, size)):
                return size
        return len(mss) if limit is None or len(mss) < limit else None

    best: int | None = None
    for mss in family:
        if best is not None and best == 0:
            break
        found = smallest(list(mss), best)
        if found is not None:
            best = found
    if best is None:
        raise ValueError("no MSS pins this target value; is the family sufficient?")
    return best


WITNESSES_KEPT = 32
"""How many recent distinguishing pairs `sufficiency_memo` tries before it asks the engine."""


def sufficiency_memo(engine: Engine, base: dict[str, Any]) -> Callable[[Sequence[str]], bool]:
    """`is_sufficient` under `base` (whose target values are not empty) for the many, much
    overlapping sets one `task_level_k` call asks about: each set is decided once, and the
    distinguishing pairs found are reused, since two feasible worlds that agree on T and
    differ on the target show T insufficient without asking the engine again."""
    decided: dict[frozenset[str], bool] = {}
    pairs: list[tuple[World, World]] = []

    def sufficient(subset: Sequence[str]) -> bool:
        key = frozenset(subset)
        known = decided.get(key)
        if known is not None:
            return known
        if any(_agree(w1, w2, key) for w1, w2 in pairs):
            decided[key] = False
            return False
        pair = engine.distinguishing_pair(list(subset), base)
        if pair is NotImplemented:
            result = is_sufficient(engine, subset, base, use_fast_path=False)
        else:
            result = pair is None
            if pair is not None:
                pairs.insert(0, pair)
                del pairs[WITNESSES_KEPT:]
        decided[key] = result
        return result

    return sufficient


def _agree(first: World, second: World, names: frozenset[str]) -> bool:
    """Both worlds give every one of `names` the same value (a name either lacks: no)."""
    return all(v in first and v in second and first[v] == second[v] for v in names)
