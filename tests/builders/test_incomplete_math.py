"""Incomplete questions built from the math story templates
(`infoseek.builders.math.incomplete_math`)."""

from __future__ import annotations

import pytest
from inspect_ai import eval
from inspect_ai.model import ChatMessageUser

from infoseek.analysis import is_sufficient
from infoseek.builders.cache import cache_path
from infoseek.builders.math.incomplete_math import SPEC, build_split, check_incomplete_record
from infoseek.builders.math.released.incomplete import IncompleteDataError, incomplete_records
from infoseek.engines.arith.engine import ArithEngine
from infoseek.inspect_tasks.incomplete_questions import incomplete_questions
from infoseek.records import engine_from_record

COUNT = 40


@pytest.fixture(scope="module")
def records() -> list[dict]:
    return build_split(seed=0, per_k=COUNT)


def problem_engine(record: dict, drop: str | None = None) -> ArithEngine:
    prov = record["provenance"]
    observed = {v: x for v, x in prov["observed"].items() if v != drop}
    engine = engine_from_record({"engine": prov["engine"], "variables": prov["variables"],
                                 "observed": observed, "target": prov["target"]})
    assert isinstance(engine, ArithEngine)
    return engine


def test_build_is_deterministic(records) -> None:
    assert build_split(seed=0, per_k=COUNT) == records
    assert build_split(seed=0, per_k=5) == records[:5]
    other = build_split(seed=1, per_k=5)
    assert [r["question"] for r in other] != [r["question"] for r in records[:5]]
    assert len({r["id"] for r in records}) == COUNT
    assert len({(r["question"], r["condition"]) for r in records}) == COUNT
    with pytest.raises(ValueError, match="per_k"):
        build_split(per_k=0)
    with pytest.raises(ValueError, match="k must be between 1 and 1"):
        build_split(per_k=1, ks=[2])


def test_every_record_passes_the_engine_checks(records) -> None:
    for record in records:
        assert check_incomplete_record(record) == [], record["id"]
        prov = record["provenance"]
        condition = prov["condition_variable"]
        full = problem_engine(record)
        assert set(prov["observed"]) == set(full.leaves)  # every leaf stated
        assert full.is_known()
        [value] = full.target_values()
        assert value == record["answer"] and isinstance(record["answer"], int)
        reduced = problem_engine(record, drop=condition)
        assert condition not in reduced.observed
        assert not reduced.is_known()
        assert reduced.is_known({condition: prov["observed"][condition]})
        assert reduced.target_values({condition: prov["observed"][condition]}) == {value}
        assert is_sufficient(reduced, [condition])
        assert condition in full.goal_relevant_leaves()


def test_condition_sentence_moves_between_questions(records) -> None:
    for record in records:
        assert record["condition"] in record["question"]
        assert record["condition"] not in record["new_question"]
        assert record["question"].replace(record["condition"] + " ", "", 1) == \
            record["new_question"] or record["question"].replace(
                " " + record["condition"], "", 1) == record["new_question"]
        assert record["question"].endswith("?") and record["new_question"].endswith("?")


def test_check_incomplete_record_catches_a_broken_record(records) -> None:
    record = dict(records[0])
    wrong_answer = {**record, "answer": record["answer"] + 1}
    assert "answer differs" in " ".join(check_incomplete_record(wrong_answer))
    assert "still in the new question" in " ".join(
        check_incomplete_record({**record, "new_question": record["question"]}))
    prov = record["provenance"]
    irrelevant = [v for v in problem_engine(record).leaves
                  if v not in problem_engine(record).goal_relevant_leaves()]
    if irrelevant:
        bad = {**record, "provenance": {**prov, "condition_variable": irrelevant[0]}}
        assert any("still Known" in e for e in check_incomplete_record(bad))


def test_loader_serves_built_records_through_the_cache() -> None:
    served = incomplete_records(seed=0, count=6)
    assert served == incomplete_records(None, seed=0, count=6)
    built = build_split(seed=0, per_k=6)
    assert [r["id"] for r in served] == [r["id"] for r in built]
    for got, want in zip(served, built, strict=True):
        assert {k: got[k] for k in want} == want
    params = {"seed": 0, "count": 6}
    # The cache keys on the data version (with the templates' hash); the records carry
    # the builder version alone.
    assert cache_path(SPEC.name, SPEC.data_version, params).is_file()
    assert not cache_path(SPEC.name, SPEC.version, params).exists()
    assert {r["provenance"]["version"] for r in served} == {SPEC.version}
    with pytest.raises(IncompleteDataError, match="count"):
        incomplete_records(count=0)


@pytest.mark.parametrize("variant", ["raw", "questionable", "full"])
def test_optimal_runs_without_a_source(variant: str, tmp_path) -> None:
    task = incomplete_questions(variant=variant, count=6)
    [log] = eval(task, model="infoseek/optimal", log_dir=str(tmp_path), display="none",
                 ctl_server=False)
    assert log.status == "success", log.error
    assert log.samples and len(log.samples) == 6
    metrics = log.results.scores[0].metrics
    assert metrics["accuracy"].value == 1.0
    for sample in log.samples:
        assert sample.error is None, sample.error
        record = sample.metadata["record"]
        assert record["provenance"]["builder"] == SPEC.name
        first_user = next(m for m in sample.messages if isinstance(m, ChatMessageUser))
        shown = record["question"] if variant == "full" else record["new_question"]
        assert first_user.text == shown
    if variant == "questionable":
        assert metrics["condition_acquired"].value == 1.0
