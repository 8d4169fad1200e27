"""Reasoning-trace diagnostics of a seek episode (protocols §4), where the model exposes
reasoning: its native reasoning blocks (`ContentReasoning`) and the free text of its
turns around its action (`infoseek.turn_text.split_turn`: a ``Question:`` line, or an
answer line with every line after it, which the reader read as the answer, is action,
never reasoning; a plan's further steps after ``Answer: (unstack a b)`` are the answer).

Per episode (score metadata ``diagnostics`` of the ``queries`` scorer; never a score
value, so no metric of any model changes):

- ``reasoning_turns``: model turns with any reasoning text;
- ``mentioned``: queryable variables the reasoning talks about asking for (named in a
  sentence with an asking cue: ask, query, question, need to know, find out, ...);
- ``mss_mention_rate``: the share of those that are MSS variables (0 when none);
- ``awareness_statements``: sentences that state a generic need for more information
  ("not enough information", "cannot determine yet", ...) and name no variable;
  ``awareness_episode`` is 1.0 when there is at least one.

The text is read from the sample's model events (the history keeps no reasoning unless
``carry_reasoning``), so re-scoring a log later (`inspect score`) finds no turns to read.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from typing import Any

from infoseek.turn_text import split_turn

ASKING = re.compile(r"\b(ask|asking|asked|query|querying|question|request|inquire|"
                    r"need to know|find out|check whether|check if|learn)\b", re.IGNORECASE)
AWARENESS = re.compile(
    r"\b((need|needs|require|requires|missing|lack|lacking|insufficient|more)"
    r" (information|info|details|data|facts)|"
    r"(not|no|n't)( have| got)? enough (information|info|details|data|facts)|"
    r"cannot (yet )?(determine|tell|decide|know)|"
    r"can't (yet )?(determine|tell|decide|know)|not (yet )?(possible|able) to (determine|tell)|"
    r"under-?specified|undetermined|not (yet )?determined)\b", re.IGNORECASE)
SENTENCE = re.compile(r"(?<=[.!?])\s+|\n+")


def _pattern(name: str) -> re.Pattern[str]:
    words = r"[\s_]+".join(re.escape(part) for part in re.split(r"[\s_]+", name.strip()))
    flags = 0 if len(name) <= 2 else re.IGNORECASE
    return re.compile(rf"(?<![\w]){words}(?![\w])", flags)


def trace_diagnostics(texts: Sequence[str], queryable: Iterable[str],
                      mss_variables: Iterable[str]) -> dict[str, Any]:
    """The diagnostics of one episode from its turns' reasoning texts (module docstring)."""
    reasoning = [text for text in texts if (text or "").strip()]
    # an empty text names nothing and states nothing: the name patterns are only built
    # when there is text to read (most tool-format turns have none)
    patterns = ({name: _pattern(name) for name in queryable if str(name).strip()}
                if reasoning else {})
    mss = set(mss_variables)
    mentioned: list[str] = []
    awareness = 0
    for text in reasoning:
        for sentence in SENTENCE.split(text):
            found = {name: m.start() for name, pattern in patterns.items()
                     if (m := pattern.search(sentence))}
            named = sorted(found, key=found.get)  # in the order the text names them
            if named and ASKING.search(sentence):
                mentioned.extend(n for n in named if n not in mentioned)
            if not named and AWARENESS.search(sentence):
                awareness += 1
    hits = sum(1 for name in mentioned if name in mss)
    return {
        "reasoning_turns": len(reasoning),
        "mentioned": mentioned,
        "mss_mention_rate": hits / len(mentioned) if mentioned else 0.0,
        "awareness_statements": awareness,
        "awareness_episode": 1.0 if awareness else 0.0,
    }


def reasoning_of_output(message: Any) -> str:
    """The reasoning text of one assistant message: its reasoning blocks (not redacted)
    and the text of its turn that is not its action (`infoseek.turn_text.split_turn`)."""
    parts: list[str] = []
    content = getattr(message, "content", None)
    if isinstance(content, list):
        for item in content:
            if getattr(item, "type", None) == "reasoning" and not getattr(item, "redacted",
                                                                          False):
                parts.append(str(getattr(item, "reasoning", "") or ""))
    text = getattr(message, "text", "") or ""
    parts.append(split_turn(text).reasoning)
    return "\n".join(p for p in parts if p.strip())


def episode_reasoning(events: Iterable[Any]) -> list[str]:
    """One reasoning text per call of the evaluated model (model events without a
    role; a model role such as the matcher is not the model under test)."""
    texts = []
    for event in events:
        if getattr(event, "event", None) != "model" or getattr(event, "role", None):
            continue
        output = getattr(event, "output", None)
        choices = getattr(output, "choices", None) or []
        texts.append(reasoning_of_output(choices[0].message) if choices else "")
    return texts
