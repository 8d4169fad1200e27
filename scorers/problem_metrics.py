"""Metrics and answer parsers of the problem-level protocols (protocols §3.2, 3.3, 4).

- Degree-of-underspecification (k) prediction: :func:`read_k_prediction` reads the
  model's final answer line, :func:`k_prediction_metrics` scores it.
- Missing-variable (MSS) identification: :func:`read_variable_list` reads the named
  variables, :func:`mss_identification_metrics` compares them with the MSS family.

Both read as strictly as a seek answer (protocols §3.8): the one answer-line rule of
`infoseek.answers.answer_lines`, everything after the marker read (no blank-line cut),
and a correction, second value, retraction, hedge or confidence there never credited,
with the reason recorded (`parse_k_prediction` / `parse_variable_list` keep the old
shape: the value, or ``None``).

Pure module: no Inspect imports.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

from infoseek.answers import AnswerReading, answer_kind, answer_spec, invalid
from infoseek.answers.answer_lines import (
    INLINE_MARKER,
    AnswerLine,
    answer_lines,
    has_inline_marker,
)
from infoseek.answers.doubts import doubt_of
from infoseek.answers.second_values import PROBABILITY, SECOND_VALUE_CUE

UNSURE = "unsure"
"""Parsed form of the answer "ambiguous but not sure how many"."""

_DECORATION = "*_`\"'[]()<>{} \t.!;"
_NUMBER_WORDS = {
    "zero": 0,
    "one": 1,
    "two": 2,
    "three": 3,
    "four": 4,
    "five": 5,
    "six": 6,
    "seven": 7,
    "eight": 8,
    "nine": 9,
    "ten": 10,
}
_EMPTY_LIST_ANSWERS = {"", "none", "nothing", "no variables", "no variable", "n/a", "-"}


def final_answer_body(text: str | None) -> str | None:
    """The rest of the last answer line (the one answer-line rule of
    `infoseek.answers.answer_lines`), or ``None`` when the text has none."""
    lines = answer_lines(text)
    if not lines:
        return None
    return lines[-1].line_body(text).strip()  # type: ignore[arg-type]


# ---------------------------------------------------------------------------
# k prediction


_MAX_K = 10**6
"""A predicted k of this size or more is not read (``out_of_range``)."""
_ZERO_PHRASE = re.compile(
    r"^\W*(?:(?:the\s+problem|it)\s+is\s+)?(?:not\s+ambiguous|unambiguous)\b", re.IGNORECASE)
_UNSURE_PHRASE = re.compile(
    r"^\W*(?:(?:the\s+problem|it)\s+is\s+)?(?:ambiguous\W*(?:but\s+|and\s+)?)?"
    r"(?:i\s+am\s+|i'm\s+)?(?:not\s+sure|unsure|uncertain)"
    r"(?:\s+(?:how\s+many|of\s+the\s+number|about\s+the\s+number))?\b",
    re.IGNORECASE,
)
_NUMBER_WORD = re.compile(rf"^\W*({'|'.join(_NUMBER_WORDS)})\b", re.IGNORECASE)
_UNSURE_MARK = 987654321
"""The number the "not sure how many" option is read as, so that the number reader
applies its rules (a correction, a hedge, a second value after it) to that option too."""
_K_SPEC = answer_spec("number")


def _k_body(body: str) -> AnswerReading:
    """The k one answer body states (protocols §3.8, read as strictly as a seek answer:
    the number kind's reader over the whole body, after the options' words are written
    as numbers: ``not ambiguous`` 0, ``ambiguous but not sure how many`` the unsure
    mark, a number word opening the body its digits)."""
    if str(_UNSURE_MARK) in body:
        return invalid("malformed")
    lines = body.strip().split("\n", 1)
    first, rest = lines[0], (lines[1] if len(lines) > 1 else "")
    for pattern, value in ((_ZERO_PHRASE, "0"), (_UNSURE_PHRASE, str(_UNSURE_MARK))):
        match = pattern.match(first)
        if match is not None:
            first = value + first[match.end():]
            break
    else:
        word = _NUMBER_WORD.match(first)
        if word is not None:
            first = f"{_NUMBER_WORDS[word.group(1).lower()]}{first[word.end():]}"
    reading = answer_kind("number").read_text(f"{first}\n{rest}".strip(), _K_SPEC)
    if not reading.valid:
        return reading
    if reading.value == _UNSURE_MARK:
        return AnswerReading(UNSURE)
    if not isinstance(reading.value, int):
        return invalid("malformed")  # 5/2 quantities
    if abs(reading.value) >= _MAX_K:
        return invalid("out_of_range")
    return reading


def _runs(text: str) -> list[list[AnswerLine]]:
    """The reply's answer lines in runs: lines with only blank lines between them form
    one run (an echoed option list is one run)."""
    runs: list[list[AnswerLine]] = []
    last = -2
    rows = text.splitlines()
    for line in answer_lines(text):
        between = rows[last + 1:line.line] if last >= 0 else ["x"]
        if runs and not any(row.strip() for row in between):
            runs[-1].append(line)
        else:
            runs.append([line])
        last = line.line
    return runs


def read_k_prediction(text: str | None) -> AnswerReading:
    """The predicted degree of underspecification, or why there is none.

    The value is an ``int`` (``not ambiguous`` 0, ``2`` or ``two`` 2; a negative number
    is read as itself and scored invalid) or :data:`UNSURE`. The answer is the reply's
    last answer line (`infoseek.answers.answer_lines`: a reply with none, a bare ``1``
    included, is ``no_action``), read with everything after it, by the number kind's
    rules (protocols §3.8): a justification may follow (``2 (rules 1 and 3)``), but a
    correction, alternative, retraction, hedge, confidence or question mark anywhere
    after the marker is ``ambiguous`` (``2\nActually, 3``, ``two (or 3)``, ``2\n\nNot
    sure``). Two answer lines naming different values are ``multiple_actions`` (the last
    one does not win), and so is an echoed option list (a run of adjacent answer lines
    naming different values) or a second marker inside the answer; the same value twice
    is one answer."""
    if not isinstance(text, str) or not text.strip():
        return invalid("empty")
    runs = _runs(text)
    if not runs:
        return invalid("no_action")
    final = runs[-1][-1]
    body = final.body(text)
    if has_inline_marker(body):
        return invalid("multiple_actions")
    reading = _k_body(body)
    if len({_line_k(text, line) for line in runs[-1]} - {None}) > 1:
        return invalid("multiple_actions")  # an echoed option list
    for run in runs[:-1]:
        earlier = {_line_k(text, line) for line in run} - {None}
        if len(earlier) == 1 and (not reading.valid or earlier != {reading.value}):
            return invalid("multiple_actions")  # two answers: the last one does not win
    return reading


def _line_k(text: str, line: AnswerLine) -> object:
    """The k one answer line states on its own line (``None`` when none)."""
    pieces = INLINE_MARKER.split(line.line_body(text))
    values = {_k_body(piece).value for piece in pieces if piece.strip(_DECORATION)}
    values.discard(None)
    if len(values) > 1:
        return ("several", tuple(sorted(map(str, values))))
    return values.pop() if values else None


def parse_k_prediction(text: str | None) -> int | str | None:
    """The value of :func:`read_k_prediction`, or ``None`` when it cannot be credited."""
    reading = read_k_prediction(text)
    return reading.value if reading.valid else None  # type: ignore[return-value]


def k_prediction_metrics(predicted: int | str | None, k: int) -> dict[str, float]:
    """Score one k prediction against the true degree ``k``.

    Keys (all 0.0 / 1.0): ``accuracy`` (prediction equals ``k``), ``under``
    (``k_hat < k``), ``over`` (``k_hat > k``), ``unsure`` (the "ambiguous but not sure"
    answer: neither under nor over, and not accurate), ``invalid`` (``None``, a
    negative number, or anything else that is not an int or :data:`UNSURE`).
    """
    result = {"accuracy": 0.0, "under": 0.0, "over": 0.0, "unsure": 0.0, "invalid": 0.0}
    if predicted == UNSURE:
        result["unsure"] = 1.0
    elif isinstance(predicted, int) and not isinstance(predicted, bool) and predicted >= 0:
        if predicted == k:
            result["accuracy"] = 1.0
        elif predicted < k:
            result["under"] = 1.0
        else:
            result["over"] = 1.0
    else:
        result["invalid"] = 1.0
    return result


# ---------------------------------------------------------------------------
# MSS identification


@dataclass(frozen=True)
class VariableList:
    """An MSS answer read: the variables named (canonical spelling, answer order, no
    repeats) and how many items named no variable, or why there is no list
    (``reason``: ``empty``, ``no_action``, ``multiple_actions``, ``ambiguous``)."""

    names: list[str] | None
    unknown: int = 0
    reason: str | None = None


def read_variable_list(text: str | None, variables: Sequence[str],
                       family: Sequence[Sequence[str]] | None = None) -> VariableList:
    """Read the variables named in the reply's last answer line (``Answer: a, b, c``;
    the one answer-line rule of `infoseek.answers.answer_lines`: a reply with none is
    ``no_action``).

    The list is the rest of the answer line (or, when that is empty, the list lines
    after it: bullets, numbers, or the next non-empty line). Items are separated by
    commas, semicolons or the word "and" (a piece between commas that is itself a
    variable's name, "Blood and protein on urine dipstick", is one item); quotes,
    brackets, backticks and a trailing period are ignored. Each item is matched against
    ``variables`` exactly first, then case-insensitively (with runs of whitespace,
    ``_`` and ``-`` treated alike); an item that matches none is counted in ``unknown``
    (the scorer gives no exact credit to a list holding one).

    Read as strictly as a seek answer (protocols §3.8), with everything after the
    marker: ``ambiguous`` when the list line, outside the variables' names, holds a
    self-correction, alternative or probability word or a ``/`` (``kind or tall``,
    ``kind, tall / kind, hurt``), when anything after the marker hedges, retracts or
    questions it (``I think kind, tall``, ``kind, tall\n\nNot sure``), when the text
    after the list puts another list forward (a corrected clause naming a variable, a
    paragraph that is a different list, a probability), or when the list names every
    variable of the problem while no member of the MSS ``family`` (when given) is
    every variable (no choice made: a shotgun list). Two answer lines naming different lists,
    or a second marker inside the answer, are ``multiple_actions``; the same list twice
    is one answer. "none" or an empty answer is the empty list.
    """
    lines = answer_lines(text)
    if not isinstance(text, str) or not text.strip():
        return VariableList(None, reason="empty")
    if not lines:
        return VariableList(None, reason="no_action")
    body = lines[-1].body(text)
    if has_inline_marker(body):
        return VariableList(None, reason="multiple_actions")
    exact = {name: name for name in variables}
    folded: dict[str, str] = {}
    for name in variables:
        folded.setdefault(_fold(name), name)
    listed, later = _list_part(body)
    names, unknown = _named_variables(listed, exact, folded)
    if _puts_forward_another_list(text, listed, later, variables, exact, folded, names):
        return VariableList(None, reason="ambiguous")
    if _two_lists(text, lines, exact, folded):
        return VariableList(None, reason="multiple_actions")
    if family is not None and len(variables) > 1 and set(names) == set(variables) and not any(
            set(member) == set(variables) for member in family):
        return VariableList(None, reason="ambiguous")  # every variable: no choice made
    return VariableList(names, unknown)


def parse_variable_list(text: str | None, variables: Sequence[str]) -> tuple[list[str], int] | None:
    """:func:`read_variable_list` as ``(names, unknown_count)``, or ``None`` when there is
    no list to credit."""
    reading = read_variable_list(text, variables)
    return None if reading.names is None else (reading.names, reading.unknown)


_LIST_LINE = re.compile(r"^\s*(?:[-*\u2022+]|\d{1,3}[.)])\s+")


def _list_part(body: str) -> tuple[str, str]:
    """``(list, later)``: the list an answer body opens with and the text after it."""
    rows = body.split("\n")
    if rows[0].strip():
        return rows[0].strip(), "\n".join(rows[1:]).strip()
    index = 1
    while index < len(rows) and not rows[index].strip():
        index += 1
    if index >= len(rows):
        return "", ""
    if not _LIST_LINE.match(rows[index]):
        return rows[index].strip(), "\n".join(rows[index + 1:]).strip()
    items = []
    while index < len(rows) and _LIST_LINE.match(rows[index]):
        items.append(_LIST_LINE.sub("", rows[index]).strip())
        index += 1
    return ", ".join(items), "\n".join(rows[index:]).strip()


_SECOND_LIST = re.compile(
    r"\b(?:actually|correction|corrected|wait|sorry|oops|rather|instead|alternatively|"
    r"otherwise|or|either|maybe|perhaps|possibly|probably|unless|scratch|i\s+mean|"
    r"second\s+thought|probability|chance|likely|confiden\w*)\b|\d\s*%|/",
    re.IGNORECASE,
)


def _without_names(text: str, variables: Sequence[str]) -> str:
    for name in sorted(variables, key=len, reverse=True):
        if name:
            text = re.sub(rf"(?<!\w){re.escape(name)}(?!\w)", " ", text, flags=re.IGNORECASE)
    return text


_NAME_MASK = "\x00"


def _masked_names(text: str, variables: Sequence[str]) -> str:
    """``text`` with every variable's name (whole words, any case) masked by
    :data:`_NAME_MASK` characters of the same length, so cue words inside a name (a
    clinical variable ``Pain worse if lying down``) are not read as cues."""
    for name in sorted(variables, key=len, reverse=True):
        if name:
            text = re.sub(rf"(?<!\w){re.escape(name)}(?!\w)", lambda m: _NAME_MASK * len(m[0]),
                          text, flags=re.IGNORECASE)
    return text


def _puts_forward_another_list(text: str, listed: str, later: str, variables: Sequence[str],
                               exact: dict[str, str], folded: dict[str, str],
                               names: list[str]) -> bool:
    """A hedge or a second list anywhere after the marker (`read_variable_list`)."""
    if _SECOND_LIST.search(_without_names(listed, variables)):
        return True
    if doubt_of(f"{listed}\n{later}", tuple(variables)) is not None:
        return True
    if not later:
        return False
    if PROBABILITY.search(later):
        return True
    masked = _masked_names(later, variables)
    cue = SECOND_VALUE_CUE.search(masked)
    if cue is not None and _NAME_MASK in masked[cue.end():]:
        return True  # a variable named after "actually", "or", "instead" ...
    for paragraph in re.split(r"\n\s*\n", later):
        others, unknown = _named_variables(paragraph, exact, folded)
        if others and not unknown and set(others) != set(names):
            return True  # a paragraph that is nothing but another list
    return False


def _two_lists(text: str, lines: list[AnswerLine], exact: dict[str, str],
               folded: dict[str, str]) -> bool:
    """Two answer lines naming different variables (a line naming none, an echoed
    example, does not count)."""
    lists = set()
    for line in lines:
        names, _ = _named_variables(line.line_body(text).strip(), exact, folded)
        if names:
            lists.add(frozenset(names))
    return len(lists) > 1


def _named_variables(body: str, exact: dict[str, str],
                     folded: dict[str, str]) -> tuple[list[str], int]:
    if body.strip(_DECORATION).lower() in _EMPTY_LIST_ANSWERS:
        return [], 0
    names: list[str] = []
    unknown = 0
    for piece in re.split(r"[,;]", body):
        whole = piece.strip(_DECORATION)
        named = exact.get(whole) or folded.get(_fold(whole))
        for item in [whole] if named else re.split(r"\band\b", piece):
            item = item.strip(_DECORATION)
            if not item:
                continue
            match = exact.get(item) or folded.get(_fold(item))
            if match is None:
                unknown += 1
            elif match not in names:
                names.append(match)
    return names, unknown


def _fold(name: str) -> str:
    return re.sub(r"[\s_\-]+", " ", name.strip().lower())


def _set_scores(predicted: set[str], reference: set[str]) -> dict[str, float]:
    union = predicted | reference
    overlap = predicted & reference
    return {
        "exact": 1.0 if predicted == reference else 0.0,
        "jaccard": len(overlap) / len(union) if union else 1.0,
        "recall": len(overlap) / len(reference) if reference else 1.0,
    }


def best_family_match(predicted: Sequence[str], family: Sequence[Sequence[str]]) -> int:
    """Index of the family member closest to ``predicted``: highest Jaccard, ties broken
    by higher recall, then by the earlier (canonical first) member. 0 for an empty family."""
    best_index, best_key = 0, (-1.0, -1.0)
    chosen = set(predicted)
    for index, member in enumerate(family):
        scores = _set_scores(chosen, set(member))
        key = (scores["jaccard"], scores["recall"])
        if key > best_key:
            best_index, best_key = index, key
    return best_index


def mss_identification_metrics(
    predicted: list[str], family: list[list[str]], *, canonical_only: bool, unknown: int = 0
) -> dict[str, float]:
    """Compare a predicted variable set with the MSS family.

    The reference is the canonical MSS ``family[0]`` when ``canonical_only`` (variables
    of alternative MSSs are forbidden), else the best member (:func:`best_family_match`).
    An empty family means the empty set is the reference.

    Keys: ``exact`` (sets equal), ``jaccard`` ``|S^ ∩ S| / |S^ ∪ S|`` (1.0 when both are
    empty), ``recall`` ``|S^ ∩ S| / |S|`` (1.0 when ``S`` is empty). A list holding
    ``unknown`` items (names that are no variable) is never exact (protocols §3.8: a
    name that is no variable is not the set); Jaccard and recall count the variables.
    """
    if not family:
        reference: set[str] = set()
    elif canonical_only:
        reference = set(family[0])
    else:
        reference = set(family[best_family_match(predicted, family)])
    scores = _set_scores(set(predicted), reference)
    if unknown:
        scores["exact"] = 0.0
    return scores
