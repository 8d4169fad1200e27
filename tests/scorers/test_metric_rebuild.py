"""Metrics rebuild from the arguments a log records (issue 18, class 13).

Inspect writes each metric's arguments into the log header as JSON (a tuple becomes a
list) and, when it recovers a killed run (`inspect log recover`) or re-scores a log,
rebuilds the metric from them. `mean_by_group(overall_only=(...))` came back with a list
and failed in `str.startswith`, so a recovered log had ``results: None``. Here every
metric of the scorers of several task families is rebuilt the way Inspect's recovery
does (`infoseek.inspect_tasks.inspect_private.recovered_results`) and must give
the results of the run; the slow test kills a real run and recovers it."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from inspect_ai import eval, score
from inspect_ai.log import EvalLog, read_eval_log
from inspect_ai.scorer import SampleScore

from infoseek.inspect_tasks._registry import PACKAGED_TASKS
from infoseek.inspect_tasks.inspect_private import log_scorers, recovered_results
from infoseek.scorers.group_metric import mean_by_group, prefixes

ROOT = Path(__file__).resolve().parents[2]
RUNS = {
    "logic_mt": {"k": [1, 2], "per_k": 1},
    "clinguide_mt": {"k": 1, "per_k": 2},
    "logic_q_detection": {"per_k": 2},
    "incomplete_questions": {"count": 2},
}


def logged_lists(log: EvalLog) -> list[str]:
    """The metric arguments the log holds as lists (what a tuple became)."""
    return [f"{metric.name}.{key}" for scorer in log.eval.scorers for metric in scorer.metrics
            for key, value in (metric.options or {}).items() if isinstance(value, list)]


@pytest.mark.parametrize("name", sorted(RUNS))
def test_recovery_rebuilds_the_same_metrics(tmp_path, name) -> None:
    [log] = eval(PACKAGED_TASKS[name](**RUNS[name]), model="infoseek/optimal",
                 log_dir=str(tmp_path), display="none")
    assert log.status == "success" and log.results is not None
    if name in ("logic_mt", "incomplete_questions"):
        assert logged_lists(log)  # the case that failed: tuples logged as lists
    rebuilt = recovered_results(log)
    assert rebuilt is not None
    assert [s.name for s in rebuilt.scores] == [s.name for s in log.results.scores]
    for before, after in zip(log.results.scores, rebuilt.scores, strict=True):
        assert {k: m.value for k, m in after.metrics.items()} == {
            k: m.value for k, m in before.metrics.items()}, before.name


def test_rescoring_a_log_gives_the_same_metrics(tmp_path) -> None:
    [log] = eval(PACKAGED_TASKS["logic_mt"](k=1, per_k=1), model="infoseek/random",
                 log_dir=str(tmp_path), display="none")
    rescored = score(log, log_scorers(log), action="overwrite", display="none")
    for before, after in zip(log.results.scores, rescored.results.scores, strict=True):
        assert {k: m.value for k, m in after.metrics.items()} == {
            k: m.value for k, m in before.metrics.items()}, before.name


def test_the_metric_takes_its_arguments_as_a_log_records_them() -> None:
    assert prefixes(["a_", "b_"]) == ("a_", "b_") == prefixes(("a_", "b_"))
    assert prefixes("a_") == ("a_",) and prefixes(None) == ()
    from inspect_ai.scorer import Score

    samples = [SampleScore(score=Score(value={"a_x": 0.0, "b": 1.0}), sample_metadata={"k": 1}),
               SampleScore(score=Score(value={"a_x": 0.0, "b": 0.0}), sample_metadata={"k": 2})]
    as_tuple = mean_by_group(overall_only=("a_",), skip_zero=("a_",))(samples)
    as_list = mean_by_group(overall_only=["a_"], skip_zero=["a_"])(samples)
    assert as_tuple == as_list and "a_x" not in as_list and as_list["b_k1"] == 1.0


STALLED_TASK = '''
import asyncio
import os
from pathlib import Path

from inspect_ai import task, task_with
from inspect_ai.solver import chain, solver

from infoseek.inspect_tasks.logic_mt import logic_mt


@solver
def stall_last(last_id):
    async def solve(state, generate):
        if state.sample_id == last_id:
            Path(os.environ["STALL_MARKER"]).write_text("stalled")
            await asyncio.sleep(600)
        return state
    return solve


@task
def stalled():
    base = logic_mt(k=1, per_k=2)
    last = base.dataset[len(base.dataset) - 1].id
    return task_with(base, solver=chain(stall_last(last), base.solver))
'''


@pytest.mark.slow
def test_a_killed_run_recovers_with_its_metrics(tmp_path) -> None:
    """A real run is killed while its last sample stalls; `inspect log recover` writes
    the other samples' metrics (``results`` not None)."""
    (tmp_path / "stalled.py").write_text(STALLED_TASK, encoding="utf-8")
    logs = tmp_path / "logs"
    marker = tmp_path / "stalled.marker"
    env = {**os.environ, "COLUMNS": "200", "STALL_MARKER": str(marker)}
    run = subprocess.Popen(
        [sys.executable, "-m", "inspect_ai", "eval", "stalled.py", "--model",
         "infoseek/optimal", "--max-samples", "1", "--log-dir", str(logs), "--display",
         "none"], cwd=tmp_path, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
        start_new_session=True)
    try:
        wait_for(marker)
        time.sleep(3)  # the completed samples reach the sample buffer
    finally:
        os.killpg(run.pid, signal.SIGKILL)
        run.wait(timeout=30)
    listed = recoverable(logs, env)
    recovered = tmp_path / "recovered.eval"
    done = subprocess.run(
        [sys.executable, "-m", "inspect_ai", "log", "recover", listed, "--output",
         str(recovered)], cwd=tmp_path, env=env, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    assert "Unable to recompute metrics" not in done.stdout + done.stderr
    log = read_eval_log(str(recovered))
    assert log.results is not None
    assert {s.name for s in log.results.scores} >= {"final_answer", "invalid"}
    answered = [s for s in log.samples if s.scores]
    assert len(answered) == 3


def wait_for(marker: Path, timeout: float = 180) -> None:
    deadline = time.monotonic() + timeout
    while not marker.exists():
        if time.monotonic() > deadline:
            raise AssertionError("the run did not reach its stalled sample")
        time.sleep(0.5)


def recoverable(logs: Path, env: dict[str, str]) -> str:
    """The killed run's log, as `inspect log recover --list` names it, once it lists
    three complete samples (flushed to the log or in the sample buffer)."""
    listing = subprocess.run(
        [sys.executable, "-m", "inspect_ai", "log", "recover", "--list", "--json",
         "--log-dir", str(logs)], env=env, capture_output=True, text=True, timeout=60)
    [entry] = json.loads(listing.stdout)
    assert entry["completed_samples"] + entry["flushed_samples"] == 3, entry
    return str(entry["name"])
