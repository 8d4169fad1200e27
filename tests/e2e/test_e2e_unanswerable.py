"""End to end: `-T unanswerable=<share>` (issue 34) with the reference models, on logic_mt,
math (gsme_mt, gsm_mt, gsme_mt_ext), gene regulation and planning; and where a builder
declares its unanswerable records."""

from __future__ import annotations

import math

import inspect_ai
import pytest
from inspect_ai.scorer import Score

from infoseek.contract import UNDETERMINED
from infoseek.inspect_tasks.genereg_mt import genereg_mt
from infoseek.inspect_tasks.gsme_mt import gsme_mt
from infoseek.inspect_tasks.logic_mt import logic_mt
from infoseek.inspect_tasks.planning_mt import planning_mt
from infoseek.inspect_tasks.task_parameters import TaskParameterError
from infoseek.inspect_tasks.unanswerable import UNDETERMINED_LINES
from infoseek.scorers.group_metric import log_metrics
from tests.support.withholding import reference_logs


def _metrics(log) -> dict[str, dict[str, float]]:
    return {score.name: {name: m.value for name, m in score.metrics.items()}
            for score in log.results.scores}


def _run(model: str, fmt: str = "tool"):
    task = logic_mt(k=[1, 2], per_k=2, unanswerable=0.25, format=fmt)
    [log] = inspect_ai.eval(task, model=model, display="none", log_dir=None)
    assert log.status == "success", log.error
    return task, log


def test_mix_ids_and_prompt_line():
    task = logic_mt(k=[1, 2], per_k=2, unanswerable=0.25)
    ids = [sample.id for sample in task.dataset]
    unanswerable = [i for i in ids if i.endswith("-unanswerable")]
    # 4 ordinary samples per k; round(0.25 * 4 / 0.75) = 1 unanswerable per k
    assert len(ids) == 10 and unanswerable == ["logic-mt-s0-k1-1000000-unanswerable",
                                               "logic-mt-s0-k2-1000000-unanswerable"]
    assert all(sample.input.endswith(UNDETERMINED_LINES["tool"]) for sample in task.dataset)
    plain = logic_mt(k=[1, 2], per_k=2)
    assert not any(UNDETERMINED in sample.input for sample in plain.dataset)
    assert len(plain.scorer) == len(task.scorer) - 1


@pytest.mark.parametrize("fmt", ["tool", "text"])
def test_optimal_scores_one_and_random_lower(fmt):
    _, log = _run("infoseek/optimal", fmt)
    metrics = _metrics(log)
    assert metrics["final_answer"]["accuracy"] == 1.0
    assert metrics["sufficiency"]["final_sufficiency"] == 1.0  # unanswerable ones skipped
    assert metrics["undetermined"] == {"undetermined_precision": 1.0,
                                       "undetermined_recall": 1.0, "undetermined_f1": 1.0,
                                       "stopped_before_cap": 1.0}
    for sample in log.samples:
        said = sample.scores["undetermined"].value["said_undetermined"]
        assert said == (1.0 if sample.id.endswith("-unanswerable") else 0.0)
    if fmt == "text":
        return
    _, log = _run("infoseek/random", fmt)
    metrics = _metrics(log)
    assert metrics["final_answer"]["accuracy"] < 1.0
    assert metrics["undetermined"]["undetermined_recall"] == 0.0
    unanswerable = [s for s in log.samples if s.id.endswith("-unanswerable")]
    assert all(s.scores["final_answer"].value["accuracy"] == 0.0 for s in unanswerable)


@pytest.mark.parametrize("share", [1.0, -0.2, "lots"])
def test_bad_share_is_one_line(share):
    with pytest.raises(TaskParameterError, match="unanswerable"):
        logic_mt(k=1, per_k=1, unanswerable=share)


def test_not_with_a_source(tmp_path):
    with pytest.raises(TaskParameterError, match="source"):
        logic_mt(k=1, per_k=1, unanswerable=0.2, source=str(tmp_path / "x.jsonl"))


def test_gsm_mt_mixes_the_same_records():
    from infoseek.inspect_tasks.gsm_mt import gsm_mt

    task = gsm_mt(k=1, per_k=3, unanswerable=0.25, format="text")
    assert [s.id for s in task.dataset][-1] == "gsme-mt-s0-k1-1000000-unanswerable"
    assert all(s.input.endswith(UNDETERMINED_LINES["text"]) for s in task.dataset)


MIXED_TASKS = {
    # 3 ordinary samples (one per record); round(0.25 * 3 / 0.75) = 1 unanswerable
    "gsme_mt": (lambda: gsme_mt(k=1, per_k=3, unanswerable=0.25),
                ["gsme-mt-s0-k1-1000000-unanswerable"], 4),
    # 2 ordinary samples (two steady states); round(0.5 * 2 / 0.5) = 2 unanswerable, of the
    # steady stream only: records 1 and 2 (dynamic streams) are skipped
    "genereg_mt": (lambda: genereg_mt(k=1, per_k=1, family="steady", unanswerable=0.5),
                   ["genereg-ste-att-k1-s0-1000000-unanswerable",
                    "genereg-ste-att-k1-s0-1000003-unanswerable"], 4),
    # 3 ordinary samples (three sets of optimal plans); 1 unanswerable
    "planning_mt": (lambda: planning_mt(k=2, per_k=1, unanswerable=0.25),
                    ["planning-mt-s0-k2-1000000-unanswerable"], 4),
}
"""Task -> (a small mixed task, the ids of its unanswerable samples, its sample
count)."""


@pytest.mark.parametrize("name", MIXED_TASKS)
def test_the_mix_of_each_domain(name):
    make_task, unanswerable_ids, size = MIXED_TASKS[name]
    ids = [sample.id for sample in make_task().dataset]
    assert [i for i in ids if i.endswith("-unanswerable")] == unanswerable_ids
    assert ids[-len(unanswerable_ids):] == unanswerable_ids and len(ids) == size


@pytest.mark.parametrize("name", MIXED_TASKS)
def test_optimal_one_random_lower_in_each_domain(name):
    logs = reference_logs(MIXED_TASKS[name][0])
    optimal, random_ = (log_metrics(logs[model]) for model in ("optimal", "random"))
    assert optimal["accuracy"] == 1.0 and optimal["undetermined_f1"] == 1.0
    assert random_["accuracy"] < 1.0 and random_["undetermined_recall"] == 0.0
    for log in logs.values():  # sufficiency, queries and plans do not apply to them
        for sample in log.samples:
            if sample.id.endswith("-unanswerable"):
                scores = sample.scores
                assert math.isnan(scores["sufficiency"].value["final_sufficiency"])
                for scorer in ("queries", "plan"):
                    values = (scores.get(scorer) or Score(value={})).value
                    assert all(math.isnan(v) for v in values.values()), (scorer, values)


def test_gsme_mt_ext_optimal_one():
    from infoseek.inspect_tasks.gsme_mt_ext import gsme_mt_ext

    task = gsme_mt_ext(k=1, per_k=2, unanswerable=1 / 3)
    # 2 ordinary samples; round((1/3) * 2 / (2/3)) = 1 unanswerable
    assert [s.id for s in task.dataset][-1] == "gsme-mt-ext-s0-k1-1000000-unanswerable"
    assert len(task.dataset) == 3
    [log] = inspect_ai.eval(task, model="infoseek/optimal", display="none", log_dir=None)
    assert log.status == "success", log.error
    metrics = _metrics(log)
    assert metrics["final_answer"]["accuracy"] == 1.0
    assert metrics["undetermined"]["undetermined_f1"] == 1.0


def test_the_builder_declaration_is_the_one_place_that_offers_the_share():
    import dataclasses

    from infoseek.domains import Domain, get_builder, register_domain, unregister_domain
    from infoseek.inspect_tasks.unanswerable import (
        checked_unanswerable,
        unanswerable_builder,
        unanswerable_builder_names,
    )
    from tests.support import toy_domain

    assert set(unanswerable_builder_names()) == {
        "logic-mt", "logic-mt-hard", "gsme-mt", "gsme-mt-ext", "gsme-mt-ext-hard", "genereg",
        "planning-mt"}
    assert unanswerable_builder("genereg") is _resolved(get_builder("genereg")[1])
    assert unanswerable_builder("clinguide") is None
    with pytest.raises(TaskParameterError, match="the clinguide builder makes no unanswerable"):
        checked_unanswerable(0.2, "clinguide", None)

    def made(seed: int, k: int, index: int) -> dict:
        return {"id": f"toy-{seed}-{k}-{index}-unanswerable"}

    # a new domain offers the share by declaring it on its builder, and nowhere else
    declared = dataclasses.replace(toy_domain.SPEC, name="toy-unanswerable", unanswerable=made)
    register_domain("toy-unanswerable", Domain(
        name="toy-unanswerable", answer_kind="choice", wording=toy_domain.WORDING,
        builders=(declared,), renderers={"seek": toy_domain.render}))
    try:
        assert "toy-unanswerable" in unanswerable_builder_names()
        assert unanswerable_builder("toy-unanswerable") is made
        assert checked_unanswerable(0.2, "toy-unanswerable", None) == 0.2
    finally:
        unregister_domain("toy-unanswerable")


def _resolved(spec):
    from infoseek.domains import resolve

    return resolve(spec.unanswerable)
