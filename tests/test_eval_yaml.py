"""`eval.yaml`, the inspect_evals register entry (issue 32, item 3), matches the suite.

This file sits directly under `tests/`: `inspect-evals-lint`'s register layout (the
single-evaluation layout the register lints with) reads the test suite from there.
The sample counts are the default-settings dataset lengths, computed by building each
task as `inspect eval infoseek/<task>` would. The test session builds into a throwaway
cache (tests/conftest.py), so the full comparison builds every default split (genereg's
k = 4 stream alone took 16 minutes on a loaded 2-core machine) and is marked slow;
the default run compares the tasks that are cheap to build.
"""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml

from infoseek.inspect_tasks._registry import PACKAGED_TASKS
from infoseek.inspect_tasks.versions import EVAL_VERSION

ROOT = Path(__file__).resolve().parents[1]
ENTRY = yaml.safe_load((ROOT / "eval.yaml").read_text(encoding="utf-8"))
COUNTS = {task["name"]: task["dataset_samples"] for task in ENTRY["tasks"]}

QUICK = ("twenty_questions", "clinguide_mt", "clinguide_mt_k_prediction", "clinguide_mt_mss")
"""Tasks whose default dataset is cheap to make with an empty cache (measured: 0.2 s for
twenty_questions, 12 s for the clinguide family together on a loaded 2-core machine;
incomplete_questions took 27 s and twenty_questions_k_prediction 58 s)."""


def test_the_register_fields_are_there() -> None:
    for field in ("title", "description", "group", "contributors", "tasks", "arxiv",
                  "version"):
        assert ENTRY.get(field), field
    assert ENTRY["version"] == EVAL_VERSION
    assert "not the InfoSeek visual" in ENTRY["title"]
    assert ENTRY["arxiv"].startswith("https://arxiv.org/abs/") and "v" in ENTRY["arxiv"][-3:]
    assert ENTRY["external_assets"] == []
    assert ENTRY["metadata"]["requires_internet"] is False
    assert "sandbox" not in ENTRY["metadata"]
    papers = ENTRY["metadata"]["papers"]
    assert len(papers) == 3 and papers[0]["url"] == ENTRY["arxiv"]


def test_the_tasks_are_the_registered_ones() -> None:
    assert [task["name"] for task in ENTRY["tasks"]] == sorted(PACKAGED_TASKS)
    assert all(isinstance(n, int) and n > 0 for n in COUNTS.values())


def default_size(name: str) -> int:
    return len(PACKAGED_TASKS[name]().dataset)


@pytest.mark.parametrize("name", QUICK)
def test_sample_counts_of_the_shipped_data_tasks(name: str) -> None:
    assert default_size(name) == COUNTS[name]


@pytest.mark.slow
@pytest.mark.parametrize("name", sorted(PACKAGED_TASKS))
def test_sample_counts_at_default_settings(name: str) -> None:
    assert default_size(name) == COUNTS[name]
