"""Shorter collector pauses in a run: what a process holds once a task is made is moved
out of the garbage collector's way.

CPython's cyclic collector runs inside whatever code allocates at the moment, and while
it runs nothing else does: Inspect's event loop, with every sample in flight, waits. A
collection of the oldest generation walks every tracked object of the process. Once
Inspect and a task are loaded that is about 280,000 objects (modules, classes,
registries, the dataset) that live as long as the process, so the walk frees none of
them; yet it took 180-340 ms of CPU, two or three times in each 40-sample logic_mt run
with a zero-latency model (`benchmarks/bench_event_loop.py`, docs/benchmarks.md).

`settle_heap` collects and then freezes what is left (`gc.freeze`): frozen objects sit in
the collector's permanent generation, which its collections skip, so a run's collections
walk only what the run made. Reference counting still frees a frozen object the moment
nothing refers to it; what freezing gives up is collecting frozen objects that later
become unreachable cycles. In a measured loop making and running logic_mt tasks, each
task left about 840 such objects, so the frozen objects are collected again whenever
they have grown by a quarter (`REGROWTH`).

Every infoseek task settles the heap once it is made
(`infoseek.inspect_tasks.task_tags.tagged`): with `inspect eval` that is after Inspect's
start-up and before the first sample; from Python, a task made after an eval also
freezes what that eval imported. Records do not change (a logic_mt run by
`infoseek/random` gave the same stores, scores and messages with and without).
``INFOSEEK_GC_FREEZE=0`` in the environment turns it off; `gc.unfreeze()` undoes it.
"""

from __future__ import annotations

import gc
import os

FREEZE_VARIABLE = "INFOSEEK_GC_FREEZE"
"""The environment variable that turns the freeze off when set to ``0``."""

REGROWTH = 1.25
"""How much the frozen generation may grow before a settle collects it again."""

_collected_at = 0
"""The frozen objects' count after the last settle that collected them (0: none yet)."""


def settle_heap() -> str:
    """Collect, then freeze every object left (`gc.freeze`), unless
    ``INFOSEEK_GC_FREEZE=0``. The first time, and whenever the frozen objects have grown
    by a quarter (`REGROWTH`) since they were last collected (the rule CPython applies to
    its own oldest generation), everything is unfrozen and collected (``"all"``);
    otherwise only the two young generations are (``"young"``), and cyclic garbage older
    than that is frozen with the rest until the next whole collection. Either way a
    process that makes many tasks holds back at most about a quarter of its heap.
    Returns what it did: ``"off"``, ``"young"`` or ``"all"``."""
    global _collected_at
    if os.environ.get(FREEZE_VARIABLE, "").strip() == "0":
        return "off"
    whole = not _collected_at or gc.get_freeze_count() > REGROWTH * _collected_at
    if whole:
        gc.unfreeze()
    gc.collect(2 if whole else 1)
    gc.freeze()
    if whole:
        _collected_at = gc.get_freeze_count()
    return "all" if whole else "young"
