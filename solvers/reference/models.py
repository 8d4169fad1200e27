"""Reference models as an Inspect model provider: `infoseek/optimal`, `infoseek/random`
(and `infoseek/reversed`, for problems with a required query order).

A reference model never reads the prompt. The infoseek solvers write the episode into the
per-sample store before every generate call (`infoseek:protocol`, `infoseek:problem`,
`infoseek:turns`, `infoseek:options`); the provider reads those keys, asks the reference
strategy (`infoseek.solvers.reference.strategy.decide`) what to do, and answers in the interaction
format the solver offered: `ask` / `answer` tool calls when tools are offered in the tool
format, otherwise the `Question: ...` / `Answer: ...` text lines of the text format.
The provider is registered by the Inspect entry point (`infoseek.inspect_tasks._registry`),
which imports this module only when a reference model is made.

Every output carries a `ModelUsage` of zero tokens (a reference model calls nothing, and
a usage set means Inspect never needs a tokenizer). A yes/no answer in the tool format is
`answer(value="yes")` / `answer(value="no")`, as the prompt asks. The provider keeps no
state between calls: the same store contents always give the same output, in any process.

The strategy runs in a worker thread (`anyio.to_thread.run_sync`), not on Inspect's event
loop: an exact search can take longer than any step of a sample should hold the loop (the
optimal strategy on the hard logic split, up to seconds per decision), and meanwhile the
loop keeps serving the other samples. One lock lets one decision run at a time, as on the
loop before, so the strategies' caches are never used by two threads at once; a decision
depends only on what it is given, so the outputs are the same as when it ran on the loop.
"""

from __future__ import annotations

import json
import threading
from typing import Any

import anyio
from inspect_ai.model import (
    ChatCompletionChoice,
    ChatMessage,
    ChatMessageAssistant,
    GenerateConfig,
    ModelAPI,
    ModelOutput,
    ModelUsage,
)
from inspect_ai.tool import ToolCall, ToolChoice, ToolInfo
from inspect_ai.util import store

from infoseek.answers import answer_kind
from infoseek.contract import (
    ANSWER_TOOL,
    ASK_TOOL,
    PROTOCOLS,
    STORE_OPTIONS,
    STORE_PROBLEM,
    STORE_PROTOCOL,
    STORE_TURNS,
)
from infoseek.domains import UnknownDomain, domain_of
from infoseek.solvers.reference import strategy as reference_strategy
from infoseek.solvers.reference.strategy import REFERENCE_MODEL_NAMES
from infoseek.solvers.text_format import render_text_action
from infoseek.stored_forms import problem_from_store, turns_from_store

PROVIDER = "infoseek"

REQUIRED_STORE_KEYS: tuple[str, ...] = (STORE_PROTOCOL, STORE_PROBLEM, STORE_TURNS, STORE_OPTIONS)


# Rough characters-per-token ratio for the usage estimate (no tokenizer involved).
_CHARS_PER_TOKEN = 4


def valid_model_names() -> list[str]:
    """Qualified names of the reference models, e.g. `infoseek/optimal`."""
    return [f"{PROVIDER}/{name}" for name in REFERENCE_MODEL_NAMES]


class ReferenceModelAPI(ModelAPI):
    """Inspect `ModelAPI` that plays a reference strategy instead of calling a service."""

    def __init__(
        self,
        model_name: str,
        base_url: str | None = None,
        api_key: str | None = None,
        config: GenerateConfig | None = None,
        **model_args: Any,
    ) -> None:
        super().__init__(
            model_name=model_name,
            base_url=base_url,
            api_key=api_key,
            api_key_vars=[],
            config=config or GenerateConfig(),
        )
        if model_name not in REFERENCE_MODEL_NAMES:
            raise ValueError(
                f"Unknown infoseek reference model {model_name!r}. "
                f"Valid names: {', '.join(valid_model_names())}."
            )
        if model_args:
            raise ValueError(
                f"The infoseek reference models take no model arguments (-M); "
                f"got {sorted(model_args)}."
            )

    async def generate(
        self,
        input: list[ChatMessage],
        tools: list[ToolInfo],
        tool_choice: ToolChoice,
        config: GenerateConfig,
    ) -> ModelOutput:
        episode = read_episode()
        if isinstance(episode, str):
            return self._text_output(episode)

        protocol, problem, turns, options = episode
        decision = await anyio.to_thread.run_sync(
            _decide_alone, self.model_name, protocol, problem, turns, options)
        check_decision(decision)

        use_tools = bool(tools) and options.get("format", "tool") == "tool"
        if use_tools and decision["kind"] in ("ask", "answer"):
            return self._tool_output(decision, input, problem)
        return self._text_output(render_text_action(labelled_decision(decision, problem), problem))

    # --- Inspect knobs -------------------------------------------------------------

    def max_tokens(self) -> int | None:
        return None

    def max_connections(self) -> int:
        # nothing remote: the only limit is the event loop, so let samples run freely
        return 64

    def connection_key(self) -> str:
        return f"{PROVIDER}/{self.model_name}"

    def should_retry(self, ex: Exception) -> bool:
        # a strategy error is a bug, never a transient failure
        return False

    async def count_text_tokens(self, text: str) -> int:
        # keep Inspect away from tiktoken (which would download an encoding)
        return _estimate_tokens(text)

    # --- output construction ---------------------------------------------------------

    def _tool_output(self, decision: dict[str, Any], input: list[ChatMessage],
                     problem: dict[str, Any]) -> ModelOutput:
        turn = _assistant_turn_number(input)
        if decision["kind"] == "ask":
            calls = [
                ToolCall(
                    id=f"{PROVIDER}-t{turn}-ask{index}",
                    function=ASK_TOOL,
                    arguments={"variable": str(variable)},
                )
                for index, variable in enumerate(decision["variables"], start=1)
            ]
        else:
            calls = [
                ToolCall(
                    id=f"{PROVIDER}-t{turn}-answer",
                    function=ANSWER_TOOL,
                    arguments={"value": answer_label(problem, decision["value"])},
                )
            ]
        message = ChatMessageAssistant(
            content="", tool_calls=calls, model=self.model_name, source="generate"
        )
        return ModelOutput(
            model=self.model_name,
            choices=[ChatCompletionChoice(message=message, stop_reason="tool_calls")],
            usage=no_usage(),
        )

    def _text_output(self, text: str) -> ModelOutput:
        output = ModelOutput.from_content(model=self.model_name, content=text)
        output.usage = no_usage()
        return output


def read_episode() -> tuple[str, dict[str, Any], list[dict[str, Any]], dict[str, Any]] | str:
    """Read the episode from the sample store.

    Returns `(protocol, problem, turns, options)` as private copies, or an explanatory
    message when the store does not hold an infoseek episode (the model was used
    outside an infoseek task, or with a solver that does not write the store).
    """
    sample_store = store()
    missing = [key for key in REQUIRED_STORE_KEYS if key not in sample_store]
    if missing:
        return (
            "infoseek reference model: the sample store holds no infoseek episode "
            f"(missing {', '.join(missing)}). The models {', '.join(valid_model_names())} "
            "only work inside infoseek tasks, whose solvers write these keys before "
            "every generate call."
        )

    protocol = sample_store.get(STORE_PROTOCOL)
    problem = problem_from_store(sample_store.get(STORE_PROBLEM))
    turns = turns_from_store(sample_store.get(STORE_TURNS))
    options = sample_store.get(STORE_OPTIONS)
    problems = []
    if protocol not in PROTOCOLS:
        problems.append(f"{STORE_PROTOCOL} is {protocol!r}, expected one of {list(PROTOCOLS)}")
    if not isinstance(problem, dict):
        problems.append(f"{STORE_PROBLEM} is not a problem record (JSON object text)")
    if not isinstance(turns, list):
        problems.append(f"{STORE_TURNS} is not a list of turn records (JSON text)")
    if not isinstance(options, dict):
        problems.append(f"{STORE_OPTIONS} is not a dict")
    if problems:
        return "infoseek reference model: malformed episode in the sample store: " + "; ".join(
            problems
        )
    # private copies, so that no strategy can alter what the solver recorded: the problem
    # and the turns are decoded afresh from their JSON text; the store holds JSON values
    # only, so a JSON round trip copies the options (several times faster than deepcopy)
    return protocol, problem, turns, _json_copy(options)


def _json_copy(value: Any) -> Any:
    return json.loads(json.dumps(value))


def check_decision(decision: Any) -> None:
    """Raise unless `decision` is one of the three decision shapes."""
    if not isinstance(decision, dict):
        raise TypeError(f"reference strategy returned {decision!r}, not a decision dict")
    kind = decision.get("kind")
    if kind == "ask":
        variables = decision.get("variables")
        if not isinstance(variables, list | tuple) or not variables:
            raise ValueError(f"'ask' decision without variables: {decision!r}")
    elif kind == "answer":
        if "value" not in decision:
            raise ValueError(f"'answer' decision without a value: {decision!r}")
    elif kind == "text":
        if not isinstance(decision.get("text"), str):
            raise ValueError(f"'text' decision without text: {decision!r}")
    else:
        raise ValueError(f"reference strategy returned an unknown decision kind: {decision!r}")


_ONE_DECISION_AT_A_TIME = threading.Lock()


def _decide_alone(*args: Any) -> dict[str, Any]:
    """`_decide` in a worker thread, one decision at a time (module docstring)."""
    with _ONE_DECISION_AT_A_TIME:
        return _decide(*args)


def _decide(
    model_name: str,
    protocol: str,
    problem: dict[str, Any],
    turns: list[dict[str, Any]],
    options: dict[str, Any],
) -> dict[str, Any]:
    # looked up at call time, so that tests can substitute
    # `infoseek.solvers.reference.strategy.decide` (the strategies themselves are imported
    # on first use: `register_strategy` paths)
    return reference_strategy.decide(model_name, protocol, problem, turns, options)


def answer_label(problem: dict[str, Any], value: Any) -> str:
    """``value`` written as the answer kind of the problem's domain writes it
    (`infoseek.answers.AnswerKind.label`: ``yes`` / ``no``, the number, ...). A record of
    no registered domain (a hand-made record) is written as a yes/no kind writes it,
    which writes a number as itself."""
    try:
        kind = domain_of(problem).answer_kind
    except UnknownDomain:
        kind = "boolean"
    return answer_kind(kind).label(value)


def labelled_decision(decision: dict[str, Any], problem: dict[str, Any]) -> dict[str, Any]:
    """A strategy's decision as the text format writes it: an answer's value written by
    the problem's answer kind (`answer_label`); a yes/no value stays as it is, since the
    text format states it about the entity (`render_text_action`: ``Answer: Alice is not
    kind.``). Any other decision is returned as it is."""
    if decision.get("kind") != "answer" or isinstance(decision.get("value"), bool):
        return decision
    return {**decision, "value": answer_label(problem, decision["value"])}


def _assistant_turn_number(input: list[ChatMessage]) -> int:
    """1 + the number of assistant messages so far: unique, deterministic call ids."""
    return 1 + sum(1 for message in input if isinstance(message, ChatMessageAssistant))


def _estimate_tokens(text: str) -> int:
    return max(1, (len(text) + _CHARS_PER_TOKEN - 1) // _CHARS_PER_TOKEN)


def no_usage() -> ModelUsage:
    """Zero tokens: a reference model makes no model call."""
    return ModelUsage(input_tokens=0, output_tokens=0, total_tokens=0)

