"""The matcher: an LLM-backed oracle (the Inspect model role ``matcher``) that maps a
free-text question to one listed variable, or says it is not sure (protocols §2, 5.5).

This module holds the pure parts: the prompt, and the strict reading of the matcher's
reply. The matcher sees the question and the names it may choose from, never a value, so
it cannot leak one; its reply counts only when it is exactly one of those names (case,
spacing, quotes and a final full stop aside). Anything else (``not sure``, a name not on
the list, two names, a sentence) means no match: the question is then refused with
reason ``not_sure`` and nothing is revealed. `infoseek.solvers.seek.matcher` calls the role.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

MATCHER_ROLE = "matcher"
NOT_SURE = "not sure"

MATCHER_SYSTEM = (
    "You match a question to a list of {noun}s. If the question asks for the value of "
    "exactly one {noun} on the list, reply with that {noun}'s name copied exactly from the "
    "list and nothing else. If it asks for none of them, for several, or you cannot tell, "
    "reply exactly: not sure"
)


def matcher_messages(question: str, names: Sequence[str], noun: str) -> tuple[str, str]:
    """(system text, user text) for one matching request."""
    listed = "\n".join(f"- {name}" for name in names)
    return (MATCHER_SYSTEM.format(noun=noun),
            f"Question: {question.strip()}\n\nThe {noun}s:\n{listed}")


def _normal(text: str) -> str:
    return re.sub(r"\s+", " ", text).strip(" .`*\"'").casefold()


def read_matcher_reply(reply: str, names: Sequence[str]) -> str | None:
    """The listed name the reply gives (the list's own spelling), or None (no match)."""
    wanted = _normal(reply or "")
    found = [name for name in names if _normal(name) == wanted]
    return found[0] if len(found) == 1 else None
