"""The tasks and models `bench_overhead.py` times against each other: the suite's
`logic_mt`, a bare task, a replay of the recorded conversations without the suite, the
replay plus the suite's recorded outputs (the floor), and a model that plays a recorded
run back turn by turn. Each replay reads what the `record_*` functions kept from one
recorded `logic_mt` log (module-level tables, filled once per benchmark run)."""

from __future__ import annotations

from typing import Any

from inspect_ai import Task
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

from infoseek.scorers.seek import SEEK_SCORER_NAMES

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
def replay_conversation(outputs: bool = False):
    """Rebuild a recorded conversation: the recorded system prompt and problem, the
    recorded tools, then for every recorded assistant turn one generate call (the mock
    plays that turn back) followed by the recorded replies. With `outputs` (the floor)
    also the recorded final store and, after each turn, the recorded turn event."""

    async def solve(state: TaskState, generate: Generate) -> TaskState:
        from infoseek.solvers.seek.tools import answer, ask

        sample_id = str(state.sample_id)
        recorded = _RECORDED[sample_id]
        events = _EVENTS[sample_id] if outputs else []
        state.messages = list(recorded[:2])
        state.tools = [ask(), answer()]
        sample_store = store()
        sample_store.set(_REPLAY_ID, sample_id)
        for key, value in (_STORES[sample_id] if outputs else {}).items():
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
    reference-policy work. Each new model starts every sample at its first call."""
    from inspect_ai.solver._task_state import sample_state

    _TURN_AT.clear()

    def respond(messages, tools, tool_choice, config) -> ModelOutput:
        sample_id = str(sample_state().sample_id)
        at = _TURN_AT.get(sample_id, 0)
        _TURN_AT[sample_id] = at + 1
        output = ModelOutput(model="mockllm/model", choices=[ChatCompletionChoice(
            message=_TURNS[sample_id][at], stop_reason="stop")])
        output.usage = ModelUsage(input_tokens=10, output_tokens=5, total_tokens=15)
        return output

    return get_model("mockllm/model", custom_outputs=respond)


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
_METADATA: dict[str, dict[str, Any]] = {}


def record_outputs(log: EvalLog) -> None:
    """Keep what the suite handed Inspect in every sample (turn events, final store,
    scores, the sample's metadata, which holds the metric group) for the floor task."""
    for table in (_EVENTS, _SCORES, _STORES, _METADATA):
        table.clear()
    for sample in log.samples or []:
        sample_id = str(sample.id)
        _EVENTS[sample_id] = [(e.data, e.source) for e in sample.events if e.event == "info"]
        _SCORES[sample_id] = dict(sample.scores or {})
        _STORES[sample_id] = dict(sample.store)
        _METADATA[sample_id] = dict(sample.metadata)


def _scorer(name: str, metric: Any, recorded: bool) -> Scorer:
    """A scorer called `name` measured by `metric` that returns the sample's recorded
    score (`recorded`) or 1."""

    @scorer(metrics=[metric], name=name)
    def make() -> Scorer:
        async def score(state: TaskState, target: Target) -> Score:
            return _SCORES[str(state.sample_id)][name] if recorded else Score(value=1.0)

        return score

    return make()


def recorded_scorers() -> list[Scorer]:
    """Four scorers named and measured like `seek_scorers` that return the recorded
    scores."""
    from infoseek.scorers.group_metric import mean_by_group
    from infoseek.scorers.seek_metrics import INVALID_METRIC_NAMES

    reasons = tuple(name for name in INVALID_METRIC_NAMES if name != "invalid_total")
    metrics = {"invalid": mean_by_group(overall_only=reasons, skip_zero=reasons)}
    return [_scorer(name, metrics.get(name, mean_by_group()), recorded=True)
            for name in SEEK_SCORER_NAMES]


def constant_scorers() -> list[Scorer]:
    """Four scorers with the seek scorers' names that return 1 (one value, `mean`): what
    Inspect spends on four scorers as such, whatever they return."""
    return [_scorer(name, mean(), recorded=False) for name in SEEK_SCORER_NAMES]


def floor_task(sample_ids: list[str], *, constant: bool = False) -> Task:
    """The floor: the replay, the recorded turn events and store, the recorded scores
    (`constant`: four scorers returning 1 instead), on samples carrying the recorded
    samples' metadata (the problem record and the rest: Inspect copies, snapshots and
    thins it whoever made it)."""
    samples = [Sample(id=sample_id, input="(replayed)", target="yes",
                      metadata=_METADATA[sample_id]) for sample_id in sample_ids]
    return Task(dataset=MemoryDataset(samples), solver=replay_conversation(outputs=True),
                scorer=constant_scorers() if constant else recorded_scorers(), name="floor")
