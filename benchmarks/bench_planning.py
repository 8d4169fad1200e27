"""Planning-Q at the published size: build time, the brute-force referee's time on the
same records (and their agreement), the split's shape beside QuestBench's (share within
depth 3 / 5 / 10 beside the published BFS 5.75 / 27.2 / 93.9), our bfs-D references, and
how many of the backward search's candidate rows change class when one canonical plan
per state is compared instead of the set of optimal plans.

    python benchmarks/bench_planning.py                 # 7,500 problems, 2 workers
    python benchmarks/bench_planning.py --count 500 --candidates 300 --referee 50

The referee is plain Python over explicit sets of plans (tests/support/planning_referee.py): it
re-checks a random sample of the records and its time is extrapolated to all of them.

Timings on a shared machine vary; the ratio of the two times, measured in one run, is the
more stable number.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import random
import sys
import time
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from infoseek.builders.planning import planning_q
from infoseek.builders.planning.backward import candidate_rows
from infoseek.builders.planning.problems import GOAL_TEMPLATES
from infoseek.engines.planning.engine import PlanningEngine, atom_text, variable_name
from infoseek.records import engine_from_record
from infoseek.single_turn import bfs_pick, settling_depth, sufficient_options
from tests.support.planning_referee import Referee

PUBLISHED_BFS = {3: 5.75, 5: 27.2, 10: 93.9}


def referee_check(record: dict, referees: dict) -> bool:
    """The record's claims recomputed by the brute-force referee under the record's tie
    convention: one target value (plan, or plan set) for a "No questions needed" row; two
    for a problem, whose sufficient atoms are exactly the MSS family."""
    spec = record["engine"]
    key = (spec["blocks"], tuple(spec["goal"]), spec.get("ties") == "first_plan")
    if key not in referees:
        referees[key] = Referee(*key)
    referee = referees[key]
    told = {atom_text(v): x for v, x in record["observed"].items()}
    if record["k"] == 0:
        return referee.plan_set_count(told) == 1
    if referee.plan_set_count(told) != 2:
        return False
    sufficient = sorted(v for v in record["question_options"]
                        if v not in record["observed"]
                        and referee.sufficient(told, [atom_text(v)]))
    return sufficient == sorted(m[0] for m in record["mss_family"])


def classes(engine: PlanningEngine) -> tuple[str, str]:
    """A candidate's class under the set of optimal plans and under one canonical plan
    per state: well-specified (one group), 1-sufficient (two groups an atom separates),
    or rejected."""
    states = engine.states()
    out = []
    for ids in (engine.analysis.plan_set[states], engine.analysis.canonical[states]):
        groups = sorted(set(ids.tolist()))
        if len(groups) == 1:
            out.append("well-specified")
            continue
        if len(groups) > 2:
            out.append("rejected")
            continue
        masks = engine.space.masks[states]
        first = ids == groups[0]
        separating = False
        for bit in range(len(engine.space.atoms)):
            column = (masks >> bit) & 1
            a, b = set(column[first].tolist()), set(column[~first].tolist())
            if len(a) == 1 and len(b) == 1 and a != b:
                separating = True
                break
        out.append("1-sufficient" if separating else "rejected")
    return out[0], out[1]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--count", type=int, default=7500,
                        help="planning-q problems to build (default 7500, the published size)")
    parser.add_argument("--workers", type=int, default=2,
                        help="worker processes of the build (default 2)")
    parser.add_argument("--referee", type=int, default=200,
                        help="records the brute-force referee re-checks (a random sample; "
                        "default 200)")
    parser.add_argument("--candidates", type=int, default=1000,
                        help="candidate rows of the backward search classified under both "
                        "tie conventions (default 1000)")
    args = parser.parse_args()

    started = time.perf_counter()
    records = planning_q.build_split(seed=0, per_k=args.count, workers=args.workers)
    build = time.perf_counter() - started
    text = "\n".join(json.dumps(r, sort_keys=True) for r in records)
    print(f"built {len(records)} planning-q problems in {build:.1f} s with {args.workers} "
          f"workers; sha256 {hashlib.sha256(text.encode()).hexdigest()[:16]}")

    sample = random.Random(2).sample(records, min(args.referee, len(records)))
    started = time.perf_counter()
    referees: dict = {}
    agree = sum(referee_check(r, referees) for r in sample)
    referee_time = time.perf_counter() - started
    per_record = referee_time / max(len(sample), 1)
    print(f"brute-force referee on {len(sample)} random records: {agree} agree, "
          f"{referee_time:.1f} s in 1 process ({per_record:.2f} s a record, its own state "
          f"enumeration and plan sets included); for all {len(records)}: about "
          f"{per_record * len(records):.0f} s, {per_record * len(records) / build:.1f} x the "
          f"build's {build:.0f} s")

    print("\n".join(planning_q.shape_lines(records)))
    depths = Counter(r["difficulty"]["depth"] for r in records)
    print("depth (min_depth) histogram:", dict(sorted(depths.items())))

    for depth, published in PUBLISHED_BFS.items():
        settled = 0
        for record in records:
            engine = engine_from_record(record)
            options = record["question_options"]
            good = sufficient_options(engine, options)
            settled += bfs_pick(engine, options, good, depth,
                                settling_depth(record, engine)) is not None
        print(f"our bfs-{depth}: settles {100 * settled / len(records):.2f}% of the rows, "
              f"its score (an unsettled row gets no answer; published {published}%)")

    transitions: Counter = Counter()
    for row in candidate_rows(planning_q.SPEC.random_stream, 0, planning_q.SIZES,
                              GOAL_TEMPLATES)[:args.candidates]:
        observed = {variable_name(a): v for a, v in row.observed().items()}
        transitions[classes(PlanningEngine(row.blocks, row.goal, observed))] += 1
    total = sum(transitions.values())
    changed = sum(n for (a, b), n in transitions.items() if a != b)
    print(f"candidate rows of the backward search: {total}; "
          f"class changes under one canonical plan per state: {changed} "
          f"({100 * changed / max(total, 1):.1f}%)")
    for (a, b), n in sorted(transitions.items()):
        print(f"  set: {a:15s} canonical: {b:15s} {n}")


if __name__ == "__main__":
    main()
