"""Logic-Q-MT MSS identification: name a minimal sufficient set (SPEC 3.3)."""

from inspect_ai import Task, task

from infoseek.contract import LOGIC_FORBID_ALTERNATIVES
from infoseek.inspect_tasks.assembly import checked_parameters, mss_task


@task
def logic_mss(
    k: int | list[int] = [1, 2, 3, 4],
    per_k: int = 200,
    seed: int = 0,
    k_given: bool = False,
    max_size: int = 4,
    forbid_alternatives: bool = LOGIC_FORBID_ALTERNATIVES,
    source: str | None = None,
    source_format: str | None = None,
    limit: int | None = None,
) -> Task:
    """Name a minimal sufficient set of attributes (SPEC 3.3).

    Args:
        k: degrees of underspecification to include (1..5; an int or a list; default [1,2,3,4]).
        per_k: problems built per k (>= 1; default 200); unused with source.
        seed: builder seed (an integer; default 0); unused with source.
        k_given: tell the model the set has exactly k variables (true/false; default
            false: it names between 1 and max_size).
        max_size: most variables it may name when k is not given (>= 1; default 4).
        forbid_alternatives: score against the canonical MSS only (true, default) or the best
            match in the MSS family (false).
        source: our JSONL logic records or a released Logic-Q-MT / QuestBench Logic-Q CSV
            (path or URL), instead of a built split.
        source_format: with source: mt-infoseek-logic, questbench-logic or records
            (default: detected).
        limit: with source only: read just the first N problems of the file (>= 1; default: all).
    """
    params = checked_parameters(
        "logic-mt", k=k, per_k=per_k, seed=seed, k_given=k_given, max_size=max_size,
        forbid_alternatives=forbid_alternatives, source=source, source_format=source_format,
        limit=limit)
    return mss_task("logic_mss", "logic-mt", params)
