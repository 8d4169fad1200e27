"""The one records loader of every domain: a built split (cached per k) or the records of
a source file, for a builder registered in `infoseek.domains`.

    records = domain_records("logic-mt", ks=[1, 2], per_k=200, seed=0)
    records = domain_records("logic-mt", ks=[1, 2, 3, 4], per_k=200, limit=2)
    records = domain_records("gsme-mt-ext", ks=[1], source="gsme_q_mt_ext.csv")

A source is read with the source formats of the builder's domain
(`infoseek.builders.published.sources`); without one, each k is built (or read back from
the cache, keyed by the builder's name, its data version and the parameters), so a run
over k=[1,2] reuses a run over k=1, and a run restricted to some k (``-T k=3``) builds
only those. A k that is built prints its progress on stderr (a line as it starts, at
least one every 10 s even while the builder is silent, one when it is done); one read
from the cache prints nothing. `per_k` is at most the builder's cap
(`infoseek.domains.BuilderSpec.max_per_k`), as in `infoseek build`.

Only what a limited run uses is built. Inspect's own ``--limit`` cannot tell a task
anything: the pinned Inspect takes ``len(dataset)`` when the task is made and, when the
run starts, reads the id of every sample before it slices off the first N (it reserves
them all), so a dataset built lazily would be built whole all the same. The task's
``-T limit=N`` is what a task sees: the first N problems, in split order (k by k,
problem by problem), and only those are built. They are the same records, byte for
byte, as the first N of the whole split, because every builder makes the first
problems of a k the same way whatever `per_k` asks for (each problem is drawn from its
own seed, index and k, or from a stream the later problems only continue), so the
first N of a k are the first N of a build with ``per_k = N``; a build that makes fewer
than N (a builder may make fewer than asked) falls back to the whole k. Hence
``inspect eval logic_mt.py -T limit=2 --limit 4`` builds two problems, where ``--limit
4`` alone builds the whole split first (800 problems by default).

A sweep (`made_after_builds`) builds every split its tasks read once, several at a
time, before the first task is made.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from concurrent.futures import ProcessPoolExecutor
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any, TypeVar

from infoseek.builders.cache import cache_path, load_or_build
from infoseek.builders.jobs import StageProgress
from infoseek.builders.published.sources import source_records
from infoseek.domains import get_builder, resolve
from infoseek.engine import ordered_values
from infoseek.records import engine_from_record


def domain_records(builder: str, *, ks: list[int] | tuple[int, ...], per_k: int | None = None,
                   seed: int = 0, source: str | None = None,
                   source_format: str | None = None,
                   limit: int | None = None,
                   inputs: Mapping[str, Any] | None = None) -> list[dict[str, Any]]:
    """Records of registered builder `builder` for the k values `ks`: built with `seed`
    and `per_k` problems per k (the builder's default when None), or read from `source`
    (our JSONL records or a released file of the domain; `inputs`: the source format's
    extra inputs, e.g. its folder of rule files). `limit`: only the first `limit`
    problems, in order (k by k); of a built split only those are built (module
    docstring)."""
    domain, spec = get_builder(builder)
    given = {name: value for name, value in (inputs or {}).items() if value is not None}
    if source:
        return source_records(source, domain=domain.name, source_format=source_format,
                              ks=list(ks), limit=limit, inputs=given)
    if source_format:
        raise ValueError("source_format needs a source= file")
    if given:
        raise ValueError(f"{next(iter(given))} needs a source= file")
    if not isinstance(seed, int) or isinstance(seed, bool):
        raise ValueError(f"seed must be an integer; got {seed!r}")
    per_k = spec.default_per_k if per_k is None else per_k
    if not isinstance(per_k, int) or isinstance(per_k, bool) or per_k < 1:
        raise ValueError(f"per_k must be a positive integer; got {per_k!r}")
    if per_k > spec.max_per_k:
        raise ValueError(f"per_k must be at most {spec.max_per_k} for {spec.name} (the "
                         f"builder's cap); got {per_k}")
    if limit is not None and (isinstance(limit, bool) or not isinstance(limit, int)
                              or limit < 1):
        raise ValueError(f"limit must be a positive integer; got {limit!r}")
    stages = [Stage(spec.name, spec.data_version, seed, per_k, k) for k in ks]
    if limit is None:
        _defer_missing(stages)
        return [record for stage in stages for record in _read(stage)]
    out: list[dict[str, Any]] = []
    for stage in stages:
        if len(out) >= limit:
            break
        out.extend(_first_records(stage, limit - len(out)))
    return out


def _first_records(stage: Stage, want: int) -> list[dict[str, Any]]:
    """The first `want` records of a stage, building no more than they need: a stage
    not in the cache is built with ``per_k = want`` when that is fewer, since a
    builder's first records of a k do not depend on `per_k` (module docstring); a
    smaller build that makes fewer than `want` records (a builder that may make fewer
    than asked) cannot say what the larger one holds, so the whole stage is built."""
    if want < stage.per_k and not stage.path().exists():
        part = replace(stage, per_k=want)
        _defer_missing([part])
        records = _read(part)
        if len(records) >= want:
            return records[:want]
    _defer_missing([stage])
    return _read(stage)[:want]


def _defer_missing(stages: list[Stage]) -> None:
    """Inside `deferred_builds`: `SplitsNeeded` for the `stages` not in the cache."""
    deferring = _DEFERRING.get()
    if deferring is None:
        return
    missing = [stage for stage in stages
               if stage not in deferring and not stage.path().exists()]
    if missing:
        raise SplitsNeeded(missing)


def _read(stage: Stage) -> list[dict[str, Any]]:
    """A stage's records, from the cache or built (and cached) with progress lines."""
    return load_or_build(stage.builder, stage.data_version, stage.params(),
                         lambda: _build_stage(resolve(get_builder(stage.builder)[1].build),
                                              stage.builder, stage.seed, stage.per_k,
                                              stage.k))


@dataclass(frozen=True)
class Stage:
    """One k of one built split: the unit that is built and cached."""

    builder: str
    data_version: str
    seed: int
    per_k: int
    k: int

    def params(self) -> dict[str, int]:
        return {"seed": self.seed, "per_k": self.per_k, "k": self.k}

    def path(self) -> Path:
        return cache_path(self.builder, self.data_version, self.params())


class SplitsNeeded(Exception):
    """Raised by `domain_records` inside `deferred_builds` instead of building: the
    stages it would build. Not a `ValueError`, so a task's own error handling lets it
    pass."""

    def __init__(self, stages: list[Stage]) -> None:
        super().__init__(f"{len(stages)} split stages to build first")
        self.stages = stages


_DEFERRING: ContextVar[frozenset[Stage] | None] = ContextVar("infoseek_deferring",
                                                               default=None)


@contextmanager
def deferred_builds(allowed: Iterable[Stage] = ()) -> Iterator[None]:
    """Within it, `domain_records` raises `SplitsNeeded` for the stages that are not in
    the cache rather than build them, except the `allowed` ones, built as usual."""
    token = _DEFERRING.set(frozenset(allowed))
    try:
        yield
    finally:
        _DEFERRING.reset(token)


T = TypeVar("T")


def made_after_builds(makers: Sequence[Callable[[], T]], *, workers: int | None = None
                      ) -> list[T]:
    """What each of `makers` returns (tasks, say), with every split they read built
    first, once, and the stages of different makers built at the same time.

    Each maker is called with its builds deferred (`deferred_builds`): one whose splits
    are all cached returns at once and is kept; one that needs a stage raises
    `SplitsNeeded` and is called again once the stages every maker asked for are built
    (`build_stages`, a stage asked for twice built once). A maker called again may ask
    for a further stage (a task reading two splits), so this repeats; a stage that was
    built but is not in the cache after (a cache that cannot be written, a builder that
    failed in its worker) is built by the maker itself on its next call, so its records
    and its errors are the ones the maker would give on its own."""
    results: dict[int, T] = {}
    pending = list(range(len(makers)))
    tried: set[Stage] = set()
    while pending:
        needed: list[Stage] = []
        again: list[int] = []
        for index in pending:
            try:
                with deferred_builds(tried):
                    results[index] = makers[index]()
            except SplitsNeeded as exc:
                needed.extend(stage for stage in exc.stages if stage not in needed)
                again.append(index)
        build_stages(needed, workers=workers)
        tried.update(needed)
        pending = again
    return [results[index] for index in range(len(makers))]


def build_stages(stages: Sequence[Stage], *, workers: int | None = None) -> None:
    """Build the `stages` not in the cache yet into it, up to `workers` at a time
    (default: one per CPU), each in its own process with its own progress lines; the
    highest k first (the slowest, as a rule). A stage whose build fails is left out
    of the cache (its maker builds it again and reports the error). One stage, or one
    worker, builds in this process with the builder's own worker processes."""
    todo = sorted({stage for stage in stages if not stage.path().exists()},
                  key=lambda stage: (-stage.k, -stage.per_k, stage.builder, stage.seed))
    workers = min(workers or os.cpu_count() or 1, len(todo))
    if workers <= 1:
        for stage in todo:
            try:
                _build_cached(stage, None)
            except Exception:  # any builder failure: the maker builds it and says why
                pass
        return
    with ProcessPoolExecutor(max_workers=workers) as pool:
        for future in [pool.submit(_build_cached, stage, 1) for stage in todo]:
            try:
                future.result()
            except Exception:  # any builder failure: the maker builds it and says why
                pass


def _build_cached(stage: Stage, workers: int | None) -> None:
    """Build one stage into the cache (a module-level function: it runs in a worker
    process); `workers`: the builder's own worker processes."""
    _, spec = get_builder(stage.builder)
    build = resolve(spec.build)
    load_or_build(stage.builder, stage.data_version, stage.params(),
                  lambda: _build_stage(build, stage.builder, stage.seed, stage.per_k,
                                       stage.k, workers=workers))


PROGRESS_INTERVAL = 10.0
"""The longest a build stage goes without a progress line, in seconds."""


def _build_stage(build: Any, name: str, seed: int, per_k: int, k: int,
                 workers: int | None = None) -> list[dict[str, Any]]:
    """One k of a split, built (not in the cache) with progress lines on stderr
    (`infoseek.builders.jobs.StageProgress`: at least one every `PROGRESS_INTERVAL`
    seconds, whether or not the builder reports)."""
    with StageProgress(f"{name} k={k} (per_k={per_k}, seed={seed})",
                       interval=PROGRESS_INTERVAL) as progress:
        records = build(seed, per_k, [k], workers=workers, progress=progress)
        progress.finish(len(records))
    return records


def full_information_record(record: dict[str, Any]) -> dict[str, Any]:
    """The record with every leaf of its hidden world revealed: the target is Known and
    nothing is left to ask (k = 0, empty MSS); ``original_k`` keeps the degree."""
    world = record["hidden_world"]
    return {
        **record,
        "observed": dict(world),
        "queryable": [],
        "candidate_queries": [],
        "alternative_only": [],
        "k": 0,
        "mss_family": [[]],
        "original_k": record["k"],
    }


def full_information_records(record: dict[str, Any]) -> list[dict[str, Any]]:
    """The fully informed versions of a record: with a hidden world, the one of
    `full_information_record`; otherwise one per value of ``target_values``, each
    observing every variable of one feasible world with that target value (the first in
    domain order, found with the engine's ``variable_values``), id ``<id>-<value>``."""
    if "hidden_world" in record:
        return [full_information_record(record)]
    engine = engine_from_record(record)
    out = []
    for value in record["target_values"]:
        world = dict(record["observed"])
        for var in engine.variables:
            if var == engine.target or var in world:
                continue
            choices = ordered_values(engine.variable_values(var, world, value),
                                     engine.domain(var))
            if not choices:
                raise ValueError(f"{record['id']}: no feasible world gives the target "
                                 f"{value!r}")
            world[var] = choices[0]
        out.append({**record, "id": f"{record['id']}-{value}", "observed": world,
                    "target_values": [value], "queryable": [], "candidate_queries": [],
                    "alternative_only": [], "k": 0, "mss_family": [[]],
                    "original_k": record["k"]})
    return out
