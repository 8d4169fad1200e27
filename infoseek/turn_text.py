"""Which lines of a model's seek turn are its action and which are its reasoning
(protocols §3.8), one rule for the seek loop's reader, the history it keeps and the
reasoning-trace diagnostics.

An **action line** is a ``Question:`` line (after markdown emphasis, a quote mark, a
bullet or a list number; ``Question 2:`` too) or an answer line (the one answer-line rule
of `infoseek.answers.answer_lines`: ``Answer:``, ``The answer is:`` ...). An answer is its
line **and every line after it** up to the next action line (blank lines included): the
reader reads all of them as the answer (a plan's further steps, a justification, a
correction), so the history keeps all of them and none of them is reasoning. The rest of
the text (before the first action, and after a question line up to the next action) is
reasoning.

Pure: no Inspect imports; nothing here raises on model text.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from infoseek.answers.answer_lines import answer_marker_end

_LINE_LEAD = " \t>#*_+-`"
_MARKUP = " \t*_`"
_NUMBERING = re.compile(r"\d{1,4}[.)]")
_KEYWORD = re.compile(r"(?:final\s+)?(question|answer)(?:\s*\d{1,4})?", re.IGNORECASE)


def action_line(line: str) -> tuple[str, str] | None:
    """``(keyword, content)`` for a ``Question:`` line or an answer line (``"question"`` or
    ``"answer"``, and the text after the marker), else ``None``."""
    end = answer_marker_end(line)
    if end is not None:
        return "answer", line[end:]
    rest = line.lstrip(_LINE_LEAD)
    numbering = _NUMBERING.match(rest)
    if numbering:
        rest = rest[numbering.end() :].lstrip(_LINE_LEAD)
    keyword = _KEYWORD.match(rest)
    if keyword is None or keyword.group(1).lower() != "question":
        return None
    rest = rest[keyword.end() :].lstrip(_MARKUP)
    if not rest.startswith(":"):
        return None
    return "question", rest[1:]


@dataclass(frozen=True)
class TurnText:
    """A turn's text split in two: its action lines (each answer with every line after
    it) and its reasoning, each in the order written (blank lines at the ends dropped)."""

    action: str
    reasoning: str


def split_turn(text: object) -> TurnText:
    """The action and the reasoning of a turn's text (module docstring)."""
    if not isinstance(text, str):
        return TurnText("", "")
    action: list[str] = []
    reasoning: list[str] = []
    in_answer = False
    for line in text.splitlines():
        found = action_line(line)
        if found is not None:
            in_answer = found[0] == "answer"
            action.append(line)
        elif in_answer:
            action.append(line)
        else:
            reasoning.append(line)
    return TurnText("\n".join(action).strip("\n"), "\n".join(reasoning).strip("\n"))
