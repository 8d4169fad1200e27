"""Shared build plumbing: validated k lists, ordered (optionally parallel) job runs, and
the progress lines of a build that runs inside a task (`StageProgress`).

Results come back in job order whatever the worker count, so builds stay byte-identical.
"""

from __future__ import annotations

import os
import random
import sys
import threading
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
    when the stage starts, then at least one every `interval` seconds until it ends
    (`finish`), and one when it ends. Use it as a context manager (or call `start` and
    `stop`) to have the lines come without the builder's help.

    The builder reports through ``progress(done, total)`` (this object called), but a
    builder may go long without calling it: genereg's candidate pool, or one hard problem,
    took 31 s between two calls. So a daemon thread (`start` begins it) wakes up when
    `interval` seconds have passed since the last line and writes one itself, with the
    last count the builder gave; a call from the builder writes one only when `interval`
    seconds have passed since the last line, so lines come about every `interval`
    seconds, never in a flood. A thread can run while the builder computes in Python (the
    interpreter switches threads every few milliseconds) or waits on worker processes.

    Plain whole lines, no carriage return or colour, so that they read the same under
    `inspect eval` (a task builds its split while Inspect's display is suspended, before
    the run starts), in a log file and in CI. `clock` is read for every time shown and
    compared; the thread's sleeps are real seconds (`interval` less a small margin, so a
    loaded machine's late wake-up still lands inside the interval)."""

    def __init__(self, label: str, *, stream: Any = None, interval: float = 10.0,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self.label, self.interval, self.clock = label, interval, clock
        self.stream = stream if stream is not None else sys.stderr
        self.done: int | None = None
        self.total: int | None = None
        self._lock = threading.Lock()
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        self.start_time = self.last = clock()
        self._line(f"building {label} ...")

    def __enter__(self) -> StageProgress:
        self.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.stop()

    def start(self) -> None:
        """Begin the thread that writes a line when the builder has been silent for
        `interval` seconds (`stop`, or `finish`, ends it)."""
        if self._thread is None:
            self._thread = threading.Thread(target=self._watch, name=f"progress {self.label}",
                                            daemon=True)
            self._thread.start()

    def stop(self) -> None:
        self._stop.set()
        if self._thread is not None and self._thread is not threading.current_thread():
            self._thread.join()

    def __call__(self, done: int, total: int) -> None:
        with self._lock:
            self.done, self.total = done, total
            now = self.clock()
            if now - self.last >= self.interval and done < total:
                self._count_line(now)

    def tick(self, margin: float = 0.0) -> bool:
        """Write a line when `interval` seconds less `margin` have passed since the last
        one (what the thread does each time it wakes up); True when it wrote one."""
        with self._lock:
            now = self.clock()
            if now - self.last < self.interval - margin:
                return False
            self._count_line(now)
            return True

    def finish(self, count: int) -> None:
        self.stop()
        with self._lock:
            self._line(f"built {self.label}: {count} problems in "
                       f"{self.clock() - self.start_time:.1f} s")

    def _count_line(self, now: float) -> None:
        self.last = now
        elapsed = f"({now - self.start_time:.0f} s)"
        if self.done is None:
            self._line(f"building {self.label}: no problem done yet {elapsed}")
        else:
            self._line(f"building {self.label}: {self.done}/{self.total} problems {elapsed}")

    def _watch(self) -> None:
        margin = min(1.0, self.interval / 10)
        while True:
            with self._lock:
                wait = self.last + self.interval - margin - self.clock()
            if self._stop.wait(max(wait, 0.0)):
                return
            self.tick(margin)

    def _line(self, text: str) -> None:
        try:
            self.stream.write(f"infoseek: {text}\n")
            self.stream.flush()
        except (OSError, ValueError):
            pass  # a closed or broken stream never stops a build
