"""Data-file errors shown to `inspect eval` users as a plain message.

A malformed source file (`-T source=...`) raises an error naming the file, the row and the
field. Raised as is from a task function, Inspect prints it under a full traceback;
re-raised as an Inspect `PrerequisiteError` its message is printed alone. The new error
is also a `ValueError`, so code calling the task functions directly catches it as before.

Inspect prints a `PrerequisiteError`'s ``message`` as rich console markup, where
``[region, region]`` is a style tag and vanishes; ``message`` is therefore the text with
its markup escaped (`rich.markup.escape`), so it prints as written, while ``str()`` and
``args`` keep the plain text.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

from rich.markup import escape

from infoseek.builders.published.reading import PublishedDataError
from infoseek.inspect_tasks.inspect_private import PrerequisiteError
from infoseek.records import RecordError


class PlainTaskError(PrerequisiteError, ValueError):
    """An error `inspect eval` prints as its message alone, brackets and all; `str()` is
    the message."""

    def __init__(self, message: str) -> None:
        super().__init__(escape(message))
        self.args = (message,)

    def __str__(self) -> str:
        return str(self.args[0])


class DataFileError(PlainTaskError):
    """A task's data file could not be used."""


@contextmanager
def readable_data_errors() -> Iterator[None]:
    try:
        yield
    except (PublishedDataError, RecordError) as exc:
        raise DataFileError(str(exc)) from None
