"""Twenty Questions (protocols §5.6): the open game over the project's pools, and the
attribute table as a CSP for k-prediction and MSS identification.

    inspect eval inspect_tasks/twenty_questions.py --model infoseek/optimal
    inspect eval infoseek/twenty_questions --model openai/gpt-4o -T pool=thing \\
        --model-role examiner=openai/gpt-4o-mini --model-role evaluator=openai/gpt-4o-mini \\
        --model-role transfer=openai/gpt-4o
    inspect eval infoseek/twenty_questions_k_prediction --model infoseek/optimal

Tasks: `twenty_questions` (the game: free-text yes/no questions, a final guess, an
examiner, an offline evaluator, trace transfer; one sample per target of the pool),
`twenty_questions_k_prediction` and `twenty_questions_mss` (problem level, over CSP
problems drawn from the common pool: some attributes of X revealed, k more needed).
"""


from inspect_ai import Task, task
from inspect_ai.dataset import Sample

from infoseek.builders.twenty_questions import builder
from infoseek.builders.twenty_questions.pools import POOL_NAMES
from infoseek.inspect_tasks.assembly import (
    checked_parameters,
    k_prediction_task,
    mss_task,
)
from infoseek.inspect_tasks.task_parameters import check_parameters
from infoseek.inspect_tasks.versions import task_version
from infoseek.scorers.twenty_questions import twenty_questions_scorer
from infoseek.solvers.dataset import memory_dataset
from infoseek.solvers.twenty_questions.game import (
    LABEL_BATCH,
    MAX_TURNS,
    TwentyQuestionsOptions,
)
from infoseek.solvers.twenty_questions.solver import twenty_questions_solver
from infoseek.stored_forms import metadata_problem


def game_samples(pool: str) -> list[Sample]:
    """One sample per target of `pool`; the record (hidden target included) rides in the
    metadata, the solver writes the prompt itself."""
    return [Sample(id=r["id"], input=f"Twenty Questions over the {pool} pool.",
                   target=r["answer"], metadata={"problem": metadata_problem(r), "pool": pool})
            for r in builder.game_records(pool)]


@task
def twenty_questions(
    pool: str = "common",
    max_turns: int = MAX_TURNS,
    label_batch: int = LABEL_BATCH,
    seed: int = 0,
) -> Task:
    """Find the hidden thing with yes/no questions, then guess it (protocols §5.6).

    Args:
        pool: which targets and candidates the game uses (common: 111 targets scored over 388
            candidates; thing: 194 targets, pool = targets; default common).
        max_turns: most turns the model gets (>= 1; default 20; the last one a guess).
        label_batch: candidates per evaluator call when an evaluator model labels the
            questions (>= 1; default 25).
        seed: the random seed (recorded in the options; the game records do not depend on it;
            default 0).
    """
    check_parameters(choices={"pool": POOL_NAMES}, pool=pool, max_turns=max_turns,
                     label_batch=label_batch, seed=seed)
    options = TwentyQuestionsOptions(max_turns=max_turns, label_batch=label_batch, seed=seed)
    return Task(dataset=memory_dataset(game_samples(pool), f"twenty_questions_{pool}"),
                solver=twenty_questions_solver(options),
                metadata={"report": "twenty_questions"},
                scorer=twenty_questions_scorer(), name="twenty_questions",
                version=task_version(builder.SPEC.name, builder.SPEC.data_version))


@task
def twenty_questions_k_prediction(
    k: int | list[int] = [1, 2, 3, 4],
    per_k: int = 10,
    seed: int = 0,
) -> Task:
    """State how many more attributes of X are needed before the candidates left are
    down to one (protocols §3.2).

    Args:
        k: degrees of underspecification to include (1..4; an int or a list; default [1,2,3,4]).
        per_k: problems built per k (CSP problems; >= 1; default 10).
        seed: the random seed (of the builder; an integer; default 0).
    """
    params = checked_parameters(builder.SPEC.name, k=k, per_k=per_k, seed=seed)
    return k_prediction_task("twenty_questions_k_prediction", builder.SPEC.name, params)


@task
def twenty_questions_mss(
    k: int | list[int] = [1, 2, 3, 4],
    per_k: int = 10,
    seed: int = 0,
    k_given: bool = False,
    max_size: int = 4,
) -> Task:
    """Name a smallest set of attributes whose values settle which candidate X is
    (protocols §3.3); any set of the MSS family counts.

    Args:
        k: degrees of underspecification to include (1..4; an int or a list; default [1,2,3,4]).
        per_k: problems built per k (CSP problems; >= 1; default 10).
        seed: the random seed (of the builder; an integer; default 0).
        k_given: tell the model the set has exactly k variables (here attributes; true/false;
            default false: it names between 1 and max_size).
        max_size: most variables it may name when k is not given (here attributes; >= 1; default 4).
    """
    params = checked_parameters(builder.SPEC.name, k=k, per_k=per_k, seed=seed,
                                k_given=k_given, max_size=max_size)
    return mss_task("twenty_questions_mss", builder.SPEC.name, params)
