"""Logic-Q-MT k-prediction: state how many more attributes are needed (SPEC 3.2)."""

from inspect_ai import Task, task

from infoseek.inspect_tasks.assembly import checked_parameters, k_prediction_task


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
    params = checked_parameters("logic-mt", k=k, per_k=per_k, seed=seed, source=source,
                                source_format=source_format, limit=limit)
    return k_prediction_task("logic_k_prediction", "logic-mt", params)
