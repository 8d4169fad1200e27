"""Logic-Q-MT MSS identification: name a minimal sufficient set (SPEC 3.3)."""

from inspect_ai import Task, task

from builders.logic_dataset import logic_records
from builders.logic_mt import MAX_K
from builders.logic_text import render_problem
from inspect_tasks.task_errors import readable_data_errors
from inspect_tasks.task_parameters import check_parameters
from scorers.inspect_scorers import mss_identification_scorer
from solvers.dataset import memory_dataset, problem_samples
from solvers.problem_level import problem_level_solver


@task
def logic_mss(
    k: int | list[int] = [1, 2, 3, 4],
    per_k: int = 200,
    seed: int = 0,
    k_given: bool = False,
    max_size: int = 4,
    forbid_alternatives: bool = True,
    source: str | None = None,
    source_format: str | None = None,
    limit: int | None = None,
) -> Task:
    ks = check_parameters(max_k=MAX_K, k=k, per_k=per_k, seed=seed, k_given=k_given,
                          max_size=max_size, forbid_alternatives=forbid_alternatives,
                          source=source, source_format=source_format, limit=limit)["k"]
    with readable_data_errors():
        records = logic_records(seed=seed, per_k=per_k, ks=ks, source=source,
            source_format=source_format, limit=limit)
    samples = problem_samples(
        records, lambda r: render_problem(r, forbid_alternatives=forbid_alternatives),
        extra_metadata={"forbid_alternatives": forbid_alternatives},
    )
    return Task(dataset=memory_dataset(samples, "logic_mss"),
                solver=problem_level_solver("mss_identification", k_given=k_given,
                                            max_size=max_size,
                                            forbid_alternatives=forbid_alternatives, seed=seed),
                scorer=mss_identification_scorer(canonical_only=forbid_alternatives),
                name="logic_mss")
