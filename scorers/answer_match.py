"""Whether a recorded final answer equals the hidden target value (:func:`answers_match`).

Numbers compare exactly, as fractions, so no answer text can overflow or raise; other
values compare by a normalised text form. Pure: no Inspect imports.
"""

from __future__ import annotations

import json
import math
import re
from fractions import Fraction
from typing import Any


def _is_number(value: Any) -> bool:
    return isinstance(value, int | float) and not isinstance(value, bool)


def _as_number(value: Any) -> Any:
    """The exact value (a ``Fraction``) of a number or of a numeric string: an integer,
    a decimal, scientific notation or ``"p/q"``. ``None`` for anything else, for a
    non-finite float, and for strings too long or with too large an exponent to be a
    recorded answer (so a 5,000-digit string costs nothing and never raises)."""
    if _is_number(value):
        if isinstance(value, float):
            return Fraction(repr(value)) if math.isfinite(value) else None
        return Fraction(value)
    if not isinstance(value, str) or len(value) > 4000:
        return None
    text = value.strip()
    fraction = re.fullmatch(r"([+-]?[0-9]+)\s*/\s*([0-9]+)", text)  # exact "p/q" values
    if fraction:
        denominator = int(fraction.group(2))
        return Fraction(int(fraction.group(1)), denominator) if denominator else None
    decimal = re.fullmatch(r"([+-]?(?:[0-9]+\.?[0-9]*|\.[0-9]+))(?:[eE]([+-]?[0-9]{1,3}))?", text)
    if decimal is None:
        return None
    return Fraction(decimal.group(1)) * Fraction(10) ** int(decimal.group(2) or 0)


def _normalised_text(value: Any) -> str:
    if isinstance(value, str):
        return value.strip().lower()
    return json.dumps(value, sort_keys=True).lower()


def answers_match(
    answer: Any, target_value: Any, *, rel_tol: float = 1e-6, abs_tol: float = 1e-9
) -> bool:
    """Whether a parsed final answer equals the hidden target value.

    Numbers (when at least one side is a non-boolean number) compare exactly, as
    fractions, with the tolerance of ``math.isclose``: ``|a - b| <= max(rel_tol *
    max(|a|, |b|), abs_tol)``; the other side must read as a number (``"p/q"`` and
    decimal strings do), else there is no match. Exact arithmetic never overflows: a
    400-digit answer against 42 is simply ``False``. Everything else compares by a
    normalised text form (strings stripped and lower-cased, other values as sorted-key
    JSON, so ``True`` and ``"true"`` agree and lists compare element-wise). ``None``
    never matches, and no value makes this raise.
    """
    if answer is None or target_value is None:
        return False
    if type(answer) is type(target_value) and answer == target_value:
        return True
    if _is_number(answer) or _is_number(target_value):
        left, right = _as_number(answer), _as_number(target_value)
        if left is None or right is None:
            return False
        tolerance = max(abs(left), abs(right)) * Fraction(rel_tol)
        return abs(left - right) <= max(tolerance, Fraction(abs_tol))
    try:
        return _normalised_text(answer) == _normalised_text(target_value)
    except (TypeError, ValueError, RecursionError):  # values no JSON can hold
        return False
