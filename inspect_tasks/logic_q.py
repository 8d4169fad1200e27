"""Logic-Q: the single-turn protocols of QuestBench (protocols §3.4-3.6)
over Horn-logic problems about one person's attributes (`infoseek.builders.logic.logic_q`: k = 1,
one sufficient attribute planted at backward-search depth 1-12).

    inspect eval inspect_tasks/logic_q.py@logic_q --model infoseek/bfs-10
    inspect eval infoseek/logic_q_detection --model infoseek/optimal -T prompt=cot

Tasks: `logic_q` (pick the one question that settles the goal), `logic_q_detection` (the
answer or "Not sure", over well-specified and 1-sufficient variants) and
`logic_q_well_specified` (the missing value restored: the reasoning ceiling). Join the
question-selection and well-specified logs with `infoseek filter QS_LOG WS_LOG`.
"""

from inspect_ai import Task, task

from infoseek.inspect_tasks.assembly import checked_parameters
from infoseek.inspect_tasks.single_turn_assembly import single_turn_task
from infoseek.inspect_tasks.task_tags import tagged


def _params(per_k, seed, source, source_format, limit):
    return checked_parameters("logic-q", k=1, per_k=per_k, seed=seed, source=source,
                              source_format=source_format, limit=limit)


@task
@tagged("logic")
def logic_q(
    per_k: int = 200,
    seed: int = 0,
    prompt: str = "zs",
    mix_well_specified: bool = False,
    source: str | None = None,
    source_format: str | None = None,
    limit: int | None = None,
) -> Task:
    """Question selection: pick the one attribute to ask for, or "No questions needed".

    See protocols §3.4.

    Args:
        per_k: problems built per k (k = 1 only: 1-sufficient problems; >= 1; default 200); unused
            with source.
        seed: the random seed (of the builder; an integer; default 0); the four-shot examples come
            from the split of seed + 1000003, never from the evaluated problems.
        prompt: the prompting mode (zs: zero-shot; cot: zero-shot, reason step by step; fs:
            four-shot; default zs).
        mix_well_specified: add the well-specified variants, where "No questions needed"
            is the correct pick (true/false; default false).
        source: a file of problem records, instead of a built split (path or URL: our JSONL logic
            records or a released QuestBench Logic-Q / Logic-Q-MT CSV, k = 1 rows).
        source_format: the source file's format (with source: questbench-logic, mt-infoseek-logic or
            records; default: detected).
        limit: read just the first N problems (of the source, or of the built split, which
            then builds only those; >= 1; default: all).
    """
    params = checked_parameters("logic-q", k=1, per_k=per_k, seed=seed, source=source,
                                source_format=source_format, limit=limit,
                                mix_well_specified=mix_well_specified)
    return single_turn_task("logic_q", "logic-q", "question_selection",
                            {**params, "prompt": prompt}, renderer="seek")


@task
@tagged("logic")
def logic_q_detection(
    per_k: int = 200,
    seed: int = 0,
    prompt: str = "zs",
    source: str | None = None,
    source_format: str | None = None,
    limit: int | None = None,
) -> Task:
    """Underspecification detection: the answer, or "Not sure" when a fact is missing.

    See protocols §3.5.

    Args:
        per_k: problems built per k (k = 1 only: 1-sufficient problems; >= 1; default 200); unused
            with source.
        seed: the random seed (of the builder; an integer; default 0); the four-shot examples come
            from the split of seed + 1000003, never from the evaluated problems.
        prompt: the prompting mode (zs: zero-shot; cot: zero-shot, reason step by step; fs:
            four-shot; default zs).
        source: a file of problem records, instead of a built split (path or URL: our JSONL logic
            records or a released QuestBench Logic-Q / Logic-Q-MT CSV, k = 1 rows).
        source_format: the source file's format (with source: questbench-logic, mt-infoseek-logic or
            records; default: detected).
        limit: read just the first N problems (of the source, or of the built split, which
            then builds only those; >= 1; default: all).
    """
    params = _params(per_k, seed, source, source_format, limit)
    return single_turn_task("logic_q_detection", "logic-q", "detection",
                            {**params, "prompt": prompt}, renderer="seek")


@task
@tagged("logic")
def logic_q_well_specified(
    per_k: int = 200,
    seed: int = 0,
    prompt: str = "zs",
    source: str | None = None,
    source_format: str | None = None,
    limit: int | None = None,
) -> Task:
    """Well-specified solving: the missing value restored, one sample per value (protocols §3.6).

    Args:
        per_k: problems built per k (k = 1 only: 1-sufficient problems; >= 1; default 200); unused
            with source.
        seed: the random seed (of the builder; an integer; default 0); the four-shot examples come
            from the split of seed + 1000003, never from the evaluated problems.
        prompt: the prompting mode (zs: zero-shot; cot: zero-shot, reason step by step; fs:
            four-shot; default zs).
        source: a file of problem records, instead of a built split (path or URL: our JSONL logic
            records or a released QuestBench Logic-Q / Logic-Q-MT CSV, k = 1 rows).
        source_format: the source file's format (with source: questbench-logic, mt-infoseek-logic or
            records; default: detected).
        limit: read just the first N problems (of the source, or of the built split, which
            then builds only those; >= 1; default: all).
    """
    params = _params(per_k, seed, source, source_format, limit)
    return single_turn_task("logic_q_well_specified", "logic-q", "well_specified",
                            {**params, "prompt": prompt}, renderer="seek")
