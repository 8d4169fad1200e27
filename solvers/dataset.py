"""Problem records -> Inspect samples: one sample per task instance (target value).

Evaluating the whole task family stops a model from scoring by guessing the likeliest
target. The hidden value travels in metadata, never in the input.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from typing import Any

from inspect_ai.dataset import MemoryDataset, Sample

from infoseek.analysis import task_level_k
from infoseek.records import engine_from_record


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


def instance_samples(records: Iterable[dict[str, Any]], render: Callable[[dict[str, Any]], str],
                     *, extra_metadata: dict[str, Any] | None = None) -> list[Sample]:
    samples = []
    for record in records:
        engine = engine_from_record(record)
        text = render(record)
        values = record["target_values"]
        task_ks = [task_level_k(engine, record["mss_family"], value) for value in values[:1]]
        # With two target values, a set pins one value in every world that has it iff it
        # is sufficient, iff it pins the other: both instances share their task-level k.
        task_ks += ([task_ks[0]] if len(values) == 2 else
                    [task_level_k(engine, record["mss_family"], value) for value in values[1:]])
        for index, value in enumerate(values):
            samples.append(Sample(
                id=f"{record['id']}-{value_label(value)}",
                input=text,
                target=value_label(value),
                metadata={
                    "problem": record,
                    "target_value": value,
                    "target_index": index,
                    "k": record["k"],
                    "task_k": task_ks[index],
                    **(extra_metadata or {}),
                },
            ))
    return samples


def problem_samples(records: Iterable[dict[str, Any]], render: Callable[[dict[str, Any]], str],
                    *, extra_metadata: dict[str, Any] | None = None) -> list[Sample]:
    return [
        Sample(id=record["id"], input=render(record), target=str(record["k"]),
               metadata={"problem": record, "k": record["k"], **(extra_metadata or {})})
        for record in records
    ]


def memory_dataset(samples: list[Sample], name: str) -> MemoryDataset:
    return MemoryDataset(samples, name=name)
