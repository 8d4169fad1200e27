"""Problems no question can settle (issue 34, `-T unanswerable=<share>`): the parts every
domain shares.

An *unanswerable* record is a problem whose target stays open whatever the askable
variables turn out to be: for every assignment of the askable variables that the rules
and observations allow, at least two target values remain possible. Its only correct
answer is `infoseek.contract.UNDETERMINED`. Each domain makes its own from problems of its
ordinary builder (`builders/<domain>/unanswerable.py`) and proves the property with its
exact engine; `settles_nothing` is the brute-force referee the tests hold them to.

The mix (`unanswerable_count`): a task with ``N`` ordinary samples at a given k and share
``s`` adds ``U = round(s * N / (1 - s))`` unanswerable samples at that k (exact
fractions, halves rounded up), so that ``U / (N + U)`` is the share nearest to ``s`` that
whole samples allow. Pure: no Inspect imports.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from fractions import Fraction
from typing import Any

from infoseek.analysis import feasible_rows
from infoseek.engine import Engine

UNANSWERABLE_SUFFIX = "unanswerable"
"""The last part of every unanswerable record's id (and so of its sample id):
``logic-mt-s0-k2-1000003-unanswerable``."""
INDEX_OFFSET = 1_000_000
"""Unanswerable record i at (seed, k) is made from the ordinary builder's problem at index
``INDEX_OFFSET + i``: never one of the ordinary split's own problems (indices stay below
every builder's `max_per_k`), and the same whatever ``per_k`` is."""


class UnanswerableShareError(ValueError):
    """A share that is not a number in [0, 1)."""


def checked_share(share: Any) -> Fraction:
    """The share as an exact fraction (``0.2`` is 1/5: the decimal as written); a value that
    is not a number in [0, 1) raises `UnanswerableShareError` naming what to fix."""
    if isinstance(share, bool) or not isinstance(share, int | float | str):
        raise UnanswerableShareError(
            f"unanswerable must be a number in [0, 1), e.g. 0.2; got {share!r}")
    try:
        value = Fraction(str(share).strip())
    except (ValueError, ZeroDivisionError, OverflowError):
        raise UnanswerableShareError(
            f"unanswerable must be a number in [0, 1), e.g. 0.2; got {share!r}") from None
    if not 0 <= value < 1:
        raise UnanswerableShareError(
            f"unanswerable must be at least 0 and below 1 (the share of samples no question "
            f"can settle); got {share!r}")
    return value


def unanswerable_count(share: Any, ordinary: int) -> int:
    """How many unanswerable samples join `ordinary` ones for the share `share` (module
    docstring): the integer nearest to ``share * ordinary / (1 - share)``, a half rounded
    up. 0 when the share or `ordinary` is 0."""
    value = checked_share(share)
    if value == 0 or ordinary <= 0:
        return 0
    exact = value * ordinary / (1 - value)
    return math.floor(exact + Fraction(1, 2))


def settles_nothing(engine: Engine, askable: Sequence[str]) -> bool:
    """Brute force (the referee): True iff no feasible assignment of `askable` leaves
    exactly one target value possible. Enumerates every feasible row of `askable`
    (`infoseek.analysis.feasible_rows`), so keep it to small instances."""
    return all(len(engine.target_values(row)) >= 2
               for row in feasible_rows(engine, list(askable)))
