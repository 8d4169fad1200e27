"""Logic-Q-MT k-prediction: state how many more attributes are needed (SPEC 3.2)."""

from inspect_ai import Task, task

from builders.logic.logic_dataset import logic_records
from builders.logic.logic_mt import MAX_K
from builders.logic.logic_text import render_problem
from inspect_tasks.task_errors import readable_data_errors
from inspect_tasks.task_parameters import check_parameters
from scorers.inspect_scorers import k_prediction_scorer
from solvers.dataset import memory_dataset, problem_samples
from solvers.problem_level import problem_level_solver


@task
def logic_k_prediction(
    k: int | list[int] = [1, 2, 3, 4],
    per_k: int = 200,
    seed: int = 0,
    source: str | None = None,
    source_format: str | None = None,
    limit: int | None = None,
) -> Task:
    """State how many more attributes are needed (SPEC 3.2).

    Args:
        k: degrees of underspecification to include (1..5; an int or a list; default [1,2,3,4]).
        per_k: problems built per k (>= 1; default 200); unused with source.
        seed: builder seed (an integer; default 0); unused with source.
        source: our JSONL logic records or a released Logic-Q-MT / QuestBench Logic-Q CSV
            (path or URL), instead of a built split.
        source_format: with source: mt-infoseek-logic, questbench-logic or records
            (default: detected).
        limit: with source only: read just the first N problems of the file (>= 1; default: all).
    """
    ks = check_parameters(max_k=MAX_K, k=k, per_k=per_k, seed=seed, source=source,
                          source_format=source_format, limit=limit)["k"]
    with readable_data_errors():
        records = logic_records(seed=seed, per_k=per_k, ks=ks, source=source,
            source_format=source_format, limit=limit)
    samples = problem_samples(records, lambda r: render_problem(r, forbid_alternatives=False))
    return Task(dataset=memory_dataset(samples, "logic_k_prediction"),
                solver=problem_level_solver("k_prediction", seed=seed, max_k=max(4, *ks)),
                scorer=k_prediction_scorer(), name="logic_k_prediction")
