"""Logic problem records for tasks: a built split (cached), a JSONL file of our records,
or a released Logic-Q-MT / QuestBench Logic-Q file (`builders.published.sources`)."""

from __future__ import annotations

from typing import Any

from builders.cache import load_or_build
from builders.logic import logic_mt
from builders.published.sources import source_records


def logic_records(*, seed: int = 0, per_k: int = logic_mt.DEFAULT_PER_K,
                  ks: list[int] | tuple[int, ...] = logic_mt.DEFAULT_KS,
                  source: str | None = None, source_format: str | None = None,
                  limit: int | None = None) -> list[dict[str, Any]]:
    if source:
        return source_records(source, domain="logic", source_format=source_format,
                              ks=list(ks), limit=limit)
    if source_format:
        raise ValueError("source_format needs a source= file")
    if not isinstance(seed, int) or isinstance(seed, bool):
        raise ValueError(f"seed must be an integer; got {seed!r}")
    if not isinstance(per_k, int) or isinstance(per_k, bool) or per_k < 1:
        raise ValueError(f"per_k must be a positive integer; got {per_k!r}")
    out: list[dict[str, Any]] = []
    for k in ks:  # cache per k, so a run over k=[1,2] reuses a run over k=1
        out.extend(load_or_build(
            logic_mt.BUILDER_NAME, logic_mt.BUILDER_VERSION,
            {"seed": seed, "per_k": per_k, "k": k},
            lambda k=k: logic_mt.build_split(seed, per_k, [k]),
        ))
    return out
