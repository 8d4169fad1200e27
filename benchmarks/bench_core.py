"""Core benchmarks: every number is measured in this one run and printed with its ratio.

    python benchmarks/bench_core.py            # full (default split build included)
    python benchmarks/bench_core.py --quick    # smaller samples

Prints:
1. build time of the default Logic-Q-MT split (200 problems for each k = 1..4) and whether
   two builds with the same seed are byte-identical;
2. median per-turn overhead at k = 4: oracle reply + bookkeeping (parse the model's
   question, target values still possible, Known, turn record);
3. the exact fast engine (Horn propagation + implicit-hitting-set MSS search) against the
   brute-force referee on problems with at least 20 variables: the same k and MSS family
   are computed by both, and the ratio of their times is printed, separately for problems
   with at most 13 open (unobserved) variables and with 14-18 (brute force costs
   2^open, so the ratio grows with the open count).
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from infoseek.analysis import minimal_sufficient_sets, possible_target_values
from infoseek.builders.logic.logic_mt import build_problem, build_split
from infoseek.engines.bruteforce import horn_referee, referee_mss_family
from infoseek.jsonl import dumps_record
from infoseek.oracles import Oracle
from infoseek.record_views import askable_variables
from infoseek.records import engine_from_record
from infoseek.solvers.seek.parse_context import ParseContext
from infoseek.solvers.seek.parsing import parse_text_turn


def bench_build(per_k: int) -> None:
    start = time.perf_counter()
    first = build_split(0, per_k, [1, 2, 3, 4])
    seconds = time.perf_counter() - start
    second = build_split(0, per_k, [1, 2, 3, 4])
    same = [dumps_record(r) for r in first] == [dumps_record(r) for r in second]
    print(f"build: {len(first)} problems ({per_k} per k, k=1..4) in {seconds:.2f} s "
          f"({seconds / 60:.2f} of the 60 s target); identical rebuild: {same}")


def bench_turn_overhead(problems: int) -> None:
    timings: list[float] = []
    for index in range(problems):
        record = build_problem(0, 4, index)
        engine = engine_from_record(record)
        askable = askable_variables(record, True)
        context = ParseContext(entity=record["entity"], variables=record["variables"],
                               askable=askable, observed=list(record["observed"]),
                               target=record["target"])
        for value in record["target_values"]:
            oracle = Oracle(engine, value, "adversarial")
            rng = random.Random(index)
            order = list(askable)
            rng.shuffle(order)
            asked: list[str] = []
            for var in order[:10]:
                text = f"I will ask about this one.\nQuestion: Is {record['entity']} {var}?"
                start = time.perf_counter()
                parsed = parse_text_turn(text, context, asked)
                query = parsed.queries[0]
                reply = oracle.reply(query.variable)
                asked.append(query.variable)
                possible = oracle.possible_target_values()
                _turn = {"queries": [{"variable": query.variable, "value": reply}],
                         "possible_target_values": possible, "known": len(possible) == 1}
                timings.append(time.perf_counter() - start)
    median_ms = statistics.median(timings) * 1000
    print(f"turn overhead at k=4: median {median_ms:.3f} ms over {len(timings)} turns "
          f"(p90 {statistics.quantiles(timings, n=10)[-1] * 1000:.3f} ms); "
          f"target < 5 ms: ratio {5 / median_ms:.1f}x under")


def bench_engine_vs_referee(count: int, min_unobserved: int, max_unobserved: int) -> None:
    fast_total = brute_total = 0.0
    used = 0
    index = 0
    while used < count and index < 2000:
        k = (2, 3)[index % 2]
        record = build_problem(7, k, index)
        index += 1
        unobserved = len(record["variables"]) - len(record["observed"])
        if len(record["variables"]) < 20 or not min_unobserved <= unobserved <= max_unobserved:
            continue
        queryable = record["queryable"]
        start = time.perf_counter()
        engine = engine_from_record(record)
        fast = minimal_sufficient_sets(engine, queryable, record["k"])
        possible_target_values(engine)
        fast_total += time.perf_counter() - start
        start = time.perf_counter()
        referee = horn_referee(record["variables"], record["engine"]["clauses"],
                               record["observed"], record["target"])
        brute_k, brute_family = referee_mss_family(referee, queryable, record["k"])
        brute_total += time.perf_counter() - start
        agree = fast.k == brute_k and sorted(map(sorted, fast.family)) == sorted(
            map(list, brute_family))
        if not agree:
            raise SystemExit(f"DISAGREEMENT on {record['id']}: fast {fast} vs referee "
                             f"{brute_k} {brute_family}")
        used += 1
    if not used:
        print(f"engine vs referee: no problem with >= 20 variables and {min_unobserved}-"
              f"{max_unobserved} open variables")
        return
    print(f"engine vs brute force: {used} problems with >= 20 variables ({min_unobserved}-"
          f"{max_unobserved} open), same k and MSS family; fast {fast_total * 1000:.1f} ms, "
          f"brute force {brute_total * 1000:.1f} ms; fast engine "
          f"{brute_total / fast_total:.0f}x faster")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--quick", action="store_true",
                        help="smaller samples: 50 problems per k in the build (default 200), "
                        "5 problems for the turn overhead (default 20) and 4 problems per "
                        "band for the engine against the referee (default 10)")
    args = parser.parse_args()
    bench_build(50 if args.quick else 200)
    bench_turn_overhead(5 if args.quick else 20)
    # Brute force costs 2^(open variables); report a small and a larger band.
    bench_engine_vs_referee(4 if args.quick else 10, 0, 13)
    bench_engine_vs_referee(4 if args.quick else 10, 14, 18)


if __name__ == "__main__":
    main()
