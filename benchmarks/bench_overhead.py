"""Suite overhead: `logic_mt` with `infoseek/random` against a bare Inspect task.

    python benchmarks/bench_overhead.py                 # 400 samples (per_k=50), 3 runs each
    python benchmarks/bench_overhead.py --per-k 10      # quicker: 80 samples
    python benchmarks/bench_overhead.py --profile       # one logic_mt run under cProfile

Both evals run in this one process, alternately (logic, bare, logic, bare, ...), and the
median wall time of each is printed with their ratio; the same for the process CPU time,
which is the steadier number on a shared machine (everything here runs on one core).
Each timed run includes building the task, the whole `inspect_ai.eval` call and writing
the log (to a temporary folder).

- `logic_mt`: k = 1..4, `per_k` problems each, two target values per problem (so
  `8 * per_k` samples), reference model `infoseek/random`, default options.
- bare: the same number of samples, each calling `generate` exactly as many times as the
  same sample did in the first `logic_mt` run, on `mockllm/model` (every output carries a
  usage, so no tokenizer is touched); a scorer that returns 1.

Warm cache: the dataset cache (`$INFOSEEK_CACHE_DIR`, here a fresh temporary folder) is
filled by an untimed warm-up run, so every timed `logic_mt` run reads the built split from
the cache; the numbers measure the evaluation, not the dataset build.
"""

from __future__ import annotations

import argparse
import cProfile
import os
import pstats
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from inspect_ai import Task, eval
from inspect_ai.dataset import MemoryDataset, Sample
from inspect_ai.model import ModelOutput, ModelUsage, get_model
from inspect_ai.scorer import Score, Target, mean, scorer
from inspect_ai.solver import Generate, TaskState, solver

KS = [1, 2, 3, 4]


def logic_task(per_k: int) -> Task:
    from inspect_tasks.logic_mt import logic_mt

    return logic_mt(per_k=per_k, k=KS)


@solver
def call_generate_n_times():
    """Calls generate as many times as the sample's metadata says, growing the history
    the way a multi-turn loop does."""

    async def solve(state: TaskState, generate: Generate) -> TaskState:
        from inspect_ai.model import ChatMessageUser

        for turn in range(state.metadata["calls"]):
            if turn:
                state.messages.append(ChatMessageUser(content=f"reply {turn}"))
            state = await generate(state)
        return state

    return solve


@scorer(metrics=[mean()])
def always_one():
    async def score(state: TaskState, target: Target) -> Score:
        return Score(value=1.0)

    return score


def mock_model():
    def respond(messages, tools, tool_choice, config) -> ModelOutput:
        output = ModelOutput.from_content("mockllm/model", "Question: is Alice kind?")
        output.usage = ModelUsage(input_tokens=10, output_tokens=5, total_tokens=15)
        return output

    return get_model("mockllm/model", custom_outputs=respond)


def bare_task(calls: list[int]) -> Task:
    samples = [Sample(id=f"s{i}", input="Is Alice kind?", target="yes",
                      metadata={"calls": n}) for i, n in enumerate(calls)]
    return Task(dataset=MemoryDataset(samples), solver=call_generate_n_times(),
                scorer=always_one(), name="bare")


Timing = tuple[float, float]
"""(wall seconds, CPU seconds of this process)."""


def run_logic(per_k: int, log_dir: str) -> tuple[Timing, list[int]]:
    wall, cpu = time.perf_counter(), time.process_time()
    [log] = eval(logic_task(per_k), model="infoseek/random", log_dir=log_dir,
                 display="none", ctl_server=False)
    timing = (time.perf_counter() - wall, time.process_time() - cpu)
    assert log.status == "success", log.error
    calls = [sum(1 for e in s.events if e.event == "model") for s in log.samples]
    return timing, calls


def run_bare(calls: list[int], log_dir: str) -> Timing:
    wall, cpu = time.perf_counter(), time.process_time()
    [log] = eval(bare_task(calls), model=mock_model(), log_dir=log_dir, display="none",
                 ctl_server=False)
    timing = (time.perf_counter() - wall, time.process_time() - cpu)
    assert log.status == "success", log.error
    return timing


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--per-k", type=int, default=50,
                        help="logic_mt problems per k (samples = 8 * per_k); default 50")
    parser.add_argument("--runs", type=int, default=3, help="timed runs of each; default 3")
    parser.add_argument("--profile", action="store_true",
                        help="profile one warm logic_mt run instead (cProfile, top 40)")
    args = parser.parse_args()

    with tempfile.TemporaryDirectory() as tmp:
        os.environ["INFOSEEK_CACHE_DIR"] = str(Path(tmp) / "cache")
        logs = str(Path(tmp) / "logs")
        _, calls = run_logic(args.per_k, logs)  # warm-up: fills the dataset cache
        print(f"sizes: {len(calls)} samples (k = 1..4, per_k = {args.per_k}, 2 target "
              f"values each), {sum(calls)} generate calls "
              f"({statistics.fmean(calls):.1f} per sample); warm dataset cache")
        if args.profile:
            profiler = cProfile.Profile()
            profiler.enable()
            run_logic(args.per_k, logs)
            profiler.disable()
            pstats.Stats(profiler).sort_stats("cumulative").print_stats(40)
            return
        run_bare(calls, logs)  # warm-up of the bare path (imports, first log write)
        logic_times: list[Timing] = []
        bare_times: list[Timing] = []
        for _ in range(args.runs):
            timing, again = run_logic(args.per_k, logs)
            assert again == calls, "the random reference model is deterministic"
            logic_times.append(timing)
            bare_times.append(run_bare(calls, logs))
    for index, what in ((0, "wall"), (1, "CPU")):
        logic = statistics.median(t[index] for t in logic_times)
        bare = statistics.median(t[index] for t in bare_times)
        print(f"{what:4s} logic_mt + infoseek/random: "
              + ", ".join(f"{t[index]:.2f}" for t in logic_times) + f" s (median {logic:.2f})")
        print(f"{what:4s} bare task + mockllm/model:  "
              + ", ".join(f"{t[index]:.2f}" for t in bare_times) + f" s (median {bare:.2f})")
        print(f"{what:4s} ratio (median logic_mt / median bare): {logic / bare:.2f}")


if __name__ == "__main__":
    main()
