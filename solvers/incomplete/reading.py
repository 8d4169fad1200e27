"""Reading a model's reply in the incomplete-questions protocol (protocols §3.7, read by
the rules of protocols §3.8): what the reply does (answers, asks, neither) and what in it
is set aside. Pure functions; no Inspect imports. The answer boxes themselves are read by
`infoseek.solvers.incomplete.boxes`.

Reply format (text): optional `<think>...</think>`, then either `<question>...</question>`
(questionable variant only) or `<answer>... \\boxed{value} ...</answer>`. An answer wins
over a question in the same reply.

Behaviour class of one reply (first match wins), after dropping `<think>` blocks and
setting aside what is not an action (below):

1. `boxed_answer`: a non-empty `\\boxed{...}` outside any `<question>` tag (a missing
   `<answer>` tag is forgiven, as the published study did);
2. `unboxed_answer`: a closed `<answer>...</answer>` tag without a box;
3. `asked_question`: a closed `<question>...</question>` tag, or a call of the
   `ask_question` tool;
4. `no_answer_tag`: none of these.

Set aside, never an action (each reason recorded once in `ParsedReply.set_aside`, in
order of first occurrence):

- `unclosed_tag`: a `<question>` or `<answer>` opener without its closer (`...inside
  <question>...</question. The answer is...`). Text after an unclosed `<question>`
  (up to the next tag opener) is still inside that question: a box there is no answer;
- `echoed_tag`: a tag or a box whose content is a placeholder (`...`, `…`, only
  punctuation) or a copy of a tag of our own prompts and corrections (`echoes`: the
  example question, the example answer `Ben has \\boxed{7} apples.`);
- `empty_tag`: a `<question>` or `<answer>` tag with nothing inside;
- a tool question (`ask_question`) that is empty (`empty_tag`), a placeholder or the
  prompt's example question (`echoed_tag`) asks nothing either;
- `box_in_question`: a box inside a `<question>` tag (the reply is a question; the box
  is never an answer).

The reply's boxes must hold one single value, else its `answer_reason` is `ambiguous`
(`infoseek.solvers.incomplete.boxes`).
"""

from __future__ import annotations

import bisect
import re
from dataclasses import dataclass

from infoseek.solvers.incomplete.boxes import box_spans, boxes_reason, squashed, unwrap_box

BEHAVIOURS: tuple[str, ...] = ("boxed_answer", "unboxed_answer", "no_answer_tag",
                               "asked_question")
SET_ASIDE_REASONS: tuple[str, ...] = ("unclosed_tag", "echoed_tag", "empty_tag",
                                      "box_in_question")
"""Why text that looks like an action is not one (module docstring)."""

_THINK = re.compile(r"<think>.*?(?:</think>|$)", re.IGNORECASE | re.DOTALL)
_TAG = re.compile(r"<(/?)(question|answer)\s*>", re.IGNORECASE)
_ASSUME_SUPPOSE = re.compile(r"\b(?:assum|suppos)\w*", re.IGNORECASE)
_LETS_SAY = re.compile(r"\blet(?:'|’)?s\s+say\b|\blet\s+us\s+say\b", re.IGNORECASE)
_PLACEHOLDER = re.compile(r"[^\w]*")


@dataclass(frozen=True)
class ParsedReply:
    """What one model reply does."""

    behaviour: str
    boxed: str | None            # content of the last answer box, if any
    question: str | None         # the question asked (tag or tool), if any
    question_via: str | None     # "tag" | "tool" | None
    extra_questions: int         # further questions in the same reply (not answered)
    says_assume_or_suppose: bool
    says_lets_say: bool
    boxes: tuple[str, ...] = ()  # every answer box's content, in order
    answer_reason: str | None = None  # "ambiguous" when the boxes hold no single value
    set_aside: tuple[str, ...] = ()  # SET_ASIDE_REASONS, each once, in order


def answer_kind_of(answer: object) -> str:
    """`choice` for a one-letter answer, else `number`."""
    if isinstance(answer, str) and len(answer.strip()) == 1 and answer.strip().isalpha():
        return "choice"
    return "number"


def strip_think(text: str) -> str:
    return _THINK.sub(" ", text or "")


def tag_contents(*texts: str) -> frozenset[str]:
    """The contents of the `<question>` / `<answer>` tags of our own prompt texts, as
    `echoes` for `parse_reply` (lower-cased, whitespace collapsed). Boxes are not
    collected: the example's `\\boxed{7}` alone is a plain answer of 7."""
    found: set[str] = set()
    for text in texts:
        found.update(squashed(tag.content) for tag in _tags(text) if tag.closed)
    return frozenset(c for c in found if c)


@dataclass(frozen=True)
class _Tag:
    name: str       # "question" | "answer"
    start: int      # the opener
    end: int        # after the closer, or where an unclosed tag's reach ends
    content: str
    closed: bool


def _tags(text: str) -> list[_Tag]:
    """The `<question>` and `<answer>` tags of `text`, in order. A closer pairs with the
    latest opener of its name; an opener left without one is unclosed, and reaches to
    the next opener of any tag (or the end). Linear in the text."""
    marks = list(_TAG.finditer(text))
    tags: list[_Tag] = []
    pending: dict[str, re.Match[str]] = {}
    for mark in marks:
        name = mark.group(2).lower()
        if not mark.group(1):
            if name in pending:
                tags.append(_unclosed(pending.pop(name), mark.start(), text))
            for other in list(pending):
                tags.append(_unclosed(pending.pop(other), mark.start(), text))
            pending[name] = mark
        elif name in pending:
            opener = pending.pop(name)
            tags.append(_Tag(name, opener.start(), mark.end(),
                             text[opener.end() : mark.start()], True))
    for opener in pending.values():
        tags.append(_unclosed(opener, len(text), text))
    tags.sort(key=lambda t: t.start)
    return tags


def _unclosed(opener: re.Match[str], reach: int, text: str) -> _Tag:
    return _Tag(opener.group(2).lower(), opener.start(), reach, text[opener.end() : reach],
                False)


def _is_placeholder(content: str) -> bool:
    return _PLACEHOLDER.fullmatch(content) is not None


def question_tags(text: str | None, echoes: frozenset[str] = frozenset()) -> list[str]:
    """The contents of the closed, non-empty `<question>` tags outside `<think>` blocks
    that are not echoes of our prompts, in order."""
    return [t.content.strip() for t in _tags(strip_think(text or ""))
            if t.name == "question" and _tag_reason(t, echoes) is None]


def _tag_reason(tag: _Tag, echoes: frozenset[str]) -> str | None:
    if not tag.closed:
        return "unclosed_tag"
    return _content_reason(tag.content, echoes)


def _content_reason(content: str, echoes: frozenset[str]) -> str | None:
    """`empty_tag` or `echoed_tag` for a tag's content (or a tool question) that is
    nothing, a placeholder or a copy of our prompts; None for a real one."""
    if not content.strip():
        return "empty_tag"
    if _is_placeholder(content) or squashed(content) in echoes:
        return "echoed_tag"
    return None


def says_assume_or_suppose(text: str | None) -> bool:
    """The token test of the published study: "assume" or "suppose" in any form."""
    return bool(_ASSUME_SUPPOSE.search(text or ""))


def says_lets_say(text: str | None) -> bool:
    return bool(_LETS_SAY.search(text or ""))


def parse_reply(text: str | None, tool_questions: list[str] | None = None, *,
                answer_kind: str = "number",
                echoes: frozenset[str] = frozenset()) -> ParsedReply:
    """Classify one reply (module docstring). `tool_questions`: the `question` arguments
    of its `ask_question` tool calls, in order (a tool call takes precedence over a
    `<question>` tag); `answer_kind`: how the record's answer is written (`number` or
    `choice`); `echoes`: the tag contents of our own prompts (`tag_contents`)."""
    text = text or ""
    visible = strip_think(text)
    tags = _tags(visible)
    set_aside: list[str] = []
    questions: list[str] = []
    answer_tag = False
    question_spans: list[tuple[int, int]] = []
    echo_spans: list[tuple[int, int]] = []
    for tag in tags:
        reason = _tag_reason(tag, echoes)
        if tag.name == "question":
            question_spans.append((tag.start, tag.end))
        if reason is not None:
            set_aside.append(reason)
            if reason == "echoed_tag":
                echo_spans.append((tag.start, tag.end))
        elif tag.name == "question":
            questions.append(tag.content.strip())
        else:
            answer_tag = True

    def inside(position: int, spans: list[tuple[int, int]]) -> bool:
        # tags never overlap, so the spans are sorted by start and by end
        index = bisect.bisect_right(spans, (position, len(visible) + 1)) - 1
        return index >= 0 and spans[index][0] <= position < spans[index][1]

    boxes: list[str] = []
    last_end = 0
    for start, end, content in box_spans(visible):
        if not content.strip():
            continue
        if inside(start, echo_spans):
            continue
        if _is_placeholder(content):
            set_aside.append("echoed_tag")
            continue
        if inside(start, question_spans):
            set_aside.append("box_in_question")
            continue
        boxes.append(unwrap_box(content))
        last_end = end + 1
    asked: list[tuple[str, str]] = []
    for tool_question in tool_questions or []:
        reason = _content_reason(tool_question, echoes)
        if reason is None:
            asked.append((tool_question, "tool"))
        else:
            set_aside.append(reason)
    asked += [(q, "tag") for q in questions]
    if boxes:
        behaviour = "boxed_answer"
    elif answer_tag:
        behaviour = "unboxed_answer"
    elif asked:
        behaviour = "asked_question"
    else:
        behaviour = "no_answer_tag"
    question, via = asked[0] if asked and behaviour == "asked_question" else (None, None)
    answer_reason = boxes_reason(boxes, answer_kind, _after_box(visible, last_end, tags))
    return ParsedReply(
        behaviour=behaviour,
        boxed=boxes[-1] if boxes else None,
        question=question,
        question_via=via,
        extra_questions=max(0, len(asked) - 1) if behaviour == "asked_question" else 0,
        says_assume_or_suppose=says_assume_or_suppose(text),
        says_lets_say=says_lets_say(text),
        boxes=tuple(boxes),
        answer_reason=answer_reason,
        set_aside=tuple(dict.fromkeys(set_aside)),
    )


def _after_box(visible: str, last_end: int, tags: list[_Tag]) -> str:
    """The text after the last answer box, to the end of the reply, with the closing
    ``</answer>`` tag set aside: a second value offered after the tag (``<answer>\\boxed{19}
    </answer> Or 20``) is still the model's answer text. Question tags after the box are
    dropped (a question is not an answer value)."""
    if not last_end:
        return ""
    after = visible[last_end:]
    for tag in sorted(tags, key=lambda t: t.start, reverse=True):
        if tag.name == "question" and tag.start >= last_end:
            after = after[: tag.start - last_end] + " " + after[tag.end - last_end:]
    return re.sub(r"</\s*answer\s*>", " ", after, flags=re.IGNORECASE)
