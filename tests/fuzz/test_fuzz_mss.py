"""Fuzz test of the MSS-identification answer (``Answer: a, b, c``) through the real
problem-level tasks (`logic_mss`, `clinguide_mt_mss`), issue 18.

Every kind of `tests.support.fuzz_catalogue.MSS_CATALOGUE` is one sample cloned from one k = 2
problem and played by the scripted `infoseek_fuzz/script` model (one eval per task).
Garbage kinds put a second list forward (two answer lines, a self-correction that ends
on the right set, an alternative, a probability): they are never an exact match and are
scored invalid; so are the issue 30 kinds (a hedge or second list after a blank line, a
`/` between two sets, "I think" in front, every variable listed, no answer line), and a
name that is no variable is read but never exact. Valid kinds (the clean list, markdown,
the same list twice, after long reasoning, a remark after a blank line, "The answer is:")
are exact matches."""

from __future__ import annotations

from typing import Any

import pytest
from inspect_ai import eval
from inspect_ai.dataset import MemoryDataset
from inspect_ai.model import get_model

from infoseek.inspect_tasks.clinguide_mt import clinguide_mt_mss
from infoseek.inspect_tasks.logic_mss import logic_mss
from infoseek.stored_forms import sample_problem
from tests.support.common import forbid_tokenizer
from tests.support.fuzz import FUZZ_MODEL, GARBAGE, VALID, Text, install, sample_problem_id
from tests.support.fuzz_catalogue import MSS_CATALOGUE

TASKS = {
    "logic_mss": lambda: logic_mss(k=[2], per_k=6),
    "clinguide_mt_mss": lambda: clinguide_mt_mss(k=[2], per_k=4),
}


def _mss_and_spare(record: dict[str, Any]) -> tuple[tuple[str, ...], str] | None:
    family = record.get("mss_family") or []
    in_mss = {name for member in family for name in member}
    names = record.get("variables") or record.get("queryable") or []
    spare = [n for n in names if n not in in_mss and n != record.get("target")
             and n not in (record.get("observed") or {})]
    if not family or len(family[0]) < 2 or not spare:
        return None
    return tuple(family[0]), spare[0]


def _run(task: str, log_dir: str) -> dict[str, dict[str, Any]]:
    built = TASKS[task]()
    base, found = next((s, f) for s in built.dataset
                       if (f := _mss_and_spare(sample_problem(s.metadata))) is not None)
    mss, spare = found
    record = sample_problem(base.metadata)
    samples = []
    for kind in MSS_CATALOGUE:
        problem_id = sample_problem_id(record["id"], task, "text", kind.name)
        names = tuple(record.get("variables") or record.get("queryable") or ())
        install(problem_id, [Text(kind.make(names if kind.everything else mss, spare))])
        samples.append(base.model_copy(update={
            "id": kind.name,
            "metadata": {**base.metadata, "problem": {**record, "id": problem_id}}}))
    built.dataset = MemoryDataset(samples, name=f"fuzz_{task}")
    with forbid_tokenizer():
        [log] = eval(built, model=get_model(FUZZ_MODEL), log_dir=log_dir, display="none",
                     max_samples=len(samples))
    assert log.status == "success", log.error
    values: dict[str, dict[str, Any]] = {}
    for sample in log.samples or []:
        assert sample.error is None, sample.error
        [score] = list((sample.scores or {}).values())
        values[str(sample.id)] = score.value
    return values


@pytest.fixture(scope="module")
def runs(tmp_path_factory: pytest.TempPathFactory):
    log_dir = str(tmp_path_factory.mktemp("fuzz-mss-logs"))
    done: dict[str, dict[str, dict[str, Any]]] = {}

    def get(task: str) -> dict[str, dict[str, Any]]:
        if task not in done:
            done[task] = _run(task, log_dir)
        return done[task]

    return get


def test_the_mss_catalogue_has_both_sides():
    expects = {kind.expect for kind in MSS_CATALOGUE}
    assert expects == {GARBAGE, VALID}
    assert len({kind.name for kind in MSS_CATALOGUE}) == len(MSS_CATALOGUE)


@pytest.mark.parametrize("task", list(TASKS))
@pytest.mark.parametrize("kind", MSS_CATALOGUE, ids=lambda kind: kind.name)
def test_mss_answer(runs, task: str, kind) -> None:
    value = runs(task)[kind.name]
    if kind.expect == GARBAGE:
        assert value["exact"] == 0.0, value
        assert value["invalid"] == (1.0 if kind.invalid else 0.0), value
    else:
        assert value["exact"] == 1.0, value
        assert value["invalid"] == 0.0, value
