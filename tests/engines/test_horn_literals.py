"""The Horn engine's literal parsing (remembered between calls) and forward chaining (a
growing queue): a bad literal is refused every time it is met, and the least model and
its conflicts do not depend on the order the clauses and observed literals come in."""

from __future__ import annotations

import random

import pytest

from infoseek.engines.horn import HornEngine, parse_literal


@pytest.mark.parametrize("literal", ["", "   ", "not ", " not   "])
def test_a_bad_literal_is_refused_each_time_it_is_met(literal: str) -> None:
    for _ in range(2):  # the second call must not be answered from the remembered ones
        with pytest.raises(ValueError):
            parse_literal(literal)


def test_literals_read_the_same_when_remembered() -> None:
    assert [parse_literal(text) for text in ("x", " not x ", "x", "not")] == [
        ("x", True), ("x", False), ("x", True), ("not", True)]


def _chain_engine(clauses: list[list[str]], observed: dict[str, bool]) -> HornEngine:
    return HornEngine([f"v{i}" for i in range(8)], clauses, observed, "v7")


def test_least_model_and_conflicts_ignore_the_order_of_clauses() -> None:
    rng = random.Random(33)
    for _ in range(200):
        clauses = []
        for _ in range(rng.randint(1, 12)):
            body = rng.sample(range(8), rng.randint(0, 3))
            head = rng.choice([None, *range(8)])
            clauses.append([*(f"not v{b}" for b in body if b != head),
                            *([f"v{head}"] if head is not None else [])] or ["v0"])
        observed = {f"v{i}": rng.random() < 0.6 for i in rng.sample(range(7), 2)}
        shuffled = [list(clause) for clause in clauses]
        rng.shuffle(shuffled)
        for clause in shuffled:
            rng.shuffle(clause)
        one, other = _chain_engine(clauses, observed), _chain_engine(shuffled, observed)
        for assignment in ({}, {"v1": True}, {"v2": False, "v3": True}):
            if set(assignment) & set(observed):
                continue
            assert one.least_model(assignment) == other.least_model(assignment)
            assert one.target_values(assignment) == other.target_values(assignment)
