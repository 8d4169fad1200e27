"""The GeneReg-MT builder: k-underspecified problems over Boolean networks.

Three streams, each with `per_k` problems for every k:

- steady state, attractor target: the genes of a steady state; some are observed; which
  fixed point of the catalogue is it (engine ``boolnet-steady``);
- dynamics, attractor target: some genes of the *initial* state are observed; which
  attractor does the synchronous update reach (engine ``boolnet-dynamic``);
- dynamics, marker target: the value of one marker gene in the reached attractor (a gene
  constant on every attractor of the catalogue, so the value is defined).

A problem is drawn from a seeded RNG (seed, stream, k, index): a network (curated or
random), and an observed context that leaves exactly `ASKABLE_LEVELS[index % 3]` genes
askable (12, 13 or 14: more than the default turn cap, so asking at random cannot ask
everything, and the same mix at every k and in every stream, so the number of genes a
policy can waste turns on is not confounded with k). For dynamics the askable genes are
the free genes of the initial state, every completion of which is simulated (the
engine's own bound is 16). A steady-state problem is kept only when at most
`k + STEADY_SPARE_GENES` of its askable genes still differ between the steady states
consistent with what is observed: the other askable genes are already fixed by the
observed genes and the steady-state conditions, so asking one wastes a turn, as asking a
gene outside the MSS does in a dynamics problem (whose outcome depends on its MSS genes
only). It is kept when the exact MSS search (`infoseek.analysis.minimal_sufficient_sets`,
the engine's distinguishing-pair fast path) gives exactly the wanted k, and each kept
record is re-checked by the generic subset search without the fast path (the same k and
family) and by `is_k_mss` on its canonical set. Same seed and version, same bytes.
"""

from __future__ import annotations

import functools
import itertools
import random
import statistics
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np

from infoseek.analysis import is_k_mss, minimal_sufficient_sets, possible_target_values
from infoseek.builders.genereg.catalogue import (
    DYNAMIC,
    STEADY,
    catalogue,
    engine_spec,
    marker_genes,
)
from infoseek.builders.genereg.networks_pool import NETWORKS_HASH, curated_networks, random_networks
from infoseek.builders.jobs import run_jobs
from infoseek.domains import BuilderSpec
from infoseek.engines.boolnet.network import decode
from infoseek.engines.boolnet.rules import Network
from infoseek.records import engine_from_record

SPEC = BuilderSpec(
    name="genereg",
    build=f"{__name__}:build_split",
    version="3.0.0",
    data_hash=NETWORKS_HASH,
    random_stream="genereg",
    max_k=4, default_ks=(1, 2, 3, 4), default_per_k=100, max_per_k=2_000,
    unanswerable="infoseek.builders.genereg.unanswerable:build_unanswerable",
)
"""GeneReg-MT; its data hash is the curated networks' (an edited rule file is never served
from a stale cache entry)."""
DOMAIN_NAME = "genereg"
ASKABLE_LEVELS = (12, 13, 14)
"""Askable genes of problem `index`: ``ASKABLE_LEVELS[index % len(ASKABLE_LEVELS)]``, so
every k of every stream has the same mix. For dynamics these are the free genes, 2^14
completions at most (the engine's own bound is 16)."""
MIN_ASKABLE = min(ASKABLE_LEVELS)
"""Fewest askable genes of a problem: more than the default turn cap of 10 questions, so
a policy that asks at random cannot simply ask every gene."""
STEADY_SPARE_GENES = 2
"""A steady-state problem with degree k has at most k + this many askable genes that can
still take both values (module docstring)."""
ATTRACTOR = "attractor"
MARKER = "marker"
STREAMS: tuple[tuple[str, str], ...] = ((STEADY, ATTRACTOR), (DYNAMIC, ATTRACTOR),
                                        (DYNAMIC, MARKER))
TARGET_VARIABLE = {ATTRACTOR: "attractor", MARKER: "marker"}
ATTEMPTS = 4000
MAX_CATALOGUE = 48
"""Networks with more attractors than this are left out (the prompt lists them all)."""


class GeneRegBuildError(ValueError):
    """No problem of the wanted shape was found."""


def _pool(seed: int) -> list[tuple[str, Network]]:
    return ([("curated", n) for n in curated_networks()]
            + [("random", n) for n in random_networks(seed)])


def _candidates(pool: list[tuple[str, Network]], family: str, target: str,
                askable: int) -> list[tuple[str, Network]]:
    """Networks that can give this stream a problem with `askable` askable genes."""
    found = []
    for origin, net in pool:
        if len(net.genes) < askable:
            continue
        entries = catalogue(net, family)
        if len(entries) > MAX_CATALOGUE:
            continue
        if target == MARKER:
            if not any(_varies(net, entries, g) for g in marker_genes(net, entries)):
                continue
        elif len(entries) < 2:
            continue
        found.append((origin, net))
    return found


def _varies(net: Network, entries: list[dict[str, Any]], gene: str) -> bool:
    bit = net.genes.index(gene)
    return len({(e["states"][0] >> bit) & 1 for e in entries}) == 2


def _draw(rng: random.Random, family: str, target: str, k: int, askable: int,
          candidates: list[tuple[str, Network]]) -> dict[str, Any] | None:
    origin, net = rng.choice(candidates)
    genes = list(net.genes)
    entries = catalogue(net, family)
    if target == MARKER:
        gene = rng.choice([g for g in marker_genes(net, entries) if _varies(net, entries, g)])
        spec_target = {"type": MARKER, "gene": gene}
    else:
        spec_target = {"type": ATTRACTOR}
    if family == STEADY:
        point = decode(rng.choice(entries)["states"][0], genes)
        shown = rng.sample(genes, len(genes) - askable)
        observed = {g: point[g] for g in genes if g in shown}
    else:
        free_genes = set(rng.sample(genes, askable))
        observed = {g: rng.randint(0, 1) for g in genes if g not in free_genes}
    target_var = TARGET_VARIABLE[target]
    record: dict[str, Any] = {
        "domain": DOMAIN_NAME,
        "entity": "the cell",
        "family": family,
        "target_type": target,
        "network": net.name,
        "network_origin": origin,
        "engine": engine_spec(net, family, spec_target),
        "variables": [*genes, target_var],
        "observed": observed,
        "target": target_var,
    }
    engine = engine_from_record(record)
    values = possible_target_values(engine)
    if len(values) < 2:
        return None
    queryable = [g for g in genes if g not in observed]
    if target == MARKER and not _rare_share(engine, k):
        return None
    if family == STEADY and len(changeable_genes(engine, queryable)) > k + STEADY_SPARE_GENES:
        return None
    result = minimal_sufficient_sets(engine, queryable, k)
    if result.k != k:
        return None
    family_sets = [list(s) for s in result.family]
    if target == MARKER and not is_coincidence_marker(engine, family_sets[0]):
        return None
    canonical = set(family_sets[0])
    record.update({
        "target_values": values,
        "queryable": queryable,
        "forbidden": [],
        "alternative_only": sorted({v for s in family_sets[1:] for v in s} - canonical,
                                   key=genes.index),
        "k": k,
        "mss_family": family_sets,
        "difficulty": difficulty_axes(net, entries, queryable, values, family_sets,
                                      len(changeable_genes(engine, queryable))),
    })
    _recheck(record, engine)
    return record


def _rare_share(engine: Any, k: int) -> bool:
    """A quick necessary test for a coincidence marker of k genes, before the MSS search:
    the marker's rarer value holds on exactly 1/2^k of the completions (the outcome
    depends on the k genes only, and one of their 2^k combinations gives it)."""
    counts = np.bincount(engine.outcome, minlength=2)
    return int(counts.min()) * 2 ** k == int(counts.sum())


def is_coincidence_marker(engine: Any, genes: Sequence[str]) -> bool:
    """Exactly one combination of `genes` gives the marker its rarer value (and the genes
    decide the marker). Against the adversarial oracle the marker is then Known exactly
    when every one of the genes has been asked, whatever the order (module docstring)."""
    values = []
    for combo in itertools.product((0, 1), repeat=len(genes)):
        outcome = engine.target_values(dict(zip(genes, combo, strict=True)))
        if len(outcome) != 1:
            return False
        values.extend(outcome)
    return len(values) > 1 and min(values.count(0), values.count(1)) == 1


def changeable_genes(engine: Any, queryable: Sequence[str]) -> list[str]:
    """The askable genes that can still take both values given what is observed."""
    return [g for g in queryable if len(engine.variable_values(g)) == 2]


def difficulty_axes(net: Network, entries: list[dict[str, Any]], queryable: list[str],
                values: list[Any], family_sets: list[list[str]],
                changeable: int) -> dict[str, Any]:
    """The record's difficulty axes; `changeable` counts the askable genes that can still
    take both values (`changeable_genes`)."""
    degrees = [len(net.regulators(g)) for g in net.regulated]
    return {"genes": len(net.genes), "inputs": len(net.inputs),
            "mean_in_degree": round(statistics.fmean(degrees), 3),
            "max_in_degree": max(degrees), "free_genes": len(queryable),
            "changeable_genes": changeable,
            "attractors": len(entries),
            "cycles": sum(1 for e in entries if len(e["states"]) > 1),
            "possible_outcomes": len(values), "mss_family_size": len(family_sets)}


def _recheck(record: dict[str, Any], engine: Any) -> None:
    """A second, independent route to the same ground truth: the subset search without
    the fast path, and the protocols §1 validator on the canonical set."""
    plain = minimal_sufficient_sets(engine, record["queryable"], record["k"],
                                    use_fast_path=False)
    if plain.k != record["k"] or [list(s) for s in plain.family] != record["mss_family"]:
        raise AssertionError(f"{record['network']}: the two MSS searches disagree")
    if not is_k_mss(engine, record["mss_family"][0], record["queryable"]):
        raise AssertionError(f"{record['network']}: the canonical MSS fails the validator")


def build_split(seed: int, per_k: int, ks: Sequence[int], *, workers: int | None = None,
                progress: Callable[[int, int], None] | None = None) -> list[dict[str, Any]]:
    """`per_k` problems for each stream (`STREAMS`) and each k of `ks`, in (k, stream,
    index) order; each problem is drawn from ``random.Random`` seeded by the seed,
    stream, k and index, so a k or a stream does not depend on which others are built,
    nor on `workers` (processes; default one per CPU)."""
    bad = [k for k in ks if k not in SPEC.ks]
    if bad:
        raise ValueError(f"the genereg builder makes k in 1..{SPEC.max_k}; got {bad}")
    jobs = [(seed, k, family, target, index) for k in ks for family, target in STREAMS
            for index in range(per_k)]
    return run_jobs(build_problem, jobs, workers, progress)


@functools.lru_cache(maxsize=32)
def _stream_candidates(seed: int, family: str, target: str,
                       askable: int) -> list[tuple[str, Network]]:
    return _candidates(_pool(seed), family, target, askable)


def build_problem(job: tuple[int, int, str, str, int]) -> dict[str, Any]:
    """Problem `index` of one stream and k (a module-level function: it runs in worker
    processes)."""
    seed, k, family, target, index = job
    askable = ASKABLE_LEVELS[index % len(ASKABLE_LEVELS)]
    candidates = _stream_candidates(seed, family, target, askable)
    rng = random.Random(f"{SPEC.random_stream}:{seed}:{family}:{target}:{k}:{index}")
    for _attempt in range(ATTEMPTS):
        record = _draw(rng, family, target, k, askable, candidates)
        if record is not None:
            break
    else:
        raise GeneRegBuildError(f"no {family}/{target} problem with k = {k} "
                                f"found in {ATTEMPTS} draws (seed {seed})")
    stream = f"{family[:3]}-{target[:3]}"
    return {"id": f"{SPEC.name}-{stream}-k{k}-s{seed}-{index:03d}", **record,
            "provenance": {"builder": SPEC.name, "version": SPEC.version,
                           "seed": seed, "index": index}}
