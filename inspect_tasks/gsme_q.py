"""GSME-Q: the single-turn protocols of QuestBench (protocols §3.4-3.6)
over grade-school story problems shown as equations (`infoseek.builders.math.gsme_mt`, k = 1).

    inspect eval inspect_tasks/gsme_q.py@gsme_q --model infoseek/bfs-10
    inspect eval infoseek/gsme_q_detection --model infoseek/optimal -T prompt=cot

Tasks: `gsme_q` (pick the one question that settles the goal), `gsme_q_detection` (the
answer or "Not sure", over well-specified and 1-sufficient variants) and
`gsme_q_well_specified` (the missing value restored: the reasoning ceiling). Join the
question-selection and well-specified logs with `infoseek filter QS_LOG WS_LOG`.

GSM-Q (`infoseek.inspect_tasks.gsm_q`) is the same three tasks over the same problems told
as word problems: both files declare their tasks over `story_single_turn_task`, and only
the renderer differs.
"""

from typing import Any

from inspect_ai import Task, task

from infoseek.inspect_tasks.assembly import checked_parameters
from infoseek.inspect_tasks.single_turn_assembly import single_turn_task
from infoseek.inspect_tasks.task_tags import tagged

BUILDER = "gsme-mt"
"""The builder every GSME-Q and GSM-Q task reads (its 1-sufficient problems, k = 1)."""


def story_single_turn_task(name: str, protocol: str, renderer: str,
                           parameters: dict[str, Any]) -> Task:
    """The single-turn task `name` (`protocol`: question_selection, detection or
    well_specified) over the story problems, told by `renderer` (``equations`` for
    GSME-Q, ``words`` for GSM-Q), from the task function's own `-T` `parameters`."""
    given = dict(parameters)
    prompt = given.pop("prompt")
    params = checked_parameters(BUILDER, k=1, **given)
    return single_turn_task(name, BUILDER, protocol, {**params, "prompt": prompt},
                            renderer=renderer)


@task
@tagged("math")
def gsme_q(
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
    return story_single_turn_task("gsme_q", "question_selection", "equations", locals())


@task
@tagged("math")
def gsme_q_detection(
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
    return story_single_turn_task("gsme_q_detection", "detection", "equations", locals())


@task
@tagged("math")
def gsme_q_well_specified(
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
    return story_single_turn_task("gsme_q_well_specified", "well_specified", "equations", locals())
