"""The fast engines and the generic analysis checked against the brute-force referee.

Random small boolean problems (3-8 variables) are generated with hypothesis; the
referee (`infoseek.engines.bruteforce`) enumerates every world and answers from the SPEC
definitions directly. Every engine primitive and every analysis function must agree
with it: Known, the values a variable can take, sufficiency (fast path and feasible
rows), the MSS family with global minimality, essentiality, the k-MSS validator and
the task-level degree.
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass
from typing import Any

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from infoseek import analysis
from infoseek.engine import ANY
from infoseek.engines.bruteforce import (
    BruteForceEngine,
    horn_referee,
    referee_known,
    referee_mss_family,
    referee_sufficient,
)
from infoseek.engines.cnf import CnfEngine
from infoseek.engines.horn import HornEngine

SETTINGS = {
    "deadline": None,
    "suppress_health_check": [HealthCheck.filter_too_much, HealthCheck.too_slow],
}
MAX_K = 4


# --------------------------------------------------------------------- strategies
@dataclass
class Problem:
    variables: list[str]
    clauses: list[list[str]]
    observed: dict[str, bool]
    target: str

    def referee(self) -> BruteForceEngine:
        return horn_referee(self.variables, self.clauses, self.observed, self.target)

    def unobserved(self) -> list[str]:
        return [v for v in self.variables if v not in self.observed and v != self.target]


@st.composite
def problems(draw: Any, horn: bool = True) -> Problem:
    """Random small boolean problems.

    Horn: each clause has 0-3 negative literals and at most one positive literal.
    General CNF (`horn=False`): 0-3 positive and 0-3 negative literals.
    Random clauses alone rarely pin the target both ways, so up to two "definition"
    gadgets are planted first (Horn: target <-> AND(body); CNF also target <-> OR(body));
    they are ordinary clauses of the same shape and count towards the 12-clause limit.
    """
    n = draw(st.integers(3, 8))
    names = [f"v{i}" for i in range(n)]
    target = draw(st.sampled_from(names))
    others = [v for v in names if v != target]
    clauses: list[list[str]] = []
    for _ in range(draw(st.integers(0, 2))):
        body = draw(st.lists(st.sampled_from(others), min_size=1, max_size=3, unique=True))
        if horn or draw(st.booleans()):
            # target <-> b1 & b2 & ...
            clauses.append([target] + [f"not {b}" for b in body])
            clauses.extend([b, f"not {target}"] for b in body)
        else:
            # target <-> b1 | b2 | ...
            clauses.append([f"not {target}", *body])
            clauses.extend([target, f"not {b}"] for b in body)
    heads = st.none() | st.just(target) | st.sampled_from(names)
    for _ in range(draw(st.integers(0, max(0, 12 - len(clauses))))):
        negatives = draw(st.lists(st.sampled_from(names), max_size=3, unique=True))
        if horn:
            head = draw(heads)
            positives = [] if head is None else [head]
        else:
            positives = draw(st.lists(heads, max_size=3, unique=True))
            positives = [p for p in positives if p is not None]
        clause = positives + [f"not {v}" for v in negatives if v not in positives]
        if clause:
            clauses.append(clause)
    clauses = clauses[:12]
    observed: dict[str, bool] = {}
    for v in others:
        value = draw(st.sampled_from((None, None, None, None, None, False, True)))
        if value is not None:
            observed[v] = value
    return Problem(names, clauses, observed, target)


@st.composite
def partial_assignments(draw: Any, names: list[str]) -> dict[str, bool]:
    out: dict[str, bool] = {}
    for v in names:
        value = draw(st.sampled_from((None, None, False, True)))
        if value is not None:
            out[v] = value
    return out


def feasible_problem(data: Any, horn: bool = True) -> tuple[Problem, BruteForceEngine]:
    problem = data.draw(problems(horn=horn), label="problem")
    referee = problem.referee()
    assume(referee.worlds)
    return problem, referee


def make_engine(problem: Problem, horn: bool):
    if horn:
        return HornEngine(problem.variables, problem.clauses, problem.observed, problem.target)
    return CnfEngine(problem.variables, problem.clauses, problem.observed, problem.target)


def canon(family) -> list[tuple[str, ...]]:
    return sorted(tuple(sorted(s)) for s in family)


# ------------------------------------------------------------ brute-force helpers
def brute_variable_values(referee: BruteForceEngine, var: str, assignment, target_value):
    worlds = referee.matching(assignment)
    if target_value is not ANY:
        worlds = [w for w in worlds if w[referee.target] == target_value]
    return frozenset(w[var] for w in worlds)


def brute_pins(referee: BruteForceEngine, subset, y) -> bool:
    """Whether the values of `subset` pin Y = y in every world with Y = y (referee only)."""
    rows = [(tuple(w[v] for v in subset), w[referee.target] == y) for w in referee.worlds]
    with_y = {r for r, is_y in rows if is_y}
    return bool(with_y) and not with_y & {r for r, is_y in rows if not is_y}


def brute_task_k(referee: BruteForceEngine, family, y) -> int:
    """protocols §1: fewest variables taken from inside some MSS whose true values pin
    Y = y in every world with Y = y (computed from the referee's worlds only)."""
    target = referee.target
    best: int | None = None
    for mss in family:
        for size in range(len(mss) + 1):
            for subset in itertools.combinations(mss, size):
                rows_y = {tuple(w[v] for v in subset) for w in referee.worlds if w[target] == y}
                rows_other = {
                    tuple(w[v] for v in subset) for w in referee.worlds if w[target] != y
                }
                if rows_y and not rows_y & rows_other:
                    best = size if best is None else min(best, size)
    assert best is not None
    return best


def essential_by_definition(referee: BruteForceEngine, subset, assignment=None) -> bool:
    """Each x in `subset` has two feasible rows of the table of `subset` that differ only in
    x and give different (determined) target values. Computed from the referee's worlds."""
    rows: dict[tuple, set] = {}
    for w in referee.matching(assignment):
        rows.setdefault(tuple(w[v] for v in subset), set()).add(w[referee.target])
    for i, _x in enumerate(subset):
        found = False
        for r1, t1 in rows.items():
            for r2, t2 in rows.items():
                if (
                    len(t1) == 1 and len(t2) == 1 and t1 != t2
                    and all(r1[j] == r2[j] for j in range(len(subset)) if j != i)
                ):
                    found = True
        if not found:
            return False
    return True


# ------------------------------------------------------------- shared properties
def check_values(problem: Problem, referee: BruteForceEngine, engine, extra) -> None:
    for assignment in ({}, extra):
        assert engine.target_values(assignment) == referee.target_values(assignment)
        assert engine.is_known(assignment) == referee_known(referee, assignment)
        assert analysis.is_known(engine, assignment) == referee_known(referee, assignment)
        for var in problem.variables:
            for tv in (ANY, False, True):
                expected = brute_variable_values(referee, var, assignment, tv)
                assert engine.variable_values(var, assignment, tv) == expected, (
                    var, assignment, tv,
                )
                assert referee.variable_values(var, assignment, tv) == expected


def check_sufficiency(problem, referee, engine, subsets, extra) -> None:
    for assignment in ({}, extra):
        for subset in subsets:
            expected = referee_sufficient(referee, subset, assignment)
            assert analysis.is_sufficient(engine, subset, assignment) == expected, (
                subset, assignment,
            )
            assert (
                analysis.is_sufficient(engine, subset, assignment, use_fast_path=False)
                == expected
            ), (subset, assignment)


def check_distinguishing_pair(referee, engine, subsets) -> None:
    """The fast path's witness pair, when given, is two real worlds agreeing on the subset
    with different targets; None exactly when the referee finds the subset sufficient."""
    worlds = [tuple(sorted(w.items())) for w in referee.worlds]
    for subset in subsets:
        pair = engine.distinguishing_pair(subset, {})
        assert (pair is None) == referee_sufficient(referee, subset)
        if pair is not None:
            w1, w2 = pair
            assert tuple(sorted(w1.items())) in worlds
            assert tuple(sorted(w2.items())) in worlds
            assert all(w1[v] == w2[v] for v in subset)
            assert w1[referee.target] != w2[referee.target]


def check_mss(problem, referee, engine, candidates) -> None:
    k, family = referee_mss_family(referee, candidates, MAX_K)
    fast = analysis.minimal_sufficient_sets(engine, candidates, MAX_K)
    slow = analysis.minimal_sufficient_sets(engine, candidates, MAX_K, use_fast_path=False)
    for result in (fast, slow):
        assert result.k == k
        assert canon(result.family) == canon(family)
        assert all(len(s) == k for s in result.family)
    if k is None:
        return
    for member in family:
        assert analysis.is_essential(engine, list(member))
        assert analysis.is_k_mss(engine, list(member), candidates)
        spare = [v for v in candidates if v not in member]
        if spare:
            superset = list(member) + [spare[0]]
            assert referee_sufficient(referee, superset)
            assert not analysis.is_k_mss(engine, superset, candidates)
    # Task-level degree for every value the target takes.
    for y in sorted(referee.target_values()):
        assert analysis.task_level_k(engine, family, y) == brute_task_k(referee, family, y), y
        assert analysis.task_level_k(engine, family, y) <= k
    # A family holding a non-minimal set (an MSS plus a spare variable) and a set that
    # pins nothing: the search inside each set must still find the fewest (the shortcut
    # for sets none of whose one-smaller subsets pin does not apply to them).
    spare = [v for v in candidates if v not in family[0]]
    if spare:
        padded = [list(family[0]) + [spare[0]], [spare[0]], *[list(m) for m in family[1:]]]
        for y in sorted(referee.target_values()):
            if any(brute_pins(referee, m, y) for m in padded):
                assert (analysis.task_level_k(engine, padded, y)
                        == brute_task_k(referee, padded, y)), y
    # Two target values: both instances share one task-level degree (infoseek.solvers.dataset
    # computes it once per record on this ground).
    values = sorted(referee.target_values())
    if len(values) == 2:
        assert brute_task_k(referee, family, values[0]) == brute_task_k(referee, family, values[1])


def sample_subsets(data: Any, names: list[str]) -> list[tuple[str, ...]]:
    every = [s for r in range(len(names) + 1) for s in itertools.combinations(names, r)]
    if len(every) <= 24:
        return every
    picked = data.draw(
        st.lists(st.sampled_from(every), min_size=12, max_size=20, unique=True), label="subsets"
    )
    return [(), tuple(names), *picked]


# ------------------------------------------------------------------------- Horn
@settings(max_examples=250, **SETTINGS)
@given(st.data())
def test_horn_values_match_referee(data) -> None:
    problem, referee = feasible_problem(data)
    extra = data.draw(partial_assignments(problem.variables), label="extra")
    check_values(problem, referee, make_engine(problem, True), extra)


@settings(max_examples=200, **SETTINGS)
@given(st.data())
def test_horn_sufficiency_matches_referee(data) -> None:
    problem, referee = feasible_problem(data)
    engine = make_engine(problem, True)
    subsets = sample_subsets(data, problem.unobserved())
    extra = data.draw(partial_assignments(problem.unobserved()), label="extra")
    check_sufficiency(problem, referee, engine, subsets, extra)
    check_distinguishing_pair(referee, engine, subsets)


@settings(max_examples=200, **SETTINGS)
@given(st.data())
def test_sufficiency_memo_decides_sets_in_any_order_like_the_referee(data) -> None:
    """The memo `task_level_k` decides sufficiency with: each set once, and a set on which
    an earlier distinguishing pair agrees is insufficient without a propagation. Sets come
    in a drawn order, repeated and overlapping, so a pair is reused on later sets."""
    problem, referee = feasible_problem(data)
    engine = make_engine(problem, True)
    names = problem.unobserved()
    subsets = data.draw(st.lists(st.lists(st.sampled_from(names), unique=True, max_size=4)
                                 if names else st.just([]), min_size=1, max_size=30),
                        label="asked in this order")
    sufficient = analysis.sufficiency_memo(engine, {})
    for subset in subsets:
        assert sufficient(subset) == referee_sufficient(referee, subset), subset


@settings(max_examples=250, **SETTINGS)
@given(st.data())
def test_horn_mss_family_matches_referee(data) -> None:
    problem, referee = feasible_problem(data)
    engine = make_engine(problem, True)
    candidates = problem.unobserved()
    if data.draw(st.booleans(), label="restrict candidates"):
        # Some variables forbidden: the family is computed over the rest only.
        candidates = [v for v in candidates if data.draw(st.booleans(), label=f"keep {v}")]
    check_mss(problem, referee, engine, candidates)


@settings(max_examples=150, **SETTINGS)
@given(st.data())
def test_horn_mss_under_extra_assignment(data) -> None:
    """The MSS search relative to answers already received (what the seek loop uses)."""
    problem, referee = feasible_problem(data)
    engine = make_engine(problem, True)
    extra = data.draw(partial_assignments(problem.unobserved()), label="extra")
    assume(referee.matching(extra))
    candidates = [v for v in problem.unobserved() if v not in extra]
    k, family = referee_mss_family(referee, candidates, MAX_K, extra)
    for fast in (True, False):
        result = analysis.minimal_sufficient_sets(
            engine, candidates, MAX_K, extra, use_fast_path=fast
        )
        assert result.k == k
        assert canon(result.family) == canon(family)


@settings(max_examples=150, **SETTINGS)
@given(st.data())
def test_horn_essentiality_matches_definition(data) -> None:
    """On sufficient sets, is_essential agrees with the feasible-table definition."""
    problem, referee = feasible_problem(data)
    engine = make_engine(problem, True)
    names = problem.unobserved()
    subsets = [
        s for r in range(len(names) + 1) for s in itertools.combinations(names, r)
        if r <= 4 and referee_sufficient(referee, s)
    ]
    for subset in subsets[:40]:
        assert analysis.is_essential(engine, list(subset)) == essential_by_definition(
            referee, subset
        ), subset


@settings(max_examples=100, **SETTINGS)
@given(st.data())
def test_horn_possible_target_values_in_domain_order(data) -> None:
    problem, referee = feasible_problem(data)
    engine = make_engine(problem, True)
    extra = data.draw(partial_assignments(problem.variables), label="extra")
    expected = [v for v in (False, True) if v in referee.target_values(extra)]
    assert analysis.possible_target_values(engine, extra) == expected


# -------------------------------------------------------------------------- CNF
@settings(max_examples=150, **SETTINGS)
@given(st.data())
def test_cnf_values_match_referee(data) -> None:
    problem, referee = feasible_problem(data, horn=False)
    extra = data.draw(partial_assignments(problem.variables), label="extra")
    engine = make_engine(problem, False)
    try:
        check_values(problem, referee, engine, extra)
    finally:
        engine.close()


@settings(max_examples=150, **SETTINGS)
@given(st.data())
def test_cnf_sufficiency_matches_referee(data) -> None:
    problem, referee = feasible_problem(data, horn=False)
    engine = make_engine(problem, False)
    try:
        subsets = sample_subsets(data, problem.unobserved())
        extra = data.draw(partial_assignments(problem.unobserved()), label="extra")
        check_sufficiency(problem, referee, engine, subsets, extra)
        check_distinguishing_pair(referee, engine, subsets)
    finally:
        engine.close()


@settings(max_examples=200, **SETTINGS)
@given(st.data())
def test_cnf_mss_family_matches_referee(data) -> None:
    problem, referee = feasible_problem(data, horn=False)
    engine = make_engine(problem, False)
    try:
        check_mss(problem, referee, engine, problem.unobserved())
    finally:
        engine.close()


def test_cnf_strategy_produces_non_horn_problems() -> None:
    """Guard: the CNF strategy really exercises clauses with several positive literals."""
    seen = []

    @settings(max_examples=50, database=None, **SETTINGS)
    @given(problems(horn=False))
    def collect(problem: Problem) -> None:
        seen.append(any(sum(not lit.startswith("not ") for lit in c) > 1
                        for c in problem.clauses))

    collect()
    assert any(seen)


# ------------------------------------------------------------- fixed examples
def spec_three_way() -> BruteForceEngine:
    """protocols §1: X1=1 -> y1; X1=0 & X2=1 -> y2; X1=0 & X2=0 -> y3."""

    def rule(w) -> bool:
        if w["X1"]:
            return w["Y"] == "y1"
        return w["Y"] == ("y2" if w["X2"] else "y3")

    return BruteForceEngine(
        ["X1", "X2", "Y"],
        {"X1": (False, True), "X2": (False, True), "Y": ("y1", "y2", "y3")},
        rule, {}, "Y",
    )


def test_spec_task_level_example() -> None:
    engine = spec_three_way()
    result = analysis.minimal_sufficient_sets(engine, ["X1", "X2"], MAX_K)
    assert result.k == 2
    assert canon(result.family) == [("X1", "X2")]
    assert analysis.is_k_mss(engine, ["X1", "X2"], ["X1", "X2"])
    assert analysis.task_level_k(engine, result.family, "y1") == 1
    assert analysis.task_level_k(engine, result.family, "y2") == 2
    assert analysis.task_level_k(engine, result.family, "y3") == 2
    for y in ("y1", "y2", "y3"):
        assert analysis.task_level_k(engine, result.family, y) == brute_task_k(
            engine, result.family, y
        )
    assert analysis.possible_target_values(engine) == ["y1", "y2", "y3"]
    assert analysis.possible_target_values(engine, {"X1": False}) == ["y2", "y3"]


def test_task_level_k_zero_when_already_known() -> None:
    engine = spec_three_way()
    assert analysis.task_level_k(engine, [("X2",)], "y1", {"X1": True}) == 0


def test_essentiality_uses_the_feasible_table() -> None:
    """SPEC essentiality subtlety: with infeasible rows, a variable can look essential on
    the Cartesian table (or by the rule's syntax) while no two *feasible* rows differing
    only in it give different targets.

    Variables a, b, c and Y with Y = a XOR c and the constraint b == a (so the rows of
    {a, b} with a != b are infeasible). Then:
      * {a, b, c} is sufficient, but neither a nor b is essential in it: flipping a alone
        (or b alone) always lands on an infeasible row; only c is.
      * {a, c} is sufficient and essential (the 2-MSS); so is {b, c}.
    A naive check over the full truth table of {a, b, c} with Y computed from the rule
    would call a essential.
    """

    def rule(w) -> bool:
        return w["b"] == w["a"] and w["Y"] == (w["a"] != w["c"])

    bools = (False, True)
    engine = BruteForceEngine(
        ["a", "b", "c", "Y"], dict.fromkeys("abcY", bools), rule, {}, "Y"
    )
    assert analysis.is_sufficient(engine, ["a", "b", "c"])
    assert not analysis.is_essential(engine, ["a", "b", "c"])
    assert not essential_by_definition(engine, ("a", "b", "c"))
    assert analysis.is_essential(engine, ["a", "c"])
    assert analysis.is_essential(engine, ["b", "c"])
    result = analysis.minimal_sufficient_sets(engine, ["a", "b", "c"], MAX_K)
    assert result.k == 2
    assert canon(result.family) == [("a", "c"), ("b", "c")]
    assert not analysis.is_k_mss(engine, ["a", "b", "c"], ["a", "b", "c"])
    assert analysis.is_k_mss(engine, ["a", "c"], ["a", "b", "c"])


def test_essentiality_with_a_missing_row_still_essential() -> None:
    """A feasible table with one row missing where every variable still matters.

    Y = a OR b, and the row a = b = 1 is infeasible. Feasible rows: 00 -> 0, 01 -> 1,
    10 -> 1. Flipping a from 00 and flipping b from 00 both change Y, so both are
    essential even though the row 11 (which would show Y unchanged) is absent. A check
    that demanded a change from *every* row, or that looked at the missing row, would
    disagree.
    """

    def rule(w) -> bool:
        return not (w["a"] and w["b"]) and w["Y"] == (w["a"] or w["b"])

    bools = (False, True)
    engine = BruteForceEngine(["a", "b", "Y"], dict.fromkeys("abY", bools), rule, {}, "Y")
    assert analysis.is_sufficient(engine, ["a", "b"])
    assert analysis.is_essential(engine, ["a", "b"])
    assert analysis.is_k_mss(engine, ["a", "b"], ["a", "b"])
    assert analysis.minimal_sufficient_sets(engine, ["a", "b"], MAX_K).k == 2


def test_infeasible_subset_is_not_sufficient() -> None:
    """SPEC: a set with no feasible row is not sufficient (checked under an infeasible
    extra assignment, where the referee also has no worlds)."""
    engine = HornEngine(["a", "b", "y"], [["y", "not a"], ["not a", "not b"]], {}, "y")
    referee = horn_referee(["a", "b", "y"], [["y", "not a"], ["not a", "not b"]], {}, "y")
    clash = {"a": True, "b": True}
    assert engine.target_values(clash) == frozenset()
    assert not analysis.is_sufficient(engine, ["a"], clash)
    assert not analysis.is_sufficient(engine, ["a"], clash, use_fast_path=False)
    assert not referee_sufficient(referee, ["a"], clash)
    with pytest.raises(ValueError):
        analysis.minimal_sufficient_sets(engine, ["a", "b"], MAX_K, clash)


def test_no_sufficient_set_when_target_is_free() -> None:
    """The target occurs in no clause: nothing pins it; k is None for every engine."""
    clauses = [["b", "not a"]]
    for engine in (
        HornEngine(["a", "b", "y"], clauses, {}, "y"),
        CnfEngine(["a", "b", "y"], clauses, {}, "y"),
    ):
        for fast in (True, False):
            result = analysis.minimal_sufficient_sets(engine, ["a", "b"], MAX_K,
                                                      use_fast_path=fast)
            assert result.k is None and result.family == []


def test_known_target_has_k_zero() -> None:
    engine = HornEngine(["a", "y"], [["y", "not a"]], {"a": True}, "y")
    for fast in (True, False):
        result = analysis.minimal_sufficient_sets(engine, [], MAX_K, use_fast_path=fast)
        assert result.k == 0 and [tuple(s) for s in result.family] == [()]


# --------------------------------------------- random tables (multi-valued target)
@st.composite
def table_engines(draw: Any) -> BruteForceEngine:
    """A random relation between 2-4 input variables (one possibly 3-valued) and a
    3-valued target: each input row is infeasible, or allows a non-empty set of targets.
    Exercises the generic (no fast path) search, essentiality on tables with missing
    rows, and task-level degrees below k."""
    m = draw(st.integers(2, 4))
    names = [f"x{i}" for i in range(m)]
    domains: dict[str, tuple] = {v: (False, True) for v in names}
    if draw(st.booleans()):
        domains[names[-1]] = (0, 1, 2)
    domains["Y"] = ("a", "b", "c")
    rows = list(itertools.product(*(domains[v] for v in names)))
    target_sets = st.sampled_from((("a",), ("b",), ("c",), ("a",), ("b",), ("a", "b"), ()))
    table = {row: draw(target_sets) for row in rows}

    def rule(w) -> bool:
        return w["Y"] in table[tuple(w[v] for v in names)]

    return BruteForceEngine([*names, "Y"], domains, rule, {}, "Y")


@settings(max_examples=200, **SETTINGS)
@given(table_engines())
def test_tables_mss_essentiality_and_task_k(engine: BruteForceEngine) -> None:
    assume(engine.worlds)
    candidates = [v for v in engine.variables if v != "Y"]
    k, family = referee_mss_family(engine, candidates, MAX_K)
    for fast in (True, False):
        result = analysis.minimal_sufficient_sets(engine, candidates, MAX_K, use_fast_path=fast)
        assert result.k == k
        assert canon(result.family) == canon(family)
    subsets = [s for r in range(len(candidates) + 1)
               for s in itertools.combinations(candidates, r)]
    for subset in subsets:
        sufficient = referee_sufficient(engine, subset)
        assert analysis.is_sufficient(engine, subset) == sufficient
        if sufficient:
            assert analysis.is_essential(engine, list(subset)) == essential_by_definition(
                engine, subset
            ), subset
    if k is None:
        return
    for member in family:
        assert analysis.is_k_mss(engine, list(member), candidates)
    for y in sorted(engine.target_values()):
        assert analysis.task_level_k(engine, family, y) == brute_task_k(engine, family, y), y


def test_tables_reach_task_k_below_k() -> None:
    """Guard: the table strategy does produce task instances with k_task < k."""
    below = []

    @settings(max_examples=200, database=None, derandomize=True, **SETTINGS)
    @given(table_engines())
    def collect(engine: BruteForceEngine) -> None:
        if not engine.worlds:
            return
        candidates = [v for v in engine.variables if v != "Y"]
        k, family = referee_mss_family(engine, candidates, MAX_K)
        if k:
            below.extend(brute_task_k(engine, family, y) < k for y in engine.target_values())

    collect()
    assert any(below)
