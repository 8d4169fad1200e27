"""The ``choice`` answer kind: exactly one of a listed set of options (an attractor id,
a recommendation, a candidate's name).

Written as the option's label itself (`label`: ``Refer to cardiology``, ``3``). Read
(:meth:`ChoiceKind.read_text`) from the first non-empty line, after normalisation: case
folded, quotes and markdown emphasis dropped, surrounding punctuation and a leading
article (``the``, ``a``, ``an``) or ``the answer is`` removed, whitespace collapsed, and
a label the prompts write before an option set aside (``- S1``, ``1. S1``, ``attractor
S1``, ``recommendation: ...``, ``G2 = 0``: `_unlabelled`). The line must then *be* one
option, optionally followed by a justification (``(``, ``;``, a sentence end,
``because`` ...; option names are never cut); the justification and the lines after it
must not put another option forward (`_offers_another`: ``S1. Actually, S2``, ``S1 if
G2 is on; S2 if not``, ``S1 with 50% probability``; another name's value such as
``because G3 = 1`` is a fact). Reasons: ``empty``; ``ambiguous`` when two options are
named (``A or B``, ``A, B``, ``A; B``, ``A with B``, ``A plus B``), the answer is
hedged (``maybe A``, ``A (or B)``) or a second option is put forward; ``malformed`` for
any other text (no option, extra words around one). With no options listed, the
normalised text itself is the value. Paraphrases are not matched (a ``matcher`` model
role for them is future work).

Comparison: equal normalised text forms. Pure: no Inspect imports.
"""

from __future__ import annotations

import functools
import re

from infoseek.answers.answer_text import (
    ANSWER_LEAD,
    ARTICLE,
    EDGE_PUNCTUATION,
    HEDGE,
    OPENING_HEDGE,
    name_pattern,
    normalise,
    split_justification,
    tail_opening,
)
from infoseek.answers.base import AnswerKind, AnswerReading, AnswerSpec, invalid
from infoseek.answers.doubts import read_undoubted
from infoseek.answers.second_values import PROBABILITY, bound_to_a_name, justification_clauses


def option_key(text: str) -> str:
    """The form in which an answer and an option are compared."""
    key = normalise(text).strip(EDGE_PUNCTUATION)
    return ARTICLE.sub("", key).strip(EDGE_PUNCTUATION)


@functools.lru_cache(maxsize=256)
def _option_index(options: tuple[str, ...]) -> dict[str, str]:
    """key -> option label (the first label of a key wins); empty keys dropped."""
    index: dict[str, str] = {}
    for option in options:
        key = option_key(str(option))
        if key:
            index.setdefault(key, option)
    return index


def _label_text(value: object) -> str | None:
    if isinstance(value, str):
        return value
    if isinstance(value, int | float) and not isinstance(value, bool):
        return str(value)
    return None


class ChoiceKind(AnswerKind):
    """Exactly one option of ``spec.options``."""

    name = "choice"
    malformed = "Your answer could not be read as exactly one of the listed options."

    def read_text(self, body: object, spec: AnswerSpec) -> AnswerReading:
        """Read an answer body; a hedged, approximate or retracted one is ``ambiguous``
        (`infoseek.answers.doubts.read_undoubted`)."""
        return read_undoubted(lambda text: self._read_body(text, spec), body,
                              tuple(str(option) for option in spec.options))

    def _read_body(self, body: object, spec: AnswerSpec) -> AnswerReading:
        if not isinstance(body, str):
            return invalid("malformed")
        lines = [ln for ln in body.splitlines() if ln.strip()]
        if not lines:
            return invalid("empty")
        text = ANSWER_LEAD.sub("", normalise(lines[0])).strip(EDGE_PUNCTUATION)
        index = _option_index(tuple(str(option) for option in spec.options))
        text = _unlabelled(text, index)
        reading, tail = _read_head(text, index)
        if not reading.valid:
            return reading
        later = "\n".join(normalise(line) for line in lines[1:])
        if _offers_another(f"{tail}\n{later}", option_key(str(reading.value)), index):
            return invalid("ambiguous")
        return reading

    def read_tool(self, argument: object, spec: AnswerSpec) -> AnswerReading:
        text = _label_text(argument)
        if text is None:
            return invalid("bad_arguments")
        return self.read_text(text, spec)

    def compare(self, given: object, expected: object, spec: AnswerSpec | None = None) -> float:
        left, right = _label_text(given), _label_text(expected)
        if left is None or right is None:
            return 0.0
        return 1.0 if option_key(left) == option_key(right) else 0.0

    def spec_fields(self, values: object) -> dict[str, tuple]:
        labels = (_label_text(value) for value in values)  # type: ignore[union-attr]
        return {"options": tuple(dict.fromkeys(t for t in labels if t is not None))}


def _read_head(text: str, index: dict[str, str]) -> tuple[AnswerReading, str]:
    """The option the answer line opens with and the justification after it (or why
    the line holds no single option)."""
    whole = option_key(text)
    if whole in index:
        return AnswerReading(index[whole]), ""
    head, tail = split_justification(text, 0, tuple(index))
    head = option_key(head)
    if not head or (index and head not in index):
        named = _named_options(head, index)
        if len(named) > 1 or (named and (HEDGE.search(head) or OPENING_HEDGE.match(head))):
            return invalid("ambiguous"), ""
        return invalid("malformed"), ""
    if not index and (HEDGE.search(head) or OPENING_HEDGE.match(head)):
        return invalid("ambiguous"), ""
    opening = tail_opening(tail)
    joined = _JOINER.match(opening)
    after = opening[joined.end():] if joined else opening
    others = [key for key in index if key != head]
    if OPENING_HEDGE.match(opening) or any(name_pattern(k).match(after) for k in others):
        return invalid("ambiguous"), ""  # "A1 (A4)", "A1 with A4", "A1 together with A4"
    return AnswerReading(index[head] if index else head), tail


_JOINER = re.compile(r"(?:(?:along|together|combined|paired)\s+with|with|plus|as\s+well\s+as|"
                     r"alongside|and\s+also|&|\+)\s*")
"""Words that join a second option to the first (``A1 with A4``): two options, not a
justification."""
_LIST_MARK = re.compile(r"^(?:[-+\u2022\u2013\u2014]|\(?(?P<number>\d{1,3})[.)])\s*")
_LABEL_WORD = re.compile(
    r"^(?:the\s+)?(?:(?:final|chosen|correct|guideline's|cell's)\s+)?"
    r"(?:attractor|steady\s+state|state|fixed\s+point|cycle|recommendation|option|choice|"
    r"marker(?:\s+gene)?|outcome|value)(?:\s+id)?\b\s*(?:is\b|=|:)?\s*"
)
_NAME_LABEL = re.compile(r"^(?P<name>[\w'-]+(?:\s+[\w'-]+){0,3}?)\s*(?:=|:|\bis\b)\s*")
_NOT_A_LABEL = re.compile(r"\b(?:not|no|never|nor)\b")


def _unlabelled(text: str, index: dict[str, str], *, names: bool = True) -> str:
    """``text`` without the labels the prompts write before an option (protocols §3.8): a list
    bullet or number (``- S1``, ``1. S1``, unless the number is itself an option), a
    label word (``attractor S1``, ``recommendation: ...``) or a name and ``=`` / ``:``
    (``G2 = 0``, ``marker: 1``). A label is dropped only when what follows it opens with
    an option and the label names no option, no hedge and no negation. Without
    ``names`` (a justification: ``because G3 = 1``) only bullets and label words go."""
    if not index or option_key(text) in index:
        return text
    candidates = []
    mark = _LIST_MARK.match(text)
    if mark and not (mark.group("number") and mark.group("number") in index):
        candidates.append(text[mark.end() :])
    for current in [*candidates, text]:
        for pattern in (_LABEL_WORD, _NAME_LABEL) if names else (_LABEL_WORD,):
            label = pattern.match(current)
            if label is None or not current[label.end() :]:
                continue
            words = label.group(0)
            if _named_options(words, index) or HEDGE.search(words) or _NOT_A_LABEL.search(
                    words):
                continue
            candidates.append(current[label.end() :])
    for candidate in candidates:
        if _read_head(candidate, index)[0].valid:
            return candidate
    return text


def _offers_another(tail: str, value: str, index: dict[str, str]) -> bool:
    """Whether a justification puts forward an option other than ``value``: a
    probability, a clause that is another option (after its self-correction words and
    labels: ``Actually, S2``, ``or S2 if G1 is off``, ``1 (S2)``), or another option
    named, not as another name's value, after a self-correction or alternative cue."""
    if PROBABILITY.search(tail):
        return True
    if not index:
        return False
    for clause, cued in justification_clauses(tail):
        reading, _ = _read_head(_unlabelled(clause, index, names=False), index)
        if reading.valid and option_key(str(reading.value)) != value:
            return True
        if cued and any(key != value and _named_unbound(clause, key) for key in index):
            return True
    return False


def _named_unbound(text: str, key: str) -> bool:
    """Whether ``text`` names option ``key`` other than as another name's value."""
    return any(not bound_to_a_name(text, match.start())
               for match in name_pattern(key).finditer(text))


def _named_options(text: str, index: dict[str, str]) -> set[str]:
    """The distinct option keys ``text`` names, longest first, a shorter name inside a
    longer one not counted."""
    named: set[str] = set()
    taken: list[tuple[int, int]] = []
    for key in sorted(index, key=lambda k: (-len(k), k)):
        for match in name_pattern(key).finditer(text):
            low, high = match.span()
            if not any(low < end and start < high for start, end in taken):
                taken.append((low, high))
                named.add(key)
    return named

