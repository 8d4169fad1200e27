"""Task assembly of the single-turn protocols (protocols §3.4-3.6) for every domain with a
1-sufficient builder: the thin task files (`infoseek.inspect_tasks.logic_q`, `gsme_q`, `gsm_q`)
call `single_turn_task` with a builder name from `infoseek.domains`, the protocol and
their checked `-T` parameters. Nothing here names a domain.

    params = checked_parameters("logic-q", k=1, per_k=per_k, seed=seed, ...)
    return single_turn_task("logic_q", "logic-q", "question_selection",
                            {**params, "prompt": prompt})
"""

from __future__ import annotations

from typing import Any

from inspect_ai import Task

from infoseek.builders.datasets import domain_records
from infoseek.domains import get_builder
from infoseek.inspect_tasks.assembly import (
    located_errors,
    registered_task_version,
    samples_dataset,
    source_metadata,
    task_records,
)
from infoseek.inspect_tasks.task_errors import DataFileError
from infoseek.inspect_tasks.task_parameters import check_choice
from infoseek.inspect_tasks.viewer import viewer_arguments
from infoseek.jsonl import dumps_record
from infoseek.scorers.single_turn import detection_scorer, single_turn_scorer
from infoseek.single_turn import SingleTurnError
from infoseek.solvers.dataset import rendered
from infoseek.solvers.single_turn.reading import FEW_SHOT_COUNT, PROMPT_SETTINGS
from infoseek.solvers.single_turn.solver import (
    few_shot_examples,
    single_turn_samples,
    single_turn_solver,
)


def render_for(builder: str, renderer: str):
    """The builder's domain renderer `renderer` as a one-argument function (a record it
    cannot show is a `RecordError`, `infoseek.solvers.dataset.rendered`)."""
    render = get_builder(builder)[0].renderer(renderer)
    return lambda record: rendered(lambda r: render(r, forbid_alternatives=False), record)


FEW_SHOT_SEED_OFFSET = 1_000_003
"""The four-shot examples come from the split built with ``seed + FEW_SHOT_SEED_OFFSET``,
and any of its problems equal to an evaluated one is dropped."""


def _same_problem_key(record: dict[str, Any]) -> str:
    return dumps_record({key: record.get(key) for key in ("engine", "observed", "target")})


def example_records(builder: str, seed: int, evaluated: list[dict[str, Any]]
                    ) -> list[dict[str, Any]]:
    """1-sufficient problems for worked examples: a split disjoint from `evaluated`."""
    taken = {_same_problem_key(r) for r in evaluated}
    pool = domain_records(builder, ks=[1], per_k=2 * FEW_SHOT_COUNT,
                          seed=seed + FEW_SHOT_SEED_OFFSET)
    return [r for r in pool if _same_problem_key(r) not in taken]


def single_turn_task(name: str, builder: str, protocol: str, params: dict[str, Any], *,
                     renderer: str = "seek") -> Task:
    """A single-turn protocol (protocols §3.4-3.6: question_selection, detection,
    well_specified) over the builder's 1-sufficient problems (k = 1) or a source file;
    `params` come from `checked_parameters` plus ``prompt`` (zs, cot, fs) and, for
    question selection, ``mix_well_specified``."""
    setting = check_choice("prompt", params.get("prompt", "zs"), PROMPT_SETTINGS)
    # a source file's well-specified rows (k = 0: "No questions needed", e.g. released
    # Planning-Q rows) are posed as well-specified samples, as a built split's are
    params = {**params, "k": [0, 1] if params.get("source") else [1]}
    records = task_records(builder, params)
    render = render_for(builder, renderer)
    examples = []
    if setting == "fs":
        examples = few_shot_examples(
            protocol, example_records(builder, params.get("seed", 0), records), render,
            FEW_SHOT_COUNT)
    try:
        with located_errors(params):
            samples = single_turn_samples(protocol, records, render, setting=setting,
                                          mix_well_specified=params.get(
                                              "mix_well_specified", False))
    except SingleTurnError as exc:
        raise DataFileError(str(exc)) from None
    scorer = detection_scorer() if protocol == "detection" else single_turn_scorer(protocol)
    return Task(dataset=samples_dataset(samples, name),
                solver=single_turn_solver(protocol, setting, examples,
                                          params.get("seed", 0)),
                metadata={"report": protocol,
                          **source_metadata(params.get("source"), records)},
                scorer=scorer, name=name, version=registered_task_version(builder),
                **viewer_arguments(protocol))
