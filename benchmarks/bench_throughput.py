"""Samples per second of each default seek task under `infoseek/optimal`, so that a
regression shows.

    python benchmarks/bench_throughput.py              # per_k = 5 of each task
                                                       # (clinguide_mt: its default)
    python benchmarks/bench_throughput.py --per-k 20

First an untimed warm-up: one `inspect_ai.eval` of one sample of each task (per_k = 1,
``limit=1``), so that Inspect's one-time start-up (about 2.7 s measured, once per
process; it used to fall on the first row, logic_mt) and each task's first imports fall
on none of the rows. Then each task is built once untimed (the dataset cache, a fresh
temporary folder, is warm for the timed run), and one timed `inspect_ai.eval` of it
prints samples, seconds and samples per second: each row measures that task alone.
On a shared machine the absolute numbers follow the load (issue 22 quotes
logic_mt 13, genereg_mt 12, clinguide_mt 20, gsme_mt_ext 6 per second at load 3): compare
rows of one run, and runs at similar load.
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from inspect_ai import eval

TASKS = ("logic_mt", "genereg_mt", "clinguide_mt", "gsme_mt_ext")


def task(name: str, per_k: int | None):
    """The task at `per_k`; clinguide_mt at its default when `per_k` is None."""
    module = __import__(f"infoseek.inspect_tasks.{name}", fromlist=[name])
    factory = getattr(module, name)
    return factory() if per_k is None else factory(per_k=per_k)


def run(name: str, per_k: int | None, log_dir: str, limit: int | None = None):
    """One `inspect_ai.eval` of the task under `infoseek/optimal` (the first `limit`
    samples when given); its log, checked a success."""
    [log] = eval(task(name, per_k), model="infoseek/optimal", log_dir=log_dir,
                 display="none", ctl_server=False, limit=limit)
    assert log.status == "success", log.error
    return log


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--per-k", type=int, default=5,
                        help="problems per k of each task (default 5; clinguide_mt: its "
                        "default)")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        os.environ["INFOSEEK_CACHE_DIR"] = str(Path(tmp) / "cache")
        logs = str(Path(tmp) / "logs")
        for name in TASKS:
            run(name, 1, logs, limit=1)  # untimed warm-up: start-up and first imports
        print(f"{'task':14s} {'samples':>8s} {'seconds':>8s} {'samples/s':>10s}")
        for name in TASKS:
            per_k = None if name == "clinguide_mt" else args.per_k
            task(name, per_k)  # untimed: builds the split into the cache
            start = time.perf_counter()
            log = run(name, per_k, logs)
            seconds = time.perf_counter() - start
            count = len(log.samples or [])
            print(f"{name:14s} {count:8d} {seconds:8.1f} {count / seconds:10.1f}", flush=True)


if __name__ == "__main__":
    main()
