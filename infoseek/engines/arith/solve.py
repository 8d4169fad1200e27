"""Exact case analysis of polynomial constraints over the rationals (arithmetic engine).

The feasible worlds of an arithmetic problem over Q are the rational points where every
equation is defined (no divisor is zero) and every revealed derived quantity has its
revealed value. Values live in the rational function field QQ(x_0, ..., x_m) of sympy's
sparse ``field``; each revealed quantity ``d = v`` becomes the polynomial constraint
``numer(d - v) = 0`` (its denominator is non-zero wherever ``d`` is defined).

`solve` splits the solution set into *branches*. A branch is a substitution that
expresses some unknowns as rational functions of the others (the branch parameters),
together with conditions that must be non-zero. Each step is exact and loses no
solution:

1. a constraint of degree 1 in an unknown ``x`` whose coefficient is a non-zero constant
   is solved for ``x`` (a bijection between its solutions and the other unknowns);
2. a constraint in one unknown has as rational solutions exactly the roots of its linear
   factors over Q (one branch per root, none when there is no such factor);
3. a reducible constraint splits into one branch per distinct irreducible factor;
4. a constraint ``a * x + b`` with a non-constant coefficient ``a`` splits into the case
   ``a != 0`` (``x = -b / a``, with ``a`` recorded as a non-zero condition) and the case
   ``a = 0, b = 0`` (``x`` stays free);
5. anything else (an irreducible constraint of degree >= 2 in every unknown, in two or
   more unknowns) is left undecided rather than approximated: whether such a curve or
   surface has rational points has no general algorithm (``B*B + C*C = 5``,
   ``x*x + x*y + y*y = 0``). Callers answer from the decided branches when those settle
   the question, and raise `ArithUndecidable` otherwise.

Why the rest is exact: inside a branch the parameters are free rationals and every
condition that must hold is "this rational function of the parameters is non-zero".
Q is infinite, so finitely many non-zero rational functions are simultaneously non-zero
on a dense set of rational points (Schwartz-Zippel); a branch is therefore feasible iff
none of its conditions is identically zero, and a quantity is constant on a feasible
branch iff its reduced rational function is a constant (otherwise it takes infinitely
many values there: finitely many would put the dense set inside a proper hypersurface).
`find_point` draws seeded random integer points, which succeeds with probability
tending to one, and callers verify every point by plain Fraction evaluation.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

from sympy import QQ, Symbol


class ArithUndecidable(NotImplementedError):
    """The revealed values lead to a constraint the exact case analysis cannot split."""


def to_fraction(value: Any) -> Fraction:
    return Fraction(int(value.numerator), int(value.denominator))


def poly_gens(poly: Any) -> list[int]:
    """Indices of the generators a polynomial actually contains."""
    return [i for i, d in enumerate(poly.degrees()) if d > 0]


def frac_gens(frac: Any) -> set[int]:
    return set(poly_gens(frac.numer)) | set(poly_gens(frac.denom))


def frac_constant(frac: Any) -> Fraction | None:
    """The value of a constant rational function, None when it is not constant."""
    num, den = frac.numer, frac.denom
    if not (num.is_ground and den.is_ground):
        return None
    n = to_fraction(num.LC) if num else Fraction(0)
    return n / to_fraction(den.LC)


def eval_poly(poly: Any, point: dict[int, Fraction]) -> Fraction:
    total = Fraction(0)
    for monom, coeff in poly.terms():
        term = to_fraction(coeff)
        for i, e in enumerate(monom):
            if e:
                term *= point[i] ** e
        total += term
    return total


def eval_frac(frac: Any, point: dict[int, Fraction]) -> Fraction | None:
    """Exact value at a rational point; None where the denominator vanishes."""
    den = eval_poly(frac.denom, point)
    if den == 0:
        return None
    return eval_poly(frac.numer, point) / den


def compose_poly(poly: Any, subst: dict[int, Any], field_: Any) -> Any:
    """Substitute rational functions for generators of a polynomial (result in the field)."""
    if not any(poly.degrees()[i] for i in subst):
        return field_(poly)
    gens = field_.gens
    total = field_.zero
    for monom, coeff in poly.terms():
        term = field_(coeff)
        for i, e in enumerate(monom):
            if e:
                term *= (subst[i] if i in subst else gens[i]) ** e
        total += term
    return total


def compose_frac(frac: Any, subst: dict[int, Any], field_: Any) -> Any:
    """Raises ZeroDivisionError when the denominator becomes identically zero."""
    return compose_poly(frac.numer, subst, field_) / compose_poly(frac.denom, subst, field_)


@dataclass
class _State:
    subst: dict[int, Any]
    pending: list[Any]
    conds: list[Any] = field(default_factory=list)

    def substitute(self, var: int, value: Any, field_: Any) -> _State | None:
        """Apply ``x_var := value`` everywhere; None when a condition becomes zero."""
        one = {var: value}
        try:
            conds = [compose_frac(c, one, field_) for c in self.conds]
            if any(not c for c in conds):
                return None
            subst = {k: compose_frac(v, one, field_) for k, v in self.subst.items()}
            pending = [compose_poly(p, one, field_).numer for p in self.pending]
        except ZeroDivisionError:
            return None
        subst[var] = value
        return _State(subst, pending, conds)


def _linear(pending: Sequence[Any], protected: set[int]) -> Iterator[tuple[int, int]]:
    """(constraint index, unknown) pairs where the constraint has degree 1 in the unknown;
    unprotected unknowns first (over all constraints), then protected ones."""
    for want_protected in (False, True):
        for idx, p in enumerate(pending):
            for i in poly_gens(p):
                if (i in protected) == want_protected and p.degree(p.ring.gens[i]) == 1:
                    yield idx, i


def _step(state: _State, field_: Any, protected: set[int],
          names: Sequence[str] | None = None) -> list[_State] | None:
    """One exact split of the first workable constraint; None when nothing is pending."""
    pending = [p for p in state.pending if p]
    if any(p.is_ground for p in pending):
        return []  # a non-zero constant must be zero: no solution
    if not pending:
        return None
    state = _State(state.subst, pending, state.conds)
    ring_gens = pending[0].ring.gens
    # 1. degree 1 with a constant coefficient
    for idx, i in _linear(pending, protected):
        p = pending[idx]
        a = p.coeff_wrt(ring_gens[i], 1)
        if a.is_ground:
            b = p.coeff_wrt(ring_gens[i], 0)
            rest = _State(state.subst, pending[:idx] + pending[idx + 1:], state.conds)
            nxt = rest.substitute(i, -field_(b) / field_(a), field_)
            return [nxt] if nxt is not None else []
    # 2. one unknown: its rational roots
    for idx, p in enumerate(pending):
        gens = poly_gens(p)
        if len(gens) == 1:
            rest = _State(state.subst, pending[:idx] + pending[idx + 1:], state.conds)
            out = []
            x = ring_gens[gens[0]]
            for factor, _mult in p.factor_list()[1]:
                if factor.degree(x) == 1:
                    root = -to_fraction(factor.coeff_wrt(x, 0).LC or 0) / to_fraction(
                        factor.coeff_wrt(x, 1).LC
                    )
                    value = field_(QQ(root.numerator, root.denominator))
                    nxt = rest.substitute(gens[0], value, field_)
                    if nxt is not None:
                        out.append(nxt)
            return out
    # 3. reducible constraints: one branch per distinct irreducible factor
    for idx, p in enumerate(pending):
        factors = [(f, m) for f, m in p.factor_list()[1] if not f.is_ground]
        if len(factors) > 1 or (factors and factors[0][1] > 1):
            others = pending[:idx] + pending[idx + 1:]
            return [_State(state.subst, others + [f], state.conds) for f, _m in factors]
    # 4. degree 1 with a non-constant coefficient: split on the coefficient
    for idx, i in _linear(pending, protected):
        p = pending[idx]
        a = p.coeff_wrt(ring_gens[i], 1)
        b = p.coeff_wrt(ring_gens[i], 0)
        others = pending[:idx] + pending[idx + 1:]
        nonzero = _State(state.subst, others, state.conds + [field_(a)])
        out = []
        nxt = nonzero.substitute(i, -field_(b) / field_(a), field_)
        if nxt is not None:
            out.append(nxt)
        out.append(_State(state.subst, others + [a, b], state.conds))
        return out
    shown = pending[0].as_expr(*map(Symbol, names)) if names else pending[0].as_expr()
    raise ArithUndecidable(
        f"cannot decide exactly: the revealed values require the rational solutions of "
        f"{shown} = 0, which is irreducible and of degree >= 2 in every unknown"
    )


def solve(
    constraints: Sequence[Any], subst: dict[int, Any], field_: Any,
    protected: Iterable[int] = (), names: Sequence[str] | None = None,
) -> tuple[list[tuple[dict[int, Any], list[Any]]], list[str]]:
    """Every branch ``(substitution, non-zero conditions)`` of the constraint set, and the
    reasons of the parts that could not be split (empty when the answer is complete).

    `constraints` are polynomials that must vanish, already expressed in the generators
    left free by `subst`. Unknowns in `protected` are eliminated only when no other
    unknown can be; `names` name the generators in messages. A branch's conditions are
    expressed in its free generators. Callers may still conclude from the decided
    branches alone when the undecided parts cannot change the answer (a pair found,
    infinitely many values found).
    """
    keep = set(protected)
    done: list[tuple[dict[int, Any], list[Any]]] = []
    undecided: list[str] = []
    stack = [_State(dict(subst), list(constraints))]
    while stack:
        state = stack.pop()
        try:
            nxt = _step(state, field_, keep, names)
        except ArithUndecidable as exc:
            undecided.append(str(exc))
            continue
        if nxt is None:
            done.append((state.subst, state.conds))
        else:
            stack.extend(reversed(nxt))
    return done, undecided


@dataclass
class Branch:
    """One feasible branch: generator substitution and the value of every quantity."""

    subst: dict[int, Any]
    params: list[int]
    values: dict[Any, Any]  # key -> rational function of the parameters


def find_point(
    params: Sequence[int], accept: Callable[[dict[int, Fraction]], Any], seed: int = 0,
    max_tries: int = 5000,
) -> tuple[dict[int, Fraction], Any]:
    """A seeded random integer point where `accept` returns something truthy.

    Callers only ask when theory guarantees that such points are dense; running out of
    tries therefore signals a bug, not a hard instance.
    """
    rng = random.Random(seed)
    for attempt in range(max_tries):
        bound = 3 + attempt // 4
        point = {i: Fraction(rng.randint(-bound, bound)) for i in params}
        result = accept(point)
        if result:
            return point, result
    raise RuntimeError("internal error: no rational point found where one must exist")
