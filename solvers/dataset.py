"""Problem records -> Inspect samples: one sample per task instance (target value).

Evaluating the whole task family stops a model from scoring by guessing the likeliest
target. The hidden value travels in metadata, never in the input.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Iterable, Sequence
from typing import Any

from inspect_ai.dataset import MemoryDataset, Sample

from infoseek.analysis import task_level_k
from infoseek.records import RecordError, engine_from_record
from infoseek.stored_forms import metadata_problem
from infoseek.text import short_repr

RENDER_ERRORS = (KeyError, TypeError, ValueError, AttributeError, IndexError)
"""What a domain renderer raises on a record that lacks a field it reads (a clinguide
record without ``tree``): made a `RecordError` naming the record (`rendered`)."""


def value_label(value: Any) -> str:
    if value is True:
        return "yes"
    if value is False:
        return "no"
    return str(value)


def parse_k_values(k: Any, allowed: Sequence[int]) -> list[int]:
    """Accept `-T k=2`, `-T k=[1,2]` or `-T k=1,2` (YAML-parsed)."""
    if isinstance(k, str):
        parts = [p.strip() for p in k.replace("[", "").replace("]", "").split(",") if p.strip()]
        try:
            values = [int(p) for p in parts]
        except ValueError:
            raise ValueError(f"k must be integers like 2 or [1,2]; got {k!r}") from None
    elif isinstance(k, int) and not isinstance(k, bool):
        values = [k]
    elif isinstance(k, (list, tuple)) and all(isinstance(v, int) and not isinstance(v, bool)
                                               for v in k):
        values = list(k)
    else:
        raise ValueError(f"k must be an integer or a list of integers; got {k!r}")
    bad = [v for v in values if v not in allowed]
    if bad or not values:
        raise ValueError(f"k values {bad or values} are not available; choose from {list(allowed)}")
    return sorted(set(values))


def seek_samples(records: Iterable[dict[str, Any]], render: Callable[[dict[str, Any]], str],
                 *, forbid_alternatives: bool) -> list[Sample]:
    """One seek sample per task instance of every record, for any domain.

    A record with a hidden world (``hidden_world``: values that cannot be listed) has one
    instance, the world's ``answer``; its sample id is the record's id and the world
    travels in the metadata for the oracle. Any other record has one instance per value
    in ``target_values``, with ids ``<id>-<value label>`` and the task-level k of each
    value. Metadata ``k`` is the record's degree (``original_k`` when the record was made
    fully informed), ``task_k`` the instance's own.
    """
    samples = []
    for record in records:
        text = rendered(render, record)
        problem = metadata_problem(record)
        k = record.get("original_k", record["k"])
        if "hidden_world" in record:
            samples.append(Sample(
                id=record["id"], input=text, target=value_label(record["answer"]),
                metadata={"problem": problem, "target_value": record["answer"],
                          "hidden_world": record["hidden_world"], "target_index": 0,
                          "k": k, "task_k": record["k"],
                          "forbid_alternatives": forbid_alternatives}))
            continue
        values = record["target_values"]
        for index, (value, task_k) in enumerate(zip(values, task_level_ks(record),
                                                    strict=True)):
            samples.append(Sample(
                id=instance_id(record["id"], value), input=text,
                target=value_label(value),
                metadata={"problem": problem, "target_value": value, "target_index": index,
                          "k": k, "task_k": task_k,
                          "forbid_alternatives": forbid_alternatives}))
    return samples


MAX_LABEL_LENGTH = 200
"""The longest value label kept whole in a sample id (`instance_id`)."""


def instance_id(record_id: Any, value: Any) -> str:
    """The sample id of one task instance: ``<record id>-<value label>``. A label longer
    than `MAX_LABEL_LENGTH` characters is cut, with a digest of the whole label after
    it, so that ids stay bounded (they name files in Inspect's log) and distinct."""
    label = value_label(value)
    if len(label) > MAX_LABEL_LENGTH:
        digest = hashlib.sha256(label.encode("utf-8", "backslashreplace")).hexdigest()
        label = f"{label[:MAX_LABEL_LENGTH]}~{digest[:12]}"
    return f"{record_id}-{label}"


def rendered(render: Callable[[dict[str, Any]], str], record: dict[str, Any]) -> str:
    """The record's prompt text; a renderer failing on a field it reads is a
    `RecordError` naming the record and the field."""
    try:
        return render(record)
    except RENDER_ERRORS as exc:
        what = (f"field {exc.args[0]!r} is missing" if isinstance(exc, KeyError) and exc.args
                else f"a field has the wrong form ({type(exc).__name__}: {exc})")
        raise RecordError(f"record {short_repr(record.get('id'))}: cannot be shown to the "
                          f"model: {what}", record_id=record.get("id")) from None


def task_level_ks(record: dict[str, Any]) -> list[int]:
    """The task-level k of each value in the record's ``target_values``; a family that
    pins a value with none of its sets is a `RecordError` naming the record."""
    engine = engine_from_record(record)
    values = record["target_values"]
    if len(values) == 2:
        # With two target values, a set pins one value in every world that has it iff it
        # is sufficient, iff it pins the other: both instances share their task-level k.
        return [_pinned(record, engine, values[0])] * 2
    return [_pinned(record, engine, value) for value in values]


def _pinned(record: dict[str, Any], engine: Any, value: Any) -> int:
    try:
        return task_level_k(engine, record["mss_family"], value)
    except ValueError:
        raise RecordError(f"record {short_repr(record.get('id'))}: field 'mss_family' does "
                          f"not pin the target value {short_repr(value)}: none of its sets "
                          "makes the target known (is every set sufficient?)",
                          record_id=record.get("id")) from None


def problem_samples(records: Iterable[dict[str, Any]], render: Callable[[dict[str, Any]], str],
                    *, extra_metadata: dict[str, Any] | None = None) -> list[Sample]:
    return [
        Sample(id=record["id"], input=rendered(render, record), target=str(record["k"]),
               metadata={"problem": metadata_problem(record), "k": record["k"],
                         **(extra_metadata or {})})
        for record in records
    ]


def memory_dataset(samples: list[Sample], name: str) -> MemoryDataset:
    return MemoryDataset(samples, name=name)
