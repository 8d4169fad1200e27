"""Slow: re-validate built problems of the default split with the brute-force referee.

Every problem of the default Logic-Q-MT split (seed 0, 200 per k, k = 1..4) whose open
(unobserved) variables number at most OPEN_LIMIT is checked: the referee enumerates all
assignments of the open variables and recomputes Known, k and the whole MSS family by
definition (pairs of worlds), sharing no code with the fast search.

    python -m pytest -m slow tests/engines/test_referee_default_split.py
"""

from __future__ import annotations

import pytest

from infoseek.builders.logic.logic_mt import build_split
from infoseek.engines.bruteforce import horn_referee, referee_known, referee_mss_family

OPEN_LIMIT = 16


@pytest.mark.slow
def test_default_split_matches_referee() -> None:
    records = build_split(0, 200, [1, 2, 3, 4])
    checked = 0
    for record in records:
        open_count = len(record["variables"]) - len(record["observed"])
        if open_count > OPEN_LIMIT:
            continue
        referee = horn_referee(record["variables"], record["engine"]["clauses"],
                               record["observed"], record["target"])
        assert not referee_known(referee), record["id"]
        k, family = referee_mss_family(referee, record["queryable"], record["k"])
        assert k == record["k"], record["id"]
        assert sorted(family) == sorted(tuple(sorted(s)) for s in record["mss_family"]), (
            record["id"])
        checked += 1
    assert checked >= 300, f"only {checked} problems were small enough for the referee"
