"""The turns of the fuzz test and the scripted model that plays them (issue 8).

`tests.support.fuzz_catalogue.CATALOGUE` holds named kinds of model output. Each kind is a
function of the problem (entity, target, a canonical-MSS variable, the true answer, the
answer kind and the interaction format) that returns the *bad turn*: text (text format)
or tool calls (tool format), plus what the seek loop must make of it (protocols §3.8):

- ``garbage``: an invalid turn. It is never credited and the turn record carries an
  invalid reason (on the turn, or on a query); ``reasons``, when given, are the reasons
  protocols §3.8 and ``docs/contracts.md`` call for.
- ``wrong``: a readable answer whose right reading is *not* the hidden value
  (``2.5e+276`` where the value is 276, a Unicode minus ``\u2212276``). It may be
  invalid or a valid wrong answer, but it is never credited.
- ``valid``: an unusual but well-formed ask or answer (a correct answer with a trailing
  justification, a question phrased freely that names exactly one attribute). It must
  be accepted: an ask gets an oracle reply, an answer is credited.

`tests.support.fuzz_catalogue.plays_for` turns a kind into the turns one sample plays:

- ``persist`` (garbage, wrong): any turns the kind needs first, then the bad turn again
  on every later call, so the model never gives a clean correct answer (accuracy must
  be exactly 0);
- ``recover`` (garbage kinds marked ``recover=True``: one or more of each family): the
  bad turn, then the canonical MSS asked cleanly and the correct answer (the episode
  must go on and end credited);
- ``valid``: a valid ask followed by the rest of the MSS and the correct answer, or the
  MSS followed by the valid answer.

`ScriptedModelAPI` (the ``infoseek_fuzz/script`` model) plays the scripts. Like the
reference models (`infoseek.solvers.reference.models`) it reads the sample store that the seek
loop writes before every generate call: the problem id picks the script, the number of
recorded turns picks the turn. It keeps no state between calls.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import Any

from inspect_ai.model import (
    ChatMessage,
    ChatMessageSystem,
    ChatMessageUser,
    GenerateConfig,
    ModelAPI,
    ModelOutput,
    modelapi,
)
from inspect_ai.tool import ToolChoice, ToolInfo
from inspect_ai.util import store

from infoseek import contract
from infoseek.stored_forms import problem_from_store, turns_from_store
from tests.support.common import no_choices_output, text_output, tool_output

FUZZ_PROVIDER = "infoseek_fuzz"
FUZZ_MODEL = f"{FUZZ_PROVIDER}/script"
FORMATS = ("tool", "text")
ANSWER_KINDS = contract.ANSWER_KINDS
BOOLEAN = ("boolean",)
NUMBER = ("number",)
CHOICE = ("choice",)
TEXT = ("text",)
TOOL = ("tool",)

GARBAGE = "garbage"
WRONG = "wrong"
VALID = "valid"
EXPECTATIONS = (GARBAGE, WRONG, VALID)

STORE_PROBLEM = contract.STORE_PROBLEM
STORE_TURNS = contract.STORE_TURNS
ID_SEPARATOR = "::"


# ------------------------------------------------------------------------- turns


@dataclass(frozen=True)
class Text:
    """A plain-text model turn."""

    content: str


@dataclass(frozen=True)
class Calls:
    """A turn of tool calls ``(function, arguments)`` or ``(function, arguments,
    parse_error)``, with optional text content beside them."""

    calls: tuple[tuple[Any, ...], ...]
    content: str = ""


@dataclass(frozen=True)
class NoChoices:
    """A provider response with an empty choice list."""


@dataclass(frozen=True)
class EchoPrompt:
    """Echo of the prompt the model was given, resolved when the model is called:
    ``line_start`` picks the first line of the system prompt that starts with it and
    holds a ``<placeholder>`` (a template line, copied verbatim); without it,
    ``which="system"`` / ``"problem"`` takes the whole system prompt / problem statement;
    ``as_answer`` wraps it as an answer."""

    which: str = "system"
    line_start: str | None = None
    as_answer: bool = False


@dataclass(frozen=True)
class Stopped:
    """A `Text` or `Calls` turn whose output Inspect marks with ``stop_reason``
    (``model_length``: the context window was exceeded; ``max_tokens``: the reply was
    cut at the output limit)."""

    turn: Text | Calls
    stop_reason: str


Turn = Text | Calls | NoChoices | EchoPrompt | Stopped


@dataclass(frozen=True)
class FuzzProblem:
    """What a kind may know about the sample it plays (the test knows the hidden value)."""

    task: str
    fmt: str
    entity: str
    target: str
    answer_kind: str
    truth: Any  # True / False, an int, or an option label (choice)
    mss: tuple[str, ...]  # the canonical MSS
    spare: str  # askable, in no MSS: a valid but wasted question
    refused: str  # a real variable the oracle refuses (alternative-only / derived)
    refused_reason: str  # "forbidden" or "not_leaf"
    observed: str
    askable: tuple[str, ...]
    descriptions: dict[str, str] = field(default_factory=dict)
    options: tuple[str, ...] = ()  # choice: the labels of the listed options

    @property
    def first(self) -> str:
        return self.mss[0]

    @property
    def other(self) -> str:
        """choice: a listed option that is not the hidden value."""
        return next(o for o in self.options if o != self.truth)

    @property
    def number(self) -> int:
        assert self.answer_kind == "number" and isinstance(self.truth, int)
        return self.truth


# ------------------------------------------------------------------- turn helpers

def text(content: str) -> Text:
    return Text(content)


def calls(*specs: tuple[Any, ...], content: str = "") -> Calls:
    return Calls(tuple(specs), content)


def question_line(p: FuzzProblem, name: str) -> str:
    if p.answer_kind in ("number", "choice"):
        return f"Question: What is {name}?"
    return f"Question: Is {p.entity} {name}?"


def ask(p: FuzzProblem, *names: str) -> Turn:
    """A clean ask of `names` in the problem's format."""
    if p.fmt == "tool":
        return calls(*[("ask", {"variable": name}) for name in names])
    return text("\n".join(question_line(p, name) for name in names))


def ask_raw(p: FuzzProblem, raw: Any) -> Turn:
    """`raw` as the question: the `ask` argument, or the text after ``Question:``."""
    if p.fmt == "tool":
        return calls(("ask", {"variable": raw}))
    return text(f"Question: {raw}")


def answer_raw(p: FuzzProblem, raw: Any) -> Turn:
    """`raw` as the answer: the `answer` argument, or the text after ``Answer:``."""
    if p.fmt == "tool":
        return calls(("answer", {"value": raw}))
    return text(f"Answer: {raw}")


def statement(p: FuzzProblem, value: bool) -> str:
    return f"{p.entity} is {'' if value else 'not '}{p.target}"


def truth_text(p: FuzzProblem) -> str:
    if p.answer_kind == "boolean":
        return "yes" if p.truth else "no"
    return str(p.truth)


def clean_answer(p: FuzzProblem, value: Any = None) -> Turn:
    """The clean answer `value` (default: the true one) in the problem's format."""
    value = p.truth if value is None else value
    if p.answer_kind == "boolean":
        if p.fmt == "tool":
            return answer_raw(p, "yes" if value else "no")
        return text(f"Answer: {statement(p, value)}.")
    return answer_raw(p, str(value))


def both(text_turn: Callable[[FuzzProblem], Turn], tool_turn: Callable[[FuzzProblem], Turn]
         ) -> Callable[[FuzzProblem], Turn]:
    return lambda p: tool_turn(p) if p.fmt == "tool" else text_turn(p)


# --------------------------------------------------------------------- scripts


# Scripts by problem id, read by the model. Filled by `install`; the problem ids are
# unique per (task, format, sample) so several runs can share the table.
_SCRIPTS: dict[str, tuple[Turn, ...]] = {}


def install(problem_id: str, turns: Iterable[Turn]) -> None:
    _SCRIPTS[problem_id] = tuple(turns)


def sample_problem_id(base_id: str, task: str, fmt: str, play_name: str) -> str:
    return ID_SEPARATOR.join((base_id, task, fmt, play_name))


# ------------------------------------------------------------------ the model


def _resolve_echo(echo: EchoPrompt, input: list[ChatMessage]) -> str:
    system = next((m.text for m in input if isinstance(m, ChatMessageSystem)), "")
    problem = next((m.text for m in input if isinstance(m, ChatMessageUser)), "")
    source = system if echo.which == "system" else problem
    if echo.line_start is not None:
        lines = [ln for ln in source.splitlines()
                 if ln.strip().startswith(echo.line_start) and re.search(r"<[^<>]+>", ln)]
        if not lines:
            raise AssertionError(f"no template line of the system prompt starts with "
                                 f"{echo.line_start!r}")
        return lines[0].strip()
    return source


class ScriptedModelAPI(ModelAPI):
    """Plays the installed script of the sample being run (see the module docstring)."""

    def __init__(self, model_name: str, base_url: str | None = None,
                 api_key: str | None = None, config: GenerateConfig | None = None,
                 **model_args: Any) -> None:
        super().__init__(model_name=model_name, base_url=base_url, api_key=api_key,
                         api_key_vars=[], config=config or GenerateConfig())

    async def generate(self, input: list[ChatMessage], tools: list[ToolInfo],
                       tool_choice: ToolChoice, config: GenerateConfig) -> ModelOutput:
        sample_store = store()
        problem = problem_from_store(sample_store.get(STORE_PROBLEM)) or {}
        turns = turns_from_store(sample_store.get(STORE_TURNS)) or []
        script = _SCRIPTS[problem["id"]]
        turn = script[min(len(turns), len(script) - 1)]
        return self._output(turn, input)

    def _output(self, turn: Turn, input: list[ChatMessage]) -> ModelOutput:
        if isinstance(turn, Stopped):
            output = self._output(turn.turn, input)
            output.choices[0].stop_reason = turn.stop_reason  # type: ignore[assignment]
            return output
        if isinstance(turn, EchoPrompt):
            echoed = _resolve_echo(turn, input)
            turn = Text(f"Answer: {echoed}" if turn.as_answer else echoed)
        if isinstance(turn, NoChoices):
            return no_choices_output(model=self.model_name)
        if isinstance(turn, Text):
            return text_output(turn.content, model=self.model_name)
        return tool_output(*turn.calls, content=turn.content, model=self.model_name,
                           id_prefix="fuzz-")

    def max_tokens(self) -> int | None:
        return None

    def max_connections(self) -> int:
        return 1000

    def connection_key(self) -> str:
        return FUZZ_MODEL

    def should_retry(self, ex: Exception) -> bool:
        return False

    async def count_text_tokens(self, text: str) -> int:
        return max(1, len(text) // 4)


@modelapi(name=FUZZ_PROVIDER)
def infoseek_fuzz_model() -> type[ModelAPI]:
    """Register the scripted fuzz model under `infoseek_fuzz/`."""
    return ScriptedModelAPI
