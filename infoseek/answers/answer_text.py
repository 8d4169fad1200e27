"""Text helpers every answer reader uses: normalising model text, finding a name as a
whole word, and cutting an answer's head from the justification that follows it.

Pure: no Inspect imports. Nothing here raises on model text.
"""

from __future__ import annotations

import functools
import re


def collapse(text: str) -> str:
    return " ".join(text.split())


_DROPPED_CHARS = str.maketrans(dict.fromkeys("*`\"'“”«»"))
_EDGE_UNDERSCORES = re.compile(r"(?<![a-z0-9])_+|_+(?![a-z0-9])")
EDGE_PUNCTUATION = " \t?.!,;:()[]{}<>"
_ISNT = re.compile(r"\bisn't\b")


def normalise(text: str) -> str:
    """Lowercase, drop markdown emphasis and quotes, collapse whitespace."""
    text = text.replace("\u2019", "'").replace("\u2018", "'").lower()
    text = _ISNT.sub("is not", text)
    text = text.translate(_DROPPED_CHARS)
    text = _EDGE_UNDERSCORES.sub(" ", text)
    return collapse(text)


@functools.lru_cache(maxsize=1024)
def name_pattern(name: str) -> re.Pattern[str]:
    """``name`` as a whole word (not inside a longer name); compiled once."""
    return re.compile(rf"(?<![\w-]){re.escape(name)}(?![\w-])")


def mentions(text: str, name: str) -> bool:
    return name_pattern(name).search(text) is not None


JUSTIFICATION_WORDS = (
    "because|since|as|given|due|so|thus|hence|therefore|which|according|based|from|by|"
    "per|via|using|considering|following|with|where|when|if|after|i\\.e|e\\.g"
)
_JUSTIFICATION = re.compile(
    rf"[(\[;]|[.!?](?=\s|$)|\b(?:{JUSTIFICATION_WORDS})\b", re.IGNORECASE
)
OPENING_HEDGE = re.compile(
    r"(?:or|either|nor|maybe|perhaps|possibly|probably|if|unless|otherwise|alternatively)\b",
    re.IGNORECASE,
)
HEDGE = re.compile(
    r"/|\b(?:or|either|nor|maybe|perhaps|possibly|probably|might|may|could|unsure|"
    r"uncertain|unclear|undetermined|unknown)\b"
)
"""A hedge anywhere in a (normalised) answer head: the answer is not one value."""


def split_justification(
    text: str, start: int = 0, protected: tuple[str, ...] = ()
) -> tuple[str, str]:
    """``(head, tail)``: the tail starts at the first justification marker (``(``, ``[``,
    ``;``, a sentence end, or a word such as ``because``) at or after ``start`` that is
    not inside one of the ``protected`` names; it is empty when there is none."""
    spans = [
        match.span()
        for name in protected
        if name
        for match in name_pattern(name).finditer(text)
    ]
    for marker in _JUSTIFICATION.finditer(text, start):
        if not any(low <= marker.start() < high for low, high in spans):
            return text[: marker.start()], text[marker.start() :]
    return text, ""


def tail_opening(tail: str) -> str:
    """A justification without the marker and punctuation it opens with."""
    return tail.lstrip(" \t.!?;,:([-")


ANSWER_LEAD = re.compile(r"^(?:the\s+)?(?:final\s+)?answer\s*(?:is\s*)?:?\s*")
"""``the final answer is`` and the like, before an answer (normalised text)."""

ARTICLE = re.compile(r"^(?:the|a|an)\s+")
