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
whole samples allow.

The search (`first_unanswerable`) is shared too: a domain that makes its records by
*withholding* needed variables tries, on ordinary problems at indices ``INDEX_OFFSET + i
+ t * TRY_STRIDE`` (t = 0, 1, ...), sets of variables in its own order (one seeded
generator per record, drawn from across the tries), and keeps the first set whose removal
from the askable set leaves the target open whatever is asked. The domain supplies the
candidate sets, the exact test, the record transform and its validator; for domains whose
engine answers "open whatever the askable variables are" in one pass,
`open_whatever_is_asked` builds the test from it. Pure: no Inspect imports.
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable, Sequence
from fractions import Fraction
from typing import Any

from infoseek.analysis import feasible_rows, is_sufficient
from infoseek.engine import Engine
from infoseek.record_views import askable_variables

UNANSWERABLE_SUFFIX = "unanswerable"
"""The last part of every unanswerable record's id (and so of its sample id):
``logic-mt-s0-k2-1000003-unanswerable``."""
INDEX_OFFSET = 1_000_000
"""Unanswerable record i at (seed, k) is made from the ordinary builder's problem at index
``INDEX_OFFSET + i``: never one of the ordinary split's own problems (indices stay below
every builder's `max_per_k`), and the same whatever ``per_k`` is."""
TRY_STRIDE = 100_000
"""Try t of unanswerable record i takes the ordinary problem at ``INDEX_OFFSET + i + t *
TRY_STRIDE``; while i stays below ``TRY_STRIDE``, no two records' tries meet."""

Record = dict[str, Any]
WithheldSets = Callable[[Record, random.Random], list[list[str]]]
"""``sets(ordinary, rng)``: the variable sets to try withholding, in order."""
LeavesOpen = Callable[[Record], Callable[[list[str]], bool]]
"""``leaves_open(ordinary)(withheld)``: exactly whether, with `withheld` unaskable, no
answers to the askable variables settle the target (the outer call may build an engine
once per ordinary problem)."""


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


def first_unanswerable(what: str, *, seed: int, k: int, index: int, random_stream: str,
                       tries: int, ordinary: Callable[[int], Record],
                       withheld_sets: WithheldSets, leaves_open: LeavesOpen,
                       withhold: Callable[[Record, list[str]], Record],
                       validate: Callable[[Record], list[str]]) -> Record:
    """Unanswerable record `index` at (seed, k) of the `what` domain (module docstring):
    on the ordinary problems ``ordinary(INDEX_OFFSET + index + t * TRY_STRIDE)`` for t in
    ``range(tries)``, the first of `withheld_sets` (drawn with one generator seeded by
    `random_stream`, seed, k and index) that `leaves_open` the target becomes
    ``withhold(problem, set)``. Deterministic in (seed, k, index). A record `validate`
    rejects is a bug, and finding none in `tries` problems is refused: both raise
    `BuildError`."""
    from infoseek.builders.jobs import BuildError

    rng = random.Random(f"{random_stream}:{seed}:{k}:{index}")
    for attempt in range(tries):
        base = ordinary(INDEX_OFFSET + index + attempt * TRY_STRIDE)
        left_open = leaves_open(base)
        for withheld in withheld_sets(base, rng):
            if not left_open(withheld):
                continue
            record = withhold(base, withheld)
            errors = validate(record)
            if errors:
                raise BuildError(f"unanswerable {what} record {record['id']} rejected: "
                                 f"{errors}")
            return record
    raise BuildError(f"no unanswerable {what} record at seed={seed}, k={k}, index={index} "
                     f"after {tries} ordinary problems")


def canonical_singles(record: Record, rng: random.Random) -> list[list[str]]:
    """Each variable of the canonical MSS alone, in an order drawn with `rng` (none, and
    nothing drawn, when the record has no canonical MSS)."""
    if not record["mss_family"] or not record["mss_family"][0]:
        return []
    singles = [[name] for name in sorted(record["mss_family"][0])]
    rng.shuffle(singles)
    return singles


def canonical_then_family(record: Record, rng: random.Random) -> list[list[str]]:
    """`canonical_singles`, then the whole canonical MSS, then every variable of the MSS
    family: each set once, the empty set never."""
    sets = [*canonical_singles(record, rng)]
    if record["mss_family"]:
        sets += [sorted(record["mss_family"][0]),
                 sorted({name for member in record["mss_family"] for name in member})]
    return [s for i, s in enumerate(sets) if s and s not in sets[:i]]


def open_whatever_is_asked(settles_nothing_fast: Callable[[Any, list[str]], bool]
                           ) -> LeavesOpen:
    """The `LeavesOpen` test of a domain whose engine answers, exactly and in one pass,
    whether no assignment of a set of askable variables settles the target
    (``settles_nothing_fast(engine, askable)``): with `withheld` unaskable (and the
    alternative-only variables askable), the rest together are not sufficient (the
    engine's fast path, checked first) and settle nothing."""
    from infoseek.records import engine_from_record

    def leaves_open(record: Record) -> Callable[[list[str]], bool]:
        engine = engine_from_record(record)
        everything = askable_variables(record, forbid_alternatives=False)

        def test(withheld: list[str]) -> bool:
            askable = [name for name in everything if name not in withheld]
            return (not is_sufficient(engine, askable)
                    and settles_nothing_fast(engine, askable))
        return test
    return leaves_open
