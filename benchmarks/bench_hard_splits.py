"""The hard logic split (`-T split=hard`): build time, and the two exact methods' agreement
and times.

    python benchmarks/bench_hard_splits.py                # 200 problems per k, k = 5..8
    python benchmarks/bench_hard_splits.py --per-k 20     # quicker

1. builds the split with `--workers` processes (default 2) and prints the wall time
   against the 2-minute target, with the CPU time of the whole build (every record is
   validated by the hitting-set search and cross-checked by the SAT method while it is
   built);
2. reruns both exact methods on every record, apart, and prints how many agree on k and
   on the whole MSS family, and each method's total time: the hitting-set search of
   `infoseek.analysis` on the Horn engine and `infoseek.engines.satmss` (SAT pair solver
   and cardinality-constrained master);
3. prints the records' shape per k (attributes, rules, depth, family size).

The machine may be shared: wall time then depends on the others' load; the CPU time and
the ratio of the two methods' times measured in this run are the steadier figures.
"""

from __future__ import annotations

import argparse
import resource
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from infoseek.analysis import minimal_sufficient_sets
from infoseek.builders.logic.logic_mt import HARD_DEFAULT_KS, build_hard_split
from infoseek.engines.satmss import sat_mss
from infoseek.records import engine_from_record


def cpu_seconds() -> float:
    """CPU time of this process and its finished children (the build's workers)."""
    own = resource.getrusage(resource.RUSAGE_SELF)
    children = resource.getrusage(resource.RUSAGE_CHILDREN)
    return own.ru_utime + own.ru_stime + children.ru_utime + children.ru_stime


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--per-k", type=int, default=200)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    ks = list(HARD_DEFAULT_KS)
    wall, cpu = time.perf_counter(), cpu_seconds()
    records = build_hard_split(args.seed, args.per_k, ks, workers=args.workers)
    wall, cpu = time.perf_counter() - wall, cpu_seconds() - cpu
    print(f"build: {len(records)} problems (k = {ks[0]}..{ks[-1]}, {args.per_k} per k) in "
          f"{wall:.1f} s wall with {args.workers} workers (target 120 s: "
          f"{wall / 120:.2f} of it), {cpu:.1f} s CPU")
    agree = 0
    times = {"hitting-set": 0.0, "sat": 0.0}
    for record in records:
        start = time.process_time()
        first = minimal_sufficient_sets(engine_from_record(record), record["queryable"],
                                        record["k"])
        times["hitting-set"] += time.process_time() - start
        start = time.process_time()
        second = sat_mss(record)
        times["sat"] += time.process_time() - start
        same = (first.k == second.k == record["k"]
                and {frozenset(s) for s in first.family}
                == {frozenset(s) for s in second.family}
                == {frozenset(s) for s in record["mss_family"]})
        agree += same
    print(f"agreement: {agree} of {len(records)} records (same k and whole MSS family, "
          f"both methods and the record)")
    print(f"exact methods, total CPU: hitting-set search {times['hitting-set']:.2f} s, SAT "
          f"method {times['sat']:.2f} s (ratio {times['hitting-set'] / times['sat']:.2f})")
    print("k  attributes (mean, max)  rules (mean, max)  depth (mean, max)  MSS family (mean, max)")
    for k in ks:
        chosen = [r for r in records if r["k"] == k]

        def stat(values: list[int]) -> str:
            return f"{statistics.fmean(values):6.1f} {max(values):4d}"

        print(f"{k}  {stat([len(r['variables']) for r in chosen])}             "
              f"{stat([len(r['engine']['clauses']) for r in chosen])}        "
              f"{stat([r['derivation_depth'] for r in chosen])}        "
              f"{stat([len(r['mss_family']) for r in chosen])}")
    if agree != len(records):
        raise SystemExit("DISAGREEMENT between the two exact methods")


if __name__ == "__main__":
    main()
