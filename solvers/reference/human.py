"""A person as an Inspect model provider: `infoseek/human` (issue 34, item 6).

`infoseek play TASK` runs a task with this model, so a person plays it with the same
prompts, reading rules, oracle and scorers as any model, and the run writes an ordinary
Inspect log; a study collects human baselines with the same pipeline as model runs.

Each generate call shows the person what is new in the conversation (the messages after
the last assistant message: the system and user prompts on the first turn, then the
oracle's reply and any note the solver added), and reads the reply from standard input:
one or more lines, ended by an empty line. Blank lines before any text are skipped, so an
extra Enter never sends an empty reply. The reply goes back as plain text, exactly as
typed (the text format's ``Question: ...`` / ``Answer: ...`` lines). A task offering tools
still gets text, which its solver reads as a reply without a tool call; `infoseek play`
therefore runs every task that has a format in the text format.

End of input (Ctrl-D, or a closed standard input) abandons the sample: the reply is empty,
which the solver records as a turn with no action, and every later generate call of that
sample returns an empty reply at once without reading, so the episode runs out its turns
without waiting for anyone. The next sample asks again.

Every output carries a `ModelUsage` of zero tokens (no model is called, and a usage set
means Inspect never looks for a tokenizer). Standard input is read in a daemon thread
(`read_in_thread`), so Inspect's event loop keeps running while the person thinks and
Ctrl-C stops the run at once.
"""

from __future__ import annotations

import asyncio
import sys
import threading
from typing import Any, TextIO

from inspect_ai.model import (
    ChatMessage,
    ChatMessageAssistant,
    GenerateConfig,
    ModelAPI,
    ModelOutput,
    ModelUsage,
)
from inspect_ai.tool import ToolChoice, ToolInfo

PROVIDER = "infoseek"
HUMAN_MODEL_NAME = "human"
"""The model name: `--model infoseek/human`."""

RULE = "-" * 72
WELCOME = (
    "infoseek play: you are the model. Read the messages below and type your reply.\n"
    "Finish a reply with an empty line (press Enter twice). Ctrl-D (end of input) gives\n"
    "up this sample: its remaining turns are recorded as turns with no action."
)
PROMPT = "Your reply (end with an empty line):"
ABANDONED = ("[end of input: this sample is abandoned; its remaining turns are recorded "
             "with no action]")
TOOLS_OFFERED = ("[this task offers tools, which a person cannot call: your text is read "
                 "as a reply without a tool call; play it with -T format=text]")


def model_api(model_name: str, base_url: str | None = None, api_key: str | None = None,
              config: GenerateConfig | None = None, **model_args: Any) -> ModelAPI:
    """The `infoseek` provider's models: the person for `human`, otherwise a reference
    model (`infoseek.solvers.reference.models`, imported here, so the entry point stays
    light). An unknown name is refused with every valid name."""
    if model_name == HUMAN_MODEL_NAME:
        return HumanModelAPI(model_name, base_url=base_url, api_key=api_key, config=config,
                             **model_args)
    from infoseek.solvers.reference.models import ReferenceModelAPI, valid_model_names

    known = [*valid_model_names(), f"{PROVIDER}/{HUMAN_MODEL_NAME}"]
    if f"{PROVIDER}/{model_name}" not in known:
        raise ValueError(f"Unknown infoseek model {model_name!r}. Valid names: "
                         f"{', '.join(known)}.")
    return ReferenceModelAPI(model_name, base_url=base_url, api_key=api_key, config=config,
                             **model_args)


class HumanModelAPI(ModelAPI):
    """Inspect `ModelAPI` whose replies a person types in the terminal.

    `stdin` and `stdout` default to the process's streams when a call is made
    (``sys.stdin`` and ``sys.__stdout__``; tests may pass their own)."""

    def __init__(
        self,
        model_name: str = HUMAN_MODEL_NAME,
        base_url: str | None = None,
        api_key: str | None = None,
        config: GenerateConfig | None = None,
        stdin: TextIO | None = None,
        stdout: TextIO | None = None,
        **model_args: Any,
    ) -> None:
        super().__init__(model_name=model_name, base_url=base_url, api_key=api_key,
                         api_key_vars=[], config=config or GenerateConfig())
        if model_name != HUMAN_MODEL_NAME:
            raise ValueError(f"The human player is {PROVIDER}/{HUMAN_MODEL_NAME}, "
                             f"not {PROVIDER}/{model_name}.")
        if model_args:
            raise ValueError(f"{PROVIDER}/{HUMAN_MODEL_NAME} takes no model arguments "
                             f"(-M); got {sorted(model_args)}.")
        self._stdin = stdin
        self._stdout = stdout
        # the samples given up (by the id of their first message, which stays the same
        # for every turn of a sample)
        self._abandoned: set[str] = set()

    async def generate(
        self,
        input: list[ChatMessage],
        tools: list[ToolInfo],
        tool_choice: ToolChoice,
        config: GenerateConfig,
    ) -> ModelOutput:
        sample = _sample_key(input)
        if sample in self._abandoned:
            return self._output("")
        out = self._stdout or _terminal_out()
        first = not any(isinstance(message, ChatMessageAssistant) for message in input)
        out.write(screen(input, first=first, tools=bool(tools)))
        out.flush()
        reply = await read_in_thread(self._stdin or sys.stdin)
        if reply is None:
            self._abandoned.add(sample)
            out.write(ABANDONED + "\n")
            out.flush()
            return self._output("")
        return self._output(reply)

    # --- Inspect knobs -------------------------------------------------------------

    def max_tokens(self) -> int | None:
        return None

    def max_connections(self) -> int:
        return 1  # one person, one conversation at a time

    def connection_key(self) -> str:
        return f"{PROVIDER}/{self.model_name}"

    def should_retry(self, ex: Exception) -> bool:
        return False

    async def count_text_tokens(self, text: str) -> int:
        # keep Inspect away from tiktoken (which would download an encoding)
        return max(1, (len(text) + 3) // 4)

    def _output(self, text: str) -> ModelOutput:
        output = ModelOutput.from_content(model=self.model_name, content=text)
        output.usage = ModelUsage(input_tokens=0, output_tokens=0, total_tokens=0)
        return output


async def read_in_thread(stream: TextIO) -> str | None:
    """`read_reply` in a daemon thread of its own, awaited without blocking the event loop.

    Ctrl-C cancels the wait at once and the run stops; the thread, still blocked on the
    terminal, is a daemon, so it cannot hold the process open (a worker thread of a pool
    would be joined at exit, until someone pressed Enter)."""
    loop = asyncio.get_running_loop()
    done: asyncio.Future[str | None] = loop.create_future()

    def settle(result: str | None, error: BaseException | None) -> None:
        if done.done():  # the wait was cancelled
            return
        if error is not None:
            done.set_exception(error)
        else:
            done.set_result(result)

    def work() -> None:
        result, error = None, None
        try:
            result = read_reply(stream)
        except BaseException as exc:  # handed to the awaiting task
            error = exc
        try:
            loop.call_soon_threadsafe(settle, result, error)
        except RuntimeError:  # the loop has closed: the run was stopped
            pass

    threading.Thread(target=work, name="infoseek-human-reply", daemon=True).start()
    return await done


def _terminal_out() -> TextIO:
    # the process's own standard output: while a task runs, Inspect's console puts a rich
    # proxy in sys.stdout, which holds the text back instead of showing it
    return sys.__stdout__ or sys.stdout


def _sample_key(input: list[ChatMessage]) -> str:
    return str(input[0].id) if input and input[0].id else ""


def new_messages(input: list[ChatMessage]) -> list[ChatMessage]:
    """The messages after the last assistant message (all of them on the first turn)."""
    last = max((index for index, message in enumerate(input)
                if isinstance(message, ChatMessageAssistant)), default=-1)
    return input[last + 1:]


def screen(input: list[ChatMessage], *, first: bool, tools: bool = False) -> str:
    """What the person sees before typing a reply: the welcome (first turn only), each new
    message under a line naming its role, and the prompt."""
    parts = [RULE, WELCOME] if first else []
    for message in new_messages(input):
        parts += [f"{RULE}\n[{message.role}]", message.text.rstrip()]
    if tools:
        parts.append(TOOLS_OFFERED)
    parts += [RULE, PROMPT]
    return "\n".join(parts) + "\n"


def read_reply(stream: TextIO) -> str | None:
    """One reply from `stream`: the lines up to the first empty line after some text
    (blank lines before it are skipped), joined with newlines; None at end of input before
    any text. End of input after some text ends the reply as an empty line would."""
    lines: list[str] = []
    while True:
        line = stream.readline()
        if line == "":
            return "\n".join(lines) if lines else None
        line = line.rstrip("\r\n")
        if line.strip():
            lines.append(line)
        elif lines:
            return "\n".join(lines)
