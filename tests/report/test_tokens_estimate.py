"""The token estimate (`infoseek.inspect_tasks.report.tokens`: ceil(characters / 4), no
tokenizer) on hand-made model events and on a real episode of the random reference, and
the benchmark's even spread of samples."""

from __future__ import annotations

import pytest
from inspect_ai import eval as inspect_eval
from inspect_ai.event import ModelEvent
from inspect_ai.log import read_eval_log
from inspect_ai.model import (
    ChatMessageAssistant,
    ChatMessageSystem,
    ChatMessageUser,
    GenerateConfig,
    ModelOutput,
)
from inspect_ai.tool import ToolCall, ToolInfo, ToolParams

from infoseek.inspect_tasks.logic_mt import logic_mt
from infoseek.inspect_tasks.report.estimate import spread
from infoseek.inspect_tasks.report.tokens import (
    call_estimate,
    episode_estimate,
    estimated_tokens,
)


def test_four_characters_a_token_rounded_up() -> None:
    assert [estimated_tokens(n) for n in (0, 1, 4, 5, 8, 9)] == [0, 1, 1, 2, 2, 3]


def _event(texts: list[str], output: str, *, tools=(), role=None, calls=()) -> ModelEvent:
    messages = [ChatMessageSystem(content=texts[0]),
                *(ChatMessageUser(content=t) for t in texts[1:])]
    if calls:
        messages.append(ChatMessageAssistant(content="", tool_calls=list(calls)))
    return ModelEvent(model="mockllm/model", role=role, input=messages, tools=list(tools),
                      tool_choice="auto", config=GenerateConfig(),
                      output=ModelOutput.from_content("mockllm/model", output))


def test_a_call_counts_messages_tool_calls_and_tool_definitions() -> None:
    assert call_estimate(_event(["s" * 40, "u" * 41], "z" * 8)) == (21, 2)  # 81 chars
    ask = ToolInfo(name="ask", description="d" * 10, parameters=ToolParams())
    schema = len('{"additionalProperties": false, "properties": {}, "required": [], '
                 '"type": "object"}')
    call = ToolCall(id="c1", function="ask", arguments={"v": "x"})  # 3 + len('{"v": "x"}')
    prompt, _ = call_estimate(_event(["s" * 40], "", tools=[ask], calls=[call]))
    assert prompt == estimated_tokens(40 + 3 + 10 + schema + 3 + 10)


class _Sample:
    def __init__(self, events) -> None:
        self.id, self.events = "s", events


def test_an_episode_sums_every_call_and_counts_role_calls_apart() -> None:
    events = [_event(["a" * 400], "b" * 40), _event(["a" * 400, "c" * 400], "d" * 4),
              _event(["judge" * 80], "yes", role="judge")]
    assert episode_estimate(_Sample(events)) == {
        "first_prompt": 100, "prompt": 300, "output": 11, "calls": 2, "role_calls": 1}
    attached = _event(["attachment://0123456789abcdef"], "")
    with pytest.raises(ValueError, match="resolve_attachments=True"):
        episode_estimate(_Sample([attached]))


def test_a_random_episode_counts_what_its_log_records(tmp_path) -> None:
    [log] = inspect_eval(logic_mt(k=[2], per_k=1), model="infoseek/random",
                         log_dir=str(tmp_path), display="none")
    sample = read_eval_log(log.location, resolve_attachments=True).samples[0]
    events = [e for e in sample.events if isinstance(e, ModelEvent)]
    first = events[0]
    chars = sum(len(m.text) for m in first.input)  # the system prompt and the problem
    assert chars > 1000
    estimate = episode_estimate(sample)
    assert estimate["calls"] == len(events) > 2 and estimate["role_calls"] == 0
    assert estimate["first_prompt"] > estimated_tokens(chars)  # plus the tool definitions
    assert estimate["prompt"] == sum(call_estimate(e)[0] for e in events)
    # every later call resends the conversation: the episode costs more than n first calls
    assert estimate["prompt"] > estimate["calls"] * estimate["first_prompt"]


def test_the_benchmark_spreads_its_samples_evenly() -> None:
    assert spread(3, 5) == [0, 1, 2]
    assert spread(101, 5) == [0, 25, 50, 75, 100]
    assert spread(10, 1) == [0]
