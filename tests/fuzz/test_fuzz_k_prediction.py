"""Fuzz test of the k-prediction answer (``Answer: <k>``) through the real problem-level
tasks (`logic_k_prediction`, `clinguide_mt_k_prediction`, `gsme_mt_k_prediction`), issue 30
classes 1, 2 and 5.

Every kind of `tests.support.fuzz_catalogue.K_CATALOGUE` is one sample cloned from one
k = 2 problem and played by the scripted `infoseek_fuzz/script` model (one eval per
task). Garbage (a correction, alternative, retraction, hedge or confidence on the next
line or after a blank line, ``-2``, a number word beside another digit, no answer line)
is never accurate and is scored invalid with its reason; valid kinds (the clean line, a
number word, a remark after a blank line, ``The answer is:``) are accurate."""

from __future__ import annotations

from typing import Any

import pytest
from inspect_ai import eval
from inspect_ai.dataset import MemoryDataset
from inspect_ai.model import get_model

from infoseek.inspect_tasks.clinguide_mt import clinguide_mt_k_prediction
from infoseek.inspect_tasks.gsme_mt import gsme_mt_k_prediction
from infoseek.inspect_tasks.logic_k_prediction import logic_k_prediction
from infoseek.stored_forms import sample_problem
from tests.support.common import forbid_tokenizer
from tests.support.fuzz import FUZZ_MODEL, GARBAGE, VALID, Text, install, sample_problem_id
from tests.support.fuzz_catalogue import K_CATALOGUE

TASKS = {
    "logic_k_prediction": lambda: logic_k_prediction(k=[2], per_k=2),
    "clinguide_mt_k_prediction": lambda: clinguide_mt_k_prediction(k=[2], per_k=2),
    "gsme_mt_k_prediction": lambda: gsme_mt_k_prediction(k=[2], per_k=2),
}


def _run(task: str, log_dir: str) -> dict[str, Any]:
    built = TASKS[task]()
    base = next(iter(built.dataset))
    record = sample_problem(base.metadata)
    k = int(base.metadata.get("k", record.get("k")))
    samples = []
    for kind in K_CATALOGUE:
        problem_id = sample_problem_id(record["id"], task, "text", kind.name)
        install(problem_id, [Text(kind.make(k))])
        samples.append(base.model_copy(update={
            "id": kind.name,
            "metadata": {**base.metadata, "problem": {**record, "id": problem_id}}}))
    built.dataset = MemoryDataset(samples, name=f"fuzz_{task}")
    with forbid_tokenizer():
        [log] = eval(built, model=get_model(FUZZ_MODEL), log_dir=log_dir, display="none",
                     max_samples=len(samples))
    assert log.status == "success", log.error
    scores: dict[str, Any] = {}
    for sample in log.samples or []:
        assert sample.error is None, sample.error
        [score] = list((sample.scores or {}).values())
        scores[str(sample.id)] = score
    return scores


@pytest.fixture(scope="module")
def runs(tmp_path_factory: pytest.TempPathFactory):
    log_dir = str(tmp_path_factory.mktemp("fuzz-k-logs"))
    done: dict[str, dict[str, Any]] = {}

    def get(task: str) -> dict[str, Any]:
        if task not in done:
            done[task] = _run(task, log_dir)
        return done[task]

    return get


def test_the_k_catalogue_has_both_sides():
    assert {kind.expect for kind in K_CATALOGUE} == {GARBAGE, VALID}
    assert len({kind.name for kind in K_CATALOGUE}) == len(K_CATALOGUE)


@pytest.mark.parametrize("task", list(TASKS))
@pytest.mark.parametrize("kind", K_CATALOGUE, ids=lambda kind: kind.name)
def test_k_answer(runs, task: str, kind) -> None:
    score = runs(task)[kind.name]
    value = score.value
    if kind.expect == GARBAGE:
        assert value["accuracy"] == 0.0, (value, score.explanation)
        assert value["invalid"] == 1.0, (value, score.explanation)
        assert (score.metadata or {}).get("reason") or kind.name == "k_negative", score
    else:
        assert value["accuracy"] == 1.0, (value, score.explanation)
        assert value["invalid"] == 0.0, value
