"""Logic-Q-MT MSS identification: name a minimal sufficient set (protocols §3.3)."""

from inspect_ai import Task, task

from infoseek.builders.logic.logic_mt import SPLITS, split_settings
from infoseek.contract import LOGIC_FORBID_ALTERNATIVES
from infoseek.inspect_tasks.assembly import checked_parameters, mss_task
from infoseek.inspect_tasks.task_parameters import check_choice
from infoseek.inspect_tasks.task_tags import tagged


@task
@tagged("logic")
def logic_mss(
    k: int | list[int] | None = None,
    split: str = "default",
    per_k: int = 200,
    seed: int = 0,
    k_given: bool = False,
    max_size: int | None = None,
    forbid_alternatives: bool = LOGIC_FORBID_ALTERNATIVES,
    source: str | None = None,
    source_format: str | None = None,
    limit: int | None = None,
) -> Task:
    """Name a minimal sufficient set of attributes (protocols §3.3).

    Args:
        k: degrees of underspecification to include (1..5, 1..8 with split=hard; an int or
            a list; default: the split's, [1,2,3,4] or [5,6,7,8]).
        split: which split to build (hard: k = 5..8, up to 150 attributes, 300 rules, depth 10; or
            the usual one; default default).
        per_k: problems built per k (>= 1; default 200); unused with source.
        seed: the random seed (of the builder; an integer; default 0); unused with source.
        k_given: tell the model the set has exactly k variables (true/false; default
            false: it names between 1 and max_size).
        max_size: most variables it may name when k is not given (>= 1; default: 4, or the
            largest k when that is more).
        forbid_alternatives: hold the model to the canonical MSS (true: score against it only, the
            default; false: the best match in the MSS family).
        source: a file of problem records, instead of a built split (path or URL: our JSONL logic
            records or a released Logic-Q-MT / QuestBench Logic-Q CSV).
        source_format: the source file's format (with source: mt-infoseek-logic, questbench-logic or
            records; default: detected).
        limit: read just the first N problems (of the source, or of the built split, which
            then builds only those; >= 1; default: all).
    """
    chosen = split_settings(check_choice("split", split, list(SPLITS)), k, max_size=max_size)
    k, max_size, builder = chosen["k"], chosen["max_size"], chosen["builder"]
    params = checked_parameters(
        builder, k=k, per_k=per_k, seed=seed, k_given=k_given, max_size=max_size,
        forbid_alternatives=forbid_alternatives, source=source, source_format=source_format,
        limit=limit)
    return mss_task("logic_mss", builder, params)
