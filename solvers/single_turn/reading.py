"""Prompts and output reading of the single-turn protocols (protocols §3.4-3.6, 3.8).

Generic wording: the problem text comes from the domain's renderer and each question
line from the domain's `Wording.question`; nothing here names a domain.

Where the answer begins (`answer_part`): at the reply's one answer line's marker
(``Answer:``, ``The answer is:`` ... opening a line: `infoseek.answers.answer_lines`),
and it runs to the end of the reply. Everything before it is reasoning and may
discuss any candidate (a CoT reply weighing options 3 and 5, then ``Answer: 5``, picks
5). Two markers anywhere in the reply (two ``Answer:`` lines, 100 KB apart or not, or a
second ``answer:`` inside the answer) are ``multiple_actions``: the last line does not
win. An answer longer than `MAX_TURN_CHARS` is ``too_long``.

Reading a pick (`read_choice`) is tolerant of form and strict about content. In the
answer every option number (``3``, ``(3)``, ``[3]``, ``Option 3``, ``3.``), every option's
question text and every listed variable named as a whole word counts as a pick of that
option, outside a justification clause (``because`` / ``since`` / ``as`` ... to the end
of its sentence: ``20, because clear a is already known`` picks 20 only); a number that
labels or counts something else (``rule 3``, ``1 fact``, ``9 (out of 13)``) does
not. Exactly one option picked is valid; two or more, or a number outside the list
beside a pick, are ``ambiguous``. The head of the answer (the pick up to the first
justification marker: a bracket, ``;``, ``:``, a dash, a sentence end, ``because`` ...)
may hold no hedge and no negation (``probably 3``, ``not 3``, ``3 is not it``); the
justification after it may say anything about the facts (``9 (its value is not
given)``, ``9 because its value is unknown``) but may not doubt or take back the pick:
a probability or uncertainty anywhere (``3 with 80% probability``, ``3, I guess``) or a
clause opening with a correction or an alternative (``3. Actually, the last one``,
``3; otherwise ...``, ``3 (or not)``) is ``ambiguous``. A question asked "or not"
(``Is Rosa sarcastic or not?``) is that one question. A number outside the list alone
is ``unknown``; a reply without an answer line is ``no_action`` (the one answer-line
rule, `infoseek.answers.answer_lines`: a bare pick is no answer, as in every
protocol); nothing recognisable is ``malformed``.

A value and "Not sure" (`read_value`) are read by `infoseek.solvers.single_turn.values`,
over the answer part and the clause patterns defined here.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from infoseek.answers.answer_lines import ANSWER_LINE_RULE, answer_lines, has_inline_marker
from infoseek.answers.answer_text import HEDGE, normalise
from infoseek.answers.doubts import CORRECTION_OPENERS, UNCERTAINTY_WORDS
from infoseek.contract import MAX_TURN_CHARS
from infoseek.domains import domain_of
from infoseek.single_turn import NO_QUESTION, NOT_SURE

PROMPT_SETTINGS: tuple[str, ...] = ("zs", "cot", "fs")
"""Zero-shot, zero-shot with step-by-step reasoning, four-shot."""
FEW_SHOT_COUNT = 4

_NUMBER = re.compile(r"(?<![\w./-])(?:option\s*|choice\s*|#)?[\(\[]?\s*(\d{1,6})\s*[\)\]]?"
                     r"(?![\w/%]|\.\d)", re.IGNORECASE)
LABELLED = re.compile(r"\b(?:rules?|facts?|steps?|lines?|premises?|examples?|equations?|"
                       r"conditions?)\s*(?:#|no\.?|number)?\s*$|"
                       r"(?:\bout\s+of|\d\s+of|\bof\s+(?:the\s+)?(?:all\s+)?)\s*$",
                       re.IGNORECASE)
"""Text just before a number that makes it a label of something else (``rule 3``) or a
count of the options (``9 (out of 13)``, ``9 of 13``)."""
COUNTED = re.compile(r"\s*(?:rules?|facts?|steps?|premises?|equations?|conditions?|"
                      r"attributes?|variables?|quantities|quantity|values?|unknowns?)\b",
                      re.IGNORECASE)
"""Text just after a number that makes it a count of something else (``1 fact``)."""
_NO_QUESTION = re.compile(r"\bno\s+questions?\s+(?:is\s+|are\s+)?needed\b", re.IGNORECASE)
_NEGATION = re.compile(r"\b(?:not|never|except|ignore)\b|n't\b", re.IGNORECASE)
_HEAD_END = re.compile(
    r"[(\[;:—–]|\s-\s|[.!?](?=\s|$)|\b(?:because|since|as|given|due|so|thus|hence|"
    r"therefore|which|according|based|from|by|per|via|using|considering|with|where|when|"
    r"after|i\.e|e\.g)\b")
DOUBT = re.compile(rf"\b(?:{UNCERTAINTY_WORDS}|probability|chance|odds|percent)\b|%|"
                    r"\bnot\s+sure\b")
"""Uncertainty or a probability anywhere in an answer: not one value."""
_CORRECTION = re.compile(rf"(?:^|[.;:,!?()\[\]—–]|\bbut\b)\s*(?:{CORRECTION_OPENERS})\b")

_QUESTION_PROMPT = (
    "{problem}\n\n"
    "One fact needed to settle the goal may be missing. Choose the single question whose "
    "answer would settle the goal, or choose \"{none}\" if the facts already settle it.\n\n"
    "Options:\n{options}\n\n{instruction}")
_DETECTION_PROMPT = (
    "{problem}\n\n"
    "If the facts above settle the goal, give its answer. If they do not, because a fact "
    "is missing, answer \"{not_sure}\".\n\n{instruction}")
_WELL_SPECIFIED_PROMPT = "{problem}\n\nGive the answer to the goal.\n\n{instruction}"
_INSTRUCTIONS = {
    ("question_selection", "zs"): "Reply with one line: \"Answer: \" followed by the "
                                  "number of your choice.",
    ("question_selection", "cot"): "Reason step by step, then end with one line: "
                                   "\"Answer: \" followed by the number of your choice.",
    ("detection", "zs"): "Reply with one line: \"Answer: \" followed by the answer or "
                         "\"{not_sure}\".",
    ("detection", "cot"): "Reason step by step, then end with one line: \"Answer: \" "
                          "followed by the answer or \"{not_sure}\".",
    ("well_specified", "zs"): "Reply with one line: \"Answer: \" followed by the answer.",
    ("well_specified", "cot"): "Reason step by step, then end with one line: \"Answer: \" "
                               "followed by the answer.",
}
_FEW_SHOT_HEAD = "Here are {count} solved examples, then the problem to solve.\n\n"


def instruction(protocol: str, setting: str) -> str:
    """The closing instruction of a single-turn prompt: the answer line to write, and the
    answer-line rule it is read by (`ANSWER_LINE_RULE`)."""
    base = _INSTRUCTIONS[(protocol, "cot" if setting == "cot" else "zs")]
    return f"{base.format(not_sure=NOT_SURE)} {ANSWER_LINE_RULE}"


def option_text(record: dict[str, Any], choice: str) -> str:
    """How option `choice` (a variable, or "No questions needed") reads in the list: the
    domain's question line without its leading ``Question:``."""
    if choice == NO_QUESTION:
        return NO_QUESTION
    line = domain_of(record).wording.question(record.get("entity", ""), choice)
    return re.sub(r"^\s*question\s*:\s*", "", line, flags=re.IGNORECASE).strip()


def problem_prompt(protocol: str, setting: str, problem_text: str, record: dict[str, Any],
                   choices: list[str]) -> str:
    """The prompt of one problem (without few-shot examples)."""
    text = instruction(protocol, setting)
    if protocol == "question_selection":
        listed = "\n".join(f"{i}. {option_text(record, c)}"
                           for i, c in enumerate(choices, start=1))
        return _QUESTION_PROMPT.format(problem=problem_text, none=NO_QUESTION,
                                       options=listed, instruction=text)
    if protocol == "detection":
        return _DETECTION_PROMPT.format(problem=problem_text, not_sure=NOT_SURE,
                                        instruction=text)
    return _WELL_SPECIFIED_PROMPT.format(problem=problem_text, instruction=text)


def with_examples(prompt: str, examples: list[tuple[str, str]]) -> str:
    """`prompt` after worked examples, each its own prompt and its ``Answer:`` line."""
    if not examples:
        return prompt
    parts = [_FEW_SHOT_HEAD.format(count=len(examples))]
    for number, (example, answer) in enumerate(examples, start=1):
        parts.append(f"Example {number}:\n\n{example}\n\n{answer}\n\n")
    parts.append(f"Problem to solve:\n\n{prompt}")
    return "".join(parts)


def answer_part(text: Any) -> tuple[str, str | None]:
    """``(body, reason)``: everything after the reply's one answer line's marker (the
    one answer-line rule of `infoseek.answers.answer_lines`: ``Answer:``, ``The answer
    is:`` ... opening a line), or why there is no answer to read. A reply without an
    answer line is ``no_action`` (a bare pick included: the same rule in every
    protocol); two answer lines, or a second marker inside the answer, are
    ``multiple_actions`` wherever they stand in the reply (the whole reply is
    searched); an answer longer than `MAX_TURN_CHARS` is ``too_long``; nothing to read
    is ``empty``."""
    if not isinstance(text, str) or not text.strip():
        return "", "empty"
    marks = answer_lines(text)
    if not marks:
        return "", "no_action"
    if len(marks) > 1:
        return "", "multiple_actions"
    body = marks[0].body(text)
    if has_inline_marker(body):
        return "", "multiple_actions"
    if len(body) > MAX_TURN_CHARS:
        return "", "too_long"
    body = body.strip()
    return (body, None) if body else ("", "empty")


@dataclass(frozen=True)
class Reading:
    """A reply read: ``pick`` (an option index from 0, or a value), or ``reason``."""

    pick: Any = None
    reason: str | None = None

    @property
    def valid(self) -> bool:
        return self.reason is None


def _words(text: str) -> str:
    return " " + re.sub(r"[^a-z0-9_]+", " ", normalise(text)) + " "


def flat_answer(body: str) -> str:
    """`body` normalised, each line break kept as a clause break (``;``)."""
    return normalise(re.sub(r"[ \t]*(?:\r?\n)+[ \t]*", " ; ", body))


def doubts(text: str) -> bool:
    """Whether text after an answer takes it back or offers another: a clause that opens
    with a correction or an alternative (``actually``, ``correction``, ``wait``,
    ``or``, ``otherwise`` ...)."""
    return bool(_CORRECTION.search(text))


# ------------------------------------------------------------------ question selection


def _option_picks(body: str, record: dict[str, Any], choices: list[str]
                  ) -> tuple[set[int], bool]:
    """The options `body` names (numbers, question texts, names, "No questions
    needed"), and whether it holds a number outside the list. A number that labels or
    counts something else (``rule 3``, ``1 fact``) is no pick."""
    body = _without_justifications(body)
    picks: set[int] = set()
    unknown = False
    for match in _NUMBER.finditer(body):
        if LABELLED.search(body[max(0, match.start() - 24):match.start()]) or \
                COUNTED.match(body, match.end()):
            continue
        number = int(match.group(1))
        if 1 <= number <= len(choices):
            picks.add(number - 1)
        else:
            unknown = True
    words = _words(body)
    for index, choice in enumerate(choices):
        phrase = _words(option_text(record, choice)).strip()
        if phrase and f" {phrase} " in words:
            picks.add(index)
        elif choice != NO_QUESTION and f" {_words(choice).strip()} " in words:
            picks.add(index)
    if _NO_QUESTION.search(body):
        picks.add(len(choices) - 1)
    return picks, unknown


_REASON = re.compile(r"\b(?:because|since|as|given\s+that|due\s+to|considering\s+that|"
                     r"considering)\b[^.;!?\n]*", re.IGNORECASE)
"""A justification clause: from ``because`` (``since``, ``as`` ...) to the end of its
sentence, line or ``;`` clause."""


def _without_justifications(body: str) -> str:
    """`body` without its justification clauses (`_REASON`), after its first word: an
    option named after ``because`` is a fact of the justification (``20, because clear
    a is already known``), not a second pick. A correction after the sentence ends
    (``20 because X. Actually 21``) is still read."""
    start = re.search(r"\w", body)
    offset = start.end() if start else 0
    return body[:offset] + _REASON.sub(" ", body[offset:])


def read_choice(text: Any, record: dict[str, Any], choices: list[str]) -> Reading:
    """The option a reply picks (module docstring)."""
    body, reason = answer_part(text)
    if reason is not None:
        return Reading(reason=reason)
    picks, unknown = _option_picks(body, record, choices)
    if len(picks) > 1 or (picks and unknown):
        return Reading(reason="ambiguous")
    if not picks:
        return Reading(reason="unknown" if unknown else "malformed")
    if _doubted_pick(body, record, choices):
        return Reading(reason="ambiguous")
    return Reading(pick=picks.pop())


def _option_phrases(record: dict[str, Any], choices: list[str]) -> list[str]:
    """Every option's question text (without its closing ``?``) and name, normalised,
    longest first."""
    phrases = set()
    for choice in choices:
        phrases.add(normalise(option_text(record, choice)).rstrip("?. "))
        if choice != NO_QUESTION:
            phrases.add(normalise(choice))
    return sorted((p for p in phrases if p), key=len, reverse=True)


def _without_options(text: str, record: dict[str, Any], choices: list[str]) -> str:
    """`text` (flattened) with every option's wording replaced by ``§``; a question
    asked "or not" (``Is Rosa sarcastic or not?``) is still that one question."""
    for phrase in _option_phrases(record, choices):
        text = re.sub(rf"(?<![\w-]){re.escape(phrase)}(?![\w-])(?:\s+or\s+not\b)?\s*\??",
                      " § ", text)
    return _NO_QUESTION.sub(" § ", text)


def _doubted_pick(body: str, record: dict[str, Any], choices: list[str]) -> bool:
    """Whether the one pick of `body` is hedged, negated or taken back. The options'
    own wording is set aside first. The head (the pick up to the first justification
    marker: a bracket, ``;``, ``:``, a dash, a sentence end, ``because`` ...) may hold
    no hedge and no negation (``probably 3``, ``not 3``, ``3 is not it``); the
    justification after it may say anything about the facts (``9 (its value is not
    given)``), but not doubt the pick (`_doubts`)."""
    text = _without_options(flat_answer(body), record, choices)
    head, tail = _split_head(text)
    return bool(HEDGE.search(head) or _NEGATION.search(head) or DOUBT.search(text)
                or doubts(tail))


def _split_head(text: str) -> tuple[str, str]:
    """``(head, tail)`` of a flattened answer at its first justification marker after
    the first word or number (leading brackets belong to the head)."""
    start = re.search(r"[a-z0-9§]", text)
    marker = _HEAD_END.search(text, start.start() if start else 0)
    return (text, "") if marker is None else (text[:marker.start()], text[marker.start():])
