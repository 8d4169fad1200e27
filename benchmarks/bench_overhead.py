"""Suite overhead: `logic_mt` with `infoseek/random` against two plain Inspect tasks.

Also `logic_mt` played by `mockllm/model` replaying the recorded turns (the suite's own
work with no reference-policy work) against the replay baseline: the ratio (median of
`--runs` in one run) and the suite's own milliseconds per turn (issue 22).

    python benchmarks/bench_overhead.py                 # 400 samples (per_k=50), 3 runs each
    python benchmarks/bench_overhead.py --per-k 10      # quicker: 80 samples
    python benchmarks/bench_overhead.py --constant-floor  # also the floor with scorers returning 1
    python benchmarks/bench_overhead.py --profile       # one logic_mt run under cProfile
    python benchmarks/bench_overhead.py --counts-only   # only the call counts (no timing)

All evals run in this one process, alternately (logic, bare, replay, logic, ...), and the
median time of each is printed with the ratios; wall time and the process CPU time,
which is the steadier number on a shared machine (everything here runs on one core).
Each timed run includes building the task, the whole `inspect_ai.eval` call and writing
the log (to a temporary folder); it starts after a full garbage collection (`gc.collect`),
and no run's log is kept alive into the next, so no run pays for collecting another's
objects.

- `logic_mt`: k = 1..4, `per_k` problems each, two target values per problem (so
  `8 * per_k` samples), reference model `infoseek/random`, default options (tool format,
  four seek scorers, one transcript event per turn).
- bare: the same number of samples, each calling `generate` exactly as many times as the
  same sample did in the first `logic_mt` run, on `mockllm/model` (every output carries a
  usage, so no tokenizer is touched), with a one-line prompt, no tools and a scorer that
  returns 1. The ratio against it is the figure issue 8 asked about: everything the suite
  costs, Inspect's handling of its larger conversations included.
- replay: the same conversations without the suite: each sample starts from the
  `logic_mt` sample's system prompt and problem text, offers the same `ask` / `answer`
  tools, and `mockllm/model` plays back the reference model's recorded turns while a
  plain solver appends the recorded replies; a scorer that returns 1. What `logic_mt`
  costs beyond it is the suite's own work: the seek loop, parsing, the oracle and the
  engine, the reference strategy, the store, the turn events and the scorers.
- floor: the replay plus what the suite hands Inspect, made by no suite code: samples
  carrying the recorded samples' metadata (the problem record, ...), after each recorded
  turn the same info event (the recorded payload), the recorded final store, and four
  scorers with the seek scorers' names and metrics that return the recorded scores.
  What Inspect itself spends on the suite's metadata, the per-turn events and the four
  scorers that issue 22 keeps: floor / replay is Inspect's share of the ratio, logic_mt on recorded
  turns / floor the suite's own code (loop, parsing, oracle, engine, scoring). With
  `--constant-floor` also the floor whose four scorers return 1: Inspect's cost of four
  scorers and the turn events whatever the scores hold.

Call counts (issue 33): after the timed runs (or alone with `--counts-only`) the
replay, the floor and `logic_mt` on recorded turns run `--count-runs` more times each
(default 3, alternately) under cProfile, and the total number of Python function calls
of each (`pstats.Stats.total_calls`, C functions called from Python included) is printed
with the ratios of the medians, replayed / floor (the suite's own code; target <= 1.05)
and replayed / replay, and their range over the runs. The three play the same samples
with the same recorded turns (the replayed run asks the same questions, so every run
makes exactly the recorded number of generate calls), each after the same warm-up, so
the ratio compares like with like. Counts hardly move with the machine's load; what
moves them a little (under 1%) is Inspect's own work on timers (the display refresh, the
sample buffer), which runs more often the longer a run takes. Beside them: the suite's
CPU per turn, (replayed - replay) CPU seconds over the recorded turns, from the timed
runs' medians (from the one unprofiled run of each with `--counts-only`).

The tasks and models live in `benchmarks/overhead_tasks.py`.

Warm cache: the dataset cache (`$INFOSEEK_CACHE_DIR`, here a fresh temporary folder) is
filled by an untimed warm-up run, so every timed `logic_mt` run reads the built split from
the cache; the numbers measure the evaluation, not the dataset build.
"""

from __future__ import annotations

import argparse
import cProfile
import gc
import os
import pstats
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from inspect_ai import eval
from inspect_ai.log import EvalLog

from benchmarks.overhead_tasks import (
    bare_task,
    floor_task,
    logic_task,
    mock_model,
    record_conversations,
    record_outputs,
    record_turns,
    replay_model,
    replay_task,
    turn_replay_model,
)

Timing = tuple[float, float]
"""(wall seconds, CPU seconds of this process)."""


def clean_start() -> Timing:
    """Collect the garbage the previous run left, then read the clocks: no timed run pays
    for collecting another run's objects (the runs alternate in one process)."""
    gc.collect()
    return time.perf_counter(), time.process_time()


def timed_eval(task: Any, model: Any, log_dir: str) -> tuple[Timing, EvalLog]:
    """One `inspect_ai.eval` call from a clean start: its timing and its log."""
    wall, cpu = clean_start()
    [log] = eval(task, model=model, log_dir=log_dir, display="none", ctl_server=False)
    timing = (time.perf_counter() - wall, time.process_time() - cpu)
    assert log.status == "success", log.error
    return timing, log


def run_logic(per_k: int, log_dir: str) -> tuple[Timing, list[int], EvalLog]:
    timing, log = timed_eval(logic_task(per_k), "infoseek/random", log_dir)
    calls = [sum(1 for e in s.events if e.event == "model") for s in log.samples]
    return timing, calls, log


def run_logic_replayed(per_k: int, log_dir: str) -> Timing:
    """`logic_mt` played by `turn_replay_model`."""
    return timed_eval(logic_task(per_k), turn_replay_model(), log_dir)[0]


def run_replay(sample_ids: list[str], log_dir: str) -> Timing:
    return timed_eval(replay_task(sample_ids), replay_model(), log_dir)[0]


def run_bare(calls: list[int], log_dir: str) -> Timing:
    return timed_eval(bare_task(calls), mock_model(), log_dir)[0]


def run_floor(sample_ids: list[str], log_dir: str, constant: bool = False) -> Timing:
    return timed_eval(floor_task(sample_ids, constant=constant), replay_model(), log_dir)[0]


def counted(run: Any, *args: Any) -> int:
    """Python function calls (cProfile's total) of one run, from a clean start."""
    gc.collect()
    profiler = cProfile.Profile()
    profiler.enable()
    run(*args)
    profiler.disable()
    return pstats.Stats(profiler).total_calls


def print_counts(per_k: int, sample_ids: list[str], logs: str, turns: int,
                 cpu: dict[str, float], repeats: int) -> None:
    """The call counts of replay, floor and replayed (`repeats` cProfile runs of each,
    alternately), the ratios of their medians with the range over the repeats, and the
    suite's CPU per turn from `cpu` (seconds by run name)."""
    counts: dict[str, list[int]] = {"replay": [], "floor": [], "replayed": []}
    for _ in range(repeats):
        counts["replay"].append(counted(run_replay, sample_ids, logs))
        counts["floor"].append(counted(run_floor, sample_ids, logs))
        counts["replayed"].append(counted(run_logic_replayed, per_k, logs))
    median = {name: statistics.median(values) for name, values in counts.items()}
    for name, label in (("replay", "replay + mockllm/model"),
                        ("floor", "replay + the suite's outputs"),
                        ("replayed", "logic_mt + recorded turns")):
        print(f"calls {label:28s}: " + ", ".join(f"{n:,}" for n in counts[name])
              + f" (median {median[name]:,.0f}, {median[name] / turns:.0f} per turn)")

    def ratio(over: str, under: str) -> str:
        each = [a / b for a, b in zip(counts[over], counts[under], strict=True)]
        spread = f" (each run {min(each):.3f}-{max(each):.3f})" if repeats > 1 else ""
        return f"{median[over] / median[under]:.3f}{spread}"

    print(f"calls ratio logic_mt on recorded turns / floor (the suite's own code; "
          f"target <= 1.05): {ratio('replayed', 'floor')}")
    print(f"calls ratio logic_mt on recorded turns / replay: {ratio('replayed', 'replay')}")
    print(f"calls ratio floor / replay (Inspect's own handling of the suite's outputs): "
          f"{ratio('floor', 'replay')}")
    print(f"CPU  the suite's own per turn (replayed - replay, {turns} turns): "
          f"{(cpu['replayed'] - cpu['replay']) * 1000 / turns:.2f} ms; over the floor "
          f"{(cpu['replayed'] - cpu['floor']) * 1000 / turns:.2f} ms")


def _median(times: list[Timing], index: int) -> float:
    return statistics.median(t[index] for t in times)


def print_times(times: dict[str, list[Timing]], turns: int) -> None:
    """The timed runs' medians and their ratios, wall and CPU."""
    labels = {"logic_mt": "logic_mt + infoseek/random", "bare": "bare task + mockllm/model",
              "replay": "replay + mockllm/model", "floor": "replay + the suite's outputs",
              "replayed": "logic_mt + recorded turns", "constant": "floor, scorers return 1"}
    for index, what in ((0, "wall"), (1, "CPU")):
        for name, label in labels.items():
            if name not in times:
                continue
            print(f"{what:4s} {label:28s}: " + ", ".join(f"{t[index]:.2f}" for t in times[name])
                  + f" s (median {_median(times[name], index):.2f})")
        logic = _median(times["logic_mt"], index)
        print(f"{what:4s} ratio logic_mt / bare   (all overhead): "
              f"{logic / _median(times['bare'], index):.2f}")
        print(f"{what:4s} ratio logic_mt / replay (the suite's own work): "
              f"{logic / _median(times['replay'], index):.2f}")
        print(f"{what:4s} ratio replay / bare     (Inspect on the larger conversation): "
              f"{_median(times['replay'], index) / _median(times['bare'], index):.2f}")
        replayed, replay = _median(times["replayed"], index), _median(times["replay"], index)
        floor = _median(times["floor"], index)
        print(f"{what:4s} ratio floor / replay    (Inspect's own cost of the turn events and "
              f"the four scorers): {floor / replay:.2f}")
        print(f"{what:4s} ratio logic_mt on recorded turns / floor (the suite's own code): "
              f"{replayed / floor:.2f}")
        if "constant" in times:
            print(f"{what:4s} ratio floor with scorers returning 1 / replay (Inspect's cost of "
                  f"four scorers and the turn events as such): "
                  f"{_median(times['constant'], index) / replay:.2f}")
        print(f"{what:4s} ratio logic_mt on recorded turns / replay (the suite's own work, "
              f"no reference policy; target <= 1.3): {replayed / replay:.2f}; the suite's "
              f"own {(replayed - replay) * 1000 / turns:.2f} ms per turn")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--per-k", type=int, default=50,
                        help="logic_mt problems per k (samples = 8 * per_k); default 50")
    parser.add_argument("--runs", type=int, default=3, help="timed runs of each; default 3")
    parser.add_argument("--constant-floor", action="store_true",
                        help="also time the floor with four scorers that return 1")
    parser.add_argument("--profile", action="store_true",
                        help="profile one warm logic_mt run instead (cProfile, top 40)")
    parser.add_argument("--counts-only", action="store_true",
                        help="only the call counts of replay, floor and replayed (one "
                             "cProfile run each) and the CPU per turn, no timed runs")
    parser.add_argument("--count-runs", type=int, default=3,
                        help="cProfile runs of each for the call counts; default 3")
    args = parser.parse_args()

    with tempfile.TemporaryDirectory() as tmp:
        os.environ["INFOSEEK_CACHE_DIR"] = str(Path(tmp) / "cache")
        logs = str(Path(tmp) / "logs")
        _, calls, log = run_logic(args.per_k, logs)  # warm-up: fills the dataset cache
        sample_ids = record_conversations(log)
        record_turns(log)
        record_outputs(log)
        del log  # the replay scripts keep what they need
        print(f"sizes: {len(calls)} samples (k = 1..4, per_k = {args.per_k}, 2 target "
              f"values each), {sum(calls)} generate calls "
              f"({statistics.fmean(calls):.1f} per sample); warm dataset cache")
        if args.profile:
            profiler = cProfile.Profile()
            profiler.enable()
            run_logic_replayed(args.per_k, logs)
            profiler.disable()
            pstats.Stats(profiler).sort_stats("cumulative").print_stats(40)
            return
        if args.counts_only:  # the warm-ups double as the one timing of each
            cpu = {"replay": run_replay(sample_ids, logs)[1],
                   "floor": run_floor(sample_ids, logs)[1],
                   "replayed": run_logic_replayed(args.per_k, logs)[1]}
            print_counts(args.per_k, sample_ids, logs, sum(calls), cpu, args.count_runs)
            return
        run_bare(calls, logs)  # warm-ups of the other paths (imports, first log write)
        run_replay(sample_ids, logs)
        run_floor(sample_ids, logs)
        run_logic_replayed(args.per_k, logs)
        times: dict[str, list[Timing]] = {"logic_mt": [], "bare": [], "replay": [],
                                          "floor": [], "replayed": []}
        for _ in range(args.runs):
            timing, again, log = run_logic(args.per_k, logs)
            del log  # only its timing is kept
            assert again == calls, "the random reference model is deterministic"
            times["logic_mt"].append(timing)
            times["bare"].append(run_bare(calls, logs))
            times["replay"].append(run_replay(sample_ids, logs))
            times["floor"].append(run_floor(sample_ids, logs))
            times["replayed"].append(run_logic_replayed(args.per_k, logs))
            if args.constant_floor:
                times.setdefault("constant", []).append(run_floor(sample_ids, logs, True))
        print_times(times, sum(calls))
        print_counts(args.per_k, sample_ids, logs, sum(calls),
                     {name: _median(times[name], 1) for name in times}, args.count_runs)


if __name__ == "__main__":
    main()
