"""Shared build plumbing: validated k lists, ordered (optionally parallel) job runs, and
the progress lines of a build that runs inside a task (`StageProgress`).

Results come back in job order whatever the worker count, so builds stay byte-identical.
"""

from __future__ import annotations

import os
import random
import sys
import time
from collections.abc import Callable, Iterable
from concurrent.futures import ProcessPoolExecutor
from typing import Any

from infoseek.domains import BuilderSpec

Record = dict[str, Any]


class BuildError(RuntimeError):
    """A builder could not produce a valid problem (or the validator rejected one)."""


def first_valid_problem(
    spec: BuilderSpec, *, seed: int, k: int, index: int, max_attempts: int,
    candidate: Callable[[random.Random, int], Record | None],
    validate: Callable[[Record], list[str]],
) -> Record:
    """The first candidate that the validator accepts; deterministic in (seed, k, index).

    Each attempt draws from its own generator, seeded by the builder's random stream
    (`BuilderSpec.random_stream`), seed, k, index and attempt; the record gets an id first
    (``<builder>-s<seed>-k<k>-<index>``) and its provenance last (`builder`: the builder's
    registered name; `version`: its builder version). A rejected candidate is a builder bug
    and raises at once.
    """
    if not 1 <= k <= spec.max_k:
        raise ValueError(f"k must be between 1 and {spec.max_k}, got {k}")
    for attempt in range(max_attempts):
        rng = random.Random(f"{spec.random_stream}:{seed}:{k}:{index}:{attempt}")
        record = candidate(rng, k)
        if record is None:
            continue
        errors = validate(record)
        if errors:
            raise BuildError(f"validator rejected a candidate (seed={seed}, k={k}): {errors}")
        record = {"id": f"{spec.name}-s{seed}-k{k}-{index:04d}", **record}
        record["provenance"] = {"builder": spec.name, "version": spec.version, "seed": seed,
                                "index": index, "attempt": attempt}
        return record
    raise BuildError(f"no valid k={k} problem after {max_attempts} attempts (seed={seed})")


def _call(job: tuple) -> Record:
    return job[0](*job[1:])


def build_split_with(
    build_problem: Callable[[int, int, int], Record], spec: BuilderSpec, seed: int,
    per_k: int, ks: Iterable[int], workers: int | None,
    progress: Callable[[int, int], None] | None,
) -> list[Record]:
    """`per_k` problems for each k (each at most `spec.max_k`), in (k, index) order;
    `build_problem` must be a module-level function (it crosses process boundaries)."""
    ks = check_ks(ks, spec.max_k, per_k)
    jobs = [(build_problem, seed, k, i) for k in ks for i in range(per_k)]
    return run_jobs(_call, jobs, workers, progress)


def run_jobs(fn: Callable[[Any], dict[str, Any]], jobs: list[Any], workers: int | None,
             progress: Callable[[int, int], None] | None) -> list[dict[str, Any]]:
    """Run jobs in order (serially or in a process pool); results in job order."""
    out: list[dict[str, Any]] = []
    if workers is None:
        workers = min(len(jobs), os.cpu_count() or 1)
    if workers <= 1 or len(jobs) < 8:
        for job in jobs:
            out.append(fn(job))
            if progress:
                progress(len(out), len(jobs))
        return out
    with ProcessPoolExecutor(max_workers=workers) as pool:
        for record in pool.map(fn, jobs, chunksize=4):
            out.append(record)
            if progress:
                progress(len(out), len(jobs))
    return out


def check_ks(ks: Iterable[int], max_k: int, per_k: int) -> list[int]:
    ks = sorted(set(ks))
    for k in ks:
        if not 1 <= k <= max_k:
            raise ValueError(f"k must be between 1 and {max_k}, got {k}")
    if per_k < 0:
        raise ValueError("per_k must be >= 0")
    return ks


class StageProgress:
    """The progress of one build stage as plain lines on `stream` (stderr by default): one
    when the stage starts, one at most every `interval` seconds while the builder reports
    (it is the builder's ``progress(done, total)``), and one when it ends (`finish`).

    Plain whole lines, no carriage return or colour, so that they read the same under
    `inspect eval` (a task builds its split while Inspect's display is suspended, before
    the run starts: a long genereg build showed nothing for minutes), in a log file and
    in CI."""

    def __init__(self, label: str, *, stream: Any = None, interval: float = 10.0,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self.label, self.interval, self.clock = label, interval, clock
        self.stream = stream if stream is not None else sys.stderr
        self.start = self.last = clock()
        self._line(f"building {label} ...")

    def __call__(self, done: int, total: int) -> None:
        now = self.clock()
        if now - self.last >= self.interval and done < total:
            self.last = now
            self._line(f"building {self.label}: {done}/{total} problems "
                       f"({now - self.start:.0f} s)")

    def finish(self, count: int) -> None:
        self._line(f"built {self.label}: {count} problems in {self.clock() - self.start:.1f} s")

    def _line(self, text: str) -> None:
        try:
            self.stream.write(f"infoseek: {text}\n")
            self.stream.flush()
        except (OSError, ValueError):
            pass  # a closed or broken stream never stops a build
