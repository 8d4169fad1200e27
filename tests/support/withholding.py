"""What the tests of the withholding oracles (``-T oracle=withholding`` and
``withholding_all``) and of problems no question can settle share: the small Horn problems
the property tests draw, with their referee and exact MSS family; a plain game-tree
referee for the optimal strategy; and the end-to-end runs of a task under each reference
model."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from hypothesis import HealthCheck, assume
from hypothesis import strategies as st
from inspect_ai import Task, eval
from inspect_ai.log import EvalLog

from infoseek.engines.bruteforce import BruteForceEngine, horn_referee, referee_mss_family
from infoseek.engines.horn import HornEngine
from infoseek.scorers.group_metric import log_metrics
from tests.support.common import assert_eval_success
from tests.support.strategies import horn_problems

PROPERTY_SETTINGS = {"deadline": None,
                     "suppress_health_check": [HealthCheck.filter_too_much,
                                               HealthCheck.too_slow]}
"""Hypothesis settings of the property tests (most drawn problems are assumed away)."""

REFERENCE_MODELS = ("optimal", "random")
"""The reference models every end-to-end check runs, by their name after ``infoseek/``."""


# ------------------------------------------------------------------ property tests


def referee_minimax(referee: BruteForceEngine, candidates: Sequence[str],
                    state: Mapping[str, Any]) -> int | None:
    """The worst-case number of questions to make the target Known, by plain game-tree
    enumeration over the referee's worlds (None: no strategy does)."""
    if len(referee.target_values(state)) <= 1:
        return 0
    best: int | None = None
    for var in candidates:
        if var in state:
            continue
        values = sorted(referee.variable_values(var, state), key=str)
        if len(values) < 2 and values:
            continue  # already determined: asking it changes nothing
        worst = 0
        for value in values:
            count = referee_minimax(referee, candidates, {**state, var: value})
            if count is None:
                worst = None
                break
            worst = max(worst, count)
        if worst is not None and (best is None or worst + 1 < best):
            best = worst + 1
    return best


@st.composite
def alternative_routes(draw: Any) -> tuple[list[str], list[list[str]], dict, str]:
    """Small Horn problems with several ways to the target: y is equivalent to each of two
    or three planted rule bodies (y <- body, and y -> each member), plus random clauses,
    so the MSS family often has alternatives to withhold around."""
    names = [f"v{i}" for i in range(draw(st.integers(4, 7)))]
    target, others = "y", list(names)
    bodies = draw(st.lists(st.lists(st.sampled_from(others), min_size=1, max_size=2,
                                    unique=True), min_size=2, max_size=3))
    clauses = [[target] + [f"not {b}" for b in body] for body in bodies]
    clauses += [[b, f"not {target}"] for body in bodies for b in body]  # y <-> each body
    for _ in range(draw(st.integers(0, 3))):
        body = draw(st.lists(st.sampled_from(others), min_size=1, max_size=2, unique=True))
        head = draw(st.sampled_from(others))
        if head not in body:
            clauses.append([head] + [f"not {b}" for b in body])
    observed = {v: True for v in draw(st.lists(st.sampled_from(others), max_size=1))}
    return [*names, target], clauses, observed, target


@dataclass(frozen=True)
class DrawnProblem:
    """A drawn Horn problem with an open target and k >= 1, ready for a withholding rule:
    its referee and fast engine, the askable variables, the referee's exact k and MSS
    family, the record the rule reads, and a drawn seed."""

    referee: BruteForceEngine
    engine: HornEngine
    askable: list[str]
    k: int
    family: list[tuple[str, ...]]
    record: dict[str, Any]
    seed: int


def draw_withholding_problem(data: Any, planted: bool) -> DrawnProblem:
    """A `DrawnProblem` from hypothesis `data`: with several planted routes to the target
    (`alternative_routes`) or an ordinary small Horn problem; problems whose target is
    Known, infeasible or out of reach of every askable set are assumed away."""
    problems = alternative_routes() if planted else horn_problems(max_vars=7)
    names, clauses, observed, target = data.draw(problems, label="problem")
    referee = horn_referee(names, clauses, observed, target)
    assume(referee.worlds and len(referee.target_values()) > 1)
    engine = HornEngine(names, clauses, observed, target)
    askable = [v for v in names if v not in observed and v != target]
    k, family = referee_mss_family(referee, askable, len(askable))
    assume(k is not None and k >= 1)
    record = {"id": "p", "k": k, "mss_family": [list(m) for m in family]}
    seed = data.draw(st.integers(0, 50), label="seed")
    return DrawnProblem(referee, engine, askable, k, family, record, seed)


# ------------------------------------------------------------------ end-to-end runs


def run_eval(task: Task, model: str, log_dir: Any = None) -> EvalLog:
    """One offline `inspect_ai.eval` of `task` under `model`, checked to have succeeded
    with no sample in error; logs go to `log_dir` (None: Inspect writes none)."""
    [log] = eval(task, model=model, display="none",
                 log_dir=None if log_dir is None else str(log_dir))
    assert_eval_success(log)
    return log


def reference_logs(make_task: Callable[[], Task], log_dir: Any = None) -> dict[str, EvalLog]:
    """The log of a fresh `make_task()` under each reference model
    (`REFERENCE_MODELS`), keyed by the model's short name."""
    return {model: run_eval(make_task(), f"infoseek/{model}", log_dir)
            for model in REFERENCE_MODELS}


def reference_metrics(make_task: Callable[[], Task],
                      log_dir: Any = None) -> dict[str, dict[str, float]]:
    """Every metric (`log_metrics`) of `reference_logs`, keyed by the model's short
    name."""
    return {model: log_metrics(log)
            for model, log in reference_logs(make_task, log_dir).items()}
