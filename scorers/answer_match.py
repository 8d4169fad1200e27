"""Whether a recorded final answer equals the hidden target value (:func:`answers_match`,
:func:`answer_score`), compared by the answer kind's rule from the registry
`infoseek.answers`.

Numbers compare exactly, as fractions, so no answer text can overflow or raise; a
sequence may earn partial credit in :func:`answer_score`. Pure: no Inspect imports.
"""

from __future__ import annotations

from typing import Any

from infoseek.answers import AnswerKind, AnswerSpec, answer_kind
from infoseek.answers.base import same_text
from infoseek.answers.number import numbers_close


def _is_number(value: Any) -> bool:
    return isinstance(value, int | float) and not isinstance(value, bool)


def answer_score(
    answer: Any, target_value: Any, *, kind: str | AnswerSpec | AnswerKind | None = None
) -> float:
    """How far a parsed final answer is credited against the hidden target value: 1.0
    equal, 0.0 wrong, in between the partial credit of the kind (a ``sequence`` by its
    item edit distance). ``kind`` (a registered name, a spec or a kind) picks the
    comparison; without it, numbers compare as numbers (when at least one side is a
    non-boolean number) and everything else by its normalised text form, as
    :func:`answers_match` documents. ``None`` never matches; no value makes this raise.
    """
    if answer is None or target_value is None:
        return 0.0
    if kind is None:
        if _is_number(answer) or _is_number(target_value):
            return 1.0 if numbers_close(answer, target_value) else 0.0
        return 1.0 if same_text(answer, target_value) else 0.0
    spec = kind if isinstance(kind, AnswerSpec) else None
    comparison = answer_kind(kind)  # an unknown kind name is a setup error: it raises
    try:
        score = float(comparison.compare(answer, target_value, spec))
    except (TypeError, ValueError, ArithmeticError, RecursionError):
        return 0.0
    return min(1.0, max(0.0, score)) if score == score else 0.0


def answers_match(
    answer: Any, target_value: Any, *, kind: str | AnswerSpec | AnswerKind | None = None
) -> bool:
    """Whether a parsed final answer equals the hidden target value (full credit in
    :func:`answer_score`).

    Numbers (the ``number`` kind, and without ``kind`` whenever one side is a non-boolean
    number) compare exactly, as fractions, with the tolerance of ``math.isclose``:
    ``|a - b| <= max(rel_tol * max(|a|, |b|), abs_tol)`` (`infoseek.answers.number`:
    ``REL_TOL`` 1e-6, ``ABS_TOL`` 1e-9); the other side must read as a number (``"p/q"``
    and decimal strings do), else there is no match. Exact arithmetic never overflows: a
    400-digit answer against 42 is simply ``False``. Without ``kind`` everything else
    compares by a normalised text form (strings stripped and lower-cased, other values as
    sorted-key JSON, so ``True`` and ``"true"`` agree and lists compare element-wise).
    ``None`` never matches, and no value makes this raise.
    """
    return answer_score(answer, target_value, kind=kind) >= 1.0
