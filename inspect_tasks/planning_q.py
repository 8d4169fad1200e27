"""Planning-Q: the single-turn protocols of QuestBench (protocols §3.4-3.6) over Blocks World
problems with a partly known initial state (`infoseek.builders.planning.planning_q`: built the
way QuestBench built its 7,500, 4-7 blocks, six goals, a state's first optimal plan as the
target (one plan per state, as published; `-T ties=plan_set`: the set of optimal plans);
"No questions needed" rows mixed in as published).

    inspect eval infoseek/planning_q --model infoseek/bfs-10
    inspect eval infoseek/planning_q_detection --model infoseek/optimal -T prompt=cot

Tasks: `planning_q` (pick the one atom to ask about, or "No questions needed"),
`planning_q_detection` (a shortest plan, or "Not sure" when an atom is missing) and
`planning_q_well_specified` (the missing atom restored: the planning ceiling). Join the
question-selection and well-specified logs with `infoseek filter QS_LOG WS_LOG`.
"""

from inspect_ai import Task, task

from infoseek.inspect_tasks.assembly import checked_parameters
from infoseek.inspect_tasks.single_turn_assembly import single_turn_task
from infoseek.inspect_tasks.task_parameters import TaskParameterError, check_choice
from infoseek.inspect_tasks.task_tags import tagged

BUILDER = "planning-q"
BUILDERS = {"plan_set": "planning-q-plan-set", "first_plan": BUILDER}
"""The builder of each `-T ties` convention (the default, first_plan, is QuestBench's)."""


def _builder(ties) -> str:
    return BUILDERS[check_choice("ties", ties, list(BUILDERS))]


def _params(per_k, seed, source, limit, ties, **extra):
    if source is not None and _builder(ties) != BUILDER:
        raise TaskParameterError(
            f"-T ties={ties} chooses how a built split is made; a source file's records "
            "carry their own convention (engine.ties): drop -T ties or -T source")
    return checked_parameters(_builder(ties), k=1, per_k=per_k, seed=seed, source=source,
                              limit=limit, **extra)


@task
@tagged("planning")
def planning_q(
    per_k: int = 100,
    seed: int = 0,
    prompt: str = "zs",
    mix_well_specified: bool = False,
    ties: str = "first_plan",
    source: str | None = None,
    limit: int | None = None,
) -> Task:
    """Question selection: pick the one atom to ask about, or "No questions needed".

    See protocols §3.4.

    Args:
        per_k: problems built per k (k = 1 only: 1-sufficient problems; >= 1; default 100; the
            published size is 7500); unused with source.
        seed: the random seed (of the builder; an integer; default 0); the four-shot examples come
            from the split of seed + 1000003, never from the evaluated problems.
        prompt: the prompting mode (zs: zero-shot; cot: zero-shot, reason step by step; fs:
            four-shot; default zs).
        mix_well_specified: add the well-specified variants, where "No questions needed"
            is the correct pick (true/false; default false; here the variants of the
            underspecified problems: the built split has its own "No questions needed" rows
            either way, as published).
        ties: a state's target value (first_plan: its first optimal plan in action-name order,
            QuestBench's one BFS plan per state; plan_set: its set of optimal plans, any of them
            a correct plan; default first_plan); only the default with source (a file's records
            carry their own convention).
        source: a file of problem records, instead of a built split (a JSONL file of our planning-q
            records, or a released QuestBench Planning-Q CSV: source format questbench-planning).
        limit: read just the first N problems (of the source, or of the built split, which
            then builds only those; >= 1; default: all).
    """
    params = _params(per_k, seed, source, limit, ties, mix_well_specified=mix_well_specified)
    return single_turn_task("planning_q", _builder(ties), "question_selection",
                            {**params, "prompt": prompt})


@task
@tagged("planning")
def planning_q_detection(
    per_k: int = 100,
    seed: int = 0,
    prompt: str = "zs",
    ties: str = "first_plan",
    source: str | None = None,
    limit: int | None = None,
) -> Task:
    """Underspecification detection: a shortest plan, or "Not sure" (protocols §3.5).

    Args:
        per_k: problems built per k (k = 1 only: 1-sufficient problems; >= 1; default 100); unused
            with source.
        seed: the random seed (of the builder; an integer; default 0); the four-shot examples come
            from the split of seed + 1000003, never from the evaluated problems.
        prompt: the prompting mode (zs: zero-shot; cot: zero-shot, reason step by step; fs:
            four-shot; default zs).
        ties: a state's target value (first_plan: its first optimal plan in action-name order,
            QuestBench's one BFS plan per state; plan_set: its set of optimal plans, any of them
            a correct plan; default first_plan); only the default with source (a file's records
            carry their own convention).
        source: a file of problem records, instead of a built split (a JSONL file of our planning-q
            records, or a released QuestBench Planning-Q CSV: source format questbench-planning).
        limit: read just the first N problems (of the source, or of the built split, which
            then builds only those; >= 1; default: all).
    """
    return single_turn_task("planning_q_detection", _builder(ties), "detection",
                            {**_params(per_k, seed, source, limit, ties), "prompt": prompt})


@task
@tagged("planning")
def planning_q_well_specified(
    per_k: int = 100,
    seed: int = 0,
    prompt: str = "zs",
    ties: str = "first_plan",
    source: str | None = None,
    limit: int | None = None,
) -> Task:
    """Well-specified planning: the missing atom restored, one sample per value (protocols §3.6).

    Args:
        per_k: problems built per k (k = 1 only: 1-sufficient problems; >= 1; default 100); unused
            with source.
        seed: the random seed (of the builder; an integer; default 0); the four-shot examples come
            from the split of seed + 1000003, never from the evaluated problems.
        prompt: the prompting mode (zs: zero-shot; cot: zero-shot, reason step by step; fs:
            four-shot; default zs).
        ties: a state's target value (first_plan: its first optimal plan in action-name order,
            QuestBench's one BFS plan per state; plan_set: its set of optimal plans, any of them
            a correct plan; default first_plan); only the default with source (a file's records
            carry their own convention).
        source: a file of problem records, instead of a built split (a JSONL file of our planning-q
            records, or a released QuestBench Planning-Q CSV: source format questbench-planning).
        limit: read just the first N problems (of the source, or of the built split, which
            then builds only those; >= 1; default: all).
    """
    return single_turn_task("planning_q_well_specified", _builder(ties), "well_specified",
                            {**_params(per_k, seed, source, limit, ties), "prompt": prompt})
