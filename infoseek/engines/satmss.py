"""A second exact method for the minimum sufficient size and the whole MSS family of a
boolean clause problem, independent of the Horn engine and of the hitting-set search
in `infoseek.analysis`: a SAT solver (python-sat, Glucose 4) decides every question.

The cross-check of the hard logic split (`infoseek.builders.logic.logic_mt`), where the
brute-force referee cannot go (2^150 worlds). Two solvers:

- the *pair* solver holds two copies of the clauses and the observations, the target
  true in copy 1 and false in copy 2, and one selector per queryable variable x whose
  assumption forces ``x1 <-> x2``. S is sufficient iff the solver is UNSAT under the
  selectors of S (no two worlds agree on S and differ on the target); a model is a
  counterexample, and every sufficient set must contain a variable on which its two
  worlds differ (the *difference clause*);
- the *master* solver, one per size bound b, holds a choice literal per queryable
  variable, an at-most-b cardinality constraint (sequential counter), every difference
  clause found so far and one blocking clause per sufficient set found. Its models are
  the candidate sets; a refuted candidate adds its difference clause, a sufficient one
  its blocking clause (that set and every superset), until the master is UNSAT.

Sizes are tried from 0 upwards. When the master at bound b is UNSAT with no sufficient
set found, every set of size <= b meets some difference clause's counterexample, so none
is sufficient; the first bound with a sufficient set is the minimum size k, every set
found there has exactly k members (a smaller one would have been found at a lower
bound), and the final UNSAT proves the family complete. Sufficiency over feasible rows
and global minimality are exactly the protocols §1 definitions; no sampling anywhere.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from pysat.card import CardEnc, EncType
from pysat.solvers import Solver

from infoseek.engines.horn import parse_literal

SOLVER = "glucose4"
"""A different CDCL solver from the CNF engine's (minisat22)."""


@dataclass
class SatMssResult:
    """k is None when no sufficient set of size <= max_k exists."""

    k: int | None
    family: list[tuple[str, ...]] = field(default_factory=list)
    pair_checks: int = 0
    master_calls: int = 0


class SatMss:
    """The pair solver of one problem (module docstring); `minimum` runs the search."""

    def __init__(self, variables: Sequence[str], clauses: Sequence[Sequence[str]],
                 observed: Mapping[str, bool], target: str, candidates: Sequence[str]
                 ) -> None:
        self.variables = list(variables)
        index = {name: i + 1 for i, name in enumerate(self.variables)}
        n = len(self.variables)
        self.n = n
        self.index = index
        self.candidates = list(dict.fromkeys(candidates))
        self.selector = {x: 2 * n + 1 + i for i, x in enumerate(self.candidates)}
        self.pairs = Solver(name=SOLVER)
        self.single = Solver(name=SOLVER)
        for clause in clauses:
            lits = []
            for literal in clause:
                name, positive = parse_literal(literal)
                lits.append(index[name] if positive else -index[name])
            self.single.add_clause(lits)
            self.pairs.add_clause(lits)
            self.pairs.add_clause([lit + n if lit > 0 else lit - n for lit in lits])
        for name, value in observed.items():
            lit = index[name] if value else -index[name]
            self.single.add_clause([lit])
            self.pairs.add_clause([lit])
            self.pairs.add_clause([lit + n if lit > 0 else lit - n])
        y = index[target]
        self.pairs.add_clause([y])
        self.pairs.add_clause([-(y + n)])
        for x, sel in self.selector.items():
            i = index[x]
            self.pairs.add_clause([-sel, -i, i + n])
            self.pairs.add_clause([-sel, i, -(i + n)])
        self.feasible = self.single.solve()
        self.pair_checks = 0

    def counterexample(self, subset: Sequence[str]) -> frozenset[str] | None:
        """None when `subset` is sufficient, else the candidates on which two worlds that
        agree on `subset` and differ on the target differ."""
        self.pair_checks += 1
        if not self.pairs.solve(assumptions=[self.selector[x] for x in subset]):
            return None
        model = self.pairs.get_model() or []
        true = {lit for lit in model if lit > 0}
        n = self.n
        return frozenset(x for x in self.candidates
                         if (self.index[x] in true) != (self.index[x] + n in true))

    def minimum(self, max_k: int) -> SatMssResult:
        """The minimum sufficient size (at most `max_k`) and every sufficient set of that
        size, each in candidate order, the family sorted."""
        if not self.feasible:
            raise ValueError("the problem is infeasible")
        order = {x: i for i, x in enumerate(self.candidates)}
        if self.counterexample(()) is None:
            return SatMssResult(0, [()], self.pair_checks, 0)
        diffs: list[list[int]] = []
        choice = {x: i + 1 for i, x in enumerate(self.candidates)}
        chosen_of = {v: x for x, v in choice.items()}
        calls = 0
        for bound in range(1, max_k + 1):
            master = Solver(name=SOLVER)
            card = CardEnc.atmost(lits=list(choice.values()), bound=bound,
                                  top_id=len(choice), encoding=EncType.seqcounter)
            master.append_formula(card.clauses)
            for clause in diffs:
                master.add_clause(clause)
            family: list[tuple[str, ...]] = []
            while True:
                calls += 1
                if not master.solve():
                    break
                picked = [chosen_of[v] for v in (master.get_model() or [])
                          if 0 < v <= len(choice)]
                diff = self.counterexample(picked)
                if diff is None:
                    family.append(tuple(sorted(picked, key=order.__getitem__)))
                    master.add_clause([-choice[x] for x in picked])
                    continue
                clause = [choice[x] for x in diff]
                if not clause:
                    master.delete()
                    return SatMssResult(None, [], self.pair_checks, calls)
                diffs.append(clause)
                master.add_clause(clause)
            master.delete()
            if family:
                family.sort(key=lambda s: [order[x] for x in s])
                return SatMssResult(bound, family, self.pair_checks, calls)
        return SatMssResult(None, [], self.pair_checks, calls)

    def close(self) -> None:
        self.pairs.delete()
        self.single.delete()


def sat_mss(record: dict[str, Any], max_k: int | None = None) -> SatMssResult:
    """The SAT method on a record with boolean clauses (``engine.clauses``), over its
    queryable variables, up to `max_k` (default: the record's k)."""
    search = SatMss(record["variables"], record["engine"]["clauses"], record["observed"],
                    record["target"], record["queryable"])
    try:
        return search.minimum(record["k"] if max_k is None else max_k)
    finally:
        search.close()


def cross_check_record(record: dict[str, Any]) -> list[str]:
    """The SAT method's disagreements with the record's k and MSS family (empty: they
    agree on both)."""
    result = sat_mss(record)
    errors = []
    if result.k != record["k"]:
        errors.append(f"the SAT method finds k={result.k}, the record says k={record['k']}")
    elif {frozenset(s) for s in result.family} != {frozenset(s) for s in record["mss_family"]}:
        errors.append(f"the SAT method finds {len(result.family)} MSSs, the record lists "
                      f"{len(record['mss_family'])} (different families)")
    return errors
