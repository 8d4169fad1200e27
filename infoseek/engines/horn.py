"""Exact Horn-logic engine: unit propagation over clauses with at most one positive literal.

Clauses use the published literal encoding: a list of strings where ``"x"`` is the
positive literal and ``"not x"`` the negative one. A Horn clause ``[h, not b1, not b2]``
reads "b1 and b2 imply h"; a clause without a positive literal forbids its body.

Horn satisfiability is decided by computing the least model of the definite part
(forward chaining) and checking it against the negative facts and goal clauses; the
least model is a model whenever the formula is satisfiable. Everything is linear in
the size of the formula.

Sufficiency gets an exact fast path: a set S is *not* sufficient iff two worlds agree
on S but differ on the target. Two copies of the formula joined by ``x1 <-> x2`` for
every x in S, with ``Y1`` true and ``Y2`` false, is again a Horn formula, so one
propagation decides it and its least model is a witness pair.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from functools import cached_property, lru_cache
from typing import Any

from infoseek.engine import ANY, Assignment, Engine, World

BOOL_DOMAIN: tuple[bool, bool] = (False, True)


@lru_cache(maxsize=1 << 16)
def parse_literal(literal: str) -> tuple[str, bool]:
    """``"x"`` -> ("x", True); ``"not x"`` -> ("x", False). Remembered: every engine
    made from a record parses all its clauses again (the solver's and the task build's),
    and a split's records share their literals."""
    text = literal.strip()
    if literal.lstrip().startswith("not "):  # "not " alone is a negation of nothing
        name = text[4:].strip()
        if not name:
            raise ValueError(f"literal {literal!r} names no variable")
        return name, False
    if not text:
        raise ValueError("empty literal")
    return text, True


def format_literal(name: str, positive: bool) -> str:
    return name if positive else f"not {name}"


def is_horn(clauses: Iterable[Sequence[str]]) -> bool:
    return all(sum(parse_literal(lit)[1] for lit in clause) <= 1 for clause in clauses)


class HornEngine(Engine):
    """Boolean engine over Horn clauses, observed literals and a boolean target."""

    def __init__(
        self,
        variables: Sequence[str],
        clauses: Sequence[Sequence[str]],
        observed: Mapping[str, bool],
        target: str,
    ) -> None:
        self.variables = tuple(variables)
        self.index = {name: i for i, name in enumerate(self.variables)}
        if len(self.index) != len(self.variables):
            raise ValueError("duplicate variable names")
        if target not in self.index:
            raise ValueError(f"target {target!r} is not a variable")
        self.target = target
        self.observed = {str(k): bool(v) for k, v in observed.items()}
        for name in self.observed:
            if name not in self.index:
                raise ValueError(f"observed variable {name!r} is not a variable")
        n = len(self.variables)
        self.n = n
        # Tuples, not lists: a tuple of strings or ints leaves the garbage collector's
        # walk once it has survived a collection, and an engine lives as long as its
        # sample (inspect_tasks/heap.py says why the walk matters).
        heads: list[int] = []
        bodies: list[tuple[int, ...]] = []
        for clause in map(tuple, clauses):
            head = -1
            body: list[int] = []
            for lit in clause:
                name, positive = parse_literal(lit)
                if name not in self.index:
                    raise ValueError(f"clause {list(clause)!r} uses unknown variable {name!r}")
                if positive:
                    if head != -1:
                        raise ValueError(f"clause {list(clause)!r} is not Horn (two "
                                         "positive literals)")
                    head = self.index[name]
                else:
                    body.append(self.index[name])
            body_t = tuple(sorted(set(body)))
            if head != -1 and head in body_t:
                continue  # tautology: x -> x
            heads.append(head)
            bodies.append(body_t)
        self.heads = heads
        self.bodies = bodies
        self.body_sizes = [len(b) for b in bodies]
        occurs: list[list[int]] = [[] for _ in range(n)]
        for c, body in enumerate(bodies):
            for v in body:
                occurs[v].append(c)
        self.occurs = [tuple(o) for o in occurs]
        self.facts = [heads[c] for c in range(len(bodies)) if not bodies[c]]
        self.y = self.index[target]
        # The unit literals of A (a dict, so they never clash), read once; `_units` adds
        # an assignment's to them.
        observed_pos = [self.index[name] for name, value in self.observed.items() if value]
        observed_neg = {self.index[name] for name, value in self.observed.items() if not value}
        self._observed_units = (observed_pos, observed_neg)

    # ------------------------------------------------------------------ basics
    def domain(self, var: str) -> tuple[Any, ...]:
        if var not in self.index:
            raise KeyError(var)
        return BOOL_DOMAIN

    def _units(self, assignment: Assignment | None) -> tuple[list[int], set[int]] | None:
        """Positive and negative unit literals of A plus `assignment`; None if they clash.
        The lists of A alone are shared, not copied: callers never change them."""
        pos, neg = self._observed_units
        if not assignment:
            return pos, neg
        pos = list(pos)
        neg = set(neg)
        index = self.index
        for name, value in assignment.items():
            if value:
                pos.append(index[name])
            else:
                neg.add(index[name])
        if not neg.isdisjoint(pos):
            return None
        return pos, neg

    def _least_model(
        self, pos: Iterable[int], neg: set[int], heads, sizes, occurs, facts, size: int,
        agree: Sequence[bool] | None = None, half: int = 0,
    ) -> list[bool] | None:
        """Forward chaining; returns the least model or None on conflict."""
        true = [False] * size
        count = list(sizes)
        if -1 in facts:  # a fact with no head: an empty clause
            return None
        # Every literal derived joins the queue; iterating a list that grows visits what
        # is appended too. The least model (or a conflict) is the fixpoint, whatever the
        # order the literals are taken in.
        queue = [*pos, *facts]
        for v in queue:
            if true[v]:
                continue
            if v in neg:
                return None
            true[v] = True
            if agree is not None:
                twin = v + half if v < half else v - half
                if agree[v if v < half else v - half] and not true[twin]:
                    queue.append(twin)
            for c in occurs[v]:
                count[c] -= 1
                if count[c] == 0:
                    h = heads[c]
                    if h == -1:
                        return None
                    if not true[h]:
                        queue.append(h)
        return true

    def least_model(self, assignment: Assignment | None = None) -> list[bool] | None:
        units = self._units(assignment)
        if units is None:
            return None
        pos, neg = units
        return self._least_model(
            pos, neg, self.heads, self.body_sizes, self.occurs, self.facts, self.n
        )

    def _satisfiable_with(self, pos: list[int], neg: set[int], extra_pos: int | None,
                          extra_neg: int | None) -> bool:
        p = pos if extra_pos is None else pos + [extra_pos]
        if extra_neg is not None:
            if extra_neg in p:
                return False
            neg = neg | {extra_neg}
        return (
            self._least_model(p, neg, self.heads, self.body_sizes, self.occurs, self.facts, self.n)
            is not None
        )

    def _values_of(self, i: int, pos: list[int], neg: set[int]) -> frozenset:
        model = self._least_model(
            pos, neg, self.heads, self.body_sizes, self.occurs, self.facts, self.n
        )
        if model is None:
            return frozenset()
        if model[i]:
            return frozenset((True,))
        # The least model has i false, so False is possible; True needs a check.
        if i in neg:
            return frozenset((False,))
        if self._satisfiable_with(pos, neg, i, None):
            return frozenset((False, True))
        return frozenset((False,))

    def target_values(self, assignment: Assignment | None = None) -> frozenset:
        units = self._units(assignment)
        if units is None:
            return frozenset()
        pos, neg = units
        return self._values_of(self.y, pos, neg)

    def variable_values(
        self, var: str, assignment: Assignment | None = None, target_value: Any = ANY
    ) -> frozenset:
        units = self._units(assignment)
        if units is None:
            return frozenset()
        pos, neg = units
        if target_value is not ANY:
            if target_value:
                if self.y in neg:
                    return frozenset()
                pos = pos + [self.y]
            else:
                if self.y in pos:
                    return frozenset()
                neg = neg | {self.y}
        return self._values_of(self.index[var], pos, neg)

    # ------------------------------------------------------- sufficiency fast path
    @cached_property
    def _doubled(self) -> tuple[list[int], list[int], list[list[int]], list[int]]:
        """Heads, body sizes, occurrence lists and facts of the doubled formula (copy 2
        shifts every index by n), built on first use: a seek episode rarely needs it."""
        n, m = self.n, len(self.bodies)
        heads = self.heads + [h + n if h != -1 else -1 for h in self.heads]
        occurs = [list(o) for o in self.occurs] + [[c + m for c in o] for o in self.occurs]
        facts = self.facts + [h + n if h != -1 else -1 for h in self.facts]
        return heads, self.body_sizes + self.body_sizes, occurs, facts

    def distinguishing_pair(
        self, subset: Iterable[str], assignment: Assignment | None = None
    ) -> tuple[World, World] | None:
        units = self._units(assignment)
        if units is None:
            return None
        pos, neg = units
        n = self.n
        agree = [False] * n
        for name in subset:
            agree[self.index[name]] = True
        d_pos = pos + [p + n for p in pos] + [self.y]
        d_neg = neg | {i + n for i in neg} | {self.y + n}
        if self.y in neg:
            return None
        heads, sizes, occurs, facts = self._doubled
        model = self._least_model(d_pos, d_neg, heads, sizes, occurs, facts, 2 * n,
                                  agree=agree, half=n)
        if model is None:
            return None
        w1 = {name: model[i] for i, name in enumerate(self.variables)}
        w2 = {name: model[i + n] for i, name in enumerate(self.variables)}
        return w1, w2

    # ------------------------------------------------------------- derivations
    def unit_propagation_depth(self, assignment: Assignment | None = None) -> tuple[Any, int]:
        """Unit propagation (both polarities) in parallel rounds from A plus `assignment`.

        Returns ``(value, rounds)`` where value is the target's derived value (or None if
        unit propagation alone does not derive it, or "conflict") and rounds is the number
        of propagation rounds until the target was derived.
        """
        value: dict[int, bool] = {}
        for source in (self.observed, assignment or {}):
            for name, v in source.items():
                i = self.index[name]
                if i in value and value[i] != bool(v):
                    return "conflict", 0
                value[i] = bool(v)
        lits = [
            [(h, True)] + [(b, False) for b in body] if h != -1 else [(b, False) for b in body]
            for h, body in zip(self.heads, self.bodies)
        ]
        rounds = 0
        while self.y not in value:
            new: dict[int, bool] = {}
            for clause in lits:
                open_lits = []
                satisfied = False
                for var, positive in clause:
                    if var in value:
                        if value[var] == positive:
                            satisfied = True
                            break
                    else:
                        open_lits.append((var, positive))
                if satisfied:
                    continue
                if not open_lits:
                    return "conflict", rounds
                if len(open_lits) == 1:
                    var, positive = open_lits[0]
                    if var in new and new[var] != positive:
                        return "conflict", rounds
                    new[var] = positive
            if not new:
                return None, rounds
            value.update(new)
            rounds += 1
        return value[self.y], rounds

    # ------------------------------------------------------------- structure
    def derivation_rounds(self, assignment: Assignment | None = None) -> int | None:
        """Rounds of unit propagation that fix the target (`Engine.derivation_rounds`)."""
        value, rounds = self.unit_propagation_depth(assignment)
        return rounds if isinstance(value, bool) else None

    def constraint_scopes(self) -> list[tuple[str, ...]]:
        """The variables of each clause (head first, then body), clause order."""
        return [tuple(self.variables[i] for i in ([h] if h != -1 else []) + list(b))
                for h, b in zip(self.heads, self.bodies)]


def from_record(record: dict[str, Any]) -> HornEngine:
    """The engine of a record whose ``engine.kind`` is ``"horn"`` (`infoseek.engines`)."""
    return HornEngine(record["variables"], record["engine"]["clauses"], record["observed"],
                      record["target"])


def check_record_form(record: dict[str, Any], names: set[str]) -> None:
    """The record check of the ``horn`` and ``cnf`` kinds (`infoseek.engines`): clauses
    are lists of literals over known variables, and ``target_values`` lists the target's
    possible values."""
    from infoseek.engines import EngineFormError
    from infoseek.text import short_repr

    clauses = record["engine"].get("clauses")
    if not isinstance(clauses, list):
        raise EngineFormError("engine.clauses", f"must be a list of clauses, got "
                                                f"{type(clauses).__name__}")
    for index, clause in enumerate(clauses):
        if not isinstance(clause, list) or not all(isinstance(lit, str) for lit in clause):
            raise EngineFormError("engine.clauses", f"clause {index} must be a list of "
                                  f"literals (\"x\" or \"not x\"), got {short_repr(clause)}")
        for literal in clause:
            text = literal.strip()
            name = text[4:].strip() if text.startswith("not ") else text
            if name not in names:
                raise EngineFormError("engine.clauses", f"clause {index} names unknown "
                                                        f"variable {short_repr(name)}")
    if "target_values" not in record:
        raise EngineFormError("target_values", "is missing (the target's possible values, "
                                               "e.g. [false, true])")
    if not isinstance(record["target_values"], list):
        raise EngineFormError("target_values", "must be a list of values")
