"""Prompts and output reading of the single-turn protocols (SPEC 3.4-3.6, 3.8).

Generic wording: the problem text comes from the domain's renderer and each question
line from the domain's `Wording.question`; nothing here names a domain.

Reading a pick (`read_choice`) is tolerant of form and strict about content. The answer
body is the text after the last ``Answer:`` marker (the whole reply when there is none);
in it every option number (``3``, ``(3)``, ``[3]``, ``Option 3``, ``3.``), every option's
question text and every listed variable named as a whole word counts as a pick of that
option. Exactly one option picked is valid; two or more, or one wrapped in a hedge or a
negation (``probably 3``, ``not 3``), are ``ambiguous``; a number outside the list is
``unknown``; a reply without an ``Answer:`` line must be nothing but a pick (otherwise
``malformed``); nothing recognisable is ``malformed`` (``empty`` for an empty reply). A
value (`read_value`) is read by the domain's answer kind; "Not sure" together with a
value, or offered as one of alternatives (``the answer or "Not sure"``), is
``ambiguous``. No text makes a reader raise.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from infoseek.answers import answer_kind, answer_spec
from infoseek.answers.base import HEDGE, normalise
from infoseek.contract import MAX_TURN_CHARS
from infoseek.domains import UnknownDomain, domain_of
from infoseek.single_turn import NO_QUESTION, NOT_SURE

PROMPT_SETTINGS: tuple[str, ...] = ("zs", "cot", "fs")
"""Zero-shot, zero-shot with step-by-step reasoning, four-shot."""
FEW_SHOT_COUNT = 4

_ANSWER_MARKER = re.compile(r"(?im)^[\s>*#_`]*(?:final\s+)?answer\s*[:：]")
_NUMBER = re.compile(r"(?<![\w./-])(?:option\s*|choice\s*|#)?[\(\[]?\s*(\d{1,6})\s*[\)\]]?"
                     r"(?![\w/%]|\.\d)", re.IGNORECASE)
_NEGATION = re.compile(r"\b(?:not|never|except|ignore)\b|n't\b", re.IGNORECASE)
_FILLER = re.compile(r"\b(?:option|choice|question|number|the|my|i|choose|pick|final|is|"
                     r"answer)\b", re.IGNORECASE)
_NOT_SURE = re.compile(r"\bnot\s+sure\b", re.IGNORECASE)

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
    base = _INSTRUCTIONS[(protocol, "cot" if setting == "cot" else "zs")]
    return base.format(not_sure=NOT_SURE)


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


def answer_body(text: Any) -> str:
    """The text after the last ``Answer:`` marker at a line start, else all of it."""
    if not isinstance(text, str):
        return ""
    text = text[-MAX_TURN_CHARS:]  # a longer reply is read from its end
    marks = list(_ANSWER_MARKER.finditer(text))
    body = text[marks[-1].end():] if marks else text
    return body.strip()


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


def read_choice(text: Any, record: dict[str, Any], choices: list[str]) -> Reading:
    """The option a reply picks (module docstring)."""
    body = answer_body(text)
    if not body:
        return Reading(reason="empty")
    picks: set[int] = set()
    unknown = False
    for match in _NUMBER.finditer(body):
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
    if re.search(r"\bno\s+questions?\s+(?:is\s+|are\s+)?needed\b", body, re.IGNORECASE):
        picks.add(len(choices) - 1)
    if len(picks) > 1 or (picks and unknown):
        return Reading(reason="ambiguous")
    if picks and _hedged(body, record, choices):
        return Reading(reason="ambiguous")
    if picks and not _ANSWER_MARKER.search(str(text)) and not _bare_pick(body, record,
                                                                         choices):
        return Reading(reason="malformed")  # no Answer: line, and more than a pick
    if picks:
        return Reading(pick=picks.pop())
    return Reading(reason="unknown" if unknown else "malformed")


def _without_options(body: str, record: dict[str, Any], choices: list[str]) -> str:
    """`body` (as `_words`) with every option's question text and name taken out."""
    words = _words(body)
    for choice in choices:
        for phrase in (_words(option_text(record, choice)).strip(), _words(choice).strip()):
            if phrase:
                words = words.replace(f" {phrase} ", " ")
    return words


def _hedged(body: str, record: dict[str, Any], choices: list[str]) -> bool:
    """A pick wrapped in a hedge or a negation (``probably 3``, ``not 3``, ``3 or 4``)
    is not one pick; the options' own wording is set aside first."""
    rest = _without_options(body, record, choices)
    return bool(HEDGE.search(rest) or _NEGATION.search(rest))


def _bare_pick(body: str, record: dict[str, Any], choices: list[str]) -> bool:
    """Whether a reply without an ``Answer:`` line is nothing but a pick (a number form,
    an option's text or name, "No questions needed"): anything else is not an answer."""
    rest = _without_options(body, record, choices)
    rest = re.sub(r"\bno\s+questions?\s+(?:is\s+|are\s+)?needed\b", " ", rest)
    rest = _FILLER.sub(" ", _NUMBER.sub(" ", rest))
    return not re.search(r"[a-z]", rest)


def read_value(text: Any, record: dict[str, Any], *, allow_not_sure: bool) -> Reading:
    """The target value a reply gives, or "Not sure" (when allowed), read with the
    answer kind of the record's domain."""
    body = answer_body(text)
    if not body:
        return Reading(reason="empty")
    try:
        kind_name = domain_of(record).answer_kind
    except UnknownDomain:
        kind_name = "boolean"
    if _NOT_SURE.search(body):
        rest = _NOT_SURE.sub(" ", body)
        if re.search(r"\b(?:or|either)\b", rest, re.IGNORECASE):
            return Reading(reason="ambiguous")  # "Not sure" offered as one of choices
        kind, spec = answer_kind(kind_name), _spec(kind_name, record)
        pieces = [rest, *re.findall(r"[\w./-]+", rest)]
        if any(piece.strip() and kind.read_text(piece, spec).valid for piece in pieces):
            return Reading(reason="ambiguous")  # "Not sure" and a value
        return Reading(pick=NOT_SURE) if allow_not_sure else Reading(reason="malformed")
    reading = answer_kind(kind_name).read_text(body, _spec(kind_name, record))
    if not reading.valid:
        return Reading(reason=reading.reason)
    return Reading(pick=reading.value)


def _spec(kind: str, record: dict[str, Any]):
    values = record.get("target_values")
    return answer_spec(kind, entity=record.get("entity", ""), target=record.get("target", ""),
                       values=values if values else None)
