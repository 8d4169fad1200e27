"""Builds that do only what a run uses (issue 33, item 4): a task restricted with
`-T k=` builds just those k, record for record and sample for sample what the full split
holds; a sweep builds each split it reads once, several at a time, before any task is
made (`made_after_builds`)."""

from __future__ import annotations

import functools
import json

import pytest

from infoseek.builders import datasets
from infoseek.builders.datasets import (
    SplitsNeeded,
    Stage,
    deferred_builds,
    domain_records,
    made_after_builds,
)
from infoseek.builders.jobs import BuildError
from infoseek.domains import get_builder
from infoseek.jsonl import dumps_record


def _built(err: str, builder: str) -> list[str]:
    return [line for line in err.splitlines() if line.startswith(f"infoseek: built {builder} ")]


@pytest.mark.parametrize("builder", ["logic-mt", "gsme-mt-ext"])
def test_one_k_built_alone_is_byte_identical_to_that_k_of_the_full_split(
        builder, tmp_path, monkeypatch, capfd) -> None:
    monkeypatch.setenv("INFOSEEK_CACHE_DIR", str(tmp_path / "alone"))
    alone = domain_records(builder, ks=[3], per_k=2, seed=5)
    assert [line.split(":")[1].split(" (")[0] for line in _built(capfd.readouterr().err,
                                                                 builder)] == [
        f" built {builder} k=3"]  # only k = 3 was built
    monkeypatch.setenv("INFOSEEK_CACHE_DIR", str(tmp_path / "full"))
    full = domain_records(builder, ks=[1, 2, 3, 4], per_k=2, seed=5)
    assert len(_built(capfd.readouterr().err, builder)) == 4
    assert [dumps_record(r) for r in alone] == [dumps_record(r) for r in full if r["k"] == 3]


def test_a_task_restricted_to_one_k_gives_the_same_samples(tmp_path, monkeypatch) -> None:
    from infoseek.inspect_tasks.logic_mt import logic_mt

    def samples(task):
        return {s.id: json.dumps([s.input, s.target, s.metadata], sort_keys=True, default=str)
                for s in task.dataset}

    monkeypatch.setenv("INFOSEEK_CACHE_DIR", str(tmp_path / "alone"))
    alone = samples(logic_mt(k=2, per_k=2, seed=3))
    monkeypatch.setenv("INFOSEEK_CACHE_DIR", str(tmp_path / "full"))
    full = samples(logic_mt(per_k=2, seed=3))
    assert alone and alone == {i: s for i, s in full.items() if "-k2-" in i}


def test_deferred_builds_ask_for_what_is_not_cached(tmp_path, monkeypatch) -> None:
    monkeypatch.setenv("INFOSEEK_CACHE_DIR", str(tmp_path))
    domain_records("logic-mt", ks=[1], per_k=1, seed=11)
    version = get_builder("logic-mt")[1].data_version
    with deferred_builds(), pytest.raises(SplitsNeeded) as raised:
        domain_records("logic-mt", ks=[1, 2, 3], per_k=1, seed=11)
    assert raised.value.stages == [Stage("logic-mt", version, 11, 1, 2),
                                   Stage("logic-mt", version, 11, 1, 3)]
    with deferred_builds():  # all cached: read as usual
        assert len(domain_records("logic-mt", ks=[1], per_k=1, seed=11)) == 1


def test_each_split_is_built_once_before_the_makers_run(tmp_path, monkeypatch,
                                                        capfd) -> None:
    monkeypatch.setenv("INFOSEEK_CACHE_DIR", str(tmp_path / "first"))
    calls: list[str] = []

    def make(name: str, reads: list[tuple[str, list[int]]]) -> list[str]:
        calls.append(name)
        return [dumps_record(r) for builder, ks in reads
                for r in domain_records(builder, ks=ks, per_k=1, seed=21)]

    makers = [
        functools.partial(make, "a", [("logic-mt", [1, 2])]),
        functools.partial(make, "b", [("logic-mt", [2])]),  # shares a stage with a
        functools.partial(make, "c", [("clinguide", [1]), ("logic-mt", [3])]),  # two rounds
    ]
    made = made_after_builds(makers, workers=2)
    err = capfd.readouterr().err
    for builder, k in (("logic-mt", 1), ("logic-mt", 2), ("logic-mt", 3), ("clinguide", 1)):
        assert sum(line.startswith(f"infoseek: built {builder} k={k} ")
                   for line in err.splitlines()) == 1, err
    assert calls.count("a") == 2 and calls.count("b") == 2 and calls.count("c") == 3
    monkeypatch.setenv("INFOSEEK_CACHE_DIR", str(tmp_path / "plain"))
    assert made == [maker() for maker in makers]  # the records each builds on its own


def test_a_maker_error_is_the_makers_own(tmp_path, monkeypatch) -> None:
    monkeypatch.setenv("INFOSEEK_CACHE_DIR", str(tmp_path))

    def bad() -> None:
        domain_records("logic-mt", ks=[1], per_k=1, seed=4)
        raise ValueError("-T oracle: no such oracle")

    with pytest.raises(ValueError, match="no such oracle"):
        made_after_builds([bad], workers=2)


@pytest.mark.parametrize("ks", [[1], [1, 2]])  # built here, or in worker processes
def test_a_build_that_fails_fails_in_its_maker_with_the_builders_error(
        ks, tmp_path, monkeypatch) -> None:
    monkeypatch.setenv("INFOSEEK_CACHE_DIR", str(tmp_path))

    def failing(_spec):
        def build(*_args, **_kwargs):
            raise BuildError("no valid k=1 problem after 3 attempts (seed=6)")
        return build

    monkeypatch.setattr(datasets, "resolve", failing)
    with pytest.raises(BuildError, match="after 3 attempts"):
        made_after_builds([lambda: domain_records("logic-mt", ks=ks, per_k=1, seed=6)],
                          workers=2)


def test_a_sweeps_splits_are_built_before_its_tasks_are_made(tmp_path, monkeypatch,
                                                             capfd) -> None:
    """`infoseek sweep --workers N` builds them once before starting its N processes."""
    from infoseek.inspect_tasks.report.sweeps import (
        build_splits,
        made_task,
        recipe_runs,
        sweep_tasks,
    )

    monkeypatch.setenv("INFOSEEK_CACHE_DIR", str(tmp_path))
    build_splits("force_ask", per_k=1)
    assert len(_built(capfd.readouterr().err, "logic-mt")) == 4  # k = 1..4, once each
    registered = sweep_tasks()
    with deferred_builds():  # every split the runs read is in the cache now
        for task, args in recipe_runs("force_ask", None, 1, registered):
            made_task(registered[task], task, args)


@pytest.mark.parametrize(("builder", "per_k", "limit", "built"), [
    ("logic-mt", 5, 3, ["k=1 (per_k=3"]),
    ("logic-mt", 2, 3, ["k=1 (per_k=2", "k=2 (per_k=1"]),  # across two k
    ("gsme-mt-ext", 4, 2, ["k=1 (per_k=2"]),
    ("genereg", 3, 2, ["k=1 (per_k=2"]),  # three streams per k, the first stream first
    ("clinguide", 3, 4, ["k=1 (per_k=3"]),  # three records per pathway
])
def test_a_limited_read_builds_only_the_first_problems_byte_for_byte(
        builder, per_k, limit, built, tmp_path, monkeypatch, capfd) -> None:
    monkeypatch.setenv("INFOSEEK_CACHE_DIR", str(tmp_path / "limited"))
    limited = domain_records(builder, ks=[1, 2], per_k=per_k, seed=7, limit=limit)
    lines = _built(capfd.readouterr().err, builder)
    assert [line.split(f"built {builder} ")[1].split(",")[0] for line in lines] == built
    monkeypatch.setenv("INFOSEEK_CACHE_DIR", str(tmp_path / "full"))
    full = domain_records(builder, ks=[1, 2], per_k=per_k, seed=7)
    capfd.readouterr()
    assert len(limited) == limit
    assert [dumps_record(r) for r in limited] == [dumps_record(r) for r in full[:limit]]
    again = domain_records(builder, ks=[1, 2], per_k=per_k, seed=7, limit=limit)
    assert again == limited and not _built(capfd.readouterr().err, builder)  # cut from full


def test_more_workers_than_a_runs_samples_is_refused_before_any_worker(tmp_path,
                                                                      monkeypatch) -> None:
    """A share of a run with fewer samples than workers would be empty: `build_splits`
    says which run and what to change, before `sweep --workers N` starts its processes."""
    from infoseek.inspect_tasks.report.sweeps import SweepError, build_splits

    monkeypatch.setenv("INFOSEEK_CACHE_DIR", str(tmp_path))
    build_splits("force_ask", per_k=1, workers=2)  # every run has two samples or more
    with pytest.raises(SweepError, match=r"--workers 400 needs at least 400 samples in "
                                         r"every run, and logic_mt .* use --workers \d+ "
                                         r"or a larger --per-k"):
        build_splits("force_ask", per_k=1, workers=400)
