"""GSME-Q-MT-Ext: multi-turn information seeking over generated equation-system DAGs
(`infoseek.builders.math.gsme_mt_ext`, protocols §5.3), shown as equations
(`infoseek.builders.math.gsme_text`).

    inspect eval inspect_tasks/gsme_mt_ext.py --model infoseek/optimal -T per_k=20
    inspect eval infoseek/gsme_mt_ext_full --model openai/gpt-4o -T k=[1,2]

Tasks: `gsme_mt_ext` (seek loop, world-backed oracle, numeric answers),
`gsme_mt_ext_full` (every value given: the reasoning upper bound),
`gsme_mt_ext_k_prediction` and `gsme_mt_ext_mss` (problem level).
"""

from inspect_ai import Task, task

from infoseek.builders.math.gsme_mt_ext import HARD_SPEC, SPEC
from infoseek.contract import FULL_INFORMATION_MAX_TURNS, long_turn_cap
from infoseek.domains import get_builder
from infoseek.inspect_tasks.assembly import (
    checked_parameters,
    k_prediction_task,
    mss_task,
    seek_task,
)
from infoseek.inspect_tasks.task_parameters import check_choice
from infoseek.inspect_tasks.task_tags import tagged

SPLITS = {"default": SPEC.name, "hard": HARD_SPEC.name}
"""`-T split=` of `gsme_mt_ext` -> the builder that makes it."""


@task
@tagged("math")
def gsme_mt_ext(
    k: int | list[int] | None = None,
    split: str = "default",
    per_k: int = 130,
    seed: int = 0,
    oracle: str = "world",
    format: str = "tool",
    max_turns: int | None = None,
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
        k: degrees of underspecification to include (1..6, 1..8 with split=hard; an int or
            a list; none: the split's, [1,2,3,4] or [5,6,7,8]).
        split: which split to build (hard: k = 5..8, backbone and graph depth up to 10; or the usual
            one; default default).
        per_k: problems built per k (>= 1; default 130); unused with source.
        seed: the random seed (of the builder; an integer; default 0); unused with source.
        oracle: the oracle that answers the model's questions (world: replies give the hidden
            world's value, or withholding: some quantities answered "unknown", the MSS left
            learnable; default world).
        format: how the model asks and answers (tool: ask / answer tools, or text: Question: /
            Answer: lines; default tool).
        max_turns: most turns the model gets (>= 1; none: 10, or 2k when that is more; then the
            final answer is asked for).
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
    builder = SPLITS[check_choice("split", split, list(SPLITS))]
    if k is None:
        k = list(get_builder(builder)[1].default_ks)
    if max_turns is None:
        max_turns = long_turn_cap(k)
    params = checked_parameters(builder, k=k, per_k=per_k, seed=seed, oracle=oracle,
        format=format, max_turns=max_turns, queries_per_turn=queries_per_turn, budget=budget,
        force_ask=force_ask, carry_reasoning=carry_reasoning, source=source,
        source_format=source_format, limit=limit)
    return seek_task("gsme_mt_ext", builder, params, renderer="equations",
                     unanswerable=unanswerable)


@task
@tagged("math")
def gsme_mt_ext_full(
    k: int | list[int] = [1, 2, 3, 4],
    per_k: int = 130,
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
        k: degrees of underspecification to include (1..6; an int or a list; default [1,2,3,4]).
        per_k: problems built per k (>= 1; default 130); unused with source.
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
    params = checked_parameters("gsme-mt-ext", k=k, per_k=per_k, seed=seed, format=format,
        max_turns=max_turns, carry_reasoning=carry_reasoning, source=source,
        source_format=source_format, limit=limit)
    return seek_task(
        "gsme_mt_ext_full", "gsme-mt-ext", params, renderer="equations", full_information=True)


@task
@tagged("math")
def gsme_mt_ext_k_prediction(
    k: int | list[int] = [1, 2, 3, 4],
    per_k: int = 130,
    seed: int = 0,
    source: str | None = None,
    source_format: str | None = None,
    limit: int | None = None,
) -> Task:
    """State how many more quantities are needed (protocols §3.2).

    Args:
        k: degrees of underspecification to include (1..6; an int or a list; default [1,2,3,4]).
        per_k: problems built per k (>= 1; default 130); unused with source.
        seed: the random seed (of the builder; an integer; default 0); unused with source.
        source: a file of problem records, instead of a built split (path or URL: our JSONL math
            records or a released GSME-Q-MT / GSME-Q-MT-Ext CSV).
        source_format: the source file's format (with source: mt-infoseek-gsme, mt-infoseek-gsme-ext
            or records; default: detected).
        limit: read just the first N problems (of the source, or of the built split, which
            then builds only those; >= 1; default: all).
    """
    params = checked_parameters("gsme-mt-ext", k=k, per_k=per_k, seed=seed, source=source,
        source_format=source_format, limit=limit)
    return k_prediction_task(
        "gsme_mt_ext_k_prediction", "gsme-mt-ext", params, renderer="equations")


@task
@tagged("math")
def gsme_mt_ext_mss(
    k: int | list[int] = [1, 2, 3, 4],
    per_k: int = 130,
    seed: int = 0,
    k_given: bool = False,
    max_size: int = 4,
    source: str | None = None,
    source_format: str | None = None,
    limit: int | None = None,
) -> Task:
    """Name a minimal sufficient set of quantities (protocols §3.3); any MSS of the family counts.

    Args:
        k: degrees of underspecification to include (1..6; an int or a list; default [1,2,3,4]).
        per_k: problems built per k (>= 1; default 130); unused with source.
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
    params = checked_parameters("gsme-mt-ext", k=k, per_k=per_k, seed=seed, k_given=k_given,
        max_size=max_size, source=source, source_format=source_format, limit=limit)
    return mss_task("gsme_mt_ext_mss", "gsme-mt-ext", params, renderer="equations")
