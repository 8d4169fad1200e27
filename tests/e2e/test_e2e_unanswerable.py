"""End to end: `-T unanswerable=<share>` (issue 34) on logic_mt with the reference models."""

from __future__ import annotations

import inspect_ai
import pytest

from infoseek.contract import UNDETERMINED
from infoseek.inspect_tasks.logic_mt import logic_mt
from infoseek.inspect_tasks.task_parameters import TaskParameterError
from infoseek.inspect_tasks.unanswerable import UNDETERMINED_LINES


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


def test_math_optimal_one_random_lower():
    from infoseek.inspect_tasks.gsme_mt import gsme_mt

    results = {}
    for model in ("infoseek/optimal", "infoseek/random"):
        task = gsme_mt(k=1, per_k=3, unanswerable=0.25)
        ids = [sample.id for sample in task.dataset]
        # 3 ordinary samples (one per record); round(0.25 * 3 / 0.75) = 1 unanswerable
        assert ids[-1] == "gsme-mt-s0-k1-1000000-unanswerable" and len(ids) == 4
        [log] = inspect_ai.eval(task, model=model, display="none", log_dir=None)
        assert log.status == "success", log.error
        results[model] = _metrics(log)
    assert results["infoseek/optimal"]["final_answer"]["accuracy"] == 1.0
    assert results["infoseek/optimal"]["undetermined"]["undetermined_f1"] == 1.0
    assert results["infoseek/random"]["final_answer"]["accuracy"] < 1.0
    assert results["infoseek/random"]["undetermined"]["undetermined_recall"] == 0.0


def test_genereg_optimal_one_random_lower():
    from infoseek.inspect_tasks.genereg_mt import genereg_mt

    results = {}
    for model in ("infoseek/optimal", "infoseek/random"):
        task = genereg_mt(k=1, per_k=1, family="steady", unanswerable=0.5)
        ids = [sample.id for sample in task.dataset]
        # the steady stream only: records of the dynamic streams are skipped
        made = [i for i in ids if i.endswith("-unanswerable")]
        assert made[0] == "genereg-ste-att-k1-s0-1000000-unanswerable"
        assert all(i.startswith("genereg-ste-att-k1-s0-") for i in made)
        assert sum(i.endswith("-unanswerable") for i in ids) * 2 == len(ids)
        [log] = inspect_ai.eval(task, model=model, display="none", log_dir=None)
        assert log.status == "success", log.error
        results[model] = _metrics(log)
    assert results["infoseek/optimal"]["final_answer"]["accuracy"] == 1.0
    assert results["infoseek/optimal"]["undetermined"]["undetermined_f1"] == 1.0
    assert results["infoseek/random"]["final_answer"]["accuracy"] < 1.0
    assert results["infoseek/random"]["undetermined"]["undetermined_recall"] == 0.0


def test_planning_optimal_one_random_lower():
    from infoseek.inspect_tasks.planning_mt import planning_mt

    results = {}
    for model in ("infoseek/optimal", "infoseek/random"):
        task = planning_mt(k=2, per_k=1, unanswerable=0.25)
        assert [s.id for s in task.dataset][-1] == "planning-mt-s0-k2-1000000-unanswerable"
        [log] = inspect_ai.eval(task, model=model, display="none", log_dir=None)
        assert log.status == "success", log.error
        results[model] = _metrics(log)
        unanswerable = next(s for s in log.samples if s.id.endswith("-unanswerable"))
        assert all(v != v for v in unanswerable.scores["plan"].value.values())  # NaN
    assert results["infoseek/optimal"]["final_answer"]["accuracy"] == 1.0
    assert results["infoseek/optimal"]["undetermined"]["undetermined_f1"] == 1.0
    assert results["infoseek/random"]["final_answer"]["accuracy"] < 1.0
    assert results["infoseek/random"]["undetermined"]["undetermined_recall"] == 0.0


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
