"""The one rule for what counts as an answer line, and how far an answer is read
(protocols §3.8), shared by every protocol's reader: the seek loop's text format, the
single-turn picks and values, the k-prediction and MSS answers, and the text beside a
tool ``answer`` call.

An **answer line** is a line that opens, after markdown emphasis, a quote mark ``>``, a
heading ``#``, a bullet or a list number, with an answer marker followed by a colon:
``Answer:``, ``Final answer:``, ``Answer 2:``, or an answer sentence ending in a colon,
``The answer is:``, ``The final answer is:``, ``My answer is:``, ``The answer to the
question is:``. Text without an answer line holds no answer, in every protocol: a bare
value (a reply that is only ``1``), a sentence without a colon (``The answer is "Not
Sure".``) and a marker in the middle of a line are reasoning.

**The whole reply counts**: an answer's body is everything after its marker, to the end
of the reply (blank lines included; the seek loop stops at the next action line, which
makes the turn ``multiple_actions``). No reader cuts it at a blank line.

Pure: no Inspect imports. Nothing here raises on model text.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass

from infoseek.answers.second_values import PROSE_OPENER

ANSWER_LINE_RULE = (
    'Only a line that starts with "Answer:" counts as your answer: a reply without one '
    "is not an answer, and everything after it is read as part of it.")
"""The sentence every prompt whose reply is read for an answer line ends with (the
single-turn and problem-level prompts; the seek prompts show the answer lines and the
final turn restates them), so the model is told the rule it is read by."""

_MARKUP = r"[ \t*_`]"
ANSWER_MARKER = re.compile(
    rf"^[ \t>#*_`+\-\u2022]*(?:\d{{1,4}}[.)]{_MARKUP}*)?"
    rf"(?:(?:the|my){_MARKUP}+)?(?:final{_MARKUP}+)?answer(?:{_MARKUP}*\d{{1,4}})?"
    rf"(?:{_MARKUP}+to{_MARKUP}+the{_MARKUP}+question)?(?:{_MARKUP}+is)?{_MARKUP}*[:：][*_`]*",
    re.IGNORECASE,
)
"""An answer marker opening a line (the module docstring); searched line by line, so a
scan of the whole reply stays linear."""
INLINE_MARKER = re.compile(r"(?<![\w-])(?:final\s+)?answer[\s*_`]*[:：]", re.IGNORECASE)
"""An ``Answer:`` marker anywhere in a text (a second answer inside an answer body)."""
_REPEATED_MARKER = re.compile(r"[\s*_`]*(?:final\s+)?answer[\s*_`]*[:：]", re.IGNORECASE)


def answer_marker_end(line: str) -> int | None:
    """Where the answer marker a line opens with ends (the body starts), or None when the
    line is no answer line. ``Final answer: Answer: 2`` is one marker."""
    if not isinstance(line, str):
        return None
    marker = ANSWER_MARKER.match(line)
    if marker is None:
        return None
    end = marker.end()
    while (again := _REPEATED_MARKER.match(line, end)) is not None:
        end = again.end()
    return end


@dataclass(frozen=True)
class AnswerLine:
    """One answer line of a reply: its line number, and where its body starts in the
    reply's text."""

    line: int
    start: int

    def body(self, text: str) -> str:
        """Everything after the marker, to the end of the reply (the whole reply counts)."""
        return text[self.start:]

    def line_body(self, text: str) -> str:
        """The rest of the marker's own line."""
        end = text.find("\n", self.start)
        return text[self.start:] if end < 0 else text[self.start:end]


def answer_lines(text: object) -> list[AnswerLine]:
    """The answer lines of a reply, in order (none for non-text)."""
    if not isinstance(text, str):
        return []
    found: list[AnswerLine] = []
    offset = 0
    for number, line in enumerate(text.splitlines(keepends=True)):
        end = answer_marker_end(line)
        if end is not None:
            found.append(AnswerLine(number, offset + end))
        offset += len(line)
    return found


def has_inline_marker(body: str) -> bool:
    """Whether an answer body holds another ``Answer:`` marker (a second answer)."""
    return isinstance(body, str) and INLINE_MARKER.search(body) is not None


def split_prose(paragraph: str, known: Callable[[str], bool] = lambda line: False,
                ) -> tuple[str, str]:
    """``(value, prose)``: a multi-line value's lines up to the first later line that
    opens as prose (`infoseek.answers.second_values.PROSE_OPENER`) and is no `known`
    line of the value (a known step or component), and that line with every line after
    it. The prose is a justification, read by the same rules as the paragraphs after a
    blank line, so a value put forward on the next line (``G1=0, G2=1`` then ``Actually
    G1 = 1``) is ``ambiguous`` as it is on the same line or after a blank line, and a
    justification there (``Because G2 is on.``) is allowed (issue 30)."""
    lines = paragraph.splitlines()
    for number, line in enumerate(lines[1:], 1):
        if PROSE_OPENER.match(line) and not known(line):
            return "\n".join(lines[:number]), "\n".join(lines[number:]).strip()
    return paragraph, ""


def first_paragraph(body: str) -> tuple[str, str]:
    """``(first, later)``: a body's first paragraph (its lines up to a blank line, blank
    lines before it skipped) and everything after it. A kind written over several lines
    (a vector, a sequence) reads its value from the first paragraph and the later ones
    as its justification, by the rules of any justification (protocols §3.8): a
    correction, second value, retraction, confidence or "not sure" there is read."""
    lines = body.splitlines()
    start = 0
    while start < len(lines) and not lines[start].strip():
        start += 1
    end = start
    while end < len(lines) and lines[end].strip():
        end += 1
    return "\n".join(lines[start:end]), "\n".join(lines[end:]).strip()
