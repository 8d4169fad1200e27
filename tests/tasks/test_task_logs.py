"""What the log of every infoseek task says and allows: its version names the data it ran
on, and `inspect score <log>` re-scores it with the same result.

Every packaged task runs once, tiny (`limit=1`, `infoseek/optimal`), by its registry name.

Versions: `eval.task_version` is ``"<eval version>/<builder>@<BuilderSpec.data_version>"``, the
eval version and the data version of the builder the task reads
(`infoseek.inspect_tasks.versions.task_version`), and follows that version.

Re-scoring: a log records each scorer without its package (`final_answer`, not
`infoseek/final_answer`) and `inspect score` rebuilds it from that name; the entry point
registers every infoseek scorer under it
(`infoseek.inspect_tasks.inspect_private.register_recorded_scorer_names`), and refuses a
name that is also one of Inspect's built-in scorers. Each log goes
through the `inspect` command in this process (the real CLI entry point, for speed);
`logic_mt` also through `inspect score` in a fresh process, and so does a log of the task
file (`inspect eval inspect_tasks/logic_mt.py`).
"""

from __future__ import annotations

import asyncio
import dataclasses
import json
import logging
import subprocess
import sys
from importlib.metadata import entry_points
from pathlib import Path
from typing import Any

import pytest
from inspect_ai.log import EvalLog, headline_metric, read_eval_log
from inspect_ai.model import ChatMessageUser, ModelName
from inspect_ai.scorer import CORRECT, Scorer, Target, scorer
from inspect_ai.solver import TaskState
from inspect_ai.util import registry_create, registry_info

from infoseek import domains
from infoseek.builders.math import incomplete_math
from infoseek.inspect_tasks import assembly, viewer
from infoseek.inspect_tasks._registry import PACKAGED_TASKS, RECORDED_SCORER_NAMES
from infoseek.inspect_tasks.inspect_private import (
    HEADLINE_LOGGER,
    RecordedNameError,
    register_recorded_scorer_names,
)
from infoseek.inspect_tasks.report.declarations import REPORTS
from infoseek.inspect_tasks.versions import EVAL_VERSION, task_version
from tests.support.common import text_output
from tests.tasks.tiny_runs import run_tiny_tasks, tiny_task

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module")
def logs(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    runs = run_tiny_tasks(tmp_path_factory.mktemp("score-logs"))
    return {name: Path(log.location) for name, log in runs.items()}


# ------------------------------------------------------------------ task versions

BUILDER_OF = (("gsme_mt_ext", "gsme-mt-ext"), ("gsme_", "gsme-mt"), ("gsm_", "gsme-mt"),
              ("logic_q", "logic-q"), ("logic_", "logic-mt"), ("planning_q", "planning-q"),
              ("planning_", "planning-mt"), ("genereg_", "genereg"),
              ("clinguide_", "clinguide"), ("twenty_questions", "twenty-questions"))
"""Which builder a task reads, by the first matching task-name prefix (the task pages of
docs/tasks/); `incomplete_questions` reads the incomplete-math builder."""


def expected_version(task: str) -> str:
    if task == "incomplete_questions":
        return task_version(incomplete_math.SPEC.name, incomplete_math.SPEC.data_version)
    builder = next(b for prefix, b in BUILDER_OF if task.startswith(prefix))
    return task_version(builder, domains.get_builder(builder)[1].data_version)


@pytest.mark.parametrize("name", sorted(PACKAGED_TASKS))
def test_every_task_log_names_the_builder_version(name: str, logs: dict[str, Path]) -> None:
    log = read_eval_log(str(logs[name]), header_only=True)
    assert log.eval.task_version == expected_version(name)


def test_the_version_follows_the_builder_version(monkeypatch: pytest.MonkeyPatch) -> None:
    names = ("logic_mt", "logic_mss", "logic_q")
    before = {name: tiny_task(name).version for name in names}
    real = assembly.get_builder

    def bumped(builder: str):
        domain, spec = real(builder)
        if builder == "logic-mt":
            spec = dataclasses.replace(spec, version="9.9.9-test")
        return domain, spec

    monkeypatch.setattr(assembly, "get_builder", bumped)
    after = {name: tiny_task(name).version for name in names}
    assert before["logic_mt"] == before["logic_mss"] == expected_version("logic_mt")
    assert after["logic_mt"] == after["logic_mss"] == f"{EVAL_VERSION}/logic-mt@9.9.9-test"
    assert after["logic_q"] == before["logic_q"] == expected_version("logic_q")


# ------------------------------------------------------------------ inspect score


def scores_of(log: EvalLog) -> str:
    """Everything the scorers produced, as comparable text (NaN compares equal to NaN)."""
    samples = [{name: score.model_dump(exclude={"history"})
                for name, score in sorted((sample.scores or {}).items())}
               for sample in log.samples]
    results = [score.model_dump() for score in log.results.scores]
    return json.dumps({"samples": samples, "results": results}, sort_keys=True, default=str)


def inspect_cli(arguments: list[str], monkeypatch: pytest.MonkeyPatch) -> None:
    """Run the `inspect` console script in this process (what the `inspect` executable
    runs), failing on a non-zero exit."""
    (command,) = entry_points(group="console_scripts", name="inspect")
    monkeypatch.setattr(sys, "argv", ["inspect", *arguments])
    monkeypatch.setattr(sys, "excepthook", sys.excepthook)  # the CLI installs its own
    with pytest.raises(SystemExit) as exit_info:
        command.load()()
    assert exit_info.value.code in (0, None), arguments


def score_arguments(log_file: Path, output: Path) -> list[str]:
    return ["score", str(log_file), "--action", "overwrite", "--output-file", str(output),
            "--display", "none"]


@pytest.mark.parametrize("name", sorted(PACKAGED_TASKS))
def test_inspect_score_gives_back_the_scores_of_every_task(
        name: str, logs: dict[str, Path], tmp_path: Path,
        monkeypatch: pytest.MonkeyPatch) -> None:
    original = read_eval_log(str(logs[name]))
    assert original.eval.task_registry_name == f"infoseek/{name}"
    assert original.eval.task_file is None  # nothing but the recorded names to go by
    assert {s.name for s in original.eval.scorers} <= set(RECORDED_SCORER_NAMES)
    monkeypatch.chdir(tmp_path)
    rescored_file = tmp_path / "rescored.eval"
    inspect_cli(score_arguments(logs[name], rescored_file), monkeypatch)
    rescored = read_eval_log(str(rescored_file))
    assert rescored.status == "success"
    assert [s.name for s in rescored.eval.scorers] == [s.name for s in original.eval.scorers]
    assert scores_of(rescored) == scores_of(original)


def run(command: list[str], cwd: Path) -> None:
    result = subprocess.run(command, cwd=cwd, capture_output=True, text=True, timeout=300)
    assert result.returncode == 0, f"{command}:\n{result.stdout[-2000:]}\n{result.stderr[-3000:]}"


def test_inspect_score_command_in_a_fresh_process(logs: dict[str, Path],
                                                  tmp_path: Path) -> None:
    rescored_file = tmp_path / "rescored.eval"
    run([sys.executable, "-m", "inspect_ai", *score_arguments(logs["logic_mt"],
                                                              rescored_file)], cwd=tmp_path)
    original = read_eval_log(str(logs["logic_mt"]))
    rescored = read_eval_log(str(rescored_file))
    assert [s.name for s in rescored.results.scores] == ["final_answer", "sufficiency",
                                                          "queries", "invalid"]
    assert scores_of(rescored) == scores_of(original)


def test_inspect_score_on_a_log_of_the_task_file(tmp_path: Path) -> None:
    """`inspect eval inspect_tasks/logic_mt.py` from the root, as the README runs it: the
    log names the task file, and the recorded names still resolve to our scorers."""
    log_dir = tmp_path / "logs"
    run([sys.executable, "-m", "inspect_ai", "eval", "inspect_tasks/logic_mt.py",
         "--model", "infoseek/optimal", "--limit", "1", "-T", "per_k=1",
         "--log-dir", str(log_dir), "--display", "none"], cwd=ROOT)
    (log_file,) = log_dir.glob("*.eval")
    original = read_eval_log(str(log_file))
    assert original.eval.task_file == "inspect_tasks/logic_mt.py"
    rescored_file = tmp_path / "rescored.eval"
    run([sys.executable, "-m", "inspect_ai", *score_arguments(log_file, rescored_file)],
        cwd=ROOT)
    assert scores_of(read_eval_log(str(rescored_file))) == scores_of(original)


# ------------------------------------------------------- the names registered for logs


def inspect_builtin_scorers() -> set[str]:
    """The names of Inspect's own scorers (`inspect_ai.scorer`'s registered scorers,
    without the ``inspect_ai/`` of their registry names)."""
    import inspect_ai.scorer as inspect_scorers

    names = set()
    for attribute in inspect_scorers.__all__:
        try:
            info = registry_info(getattr(inspect_scorers, attribute))
        except ValueError:
            continue  # not a registry object (a type, a constant, ...)
        if info.type == "scorer":
            names.add(info.name.removeprefix("inspect_ai/"))
    return names


def test_no_infoseek_scorer_shares_a_name_with_an_inspect_builtin() -> None:
    builtins = inspect_builtin_scorers()
    assert {"answer", "match", "choice"} <= builtins
    assert "final_answer" in RECORDED_SCORER_NAMES
    assert not builtins & set(RECORDED_SCORER_NAMES)


def test_the_builtin_answer_is_inspects_alone() -> None:
    """`answer` names Inspect's built-in `answer(pattern)` only: with its pattern it
    builds Inspect's scorer, without one it is Inspect's error, not an infoseek scorer."""
    builtin = registry_create("scorer", "answer", pattern="letter")
    metrics = [registry_info(m).name for m in registry_info(builtin).metadata["metrics"]]
    assert metrics == ["inspect_ai/accuracy", "inspect_ai/stderr"]
    with pytest.raises(TypeError, match="pattern"):
        registry_create("scorer", "answer")
    ours = registry_create("scorer", "final_answer")
    assert [registry_info(m).name for m in registry_info(ours).metadata["metrics"]] == [
        "infoseek/mean_by_group"]


def test_the_builtin_answer_scores_as_before() -> None:
    state = TaskState(model=ModelName("mockllm/model"), sample_id=1, epoch=1,
                      input="pick one", messages=[ChatMessageUser(content="pick one")])
    state.output = text_output("ANSWER: B")
    builtin = registry_create("scorer", "answer", pattern="letter")
    assert asyncio.run(builtin(state, Target("B"))).value == CORRECT
    assert asyncio.run(builtin(state, Target("C"))).value != CORRECT


@scorer(metrics=[], name="plugin_like/match")
def clashing_scorer(threshold: float = 0.5) -> Scorer:
    """Recorded as `match`, which is Inspect's built-in `match(location=...)`."""

    async def score(state: Any, target: Target) -> Any:
        raise AssertionError("never run")

    return score


@scorer(metrics=[], name="plugin_like/answer")
def old_answer_scorer() -> Scorer:
    """Recorded as `answer`, Inspect's built-in `answer(pattern)`, and taking no
    parameter, as infoseek's final-answer scorer did before eval version 2-A: refused
    too, whatever its parameters."""

    async def score(state: Any, target: Target) -> Any:
        raise AssertionError("never run")

    return score


@pytest.mark.parametrize(("factory", "name", "arguments"), [
    (clashing_scorer, "match", {}), (old_answer_scorer, "answer", {"pattern": "letter"})])
def test_a_recorded_name_of_an_inspect_builtin_is_refused(
        factory: Any, name: str, arguments: dict[str, Any]) -> None:
    with pytest.raises(RecordedNameError) as refused:
        register_recorded_scorer_names([factory])
    message = str(refused.value)
    assert f"'plugin_like/{name}'" in message  # ours
    assert f"'inspect_ai/{name}'" in message  # Inspect's
    assert "Give the infoseek scorer another name" in message
    # nothing was registered: the name still builds Inspect's scorer
    built = registry_create("scorer", name, **arguments)
    assert [registry_info(m).name for m in registry_info(built).metadata["metrics"]] == [
        "inspect_ai/accuracy", "inspect_ai/stderr"]


@scorer(metrics=[], name="user_local_name_in_tests")
def users_own() -> Scorer:
    async def score(state: Any, target: Target) -> Any:
        raise AssertionError("never run")

    return score


@scorer(metrics=[], name="plugin_like/user_local_name_in_tests")
def packaged_namesake() -> Scorer:
    async def score(state: Any, target: Target) -> Any:
        raise AssertionError("never run")

    return score


def test_a_users_own_scorer_of_the_recorded_name_is_left_alone() -> None:
    assert register_recorded_scorer_names([packaged_namesake]) == []
    created = registry_create("scorer", "user_local_name_in_tests")
    assert created.__qualname__.startswith("users_own")


# ------------------------------------------------------------------ Inspect View


@pytest.mark.parametrize("name", sorted(PACKAGED_TASKS))
def test_every_task_log_declares_its_view_and_headline(name: str,
                                                       logs: dict[str, Path]) -> None:
    """The log list's number is the kind's headline metric (not the first metric of the
    first scorer, an error rate for single-turn tasks), and every column of the sample
    list names a value its scorer really wrote."""
    log = read_eval_log(str(logs[name]))
    columns = viewer.COLUMNS[log.eval.metadata["report"]]
    resolved = headline_metric(log)
    assert (resolved.score.scorer, resolved.name) == (columns[0].scorer, columns[0].key)
    view = log.eval.viewer.task_samples_view
    assert view.score_labels == {c.key: c.label for c in columns}
    ids = [column.id for column in view.columns]
    assert ids[0] == "sampleId" and view.sort[0].column == "sampleId"
    written = {(scorer, key) for scorer, score in log.samples[0].scores.items()
               for key in (score.value if isinstance(score.value, dict) else {scorer: 0})}
    for column in columns:
        assert (column.scorer, column.key) in written, (name, column)
        assert f"score__{column.scorer}__{column.key}" in ids


def test_every_report_kind_has_a_view_and_no_other() -> None:
    assert set(viewer.COLUMNS) == set(REPORTS)
    with pytest.raises(KeyError, match="no viewer declaration for report kind 'nope'"):
        viewer.viewer_arguments("nope")


@pytest.mark.parametrize(("metric", "kept"), [("final_sufficiency", False), ("correct", False),
                                              ("someone_elses", True)])
def test_the_early_headline_warning_is_dropped_for_our_headlines_only(metric: str,
                                                                      kept: bool) -> None:
    """Inspect's progress display resolves a declared headline before any sample is
    scored and warns; the warning is dropped for infoseek's headline names only."""
    assert viewer.HEADLINES  # importing the viewer installs the filter
    logger = logging.getLogger(HEADLINE_LOGGER)
    record = logger.makeRecord(logger.name, logging.WARNING, __file__, 0,
                               f"Headline metric '{metric}' not found in eval results "
                               "(using the first metric of the first score instead).",
                               None, None)
    assert logger.filter(record) is kept
