"""Turning one model turn into an action: ask some variables, or answer.

Two reply formats are supported, both pure functions of the reply and the episode's
`ParseContext` (`infoseek.solvers.seek.parse_context`: the problem's vocabulary, limits and
answer kind; no Inspect imports, so the reference models and the tests use exactly the
same code as the seek loop):

* plain text, the published format: ``Question: Is Alice kind?`` lines (one query
  per line) or a single answer line (``Answer: ...``; the one answer-line rule of
  `infoseek.answers.answer_lines`), read with every line after it; any other text
  before it is reasoning and is ignored;
* tool calls: ``ask(variable=...)`` and ``answer(value=...)``
  (:func:`infoseek.solvers.seek.tool_parsing.parse_tool_calls`, on the same vocabulary rules).

Quantity problems (math) have ``descriptions`` ({name: text}) in their context: a
question may then also read ``Question: What is <name>?`` (or ``how much`` / ``how
many``, ``the value of``), and the subject may be a variable's description instead of
its name. Answers are read by the context's answer kind from the registry
`infoseek.answers` (protocols §3.8): its ``answer`` `AnswerSpec` (a choice's options, a
vector's names, a sequence's items), made from ``answer_kind`` (``"boolean"``, the
default, ``"number"``, ...) when not given. One candidate value, a trailing justification
allowed; hedges, ranges, two values and unevaluated expressions are ``ambiguous``, huge
numbers ``out_of_range``. Quantities in ``not_leaf`` are refused with ``not_leaf``
(derived quantities when only leaves may be asked).

A question names its variable whatever the phrasing (``Is Alice a kind person?``); which
variable, and whether it may be asked, is `infoseek.solvers.seek.naming`'s part.

The context's ``templates`` (the template lines the prompt showed): a reply line that copies one
(whitespace collapsed, emphasis dropped, case folded) makes the turn invalid with
``template``. Everything that is rejected carries a reason from :data:`INVALID_REASONS`,
so scorers can count invalid queries by kind; no text makes a parser raise.
"""

from __future__ import annotations

from collections.abc import Collection

from infoseek import contract
from infoseek.answers import answer_kind as registered_kind
from infoseek.contract import ACTION_ANSWER, ACTION_ASK, ACTION_INVALID, ParsedQuery, ParsedTurn
from infoseek.solvers.seek.answer_parsing import (
    AnswerReading,
    copied_template_line,
    parse_boolean_answer,
    parse_number_answer,
    read_boolean_answer,
    read_number_answer,
    read_undetermined,
)
from infoseek.solvers.seek.naming import (
    Vocabulary,
    blocked_queries,
    judge_queries,
    resolve_name,
    vocabulary,
)
from infoseek.solvers.seek.parse_context import ParseContext
from infoseek.turn_text import action_line as _action_line

__all__ = [
    "AnswerReading",
    "INVALID_REASONS",
    "QUANTITY_REASONS",
    "ParseContext",
    "ParsedQuery",
    "ParsedTurn",
    "parse_boolean_answer",
    "parse_number_answer",
    "parse_text_turn",
    "read_boolean_answer",
    "read_number_answer",
]

INVALID_REASONS: tuple[str, ...] = contract.INVALID_REASONS
"""Every reason a rejected query or turn carries (`infoseek.contract`)."""

QUANTITY_REASONS: tuple[str, ...] = ("not_leaf",)
"""Reasons only problems with a ``not_leaf`` list produce (a derived quantity asked where
only leaves may be asked); scorers count them like the others."""


def invalid_turn(
    reason: str,
    queries: tuple[ParsedQuery, ...] = (),
    answer_raw: str | None = None,
) -> ParsedTurn:
    return ParsedTurn(ACTION_INVALID, queries, None, answer_raw, reason)


# ----------------------------------------------------------------------- plain text

_MARKUP = " \t*_`"


def _raw_fragment(content: str) -> str:
    return content.strip(_MARKUP)


def parse_text_turn(text: str, context: ParseContext, asked: Collection[str] = ()) -> ParsedTurn:
    """Parse a plain-text turn (``Question: ...`` lines or one ``Answer: ...``) against
    the episode's `context`, ``asked`` being the variables asked in earlier turns.

    Keywords are case-insensitive and may carry markdown emphasis, list bullets or
    numbering (``1.``, ``1)``); an answer line is any line the one answer-line rule
    accepts (`infoseek.answers.answer_lines`: ``Answer:``, ``The answer is:`` ...). An
    answer line with nothing after it takes the next non-empty line (and is
    ``malformed`` when there is none); the answer also takes every line after it, blank
    lines included, up to the next action line (protocols §3.8: the whole reply counts):
    a kind read over several lines (`AnswerKind.multiline`: vector, sequence, plan)
    reads them as its value and justification, the others as part of the justification
    (a second value, a retraction or a hedge there is ``ambiguous``). A line that
    copies one of the context's ``templates`` makes the turn invalid with ``template``.
    The answer is read by the context's answer kind.
    """
    if not isinstance(text, str) or not text.strip():
        return invalid_turn("empty")
    if len(text) > context.max_chars:
        return invalid_turn("too_long")
    lines = text.splitlines()
    copied = copied_template_line(lines, context.templates)
    if copied is not None:
        return invalid_turn("template", answer_raw=copied)
    vocab = vocabulary(context, asked)

    questions: list[str] = []
    answers: list[str] = []
    for index, line in enumerate(lines):
        action = _action_line(line)
        if action is None:
            continue
        keyword, content = action
        if keyword == "question":
            questions.append(_raw_fragment(content))
            continue
        content = _raw_fragment(content)
        # the lines after it are part of the answer (protocols §3.8: a second value there makes
        # it ambiguous); a kind read over several lines reads them as its value
        following = _continuation(lines[index + 1 :], started=bool(content.strip()))
        if following and not content.strip():
            following[0] = _raw_fragment(following[0])
        content = "\n".join([content, *following]).strip()
        answers.append(content)

    if not questions and not answers:
        return invalid_turn("no_action")

    attempts = [(raw, *resolve_name(raw, vocab)) for raw in questions]
    if answers and (questions or len(answers) > 1):
        return invalid_turn(
            "multiple_actions", blocked_queries(attempts, vocab), "\n".join(answers)
        )

    if answers:
        if not answers[0].strip():
            return invalid_turn("malformed", answer_raw=answers[0])
        return _answer_turn(answers[0], vocab)
    return ParsedTurn(ACTION_ASK, judge_queries(attempts, vocab), None, None, None)


def _continuation(lines: list[str], *, started: bool) -> list[str]:
    """The lines that continue an answer: every line after it up to the next action line
    (which makes the turn ``multiple_actions``), blank lines included, so a correction
    after a blank line is read as on the next line (protocols §3.8: the whole reply
    counts; a kind read over several lines sees where its paragraphs end: one blank line
    is kept between paragraphs once the answer has ``started``, i.e. once its value
    began, on the answer line or after it)."""
    kept: list[str] = []
    for line in lines:
        if _action_line(line) is not None:
            break
        if line.strip() or (started and (not kept or kept[-1])):
            kept.append(line.strip())
        started = started or bool(line.strip())
    while kept and not kept[-1]:
        kept.pop()
    return kept


def reading_turn(reading: AnswerReading, raw: str) -> ParsedTurn:
    """The turn an answer reading amounts to: an answer, or invalid with its reason."""
    if reading.reason is not None:
        return invalid_turn(reading.reason, answer_raw=raw)
    return ParsedTurn(ACTION_ANSWER, (), reading.value, raw, None)


def _answer_turn(raw: str, vocab: Vocabulary) -> ParsedTurn:
    """The turn an answer text amounts to, read by the vocabulary's answer kind (or as
    "cannot be determined", `read_undetermined`, where the task offers that answer)."""
    kind = registered_kind(vocab.answer)
    reading = read_undetermined(raw, kind, vocab.answer) if vocab.undetermined else None
    return reading_turn(reading or kind.read_text(raw, vocab.answer), raw)
