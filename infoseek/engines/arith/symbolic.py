"""The arithmetic engine over the rationals (no finite domains): exact symbolic reasoning.

Every leaf is a generator of the rational function field QQ(x_0, ..., x_2n-1): generator
``i`` is leaf ``i`` of world 1 and generator ``n + i`` the same leaf of world 2 (the second
copy is used only to look for two worlds that agree on a set S and differ on the target,
the arithmetic counterpart of the doubled Horn formula). Revealed leaves are substituted
by their values, revealed derived quantities become polynomial constraints that
`arith_solve.solve` splits into exact branches, and every question then reduces to
"is this rational function constant / identically zero on a branch" (see
`infoseek.engines.arith.solve` for why that is exact over Q).

Known: the target is Known iff every feasible branch gives it the same constant value.
Sufficiency of S: no feasible branch of the doubled system (both copies satisfy the
revealed values, the copies agree on S) has ``target_1 - target_2`` not identically zero.
When only leaves are revealed besides S (the normal case), the system has one branch and
this is simply "the reduced target depends on no unrevealed leaf outside S"; that fast
path changes a single leaf between the two witness worlds.
"""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction
from typing import Any

from sympy import QQ
from sympy.polys.fields import field as make_field

from infoseek.engines.arith.expr import evaluate
from infoseek.engines.arith.rationals import ManyValues
from infoseek.engines.arith.solve import (
    ArithUndecidable,
    Branch,
    eval_frac,
    find_point,
    frac_constant,
    frac_gens,
    solve,
)
from infoseek.engines.arith.system import EquationSystem

_CACHE_LIMIT = 4096


class SymbolicWorlds:
    """Answers the engine primitives for leaves ranging over all rationals."""

    def __init__(self, engine: EquationSystem) -> None:
        self.engine = engine
        self.leaf_index = {leaf: i for i, leaf in enumerate(engine.leaves)}
        self.n = len(engine.leaves)
        self.field, *self.gens = make_field([f"x{i}" for i in range(max(2 * self.n, 1))], QQ)
        self._cache: dict[Any, tuple[list[Branch], list[str]]] = {}
        self.gen_names = list(engine.leaves) + [f"{leaf}'" for leaf in engine.leaves]
        # Leaves whose elimination could ever be needed: ancestors of derived quantities.
        self.leaf_ancestors = {
            q: frozenset(a for a in engine.ancestors(q) if a in self.leaf_index)
            for q in engine.derived
        }

    # ---------------------------------------------------------------- building blocks
    def lift(self, value: Fraction) -> Any:
        return self.field(QQ(value.numerator, value.denominator))

    def gen(self, copy: int, leaf: str) -> int:
        return copy * self.n + self.leaf_index[leaf]

    def values(self, subst: dict[int, Any], copies: int) -> dict[tuple[int, str], Any] | None:
        """Every quantity of every copy as a rational function; None when some divisor
        is identically zero (no world of this branch is defined)."""
        out: dict[tuple[int, str], Any] = {}
        for copy in range(copies):
            env: dict[str, Any] = {}
            for leaf in self.engine.leaves:
                g = self.gen(copy, leaf)
                env[leaf] = subst[g] if g in subst else self.gens[g]
            try:
                for name in self.engine.order:
                    env[name] = evaluate(self.engine.trees[name], env, self.lift)
            except ZeroDivisionError:
                return None
            out.update(((copy, q), v) for q, v in env.items())
        return out

    def first_zero_divisor(self) -> str | None:
        """The first equation whose divisor is zero for every leaf value, if any."""
        env: dict[str, Any] = {leaf: self.gens[self.gen(0, leaf)] for leaf in self.engine.leaves}
        for name in self.engine.order:
            try:
                env[name] = evaluate(self.engine.trees[name], env, self.lift)
            except ZeroDivisionError:
                return name
        return None

    def _branches(
        self, fixed: dict[str, Fraction], copies: int = 1, shared: Sequence[str] = (),
        shared_derived: Sequence[str] = (), protected: Sequence[str] = (),
    ) -> tuple[list[Branch], list[str]]:
        """The feasible decided branches and the reasons of any undecided parts."""
        key = (frozenset(fixed.items()), copies, frozenset(shared), frozenset(shared_derived),
               frozenset(protected))
        if key in self._cache:
            return self._cache[key]
        subst: dict[int, Any] = {}
        for copy in range(copies):
            for name, value in fixed.items():
                if name in self.leaf_index:
                    subst[self.gen(copy, name)] = self.lift(value)
        for leaf in shared:
            if leaf not in fixed:
                subst[self.gen(1, leaf)] = self.gens[self.gen(0, leaf)]
        vals = self.values(subst, copies)
        branches: list[Branch] = []
        undecided: list[str] = []
        if vals is not None:
            constraints = [
                (vals[(copy, name)] - self.lift(value)).numer
                for copy in range(copies) for name, value in fixed.items()
                if name not in self.leaf_index
            ]
            constraints += [(vals[(0, d)] - vals[(1, d)]).numer for d in shared_derived]
            keep = [self.gen(0, leaf) for leaf in protected]
            solved, undecided = solve(constraints, subst, self.field, keep, self.gen_names)
            for sub, _conds in solved:
                final = self.values(sub, copies)
                if final is None:
                    continue
                for copy in range(copies):
                    for name, value in fixed.items():
                        if final[(copy, name)] != self.lift(value):
                            raise AssertionError(f"internal: branch violates {name} = {value}")
                params = [g for g in range(copies * self.n) if g not in sub]
                branches.append(Branch(sub, params, final))
        if len(self._cache) > _CACHE_LIMIT:
            self._cache.clear()
        self._cache[key] = (branches, undecided)
        return branches, undecided

    def world_at(self, branch: Branch, point: dict[int, Fraction], copy: int,
                 fixed: dict[str, Fraction]) -> dict[str, Fraction] | None:
        """The complete world of one copy at a parameter point, checked by plain
        Fraction evaluation; None where some equation is undefined."""
        leaves: dict[str, Fraction] = {}
        for leaf in self.engine.leaves:
            g = self.gen(copy, leaf)
            if g in branch.subst:
                value = eval_frac(branch.subst[g], point)
                if value is None:
                    return None
                leaves[leaf] = value
            else:
                leaves[leaf] = point[g]
        world = self.engine.try_complete_world(leaves)
        if world is None:
            return None
        for name, value in fixed.items():
            if world[name] != value:
                raise AssertionError(f"internal: witness violates {name} = {value}")
        return world

    # ---------------------------------------------------------------- primitives
    def quantity_values(self, fixed: dict[str, Fraction], name: str) -> frozenset:
        branches, undecided = self._branches(fixed)
        constants: set[Fraction] = set()
        for branch in branches:
            value = frac_constant(branch.values[(0, name)])
            if value is None:  # infinitely many values, whatever the undecided parts hold
                return ManyValues(self._two_values(branch, name, fixed))
            constants.add(value)
        if undecided:
            raise ArithUndecidable(undecided[0])
        return frozenset(constants)

    def _two_values(self, branch: Branch, name: str, fixed: dict[str, Fraction]) -> list:
        _, first = find_point(branch.params, lambda pt: self.world_at(branch, pt, 0, fixed))

        def other(pt: dict[int, Fraction]) -> Any:
            world = self.world_at(branch, pt, 0, fixed)
            return world if world is not None and world[name] != first[name] else None

        _, second = find_point(branch.params, other, seed=1)
        return [first[name], second[name]]

    def distinguishing_pair(
        self, subset: Sequence[str], fixed: dict[str, Fraction]
    ) -> tuple[dict, dict] | None:
        engine = self.engine
        target = engine.target
        if target in subset or target in fixed:
            return None
        branches, undecided = self._branches(fixed)
        if not undecided:
            constants = [frac_constant(b.values[(0, target)]) for b in branches]
            if None not in constants and len(set(constants)) <= 1:
                return None  # infeasible, or the target is Known: every set is sufficient
        leaves = [s for s in subset if s in self.leaf_index and s not in fixed]
        derived = [s for s in subset if s not in self.leaf_index and s not in fixed]
        if not derived:
            involved: set[str] = set()
            for name in fixed:
                involved |= self.leaf_ancestors.get(name, frozenset())
            protected = sorted(set(leaves) & involved)
            branches, undecided = self._branches(fixed, protected=protected)
            agree = {self.gen(0, s) for s in leaves}
            simple = True  # every branch keeps the leaves of S as parameters or constants
            for branch in branches:
                if any(g in branch.subst and frac_gens(branch.subst[g]) for g in agree):
                    simple = False
                    continue
                free = sorted(frac_gens(branch.values[(0, target)]) - agree)
                if free:  # a witness inside one branch is a witness, whatever else holds
                    return self._perturb(branch, free[0], fixed)
            if simple and len(branches) <= 1 and not undecided:
                return None
        pair = self._doubled_pair(fixed, leaves, derived)
        if pair is None:
            return None
        # Shrink: let the two worlds agree on more leaves while a pair still exists, so
        # the MSS search learns small difference sets.
        shared = list(leaves)
        for leaf in engine.leaves:
            if leaf in fixed or leaf in shared or pair[0][leaf] == pair[1][leaf]:
                continue
            try:
                smaller = self._doubled_pair(fixed, shared + [leaf], derived)
            except ArithUndecidable:
                continue
            if smaller is not None:
                shared.append(leaf)
                pair = smaller
        return pair

    def _perturb(self, branch: Branch, gen: int, fixed: dict[str, Fraction]):
        """Two worlds of one branch that differ only in parameter `gen` (and the
        quantities computed from it) and give different targets."""
        target = self.engine.target
        extra = -1  # the second value of `gen`

        def accept(pt: dict[int, Fraction]) -> Any:
            first = self.world_at(branch, pt, 0, fixed)
            if first is None or pt[extra] == pt[gen]:
                return None
            second = self.world_at(branch, {**pt, gen: pt[extra]}, 0, fixed)
            if second is None or second[target] == first[target]:
                return None
            return first, second

        return find_point(list(branch.params) + [extra], accept)[1]

    def _doubled_pair(self, fixed: dict[str, Fraction], shared: Sequence[str],
                      shared_derived: Sequence[str]):
        target = self.engine.target
        branches, undecided = self._branches(fixed, 2, shared, shared_derived)
        for branch in branches:
            if branch.values[(0, target)] == branch.values[(1, target)]:
                continue

            def accept(pt: dict[int, Fraction], branch: Branch = branch) -> Any:
                first = self.world_at(branch, pt, 0, fixed)
                second = self.world_at(branch, pt, 1, fixed)
                if first is None or second is None or first[target] == second[target]:
                    return None
                return first, second

            return find_point(branch.params, accept)[1]
        if undecided:
            raise ArithUndecidable(undecided[0])
        return None
