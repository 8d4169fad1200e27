"""The eval version moves with the eval: `infoseek.inspect_tasks.versions.EVAL_FINGERPRINT`
pins a hash of what the N of `EVAL_VERSION` vouches for, so that a change to it without
moving N fails here.

What the hash covers, for every packaged task run once, tiny (`tests.tasks.tiny_runs`):

- the prompt texts that reach the model: every message of the sample's last model call
  (the system prompt, the problem as the task renders and frames it, the oracle's replies
  to the reference model's questions) and the tools offered (name, description,
  parameters);
- the scorer names and their metrics (the metric's registry name and arguments) as the
  log header records them, and the names of the values each scorer reports (the metric
  names of the log are those, overall and per group);

and every registered domain's wording (`infoseek.domains.Wording`: the seek rules, the
reminders, the problem-level prompts), which the tiny runs do not all reach.

What is read is what Inspect logged, not the source, so moving a text between modules
changes nothing. The rendered problems are records of the builders' seed-0 splits: a
builder change that alters them moves the hash too (the failure message says what to do
then), and so would a change of the reference model's questions.
"""

from __future__ import annotations

import dataclasses
import hashlib
import json
from typing import Any

import pytest
from inspect_ai.log import EvalLog, read_eval_log
from inspect_ai.log._transcript import ModelEvent

from infoseek.domains import all_domains
from infoseek.inspect_tasks import versions
from infoseek.inspect_tasks._registry import PACKAGED_TASKS
from tests.tasks.tiny_runs import run_tiny_tasks, tiny_task


def domain_wordings() -> dict[str, dict[str, str]]:
    """Each registered domain's wording texts (`Wording` fields; the reply is a function,
    whose texts the oracle replies in the logs show)."""
    return {domain.name: {field.name: getattr(domain.wording, field.name)
                          for field in dataclasses.fields(domain.wording)
                          if isinstance(getattr(domain.wording, field.name), str)}
            for domain in sorted(all_domains(), key=lambda d: d.name)}


def task_surface(log: EvalLog) -> dict[str, Any]:
    """A task's prompt texts, scorers and metric names, read from its tiny log."""
    [sample] = log.samples
    calls = [event for event in sample.events if isinstance(event, ModelEvent)]
    last = calls[-1] if calls else None
    return {
        "messages": [] if last is None else [[m.role, m.text] for m in last.input],
        "tools": [] if last is None else [tool.model_dump(mode="json") for tool in last.tools],
        "scorers": [{"name": s.name,
                     "metrics": [m.model_dump(mode="json") for m in s.metrics or []]}
                    for s in log.eval.scorers or []],
        "values": {name: sorted(score.value) if isinstance(score.value, dict) else []
                   for name, score in sorted((sample.scores or {}).items())},
    }


def fingerprint(surface: dict[str, Any]) -> str:
    text = json.dumps(surface, sort_keys=True, ensure_ascii=True, default=str)
    return hashlib.sha256(text.encode()).hexdigest()[:16]


@pytest.fixture(scope="module")
def surface(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    runs = run_tiny_tasks(tmp_path_factory.mktemp("version-logs"))
    tasks = {name: task_surface(read_eval_log(log.location, resolve_attachments=True))
             for name, log in runs.items()}
    return {"tasks": tasks, "wordings": domain_wordings()}


def test_the_eval_version_moves_with_prompts_scorers_and_metrics(surface):
    found = fingerprint(surface)
    assert found == versions.EVAL_FINGERPRINT, (
        f"The prompt texts, scorer names or metric names of the tasks changed (hash "
        f"{found}, pinned {versions.EVAL_FINGERPRINT}): results are no longer comparable "
        f"with logs of eval version {versions.EVAL_VERSION}. Bump N in "
        f"inspect_tasks/versions.py (EVAL_VERSION = "
        f"\"{int(versions.EVAL_VERSION.split('-')[0]) + 1}-A\") and update the pinned hash "
        f"there (EVAL_FINGERPRINT = \"{found}\"). Only when nothing but a builder's records "
        f"changed (its data version moved, which the task version shows already), update "
        f"the hash alone.")


def test_every_task_carries_the_eval_version_and_its_data_version():
    for name in sorted(PACKAGED_TASKS):
        version = tiny_task(name).version
        eval_version, _, data = version.partition("/")
        builder, _, data_version = data.partition("@")
        assert eval_version == versions.EVAL_VERSION, name
        assert version == versions.task_version(builder, data_version), name
        assert builder and data_version, name


def test_the_eval_version_reads_n_dash_x():
    number, _, letters = versions.EVAL_VERSION.partition("-")
    assert number.isdigit() and int(number) >= 1
    assert letters.isalpha() and letters.isupper()
