"""GSM-Q: the single-turn protocols of QuestBench (protocols §3.4-3.6)
over the GSME-Q story problems told as word problems (`infoseek.builders.math.gsm_text`, k = 1).

    inspect eval inspect_tasks/gsm_q.py@gsm_q --model infoseek/bfs-10
    inspect eval infoseek/gsm_q_detection --model infoseek/optimal -T prompt=cot

Tasks: `gsm_q` (pick the one question that settles the goal), `gsm_q_detection` (the
answer or "Not sure", over well-specified and 1-sufficient variants) and
`gsm_q_well_specified` (the missing value restored: the reasoning ceiling). Join the
question-selection and well-specified logs with `infoseek filter QS_LOG WS_LOG`.

The GSME-Q tasks told in words: the logic is `infoseek.inspect_tasks.gsme_q`'s
(`story_single_turn_task`); this file declares the tasks, so that
`inspect eval inspect_tasks/gsm_q.py` finds them.
"""

from inspect_ai import Task, task

from infoseek.inspect_tasks.gsme_q import story_single_turn_task
from infoseek.inspect_tasks.task_tags import tagged


@task
@tagged("math")
def gsm_q(
    per_k: int = 100,
    seed: int = 0,
    prompt: str = "zs",
    mix_well_specified: bool = False,
    source: str | None = None,
    source_format: str | None = None,
    limit: int | None = None,
) -> Task:
    """Question selection: pick the one quantity to ask for, or "No questions needed".

    See protocols §3.4.

    Args:
        per_k: problems built per k (k = 1 only: 1-sufficient problems; >= 1; default 100); unused
            with source.
        seed: the random seed (of the builder; an integer; default 0); the four-shot examples come
            from the split of seed + 1000003, never from the evaluated problems.
        prompt: the prompting mode (zs: zero-shot; cot: zero-shot, reason step by step; fs:
            four-shot; default zs).
        mix_well_specified: add the well-specified variants, where "No questions needed"
            is the correct pick (true/false; default false).
        source: a file of problem records, instead of a built split (path or URL: our JSONL math
            records, a released GSME-Q-MT CSV (k = 1 rows), or a QuestBench GSM-Q or GSME-Q CSV).
        source_format: the source file's format (with source: mt-infoseek-gsme, questbench-gsm or
            records; default: detected).
        limit: read just the first N problems (of the source, or of the built split, which
            then builds only those; >= 1; default: all).
    """
    return story_single_turn_task("gsm_q", "question_selection", "words", locals())


@task
@tagged("math")
def gsm_q_detection(
    per_k: int = 100,
    seed: int = 0,
    prompt: str = "zs",
    source: str | None = None,
    source_format: str | None = None,
    limit: int | None = None,
) -> Task:
    """Underspecification detection: the answer, or "Not sure" when a fact is missing.

    See protocols §3.5.

    Args:
        per_k: problems built per k (k = 1 only: 1-sufficient problems; >= 1; default 100); unused
            with source.
        seed: the random seed (of the builder; an integer; default 0); the four-shot examples come
            from the split of seed + 1000003, never from the evaluated problems.
        prompt: the prompting mode (zs: zero-shot; cot: zero-shot, reason step by step; fs:
            four-shot; default zs).
        source: a file of problem records, instead of a built split (path or URL: our JSONL math
            records, a released GSME-Q-MT CSV (k = 1 rows), or a QuestBench GSM-Q or GSME-Q CSV).
        source_format: the source file's format (with source: mt-infoseek-gsme, questbench-gsm or
            records; default: detected).
        limit: read just the first N problems (of the source, or of the built split, which
            then builds only those; >= 1; default: all).
    """
    return story_single_turn_task("gsm_q_detection", "detection", "words", locals())


@task
@tagged("math")
def gsm_q_well_specified(
    per_k: int = 100,
    seed: int = 0,
    prompt: str = "zs",
    source: str | None = None,
    source_format: str | None = None,
    limit: int | None = None,
) -> Task:
    """Well-specified solving: the missing value restored, one sample per value (protocols §3.6).

    Args:
        per_k: problems built per k (k = 1 only: 1-sufficient problems; >= 1; default 100); unused
            with source.
        seed: the random seed (of the builder; an integer; default 0); the four-shot examples come
            from the split of seed + 1000003, never from the evaluated problems.
        prompt: the prompting mode (zs: zero-shot; cot: zero-shot, reason step by step; fs:
            four-shot; default zs).
        source: a file of problem records, instead of a built split (path or URL: our JSONL math
            records, a released GSME-Q-MT CSV (k = 1 rows), or a QuestBench GSM-Q or GSME-Q CSV).
        source_format: the source file's format (with source: mt-infoseek-gsme, questbench-gsm or
            records; default: detected).
        limit: read just the first N problems (of the source, or of the built split, which
            then builds only those; >= 1; default: all).
    """
    return story_single_turn_task("gsm_q_well_specified", "well_specified", "words", locals())
