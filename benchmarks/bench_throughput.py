"""Samples per second of each default seek task under `infoseek/optimal`, so that a
regression shows.

    python benchmarks/bench_throughput.py              # per_k = 5 of each task
    python benchmarks/bench_throughput.py --per-k 20

Each task is built once untimed (the dataset cache, a fresh temporary folder, is warm for
the timed run), then one timed `inspect_ai.eval` of it prints samples, seconds and samples
per second. On a shared machine the absolute numbers follow the load (issue 22 quotes
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


def task(name: str, per_k: int):
    module = __import__(f"infoseek.inspect_tasks.{name}", fromlist=[name])
    factory = getattr(module, name)
    return factory() if name == "clinguide_mt" else factory(per_k=per_k)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--per-k", type=int, default=5)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        os.environ["INFOSEEK_CACHE_DIR"] = str(Path(tmp) / "cache")
        print(f"{'task':14s} {'samples':>8s} {'seconds':>8s} {'samples/s':>10s}")
        for name in TASKS:
            task(name, args.per_k)  # untimed: builds the split into the cache
            start = time.perf_counter()
            [log] = eval(task(name, args.per_k), model="infoseek/optimal",
                         log_dir=str(Path(tmp) / "logs"), display="none", ctl_server=False)
            seconds = time.perf_counter() - start
            assert log.status == "success", log.error
            count = len(log.samples or [])
            print(f"{name:14s} {count:8d} {seconds:8.1f} {count / seconds:10.1f}", flush=True)


if __name__ == "__main__":
    main()
