"""Prompts and output reading of the single-turn protocols (protocols §3.4-3.6, 3.8).

Generic wording: the problem text comes from the domain's renderer and each question
line from the domain's `Wording.question`; nothing here names a domain.

Where the answer begins (`answer_part`): at the reply's one ``Answer:`` marker (at a line
start; the whole reply when there is none). Everything before it is reasoning and may
discuss any candidate (a CoT reply weighing options 3 and 5, then ``Answer: 5``, picks
5). Two markers anywhere in the reply (two ``Answer:`` lines, 100 KB apart or not, or a
second ``answer:`` inside the answer) are ``multiple_actions``: the last line does not
win. An answer longer than `MAX_TURN_CHARS` is ``too_long``.

Reading a pick (`read_choice`) is tolerant of form and strict about content. In the
answer every option number (``3``, ``(3)``, ``[3]``, ``Option 3``, ``3.``), every option's
question text and every listed variable named as a whole word counts as a pick of that
option; a number that labels or counts something else (``rule 3``, ``1 fact``) does
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
is ``unknown``; a reply without an ``Answer:`` line must be nothing but a pick
(otherwise ``malformed``); nothing recognisable is ``malformed``.

A value (`read_value`) is read by the domain's answer kind, which also refuses a
justification that puts a second value forward (``no. Actually, yes.``, ``276;
correction: 277``, a second line: the rule of every protocol, `infoseek.answers`); on top
of it a probability or uncertainty anywhere in the answer, or a later clause opening
with a correction or an alternative (``no. Actually, I was wrong.``), is ``ambiguous``.
"Not sure" may be followed by an explanation (``Not sure whether Rosa is mellow``, ``Not
sure, because 1 fact is missing``): its clauses are read as a justification, where a
value after ``because`` / ``since`` / ``whether`` / a bracket, a label (``rule 3``) or
a count (``1 fact``) is a fact. "Not sure" with a value before it, offered as one of
alternatives (``yes or Not sure``, ``Not sure / no``), or with an explanation that
states or offers a value (``Not sure, but yes``, ``Not sure; Rosa is mellow``) or opens
a clause with a correction, is ``ambiguous``. No text makes a reader raise.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from infoseek.answers import answer_kind, answer_spec
from infoseek.answers.base import CORRECTION_OPENERS, HEDGE, UNCERTAINTY_WORDS, normalise
from infoseek.contract import MAX_TURN_CHARS
from infoseek.domains import UnknownDomain, domain_of
from infoseek.single_turn import NO_QUESTION, NOT_SURE

PROMPT_SETTINGS: tuple[str, ...] = ("zs", "cot", "fs")
"""Zero-shot, zero-shot with step-by-step reasoning, four-shot."""
FEW_SHOT_COUNT = 4

_ANSWER_MARKER = re.compile(r"(?im)^[ \t>*#_`]*(?:final[ \t]+)?answer[ \t*_`]*[:：]")
"""An ``Answer:`` marker at a line start (no newline inside: a scan of the whole reply
stays linear)."""
_INLINE_MARKER = re.compile(r"(?i)(?<![\w-])(?:final\s+)?answer[\s*_`]*[:：]")
_NUMBER = re.compile(r"(?<![\w./-])(?:option\s*|choice\s*|#)?[\(\[]?\s*(\d{1,6})\s*[\)\]]?"
                     r"(?![\w/%]|\.\d)", re.IGNORECASE)
_LABELLED = re.compile(r"\b(?:rules?|facts?|steps?|lines?|premises?|examples?|equations?|"
                       r"conditions?)\s*(?:#|no\.?|number)?\s*$", re.IGNORECASE)
_COUNTED = re.compile(r"\s*(?:rules?|facts?|steps?|premises?|equations?|conditions?|"
                      r"attributes?|variables?|quantities|quantity|values?|unknowns?)\b",
                      re.IGNORECASE)
_NO_QUESTION = re.compile(r"\bno\s+questions?\s+(?:is\s+|are\s+)?needed\b", re.IGNORECASE)
_NEGATION = re.compile(r"\b(?:not|never|except|ignore)\b|n't\b", re.IGNORECASE)
_FILLER = re.compile(r"\b(?:option|choice|question|number|the|my|i|choose|pick|final|is|"
                     r"answer)\b", re.IGNORECASE)
_NOT_SURE = re.compile(r"\bnot\s+sure\b", re.IGNORECASE)
_OR_NOT = re.compile(r"\s+or\s+not\b(?!\s+sure)")
"""``whether X or not``: one question, no alternative."""
_HEAD_END = re.compile(
    r"[(\[;:—–]|\s-\s|[.!?](?=\s|$)|\b(?:because|since|as|given|due|so|thus|hence|"
    r"therefore|which|according|based|from|by|per|via|using|considering|with|where|when|"
    r"after|i\.e|e\.g)\b")
_SEGMENT_BREAK = re.compile(r"[.!?](?=\s|$)|[;:()\[\]—–]|,(?=\s)|\s-\s")
_DOUBT = re.compile(rf"\b(?:{UNCERTAINTY_WORDS}|probability|chance|odds|percent)\b|%|"
                    r"\bnot\s+sure\b")
"""Uncertainty or a probability anywhere in an answer: not one value."""
_CORRECTION = re.compile(rf"(?:^|[.;:,!?()\[\]—–]|\bbut\b)\s*(?:{CORRECTION_OPENERS})\b")
_OFFER = re.compile(
    r"\b(?:or|either|nor|but|though|although|however|maybe|perhaps|possibly|probably|"
    r"likely|guess|might|may|could|would|should|actually|correction|otherwise|else|"
    r"instead|rather|alternatively|unless|if|then|answer|wait|mean|mistake|wrong|sorry|"
    r"oops|probability|chance|odds)\b|%|(?:^|\s)/|/(?:\s|$)|(?<=[a-z])/(?=[a-z])")
"""A clause holding a value and one of these offers the value as an answer."""
_JUSTIFY = re.compile(
    r"\b(?:because|since|as|given|due|from|by|via|using|considering|with|where|when|"
    r"after|per|based|according|whether|without|needs?|needed|missing|i\.e|e\.g)\b")
"""A value after one of these in its clause is a fact of the justification."""
_NUMBER_TOKEN = re.compile(r"(?<![\w.])[+-]?(?:\d{1,3}(?:,\d{3})+|\d+)(?:\.\d+)?"
                           r"(?:e[+-]?\d+)?(?:\s*/\s*\d+)?(?![\w%]|\.\d)")
_OPERATORS = ("+", "-", "*", "×", "÷", "^", "/")

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


def answer_part(text: Any) -> tuple[str, str | None]:
    """``(body, reason)``: the text after the reply's one ``Answer:`` marker (the whole
    reply when it has none), or why there is no answer to read. Two markers, at line
    starts or a second one inside the answer, are ``multiple_actions`` wherever they
    stand in the reply (the whole reply is searched); an answer longer than
    `MAX_TURN_CHARS` is ``too_long``; nothing to read is ``empty``."""
    if not isinstance(text, str) or not text.strip():
        return "", "empty"
    marks = list(_ANSWER_MARKER.finditer(text))
    if len(marks) > 1:
        return "", "multiple_actions"
    body = text[marks[0].end():] if marks else text
    if marks and _INLINE_MARKER.search(body):
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


def _flat(body: str) -> str:
    """`body` normalised, each line break kept as a clause break (``;``)."""
    return normalise(re.sub(r"[ \t]*(?:\r?\n)+[ \t]*", " ; ", body))


# ------------------------------------------------------------------ question selection


def _option_picks(body: str, record: dict[str, Any], choices: list[str]
                  ) -> tuple[set[int], bool]:
    """The options `body` names (numbers, question texts, names, "No questions
    needed"), and whether it holds a number outside the list. A number that labels or
    counts something else (``rule 3``, ``1 fact``) is no pick."""
    picks: set[int] = set()
    unknown = False
    for match in _NUMBER.finditer(body):
        if _LABELLED.search(body[max(0, match.start() - 24):match.start()]) or \
                _COUNTED.match(body, match.end()):
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
    if not _ANSWER_MARKER.search(str(text)) and not _bare_pick(body, record, choices):
        return Reading(reason="malformed")  # no Answer: line, and more than a pick
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
    text = _without_options(_flat(body), record, choices)
    head, tail = _split_head(text)
    return bool(HEDGE.search(head) or _NEGATION.search(head) or _DOUBT.search(text)
                or _doubts(tail))


def _split_head(text: str) -> tuple[str, str]:
    """``(head, tail)`` of a flattened answer at its first justification marker after
    the first word or number (leading brackets belong to the head)."""
    start = re.search(r"[a-z0-9§]", text)
    marker = _HEAD_END.search(text, start.start() if start else 0)
    return (text, "") if marker is None else (text[:marker.start()], text[marker.start():])


def _bare_pick(body: str, record: dict[str, Any], choices: list[str]) -> bool:
    """Whether a reply without an ``Answer:`` line is nothing but a pick (a number form,
    an option's text or name, "No questions needed"): anything else is not an answer."""
    rest = _without_options(_flat(body), record, choices)
    rest = _FILLER.sub(" ", _NUMBER.sub(" ", rest))
    return not re.search(r"[a-z]", rest)


# ----------------------------------------------------------------- values, "Not sure"


def _segments(body: str) -> list[tuple[str, str]]:
    """`body` cut at clause breaks (sentence ends, ``;``, ``:``, brackets, dashes,
    ``, ``, line breaks): ``(opener, clause)`` pairs, the clause normalised and the
    opener the break before it ("" for the first)."""
    text = _flat(body)
    pieces, opener, last = [], "", 0
    for match in _SEGMENT_BREAK.finditer(text):
        pieces.append((opener, text[last:match.start()].strip()))
        opener, last = match.group().strip() or ",", match.end()
    pieces.append((opener, text[last:].strip()))
    return [(o, c) for o, c in pieces if c]


def _candidates(kind_name: str, clause: str, kind: Any, spec: Any) -> list[tuple[int, Any]]:
    """``(position, value)`` of every value of the answer kind that `clause` (normalised)
    states. Boolean: ``yes`` / ``true``, a ``no`` / ``false`` that ends its clause or
    phrase (``no rule`` is not one), and the target stated of the entity, unless asked
    (after ``whether`` / ``if``). Number: every number that is no operand of arithmetic
    (``40 + 3``), no label or count of something else (``rule 3``, ``1 fact``) and no
    value of another quantity (``games = 3``); a chain gives its result. Other kinds:
    the clause itself when the kind reads it."""
    if kind_name == "boolean":
        return _boolean_candidates(clause, spec)
    if kind_name == "number":
        return _number_candidates(clause, kind, spec)
    reading = kind.read_text(clause, spec)
    return [(0, reading.value)] if reading.valid else []


def _boolean_candidates(clause: str, spec: Any) -> list[tuple[int, Any]]:
    found = [(m.start(), True) for m in re.finditer(r"\b(?:yes|true)\b", clause)]
    found += [(m.start(), False) for m in
              re.finditer(r"\b(?:no|false)\b(?=\s*(?:[,.;:!?)\]]|$))", clause)]
    target = normalise(spec.target) if isinstance(spec.target, str) else ""
    if target:
        pattern = rf"\b(?:is|are|be|being)\s+(not\s+)?{re.escape(target)}(?![\w-])"
        for match in re.finditer(pattern, clause):
            if not re.search(r"\b(?:whether|if)\b", clause[:match.start()]):
                found.append((match.start(), match.group(1) is None))
        if re.fullmatch(rf"(?:{re.escape(normalise(spec.entity or ''))}\s+)?(?:not\s+)?"
                        rf"{re.escape(target)}", clause):
            found.append((0, not clause.startswith("not ") and " not " not in clause))
    return found


def _number_candidates(clause: str, kind: Any, spec: Any) -> list[tuple[int, Any]]:
    clause = clause.replace("\u2212", "-")
    offset = 0
    if "=" in clause:
        left, _, _ = clause.partition("=")
        name = left.strip()
        if re.fullmatch(r"[a-z_][a-z0-9_ ]*", name) and not re.search(
                r"\b(?:answer|total|result|target)\b", name) and \
                name.split()[-1] != normalise(spec.target or ""):
            return []  # the value of another quantity: a fact
        offset = clause.rindex("=") + 1
    found = []
    for match in _NUMBER_TOKEN.finditer(clause, offset):
        before = clause[:match.start()].rstrip()
        after = clause[match.end():].lstrip()
        if before.endswith(_OPERATORS) or after.startswith(_OPERATORS):
            continue  # an operand of arithmetic: working, not a value
        if _LABELLED.search(before[-24:]) or _COUNTED.match(clause, match.end()):
            continue  # "rule 3", "1 fact": a label or a count of something else
        reading = kind.read_text(match.group(), spec)
        if reading.valid:
            found.append((match.start(), reading.value))
    return found


def _doubts(text: str) -> bool:
    """Whether text after an answer takes it back or offers another: a clause that opens
    with a correction or an alternative (``actually``, ``correction``, ``wait``,
    ``or``, ``otherwise`` ...)."""
    return bool(_CORRECTION.search(text))


def _offered(clause: str, opener: str, position: int) -> bool:
    """Whether a value at `position` of `clause` is put forward as an answer: the clause
    offers, hedges or corrects (``but``, ``or``, ``maybe``, ``could``, ``if``,
    ``actually`` ...), or the value stands as a statement of its own; a value inside a
    justification (``because 1 fact is missing``, a bracket) is a fact."""
    if _OFFER.search(clause):
        return True
    if opener in ("(", "["):
        return False
    return not _JUSTIFY.search(clause[:position])


def _takes_back(body: str) -> bool:
    """Whether an answer the kind read as one value hedges it or takes it back: any
    probability or uncertainty (``43, I guess``), or a clause after the first that
    opens with a correction or an alternative (``no. Actually, I was wrong there.``).
    A second value in the justification is the kind's to find (`infoseek.answers`: the
    same rule as in the seek protocols)."""
    if _DOUBT.search(_flat(body)):
        return True
    return any(_doubts(clause) for _, clause in _segments(body)[1:])


def _read_not_sure(body: str, kind_name: str, kind: Any, spec: Any) -> str | None:
    """None when a reply holding "Not sure" is one "Not sure" (an explanation may follow:
    ``Not sure whether Rosa is mellow``, ``Not sure, because 1 fact is missing``), else
    ``ambiguous``: "Not sure" offered as one of alternatives (``yes or Not sure``, ``Not
    sure / no``), a value before it, or an explanation that offers a value (``Not sure,
    but yes``) or takes it back."""
    text = _OR_NOT.sub(" ", _flat(body))
    first = _NOT_SURE.search(text)
    pre, post = text[:first.start()], _NOT_SURE.sub(" ", text[first.end():])
    if re.search(r"(?:\b(?:or|either|nor)|/)\W*$", pre) or \
            re.match(r"\W*(?:\b(?:or|nor)\b|/)", post):
        return "ambiguous"
    if _candidates(kind_name, pre, kind, spec) or re.search(r"\b(?:or|either)\b", pre):
        return "ambiguous"
    for opener, clause in _segments(post):
        if _doubts(clause):
            return "ambiguous"
        if any(_offered(clause, opener, position)
               for position, _ in _candidates(kind_name, clause, kind, spec)):
            return "ambiguous"
    return None


def read_value(text: Any, record: dict[str, Any], *, allow_not_sure: bool) -> Reading:
    """The target value a reply gives, or "Not sure" (when allowed), read with the
    answer kind of the record's domain (module docstring)."""
    body, reason = answer_part(text)
    if reason is not None:
        return Reading(reason=reason)
    try:
        kind_name = domain_of(record).answer_kind
    except UnknownDomain:
        kind_name = "boolean"
    kind, spec = answer_kind(kind_name), _spec(kind_name, record)
    if _NOT_SURE.search(_flat(body)):
        reason = _read_not_sure(body, kind_name, kind, spec)
        if reason is not None:
            return Reading(reason=reason)
        return Reading(pick=NOT_SURE) if allow_not_sure else Reading(reason="malformed")
    reading = kind.read_text(body, spec)
    if not reading.valid:
        return Reading(reason=reading.reason)
    if _takes_back(body):
        return Reading(reason="ambiguous")
    return Reading(pick=reading.value)


def _spec(kind: str, record: dict[str, Any]):
    values = record.get("target_values")
    return answer_spec(kind, entity=record.get("entity", ""), target=record.get("target", ""),
                       values=values if values else None)
