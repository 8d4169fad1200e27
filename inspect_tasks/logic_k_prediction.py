"""Logic-Q-MT k-prediction: state how many more attributes are needed (protocols §3.2)."""

from inspect_ai import Task, task

from infoseek.builders.logic.logic_mt import SPLITS, split_settings
from infoseek.inspect_tasks.assembly import checked_parameters, k_prediction_task
from infoseek.inspect_tasks.task_parameters import check_choice
from infoseek.inspect_tasks.task_tags import tagged


@task
@tagged("logic")
def logic_k_prediction(
    k: int | list[int] | None = None,
    split: str = "default",
    per_k: int = 200,
    seed: int = 0,
    source: str | None = None,
    source_format: str | None = None,
    limit: int | None = None,
) -> Task:
    """State how many more attributes are needed (protocols §3.2).

    Args:
        k: degrees of underspecification to include (1..5, 1..8 with split=hard; an int or
            a list; default: the split's, [1,2,3,4] or [5,6,7,8]).
        split: which split to build (hard: k = 5..8, up to 150 attributes, 300 rules, depth 10; or
            the usual one; default default).
        per_k: problems built per k (>= 1; default 200); unused with source.
        seed: the random seed (of the builder; an integer; default 0); unused with source.
        source: a file of problem records, instead of a built split (path or URL: our JSONL logic
            records or a released Logic-Q-MT / QuestBench Logic-Q CSV).
        source_format: the source file's format (with source: mt-infoseek-logic, questbench-logic or
            records; default: detected).
        limit: read just the first N problems (of the source, or of the built split, which
            then builds only those; >= 1; default: all).
    """
    chosen = split_settings(check_choice("split", split, list(SPLITS)), k)
    builder = chosen["builder"]
    params = checked_parameters(builder, k=chosen["k"], per_k=per_k, seed=seed, source=source,
                                source_format=source_format, limit=limit)
    return k_prediction_task("logic_k_prediction", builder, params)
