"""The one door to pyperplan (GPL-3.0-or-later): parse the project's Blocks World PDDL and
ground its operators, and pyperplan's own breadth-first search (the tests' cross-check).

No other module of infoseek imports pyperplan (tests/engines/test_planning_engine.py checks
that); the engine works on the grounded operators this module returns, as plain tuples.

pyperplan's grounding iterates over Python sets, so the order of its operators (and so
which of several optimal plans its search returns) follows PYTHONHASHSEED. The operators
are therefore sorted by name here, and nothing downstream depends on pyperplan's order.
Grounding keeps every operator (no relevance analysis, no static pruning: the engine
needs the dynamics of every state, not only the states reachable from one initial
state), minus the self-stacking ones (``(stack a a)``, ``(unstack a a)``) whose
preconditions no valid state meets.
"""

from __future__ import annotations

import functools
import os
import string
import tempfile
from dataclasses import dataclass
from importlib import resources

DOMAIN_FILE = "blocks.pddl"
"""The project's Blocks World domain, beside this module (package data)."""
ACTIONS = ("pick-up", "put-down", "stack", "unstack")
MAX_BLOCKS = 8


@dataclass(frozen=True)
class GroundOperator:
    """One ground action: its name (``(unstack a b)``) and its atoms."""

    name: str
    preconditions: tuple[str, ...]
    add_effects: tuple[str, ...]
    del_effects: tuple[str, ...]


def block_names(count: int) -> tuple[str, ...]:
    """The blocks of a problem with `count` blocks: a, b, c, ..."""
    if not isinstance(count, int) or isinstance(count, bool) or not 1 <= count <= MAX_BLOCKS:
        raise ValueError(f"the number of blocks must be an integer from 1 to {MAX_BLOCKS}; "
                         f"got {count!r}")
    return tuple(string.ascii_lowercase[:count])


def domain_text() -> str:
    """The PDDL domain file's text."""
    return resources.files(__package__).joinpath(DOMAIN_FILE).read_text(encoding="utf-8")


def problem_text(blocks: tuple[str, ...], init: tuple[str, ...], goal: tuple[str, ...]) -> str:
    """A PDDL problem over `blocks` (atoms written ``(on a b)``)."""
    return (f"(define (problem infoseek-{len(blocks)})\n  (:domain infoseek-blocks)\n"
            f"  (:objects {' '.join(blocks)})\n  (:init {' '.join(init)})\n"
            f"  (:goal (and {' '.join(goal)})))\n")


def _parse(problem: str):
    from pyperplan.pddl.parser import Parser

    with tempfile.TemporaryDirectory() as folder:
        domain_path = os.path.join(folder, "domain.pddl")
        problem_path = os.path.join(folder, "problem.pddl")
        with open(domain_path, "w", encoding="utf-8") as handle:
            handle.write(domain_text())
        with open(problem_path, "w", encoding="utf-8") as handle:
            handle.write(problem)
        parser = Parser(domain_path, problem_path)
        domain = parser.parse_domain()
        return parser.parse_problem(domain)


def ground_task(blocks: tuple[str, ...], init: tuple[str, ...], goal: tuple[str, ...]):
    """pyperplan's grounded task of one problem (every operator kept)."""
    from pyperplan import grounding

    return grounding.ground(_parse(problem_text(blocks, init, goal)),
                            remove_statics_from_initial_state=False,
                            remove_irrelevant_operators=False)


@functools.lru_cache(maxsize=16)
def ground_operators(count: int) -> tuple[GroundOperator, ...]:
    """Every ground action over `count` blocks, sorted by name (module docstring)."""
    blocks = block_names(count)
    table = tuple(f"(ontable {b})" for b in blocks)
    task = ground_task(blocks, (*table, *(f"(clear {b})" for b in blocks), "(handempty)"),
                       (table[0],))
    selfish = {f"(on {b} {b})" for b in blocks}
    found = []
    for operator in task.operators:
        atoms = operator.preconditions | operator.add_effects | operator.del_effects
        if atoms & selfish:
            continue
        found.append(GroundOperator(operator.name, tuple(sorted(operator.preconditions)),
                                    tuple(sorted(operator.add_effects)),
                                    tuple(sorted(operator.del_effects))))
    return tuple(sorted(found, key=lambda op: op.name))


def pyperplan_bfs_plan(blocks: tuple[str, ...], init: tuple[str, ...],
                       goal: tuple[str, ...]) -> list[str] | None:
    """The plan pyperplan's breadth-first search finds (operator names), or None. Which of
    several optimal plans it is depends on the hash seed; its length does not."""
    from pyperplan.search import breadth_first_search

    plan = breadth_first_search(ground_task(blocks, init, goal))
    return None if plan is None else [operator.name for operator in plan]
