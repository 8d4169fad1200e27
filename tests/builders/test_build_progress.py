"""A split built inside a task says so on stderr (issue 18, class 19: a genereg build
showed nothing for minutes under `inspect eval`): a plain line as each k starts, one at
least every 10 s while it builds, whether or not the builder reports (issue 33: a genereg
build went 31 s silent), one when it is done; nothing when the cache has it.
`domain_records` also caps per_k at the builder's cap, as `infoseek build` does."""

from __future__ import annotations

import io
import time

import pytest

from infoseek.builders import datasets
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


class Lines:
    """A stream that notes when each line was written."""

    def __init__(self) -> None:
        self.lines: list[tuple[float, str]] = []

    def write(self, text: str) -> None:
        self.lines.append((time.monotonic(), text.rstrip("\n")))

    def flush(self) -> None:
        pass


def test_tick_writes_a_line_once_the_interval_has_passed_since_the_last() -> None:
    now = [0.0]
    stream = io.StringIO()
    progress = StageProgress("x", stream=stream, interval=10.0, clock=lambda: now[0])
    now[0] = 9.9
    assert not progress.tick()
    now[0] = 10.0
    assert progress.tick()  # nothing reported yet
    progress(2, 5)  # 0 s since that line: quiet
    now[0] = 19.5
    assert not progress.tick()
    assert progress.tick(margin=1.0)  # the thread's early wake-up
    assert stream.getvalue().splitlines()[1:] == [
        "infoseek: building x: no problem done yet (10 s)",
        "infoseek: building x: 2/5 problems (20 s)",
    ]


def test_a_silent_builder_still_gets_a_line_every_interval() -> None:
    """A slowed step: the builder reports once, then computes for 3 s without a word."""
    stream = Lines()
    with StageProgress("slow", stream=stream, interval=1.0) as progress:
        progress(1, 3)
        time.sleep(3.2)
        progress(3, 3)
        progress.finish(3)
    times = [at for at, _ in stream.lines]
    texts = [text for _, text in stream.lines]
    assert texts[0] == "infoseek: building slow ..."
    assert texts[-1].startswith("infoseek: built slow: 3 problems in 3.")
    assert sum(text.startswith("infoseek: building slow: 1/3 problems (") for text in texts) >= 2
    gaps = [later - earlier for earlier, later in zip(times, times[1:])]
    assert max(gaps) < 2.0, gaps  # 1 s, and room for a loaded machine's late wake-up
    assert min(gaps[:-1]) > 0.5, gaps  # never a flood
    time.sleep(1.2)
    assert len(stream.lines) == len(texts)  # finished: the thread has stopped


def test_a_task_build_reports_while_its_builder_is_silent(monkeypatch, capsys,
                                                          tmp_path) -> None:
    """Through `domain_records`, with a builder slowed by a silent step (a genereg pool
    went 31 s without a line)."""
    monkeypatch.setenv("INFOSEEK_CACHE_DIR", str(tmp_path))
    real = datasets.resolve

    def slowed(spec):
        build = real(spec)

        def build_slowly(*args, **kwargs):
            time.sleep(1.3)
            return build(*args, **kwargs)
        return build_slowly

    monkeypatch.setattr(datasets, "resolve", slowed)
    monkeypatch.setattr(datasets, "PROGRESS_INTERVAL", 0.4)
    domain_records("logic-mt", ks=[1], per_k=1, seed=918_274)
    err = capsys.readouterr().err.splitlines()
    label = "logic-mt k=1 (per_k=1, seed=918274)"
    assert err[0] == f"infoseek: building {label} ..."
    assert sum(line.startswith(f"infoseek: building {label}: no problem done yet (")
               for line in err) >= 2
    assert err[-1].startswith(f"infoseek: built {label}: 1 problems in ")


def test_infoseek_builds_bar_is_redrawn_while_the_builder_is_silent() -> None:
    from infoseek.cli import _Bar

    stream = Lines()
    bar = _Bar(stream, interval=0.5)
    bar(1, 4)
    time.sleep(2.4)  # a slow problem: no report
    bar(4, 4)
    bar.stop()
    texts = [text for _, text in stream.lines]
    assert texts[0] == "\r[#######-----------------------] 1/4"
    assert sum(text.startswith("\r[#######-----------------------] 1/4 (")
               for text in texts) >= 2
    assert texts[-1] == "\r[##############################] 4/4"
    times = [at for at, _ in stream.lines]
    assert max(later - earlier for earlier, later in zip(times, times[1:])) < 1.6
