"""The heap settled when a task is made (`infoseek.inspect_tasks.heap`) and the domain
loading that keeps a task's process small: a task imports its own domain's code only."""

from __future__ import annotations

import gc
import json
import os
import subprocess
import sys
import weakref
from collections.abc import Iterator

import pytest

from infoseek.inspect_tasks import heap
from tests.conftest import ROOT


class Node:
    next: object = None


@pytest.fixture
def fresh_heap(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """`settle_heap` as in a new process; the frozen objects are given back afterwards."""
    monkeypatch.delenv(heap.FREEZE_VARIABLE, raising=False)
    monkeypatch.setattr(heap, "_collected_at", 0)
    gc.unfreeze()
    yield
    gc.unfreeze()


@pytest.mark.usefixtures("fresh_heap")
def test_the_first_settle_collects_everything_and_freezes_what_is_left() -> None:
    cycle = Node()
    cycle.next = cycle  # garbage only the collector can free
    gone = weakref.ref(cycle)
    del cycle
    assert heap.settle_heap() == "all"
    assert gone() is None and gc.get_freeze_count() > 1000
    frozen = gc.get_freeze_count()
    kept = [[i] for i in range(100)]
    assert heap.settle_heap() == "young"  # only what is new is walked, then frozen too
    assert frozen + 100 <= gc.get_freeze_count() < frozen * heap.REGROWTH
    del kept


@pytest.mark.usefixtures("fresh_heap")
def test_a_frozen_heap_grown_by_a_quarter_is_collected_again() -> None:
    assert heap.settle_heap() == "all"
    frozen = gc.get_freeze_count()
    grown = [[i] for i in range(int(frozen * (heap.REGROWTH - 1)) + 10)]
    assert heap.settle_heap() == "young"  # frozen now: the next settle sees the growth
    assert heap.settle_heap() == "all"
    del grown
    assert heap.settle_heap() == "young"


@pytest.mark.usefixtures("fresh_heap")
def test_the_freeze_can_be_turned_off(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(heap.FREEZE_VARIABLE, "0")
    assert heap.settle_heap() == "off"
    assert gc.get_freeze_count() == 0


PROBE = """
import gc, json, sys
from infoseek.inspect_tasks.{module} import {task}
made = {task}(per_k=1, k=[1])
print(json.dumps({{"heavy": sorted(m for m in ("sympy", "numpy", "networkx")
                                  if m in sys.modules),
                  "frozen": gc.get_freeze_count()}}))
"""


def _make_task(module: str, task: str, tmp_path, freeze: str | None = None) -> dict:
    env = {**os.environ, "INFOSEEK_CACHE_DIR": str(tmp_path)}
    env.pop(heap.FREEZE_VARIABLE, None)
    if freeze is not None:
        env[heap.FREEZE_VARIABLE] = freeze
    done = subprocess.run([sys.executable, "-c", PROBE.format(module=module, task=task)],
                          capture_output=True, text=True, cwd=ROOT, env=env, timeout=300)
    assert done.returncode == 0, done.stderr[-2000:]
    return json.loads(done.stdout.strip().splitlines()[-1])


def test_a_logic_task_imports_no_other_domain_and_freezes_its_heap(tmp_path) -> None:
    made = _make_task("logic_mt", "logic_mt", tmp_path)
    assert made["heavy"] == [] and made["frozen"] > 10_000


def test_a_math_task_loads_its_own_engine_and_the_freeze_obeys_the_switch(tmp_path) -> None:
    made = _make_task("gsme_mt", "gsme_mt", tmp_path, freeze="0")
    assert "sympy" in made["heavy"] and "numpy" not in made["heavy"]
    assert made["frozen"] == 0
