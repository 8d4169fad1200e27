"""A split built inside a task says so on stderr (issue 18, class 19: a genereg build
showed nothing for minutes under `inspect eval`): a plain line as each k starts, one at
most every 10 s while the builder reports, one when it is done; nothing when the cache
has it. `domain_records` also caps per_k at the builder's cap, as `infoseek build` does."""

from __future__ import annotations

import io

import pytest

from infoseek.builders.datasets import domain_records
from infoseek.builders.jobs import StageProgress
from infoseek.domains import get_builder


def test_stage_progress_prints_plain_lines_at_most_every_interval() -> None:
    now = [100.0]
    stream = io.StringIO()
    progress = StageProgress("genereg k=2", stream=stream, interval=10.0,
                             clock=lambda: now[0])
    for done, at in ((1, 101.0), (2, 109.0), (3, 111.0), (4, 115.0), (5, 121.5)):
        now[0] = at
        progress(done, 10)
    now[0] = 130.0
    progress(10, 10)  # the last one is said by finish
    progress.finish(10)
    assert stream.getvalue().splitlines() == [
        "infoseek: building genereg k=2 ...",
        "infoseek: building genereg k=2: 3/10 problems (11 s)",
        "infoseek: building genereg k=2: 5/10 problems (22 s)",
        "infoseek: built genereg k=2: 10 problems in 30.0 s",
    ]
    assert "\r" not in stream.getvalue()


def test_a_closed_stream_never_stops_a_build() -> None:
    stream = io.StringIO()
    stream.close()
    StageProgress("x", stream=stream).finish(0)


def test_a_built_split_reports_and_a_cached_one_is_quiet(capsys) -> None:
    records = domain_records("logic-mt", ks=[1, 2], per_k=1, seed=918_273)
    err = capsys.readouterr().err.splitlines()
    assert err[0] == "infoseek: building logic-mt k=1 (per_k=1, seed=918273) ..."
    assert [line for line in err if line.startswith("infoseek: built ")] == [
        line for line in err if line.startswith("infoseek: built logic-mt k=")]
    assert sum(line.startswith("infoseek: built logic-mt k=") for line in err) == 2
    again = domain_records("logic-mt", ks=[1, 2], per_k=1, seed=918_273)
    assert again == records
    assert "infoseek:" not in capsys.readouterr().err


def test_domain_records_caps_per_k_at_the_builders_cap() -> None:
    cap = get_builder("genereg")[1].max_per_k
    with pytest.raises(ValueError, match=f"per_k must be at most {cap} for genereg"):
        domain_records("genereg", ks=[1], per_k=cap + 1)
