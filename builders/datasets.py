"""The one records loader of every domain: a built split (cached per k) or the records of
a source file, for a builder registered in `infoseek.domains`.

    records = domain_records("logic-mt", ks=[1, 2], per_k=200, seed=0)
    records = domain_records("gsme-mt-ext", ks=[1], source="gsme_q_mt_ext.csv")

A source is read with the source formats of the builder's domain
(`infoseek.builders.published.sources`); without one, each k is built (or read back from
the cache, keyed by the builder's name, its data version and the parameters), so a run
over k=[1,2] reuses a run over k=1. A k that is built prints its progress on stderr (a
line as it starts, at least one every 10 s even while the builder is silent, one when
it is done); one read from the cache prints
nothing. `per_k` is at most the builder's cap (`infoseek.domains.BuilderSpec.max_per_k`),
as in `infoseek build`.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from infoseek.builders.cache import load_or_build
from infoseek.builders.jobs import StageProgress
from infoseek.builders.published.sources import source_records
from infoseek.domains import get_builder, resolve
from infoseek.engine import ordered_values
from infoseek.records import engine_from_record


def domain_records(builder: str, *, ks: list[int] | tuple[int, ...], per_k: int | None = None,
                   seed: int = 0, source: str | None = None,
                   source_format: str | None = None,
                   limit: int | None = None,
                   inputs: Mapping[str, Any] | None = None) -> list[dict[str, Any]]:
    """Records of registered builder `builder` for the k values `ks`: built with `seed`
    and `per_k` problems per k (the builder's default when None), or read from `source`
    (our JSONL records or a released file of the domain; the first `limit` problems;
    `inputs`: the source format's extra inputs, e.g. its folder of rule files)."""
    domain, spec = get_builder(builder)
    given = {name: value for name, value in (inputs or {}).items() if value is not None}
    if source:
        return source_records(source, domain=domain.name, source_format=source_format,
                              ks=list(ks), limit=limit, inputs=given)
    if source_format:
        raise ValueError("source_format needs a source= file")
    if given:
        raise ValueError(f"{next(iter(given))} needs a source= file")
    if not isinstance(seed, int) or isinstance(seed, bool):
        raise ValueError(f"seed must be an integer; got {seed!r}")
    per_k = spec.default_per_k if per_k is None else per_k
    if not isinstance(per_k, int) or isinstance(per_k, bool) or per_k < 1:
        raise ValueError(f"per_k must be a positive integer; got {per_k!r}")
    if per_k > spec.max_per_k:
        raise ValueError(f"per_k must be at most {spec.max_per_k} for {spec.name} (the "
                         f"builder's cap); got {per_k}")
    build = resolve(spec.build)
    out: list[dict[str, Any]] = []
    for k in ks:
        out.extend(load_or_build(spec.name, spec.data_version,
                                 {"seed": seed, "per_k": per_k, "k": k},
                                 lambda k=k: _build_stage(build, spec.name, seed, per_k, k)))
    return out


PROGRESS_INTERVAL = 10.0
"""The longest a build stage goes without a progress line, in seconds."""


def _build_stage(build: Any, name: str, seed: int, per_k: int, k: int
                 ) -> list[dict[str, Any]]:
    """One k of a split, built (not in the cache) with progress lines on stderr
    (`infoseek.builders.jobs.StageProgress`: at least one every `PROGRESS_INTERVAL`
    seconds, whether or not the builder reports)."""
    with StageProgress(f"{name} k={k} (per_k={per_k}, seed={seed})",
                       interval=PROGRESS_INTERVAL) as progress:
        records = build(seed, per_k, [k], progress=progress)
        progress.finish(len(records))
    return records


def full_information_record(record: dict[str, Any]) -> dict[str, Any]:
    """The record with every leaf of its hidden world revealed: the target is Known and
    nothing is left to ask (k = 0, empty MSS); ``original_k`` keeps the degree."""
    world = record["hidden_world"]
    return {
        **record,
        "observed": dict(world),
        "queryable": [],
        "candidate_queries": [],
        "alternative_only": [],
        "k": 0,
        "mss_family": [[]],
        "original_k": record["k"],
    }


def full_information_records(record: dict[str, Any]) -> list[dict[str, Any]]:
    """The fully informed versions of a record: with a hidden world, the one of
    `full_information_record`; otherwise one per value of ``target_values``, each
    observing every variable of one feasible world with that target value (the first in
    domain order, found with the engine's ``variable_values``), id ``<id>-<value>``."""
    if "hidden_world" in record:
        return [full_information_record(record)]
    engine = engine_from_record(record)
    out = []
    for value in record["target_values"]:
        world = dict(record["observed"])
        for var in engine.variables:
            if var == engine.target or var in world:
                continue
            choices = ordered_values(engine.variable_values(var, world, value),
                                     engine.domain(var))
            if not choices:
                raise ValueError(f"{record['id']}: no feasible world gives the target "
                                 f"{value!r}")
            world[var] = choices[0]
        out.append({**record, "id": f"{record['id']}-{value}", "observed": world,
                    "target_values": [value], "queryable": [], "candidate_queries": [],
                    "alternative_only": [], "k": 0, "mss_family": [[]],
                    "original_k": record["k"]})
    return out
