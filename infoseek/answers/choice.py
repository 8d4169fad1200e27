"""The ``choice`` answer kind: exactly one of a listed set of options (an attractor id,
a recommendation, a candidate's name).

Written as the option's label itself (`label`: ``Refer to cardiology``, ``3``). Read
(:meth:`ChoiceKind.read_text`) from the first non-empty line, after normalisation: case
folded, quotes and markdown emphasis dropped, surrounding punctuation and a leading
article (``the``, ``a``, ``an``) or ``the answer is`` removed, whitespace collapsed. The
line must then *be* one option, optionally followed by a justification (``(``, ``;``, a
sentence end, ``because`` ...; option names are never cut). Reasons: ``empty``;
``ambiguous`` when two options are named (``A or B``, ``A, B``, ``A; B``) or the answer
is hedged (``maybe A``, ``A (or B)``); ``malformed`` for any other text (no option, extra
words around one). With no options listed, the normalised text itself is the value.
Paraphrases are not matched (a ``matcher`` model role for them is future work).

Comparison: equal normalised text forms. Pure: no Inspect imports.
"""

from __future__ import annotations

import functools

from infoseek.answers.base import (
    ANSWER_LEAD,
    ARTICLE,
    EDGE_PUNCTUATION,
    HEDGE,
    OPENING_HEDGE,
    AnswerKind,
    AnswerReading,
    AnswerSpec,
    invalid,
    name_pattern,
    normalise,
    split_justification,
    tail_opening,
)


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
        if not isinstance(body, str):
            return invalid("malformed")
        line = next((ln for ln in body.splitlines() if ln.strip()), "")
        if not line:
            return invalid("empty")
        text = ANSWER_LEAD.sub("", normalise(line)).strip(EDGE_PUNCTUATION)
        index = _option_index(tuple(str(option) for option in spec.options))
        whole = option_key(text)
        if whole in index:
            return AnswerReading(index[whole])
        head, tail = split_justification(text, 0, tuple(index))
        head = option_key(head)
        if not head or (index and head not in index):
            named = _named_options(head, index)
            if len(named) > 1 or (named and (HEDGE.search(head) or OPENING_HEDGE.match(head))):
                return invalid("ambiguous")
            return invalid("malformed")
        if not index and (HEDGE.search(head) or OPENING_HEDGE.match(head)):
            return invalid("ambiguous")
        opening = tail_opening(tail)
        others = (key for key in index if key != head)
        if OPENING_HEDGE.match(opening) or any(name_pattern(k).match(opening) for k in others):
            return invalid("ambiguous")
        return AnswerReading(index[head] if index else head)

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

