"""GSME-Q-MT: multi-turn information seeking over grade-school story templates
(`infoseek.builders.math.gsme_mt`), shown as equations (`infoseek.builders.math.gsme_text`).

    inspect eval inspect_tasks/gsme_mt.py --model infoseek/optimal -T per_k=20

Tasks: `gsme_mt` (seek loop, world-backed oracle, numeric answers), `gsme_mt_full`
(every value given: the reasoning upper bound), `gsme_mt_k_prediction` and `gsme_mt_mss`
(problem level).

GSM-Q-MT (`infoseek.inspect_tasks.gsm_mt`) is the seek pair over the same problems told as
word problems: both files declare their seek tasks over `story_seek_task`, and only the
renderer differs.
"""

from typing import Any

from inspect_ai import Task, task

from infoseek.contract import DEFAULT_MAX_TURNS, FULL_INFORMATION_MAX_TURNS
from infoseek.inspect_tasks.assembly import (
    checked_parameters,
    k_prediction_task,
    mss_task,
    seek_task,
)
from infoseek.inspect_tasks.task_tags import tagged

BUILDER = "gsme-mt"
"""The builder every GSME-Q-MT and GSM-Q-MT task reads."""


def story_seek_task(name: str, renderer: str, parameters: dict[str, Any], *,
                    full_information: bool = False) -> Task:
    """The seek task `name` over the story problems, told by `renderer` (``equations`` for
    GSME-Q-MT, ``words`` for GSM-Q-MT), from the task function's own `-T` `parameters`;
    `full_information`: every held-out value given (`assembly.seek_task`)."""
    parameters = dict(parameters)
    unanswerable = parameters.pop("unanswerable", 0.0)
    params = checked_parameters(BUILDER, **parameters)
    return seek_task(name, BUILDER, params, renderer=renderer,
                     full_information=full_information, unanswerable=unanswerable)


@task
@tagged("math")
def gsme_mt(
    k: int | list[int] = [1, 2, 3, 4],
    per_k: int = 100,
    seed: int = 0,
    oracle: str = "world",
    format: str = "tool",
    max_turns: int = DEFAULT_MAX_TURNS,
    queries_per_turn: int = 1,
    budget: bool = False,
    force_ask: bool = False,
    carry_reasoning: bool = False,
    source: str | None = None,
    source_format: str | None = None,
    limit: int | None = None,
    unanswerable: float = 0.0,
) -> Task:
    """Seek the missing quantities, then answer with a number (protocols §3.1, 5.3).

    Args:
        k: degrees of underspecification to include (1..4; an int or a list; default [1,2,3,4]).
        per_k: problems built per k (>= 1; default 100); unused with source.
        seed: the random seed (of the builder; an integer; default 0); unused with source.
        oracle: the oracle that answers the model's questions (world: replies give the hidden
            world's value, or withholding: some quantities answered "unknown", the MSS left
            learnable; default world).
        format: how the model asks and answers (tool: ask / answer tools, or text: Question: /
            Answer: lines; default tool).
        max_turns: most turns the model gets (>= 1; default 10; then the final answer is asked for).
        queries_per_turn: variables that may be asked in one turn (here quantities; >= 1; default
            1).
        budget: state the turn and query budget in the prompt (true/false; default false).
        force_ask: reject an answer given before k questions were asked (true/false;
            default false).
        carry_reasoning: keep the model's earlier reasoning in the history (true/false;
            default false).
        source: a file of problem records, instead of a built split (path or URL: our JSONL math
            records or a released GSME-Q-MT / GSME-Q-MT-Ext CSV).
        source_format: the source file's format (with source: mt-infoseek-gsme, mt-infoseek-gsme-ext
            or records; default: detected).
        limit: read just the first N problems (of the source, or of the built split, which
            then builds only those; >= 1; default: all).
        unanswerable: the share of samples no question can settle, mixed in (a number in [0, 1);
            the model must answer "cannot be determined" on them; default 0.0: none).
    """
    return story_seek_task("gsme_mt", "equations", locals())


@task
@tagged("math")
def gsme_mt_full(
    k: int | list[int] = [1, 2, 3, 4],
    per_k: int = 100,
    seed: int = 0,
    format: str = "tool",
    max_turns: int = FULL_INFORMATION_MAX_TURNS,
    carry_reasoning: bool = False,
    source: str | None = None,
    source_format: str | None = None,
    limit: int | None = None,
) -> Task:
    """Full information: every held-out value is revealed; the model answers at once.

    Args:
        k: degrees of underspecification to include (1..4; an int or a list; default [1,2,3,4]).
        per_k: problems built per k (>= 1; default 100); unused with source.
        seed: the random seed (of the builder; an integer; default 0); unused with source.
        format: how the model asks and answers (tool: ask / answer tools, or text: Question: /
            Answer: lines; default tool).
        max_turns: most turns the model gets (>= 1; default 1: answer at once).
        carry_reasoning: keep the model's earlier reasoning in the history (true/false;
            default false).
        source: a file of problem records, instead of a built split (path or URL: our JSONL math
            records or a released GSME-Q-MT / GSME-Q-MT-Ext CSV).
        source_format: the source file's format (with source: mt-infoseek-gsme, mt-infoseek-gsme-ext
            or records; default: detected).
        limit: read just the first N problems (of the source, or of the built split, which
            then builds only those; >= 1; default: all).
    """
    return story_seek_task("gsme_mt_full", "equations", locals(), full_information=True)


@task
@tagged("math")
def gsme_mt_k_prediction(
    k: int | list[int] = [1, 2, 3, 4],
    per_k: int = 100,
    seed: int = 0,
    source: str | None = None,
    source_format: str | None = None,
    limit: int | None = None,
) -> Task:
    """State how many more quantities are needed (protocols §3.2).

    Args:
        k: degrees of underspecification to include (1..4; an int or a list; default [1,2,3,4]).
        per_k: problems built per k (>= 1; default 100); unused with source.
        seed: the random seed (of the builder; an integer; default 0); unused with source.
        source: a file of problem records, instead of a built split (path or URL: our JSONL math
            records or a released GSME-Q-MT / GSME-Q-MT-Ext CSV).
        source_format: the source file's format (with source: mt-infoseek-gsme, mt-infoseek-gsme-ext
            or records; default: detected).
        limit: read just the first N problems (of the source, or of the built split, which
            then builds only those; >= 1; default: all).
    """
    params = checked_parameters(BUILDER, k=k, per_k=per_k, seed=seed, source=source,
        source_format=source_format, limit=limit)
    return k_prediction_task("gsme_mt_k_prediction", BUILDER, params, renderer="equations")


@task
@tagged("math")
def gsme_mt_mss(
    k: int | list[int] = [1, 2, 3, 4],
    per_k: int = 100,
    seed: int = 0,
    k_given: bool = False,
    max_size: int = 4,
    source: str | None = None,
    source_format: str | None = None,
    limit: int | None = None,
) -> Task:
    """Name a minimal sufficient set of quantities (protocols §3.3); any MSS of the family counts.

    Args:
        k: degrees of underspecification to include (1..4; an int or a list; default [1,2,3,4]).
        per_k: problems built per k (>= 1; default 100); unused with source.
        seed: the random seed (of the builder; an integer; default 0); unused with source.
        k_given: tell the model the set has exactly k variables (here quantities; true/false;
            default false: it names between 1 and max_size).
        max_size: most variables it may name when k is not given (here quantities; >= 1; default 4).
        source: a file of problem records, instead of a built split (path or URL: our JSONL math
            records or a released GSME-Q-MT / GSME-Q-MT-Ext CSV).
        source_format: the source file's format (with source: mt-infoseek-gsme, mt-infoseek-gsme-ext
            or records; default: detected).
        limit: read just the first N problems (of the source, or of the built split, which
            then builds only those; >= 1; default: all).
    """
    params = checked_parameters(BUILDER, k=k, per_k=per_k, seed=seed, k_given=k_given,
        max_size=max_size, source=source, source_format=source_format, limit=limit)
    return mss_task("gsme_mt_mss", BUILDER, params, renderer="equations")
