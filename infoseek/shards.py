"""Shards: one task's samples split over n runs, each run anywhere, merged back afterwards.

``-T shard=i/n`` (every task; `infoseek.inspect_tasks.task_parameters`) keeps the i-th of n
shares of a task's samples. Which sample goes where depends on its id alone, through a
hash that is the same in every process and on every machine (SHA-256 of the id's text,
never Python's salted `hash`), and the shares are balanced exactly: the samples are put in
the order of their hashes and dealt out in turn, so two shares differ by at most one
sample, and the n shares of one dataset are disjoint and together hold every sample.
Every shard builds the same full dataset first (same parameters, same seed), so each run
deals the same hands without talking to the others.

A sample without an id gets the number Inspect would give it (its 1-based position), so
a sharded run names its samples as the unsharded run does.

This module is plain Python (the core imports no Inspect); the task-side glue is in
`infoseek.inspect_tasks.task_parameters`, the merge of the shards' logs in
`infoseek.inspect_tasks.shard_logs`.
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

SHARD_PARAMETER = "shard"
"""The `-T` parameter every task takes (and the task argument a sharded log records)."""

SHARD_FORM = "i/n with whole numbers 1 <= i <= n (2/3: the second of three shares)"
"""The accepted form of a shard, as the refusal of a bad one says it."""

_SHAPE = re.compile(r"\s*(\d+)\s*/\s*(\d+)\s*")
MAX_SHARDS = 10_000
"""The most shares a task may be split into (a bound, so that no value is absurd)."""


class ShardError(ValueError):
    """A shard value that is not ``i/n``, or shards that do not fit together."""


@dataclass(frozen=True, order=True)
class Shard:
    """The `index`-th (1-based) of `count` shares."""

    index: int
    count: int

    def __str__(self) -> str:
        return f"{self.index}/{self.count}"


def parse_shard(value: Any) -> Shard:
    """`value` (``"2/3"``; YAML may hand over any type) as a `Shard`; a `ShardError`
    naming the parameter and the accepted form otherwise."""
    found = _SHAPE.fullmatch(value) if isinstance(value, str) else None
    if found is not None:
        index, count = int(found[1]), int(found[2])
        if 1 <= index <= count <= MAX_SHARDS:
            return Shard(index, count)
    shown = repr(value) if len(repr(value)) <= 40 else repr(value)[:37] + "..."
    raise ShardError(f"-T {SHARD_PARAMETER} must be {SHARD_FORM}, n at most {MAX_SHARDS}; "
                     f"got {shown}")


def id_digest(sample_id: Any) -> bytes:
    """The stable hash a sample is dealt by: SHA-256 of its id as text (ids 3 and "3" are
    one id, as in an Inspect log)."""
    return hashlib.sha256(str(sample_id).encode("utf-8", "surrogatepass")).digest()


def sample_ids(ids: Sequence[Any]) -> list[str]:
    """`ids` as text, a missing one replaced by its 1-based position (Inspect's number for
    a sample without an id)."""
    return [str(position) if sample_id is None else str(sample_id)
            for position, sample_id in enumerate(ids, 1)]


def shard_members(ids: Sequence[Any], shard: Shard) -> set[str]:
    """The ids (as text, `sample_ids`) of the samples that `shard` keeps out of the dataset
    whose sample ids are `ids`: the samples in the order of `id_digest` (ties, which
    SHA-256 makes unheard of, by the id), the ``index``-th, then every ``count``-th after."""
    texts = sample_ids(ids)
    if len(set(texts)) != len(texts):
        repeated = sorted({t for t in texts if texts.count(t) > 1})[:3]
        raise ShardError(f"-T {SHARD_PARAMETER} needs distinct sample ids; the task repeats "
                         f"{', '.join(repeated)}")
    ordered = sorted(texts, key=lambda text: (id_digest(text), text))
    return set(ordered[shard.index - 1::shard.count])


def shard_sizes(total: int, count: int) -> list[int]:
    """How many of `total` samples each of `count` shares holds (they differ by at most
    one)."""
    return [len(range(index, total, count)) for index in range(count)]


def missing_shards(shards: Sequence[Shard]) -> tuple[list[Shard], list[Shard]]:
    """(missing, repeated): the shares of ``1/n .. n/n`` that `shards` (all of one n) lack,
    and those it holds more than once."""
    count = shards[0].count
    expected = [Shard(i, count) for i in range(1, count + 1)]
    missing = [s for s in expected if s not in shards]
    repeated = sorted({s for s in shards if shards.count(s) > 1})
    return missing, repeated
