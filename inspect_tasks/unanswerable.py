"""`-T unanswerable=<share>` on the multi-turn seek tasks (issue 34): mixing problems no
question can settle into a task's samples.

The records come from the builder of unanswerable problems that the ordinary builder's
declaration names (`BuilderSpec.unanswerable`, read by `unanswerable_builder`; the count
rule and the referee are `infoseek.builders.unanswerable`), so a domain offers the share
by declaring it there and nowhere else. Each gives one sample whose id is
the record's (``...-unanswerable``), whose target is `infoseek.contract.UNDETERMINED`, and
whose metadata says ``unanswerable: true``; the oracle still answers from a hidden
target value (any value: none is ever pinned). Every sample of such a task, ordinary or
not, shows the model the answer form for "cannot be determined" (`UNDETERMINED_LINES`);
with a share of 0 (the default) nothing changes.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from typing import Any

from inspect_ai.dataset import Sample

from infoseek.builders.unanswerable import (
    UnanswerableShareError,
    checked_share,
    unanswerable_count,
)
from infoseek.contract import UNDETERMINED
from infoseek.domain_declaration import UnanswerableBuild
from infoseek.domains import all_domains, get_builder, resolve
from infoseek.inspect_tasks.task_parameters import TaskParameterError
from infoseek.stored_forms import metadata_problem

UNDETERMINED_LINES: dict[str, str] = {
    "text": ("If no question you may ask can settle the answer, say so with this answer "
             f"line alone: Answer: {UNDETERMINED}"),
    "tool": ("If no question you may ask can settle the answer, say so by calling answer "
             f'with the value "{UNDETERMINED}".'),
}
"""The answer form for "cannot be determined", per interaction format, added to every
sample's input when the share is above 0."""


MAX_SKIPPED = 8
"""Records a task's filter may refuse per wanted one before the mix gives up."""


def unanswerable_builder(builder: str) -> UnanswerableBuild | None:
    """The function making `builder`'s unanswerable records ``(seed, k, index)``, as its
    declaration names it (`BuilderSpec.unanswerable`); None when it makes none."""
    declared = get_builder(builder)[1].unanswerable
    return None if declared is None else resolve(declared)


def unanswerable_builder_names() -> tuple[str, ...]:
    """Every registered builder that declares unanswerable records, domain by domain."""
    return tuple(spec.name for domain in all_domains() for spec in domain.builders
                 if spec.unanswerable is not None)


def checked_unanswerable(share: Any, builder: str, source: Any) -> float:
    """The share as a float, checked: a number in [0, 1); above 0 only on a built split
    of a builder that declares unanswerable records (`unanswerable_builder`). Raises
    `TaskParameterError` naming the fix."""
    try:
        value = checked_share(share)
    except UnanswerableShareError as exc:
        raise TaskParameterError(f"-T {exc}") from None
    if value and source:
        raise TaskParameterError("-T unanswerable mixes problems into a built split; it "
                                 "cannot be used with -T source (drop one of them)")
    if value and unanswerable_builder(builder) is None:
        raise TaskParameterError(f"-T unanswerable: the {builder} builder makes no "
                                 "unanswerable problems (use 0, or one of the builders "
                                 f"{', '.join(unanswerable_builder_names())})")
    return float(value)


def with_unanswerable(samples: list[Sample], builder: str, share: Any, *, seed: int,
                      fmt: str, render: Callable[[dict[str, Any]], str],
                      forbid_alternatives: bool,
                      select: Callable[[dict[str, Any]], bool] | None = None) -> list[Sample]:
    """`samples` and, for each k among them, `unanswerable_count(share, n_k)` unanswerable
    samples at that k (the builder's records ``0, 1, ...`` at (seed, k), skipping those
    the task's own filter `select` refuses, e.g. another problem family); every input
    gets the answer form of `fmt`. Unchanged when the share is 0."""
    if not checked_share(share):
        return samples
    build = unanswerable_builder(builder)
    line = UNDETERMINED_LINES[fmt]
    counts = Counter(sample.metadata["k"] for sample in samples)
    mixed = [_with_line(sample, line) for sample in samples]
    for k in sorted(counts):
        wanted = unanswerable_count(share, counts[k])
        made = 0
        for index in range(MAX_SKIPPED + wanted * MAX_SKIPPED):
            if made == wanted:
                break
            record = build(seed, k, index)
            if select is not None and not select(record):
                continue
            made += 1
            mixed.append(Sample(
                id=record["id"], input=f"{render(record)}\n\n{line}", target=UNDETERMINED,
                metadata={"problem": metadata_problem(record), **_hidden_instance(record),
                          "target_index": 0, "unanswerable": True, "k": k, "task_k": None,
                          "forbid_alternatives": forbid_alternatives}))
        if made < wanted:
            raise TaskParameterError(
                f"-T unanswerable: only {made} of the {wanted} unanswerable problems wanted "
                f"at k={k} pass the task's own filter; lower the share or widen the filter")
    return mixed


def _hidden_instance(record: dict[str, Any]) -> dict[str, Any]:
    """What the oracle answers from: the record's hidden world and its answer when it has
    one (math), else its first target value (any value does: none is ever pinned)."""
    if "hidden_world" in record:
        return {"target_value": record["answer"], "hidden_world": record["hidden_world"]}
    return {"target_value": record["target_values"][0]}


def _with_line(sample: Sample, line: str) -> Sample:
    sample.input = f"{sample.input}\n\n{line}"
    return sample
