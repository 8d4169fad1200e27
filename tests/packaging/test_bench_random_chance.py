"""`benchmarks/random_chance.py`: random's exact chance of a whole MSS asked within the
turn cap, by hand and against enumeration of every turns-subset."""

from __future__ import annotations

import importlib.util
from fractions import Fraction
from itertools import combinations
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

ROOT = Path(__file__).resolve().parents[2]


def _load():
    spec = importlib.util.spec_from_file_location(
        "bench_random_chance", ROOT / "benchmarks" / "random_chance.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


chance_module = _load()
random_mss_chance = chance_module.random_mss_chance


def brute_force(askable: list[str], family: list[list[str]], turns: int) -> Fraction:
    """Every turns-subset of the askable set (the whole set when it is no larger), each
    as likely: the share that holds some set of the family."""
    pool = sorted(set(askable))
    draws = [tuple(pool)] if turns >= len(pool) else list(combinations(pool, turns))
    hits = sum(any(set(s) <= set(draw) for s in family) for draw in draws)
    return Fraction(hits, len(draws))


def test_hand_computed_cases() -> None:
    pool = ["a", "b", "c", "d"]
    # 6 pairs, {a, b} and {c, d} are 2 of them; both at once cannot be asked in 2 turns.
    assert random_mss_chance(pool, [["a", "b"], ["c", "d"]], 2) == Fraction(1, 3)
    # 3/6 + 3/6 - 1/6: only the pair {c, d} misses both a and b.
    assert random_mss_chance(pool, [["a"], ["b"]], 2) == Fraction(5, 6)
    # {a, b} in a random 3-subset of 4: C(2, 1) / C(4, 3).
    assert random_mss_chance(pool, [["a", "b"]], 3) == Fraction(1, 2)
    # Five of six asked: the single left-out one must be f.
    six = pool + ["e", "f"]
    assert random_mss_chance(six, [["a", "b", "c", "d", "e"]], 5) == Fraction(1, 6)
    # {a, b}, {a, c}: 1/6 + 1/6 - 0 in 2 turns; in 3 turns 2/4 + 2/4 - 1/4.
    assert random_mss_chance(pool, [["a", "b"], ["a", "c"]], 2) == Fraction(1, 3)
    assert random_mss_chance(pool, [["a", "b"], ["a", "c"]], 3) == Fraction(3, 4)


def test_edges() -> None:
    pool = ["a", "b", "c"]
    assert random_mss_chance(pool, [["a", "z"]], 2) == 0  # z is not askable
    assert random_mss_chance(pool, [["a", "z"], ["b"]], 1) == Fraction(1, 3)
    assert random_mss_chance(pool, [["a", "b", "c"]], 3) == 1  # random asks everything
    assert random_mss_chance(pool, [["a", "b"]], 9) == 1
    assert random_mss_chance(pool, [["a", "b", "c", "d"]], 9) == 0
    assert random_mss_chance(pool, [["a", "b"]], 1) == 0  # too big for the cap
    assert random_mss_chance(pool, [[]], 0) == 1
    assert random_mss_chance(pool, [["a"], ["a", "b"]], 1) == Fraction(1, 3)
    with pytest.raises(ValueError):
        random_mss_chance(pool, [["a"]], -1)


@settings(max_examples=300, deadline=None)
@given(n=st.integers(0, 8), turns=st.integers(0, 9), data=st.data())
def test_matches_enumeration(n: int, turns: int, data: st.DataObject) -> None:
    pool = [f"v{i}" for i in range(n)]
    names = pool + ["x", "y"]  # two names that are never askable
    family = data.draw(st.lists(st.lists(st.sampled_from(names), max_size=5, unique=True),
                                min_size=1, max_size=7))
    assert random_mss_chance(pool, family, turns) == brute_force(pool, family, turns)


def test_chance_by_k_uses_the_askable_set_and_weights_samples() -> None:
    base = {"variables": list("abcdefgt"), "target": "t", "observed": {"g": True},
            "forbidden": ["f"], "target_values": [False, True]}
    records = [
        # askable a..e (f forbidden, g observed); {a, e} is alternative only: forbidden.
        {**base, "k": 2, "queryable": list("abcdef"), "alternative_only": ["e"],
         "mss_family": [["a", "b"], ["a", "e"]]},
        # askable a, b: no more than 2 turns' worth, random asks them all.
        {**base, "k": 2, "queryable": ["a", "b"], "alternative_only": [],
         "mss_family": [["a", "b"]], "target_values": [1, 2, 3]},
    ]
    table = chance_module.chance_by_k(records, 2, True)
    first = random_mss_chance("abcd", [["a", "b"]], 2)  # 1/6
    row = table[2]
    assert row["records"] == 2 and row["small"] == 1 and row["askable_min"] == 2
    assert row["chance"] == pytest.approx(float((2 * first + 3 * 1) / 5))
    assert row["chance_large"] == pytest.approx(float(first))
    assert row["askable_mean"] == pytest.approx(3.0)
    allowed = chance_module.chance_by_k(records[:1], 2, False)[2]  # e may be asked
    assert allowed["chance"] == pytest.approx(float(
        random_mss_chance("abcde", [["a", "b"], ["a", "e"]], 2)))
