"""Shared build plumbing: validated k lists and ordered (optionally parallel) job runs.

Results come back in job order whatever the worker count, so builds stay byte-identical.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterable
from concurrent.futures import ProcessPoolExecutor
from typing import Any


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
