"""Suite overhead: `logic_mt` with `infoseek/random` against two plain Inspect tasks.

Also `logic_mt` played by `mockllm/model` replaying the recorded turns (the suite's own
work with no reference-policy work) against the replay baseline: the ratio (median of
`--runs` in one run) and the suite's own milliseconds per turn (issue 22).

    python benchmarks/bench_overhead.py                 # 400 samples (per_k=50), 3 runs each
    python benchmarks/bench_overhead.py --per-k 10      # quicker: 80 samples
    python benchmarks/bench_overhead.py --profile       # one logic_mt run under cProfile

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
- floor: the replay plus what the suite hands Inspect, made by no suite code: after each
  recorded turn the same info event (the recorded payload), the recorded final store,
  and four scorers with the seek scorers' names and metrics that return the recorded
  scores. What Inspect itself spends on the per-turn events and the four scorers that
  issue 22 keeps: floor / replay is Inspect's share of the ratio, logic_mt on recorded
  turns / floor the suite's own code (loop, parsing, oracle, engine, scoring).

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

from inspect_ai import Task, eval
from inspect_ai.dataset import MemoryDataset, Sample
from inspect_ai.log import EvalLog, transcript
from inspect_ai.model import (
    ChatCompletionChoice,
    ChatMessage,
    ModelOutput,
    ModelUsage,
    get_model,
)
from inspect_ai.scorer import Score, Scorer, Target, mean, scorer
from inspect_ai.solver import Generate, TaskState, solver
from inspect_ai.util import store

KS = [1, 2, 3, 4]


def logic_task(per_k: int) -> Task:
    from infoseek.inspect_tasks.logic_mt import logic_mt

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


_RECORDED: dict[str, list[ChatMessage]] = {}
"""sample id -> the final message history of that `logic_mt` sample (the replay script)."""
_REPLAY_ID = "bench:replay_id"
_REPLAY_AT = "bench:replay_at"


@solver
def replay_conversation():
    """Rebuild a recorded conversation: the recorded system prompt and problem, the
    recorded tools, then for every recorded assistant turn one generate call (the mock
    plays that turn back) followed by the recorded replies."""

    async def solve(state: TaskState, generate: Generate) -> TaskState:
        from infoseek.solvers.seek import answer, ask

        recorded = _RECORDED[str(state.sample_id)]
        state.messages = list(recorded[:2])
        state.tools = [ask(), answer()]
        sample_store = store()
        sample_store.set(_REPLAY_ID, str(state.sample_id))
        at = 2
        while at < len(recorded):
            sample_store.set(_REPLAY_AT, at)
            state = await generate(state, tool_calls="none")
            at += 1
            while at < len(recorded) and recorded[at].role != "assistant":
                state.messages.append(recorded[at])
                at += 1
        return state

    return solve


def replay_model():
    def respond(messages, tools, tool_choice, config) -> ModelOutput:
        sample_store = store()
        message = _RECORDED[sample_store.get(_REPLAY_ID)][sample_store.get(_REPLAY_AT)]
        output = ModelOutput(model="mockllm/model",
                             choices=[ChatCompletionChoice(message=message, stop_reason="stop")])
        output.usage = ModelUsage(input_tokens=10, output_tokens=5, total_tokens=15)
        return output

    return get_model("mockllm/model", custom_outputs=respond)


_TURNS: dict[str, list[ChatMessage]] = {}
"""sample id -> what the model returned at each generate call of the recorded run."""
_TURN_AT: dict[str, int] = {}


def record_turns(log: EvalLog) -> None:
    """Keep every sample's model outputs, call by call, for `turn_replay_model`."""
    _TURNS.clear()
    for sample in log.samples or []:
        _TURNS[str(sample.id)] = [e.output.message for e in sample.events
                                  if e.event == "model"]


def turn_replay_model():
    """mockllm/model playing back the recorded run's outputs, call by call per sample: the
    suite runs exactly as before (parsing, oracle, engine, store, events, scorers) with no
    reference-policy work."""
    from inspect_ai.solver._task_state import sample_state

    def respond(messages, tools, tool_choice, config) -> ModelOutput:
        sample_id = str(sample_state().sample_id)
        at = _TURN_AT.get(sample_id, 0)
        _TURN_AT[sample_id] = at + 1
        output = ModelOutput(model="mockllm/model", choices=[ChatCompletionChoice(
            message=_TURNS[sample_id][at], stop_reason="stop")])
        output.usage = ModelUsage(input_tokens=10, output_tokens=5, total_tokens=15)
        return output

    return get_model("mockllm/model", custom_outputs=respond)


def run_logic_replayed(per_k: int, log_dir: str) -> Timing:
    """`logic_mt` played by `turn_replay_model`."""
    _TURN_AT.clear()
    wall, cpu = clean_start()
    [log] = eval(logic_task(per_k), model=turn_replay_model(), log_dir=log_dir,
                 display="none", ctl_server=False)
    timing = (time.perf_counter() - wall, time.process_time() - cpu)
    assert log.status == "success", log.error
    return timing


def record_conversations(log: EvalLog) -> list[str]:
    """Keep every sample's final history for the replay; returns the sample ids."""
    _RECORDED.clear()
    for sample in log.samples or []:
        _RECORDED[str(sample.id)] = list(sample.messages)
    return list(_RECORDED)


def replay_task(sample_ids: list[str]) -> Task:
    samples = [Sample(id=sample_id, input="(replayed)", target="yes") for sample_id in sample_ids]
    return Task(dataset=MemoryDataset(samples), solver=replay_conversation(),
                scorer=always_one(), name="replay")


_EVENTS: dict[str, list[tuple[Any, str | None]]] = {}
"""sample id -> the (data, source) of every info event of the recorded run, in order."""
_SCORES: dict[str, dict[str, Score]] = {}
_STORES: dict[str, dict[str, Any]] = {}
_GROUPS: dict[str, Any] = {}


def record_outputs(log: EvalLog) -> None:
    """Keep what the suite handed Inspect in every sample (turn events, final store,
    scores, the metric group) for the floor task."""
    for table in (_EVENTS, _SCORES, _STORES, _GROUPS):
        table.clear()
    for sample in log.samples or []:
        sample_id = str(sample.id)
        _EVENTS[sample_id] = [(e.data, e.source) for e in sample.events if e.event == "info"]
        _SCORES[sample_id] = dict(sample.scores or {})
        _STORES[sample_id] = dict(sample.store)
        _GROUPS[sample_id] = sample.metadata["k"]


@solver
def replay_with_outputs():
    """`replay_conversation` plus the recorded final store and, after each turn, the
    recorded turn event."""

    async def solve(state: TaskState, generate: Generate) -> TaskState:
        from infoseek.solvers.seek import answer, ask

        sample_id = str(state.sample_id)
        recorded, events = _RECORDED[sample_id], _EVENTS[sample_id]
        state.messages = list(recorded[:2])
        state.tools = [ask(), answer()]
        sample_store = store()
        sample_store.set(_REPLAY_ID, sample_id)
        for key, value in _STORES[sample_id].items():
            sample_store.set(key, value)
        at, turn = 2, 0
        while at < len(recorded):
            sample_store.set(_REPLAY_AT, at)
            state = await generate(state, tool_calls="none")
            if turn < len(events):
                data, source = events[turn]
                transcript().info(data, source=source)
            turn += 1
            at += 1
            while at < len(recorded) and recorded[at].role != "assistant":
                state.messages.append(recorded[at])
                at += 1
        return state

    return solve


def recorded_scorers() -> list[Scorer]:
    """Four scorers named and measured like `seek_scorers` that return the recorded
    scores."""
    from infoseek.scorers.group_metric import mean_by_group
    from infoseek.scorers.seek_metrics import INVALID_METRIC_NAMES

    reasons = tuple(name for name in INVALID_METRIC_NAMES if name != "invalid_total")

    def recorded(name: str, metric: Any) -> Scorer:
        @scorer(metrics=[metric], name=name)
        def make() -> Scorer:
            async def score(state: TaskState, target: Target) -> Score:
                return _SCORES[str(state.sample_id)][name]

            return score

        return make()

    return [recorded("answer", mean_by_group()), recorded("sufficiency", mean_by_group()),
            recorded("queries", mean_by_group()),
            recorded("invalid", mean_by_group(overall_only=reasons, skip_zero=reasons))]


def floor_task(sample_ids: list[str]) -> Task:
    samples = [Sample(id=sample_id, input="(replayed)", target="yes",
                      metadata={"k": _GROUPS[sample_id]}) for sample_id in sample_ids]
    return Task(dataset=MemoryDataset(samples), solver=replay_with_outputs(),
                scorer=recorded_scorers(), name="floor")


Timing = tuple[float, float]
"""(wall seconds, CPU seconds of this process)."""


def clean_start() -> Timing:
    """Collect the garbage the previous run left, then read the clocks: no timed run pays
    for collecting another run's objects (the runs alternate in one process)."""
    gc.collect()
    return time.perf_counter(), time.process_time()


def run_logic(per_k: int, log_dir: str) -> tuple[Timing, list[int], EvalLog]:
    wall, cpu = clean_start()
    [log] = eval(logic_task(per_k), model="infoseek/random", log_dir=log_dir,
                 display="none", ctl_server=False)
    timing = (time.perf_counter() - wall, time.process_time() - cpu)
    assert log.status == "success", log.error
    calls = [sum(1 for e in s.events if e.event == "model") for s in log.samples]
    return timing, calls, log


def run_replay(sample_ids: list[str], log_dir: str) -> Timing:
    wall, cpu = clean_start()
    [log] = eval(replay_task(sample_ids), model=replay_model(), log_dir=log_dir,
                 display="none", ctl_server=False)
    timing = (time.perf_counter() - wall, time.process_time() - cpu)
    assert log.status == "success", log.error
    return timing


def run_bare(calls: list[int], log_dir: str) -> Timing:
    wall, cpu = clean_start()
    [log] = eval(bare_task(calls), model=mock_model(), log_dir=log_dir, display="none",
                 ctl_server=False)
    timing = (time.perf_counter() - wall, time.process_time() - cpu)
    assert log.status == "success", log.error
    return timing


def run_floor(sample_ids: list[str], log_dir: str) -> Timing:
    wall, cpu = clean_start()
    [log] = eval(floor_task(sample_ids), model=replay_model(), log_dir=log_dir,
                 display="none", ctl_server=False)
    timing = (time.perf_counter() - wall, time.process_time() - cpu)
    assert log.status == "success", log.error
    return timing


def _median(times: list[Timing], index: int) -> float:
    return statistics.median(t[index] for t in times)


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
    labels = {"logic_mt": "logic_mt + infoseek/random", "bare": "bare task + mockllm/model",
              "replay": "replay + mockllm/model", "floor": "replay + the suite's outputs",
              "replayed": "logic_mt + recorded turns"}
    for index, what in ((0, "wall"), (1, "CPU")):
        for name, label in labels.items():
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
        print(f"{what:4s} ratio logic_mt on recorded turns / replay (the suite's own work, "
              f"no reference policy; target <= 1.3): {replayed / replay:.2f}; the suite's "
              f"own {(replayed - replay) * 1000 / sum(calls):.2f} ms per turn")


if __name__ == "__main__":
    main()
