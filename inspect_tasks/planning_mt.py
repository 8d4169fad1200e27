"""Multi-turn planning: ask whether atoms of a partly observed Blocks World initial state
are true (`Question: Is (on a b) true?`), then give a shortest plan to the goal, one
action per line (`infoseek.builders.planning.planning_mt`: k = 1..4 atoms jointly needed).

    inspect eval infoseek/planning_mt --model infoseek/optimal
    inspect eval infoseek/planning_mt -T k=[3,4] -T format=text --model openai/gpt-4o

Tasks: `planning_mt` (seek loop), `planning_mt_full` (every atom of one initial state per
plan set given: the planning upper bound), `planning_mt_k_prediction` and
`planning_mt_mss` (problem level). Besides every seek metric, the `plan` scorer reports
`plan_exact` (an optimal plan of the true initial state: any of them), `plan_credit`
(edit distance to the nearest optimal plan), `plan_valid` (every action applicable).
"""

from inspect_ai import Task, task, task_with

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
from infoseek.inspect_tasks.task_tags import tagged
from infoseek.scorers.planning import plan_scorer

BUILDER = "planning-mt"


def _with_plan_scores(seek: Task) -> Task:
    return task_with(seek, scorer=[*seek.scorer, plan_scorer()])


@task
@tagged("planning")
def planning_mt(
    k: int | list[int] = [2, 3, 4],
    per_k: int = 4,
    seed: int = 0,
    oracle: str = "adversarial",
    format: str = "tool",
    max_turns: int = DEFAULT_MAX_TURNS,
    queries_per_turn: int = 1,
    budget: bool = False,
    force_ask: bool = False,
    forbid_alternatives: bool = DEFAULT_FORBID_ALTERNATIVES,
    carry_reasoning: bool = False,
    source: str | None = None,
    limit: int | None = None,
    unanswerable: float = 0.0,
    solver: str = "loop",
) -> Task:
    """Ask for missing atoms of the initial state, then give a shortest plan (protocols §3.1, 5.2).

    Args:
        k: degrees of underspecification to include (1..4; an int or a list; default [2,3,4]).
        per_k: problems built per k (>= 1; default 4; each gives one sample per possible set of
            optimal plans); unused with source.
        seed: the random seed (of the builder and the oracle; an integer; default 0).
        oracle: the oracle that answers the model's questions (adversarial, cooperative, random,
            or withholding: some atoms answered "unknown", a whole MSS left learnable; default
            adversarial).
        format: how the model asks and answers (tool: ask / answer tools, or text: Question: /
            Answer: lines; default tool).
        max_turns: most turns the model gets (>= 1; default 10; then the final answer is asked for).
        queries_per_turn: variables that may be asked in one turn (here atoms; >= 1; default 1).
        budget: state the turn and query budget in the prompt (true/false; default false).
        force_ask: reject an answer given before k questions were asked (true/false;
            default false).
        forbid_alternatives: hold the model to the canonical MSS (atoms found only in non-canonical
            MSSs may not be asked; true/false; default false).
        carry_reasoning: keep the model's earlier reasoning in the history (true/false;
            default false).
        source: a file of problem records, instead of a built split (a JSONL file of our planning-mt
            records).
        limit: read just the first N problems (of the source, or of the built split, which
            then builds only those; >= 1; default: all).
        unanswerable: the share of samples no question can settle, mixed in (a number in [0, 1);
            the model must answer "cannot be determined" on them; default 0.0: none).
        solver: who plays the episode (loop: the built-in seek loop, or react: Inspect's react()
            agent through the ask / answer tools, or its text turns; default loop;
            docs/tasks/common.md).
    """
    params = checked_parameters(
        BUILDER, k=k, per_k=per_k, seed=seed, oracle=oracle, format=format,
        max_turns=max_turns, queries_per_turn=queries_per_turn, budget=budget,
        force_ask=force_ask, forbid_alternatives=forbid_alternatives,
        carry_reasoning=carry_reasoning, source=source, limit=limit)
    return _with_plan_scores(seek_task("planning_mt", BUILDER, params,
                                       unanswerable=unanswerable, player=solver))


@task
@tagged("planning")
def planning_mt_full(
    k: int | list[int] = [2, 3, 4],
    per_k: int = 4,
    seed: int = 0,
    format: str = "tool",
    max_turns: int = FULL_INFORMATION_MAX_TURNS,
    carry_reasoning: bool = False,
    source: str | None = None,
    limit: int | None = None,
) -> Task:
    """Full information: every atom of one initial state per plan set is given; plan at once.

    Args:
        k: degrees of underspecification to include (1..4; an int or a list; default [2,3,4]).
        per_k: problems built per k (>= 1; default 4); unused with source.
        seed: the random seed (of the builder; an integer; default 0).
        format: how the model asks and answers (tool: ask / answer tools, or text: Question: /
            Answer: lines; default tool).
        max_turns: most turns the model gets (>= 1; default 1: answer at once).
        carry_reasoning: keep the model's earlier reasoning in the history (true/false;
            default false).
        source: a file of problem records, instead of a built split (a JSONL file of our planning-mt
            records).
        limit: read just the first N problems (of the source, or of the built split, which
            then builds only those; >= 1; default: all).
    """
    params = checked_parameters(BUILDER, k=k, per_k=per_k, seed=seed, format=format,
                                max_turns=max_turns, carry_reasoning=carry_reasoning,
                                source=source, limit=limit)
    return _with_plan_scores(seek_task("planning_mt_full", BUILDER, params,
                                       full_information=True))


@task
@tagged("planning")
def planning_mt_k_prediction(
    k: int | list[int] = [2, 3, 4],
    per_k: int = 4,
    seed: int = 0,
    source: str | None = None,
    limit: int | None = None,
) -> Task:
    """State how many more atoms of the initial state are needed (protocols §3.2).

    Args:
        k: degrees of underspecification to include (1..4; an int or a list; default [2,3,4]).
        per_k: problems built per k (>= 1; default 4); unused with source.
        seed: the random seed (of the builder; an integer; default 0).
        source: a file of problem records, instead of a built split (a JSONL file of our planning-mt
            records).
        limit: read just the first N problems (of the source, or of the built split, which
            then builds only those; >= 1; default: all).
    """
    params = checked_parameters(BUILDER, k=k, per_k=per_k, seed=seed, source=source,
                                limit=limit)
    return k_prediction_task("planning_mt_k_prediction", BUILDER, params)


@task
@tagged("planning")
def planning_mt_mss(
    k: int | list[int] = [2, 3, 4],
    per_k: int = 4,
    seed: int = 0,
    k_given: bool = False,
    max_size: int = 4,
    forbid_alternatives: bool = DEFAULT_FORBID_ALTERNATIVES,
    source: str | None = None,
    limit: int | None = None,
) -> Task:
    """Name a minimal sufficient set of atoms of the initial state (protocols §3.3).

    Args:
        k: degrees of underspecification to include (1..4; an int or a list; default [2,3,4]).
        per_k: problems built per k (>= 1; default 4); unused with source.
        seed: the random seed (of the builder; an integer; default 0).
        k_given: tell the model the set has exactly k variables (here atoms; true/false; default
            false: it names between 1 and max_size).
        max_size: most variables it may name when k is not given (here atoms; >= 1; default 4).
        forbid_alternatives: hold the model to the canonical MSS (score against it only; true/false;
            default false: any MSS of the family counts).
        source: a file of problem records, instead of a built split (a JSONL file of our planning-mt
            records).
        limit: read just the first N problems (of the source, or of the built split, which
            then builds only those; >= 1; default: all).
    """
    params = checked_parameters(BUILDER, k=k, per_k=per_k, seed=seed, k_given=k_given,
                                max_size=max_size, forbid_alternatives=forbid_alternatives,
                                source=source, limit=limit)
    return mss_task("planning_mt_mss", BUILDER, params)
