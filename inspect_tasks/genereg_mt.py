"""GeneReg-MT: multi-turn information seeking over Boolean gene-regulatory networks
(`infoseek.builders.genereg`): steady-state identification and dynamics (which attractor an
initial state reaches, or a marker gene's value there).

    inspect eval inspect_tasks/genereg_mt.py --model infoseek/optimal -T per_k=10
    inspect eval infoseek/genereg_mt -T family=dynamic -T target=marker --model ...
    inspect eval inspect_tasks/genereg_mt.py -T source=genereg.jsonl -T rules=networks/ ...

Tasks: `genereg_mt` (seek loop), `genereg_mt_full` (every gene given: the reasoning
upper bound), `genereg_mt_k_prediction` and `genereg_mt_mss` (problem level). `family`
and `target` pick the problem streams; `per_k` counts problems per stream and k.
"""

from typing import Any

from inspect_ai import Task, task

from infoseek.contract import (
    DEFAULT_FORBID_ALTERNATIVES,
    DEFAULT_MAX_TURNS,
    FULL_INFORMATION_MAX_TURNS,
)
from infoseek.inspect_tasks.assembly import (
    checked_parameters,
    k_prediction_task,
    mss_task,
    seek_task,
)
from infoseek.inspect_tasks.task_parameters import TaskParameterError, check_choice
from infoseek.inspect_tasks.task_tags import tagged

BUILDER = "genereg"
FAMILIES = {"steady": ("steady",), "dynamic": ("dynamic",), "both": ("steady", "dynamic")}
TARGETS = {"attractor": ("attractor",), "marker": ("marker",),
           "both": ("attractor", "marker")}


def stream_filter(family: Any, target: Any):
    """A record filter for `-T family=` and `-T target=` (a one-line error otherwise)."""
    family = check_choice("family", family, tuple(FAMILIES))
    target = check_choice("target", target, tuple(TARGETS))
    families, targets = FAMILIES[family], TARGETS[target]
    if families == ("steady",) and targets == ("marker",):
        raise TaskParameterError("-T family=steady has attractor targets only; use "
                                 "target=attractor or target=both")

    def keep(record: dict[str, Any]) -> bool:
        return record.get("family") in families and record.get("target_type") in targets

    return keep


@task
@tagged("genereg")
def genereg_mt(
    k: int | list[int] = [1, 2, 3, 4],
    per_k: int = 100,
    seed: int = 0,
    family: str = "both",
    target: str = "both",
    oracle: str = "adversarial",
    format: str = "tool",
    max_turns: int = DEFAULT_MAX_TURNS,
    queries_per_turn: int = 1,
    budget: bool = False,
    force_ask: bool = False,
    forbid_alternatives: bool = DEFAULT_FORBID_ALTERNATIVES,
    carry_reasoning: bool = False,
    source: str | None = None,
    source_format: str | None = None,
    limit: int | None = None,
    rules: str | None = None,
    unanswerable: float = 0.0,
    solver: str = "loop",
) -> Task:
    """Ask for missing gene values, then name the attractor or the marker value.

    See protocols §3.1, 5.4.

    Args:
        k: degrees of underspecification to include (1..4; an int or a list; default [1,2,3,4]).
        per_k: problems built per k (and per stream; >= 1; default 100); unused with source.
        seed: the random seed (of the builder and the oracle; an integer; default 0).
        family: which problem streams to include (steady: steady states; dynamic: initial state ->
            attractor; or both; default both).
        target: which targets to ask for (attractor: its id; marker: a marker gene's value, dynamic
            only; or both; default both).
        oracle: the oracle that answers the model's questions (adversarial, cooperative, random,
            or withholding: some genes answered "unknown", a whole MSS left learnable; default
            adversarial).
        format: how the model asks and answers (tool: ask / answer tools, or text: Question: /
            Answer: lines; default tool).
        max_turns: most turns the model gets (>= 1; default 10; then the final answer is asked for).
        queries_per_turn: variables that may be asked in one turn (here genes; >= 1; default 1).
        budget: state the turn and query budget in the prompt (true/false; default false).
        force_ask: reject an answer given before k questions were asked (true/false;
            default false).
        forbid_alternatives: hold the model to the canonical MSS (genes found only in non-canonical
            MSSs may not be asked; true/false; default false).
        carry_reasoning: keep the model's earlier reasoning in the history (true/false;
            default false).
        source: a file of problem records, instead of a built split (a JSONL file of our genereg
            records, or a released MT-InfoSeek GeneReg file with rules).
        source_format: the source file's format (with source; default: detected).
        limit: read just the first N problems (of the source, or of the built split, which
            then builds only those; >= 1; default: all).
        rules: with a released source: the folder of rule files its rows name
            (<model>.txt); default none.
        unanswerable: the share of samples no question can settle, mixed in (a number in [0, 1);
            the model must answer "cannot be determined" on them; default 0.0: none).
        solver: who plays the episode (loop: the built-in seek loop, or react: Inspect's react()
            agent through the ask / answer tools, or its text turns; default loop;
            docs/tasks/common.md).
    """
    keep = stream_filter(family, target)
    params = checked_parameters(
        BUILDER, k=k, per_k=per_k, seed=seed, oracle=oracle, format=format,
        max_turns=max_turns, queries_per_turn=queries_per_turn, budget=budget,
        force_ask=force_ask, forbid_alternatives=forbid_alternatives,
        carry_reasoning=carry_reasoning, source=source, source_format=source_format,
        limit=limit, rules=rules)
    return seek_task("genereg_mt", BUILDER, {**params, "select": keep},
                     unanswerable=unanswerable, player=solver)


@task
@tagged("genereg")
def genereg_mt_full(
    k: int | list[int] = [1, 2, 3, 4],
    per_k: int = 100,
    seed: int = 0,
    family: str = "both",
    target: str = "both",
    format: str = "tool",
    max_turns: int = FULL_INFORMATION_MAX_TURNS,
    carry_reasoning: bool = False,
    source: str | None = None,
    source_format: str | None = None,
    limit: int | None = None,
    rules: str | None = None,
) -> Task:
    """Full information: every gene is given (one world per target value); answer at once.

    Args:
        k: degrees of underspecification to include (1..4; an int or a list; default [1,2,3,4]).
        per_k: problems built per k (and per stream; >= 1; default 100); unused with source.
        seed: the random seed (of the builder; an integer; default 0).
        family: which problem streams to include (steady, dynamic or both; default both).
        target: which targets to ask for (attractor; marker, dynamic only; or both; default both).
        format: how the model asks and answers (tool: ask / answer tools, or text: Question: /
            Answer: lines; default tool).
        max_turns: most turns the model gets (>= 1; default 1: answer at once).
        carry_reasoning: keep the model's earlier reasoning in the history (true/false;
            default false).
        source: a file of problem records, instead of a built split (a JSONL file of our genereg
            records, or a released MT-InfoSeek GeneReg file with rules).
        source_format: the source file's format (with source; default: detected).
        limit: read just the first N problems (of the source, or of the built split, which
            then builds only those; >= 1; default: all).
        rules: with a released source: the folder of rule files its rows name
            (<model>.txt); default none.
    """
    keep = stream_filter(family, target)
    params = checked_parameters(
        BUILDER, k=k, per_k=per_k, seed=seed, format=format, max_turns=max_turns,
        carry_reasoning=carry_reasoning, source=source, source_format=source_format,
        limit=limit, rules=rules)
    return seek_task("genereg_mt_full", BUILDER, {**params, "select": keep},
                     full_information=True)


@task
@tagged("genereg")
def genereg_mt_k_prediction(
    k: int | list[int] = [1, 2, 3, 4],
    per_k: int = 100,
    seed: int = 0,
    family: str = "both",
    target: str = "both",
    source: str | None = None,
    source_format: str | None = None,
    limit: int | None = None,
    rules: str | None = None,
) -> Task:
    """State how many more gene values are needed (protocols §3.2).

    Args:
        k: degrees of underspecification to include (1..4; an int or a list; default [1,2,3,4]).
        per_k: problems built per k (and per stream; >= 1; default 100); unused with source.
        seed: the random seed (of the builder; an integer; default 0).
        family: which problem streams to include (steady, dynamic or both; default both).
        target: which targets to ask for (attractor; marker, dynamic only; or both; default both).
        source: a file of problem records, instead of a built split (a JSONL file of our genereg
            records, or a released MT-InfoSeek GeneReg file with rules).
        source_format: the source file's format (with source; default: detected).
        limit: read just the first N problems (of the source, or of the built split, which
            then builds only those; >= 1; default: all).
        rules: with a released source: the folder of rule files its rows name
            (<model>.txt); default none.
    """
    keep = stream_filter(family, target)
    params = checked_parameters(BUILDER, k=k, per_k=per_k, seed=seed, source=source,
                                source_format=source_format, limit=limit, rules=rules)
    return k_prediction_task("genereg_mt_k_prediction", BUILDER, {**params, "select": keep})


@task
@tagged("genereg")
def genereg_mt_mss(
    k: int | list[int] = [1, 2, 3, 4],
    per_k: int = 100,
    seed: int = 0,
    family: str = "both",
    target: str = "both",
    k_given: bool = False,
    max_size: int = 4,
    forbid_alternatives: bool = DEFAULT_FORBID_ALTERNATIVES,
    source: str | None = None,
    source_format: str | None = None,
    limit: int | None = None,
    rules: str | None = None,
) -> Task:
    """Name a minimal sufficient set of genes (protocols §3.3).

    Args:
        k: degrees of underspecification to include (1..4; an int or a list; default [1,2,3,4]).
        per_k: problems built per k (and per stream; >= 1; default 100); unused with source.
        seed: the random seed (of the builder; an integer; default 0).
        family: which problem streams to include (steady, dynamic or both; default both).
        target: which targets to ask for (attractor; marker, dynamic only; or both; default both).
        k_given: tell the model the set has exactly k variables (here genes; true/false; default
            false).
        max_size: most variables it may name when k is not given (here genes; >= 1; default 4).
        forbid_alternatives: hold the model to the canonical MSS (only it counts and genes found
            only in other MSSs are not offered; true/false; default false: any MSS of the family
            counts).
        source: a file of problem records, instead of a built split (a JSONL file of our genereg
            records, or a released MT-InfoSeek GeneReg file with rules).
        source_format: the source file's format (with source; default: detected).
        limit: read just the first N problems (of the source, or of the built split, which
            then builds only those; >= 1; default: all).
        rules: with a released source: the folder of rule files its rows name
            (<model>.txt); default none.
    """
    keep = stream_filter(family, target)
    params = checked_parameters(BUILDER, k=k, per_k=per_k, seed=seed, k_given=k_given,
                                max_size=max_size, forbid_alternatives=forbid_alternatives,
                                source=source, source_format=source_format, limit=limit,
                                rules=rules)
    return mss_task("genereg_mt_mss", BUILDER, {**params, "select": keep})
