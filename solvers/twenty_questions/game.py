"""Twenty Questions, the game itself (pure: no Inspect imports): its options, reading the
guesser's turns, the offline examiner and evaluator over the attribute table, and reading
what an examiner or evaluator model writes.

`TwentyQuestionsOptions` holds the options of one run, checked once when made (the task
makes them from its checked `-T` parameters, `infoseek.inspect_tasks.twenty_questions`);
`stored` is the dict the solver writes under ``infoseek:options``
(`infoseek.contract.STORE_OPTIONS`, with the turn's ``final_turn``), which the scorer and
the reference guesser read.

The table travels in the problem record (`game_record` in
`infoseek.builders.twenty_questions.builder`): ``engine`` (attributes, candidates, rows),
``questions`` and ``phrases`` per attribute, ``aliases`` per candidate. `GameTable` reads
it once.

A guesser turn is one of (`read_turn`):

- a **guess**: a line ``Guess: <name>`` (also ``Final guess:``, ``My guess is``) or the
  published final form ``X is "<name>"``; read as the answer kind ``choice`` over every
  name and alias of the declared pool (plurals included), so ``Guess: the dogs`` is
  ``dog``, while two names (``dog or cat``) or a hedge (``maybe a dog``) are
  ``ambiguous`` and never credited; the guess is read with every line after it (no
  blank-line cut: a second name or ``or maybe ...`` on a later line is ``ambiguous``);
- a **question**: one line ending in ``?`` (or opening with a question word). A question
  ``Is X a <name>?`` whose rest is exactly a name of the pool is a *guess question*: it
  wins when it names the target, and is answered No otherwise;
- **invalid** (reason from the contract): ``empty``, ``too_long``, ``too_many`` (more than
  one question), ``multiple_actions`` (a question and a guess), ``no_action``.

At the final turn only a guess counts (a guess question is read as that guess).

Examiner answers map to evidence explicitly (`EVIDENCE`): Yes -> yes, No -> no,
Partially -> pass, Not applicable -> pass, a confirmation ("You guessed it") -> yes.
Anything else an examiner writes is recorded and replaced by Not applicable.
"""

from __future__ import annotations

import re
from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass, field
from functools import cached_property
from typing import Any

from infoseek.answers import answer_kind
from infoseek.answers.answer_text import normalise
from infoseek.answers.base import AnswerSpec
from infoseek.answers.choice import option_key
from infoseek.contract import MAX_TURN_CHARS
from infoseek.solvers.options import SolverOptions
from infoseek.solvers.seek.answer_parsing import copied_template_line
from infoseek.solvers.twenty_questions.prompts import TEMPLATE_LINES

YES, NO, PARTIALLY, NOT_APPLICABLE = "Yes", "No", "Partially", "Not applicable"
EXAMINER_ANSWERS: tuple[str, ...] = (YES, NO, PARTIALLY, NOT_APPLICABLE)
CONFIRMED = "You guessed it"
CONFIRMATION = "You guessed it. X is {name}."
EVIDENCE: dict[str, str] = {YES: "yes", NO: "no", PARTIALLY: "pass", NOT_APPLICABLE: "pass",
                            CONFIRMED: "yes"}
"""Examiner answer -> the evidence the metrics use (protocols §5.6: every answer mapped)."""
LABELS: tuple[str, ...] = ("yes", "no", "pass")
FAILED = "fail"
"""A candidate the evaluator gave no readable label (counted; updated as pass)."""
CELL_LABEL = {"y": "yes", "n": "no", "p": "pass"}
CELL_ANSWER = {"y": YES, "n": NO, "p": PARTIALLY}
"""A cell outside these (``?``: a candidate without a table row, from a name list) has no
offline answer: the offline examiner says Not applicable, the offline evaluator ``fail``."""

MAX_TURNS = 20
"""The guesser's turns unless a task says otherwise (the last one a guess)."""
LABEL_BATCH = 25
"""Candidates per evaluator call unless a task says otherwise."""
TEXT_FORMAT = "text"
"""The game's one interaction format: the guesser writes its questions and its guess."""

_SUBJECT = r"(?:x|it|this|that|the thing|your thing|the object|the item|the answer)"
_GUESS_QUESTION = re.compile(rf"^(?:is|are)\s+{_SUBJECT}\s+(.+?)\s*\?*$")
_GUESS_LINE = re.compile(
    r"^\W*(?:(?:my\s+)?(?:final\s+)?guess(?:\s+is)?|(?:final\s+)?answer(?:\s+is)?)\s*[:\-]?\s*(.+)$",
    re.IGNORECASE)
_X_IS = re.compile(r"^\W*x\s+is\s+(.+)$", re.IGNORECASE)
_QUESTION_WORD = re.compile(
    r"^(?:is|are|does|do|can|could|would|will|has|have|was|were|did|should)\b", re.IGNORECASE)
_NEGATION = re.compile(r"\b(?:not|no|never|neither|nor)\b|n't\b")
_SLOT = re.compile(r"\[[^\[\]]*\]|<[^<>]*>|\{[^{}]*\}")
"""A bracketed template slot still in a reply line: an echoed placeholder, not a question."""


_TABLES: dict[tuple, GameTable] = {}


@dataclass(frozen=True)
class GameTable:
    """The declared pool of one game record."""

    attributes: tuple[str, ...]
    candidates: tuple[str, ...]
    rows: tuple[str, ...]
    questions: Mapping[str, str]
    phrases: Mapping[str, tuple[str, ...]]
    aliases: Mapping[str, tuple[str, ...]]
    _cache: dict = field(default_factory=dict, compare=False, repr=False)

    @classmethod
    def from_record(cls, record: Mapping[str, Any]) -> GameTable:
        """The record's table (one per record id and provenance, kept for the process:
        the reference guessers read it at every move)."""
        key = (record.get("id"), repr(record.get("provenance")), len(record["engine"]["rows"]))
        if key not in _TABLES:
            if len(_TABLES) > 64:
                _TABLES.clear()
            _TABLES[key] = cls._read(record)
        return _TABLES[key]

    @classmethod
    def _read(cls, record: Mapping[str, Any]) -> GameTable:
        spec = record["engine"]
        return cls(tuple(spec["attributes"]), tuple(spec["candidates"]), tuple(spec["rows"]),
                   dict(record["questions"]),
                   {a: tuple(p) for a, p in record["phrases"].items()},
                   {c: tuple(a) for c, a in record["aliases"].items()})

    def cell(self, candidate: str, attribute: str) -> str:
        return self.rows[self.candidates.index(candidate)][self.attributes.index(attribute)]

    @cached_property
    def name_index(self) -> dict[str, str]:
        """Normalised name, alias or plural -> candidate; a form two candidates claim
        names neither (plurals never take a listed name)."""
        listed: dict[str, str] = {}
        for name in self.candidates:
            for alias in (name, *self.aliases.get(name, ())):
                listed.setdefault(option_key(alias), name)
        plurals: dict[str, set[str]] = {}
        for key, name in listed.items():
            for form in (key + "s", key + "es"):
                if form not in listed:
                    plurals.setdefault(form, set()).add(name)
        return {**{f: next(iter(n)) for f, n in plurals.items() if len(n) == 1}, **listed}

    @cached_property
    def phrase_patterns(self) -> list[tuple[str, re.Pattern[str]]]:
        return [(attr, re.compile(rf"(?<![\w-]){re.escape(p)}(?![\w-])"))
                for attr in self.attributes for p in self.phrases.get(attr, ())]


# ------------------------------------------------------------------------ the options


@dataclass(frozen=True)
class TwentyQuestionsOptions(SolverOptions):
    """The options of a Twenty Questions run, checked when made: a ValueError names the
    bad one (a turn cap or a batch size that is not an integer >= 1)."""

    max_turns: int = MAX_TURNS
    """The guesser's turns; at the last one only a guess counts."""
    label_batch: int = LABEL_BATCH
    """Candidates per call when an `evaluator` model labels the questions."""
    seed: int = 0
    """Recorded in the options (the game records do not depend on it)."""

    def __post_init__(self) -> None:
        self.check_whole("max_turns", "label_batch", least=1)

    def stored(self) -> dict[str, Any]:
        """The options as the store holds them (`infoseek.contract.STORE_OPTIONS`; the
        solver adds ``final_turn``). ``label_batch`` is not stored: it changes how the
        labels are asked for, not the game."""
        return {"format": TEXT_FORMAT, "max_turns": self.max_turns, "seed": self.seed}


# ---------------------------------------------------------------- the guesser's turns


@dataclass(frozen=True)
class Turn:
    """One guesser reply as read (module docstring)."""

    kind: str  # "question" | "guess" | "invalid"
    question: str | None = None
    guess: str | None = None
    """The candidate a guess (or a guess question) names."""
    guess_raw: str | None = None
    reason: str | None = None


def read_guess(text: str, table: GameTable) -> tuple[str | None, str | None]:
    """(candidate, None) or (None, reason): ``text`` read as exactly one name of the pool."""
    body = text.strip()
    quoted = re.fullmatch(r'["“](.+?)["”]\s*[.!]?', body)
    if quoted:
        body = quoted.group(1)
    # only the names whose text occurs in the reply can be named by it (a superset of the
    # whole-word matches): the reader then checks a few options, not thousands
    text = normalise(body)
    present = tuple(key for key in table.name_index if key in text)
    if not present:
        return None, "malformed" if text.strip(" .!?") else "empty"
    reading = answer_kind("choice").read_text(body, AnswerSpec(kind="choice", options=present))
    if not reading.valid:
        return None, reading.reason
    return table.name_index.get(option_key(str(reading.value))), None


def guess_question(question: str, table: GameTable) -> str | None:
    """The candidate a question ``Is X a <name>?`` names, if its rest is exactly one."""
    match = _GUESS_QUESTION.match(normalise(question).strip())
    if not match:
        return None
    return table.name_index.get(option_key(match.group(1)))


def _with_what_follows(guess: str, later: list[str]) -> str:
    """A guess and every line after it up to the next guess line (protocols §3.8: the
    whole reply counts, blank lines or not): a second name or a hedge there (``Or maybe a
    cat.``, ``Not sure.``) is read as on the guess line itself."""
    kept = [guess]
    for line in later:
        if _GUESS_LINE.match(line) or _X_IS.match(line):
            break
        kept.append(line)
    return "\n".join(kept)


def read_turn(text: str | None, table: GameTable, *, final_turn: bool,
              templates: Collection[str] = TEMPLATE_LINES) -> Turn:
    """What one guesser reply amounts to (module docstring). A reply with a line that
    copies one of the prompt's `templates`, or that still holds a bracketed slot (``Is X
    a [X]?``, ``Guess: <your guess>``), asks and guesses nothing: ``template``."""
    if text is None or not text.strip():
        return Turn("invalid", reason="empty")
    if len(text) > MAX_TURN_CHARS:
        return Turn("invalid", reason="too_long")
    lines = [ln.strip() for ln in text.strip().splitlines() if ln.strip()]
    echoed = copied_template_line(lines, templates) or next(
        (ln for ln in lines if _SLOT.search(ln)), None)
    if echoed is not None:
        return Turn("invalid", guess_raw=echoed, reason="template")
    guesses = [_with_what_follows(m.group(1), lines[index + 1:])
               for index, ln in enumerate(lines)
               for m in [_GUESS_LINE.match(ln) or _X_IS.match(ln)] if m]
    questions = [ln for ln in lines if ln.endswith("?") or _QUESTION_WORD.match(ln)]
    questions = [q for q in questions if not (_GUESS_LINE.match(q) or _X_IS.match(q))]
    if len(guesses) > 1:
        return Turn("invalid", reason="multiple_actions")
    if guesses and questions and not final_turn:
        return Turn("invalid", reason="multiple_actions")
    if guesses or final_turn:
        raw = guesses[0] if guesses else (questions[0] if len(questions) == 1 else text)
        named = guess_question(raw, table) if not guesses else None
        if named is not None:
            return Turn("guess", guess=named, guess_raw=raw)
        candidate, reason = read_guess(raw, table)
        if candidate is None:
            return Turn("invalid", guess_raw=raw, reason=reason or "malformed")
        return Turn("guess", guess=candidate, guess_raw=raw)
    if not questions:
        return Turn("invalid", reason="no_action")
    asked = [s for q in questions for s in re.findall(r"[^?]+\?", q)] or questions
    if len(asked) > 1:
        return Turn("invalid", reason="too_many")
    question = asked[0].strip()
    return Turn("question", question=question, guess=guess_question(question, table))


# ---------------------------------------------------------- the offline examiner/evaluator


def question_attribute(question: str, table: GameTable) -> str | None:
    """The attribute a free-text question names: the attributes whose phrases occur in
    it (a phrase inside a longer matched phrase does not count) must be exactly one; a
    negated question names none."""
    text = normalise(question)
    if _NEGATION.search(text):
        return None
    spans: list[tuple[int, int, str]] = []
    for attr, pattern in table.phrase_patterns:
        spans.extend((m.start(), m.end(), attr) for m in pattern.finditer(text))
    kept = {attr for low, high, attr in spans
            if not any(lo <= low and high <= hi and (hi - lo) > (high - low)
                       for lo, hi, _ in spans)}
    return next(iter(kept)) if len(kept) == 1 else None


def table_answer(question: str, named: str | None, target: str, table: GameTable) -> str:
    """The offline examiner's answer: a guess question is confirmed or answered No; a
    question naming one attribute gets the target's cell; anything else Not applicable."""
    if named is not None:
        return CONFIRMATION.format(name=target) if named == target else NO
    attr = question_attribute(question, table)
    return NOT_APPLICABLE if attr is None else CELL_ANSWER.get(table.cell(target, attr),
                                                               NOT_APPLICABLE)


def table_labels(question: str, named: str | None, table: GameTable) -> list[str]:
    """The offline evaluator's label of `question` for every candidate, in pool order."""
    if named is not None:
        return ["yes" if c == named else "no" for c in table.candidates]
    attr = question_attribute(question, table)
    if attr is None:
        return ["pass"] * len(table.candidates)
    column = table.attributes.index(attr)
    return [CELL_LABEL.get(row[column], FAILED) for row in table.rows]


def table_truth(question: str, named: str | None, target: str, table: GameTable) -> str | None:
    """The examiner answer the table holds for a question or guess (an `EXAMINER_ANSWERS`
    entry or `CONFIRMED`), or None where it holds none (a question naming no single
    attribute): the exact truth a model examiner is measured against."""
    if named is None:
        attr = question_attribute(question, table)
        if attr is None or table.cell(target, attr) not in CELL_ANSWER:
            return None
    return read_examiner(table_answer(question, named, target, table))[0]


def truth_labels(question: str, named: str | None, table: GameTable
                 ) -> list[str | None] | None:
    """Every candidate's label the table holds for a question, or None where it holds
    none: the exact truth a model evaluator is measured against (a candidate without a
    table row has None)."""
    if named is None and question_attribute(question, table) is None:
        return None
    return [None if label == FAILED else label
            for label in table_labels(question, named, table)]


# ---------------------------------------------------------- reading model roles' text


def read_examiner(text: str | None, question: str | None = None) -> tuple[str, bool]:
    """(answer, valid): one of `EXAMINER_ANSWERS` or `CONFIRMED`, read from the whole
    reply (protocols §3.8); anything else is (Not applicable, False).

    Beside the bare answers, a reply that opens with an answer (``No, I'm afraid. X is a
    tool.``, ``Yes, it is.``) is that answer when nothing after it says the other one or
    hedges; with the `question` it answers, a plain statement about X that repeats the
    question's words (``X is not radio.`` to ``Is X a radio?``) is No when negated and Yes
    otherwise. A reply that says both (``Yes and no``, ``No, well, yes``) or hedges
    (``Probably yes``, ``No, I think``) stays invalid."""
    clean = normalise(text or "").strip(" \t.!,;:")
    for answer in EXAMINER_ANSWERS:
        if clean == answer.lower():
            return answer, True
    if re.fullmatch(r"you guessed it(?:[.!,]?\s*x is [^.!?]+)?", clean):
        return CONFIRMED, True
    found = _answer_in_words(clean, question)
    return (found, True) if found is not None else (NOT_APPLICABLE, False)


_LEAD = re.compile(r"^(yes|no|partially|not applicable|you guessed it)(?![\w'-])\W*(.*)$",
                   re.DOTALL)
_YES_WORD = re.compile(r"\b(?:yes|yeah|yep|yup|correct|indeed)\b")
_NO_WORD = re.compile(r"\b(?:no|nope|not|never|neither|nor|incorrect)\b")
_HEDGE = re.compile(
    r"\b(?:maybe|perhaps|probably|possibly|likely|unlikely|might|may|could|sometimes|partly|"
    r"partially|somewhat|depends|depending|unsure|uncertain|not sure|i think|i guess|i believe|"
    r"kind of|sort of|not applicable)\b|%")
_STATEMENT = re.compile(
    rf"^{_SUBJECT}\s+(?:is|are|was|were|does|do|did|has|have|can|could|will|would|lives|"
    r"grows|needs|uses|makes|eats|has got)\b")
_FILLER = frozenset({"x", "it", "this", "that", "the", "thing", "your", "object", "item",
                     "answer", "a", "an", "is", "are", "was", "were", "does", "do", "did",
                     "not", "no", "never", "of", "in", "on", "at", "to", "for", "with", "by",
                     "have", "has", "can", "will", "would", "could"})


def _words(text: str) -> set[str]:
    return {w[:-1] if len(w) > 3 and w.endswith("s") and w not in _FILLER else w
            for w in re.findall(r"[a-z0-9]+", text)}


def _answer_in_words(clean: str, question: str | None) -> str | None:
    """The answer a reply in words plainly gives (`read_examiner`), or None."""
    lead = _LEAD.match(clean)
    if lead is not None:
        word, rest = lead.group(1), lead.group(2)
        says_yes, says_no = _YES_WORD.search(rest), _NO_WORD.search(rest)
        if word == "partially":
            return PARTIALLY if not (says_yes or says_no) else None
        if word == "not applicable":
            return NOT_APPLICABLE if not (says_yes or _HEDGE.search(rest)) else None
        if _HEDGE.search(rest) or "guessed it" in rest and word != "you guessed it":
            return None
        if word == "yes":
            return YES if not says_no else None
        if word == "no":
            return NO if not says_yes else None
        return CONFIRMED if not (says_yes or says_no) else None
    if question is None or not _STATEMENT.match(clean) or _HEDGE.search(clean):
        return None
    asked = normalise(question)
    if _NEGATION.search(asked) or _YES_WORD.search(clean):
        return None
    content = _words(clean) - _FILLER
    if not content <= _words(asked):
        return None
    return NO if _NO_WORD.search(clean) else YES


def read_labels(text: str | None, count: int) -> list[str] | None:
    """Labels ``1. Yes`` ... ``<count>. Pass``, one line per index in order, or None when
    the reply is not exactly that (the caller retries, saying `label_problems`)."""
    found, problems = _label_lines(text, count)
    return None if problems else [found[i] for i in range(1, count + 1)]


def label_problems(text: str | None, count: int, names: Sequence[str] = ()) -> str:
    """What keeps an evaluator reply from being read as `count` labels, in words for the
    retry (``labels missing for candidates 3 (horse), 7 (goat); unreadable lines 'Four:
    yes'``), each index followed by its candidate's name when `names` lists them; ""
    when nothing."""
    return "; ".join(_label_lines(text, count, names)[1])


def _label_lines(text: str | None, count: int, names: Sequence[str] = ()
                 ) -> tuple[dict[int, str], list[str]]:
    found: dict[int, str] = {}
    unreadable: list[str] = []
    repeated: set[int] = set()
    for line in (text or "").splitlines():
        match = re.fullmatch(r"\s*(\d+)\s*[.):-]\s*\**\s*(yes|no|pass)\s*\**\s*\.?\s*",
                             line, re.IGNORECASE)
        if match is None:
            if line.strip():
                unreadable.append(line.strip())
            continue
        index = int(match.group(1))
        if index in found:
            repeated.add(index)
        found[index] = match.group(2).lower()
    problems: list[str] = []
    if not (text or "").strip():
        return found, ["the reply was empty"]
    def named(indices: list[int]) -> list[str]:
        return [f"{i} ({names[i - 1]})" if 0 < i <= len(names) else str(i) for i in indices]

    missing = [i for i in range(1, count + 1) if i not in found]
    extra = sorted(i for i in found if not 1 <= i <= count)
    for what, items in (("labels missing for candidates", _listed(named(missing))),
                        ("labels repeated for candidates", _listed(named(sorted(repeated)))),
                        ("no candidate has the numbers", _listed(extra)),
                        ("unreadable lines", _listed([repr(u[:60]) for u in unreadable]))):
        if items:
            problems.append(f"{what} {items}")
    return found, problems


def _listed(items: Sequence[object], shown: int = 8) -> str:
    text = ", ".join(map(str, items[:shown]))
    return text + (f" and {len(items) - shown} more" if len(items) > shown else "")


def batches(items: Sequence[str], size: int) -> list[list[str]]:
    return [list(items[i:i + size]) for i in range(0, len(items), size)]


def consistent_candidates(table: GameTable, answered: Sequence[tuple[Sequence[str], str]]
                          ) -> list[str]:
    """The candidates whose label equals the evidence on every answered question."""
    return [c for i, c in enumerate(table.candidates)
            if all(labels[i] == evidence for labels, evidence in answered)]
