"""The planning engine: state counts, pyperplan's grounding and BFS as a cross-check,
the brute-force referee on random problems, the import fence around pyperplan."""

from __future__ import annotations

import ast
import math
import os
import random
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from infoseek.analysis import is_sufficient, minimal_sufficient_sets
from infoseek.engines.planning.engine import PlanningEngine, atom_text, variable_name
from infoseek.engines.planning.pddl import ground_operators, pyperplan_bfs_plan
from infoseek.engines.planning.space import (
    atoms,
    blocks_space,
    goal_analysis,
    tower_sets,
)
from tests.support.planning_referee import Referee, all_atoms, referee_states

ROOT = Path(__file__).resolve().parents[2]
ARM_EMPTY = {4: 73, 5: 501, 6: 4051, 7: 37633}
HOLDING = {4: 52, 5: 365, 6: 3006, 7: 28357}
GOALS = [("(on b a)",), ("(on b a)", "(on c b)"), ("(on b a)", "(ontable a)")]


def arm_empty_count(count: int) -> int:
    """a(n), the states with the arm empty, by the closed formula of the space's module
    docstring (`infoseek.engines.planning.space`): sum_k C(n-1, k-1) n!/k!."""
    return sum(math.comb(count - 1, k - 1) * math.factorial(count) // math.factorial(k)
               for k in range(1, count + 1)) if count else 1


@pytest.mark.parametrize("count", [4, 5, 6, 7])
def test_state_counts_match_the_closed_formula(count) -> None:
    space = blocks_space(count)
    holding = int(space.holding.sum())
    assert len(space.masks) - holding == ARM_EMPTY[count] == arm_empty_count(count)
    assert holding == HOLDING[count] == count * arm_empty_count(count - 1)
    assert len(tower_sets(tuple("abcdefg"[:count]))) == ARM_EMPTY[count]
    assert len(set(space.masks.tolist())) == len(space.masks)
    assert len(atoms(count)) == (count + 1) ** 2


@pytest.mark.parametrize("count", [3, 4, 5])
def test_the_referee_closure_finds_the_same_states(count) -> None:
    space = blocks_space(count)
    ours = {frozenset(space.true_atoms(i)) for i in range(len(space.masks))}
    assert ours == set(referee_states(count))
    assert atoms(count) == tuple(all_atoms(count))


def test_ground_operators_are_sorted_and_complete() -> None:
    ops = ground_operators(4)
    names = [op.name for op in ops]
    assert names == sorted(names) and len(names) == 2 * 4 * 4
    assert "(stack a a)" not in names and "(unstack b a)" in names


def test_operator_order_does_not_follow_the_hash_seed() -> None:
    code = ("from infoseek.engines.planning.space import goal_analysis as g;"
            "a = g(5, ('(on b a)', '(on c b)'));"
            "print(a.space.operators[:6], a.first_plan(123), a.plan_set[:50].tolist())")
    outputs = {subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                              cwd=ROOT, env={**os.environ, "PYTHONHASHSEED": seed},
                              check=True).stdout for seed in ("1", "2", "3")}
    assert len(outputs) == 1


@pytest.mark.parametrize("goal", GOALS)
def test_pyperplan_bfs_agrees_on_plan_length_and_finds_an_optimal_plan(goal) -> None:
    analysis = goal_analysis(4, goal)
    rng = random.Random(7)
    for index in rng.sample(range(len(analysis.space.masks)), 12):
        init = tuple(analysis.space.true_atoms(index))
        plan = pyperplan_bfs_plan(tuple("abcd"), init, goal)
        assert plan is not None and len(plan) == analysis.dist[index]
        assert plan in analysis.optimal_plans(index)


@pytest.mark.parametrize("goal", GOALS)
def test_distances_plan_sets_and_counts_agree_with_the_referee(goal) -> None:
    analysis = goal_analysis(4, goal)
    referee = Referee(4, goal)
    space = analysis.space
    by_set: dict[int, frozenset] = {}
    for index in range(len(space.masks)):
        state = frozenset(space.true_atoms(index))
        plans = referee.plans(state)
        assert analysis.dist[index] == referee.dist[state]
        listed = analysis.optimal_plans(index)
        assert {tuple(p) for p in listed} == plans and listed == sorted(listed)
        number = int(analysis.plan_set[index])
        assert by_set.setdefault(number, plans) == plans  # one id, one set
        assert analysis.plan_count[number] == len(plans)
    assert len(set(by_set.values())) == len(by_set)  # one set, one id


def _observations(draw_rng: random.Random, count: int) -> dict[str, bool]:
    """Random observations (by variable name) of the atoms of a random valid state."""
    space = blocks_space(count)
    state = draw_rng.randrange(len(space.masks))
    true = set(space.true_atoms(state))
    chosen = draw_rng.sample(space.atoms, draw_rng.randint(0, len(space.atoms)))
    return {variable_name(a): a in true for a in sorted(chosen)}


def _atoms_of(names) -> list[str]:
    return [atom_text(n) for n in names]


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.integers(0, 10**9), st.sampled_from([3, 4]), st.sampled_from(GOALS[:2]))
def test_engine_agrees_with_the_referee_on_random_problems(seed, count, goal) -> None:
    rng = random.Random(seed)
    observed = _observations(rng, count)
    engine = PlanningEngine(count, goal, observed)
    referee = Referee(count, goal)
    told = dict(zip(_atoms_of(observed), observed.values()))
    assert len(engine.target_values()) == referee.plan_set_count(told)
    assert engine.is_known() == referee.known(told)
    open_atoms = engine.unobserved()
    for _ in range(6):
        subset = rng.sample(open_atoms, min(len(open_atoms), rng.randint(0, 3)))
        expected = referee.sufficient(told, _atoms_of(subset))
        assert is_sufficient(engine, subset) == expected
        assert is_sufficient(engine, subset, use_fast_path=False) == expected
    if len(open_atoms) <= 14:
        k, family = referee.degree(told, _atoms_of(open_atoms), 2)
        found = minimal_sufficient_sets(engine, open_atoms, 2)
        assert found.k == k
        assert sorted(tuple(sorted(_atoms_of(m))) for m in found.family) == [
            tuple(sorted(m)) for m in family]


def test_variable_values_with_a_fixed_target() -> None:
    engine = PlanningEngine(4, ("(on b a)",), {"handempty": True, "on b a": False})
    for value in engine.target_values():
        for name in ("on a b", "clear b", "ontable c"):
            states = engine.states(target_value=value)
            bit = engine.space.bit[atom_text(name)]
            seen = {(int(engine.space.masks[i]) >> bit) & 1 == 1 for i in states}
            assert engine.variable_values(name, target_value=value) == frozenset(seen)
    assert engine.target_values({"on b a": True}) == frozenset()
    assert engine.target_values({"(on a b)": True}) == frozenset()  # names have no brackets
    assert engine.target_values({"nonsense": True}) == frozenset()


def test_only_the_planning_engine_imports_pyperplan() -> None:
    offenders = []
    for folder in ("infoseek", "builders", "oracles", "solvers", "scorers", "inspect_tasks",
                   "benchmarks"):
        for path in (ROOT / folder).rglob("*.py"):
            if path.parent == ROOT / "infoseek" / "engines" / "planning":
                continue
            tree = ast.parse(path.read_text(encoding="utf-8"))
            for node in ast.walk(tree):
                names = ([a.name for a in node.names] if isinstance(node, ast.Import)
                         else [node.module or ""] if isinstance(node, ast.ImportFrom) else [])
                if any(n == "pyperplan" or n.startswith("pyperplan.") for n in names):
                    offenders.append(str(path.relative_to(ROOT)))
    assert offenders == []
    inside = [p.name for p in (ROOT / "infoseek" / "engines" / "planning").glob("*.py")
              if "pyperplan" in p.read_text(encoding="utf-8") and "import" in
              p.read_text(encoding="utf-8") and p.name != "__init__.py"]
    assert "pddl.py" in inside
