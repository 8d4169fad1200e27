"""ClinGuide-MT: ordered diagnostic pathways over the project's guideline trees.

    inspect eval inspect_tasks/clinguide_mt.py --model infoseek/optimal
    inspect eval infoseek/clinguide_mt --model openai/gpt-4o -T distractors=20 -T book=open
    inspect eval infoseek/clinguide_mt_k_prediction --model infoseek/optimal

Tasks: `clinguide_mt` (seek loop), `clinguide_mt_k_prediction` and `clinguide_mt_mss`
(problem level). A problem's MSS family is one set, its hidden variables (the builder
keeps only such pathways), so MSS identification names that set; the order it is asked
in is scored by the seek task (`order_correctness`), not here.
"""

from typing import Any

from inspect_ai import Task, task, task_with

from infoseek.contract import DEFAULT_MAX_TURNS
from infoseek.inspect_tasks.assembly import (
    checked_parameters,
    k_prediction_task,
    mss_task,
    samples_dataset,
    seek_task,
)
from infoseek.inspect_tasks.task_parameters import check_choice
from infoseek.inspect_tasks.task_tags import tagged
from infoseek.scorers.ordered import order_strata_scorer
from infoseek.stored_forms import sample_problem

DISTRACTOR_LEVELS = (0, 10, 20)
BOOKS = {"closed": "seek", "open": "open"}


def checked_view(distractors: Any, book: Any) -> str:
    """The renderer for `-T book=` once `-T distractors=` and `book` are checked (a
    one-line error otherwise)."""
    check_choice("distractors", distractors, DISTRACTOR_LEVELS)
    return BOOKS[check_choice("book", book, tuple(BOOKS))]


def at_level(distractors: int):
    """A record filter keeping the problems offered with `distractors` distractors."""
    return lambda record: record.get("distractors") == distractors


@task
@tagged("clinguide")
def clinguide_mt(
    k: int | list[int] = [1, 2, 3, 4],
    distractors: int = 0,
    book: str = "closed",
    per_k: int = 1000,
    seed: int = 0,
    oracle: str = "adversarial",
    format: str = "tool",
    max_turns: int = DEFAULT_MAX_TURNS,
    queries_per_turn: int = 1,
    budget: bool = False,
    force_ask: bool = False,
    carry_reasoning: bool = False,
    source: str | None = None,
    limit: int | None = None,
    solver: str = "loop",
) -> Task:
    """Ask for the missing clinical findings in the guideline's order, then recommend.

    Args:
        k: degrees of underspecification to include (hidden pathway lengths; 1..4).
        distractors: variables of other trees offered among the askable ones (0, 10 or 20).
        book: which guideline trees the prompt shows (closed: none; open: every tree).
        per_k: problems built per k (pathway problems; each gives one sample per reachable
            recommendation).
        seed: the random seed (of the builder and the oracle).
        oracle: the oracle that answers the model's questions (adversarial, cooperative, random,
            or withholding: some variables answered "unknown", a whole MSS left learnable).
        format: how the model asks and answers (tool: ask / answer tools, or text: Question: /
            Answer: lines).
        max_turns: most turns the model gets (>= 1; then the final answer is asked for).
        queries_per_turn: variables that may be asked in one turn (>= 1).
        budget: state the turn and query budget in the prompt (true/false).
        force_ask: reject an answer given before k questions were asked (true/false).
        carry_reasoning: keep the model's earlier reasoning in the history (true/false).
        source: a file of problem records, instead of a built split (clinguide records).
        limit: read just the first N problems (of the source, or of the built split, which
            then builds only those).
        solver: who plays the episode (loop: the built-in seek loop, or react: Inspect's react()
            agent through the ask / answer tools, or its text turns; default loop;
            docs/tasks/common.md).
    """
    renderer = checked_view(distractors, book)
    params = checked_parameters(
        "clinguide", k=k, per_k=per_k, seed=seed, oracle=oracle, format=format,
        max_turns=max_turns, queries_per_turn=queries_per_turn, budget=budget,
        force_ask=force_ask, carry_reasoning=carry_reasoning, source=source, limit=limit)
    seek = seek_task("clinguide_mt", "clinguide", params, renderer=renderer, player=solver)
    dataset = seek.dataset.filter(
        lambda sample: sample_problem(sample.metadata).get("distractors") == distractors,
        name=f"clinguide_mt_d{distractors}")
    samples_dataset(list(dataset), "clinguide_mt")  # none left: a one-line error
    return task_with(seek, dataset=dataset, scorer=[*seek.scorer, order_strata_scorer()])


@task
@tagged("clinguide")
def clinguide_mt_k_prediction(
    k: int | list[int] = [1, 2, 3, 4],
    distractors: int = 0,
    book: str = "closed",
    per_k: int = 1000,
    seed: int = 0,
    source: str | None = None,
    limit: int | None = None,
) -> Task:
    """State how many more clinical findings are needed before the recommendation is
    settled (protocols §3.2).

    Args:
        k: degrees of underspecification to include (hidden pathway lengths; 1..4; an int or a list;
            default [1,2,3,4]).
        distractors: variables of other trees offered among the askable ones (0, 10 or 20; default
            0).
        book: which guideline trees the prompt shows (closed: none; open: every tree; default
            closed).
        per_k: problems built per k (pathway problems; >= 1; default 1000, more than the trees hold:
            every pathway); unused with source.
        seed: the random seed (of the builder; an integer; default 0).
        source: a file of problem records, instead of a built split (clinguide records).
        limit: read just the first N problems (of the source, or of the built split, which
            then builds only those; >= 1; default: all).
    """
    renderer = checked_view(distractors, book)
    params = checked_parameters("clinguide", k=k, per_k=per_k, seed=seed, source=source,
                                limit=limit)
    return k_prediction_task("clinguide_mt_k_prediction", "clinguide",
                             {**params, "select": at_level(distractors)}, renderer=renderer)


@task
@tagged("clinguide")
def clinguide_mt_mss(
    k: int | list[int] = [1, 2, 3, 4],
    distractors: int = 0,
    book: str = "closed",
    per_k: int = 1000,
    seed: int = 0,
    k_given: bool = False,
    max_size: int = 4,
    source: str | None = None,
    limit: int | None = None,
) -> Task:
    """Name the clinical findings that settle the recommendation: the pathway's hidden
    variables, as a set (protocols §3.3).

    Args:
        k: degrees of underspecification to include (hidden pathway lengths; 1..4; an int or a list;
            default [1,2,3,4]).
        distractors: variables of other trees offered among the askable ones (0, 10 or 20; default
            0).
        book: which guideline trees the prompt shows (closed: none; open: every tree; default
            closed).
        per_k: problems built per k (pathway problems; >= 1; default 1000, more than the trees hold:
            every pathway); unused with source.
        seed: the random seed (of the builder; an integer; default 0).
        k_given: tell the model the set has exactly k variables (here findings; true/false; default
            false: it names between 1 and max_size).
        max_size: most variables it may name when k is not given (here findings; >= 1; default 4).
        source: a file of problem records, instead of a built split (clinguide records).
        limit: read just the first N problems (of the source, or of the built split, which
            then builds only those; >= 1; default: all).
    """
    renderer = checked_view(distractors, book)
    params = checked_parameters("clinguide", k=k, per_k=per_k, seed=seed, k_given=k_given,
                                max_size=max_size, source=source, limit=limit)
    return mss_task("clinguide_mt_mss", "clinguide", {**params, "select": at_level(distractors)},
                    renderer=renderer)
