"""Metrics and answer parsers of the problem-level protocols (protocols §3.2, 3.3, 4).

- Degree-of-underspecification (k) prediction: :func:`parse_k_prediction` reads the
  model's final ``Answer:`` line, :func:`k_prediction_metrics` scores it.
- Missing-variable (MSS) identification: :func:`parse_variable_list` reads the named
  variables, :func:`mss_identification_metrics` compares them with the MSS family.

Pure module: no Inspect imports.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from infoseek.answers.doubts import RETRACTION
from infoseek.answers.second_values import PROBABILITY, SECOND_VALUE_CUE

UNSURE = "unsure"
"""Parsed form of the answer "ambiguous but not sure how many"."""

_ANSWER_MARKER = re.compile(r"answer\s*[:：]\s*", re.IGNORECASE)
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
    """The text after the last ``Answer:`` marker (to the end of its line), or ``None``.

    Markdown emphasis around the marker (``**Answer:** 2``) is tolerated.
    """
    if not text:
        return None
    body: str | None = None
    for line in text.splitlines():
        cleaned = line.replace("*", "").replace("#", "")
        # last marker on the line wins ("Final answer: Answer: 2")
        markers = list(_ANSWER_MARKER.finditer(cleaned))
        if markers:
            body = cleaned[markers[-1].end():]
    return None if body is None else body.strip()


# ---------------------------------------------------------------------------
# k prediction


_MAX_K_DIGITS = 6
"""A predicted k written with more digits than this is not read (``None``)."""
_K_JUSTIFICATION = re.compile(
    r"[(\[;:]|[.!?](?=\s|$)|\s[-\u2013\u2014]\s|"
    r"\b(?:because|since|as|given|so|thus|hence|which|from|by|per|i\.e|e\.g)\b"
)
_K_HEDGE = re.compile(
    r"\b(?:or|either|maybe|perhaps|possibly|probably|likely|guess|between|roughly|"
    r"approximately|about|around|nearly|almost|ish|i\s+(?:think|believe|suppose)|"
    r"at\s+(?:least|most)|(?:more|less|fewer)\s+than)\b|[~≈<>/+]|\d-?ish\b"
)
_INVALID_K = object()
"""A body that names a value in an unreadable way (several values, a hedge)."""


def _answer_runs(text: str) -> list[list[str]]:
    """The bodies of the ``Answer:`` markers, grouped into runs: markers on the same line
    or on adjacent non-blank lines form one run (an echoed option list is one run)."""
    runs: list[list[str]] = []
    adjacent = False
    for line in text.splitlines():
        cleaned = line.replace("*", "").replace("#", "")
        markers = list(re.finditer(r"answer\s*[:：]", cleaned, re.IGNORECASE))
        if not markers:
            if line.strip():  # other text ends a run; a blank line does not
                adjacent = False
            continue
        ends = [m.start() for m in markers[1:]] + [len(cleaned)]
        bodies = [cleaned[m.end() : end].strip() for m, end in zip(markers, ends)]
        if adjacent and runs:
            runs[-1].extend(bodies)
        else:
            runs.append(bodies)
        adjacent = True
    return runs


def _k_value(body: str) -> object:
    """The k a body names: an int, :data:`UNSURE`, ``None`` (nothing) or
    :data:`_INVALID_K` (several values, a hedge, too many digits)."""
    lowered = " ".join(body.lower().split()).strip(_DECORATION)
    justification = _K_JUSTIFICATION.search(lowered)
    head = lowered[: justification.start()] if justification else lowered
    if not head.strip(_DECORATION):
        return None
    values: set[object] = set()
    rest = head
    if re.search(r"\bnot\s+ambiguous\b|\bunambiguous\b", rest):
        values.add(0)
        rest = re.sub(r"\bnot\s+ambiguous\b|\bunambiguous\b", " ", rest)
    if re.search(r"\bnot\s+sure\b|\bunsure\b|\buncertain\b", rest):
        values.add(UNSURE)
        rest = re.sub(r"\bnot\s+sure\b|\bunsure\b|\buncertain\b", " ", rest)
    if _K_HEDGE.search(rest):
        return _INVALID_K
    tail = lowered[justification.start():] if justification else ""
    if tail.startswith("?") or _takes_k_back(tail):
        return _INVALID_K  # "2?", "2. Actually, 3.", "2. Wait, I was wrong", "2 (60% sure)"
    for digits in re.findall(r"(?<![\w.])[0-9]+(?![\w.])", rest):
        if len(digits.lstrip("0")) > _MAX_K_DIGITS:
            return _INVALID_K
        values.add(int(digits))
    words = re.findall(r"[a-z]+", rest)
    if words and words[0] in _NUMBER_WORDS:
        values.add(_NUMBER_WORDS[words[0]])
    if not values:
        return None
    if len(values) > 1:
        return _INVALID_K
    return values.pop()


def _takes_k_back(tail: str) -> bool:
    """Whether a k answer's justification corrects, retracts or hedges it: a
    self-correction or alternative cue (``actually``, ``or``, ``wait`` ...,
    `infoseek.answers.second_values.SECOND_VALUE_CUE`), a retraction (``I was wrong``, ``let me
    reconsider``) or a probability (``60% sure``), as the seek answers read them."""
    return bool(SECOND_VALUE_CUE.search(tail) or RETRACTION.search(tail)
                or PROBABILITY.search(tail))


def parse_k_prediction(text: str | None) -> int | str | None:
    """Read the predicted degree of underspecification from the final ``Answer:`` line.

    Returns an ``int`` (``"not ambiguous"`` -> 0, ``"2"`` or ``"two"`` -> 2), the string
    :data:`UNSURE` for "ambiguous but not sure (how many)", or ``None`` when there is no
    ``Answer:`` line or it cannot be read. A trailing justification is set aside
    (``Answer: 2 (rules 1 and 3)``). Invalid (``None``): a body naming two values or a
    hedge (``2 or 3``, ``probably 2``, ``not ambiguous / 1 / 2``), and an echoed option
    list: the final ``Answer:`` line belongs to a run of ``Answer:`` lines (adjacent
    lines, or several markers on one line) naming different values, as the prompt's own
    list of options does. Also invalid (protocols §3.8: two answers are ``multiple_actions``,
    a self-correction is ``ambiguous``): a reply whose ``Answer:`` lines, apart from an
    echoed option list, name different values (``Answer: 1\nreconsidering...\nAnswer:
    3``; the same value twice is one answer), and a final body that corrects, retracts
    or hedges its value (``Answer: 2. Actually, 3.``, ``Answer: 2. Wait, I was wrong``,
    ``Answer: 2?``, ``Answer: about 2``, ``Answer: 2 (60% sure)``).
    """
    if not text or not isinstance(text, str):
        return None
    runs = _answer_runs(text)
    if not runs:
        return None
    values = [_k_value(body) for body in runs[-1]]
    named = {value for value in values if value is not None}
    if _INVALID_K in named or len(named) > 1:
        return None
    answers = set(named)
    for run in runs[:-1]:
        earlier = {_k_value(body) for body in run} - {None}
        if len(earlier) == 1:  # one answer; a run naming several is an echoed list
            answers |= earlier
    if len(answers) > 1:
        return None  # two answers: the last one does not win
    final = values[-1]
    return final if isinstance(final, int | str) else None


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


def parse_variable_list(text: str | None, variables: Sequence[str]) -> tuple[list[str], int] | None:
    """Read the variables named on the final ``Answer: a, b, c`` line.

    Items are separated by commas, semicolons or the word "and" (a piece between commas
    that is itself a variable's name, "Blood and protein on urine dipstick", is one item);
    quotes, brackets, backticks and a trailing period are ignored. Each item is matched against
    ``variables`` exactly first, then case-insensitively (with runs of whitespace,
    ``_`` and ``-`` treated alike).

    A second list put forward is read as no answer (``None``, protocols §3.8): two ``Answer:``
    lines naming different variables (a line naming none, an echoed example, does not
    count), or a self-correction, an alternative or a probability in the answer line
    outside the variables' own names (``Answer: tall. Actually, kind``, ``Answer: kind
    or tall``, ``Answer: kind (80% sure)``).

    Returns:
      ``None`` when the text has no ``Answer:`` line or puts two lists forward; otherwise
      ``(names, unknown_count)``
      where ``names`` are the matched variables in their canonical spelling, in answer
      order and without repeats, and ``unknown_count`` is the number of items that
      matched no variable (they are dropped). "none" or an empty answer gives ``([], 0)``.
    """
    body = final_answer_body(text)
    if body is None:
        return None
    exact = {name: name for name in variables}
    folded: dict[str, str] = {}
    for name in variables:
        folded.setdefault(_fold(name), name)
    if _puts_forward_another_list(text, body, variables, exact, folded):
        return None
    return _named_variables(body, exact, folded)


_SECOND_LIST = re.compile(
    r"\b(?:actually|correction|corrected|wait|sorry|oops|rather|instead|alternatively|"
    r"otherwise|or|either|maybe|perhaps|possibly|probably|unless|scratch|i\s+mean|"
    r"second\s+thought|probability|chance|likely|confiden\w*)\b|\d\s*%",
    re.IGNORECASE,
)


def _puts_forward_another_list(text: str, body: str, variables: Sequence[str],
                               exact: dict[str, str], folded: dict[str, str]) -> bool:
    """Two answer lines naming different variables, or a self-correction, alternative or
    probability word in the final body outside the variables' names."""
    rest = body
    for name in sorted(variables, key=len, reverse=True):
        if name:
            rest = re.sub(rf"(?<!\w){re.escape(name)}(?!\w)", " ", rest, flags=re.IGNORECASE)
    if _SECOND_LIST.search(rest):
        return True
    lists = set()
    for line in text.splitlines():
        markers = list(_ANSWER_MARKER.finditer(line.replace("*", "").replace("#", "")))
        if markers:
            cleaned = line.replace("*", "").replace("#", "")
            names, _ = _named_variables(cleaned[markers[-1].end():].strip(), exact, folded)
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
    predicted: list[str], family: list[list[str]], *, canonical_only: bool
) -> dict[str, float]:
    """Compare a predicted variable set with the MSS family.

    The reference is the canonical MSS ``family[0]`` when ``canonical_only`` (variables
    of alternative MSSs are forbidden), else the best member (:func:`best_family_match`).
    An empty family means the empty set is the reference.

    Keys: ``exact`` (sets equal), ``jaccard`` ``|S^ ∩ S| / |S^ ∪ S|`` (1.0 when both are
    empty), ``recall`` ``|S^ ∩ S| / |S|`` (1.0 when ``S`` is empty).
    """
    if not family:
        reference: set[str] = set()
    elif canonical_only:
        reference = set(family[0])
    else:
        reference = set(family[best_family_match(predicted, family)])
    return _set_scores(set(predicted), reference)
