"""The hard logic split (`-T split=hard`): build time, and the two exact methods' agreement
and times.

    python benchmarks/bench_hard_splits.py                # 200 problems per k, k = 5..8
    python benchmarks/bench_hard_splits.py --per-k 20     # quicker
    python benchmarks/bench_hard_splits.py --eval --per-k 5   # the reference models

1. builds the split with `--workers` processes (default 2) and prints the wall time
   against the 2-minute target, with the CPU time of the whole build (every record is
   validated by the hitting-set search and cross-checked by the SAT method while it is
   built);
2. reruns both exact methods on every record, apart, and prints how many agree on k and
   on the whole MSS family, and each method's total time: the hitting-set search of
   `infoseek.analysis` on the Horn engine and `infoseek.engines.satmss` (SAT pair solver
   and cardinality-constrained master);
3. prints the records' shape per k (attributes, rules, depth, family size);
4. prints, per k, `infoseek/random`'s exact chance of having asked a whole MSS of the
   record's family within the task's turn cap (no sampling: `random_chance`, by
   inclusion-exclusion over the family, on the askable set the task uses), its mean
   over the records whose askable set exceeds the cap, and how many do not (random asks
   all of those). Asking a whole MSS is sufficient for the target to be Known but not
   necessary, so this is a lower bound on random's final sufficiency against any oracle.

With ``--eval`` it does none of that: it runs `logic_mt(split="hard")` under
`infoseek/optimal` and `infoseek/random` (``--models`` picks them; ``--per-k`` problems
per k, one sample per target value) and prints, per k and model, the mean final
sufficiency, accuracy and questions asked (``total_turns``) with the turn cap, and for
random beside them the exact lower bound of step 4 on the same records; then it
plays the optimal strategy against the adversarial oracle on the same records outside
Inspect and prints its time per decision, and with ``--plain-limit S`` also that of the
plain game-tree search (`MinimaxSearch(bounds=False)`, the strategy before the bounds),
each game stopped after S seconds of decisions (a decision runs to its end: at k = 8
the plain search's first decision can take minutes).

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

from benchmarks.random_chance import chance_by_k
from infoseek.analysis import minimal_sufficient_sets
from infoseek.builders.logic.logic_mt import HARD_SPEC, build_hard_split, split_settings
from infoseek.contract import LOGIC_FORBID_ALTERNATIVES
from infoseek.engines.satmss import sat_mss
from infoseek.records import engine_from_record


def cpu_seconds() -> float:
    """CPU time of this process and its finished children (the build's workers)."""
    own = resource.getrusage(resource.RUSAGE_SELF)
    children = resource.getrusage(resource.RUSAGE_CHILDREN)
    return own.ru_utime + own.ru_stime + children.ru_utime + children.ru_stime


def evaluate(seed: int, per_k: int, ks: list[int], plain_limit: float,
             models: list[str]) -> None:
    """The ``--eval`` run (module docstring)."""
    import os
    import tempfile

    from inspect_ai import eval as inspect_eval

    from infoseek.inspect_tasks.logic_mt import logic_mt

    cap = split_settings("hard", ks)["max_turns"]
    with tempfile.TemporaryDirectory() as tmp:
        os.environ["INFOSEEK_CACHE_DIR"] = str(Path(tmp) / "cache")
        records = build_hard_split(seed, per_k, ks, workers=1)
        exact = chance_by_k(records, cap, LOGIC_FORBID_ALTERNATIVES)
        print("exact >= : random's exact chance of a whole MSS asked within the cap (a lower "
              "bound on its sufficiency against any oracle; step 4 of the docstring)")
        print(f"{'model':8s} {'k':>2s} {'samples':>7s} {'sufficiency':>11s} {'accuracy':>8s} "
              f"{'questions':>9s} {'cap':>4s} {'seconds':>8s} {'exact >=':>8s}")
        for model in models:
            start = time.perf_counter()
            [log] = inspect_eval(logic_mt(split="hard", per_k=per_k, seed=seed, k=ks),
                                 model=f"infoseek/{model}", display="none",
                                 log_dir=str(Path(tmp) / "logs"), ctl_server=False)
            seconds = time.perf_counter() - start
            assert log.status == "success", log.error
            rows: dict[int, list[dict[str, float]]] = {k: [] for k in ks}
            for sample in log.samples or []:
                values: dict[str, float] = {}
                for score in (sample.scores or {}).values():
                    if isinstance(score.value, dict):
                        values.update(score.value)
                rows[int(str(sample.id).split("-k")[1].split("-")[0])].append(values)
            for k in ks:
                got = rows[k]

                def mean(name: str, got: list = got) -> float:
                    return statistics.fmean(float(v[name]) for v in got)

                print(f"{model:8s} {k:2d} {len(got):7d} {mean('final_sufficiency'):11.2f} "
                      f"{mean('accuracy'):8.2f} {mean('total_turns'):9.2f} {cap:4d} "
                      f"{seconds:8.1f} "
                      + (f"{exact[k]['chance']:8.3f}" if model == "random" else f"{'-':>8s}"),
                      flush=True)
    modes = ([("bounds", None)] if "optimal" in models else []) + (
        [("plain", False)] if plain_limit else [])
    if modes:
        print("optimal strategy, time per decision against the adversarial oracle "
              "(outside Inspect):")
    for k in ks if modes else []:
        for name, bounds in modes:
            times, stopped = [], 0
            for record in (r for r in records if r["k"] == k):
                for value in record["target_values"]:
                    spent = play_optimal(record, value, bounds, plain_limit or None)
                    times.extend(spent[0])
                    stopped += spent[1]
            print(f"  k={k} {name:6s}: {len(times)} decisions, mean "
                  f"{statistics.fmean(times):.3f} s, max {max(times):.3f} s"
                  + (f", {stopped} game(s) stopped at the limit" if stopped else ""),
                  flush=True)


def play_optimal(record: dict, value: object, bounds: bool | None,
                 limit: float | None) -> tuple[list[float], bool]:
    """(seconds per decision, stopped at `limit`) of one game of the optimal strategy
    against the adversarial oracle with the hidden target `value`."""
    from infoseek.oracles.policies import Oracle
    from infoseek.record_views import askable_variables
    from infoseek.strategies import MinimaxSearch

    engine = engine_from_record(record)
    candidates = askable_variables(record, True)
    search = MinimaxSearch(engine, candidates, bounds=bounds)
    oracle = Oracle(engine, value, "adversarial", 0)
    times: list[float] = []
    while not oracle.known():
        start = time.perf_counter()
        question, _ = search.best(dict(oracle.answers), len(candidates))
        times.append(time.perf_counter() - start)
        assert question is not None
        oracle.reply(question)
        if limit is not None and sum(times) > limit:
            return times, True
    return times, False


def print_random_chance(records: list[dict], ks: list[int]) -> None:
    """Step 4 of the module docstring, with the turn cap and forbid flag the task uses."""
    cap = split_settings("hard", ks)["max_turns"]
    print(f"infoseek/random, exact chance of a whole MSS asked within the turn cap {cap} "
          f"(no sampling; a lower bound on its final sufficiency against any oracle):")
    print(f"k  records  askable (mean, min)  chance  chance (askable > {cap})  "
          f"records with askable <= {cap}")
    for k, row in chance_by_k(records, cap, LOGIC_FORBID_ALTERNATIVES).items():
        print(f"{k}  {row['records']:7d}  {row['askable_mean']:8.1f} {row['askable_min']:4d}"
              f"       {row['chance']:6.3f}  {row['chance_large']:20.3f}  {row['small']:13d}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--per-k", type=int, default=200, help="problems per k (default 200)")
    parser.add_argument("--workers", type=int, default=2,
                        help="worker processes of the build (default 2)")
    parser.add_argument("--seed", type=int, default=0, help="build seed (default 0)")
    parser.add_argument("--eval", action="store_true",
                        help="instead of the build and the two methods' times, run "
                        "logic_mt(split=\"hard\") under the reference models and print, "
                        "per k, their mean sufficiency, accuracy and questions asked")
    parser.add_argument("--models", default="optimal,random",
                        help="with --eval: the reference models to score, comma-separated")
    parser.add_argument("--plain-limit", type=float, default=0.0,
                        help="with --eval: also time the plain search, S seconds per game")
    args = parser.parse_args()
    ks = list(HARD_SPEC.default_ks)
    if args.eval:
        evaluate(args.seed, args.per_k, ks, args.plain_limit, args.models.split(","))
        return
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
    print_random_chance(records, ks)
    if agree != len(records):
        raise SystemExit("DISAGREEMENT between the two exact methods")


if __name__ == "__main__":
    main()
