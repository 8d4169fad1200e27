"""Shared pieces of the math tasks (`gsme_mt_ext`, `gsme_mt`, `gsm_mt`): records from a
builder (cached per k) or a JSONL file, one seek sample per record (the hidden world
backs the oracle), the full-information record, and the Task assembly.

Math records (docs/contracts.md) have one hidden world each, so a problem is one task
instance: the sample's target value is the record's ``answer``. All MSSs of the family
are acceptable (``forbid_alternatives`` is off): every unrevealed leaf may be asked.
"""

from __future__ import annotations

from collections.abc import Callable
from types import ModuleType
from typing import Any

from inspect_ai import Task
from inspect_ai.dataset import Sample

from builders.cache import load_or_build
from builders.math.gsme_text import askable_names, candidates_line
from builders.published.sources import source_records
from inspect_tasks.task_errors import readable_data_errors
from inspect_tasks.task_parameters import MATH_ORACLES, check_parameters
from oracles import WORLD_POLICY
from scorers.inspect_scorers import (
    k_prediction_scorer,
    mss_identification_scorer,
    seek_scorers,
)
from solvers.dataset import memory_dataset, problem_samples
from solvers.problem_level import problem_level_solver
from solvers.seek import seek_solver

Render = Callable[[dict[str, Any]], str]
FORBID_ALTERNATIVES = False


def check_math_parameters(builder: ModuleType, **params: Any) -> dict[str, Any]:
    """A math task's `-T` parameters checked before anything is built
    (`inspect_tasks.task_parameters`): k from 1 to the builder's MAX_K, and the oracle
    `world` only (every policy reduces to it on the arithmetic engine)."""
    return check_parameters(max_k=builder.MAX_K, oracles=MATH_ORACLES, **params)


def math_records(builder: ModuleType, *, k: Any, per_k: int | None, seed: int,
                 source: str | None, source_format: str | None = None,
                 limit: int | None = None) -> list[dict[str, Any]]:
    """Records of `builder` (a module with BUILDER_NAME/VERSION, MAX_K, DEFAULT_PER_K and
    `build_split`) for the k values `k`, or the records of `source` (our JSONL or a
    released GSME-Q-MT / -Ext file, `builders.published.sources`) with those k; the
    parameters are checked first (`check_math_parameters`)."""
    per_k = builder.DEFAULT_PER_K if per_k is None else per_k
    return checked_math_records(builder, check_math_parameters(
        builder, k=k, per_k=per_k, seed=seed, source=source, source_format=source_format,
        limit=limit))


def checked_math_records(builder: ModuleType, params: dict[str, Any]) -> list[dict[str, Any]]:
    """`math_records` for parameters `check_math_parameters` already returned (a task
    checks all its `-T` parameters at once, then builds): `k` (a sorted list), `per_k`,
    `seed`, `source`, `source_format` and `limit`."""
    ks, per_k, seed, source = params["k"], params["per_k"], params["seed"], params["source"]
    if source:
        with readable_data_errors():
            return source_records(source, domain="math", source_format=params["source_format"],
                                  ks=ks, limit=params["limit"])
    out: list[dict[str, Any]] = []
    for one_k in ks:  # cache per k, so a run over k=[1,2] reuses a run over k=1
        out.extend(load_or_build(
            builder.BUILDER_NAME, builder.BUILDER_VERSION,
            {"seed": seed, "per_k": per_k, "k": one_k},
            lambda one_k=one_k: builder.build_split(seed, per_k, [one_k]),
        ))
    return out


def full_information_record(record: dict[str, Any]) -> dict[str, Any]:
    """The record with every leaf of the hidden world revealed: the target is Known, no
    quantity is left to ask (k = 0, empty MSS)."""
    world = record["hidden_world"]
    return {
        **record,
        "observed": dict(world),
        "queryable": [],
        "candidate_queries": [],
        "alternative_only": [],
        "k": 0,
        "mss_family": [[]],
        "original_k": record["k"],
    }


def seek_samples(records: list[dict[str, Any]], render: Render) -> list[Sample]:
    """One sample per record; metadata ``k`` is the record's original degree (so the
    full-information variant reports per k too)."""
    samples = []
    for record in records:
        k = record.get("original_k", record["k"])
        samples.append(Sample(
            id=record["id"],
            input=render(record),
            target=str(record["answer"]),
            metadata={
                "problem": record,
                "target_value": record["answer"],
                "hidden_world": record["hidden_world"],
                "target_index": 0,
                "k": k,
                "task_k": record["k"],
                "forbid_alternatives": FORBID_ALTERNATIVES,
            },
        ))
    return samples


def with_ask_list(render: Callable[[dict[str, Any]], str]) -> Render:
    """Append the names of the quantities that may be asked (for renderings, like the
    word problem, that do not name them)."""

    def rendered(record: dict[str, Any]) -> str:
        text = render(record)
        descriptions = record.get("descriptions") or {}
        names = [n for n in askable_names(record)
                 if n not in record["observed"] and n != record["target"]]
        if not names:
            return text
        listed = ", ".join(f"{n} ({descriptions[n]})" if descriptions.get(n, n) != n else n
                           for n in names)
        return f"{text}\n\n{candidates_line(listed)}"

    return rendered


def seek_task(name: str, records: list[dict[str, Any]], render: Render, *, seed: int,
              oracle: str, format: str, max_turns: int, queries_per_turn: int, budget: bool,
              force_ask: bool, carry_reasoning: bool) -> Task:
    solver = seek_solver(
        fmt=format, max_turns=max_turns, queries_per_turn=queries_per_turn, budget=budget,
        force_ask=force_ask, forbid_alternatives=FORBID_ALTERNATIVES,
        carry_reasoning=carry_reasoning, oracle=oracle, seed=seed,
    )
    return Task(dataset=memory_dataset(seek_samples(records, render), name), solver=solver,
                scorer=seek_scorers(), name=name)


def full_task(name: str, records: list[dict[str, Any]], render: Render, *, seed: int,
              format: str, max_turns: int, carry_reasoning: bool) -> Task:
    """Full information: every value given; the seek loop with nothing left to ask."""
    full = [full_information_record(r) for r in records]
    return seek_task(name, full, render, seed=seed, oracle=WORLD_POLICY, format=format,
                     max_turns=max_turns, queries_per_turn=1, budget=False, force_ask=False,
                     carry_reasoning=carry_reasoning)


def k_prediction_task(name: str, records: list[dict[str, Any]], render: Render, *,
                      seed: int, ks: list[int]) -> Task:
    """k-prediction; the prompt offers every count up to the largest k asked for (at
    least 1..4)."""
    return Task(dataset=memory_dataset(problem_samples(records, render), name),
                solver=problem_level_solver("k_prediction", seed=seed, max_k=max(4, *ks)),
                scorer=k_prediction_scorer(), name=name)


def mss_task(name: str, records: list[dict[str, Any]], render: Render, *, seed: int,
             k_given: bool, max_size: int) -> Task:
    samples = problem_samples(records, render,
                              extra_metadata={"forbid_alternatives": FORBID_ALTERNATIVES})
    return Task(dataset=memory_dataset(samples, name),
                solver=problem_level_solver("mss_identification", k_given=k_given,
                                            max_size=max_size,
                                            forbid_alternatives=FORBID_ALTERNATIVES, seed=seed),
                scorer=mss_identification_scorer(canonical_only=FORBID_ALTERNATIVES),
                name=name)
