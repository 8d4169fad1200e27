"""Text helpers the whole core shares: values cut short for error messages, and whether
the texts inside a JSON-like value can be encoded as UTF-8 (a lone surrogate cannot be
sent to a model nor written to a log).

The lowest rung of the core: it imports nothing from `infoseek`, so engines, records and
the outer layers can all use it.
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from typing import Any


def short_repr(value: Any, limit: int = 60) -> str:
    """``repr(value)``, cut to ``limit`` characters for error messages."""
    text = repr(value)
    return text if len(text) <= limit else text[: limit - 3] + "..."


def all_text_encodes(value: Any) -> bool:
    """True when every text in the JSON-like `value` (keys included) encodes as UTF-8,
    decided in one go by writing it as JSON text (C code, strings as they are); False
    when one does not, or when it cannot be written as JSON: the caller then walks it
    (`first_unencodable`, `infoseek.solvers.text_format.storable`)."""
    try:
        json.dumps(value, ensure_ascii=False, default=str).encode("utf-8")
    except (UnicodeEncodeError, TypeError, ValueError, RecursionError):
        return False
    return True


def first_unencodable(value: Any, depth: int = 0) -> str | None:
    """The first text inside `value` that UTF-8 cannot encode, or None."""
    if isinstance(value, str):
        try:
            value.encode("utf-8")
        except UnicodeEncodeError:
            return value
        return None
    if depth > 100:
        return None
    if isinstance(value, dict):
        items: Iterable[Any] = (x for pair in value.items() for x in pair)
    elif isinstance(value, (list, tuple)):
        items = value
    else:
        return None
    for item in items:
        found = first_unencodable(item, depth + 1)
        if found is not None:
            return found
    return None


def escaped_surrogates(text: str) -> str:
    """`text` with lone surrogates written as ``\\udXXX`` escapes (printable)."""
    return text.encode("utf-8", "backslashreplace").decode("utf-8")


def storable_text(text: str) -> str:
    """``text`` with every character UTF-8 cannot encode replaced by U+FFFD.

    A well-formed surrogate pair (two code points) is joined into the one character it
    stands for; a lone surrogate becomes U+FFFD. Text that encodes already is returned
    unchanged (the same object)."""
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        # utf-16 with surrogatepass joins pairs; the decoder's "replace" turns every
        # unpaired surrogate into U+FFFD
        return text.encode("utf-16", "surrogatepass").decode("utf-16", "replace")
    return text
