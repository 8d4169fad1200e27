"""Text normalisation and final-answer parsing shared by the seek-loop parsers.

Pure functions (no Inspect imports): yes/no answers about a boolean target and numeric
answers (int, decimal, fraction ``p/q``, with words and units around them), returned
exactly (an int or a ``"p/q"`` string).
"""

from __future__ import annotations

import re
from fractions import Fraction


def _collapse(text: str) -> str:
    return " ".join(text.split())



_DROPPED_CHARS = str.maketrans(dict.fromkeys("*`\"'“”«»"))
_EDGE_UNDERSCORES = re.compile(r"(?<![a-z0-9])_+|_+(?![a-z0-9])")
_EDGE_PUNCTUATION = " \t?.!,;:()[]{}<>"


def _normalise(text: str) -> str:
    """Lowercase, drop markdown emphasis and quotes, collapse whitespace."""
    text = text.replace("\u2019", "'").replace("\u2018", "'").lower()
    text = re.sub(r"\bisn't\b", "is not", text)
    text = text.translate(_DROPPED_CHARS)
    text = _EDGE_UNDERSCORES.sub(" ", text)
    return _collapse(text)


def _mentions(text: str, name: str) -> bool:
    return re.search(rf"(?<![\w-]){re.escape(name)}(?![\w-])", text) is not None



def parse_boolean_answer(text: object, *, entity: str, target: str) -> bool | None:
    """Read a yes/no answer about ``target``; ``None`` when it cannot be read.

    Accepted: ``yes`` / ``no`` / ``true`` / ``false``; ``Alice is X`` /
    ``Alice is not X`` / ``Alice isn't X`` (also without ``Alice is``); a
    yes/no word followed by a statement that agrees with it (``No, Alice is not
    X``). Only the first sentence is read. A statement about any attribute other
    than the target, or one that contradicts its yes/no word, is unreadable.
    """
    if isinstance(text, bool):
        return text
    if not isinstance(text, str):
        return None
    sentence = re.split(r"[.!;\n]", _normalise(text), maxsplit=1)[0].strip(" ,:-")
    sentence = re.sub(r"^(?:the\s+)?(?:final\s+)?answer\s+is\s*:?\s*", "", sentence)
    polarity: bool | None = None
    word = re.match(r"^(yes|no|true|false)\b[\s,:-]*", sentence)
    if word:
        polarity = word.group(1) in ("yes", "true")
        sentence = sentence[word.end() :]
    sentence = sentence.strip(_EDGE_PUNCTUATION + "-")
    if not sentence:
        return polarity
    ent = re.escape(_collapse(entity.lower())) if isinstance(entity, str) else ""
    subject = rf"(?:{ent}\s+)?" if ent else ""
    statement = re.fullmatch(rf"{subject}(?:is\s+)?(not\s+)?(.+)", sentence)
    if statement is None or statement.group(2).strip() != _collapse(target.lower()):
        return None
    value = statement.group(1) is None
    if polarity is not None and polarity != value:
        return None
    return value


ANSWER_KINDS = ("boolean", "number")
_NUMBER = re.compile(
    r"(?<![\w.])([+-]?)(\d{1,3}(?:,\d{3})+|\d+)(?:\.(\d+))?(?:\s*/\s*(\d+)(?![\d.]))?(?![\w])"
)


def parse_number_answer(text: object) -> int | str | None:
    """Read one number from an answer; ``None`` when there is none.

    Accepts integers (``42``, ``1,200``), decimals (``42.0``, ``-3.5``) and fractions
    (``85/2``), with words, units or currency around them (``about $42 dollars``,
    ``T = 42``). Only the first non-empty line is read; when it holds several numbers the
    last one is taken (``B + P = 10 + 32 = 42`` reads 42). The value is exact and
    JSON-safe: an int when integral, else a ``"p/q"`` string in lowest terms (``"85/2"``).
    """
    if isinstance(text, bool):
        return None
    if isinstance(text, int):
        return text
    if isinstance(text, float):
        text = repr(text)
    if not isinstance(text, str):
        return None
    line = next((ln for ln in text.splitlines() if ln.strip()), "")
    matches = list(_NUMBER.finditer(line))
    if not matches:
        return None
    sign, whole, decimals, denominator = matches[-1].groups()
    value = Fraction(whole.replace(",", "") + ("." + decimals if decimals else ""))
    if denominator is not None:
        if int(denominator) == 0:
            return None
        value /= int(denominator)
    if sign == "-":
        value = -value
    return int(value) if value.denominator == 1 else f"{value.numerator}/{value.denominator}"
