"""Inspect `Task.tags` of every infoseek task: its domain, its protocol and its turn kind;
the wrapper every task function goes through.

    @task
    @tagged("logic")
    def logic_mt(...) -> Task: ...

`tagged(domain)` wraps a task function so the task it returns carries the tags
``[domain, protocol, turns]`` (a tag named twice is kept once: ``twenty_questions``):

- ``domain``: the domain the task's problems come from (`DOMAINS`: a built-in domain of
  `infoseek.domains`, or ``incomplete_questions`` for the released incomplete questions);
- ``protocol``: the task's report kind (``metadata["report"]``: ``seek``,
  ``full_information``, ``k_prediction``, ``mss``, ``question_selection``, ``detection``,
  ``well_specified``, ``incomplete``, ``twenty_questions``);
- ``single-turn`` when the protocol makes one generate call per sample (`SINGLE_TURN`:
  such tasks fit Inspect's ``--batch``), else ``multi-turn``.

The wrapper also loads the task's domain declaration before the task function runs, so
that `infoseek.domains.get_builder` finds the task's builders without importing any other
domain, and settles the heap once the task is made (`infoseek.inspect_tasks.heap`).

`functools.wraps` keeps the function's name, module, docstring and signature, which are
what Inspect's `@task` reads to register it.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any

from inspect_ai import Task, task_with

from infoseek.domains import domain_names, get_domain
from infoseek.inspect_tasks.heap import settle_heap

DOMAINS = ("logic", "math", "genereg", "clinguide", "planning", "twenty_questions",
           "incomplete_questions")
"""The domain tags."""

SINGLE_TURN = ("k_prediction", "mss", "question_selection", "detection", "well_specified")
"""The protocols whose solver makes one generate call per sample."""


def task_tags(domain: str, made: Task) -> list[str]:
    """The tags of the task `made` of `domain`."""
    if domain not in DOMAINS:
        raise ValueError(f"unknown domain tag {domain!r}: one of {', '.join(DOMAINS)}")
    protocol = str((made.metadata or {}).get("report", ""))
    if not protocol:
        raise ValueError(f"task {made.name!r} has no metadata 'report' to name its protocol")
    tags = [domain, protocol, "single-turn" if protocol in SINGLE_TURN else "multi-turn"]
    return list(dict.fromkeys(tags))  # twenty_questions is both a domain and a protocol


def tagged(domain: str) -> Callable[[Callable[..., Task]], Callable[..., Task]]:
    """Decorate a task function (under `@task`) so its task carries `task_tags`."""
    def decorate(factory: Callable[..., Task]) -> Callable[..., Task]:
        @functools.wraps(factory)
        def tagged_factory(*args: Any, **kwargs: Any) -> Task:
            if domain in domain_names():
                get_domain(domain)  # searched first for builders: no other domain loads
            made = factory(*args, **kwargs)
            made = task_with(made, tags=task_tags(domain, made))
            settle_heap()
            return made

        return tagged_factory

    return decorate
