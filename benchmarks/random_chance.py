"""The exact chance that `infoseek/random` has asked a whole MSS within its turn cap.

`infoseek/random` asks, on each of its turns, one variable drawn uniformly from the
askable ones it has not asked yet (`infoseek.solvers.seek.strategy`), and answers only at
the turn cap or when nothing is left. Its first `turns` questions are therefore a uniform
random `turns`-subset of the `n` askable variables (all of them when n <= turns), and

    P(the asked set holds some S of the family)
        = sum over non-empty J of the family of (-1)^(|J|+1) P(union of J is asked),
    P(a set U is asked) = C(n - |U|, turns - |U|) / C(n, turns)

(inclusion-exclusion; 0 when |U| > turns). The sum is kept grouped by the union U, and a
union larger than `turns` is dropped with all that would grow from it (each term is 0),
so the count of terms stays at the number of distinct small unions. A set of the family
that is not wholly askable can never be asked and is left out.

Having asked a whole minimal sufficient set is sufficient for the target to be Known,
whatever the oracle replies, but not necessary (a larger sufficient set, or the replies
given, may pin it too): the chance is a lower bound on random's final sufficiency
against any oracle, not its value.
"""

from __future__ import annotations

from collections.abc import Iterable
from fractions import Fraction
from math import comb


def random_mss_chance(askable: Iterable[str], family: Iterable[Iterable[str]],
                      turns: int) -> Fraction:
    """The exact chance (module docstring) that a uniform random `turns`-subset of
    `askable` (the whole of it when it has at most `turns` members) contains some set of
    `family`."""
    if turns < 0:
        raise ValueError(f"turns must be >= 0, got {turns}")
    pool = frozenset(askable)
    n = len(pool)
    sets = {frozenset(s) for s in family}
    sets = {s for s in sets if s <= pool}
    if not sets:
        return Fraction(0)
    if turns >= n:
        return Fraction(1)
    # Keep only the minimal sets: a superset's event lies inside its subset's.
    sets = {s for s in sets if not any(t < s for t in sets)}
    terms: dict[frozenset[str], int] = {}  # union -> signed count of the J giving it
    for added in sorted(sets, key=lambda s: (len(s), sorted(s))):
        if len(added) > turns:
            continue
        grown: dict[frozenset[str], int] = {added: 1}
        for union, count in terms.items():
            bigger = union | added
            if len(bigger) <= turns:
                grown[bigger] = grown.get(bigger, 0) - count
        for union, count in grown.items():
            total = terms.get(union, 0) + count
            if total:
                terms[union] = total
            else:
                terms.pop(union, None)
    hits = sum(count * comb(n - len(union), turns - len(union))
               for union, count in terms.items())
    return Fraction(hits, comb(n, turns))


def chance_by_k(records: Iterable[dict], turns: int,
                forbid_alternatives: bool) -> dict[int, dict[str, float]]:
    """Per k: the mean exact chance over the samples (a record counts once per target
    value, as the task poses it once per value; the chance does not depend on the value),
    the same mean over the records whose askable set is larger than `turns`, the count
    of records whose askable set is not (random asks all of it), and the askable counts'
    mean and least. The askable set is `askable_variables(record, forbid_alternatives)`,
    as the task computes it."""
    from infoseek.record_views import askable_variables

    rows: dict[int, list[tuple[int, int, Fraction]]] = {}
    for record in records:
        askable = askable_variables(record, forbid_alternatives)
        chance = random_mss_chance(askable, record["mss_family"], turns)
        weight = len(record.get("target_values") or [None])
        rows.setdefault(record["k"], []).append((weight, len(askable), chance))
    table: dict[int, dict[str, float]] = {}
    for k, got in sorted(rows.items()):
        large = [row for row in got if row[1] > turns]
        table[k] = {
            "records": len(got),
            "chance": _weighted(got),
            "chance_large": _weighted(large) if large else float("nan"),
            "small": len(got) - len(large),
            "askable_mean": sum(row[1] for row in got) / len(got),
            "askable_min": min(row[1] for row in got),
        }
    return table


def _weighted(rows: list[tuple[int, int, Fraction]]) -> float:
    return float(sum(w * c for w, _, c in rows) / sum(w for w, _, _ in rows))
