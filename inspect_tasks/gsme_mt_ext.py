"""GSME-Q-MT-Ext: multi-turn information seeking over generated equation-system DAGs
(`builders.gsme_ext`, SPEC 5.3), shown as equations (`builders.gsme_text`).

    inspect eval inspect_tasks/gsme_mt_ext.py --model infoseek/optimal -T per_k=20
    inspect eval infoseek/gsme_mt_ext_full --model openai/gpt-4o -T k=[1,2]

Tasks: `gsme_mt_ext` (seek loop, world-backed oracle, numeric answers),
`gsme_mt_ext_full` (every value given: the reasoning upper bound),
`gsme_mt_ext_k_prediction` and `gsme_mt_ext_mss` (problem level).
"""

from inspect_ai import Task, task

from builders import gsme_ext as builder
from builders.gsme_text import render_problem
from inspect_tasks.math_common import (
    check_math_parameters,
    full_task,
    k_prediction_task,
    math_records,
    mss_task,
    seek_task,
)
from oracles import WORLD_POLICY


@task
def gsme_mt_ext(
    k: int | list[int] = [1, 2, 3, 4],
    per_k: int = builder.DEFAULT_PER_K,
    seed: int = 0,
    oracle: str = WORLD_POLICY,
    format: str = "tool",
    max_turns: int = 10,
    queries_per_turn: int = 1,
    budget: bool = False,
    force_ask: bool = False,
    carry_reasoning: bool = False,
    source: str | None = None,
    source_format: str | None = None,
    limit: int | None = None,
) -> Task:
    check_math_parameters(builder, k=k, per_k=per_k, seed=seed, oracle=oracle, format=format,
                          max_turns=max_turns, queries_per_turn=queries_per_turn,
                          budget=budget, force_ask=force_ask,
                          carry_reasoning=carry_reasoning, source=source,
                          source_format=source_format, limit=limit)
    records = math_records(builder, k=k, per_k=per_k, seed=seed, source=source,
        source_format=source_format, limit=limit)
    return seek_task("gsme_mt_ext", records, render_problem, seed=seed, oracle=oracle,
                     format=format, max_turns=max_turns, queries_per_turn=queries_per_turn,
                     budget=budget, force_ask=force_ask, carry_reasoning=carry_reasoning)


@task
def gsme_mt_ext_full(
    k: int | list[int] = [1, 2, 3, 4],
    per_k: int = builder.DEFAULT_PER_K,
    seed: int = 0,
    format: str = "tool",
    max_turns: int = 1,
    carry_reasoning: bool = False,
    source: str | None = None,
    source_format: str | None = None,
    limit: int | None = None,
) -> Task:
    """Full information: every held-out value is revealed; the model answers at once."""
    check_math_parameters(builder, k=k, per_k=per_k, seed=seed, format=format,
                          max_turns=max_turns, carry_reasoning=carry_reasoning,
                          source=source, source_format=source_format, limit=limit)
    records = math_records(builder, k=k, per_k=per_k, seed=seed, source=source,
        source_format=source_format, limit=limit)
    return full_task("gsme_mt_ext_full", records, render_problem, seed=seed, format=format,
                     max_turns=max_turns, carry_reasoning=carry_reasoning)


@task
def gsme_mt_ext_k_prediction(
    k: int | list[int] = [1, 2, 3, 4],
    per_k: int = builder.DEFAULT_PER_K,
    seed: int = 0,
    source: str | None = None,
    source_format: str | None = None,
    limit: int | None = None,
) -> Task:
    """State how many more quantities are needed (SPEC 3.2)."""
    ks = check_math_parameters(builder, k=k, per_k=per_k, seed=seed, source=source,
                               source_format=source_format, limit=limit)["k"]
    records = math_records(builder, k=k, per_k=per_k, seed=seed, source=source,
        source_format=source_format, limit=limit)
    return k_prediction_task("gsme_mt_ext_k_prediction", records, render_problem, seed=seed,
                             ks=ks)


@task
def gsme_mt_ext_mss(
    k: int | list[int] = [1, 2, 3, 4],
    per_k: int = builder.DEFAULT_PER_K,
    seed: int = 0,
    k_given: bool = False,
    max_size: int = 4,
    source: str | None = None,
    source_format: str | None = None,
    limit: int | None = None,
) -> Task:
    """Name a minimal sufficient set of quantities (SPEC 3.3); any MSS of the family counts."""
    check_math_parameters(builder, k=k, per_k=per_k, seed=seed, k_given=k_given,
                          max_size=max_size, source=source, source_format=source_format,
                          limit=limit)
    records = math_records(builder, k=k, per_k=per_k, seed=seed, source=source,
        source_format=source_format, limit=limit)
    return mss_task("gsme_mt_ext_mss", records, render_problem, seed=seed, k_given=k_given,
                    max_size=max_size)
