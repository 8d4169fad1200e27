"""Logic-Q-MT: multi-turn information seeking over k-underspecified Horn problems.

    inspect eval inspect_tasks/logic_mt.py --model infoseek/optimal
    inspect eval infoseek/logic_mt --model openai/gpt-4o -T k=[3,4] -T oracle=random
    inspect eval inspect_tasks/logic_mt.py -T source=logic_q_mt.csv --model infoseek/optimal
"""

from inspect_ai import Task, task

from builders.logic_dataset import logic_records
from builders.logic_mt import MAX_K
from builders.logic_text import render_problem
from builders.published.sources import check_interaction_format
from inspect_tasks.task_errors import readable_data_errors
from scorers.inspect_scorers import seek_scorer
from solvers.dataset import instance_samples, memory_dataset, parse_k_values
from solvers.seek import seek_solver


@task
def logic_mt(
    k: int | list[int] = [1, 2, 3, 4],
    per_k: int = 200,
    seed: int = 0,
    oracle: str = "adversarial",
    format: str = "tool",
    max_turns: int = 10,
    queries_per_turn: int = 1,
    budget: bool = False,
    force_ask: bool = False,
    forbid_alternatives: bool = True,
    carry_reasoning: bool = False,
    source: str | None = None,
    source_format: str | None = None,
    limit: int | None = None,
) -> Task:
    check_interaction_format(format)
    ks = parse_k_values(k, range(1, MAX_K + 1))
    solver = seek_solver(
        fmt=format, max_turns=max_turns, queries_per_turn=queries_per_turn, budget=budget,
        force_ask=force_ask, forbid_alternatives=forbid_alternatives,
        carry_reasoning=carry_reasoning, oracle=oracle, seed=seed,
    )
    with readable_data_errors():
        records = logic_records(seed=seed, per_k=per_k, ks=ks, source=source,
            source_format=source_format, limit=limit)
    samples = instance_samples(
        records, lambda r: render_problem(r, forbid_alternatives=forbid_alternatives),
        extra_metadata={"forbid_alternatives": forbid_alternatives},
    )
    return Task(dataset=memory_dataset(samples, "logic_mt"), solver=solver, scorer=seek_scorer(),
                name="logic_mt")
