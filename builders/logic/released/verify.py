"""Re-verification of released Logic-Q rows (MT-InfoSeek Logic-Q-MT, QuestBench Logic-Q)
with the exact engine: our engine is ground truth, every disagreement is reported with
its reason, nothing is fixed. The records come from
`infoseek.builders.logic.released.source_format`.

Checks reported by `verify` (each a dict with `check`, `reason`, and `released` /
`computed` where useful):

- `infeasible`: no world satisfies the rules and the known facts (reported alone);
- `not_underspecified`: the known facts already decide the goal (the k and family checks
  are skipped then: the true k is 0 and every released set would be redundant);
- `queryable`: the released offered list differs from U(P) = variables - observed -
  goal - cannot_ask (names missing from it, and names in it that may not be asked);
- `num_constraints`: the released `num_constraints` differs from the number of rules;
- `k`: the size of the smallest sufficient set among the askable released queryable
  names (released queryable - observed - goal - cannot_ask) differs from the released k
  (searched up to released k + 2; `computed` None when nothing that small exists);
- `k_unoffered`: k is minimal over all of U(P) (protocols §1): a smaller sufficient set exists
  that uses names the released queryable list leaves out (the `queryable` note alone
  would let such a row agree);
- MT only: `mss_family` (released family vs the exact family at the true k, as sets of
  sets, each released set that is not an MSS with its reason, each missing MSS named),
  `canonical_mss` (the canonical set is not an exact MSS, with the reason), and
  `forbid_alternatives` (released alternative-only names vs the union of the exact family
  minus the canonical set; skipped when `mss_family` or `canonical_mss` was reported,
  since it would only repeat that disagreement);
- QuestBench only: `sufficient_singles` (released `gt_qs` vs every askable name that is
  sufficient on its own).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

from infoseek.analysis import (
    feasible_rows,
    minimal_sufficient_sets,
    possible_target_values,
    truth_table,
)
from infoseek.builders.published import Disagreement, Record
from infoseek.engine import Engine
from infoseek.records import engine_from_record

K_SEARCH_MARGIN = 2  # the k check searches up to the released k plus this


def _show(value: Any) -> str:
    if value is True:
        return "true"
    if value is False:
        return "false"
    return str(value)


def _row_text(row: dict[str, Any]) -> str:
    return ", ".join(f"{v}={_show(x)}" for v, x in row.items()) or "nothing asked"


def _open_row(engine: Engine, subset: Sequence[str]) -> dict[str, Any] | None:
    """A feasible row of `subset` that leaves the target open (None: sufficient)."""
    subset = list(subset)
    pair = engine.distinguishing_pair(subset, {})
    if pair is not NotImplemented:
        return None if pair is None else {v: pair[0][v] for v in subset}
    for row in feasible_rows(engine, subset):
        if len(engine.target_values(row)) != 1:
            return row
    return None


def _not_essential(engine: Engine, subset: Sequence[str]) -> list[str]:
    """Members of a sufficient `subset` with no two feasible rows differing only in it
    and giving different target values."""
    table = truth_table(engine, list(subset))
    idle = []
    for x in subset:
        groups: dict[tuple, set] = {}
        for row, targets in table:
            key = tuple(row[v] for v in subset if v != x)
            groups.setdefault(key, set()).update(targets)
        if not any(len(values) > 1 for values in groups.values()):
            idle.append(x)
    return idle


def _why_unaskable(record: Record, name: str) -> str:
    if name == record["target"]:
        return f"{name} (the goal)"
    if name in record["observed"]:
        return f"{name} (known {_show(record['observed'][name])})"
    if name in record.get("forbidden", ()):
        return f"{name} (in cannot_ask_facts)"
    return f"{name} (not in the released queryable list)"


def _why_not_mss(record: Record, engine: Engine, subset: Sequence[str], askable: set[str],
                 true_k: int | None, exact: list[frozenset[str]]) -> str:
    """Why a released set is not one of the exact k-MSSs."""
    subset = sorted(subset)
    outside = [v for v in subset if v not in askable]
    if outside:
        return ("uses names that cannot be asked: "
                + ", ".join(_why_unaskable(record, v) for v in outside))
    row = _open_row(engine, subset)
    if row is not None:
        return (f"is not sufficient: with {_row_text(row)} the goal "
                f"{record['target']} can still be true or false")
    if true_k is not None and len(subset) > true_k:
        idle = _not_essential(engine, subset)
        if idle:
            return (f"is sufficient but {', '.join(idle)} "
                    f"{'is' if len(idle) == 1 else 'are'} not essential (the set without "
                    f"{'it' if len(idle) == 1 else 'them'} still decides the goal)")
        inside = [sorted(s) for s in exact if s <= set(subset)] or [sorted(s) for s in exact]
        return (f"is sufficient but not minimal: it has size {len(subset)} and a sufficient "
                f"set of size {true_k} exists, e.g. {inside[0]}")
    if true_k is None:
        return (f"is sufficient but has size {len(subset)}, beyond the sizes searched")
    return "differs from the exact search"  # not reached: sufficient sets of size k are MSSs


def _lists(sets: Iterable[Iterable[str]]) -> list[list[str]]:
    return sorted(sorted(s) for s in sets)


def _queryable_check(record: Record) -> list[Disagreement]:
    names = set(record["variables"])
    computed = names - set(record["observed"]) - {record["target"]} \
        - set(record.get("forbidden", ()))
    released = set(record["queryable"])
    missing, extra = sorted(computed - released), sorted(released - computed)
    if not missing and not extra:
        return []
    parts = []
    if missing:
        parts.append("omits askable name(s) " + ", ".join(missing))
    if extra:
        parts.append("offers name(s) that may not be asked: "
                     + ", ".join(_why_unaskable(record, v) for v in extra))
    return [{"check": "queryable",
             "reason": "the released queryable list " + "; and ".join(parts),
             "released": sorted(released), "computed": sorted(computed),
             "missing": missing, "extra": extra}]


def _num_constraints_check(record: Record) -> list[Disagreement]:
    released = (record.get("released") or {}).get("num_constraints")
    count = len(record["engine"]["clauses"])
    if released is None or released == count:
        return []
    return [{"check": "num_constraints",
             "reason": f"released num_constraints is {released} but the row has "
                       f"{count} rules",
             "released": released, "computed": count}]


def _u_of_p(record: Record) -> list[str]:
    """U(P): every variable but the observed ones, the goal and the forbidden ones."""
    excluded = set(record["observed"]) | {record["target"]} | set(record.get("forbidden", ()))
    return sorted(set(record["variables"]) - excluded)


def _unoffered_check(record: Record, engine: Engine, askable: list[str],
                     offered_k: int | None, limit: int) -> list[Disagreement]:
    """k is minimal over all of U(P) (protocols §1), not only over the offered list: when the
    released list leaves out askable names and a smaller sufficient set uses one of them,
    the released k (and every released MSS) is not minimal."""
    full = _u_of_p(record)
    unoffered = sorted(set(full) - set(askable))
    if not unoffered:
        return []
    search = limit if offered_k is None else offered_k - 1
    if search < 0:
        return []
    smaller = minimal_sufficient_sets(engine, full, search)
    if smaller.k is None:
        return []
    example = next((s for s in smaller.family if set(s) & set(unoffered)), smaller.family[0])
    return [{"check": "k_unoffered",
             "reason": f"a sufficient set of size {smaller.k} exists in U(P) using names "
                       f"the released queryable list leaves out, e.g. {sorted(example)} "
                       f"(left out: {', '.join(unoffered)}); the released k={record['k']} "
                       "is minimal only over the offered list",
             "released": record["k"], "computed": smaller.k,
             "example": sorted(example), "unoffered": unoffered}]


def _askable(record: Record) -> list[str]:
    excluded = set(record["observed"]) | {record["target"]} | set(record.get("forbidden", ()))
    return sorted(set(record["queryable"]) - excluded)


def _verify(record: Record, questbench: bool) -> list[Disagreement]:
    engine = engine_from_record(record)
    if not engine.target_values({}):
        return [{"check": "infeasible",
                 "reason": "no world satisfies the rules and the known facts, so the "
                           "problem has no answer"}]
    found = _queryable_check(record) + _num_constraints_check(record)
    target = record["target"]
    values = possible_target_values(engine)
    if len(values) == 1:
        why = (f"the goal {target} is itself a known fact" if target in record["observed"]
               else f"the known facts already decide the goal: {target} is "
                    f"{_show(values[0])}")
        found.append({"check": "not_underspecified", "reason": why,
                      "computed": values[0]})
        return found
    askable = _askable(record)
    released_k = record["k"]
    limit = released_k + K_SEARCH_MARGIN
    result = minimal_sufficient_sets(engine, askable, limit)
    if result.k != released_k:
        found.append({
            "check": "k",
            "reason": (f"the smallest sufficient set among the queryable names has size "
                       f"{result.k}, not the released k={released_k}"
                       if result.k is not None else
                       f"no sufficient set of size <= {limit} exists among the queryable "
                       f"names, so the released k={released_k} is wrong"),
            "released": released_k, "computed": result.k})
    found += _unoffered_check(record, engine, askable, result.k, limit)
    exact = [frozenset(s) for s in result.family]
    exact_set = set(exact)
    askable_set = set(askable)
    if questbench:
        found += _singles_check(record, engine, askable_set, result.k, exact)
        return found
    family = [frozenset(s) for s in record["mss_family"]]
    problems = []
    for members in dict.fromkeys(family):
        if members not in exact_set:
            why = _why_not_mss(record, engine, members, askable_set, result.k, exact)
            problems.append(f"released {sorted(members)} {why}")
    missing = [sorted(s) for s in exact if s not in set(family)]
    for members in sorted(missing):
        problems.append(f"the exact MSS {members} is missing from the released family")
    if problems:
        found.append({
            "check": "mss_family",
            "reason": f"the released family differs from the exact k={result.k} family: "
                      + "; ".join(problems),
            "released": _lists(family), "computed": _lists(exact)})
    canonical = family[0]
    canonical_ok = canonical in exact_set
    if not canonical_ok:
        why = _why_not_mss(record, engine, canonical, askable_set, result.k, exact)
        found.append({"check": "canonical_mss",
                      "reason": f"the canonical MSS {sorted(canonical)} {why}",
                      "released": sorted(canonical), "computed": _lists(exact)})
    if not problems and canonical_ok:
        expected = sorted(set().union(*exact) - canonical)
        released_alt = sorted(record.get("alternative_only", ()))
        if expected != released_alt:
            parts = []
            lacking = sorted(set(expected) - set(released_alt))
            surplus = sorted(set(released_alt) - set(expected))
            if lacking:
                parts.append("still offers " + ", ".join(lacking)
                             + " (in a non-canonical MSS only)")
            if surplus:
                parts.append("withholds " + ", ".join(surplus)
                             + " (in no non-canonical MSS, or in the canonical one)")
            found.append({"check": "forbid_alternatives",
                          "reason": "the released forbid-alternatives list "
                                    + "; and ".join(parts),
                          "released": released_alt, "computed": expected})
    return found


def _singles_check(record: Record, engine: Engine, askable: set[str], true_k: int | None,
                   exact: list[frozenset[str]]) -> list[Disagreement]:
    # sufficiency is monotone: when the true k is not 1 no single name is sufficient
    computed = sorted(next(iter(s)) for s in exact) if true_k == 1 else []
    released = sorted({v for s in record["mss_family"] for v in s})
    problems = []
    for name in sorted(set(released) - set(computed)):
        if name not in askable:
            problems.append(f"{name} is listed but cannot be asked: "
                            + _why_unaskable(record, name))
        else:
            row = _open_row(engine, [name])
            problems.append(f"{name} is listed but does not decide the goal alone"
                            + (f": with {_row_text(row)} the goal {record['target']} can "
                               "still be true or false" if row else ""))
    for name in sorted(set(computed) - set(released)):
        problems.append(f"{name} decides the goal alone but is not listed")
    if not problems:
        return []
    return [{"check": "sufficient_singles",
             "reason": "released gt_qs differs from the exact set of single sufficient "
                       "attributes: " + "; ".join(problems),
             "released": released, "computed": computed}]


def verify_mt(record: Record) -> list[Disagreement]:
    """Disagreements between a Logic-Q-MT record's released values and the exact engine."""
    return _verify(record, questbench=False)


def verify_questbench(record: Record) -> list[Disagreement]:
    """Disagreements between a QuestBench Logic-Q record and the exact engine."""
    return _verify(record, questbench=True)
