"""Shared hypothesis strategies for the property tests."""

from __future__ import annotations

from typing import Any

from hypothesis import strategies as st

HornProblem = tuple[list[str], list[list[str]], dict[str, bool], str]


@st.composite
def horn_problems(draw: Any, max_vars: int = 8) -> HornProblem:
    """Small Horn problems (3 to `max_vars` variables, up to 12 clauses, at most one positive
    literal), with up to two planted target <-> AND(body) definitions."""
    n = draw(st.integers(3, max_vars))
    names = [f"v{i}" for i in range(n)]
    target = draw(st.sampled_from(names))
    others = [v for v in names if v != target]
    clauses: list[list[str]] = []
    for _ in range(draw(st.integers(0, 2))):
        body = draw(st.lists(st.sampled_from(others), min_size=1, max_size=3, unique=True))
        clauses.append([target] + [f"not {b}" for b in body])
        clauses.extend([b, f"not {target}"] for b in body)
    heads = st.none() | st.just(target) | st.sampled_from(names)
    for _ in range(draw(st.integers(0, max(0, 12 - len(clauses))))):
        negatives = draw(st.lists(st.sampled_from(names), max_size=3, unique=True))
        head = draw(heads)
        clause = ([head] if head else []) + [f"not {v}" for v in negatives if v != head]
        if clause:
            clauses.append(clause)
    observed = {}
    for v in others:
        value = draw(st.sampled_from((None, None, None, None, False, True)))
        if value is not None:
            observed[v] = value
    return names, clauses[:12], observed, target
