"""A plain referee of QuestBench's backward-search level (`infoseek.single_turn`), written
top-down from its definition: a goal literal is settled by a fact, or expanded through a
clause that contains it into the negations of the clause's other literals. It shares no
code with the engines' propagation (which computes the same level bottom-up)."""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from infoseek.engines.horn import parse_literal

MAX_HEIGHT = 16


def _proves(clauses: list[list[tuple[str, bool]]], facts: Mapping[str, bool],
            literal: tuple[str, bool], height: int, memo: dict) -> bool:
    """`literal` follows from `facts` within `height` backward expansions."""
    key = (literal, height)
    if key not in memo:
        name, positive = literal
        memo[key] = facts.get(name) == positive or height > 0 and any(
            all(_proves(clauses, facts, (other, not sign), height - 1, memo)
                for other, sign in clause if (other, sign) != literal)
            for clause in clauses if literal in clause)
    return memo[key]


def referee_level(clauses: Sequence[Sequence[str]], observed: Mapping[str, Any],
                  target: str, name: str, feasible_values: Iterable[bool]) -> int | None:
    """The fewest expansions after which, for each feasible value of `name`, the target
    or its negation is settled by the observations plus that value (the largest over the
    values); None when some value never settles it."""
    parsed = [[parse_literal(lit) for lit in clause] for clause in clauses]
    worst = None
    for value in feasible_values:
        facts, memo = {**{k: bool(v) for k, v in observed.items()}, name: value}, {}
        heights = [h for h in range(MAX_HEIGHT)
                   if _proves(parsed, facts, (target, True), h, memo)
                   or _proves(parsed, facts, (target, False), h, memo)]
        if not heights:
            return None
        worst = heights[0] if worst is None else max(worst, heights[0])
    return worst
