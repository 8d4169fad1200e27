"""General CNF engine on python-sat, for boolean problems that are not Horn.

Same contract as the Horn engine; satisfiability questions go to a SAT solver with
assumptions, and the sufficiency fast path uses two copies of the formula whose
agreement on each variable is switched on by a selector literal.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from pysat.solvers import Solver

from infoseek.engine import ANY, Assignment, Engine, World
from infoseek.engines.horn import BOOL_DOMAIN, parse_literal


class CnfEngine(Engine):
    def __init__(
        self,
        variables: Sequence[str],
        clauses: Sequence[Sequence[str]],
        observed: Mapping[str, bool],
        target: str,
        solver_name: str = "minisat22",
    ) -> None:
        self.variables = tuple(variables)
        self.index = {name: i + 1 for i, name in enumerate(self.variables)}
        self.target = target
        self.observed = {k: bool(v) for k, v in observed.items()}
        n = len(self.variables)
        self.n = n
        int_clauses = []
        for clause in clauses:
            lits = []
            for lit in clause:
                name, positive = parse_literal(lit)
                if name not in self.index:
                    raise ValueError(f"clause {clause!r} uses unknown variable {name!r}")
                lits.append(self.index[name] if positive else -self.index[name])
            int_clauses.append(lits)
        self._clauses = int_clauses
        self._scopes = [tuple(dict.fromkeys(self.variables[abs(x) - 1] for x in lits))
                        for lits in int_clauses]
        self._solver = Solver(name=solver_name, bootstrap_with=int_clauses)
        # Doubled solver: copy 2 is shifted by n; selectors start at 2n + 1.
        self._double = Solver(name=solver_name)
        for lits in int_clauses:
            self._double.add_clause(lits)
            self._double.add_clause([lit + n if lit > 0 else lit - n for lit in lits])
        for i in range(1, n + 1):
            sel = 2 * n + i
            self._double.add_clause([-sel, -i, i + n])
            self._double.add_clause([-sel, i, -(i + n)])

    def domain(self, var: str) -> tuple[Any, ...]:
        return BOOL_DOMAIN

    def constraint_scopes(self) -> list[tuple[str, ...]]:
        """The variables of each clause, clause order."""
        return list(self._scopes)

    def derivation_rounds(self, assignment: Assignment | None = None) -> int | None:
        """Parallel rounds of unit propagation over the clauses until the target's value is
        fixed (`Engine.derivation_rounds`); None when propagation stops first or meets a
        conflict."""
        fixed: dict[int, bool] = {}
        for lit in self._lits(assignment):
            if fixed.get(abs(lit), lit > 0) != (lit > 0):
                return None
            fixed[abs(lit)] = lit > 0
        y, rounds = self.index[self.target], 0
        while y not in fixed:
            new: dict[int, bool] = {}
            for clause in self._clauses:
                open_lits = [x for x in clause if abs(x) not in fixed]
                if any(fixed.get(abs(x)) == (x > 0) for x in clause if abs(x) in fixed):
                    continue
                if not open_lits:
                    return None
                if len(open_lits) == 1:
                    lit = open_lits[0]
                    if new.get(abs(lit), lit > 0) != (lit > 0):
                        return None
                    new[abs(lit)] = lit > 0
            if not new:
                return None
            fixed.update(new)
            rounds += 1
        return rounds

    def _lits(self, assignment: Assignment | None) -> list[int]:
        lits = []
        for source in (self.observed, assignment or {}):
            for name, value in source.items():
                i = self.index[name]
                lits.append(i if value else -i)
        return lits

    def _values(self, i: int, base: list[int]) -> frozenset:
        out = set()
        for value in BOOL_DOMAIN:
            if self._solver.solve(assumptions=base + [i if value else -i]):
                out.add(value)
        return frozenset(out)

    def target_values(self, assignment: Assignment | None = None) -> frozenset:
        return self._values(self.index[self.target], self._lits(assignment))

    def variable_values(
        self, var: str, assignment: Assignment | None = None, target_value: Any = ANY
    ) -> frozenset:
        base = self._lits(assignment)
        if target_value is not ANY:
            y = self.index[self.target]
            base.append(y if target_value else -y)
        return self._values(self.index[var], base)

    def distinguishing_pair(
        self, subset: Iterable[str], assignment: Assignment | None = None
    ) -> tuple[World, World] | None:
        n = self.n
        base = self._lits(assignment)
        y = self.index[self.target]
        assumptions = base + [lit + n if lit > 0 else lit - n for lit in base]
        assumptions += [y, -(y + n)]
        assumptions += [2 * n + self.index[name] for name in subset]
        if not self._solver.solve(assumptions=base) or not self._double.solve(
            assumptions=assumptions
        ):
            return None
        model = set(self._double.get_model() or [])
        w1 = {name: (i in model) for name, i in self.index.items()}
        w2 = {name: (i + n in model) for name, i in self.index.items()}
        return w1, w2

    def close(self) -> None:
        self._solver.delete()
        self._double.delete()


def from_record(record: dict[str, Any]) -> Engine:
    """The engine of a record whose ``engine.kind`` is ``"cnf"`` (`infoseek.engines`): Horn
    propagation when every clause happens to be Horn (exact and faster), else SAT."""
    from infoseek.engines.horn import HornEngine, is_horn

    clauses = record["engine"]["clauses"]
    engine_type = HornEngine if is_horn(clauses) else CnfEngine
    return engine_type(record["variables"], clauses, record["observed"], record["target"])
