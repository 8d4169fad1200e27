"""Time to the first sample (issue 33, item 4): how long a command runs before Inspect
starts its first sample, which is mostly the dataset builds that happen when the tasks
are made.

    python benchmarks/bench_first_sample.py                 # every case below, once
    python benchmarks/bench_first_sample.py --runs 3        # medians of 3
    python benchmarks/bench_first_sample.py --case limit    # one case
    python benchmarks/bench_first_sample.py --per-k 1       # a smaller sweep (proxy)

Cases, each a fresh process:

- ``sweep-cold``: ``infoseek sweep suite --model infoseek/optimal --per-k 2`` with an empty
  dataset cache (``INFOSEEK_CACHE_DIR`` a new folder), so every split is built;
- ``sweep-warm``: the same command again on the cache the cold run filled (a new log
  folder, so the sweep starts from scratch but its splits are read back);
- ``limit``: ``inspect eval inspect_tasks/logic_mt.py --limit 4 --model infoseek/optimal``
  with an empty cache (Inspect's ``--limit`` cannot reach the task, so the whole default
  split, 800 problems, is built: `infoseek.builders.datasets`);
- ``task-limit``: the same with ``-T limit=2`` too, which builds only the two problems
  the four samples come from.

The child registers an Inspect hook (``on_sample_start``) that records the seconds since
the child started and then ends the child at once: what is timed is the way to the
first sample, not the run. A child that ends without starting a sample is reported with
its last lines of output. Wall times on a shared machine move with the load, which is
printed beside them (``os.getloadavg``); CPU time (user + system of the child, from
``os.times``) moves less.

Measured on 2 CPUs shared with other work (load average 8 to 13, so the wall times are
loose; before = commit 031c43c, after = the builds of issue 33 item 4), seconds to the
first sample (child CPU in brackets), one run each, before and after alternated:

| case | before | after |
|---|---|---|
| sweep suite --per-k 2, cold | 97.8 (32.7), 145.2 (31.2) | 97.5 (30.2), 167.9 (27.6) |
| sweep suite --per-k 2, warm | 77.9 (12.7), 53.6 (13.3) | 34.5 (9.6), 20.6 (8.0) |
| logic_mt --limit 4, cold | 75.7 (25.7), 88.3 (19.2) | 85.9 (22.5), 121.1 (24.1) |
| logic_mt -T limit=2 --limit 4, cold | refused (limit needed source) | 28.9 (6.5), 39.6 (6.6) |

At load 2 to 4, before: 53.1 (27.5) cold, 10.6 (7.7) warm, 32.8 (19.1) for --limit 4.
The sweep's builds now run two at a time, but one stage is most of them (genereg k=4 at
per_k 2: one problem takes about 30 s), so at this load the cold sweep did not move;
`-T limit` cuts the CPU to the first sample by three quarters. Why the warm sweep is
faster is not established: making its 12 tasks from the cache takes 0.4-0.5 s in one
process before and after, and "after" holds other work of the same days beside the builds.
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

DRIVER = '''
import os
import sys
import time

START = time.perf_counter()
MARK = os.environ["BENCH_FIRST_SAMPLE_FILE"]

from inspect_ai.hooks import Hooks, hooks


@hooks(name="bench_first_sample", description="time to the first sample")
class FirstSample(Hooks):
    async def on_sample_start(self, data):
        with open(MARK, "w") as fh:
            fh.write(f"{time.perf_counter() - START:.3f}\\n")
        os._exit(0)


what, args = sys.argv[1], sys.argv[2:]
if what == "infoseek":
    from infoseek.cli import main
    sys.exit(main(args))
from infoseek.inspect_tasks.inspect_private import inspect_cli
sys.argv = ["inspect", *args]
inspect_cli()()
'''

CASES = ("sweep-cold", "sweep-warm", "limit", "task-limit")


def run_case(case: str, per_k: int, cache: str, work: str) -> tuple[float | None, float, str]:
    """(seconds to the first sample or None, child CPU seconds, tail of its output)."""
    log_dir = tempfile.mkdtemp(prefix="logs-", dir=work)
    if case.startswith("sweep"):
        command = ["infoseek", "sweep", "suite", "--model", "infoseek/optimal",
                   "--per-k", str(per_k), "--log-dir", log_dir]
    else:
        command = ["inspect", "eval", "inspect_tasks/logic_mt.py", "--limit", "4",
                   "--model", "infoseek/optimal", "--log-dir", log_dir]
        if case == "task-limit":
            command += ["-T", "limit=2"]
    mark = Path(work) / "first-sample"
    mark.unlink(missing_ok=True)
    env = {**os.environ, "INFOSEEK_CACHE_DIR": cache, "BENCH_FIRST_SAMPLE_FILE": str(mark),
           "INSPECT_DISPLAY": "none"}
    before = os.times()
    done = subprocess.run([sys.executable, "-c", DRIVER, *command], cwd=ROOT, env=env,
                          stdout=subprocess.PIPE, stderr=subprocess.STDOUT, check=False)
    after = os.times()
    cpu = (after.children_user - before.children_user
           + after.children_system - before.children_system)
    seconds = float(mark.read_text()) if mark.exists() else None
    return seconds, cpu, done.stdout.decode("utf-8", "replace")[-1500:]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=1, help="timed runs of each case")
    parser.add_argument("--per-k", type=int, default=2, help="the sweep's --per-k (2)")
    parser.add_argument("--case", choices=CASES, action="append",
                        help="run only this case (repeatable; default all)")
    args = parser.parse_args()
    cases = args.case or list(CASES)
    results: dict[str, list[tuple[float, float]]] = {case: [] for case in cases}
    for run in range(args.runs):
        with tempfile.TemporaryDirectory(prefix="bench-first-sample-") as work:
            sweep_cache = tempfile.mkdtemp(prefix="cache-sweep-", dir=work)
            for case in cases:
                cache = (sweep_cache if case.startswith("sweep")
                         else tempfile.mkdtemp(prefix="cache-", dir=work))
                if case == "sweep-warm" and "sweep-cold" not in cases:
                    run_case("sweep-cold", args.per_k, cache, work)  # fill the cache
                load = os.getloadavg()[0]
                start = time.perf_counter()
                seconds, cpu, tail = run_case(case, args.per_k, cache, work)
                wall = time.perf_counter() - start
                if seconds is None:
                    print(f"{case}: no sample started (ran {wall:.1f} s); last output:\n"
                          f"{tail}", file=sys.stderr)
                    sys.exit(1)
                results[case].append((seconds, cpu))
                print(f"run {run + 1} {case}: first sample at {seconds:.1f} s "
                      f"(child CPU {cpu:.1f} s, load {load:.1f})", flush=True)
    label = f"sweep suite --per-k {args.per_k}"
    print(f"\ntime to the first sample, median of {args.runs} (load now "
          f"{os.getloadavg()[0]:.1f}, {os.cpu_count()} CPUs):")
    for case in cases:
        what = {"sweep-cold": f"{label}, cold cache", "sweep-warm": f"{label}, warm cache",
                "limit": "inspect eval logic_mt --limit 4, cold cache",
                "task-limit": "... -T limit=2 --limit 4, cold cache"}[case]
        seconds = statistics.median(r[0] for r in results[case])
        cpu = statistics.median(r[1] for r in results[case])
        print(f"  {what:<44} {seconds:7.1f} s  (CPU {cpu:.1f} s)")


if __name__ == "__main__":
    main()
