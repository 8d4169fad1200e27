"""What the test modules share: scripted model outputs, the tokenizer guard, and checks
on finished evals.

Every output built here carries `mock_usage()`. Without usage Inspect counts tokens
itself and reaches for a tokenizer it would download; `forbid_tokenizer()` (the
`no_tokenizer` fixture in `conftest.py`) turns any such attempt into a test failure, so
the tests stay offline.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterator
from contextlib import contextmanager

import pytest
from inspect_ai.log import EvalLog, EvalSample
from inspect_ai.model import (
    ChatCompletionChoice,
    ChatMessageAssistant,
    ChatMessageTool,
    ChatMessageUser,
    ModelOutput,
    ModelUsage,
)
from inspect_ai.tool import ToolCall

MOCK_MODEL = "mockllm/model"
TOKEN_COUNTER = "inspect_ai.model._model.count_text_tokens"

# One counter for every scripted tool call of the session: ids never repeat, whichever
# module or sample the call belongs to.
_tool_call_ids = itertools.count()


# ------------------------------------------------------------------------ offline


def _refuse_to_count(text: str) -> int:
    raise AssertionError("Inspect tried to count tokens with a tokenizer")


@contextmanager
def forbid_tokenizer() -> Iterator[None]:
    """While open, Inspect's fallback token counter fails the test instead of loading
    a tokenizer (for module-scoped fixtures, which cannot use the function fixture)."""
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(TOKEN_COUNTER, _refuse_to_count)
        yield


# ------------------------------------------------------------------------ outputs


def mock_usage() -> ModelUsage:
    """The token usage every scripted output carries (1 in, 1 out)."""
    return ModelUsage(input_tokens=1, output_tokens=1, total_tokens=2)


def text_output(content: str, *, model: str = MOCK_MODEL) -> ModelOutput:
    """A plain text reply."""
    output = ModelOutput.from_content(model, content)
    output.usage = mock_usage()
    return output


def tool_output(*specs: tuple, content: str = "", model: str = MOCK_MODEL,
                id_prefix: str = "call-") -> ModelOutput:
    """A reply of tool calls, one per `(function, arguments)` or
    `(function, arguments, parse_error)`, each with a fresh id; no specs gives an
    assistant message with no tool calls (just `content`)."""
    tool_calls = [
        ToolCall(id=f"{id_prefix}{next(_tool_call_ids)}", function=spec[0],
                 arguments=spec[1], parse_error=spec[2] if len(spec) > 2 else None)
        for spec in specs
    ]
    message = ChatMessageAssistant(content=content, tool_calls=tool_calls or None,
                                   model=model, source="generate")
    return ModelOutput(
        model=model,
        choices=[ChatCompletionChoice(message=message, stop_reason="tool_calls")],
        usage=mock_usage(),
    )


def no_choices_output(*, model: str = MOCK_MODEL) -> ModelOutput:
    """A reply with no choices at all (some providers return one)."""
    return ModelOutput(model=model, choices=[], usage=mock_usage())


# ------------------------------------------------------------------------- checks


def assert_eval_success(log: EvalLog) -> None:
    """The eval finished with status success, has samples, and no sample errored."""
    assert log.status == "success", log.error
    assert log.samples, "the eval log has no samples"
    for sample in log.samples:
        assert sample.error is None, sample.error


def loop_messages(sample: EvalSample) -> list[str]:
    """Texts of the tool and user messages the loop added after the problem statement."""
    first_user = next(i for i, m in enumerate(sample.messages) if isinstance(m, ChatMessageUser))
    return [
        m.text
        for m in sample.messages[first_user + 1 :]
        if isinstance(m, ChatMessageTool | ChatMessageUser)
    ]


def assert_row_refused(path, prefix: str, detail: str | None, task) -> None:
    """A malformed row of the released file `path` is refused on load in one line that
    starts with `prefix` (file, row, field) and holds `detail`, and the task given it as
    `source` stops with that same line (a `DataFileError`) before any sample runs."""
    import re

    import pytest

    from infoseek.builders.published import PublishedDataError, load_published
    from infoseek.inspect_tasks.task_errors import DataFileError

    with pytest.raises(PublishedDataError) as caught:
        load_published(path)
    message = str(caught.value)
    assert "\n" not in message
    assert message.startswith(prefix), message
    if detail:
        assert detail in message
    with pytest.raises(DataFileError, match=re.escape(message)):
        task(source=path)
