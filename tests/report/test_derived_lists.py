"""Nobody keeps a list of tasks for the report or the sweeps: each task names its report in
`Task(metadata=...)`, and a sweep finds the tasks it can vary by their signatures. The toy
domain (tests/support/toy_domain.py) proves it: its tasks, which no module of the suite
names, get a report and are swept with no edit to `sweeps.py` or `declarations.py`.
"""

from __future__ import annotations

import inspect
from collections.abc import Callable, Iterator
from typing import Any

import pytest
from inspect_ai import Task, task

from infoseek.inspect_tasks._registry import PACKAGED_TASKS
from infoseek.inspect_tasks.assembly import (
    checked_parameters,
    k_prediction_task,
    mss_task,
    seek_task,
)
from infoseek.inspect_tasks.inspect_private import registry_unqualified_name
from infoseek.inspect_tasks.report import declarations as d
from infoseek.inspect_tasks.report.declarations import REPORT_KEY, REPORTS, report_for
from infoseek.inspect_tasks.report.sweeps import RECIPES, SweepError, recipe_runs
from tests.support import toy_domain as toy

EXPECTED_REPORTS = {
    **dict.fromkeys(("logic_mt", "gsme_mt", "gsme_mt_ext", "gsm_mt", "genereg_mt"),
                    d.SEEK_REPORT),
    "clinguide_mt": d.ORDERED_SEEK_REPORT,
    "planning_mt": d.PLANNING_SEEK_REPORT,
    "planning_mt_full": d.PLANNING_FULL_REPORT,
    **dict.fromkeys(("gsme_mt_full", "gsme_mt_ext_full", "gsm_mt_full", "genereg_mt_full"),
                    d.FULL_INFORMATION_REPORT),
    **{f"{family}_k_prediction": d.K_PREDICTION_REPORT
       for family in ("logic", "gsme_mt", "gsme_mt_ext", "genereg_mt", "clinguide_mt",
                      "planning_mt", "twenty_questions")},
    **{f"{family}_mss": d.MSS_REPORT
       for family in ("logic", "gsme_mt", "gsme_mt_ext", "genereg_mt", "clinguide_mt",
                      "planning_mt", "twenty_questions")},
    **{family: d.QUESTION_SELECTION_REPORT
       for family in ("logic_q", "gsme_q", "gsm_q", "planning_q")},
    **{f"{family}_detection": d.DETECTION_REPORT
       for family in ("logic_q", "gsme_q", "gsm_q", "planning_q")},
    **{f"{family}_well_specified": d.WELL_SPECIFIED_REPORT
       for family in ("logic_q", "gsme_q", "gsm_q", "planning_q")},
    "incomplete_questions": d.INCOMPLETE_REPORT,
    "twenty_questions": d.TWENTY_QUESTIONS_REPORT,
}
"""What each task was reported with when the report kept a table of task names: the
derived declarations must be the same."""

TINY = {"k": [1], "per_k": 1, "count": 1}


def tiny(factory: Callable[..., Task], **args: Any) -> Task:
    parameters = inspect.signature(factory).parameters
    return factory(**{key: value for key, value in {**TINY, **args}.items()
                      if key in parameters})


def recorded_scorers(built: Task) -> set[str]:
    """The scorer names a log of `built` records."""
    return {registry_unqualified_name(scorer) for scorer in built.scorer or []}


def test_the_expectation_covers_every_task() -> None:
    assert sorted(EXPECTED_REPORTS) == sorted(PACKAGED_TASKS)


@pytest.mark.parametrize("name", sorted(PACKAGED_TASKS))
def test_every_task_names_its_report_and_gets_the_same_declaration(name: str) -> None:
    built = tiny(PACKAGED_TASKS[name])
    assert (built.metadata or {}).get(REPORT_KEY) in REPORTS, name
    scorers = recorded_scorers(built)
    assert report_for(f"infoseek/{name}", scorers, built.metadata) is EXPECTED_REPORTS[name]


def test_logs_that_name_no_report_are_read_by_their_scorers() -> None:
    """Logs written before tasks named their report: the protocol's report by the scorers
    the log carries, with the columns of a scorer a task adds."""
    seek = {"final_answer", "sufficiency", "queries", "invalid"}
    assert report_for("logic_mt", seek) is d.SEEK_REPORT
    assert report_for("clinguide_mt", seek | {"order_strata"}) is d.ORDERED_SEEK_REPORT
    assert report_for("planning_mt", seek | {"plan"}) is d.PLANNING_SEEK_REPORT
    assert report_for("logic_mss", {"mss_identification_scorer"}) is d.MSS_REPORT
    assert report_for("twenty_questions", {"twenty_questions"}) is d.TWENTY_QUESTIONS_REPORT
    assert report_for("say_hi", {"match"}) is None
    # what evals_df gives: the metadata as JSON text, or nothing
    assert report_for("x", set(), '{"report": "detection"}') is d.DETECTION_REPORT
    assert report_for("x", set(), float("nan")) is None  # type: ignore[arg-type]
    assert report_for("x", seek, {"report": "not a report"}) is d.SEEK_REPORT


def test_a_task_registered_by_name_keeps_its_own_declaration() -> None:
    d.register_task_report("planning_mt_example", d.SEEK_REPORT)
    try:
        assert report_for("infoseek/planning_mt_example", {"plan"},
                          {"report": "mss"}) is d.SEEK_REPORT
    finally:
        d.unregister_task_report("planning_mt_example")
    assert report_for("planning_mt_example", set(), {"report": "mss"}) is d.MSS_REPORT


# ------------------------------------------------------------------ sweeps


def test_the_sweeps_take_every_task_whose_signature_has_their_settings() -> None:
    tasks = {name: RECIPES[name].tasks() for name in RECIPES}
    assert tasks["oracles"][0] == "logic_mt" and "planning_mt" in tasks["oracles"]
    assert not {"gsme_mt", "gsme_mt_ext", "gsm_mt"} & set(tasks["oracles"])  # world only
    assert {"planning_mt", "gsme_mt_ext", "clinguide_mt"} <= set(tasks["budgets"])
    assert "planning_mt_full" not in tasks["budgets"]
    assert "planning_mt" in tasks["forbid_alternatives"]
    assert "clinguide_mt" not in tasks["forbid_alternatives"]
    assert tasks["prompt_modes"][0] == "logic_q" and "planning_q" in tasks["prompt_modes"]
    assert "logic_q_detection" not in tasks["prompt_modes"]  # it has no siblings
    assert tasks["suite"] == ()
    for recipe in ("oracles", "budgets", "forbid_alternatives"):
        assert recipe_runs(recipe, "planning_mt", per_k=1)[0][0] == "planning_mt"
    assert {t for t, _ in recipe_runs("prompt_modes", "planning_q", per_k=1)} == {
        "planning_q", "planning_q_well_specified", "planning_q_detection"}


# ------------------------------------------------------------------ the toy domain


@pytest.fixture(scope="module")
def toy_tasks(tmp_path_factory: pytest.TempPathFactory) -> Iterator[dict[str, Callable]]:
    """Three tasks over the toy domain, written as a new domain's task file would be."""
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("INFOSEEK_CACHE_DIR", str(tmp_path_factory.mktemp("toy-cache")))
        toy.register()
        try:
            yield {"toy_mt": toy_mt, "toy_mt_k_prediction": toy_mt_k_prediction,
                   "toy_mt_mss": toy_mt_mss}
        finally:
            toy.unregister()


@task
def toy_mt(k: int | list[int] = [1], per_k: int = 1, seed: int = 0,
           oracle: str = "adversarial", format: str = "tool", max_turns: int = 10,
           queries_per_turn: int = 1, budget: bool = False, force_ask: bool = False,
           forbid_alternatives: bool = False) -> Task:
    params = checked_parameters(
        toy.SPEC.name, k=k, per_k=per_k, seed=seed, oracle=oracle, format=format,
        max_turns=max_turns, queries_per_turn=queries_per_turn, budget=budget,
        force_ask=force_ask, forbid_alternatives=forbid_alternatives)
    return seek_task("toy_mt", toy.SPEC.name, params)


@task
def toy_mt_k_prediction(k: int | list[int] = [1], per_k: int = 1, seed: int = 0) -> Task:
    params = checked_parameters(toy.SPEC.name, k=k, per_k=per_k, seed=seed)
    return k_prediction_task("toy_mt_k_prediction", toy.SPEC.name, params)


@task
def toy_mt_mss(k: int | list[int] = [1], per_k: int = 1, seed: int = 0,
               k_given: bool = False, max_size: int = 3,
               forbid_alternatives: bool = False) -> Task:
    params = checked_parameters(toy.SPEC.name, k=k, per_k=per_k, seed=seed,
                                k_given=k_given, max_size=max_size,
                                forbid_alternatives=forbid_alternatives)
    return mss_task("toy_mt_mss", toy.SPEC.name, params)


def test_a_new_domains_tasks_get_a_report_with_no_edit(toy_tasks) -> None:
    expected = {"toy_mt": d.SEEK_REPORT, "toy_mt_k_prediction": d.K_PREDICTION_REPORT,
                "toy_mt_mss": d.MSS_REPORT}
    for name, factory in toy_tasks.items():
        built = factory()
        assert report_for(name, recorded_scorers(built), built.metadata) is expected[name]


def test_a_new_domains_tasks_are_swept_as_their_signatures_allow(toy_tasks) -> None:
    eligible = {name: RECIPES[name].tasks(toy_tasks) for name in RECIPES}
    for recipe in ("oracles", "budgets", "force_ask"):
        assert eligible[recipe] == ("toy_mt",)
    assert eligible["forbid_alternatives"] == ("toy_mt", "toy_mt_mss")
    assert eligible["prompt_modes"] == ()
    runs = recipe_runs("oracles", "toy_mt", per_k=1, tasks=toy_tasks)
    assert [args["oracle"] for _t, args in runs] == ["adversarial", "cooperative", "random"]
    for task_name, args in runs + recipe_runs("budgets", "toy_mt", 1, toy_tasks):
        built = toy_tasks[task_name](**args)
        assert built.metadata == {REPORT_KEY: "seek"}
    with pytest.raises(SweepError, match="cannot vary toy_mt_k_prediction; --task takes "
                                         "toy_mt$"):
        recipe_runs("oracles", "toy_mt_k_prediction", tasks=toy_tasks)
    with pytest.raises(SweepError, match="no registered task takes prompt"):
        recipe_runs("prompt_modes", tasks=toy_tasks)
