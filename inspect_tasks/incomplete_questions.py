"""Incomplete questions with a simulated user (protocols §3.7).

    inspect eval inspect_tasks/incomplete_questions.py --model infoseek/optimal
    inspect eval inspect_tasks/incomplete_questions.py --model infoseek/optimal \\
        -T seed=1 -T count=50 -T variant=full
    inspect eval inspect_tasks/incomplete_questions.py --model infoseek/optimal \\
        -T source=tests/support/fixtures/incomplete_questions.json
    inspect eval infoseek/incomplete_questions --model openai/gpt-4o -T source=q.json \\
        -T variant=raw --model-role user=openai/gpt-4o-mini --model-role judge=openai/gpt-4o
    inspect eval infoseek/incomplete_questions --model openai/gpt-4o -T source=q.json \
        -T user=free_text --model-role user=openai/gpt-4o-mini   # leaky: see the task page

Without `source` the records are built from the math story templates
(`infoseek.builders.math.incomplete_math`; `seed` and `count` choose them; cached); with `source`
they
are read from that JSON file or URL and `seed`/`count` are ignored.
"""

from inspect_ai import Task, task

from infoseek.builders.math.incomplete_math import SPEC as BUILDER
from infoseek.builders.math.released.incomplete import incomplete_records
from infoseek.inspect_tasks.assembly import source_metadata
from infoseek.inspect_tasks.task_errors import readable_data_errors
from infoseek.inspect_tasks.task_parameters import check_parameters
from infoseek.inspect_tasks.task_tags import tagged
from infoseek.inspect_tasks.versions import task_version
from infoseek.inspect_tasks.viewer import viewer_arguments
from infoseek.scorers.incomplete import incomplete_scorer
from infoseek.solvers.incomplete.game import (
    FORMATS,
    STRUCTURED,
    USER_KINDS,
    VARIANTS,
    IncompleteOptions,
)
from infoseek.solvers.incomplete.solver import incomplete_samples, incomplete_solver
from infoseek.solvers.incomplete.tools import (
    agent_message_limit,
    incomplete_agent_solver,
    incomplete_setup,
)

PLAYERS: tuple[str, ...] = ("loop", "react")
"""Who plays the episode (`-T solver=`): the built-in solver, or Inspect's `react()`."""


@task
@tagged("incomplete_questions")
def incomplete_questions(
    variant: str = "questionable",
    source: str | None = None,
    max_interactions: int = 5,
    format: str = "text",
    seed: int = 0,
    count: int = BUILDER.default_per_k,
    user: str = STRUCTURED,
    solver: str = "loop",
) -> Task:
    """Ask the simulated user for the missing condition, or answer anyway (protocols §3.7).

    Args:
        variant: which form of the question the model sees (raw: the incomplete question;
            questionable: a reply may ask one question; full: the original question; default
            questionable).
        source: a file of problem records, instead of a built split (a JSON / JSON Lines file or
            URL; default: built from the story templates).
        max_interactions: most questions the user answers in questionable (>= 0; default 5).
        format: how the model asks and answers (text: <question> tags, or tool: an ask_question
            tool, formerly ask_user; default text).
        seed: the random seed (of the built records; an integer; default 0); unused with source.
        count: number of built records (>= 1; default 200); unused with source.
        user: how a bound `user` model role answers (structured: it only picks whether the
            question asks for the missing condition and the suite writes the reply, so it
            cannot leak the answer; free_text: its own words reach the model through a leak
            filter, leaky; default structured); unused without the role.
        solver: who plays the episode (loop: the built-in solver, or react: Inspect's react()
            agent through the ask_question tool and its text replies; default loop;
            docs/tasks/common.md).
    """
    check_parameters(choices={"variant": VARIANTS, "format": FORMATS, "user": USER_KINDS,
                              "solver": PLAYERS},
                     variant=variant, source=source, max_interactions=max_interactions,
                     format=format, seed=seed, count=count, user=user, solver=solver)
    options = IncompleteOptions(variant=variant, max_interactions=max_interactions,
                                format=format, user=user)
    with readable_data_errors():
        records = incomplete_records(source, seed=seed, count=count)
    agent = solver == "react"
    return Task(
        dataset=incomplete_samples(records, options),
        setup=incomplete_setup(options),
        solver=incomplete_agent_solver(options) if agent else incomplete_solver(options),
        **({"message_limit": agent_message_limit(options)} if agent else {}),
        scorer=incomplete_scorer(),
        metadata={"report": "incomplete", **source_metadata(source, records)},
        name="incomplete_questions",
        version=task_version(BUILDER.name, BUILDER.data_version),
        **viewer_arguments("incomplete"),
    )
