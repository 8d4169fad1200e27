"""Does any step of a sample block Inspect's event loop? (issue 33, item 6)

    python benchmarks/bench_event_loop.py                    # default and hard split
    python benchmarks/bench_event_loop.py --per-k 5 --hard-per-k 3
    python benchmarks/bench_event_loop.py --splits hard --models optimal
    python benchmarks/bench_event_loop.py --no-freeze        # the heap not settled

Runs `logic_mt` on the default split (k = 1..4) and on the hard split (`-T split=hard`,
k = 5..8) with each zero-latency reference model (`infoseek/optimal`, `infoseek/random`:
no network, no sleeping, every moment of a sample is Python on the loop or in a worker
thread) at `--max-connections 100`, so every sample is in flight at once.

Every callback the loop runs goes through `asyncio.Handle._run`; for a sample that is one
step of its coroutine, from one `await` to the next (the solver's turn bookkeeping, the
oracle and engine, the model's decision, a scorer). The benchmark wraps it and measures
each step's wall time and the CPU time of the loop's thread (`time.thread_time`), what
asyncio's debug mode (`slow_callback_duration`) measures but without its own overhead.
On a shared machine a step's wall time grows with the load (the thread waits for a
core), so the check is on the CPU time: a step whose thread ran for more than the
threshold (default 50 ms) blocked the loop for at least that long whatever the load.
Garbage-collector pauses inside a step are timed apart (`gc.callbacks`): a collection
falls on whatever step allocates at the wrong moment and walks every object of the
process (Inspect's as much as the suite's), so a step counts as over the threshold on
its CPU time less its collections, and the steps that only a collection pushed over
are counted apart with the collection's time. Each step over the
threshold is named by where its coroutine stood before and after it (the innermost
frames of the await chain, the suite's own frame where there is one), so the code that
ran is the code between the two.

After each run the benchmark runs its floor (`benchmarks/overhead_tasks.floor_task`: the
run's conversations replayed through Inspect with the suite's recorded turn events,
store and scores, and none of the suite's code; `--no-floor` skips it) and prints every
collection over the threshold for both, so what the collections cost in Inspect alone
stands beside what they cost with the suite. Each task made settles the heap
(`infoseek.inspect_tasks.heap`); `--no-freeze` runs without that.

The task (and its dataset) is built before `inspect_ai.eval` starts its loop, and each
run is preceded by an untimed one-sample run of the same task and model, so one-time
imports fall on no reported step. The dataset cache is a fresh temporary folder unless
`--cache` names one (the hard split builds in a few seconds at the default
`--hard-per-k`).
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import os
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from inspect_ai import eval
from inspect_ai.log import EvalLog

from infoseek.inspect_tasks.heap import FREEZE_VARIABLE, settle_heap

SPLITS = ("default", "hard")
MODELS = ("optimal", "random")
SUITE = str(Path(__file__).resolve().parents[1])


@dataclass
class Step:
    cpu: float
    wall: float
    gc: float
    before: str
    after: str

    @property
    def of_a_sample(self) -> bool:
        """A step of a sample's task (Inspect runs each sample in tasks named after its
        sample scheduler and sample run), not of the eval's own set-up or wrap-up."""
        return "sample" in self.before.split("]")[0].lower()


class StepTimer:
    """Times every callback the event loop runs (`asyncio.Handle._run`) and keeps those
    whose loop-thread CPU time or wall time reached `threshold` seconds."""

    def __init__(self, threshold: float) -> None:
        self.threshold = threshold
        self.steps: list[Step] = []
        self.count = 0
        self.longest = 0.0
        self.longest_of_a_sample = 0.0
        self._gc = 0.0
        self._gc_start = 0.0
        self.pauses: list[float] = []
        self.run_pauses: list[float] = []

    def install(self) -> None:
        run_handle = asyncio.Handle._run
        timer = self

        def timed(handle: asyncio.Handle) -> None:
            task = getattr(handle._callback, "__self__", None)
            before = where(task)
            gc_before = timer._gc
            wall, cpu = time.perf_counter(), time.thread_time()
            run_handle(handle)
            cpu = time.thread_time() - cpu
            wall = time.perf_counter() - wall
            timer.count += 1
            timer.longest = max(timer.longest, cpu)
            if isinstance(task, asyncio.Task) and "sample" in task.get_name().lower():
                own = cpu - (timer._gc - gc_before)
                timer.longest_of_a_sample = max(timer.longest_of_a_sample, own)
            if cpu >= timer.threshold or wall >= timer.threshold:
                timer.steps.append(Step(cpu, wall, timer._gc - gc_before, before,
                                        where(task) if before else repr(handle)[:120]))

        asyncio.Handle._run = timed  # type: ignore[method-assign]
        gc.callbacks.append(self._on_gc)

    def _on_gc(self, phase: str, info: dict[str, Any]) -> None:
        if phase == "start":
            self._gc_start = time.thread_time()
        else:
            pause = time.thread_time() - self._gc_start
            self._gc += pause
            self.pauses.append(pause)

    def reset(self) -> None:
        self.steps.clear()
        self.pauses.clear()
        self.count = 0
        self.longest = self.longest_of_a_sample = 0.0


def _awaited(obj: Any) -> tuple[Any, Any]:
    """(frame, what it awaits) of a coroutine, generator or async generator; through an
    async generator's `asend` (which shows neither) to the generator it drives."""
    for frame_name, next_name in (("cr_frame", "cr_await"), ("ag_frame", "ag_await"),
                                  ("gi_frame", "gi_yieldfrom")):
        if hasattr(obj, frame_name):
            return getattr(obj, frame_name), getattr(obj, next_name)
    for inner in gc.get_referents(obj):  # an asend / athrow object holds its generator
        if hasattr(inner, "ag_frame"):
            return inner.ag_frame, inner.ag_await
    return None, None


def where(task: Any) -> str:
    """Where a task's coroutine stands: the task's name, its innermost frame, and the
    suite's innermost frame when that is another ('' for a callback that is not a task's
    step)."""
    if not isinstance(task, asyncio.Task):
        return ""
    frames: list[str] = []
    frame, awaited = _awaited(task.get_coro())
    while frame is not None and len(frames) < 100:
        code = frame.f_code
        ours = "*" if code.co_filename.startswith(SUITE) else ""
        frames.append(f"{ours}{Path(code.co_filename).name}:{frame.f_lineno} {code.co_name}")
        frame, awaited = _awaited(awaited) if awaited is not None else (None, None)
    name = task.get_name().replace(".<locals>", "").removeprefix("inspect_ai.")
    if not frames:
        return f"[{name}] (done)"
    suite = [f for f in frames if f.startswith("*")]
    inner = frames[-1] if not suite or suite[-1] == frames[-1] else f"{suite[-1]} > {frames[-1]}"
    return f"[{name}] {inner}"


def run(split: str, model: str, per_k: int, max_connections: int, log_dir: str,
        timer: StepTimer, limit: int | None = None) -> tuple[EvalLog, float]:
    """One eval of logic_mt on `split` by `infoseek/<model>` (`timer` reset once the
    task is made, which settles the heap: `infoseek.inspect_tasks.heap`): (log, wall
    seconds)."""
    from infoseek.inspect_tasks.logic_mt import logic_mt

    task = logic_mt(split=split, per_k=per_k)
    return timed_eval(task, f"infoseek/{model}", max_connections, log_dir, timer, limit)


def timed_eval(task: Any, model: Any, max_connections: int, log_dir: str,
               timer: StepTimer, limit: int | None = None) -> tuple[EvalLog, float]:
    timer.reset()
    start = time.perf_counter()
    [log] = eval(task, model=model, log_dir=log_dir, display="none", ctl_server=False,
                 max_connections=max_connections, limit=limit)
    wall = time.perf_counter() - start
    timer.run_pauses = list(timer.pauses)  # not the collections after the eval returned
    assert log.status == "success", log.error
    return log, wall


def floor_run(log: EvalLog, max_connections: int, log_dir: str,
              timer: StepTimer) -> tuple[EvalLog, float]:
    """The floor of `benchmarks/bench_overhead.py` for `log`'s samples: the recorded
    conversations replayed through Inspect with the suite's recorded outputs (turn
    events, store, scores) and none of its code, on a heap settled the same way."""
    from benchmarks.overhead_tasks import (
        floor_task,
        record_conversations,
        record_outputs,
        replay_model,
    )
    sample_ids = record_conversations(log)
    record_outputs(log)
    task = floor_task(sample_ids)
    settle_heap()
    return timed_eval(task, replay_model(), max_connections, log_dir, timer)


def collector_line(timer: StepTimer, threshold: float) -> str:
    """The run's garbage collections over `threshold`, longest first."""
    long = sorted((p for p in timer.run_pauses if p >= threshold), reverse=True)
    return (f"{len(timer.run_pauses)} collections, {len(long)} over "
            f"{threshold * 1000:.0f} ms" + (": " if long else "")
            + ", ".join(f"{p * 1000:.0f}" for p in long) + (" ms" if long else ""))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--per-k", type=int, default=5,
                        help="problems per k on the default split (default 5: 40 samples)")
    parser.add_argument("--hard-per-k", type=int, default=2,
                        help="problems per k on the hard split (default 2: 16 samples)")
    parser.add_argument("--splits", default=",".join(SPLITS), help="default,hard")
    parser.add_argument("--models", default=",".join(MODELS), help="optimal,random")
    parser.add_argument("--max-connections", type=int, default=100)
    parser.add_argument("--threshold", type=float, default=0.05,
                        help="report steps longer than this many seconds (default 0.05)")
    parser.add_argument("--no-floor", dest="floor", action="store_false",
                        help="skip the floor run after each run (Inspect alone on its "
                             "conversations)")
    parser.add_argument("--no-freeze", action="store_true",
                        help="run with INFOSEEK_GC_FREEZE=0: the heap is not settled")
    parser.add_argument("--cache", default=None,
                        help="dataset cache folder (default: a fresh temporary one)")
    args = parser.parse_args()

    if args.no_freeze:
        os.environ[FREEZE_VARIABLE] = "0"
    timer = StepTimer(args.threshold)
    timer.install()
    worst = worst_sample = 0.0
    pauses: dict[str, list[float]] = {"suite": [], "floor": []}
    with tempfile.TemporaryDirectory() as tmp:
        os.environ["INFOSEEK_CACHE_DIR"] = args.cache or str(Path(tmp) / "cache")
        logs = str(Path(tmp) / "logs")
        for split in args.splits.split(","):
            per_k = args.hard_per_k if split == "hard" else args.per_k
            for model in args.models.split(","):
                run(split, model, per_k, args.max_connections, logs, timer, limit=1)  # warm-up
                log, wall = run(split, model, per_k, args.max_connections, logs, timer)
                worst = max(worst, timer.longest)
                worst_sample = max(worst_sample, timer.longest_of_a_sample)
                pauses["suite"] += timer.run_pauses
                report_run(f"{split:7s} infoseek/{model:8s}", log, wall, timer, args)
                if args.floor:
                    floor, wall = floor_run(log, args.max_connections, logs, timer)
                    pauses["floor"] += timer.run_pauses
                    print(f"{'':7s} {'its floor':17s}: {len(floor.samples or [])} samples in "
                          f"{wall:.1f} s wall (Inspect alone: the run's conversations and "
                          f"the suite's recorded outputs); {collector_line(timer, args.threshold)}")
    print(f"longest loop step in all runs: {worst * 1000:.0f} ms CPU of the loop's thread; "
          f"longest step of a sample: {worst_sample * 1000:.0f} ms less its garbage "
          f"collections (threshold {args.threshold * 1000:.0f} ms)")
    for name, found in pauses.items():
        if found:
            long = [p for p in found if p >= args.threshold]
            print(f"garbage collections in the {name} runs: {len(found)}, {len(long)} over "
                  f"{args.threshold * 1000:.0f} ms, longest {max(found) * 1000:.0f} ms "
                  f"(heap {'not ' if args.no_freeze else ''}settled)")


def report_run(label: str, log: EvalLog, wall: float, timer: StepTimer,
               args: argparse.Namespace) -> None:
    over = [step for step in timer.steps if step.cpu - step.gc >= args.threshold]
    collecting = [step for step in timer.steps
                  if step.cpu >= args.threshold > step.cpu - step.gc]
    of_samples = [step for step in over if step.of_a_sample]
    print(f"{label}: {len(log.samples or [])} samples in {wall:.1f} s wall at "
          f"--max-connections {args.max_connections}; {timer.count:,} loop steps, longest "
          f"{timer.longest * 1000:.0f} ms CPU, of a sample "
          f"{timer.longest_of_a_sample * 1000:.0f} ms (less collections); over "
          f"{args.threshold * 1000:.0f} ms CPU: {len(over)} ({len(of_samples)} of a sample); "
          f"over it only by a garbage collection: {len(collecting)}; over it in wall time "
          f"only: {len(timer.steps) - len(over) - len(collecting)}; "
          f"{collector_line(timer, args.threshold)}")
    for step in sorted(over, key=lambda step: -step.cpu):
        print(f"    {step.cpu * 1000:6.0f} ms CPU ({step.wall * 1000:.0f} wall, "
              f"gc {step.gc * 1000:.0f}): {step.before}  ->  {step.after}")


if __name__ == "__main__":
    main()
