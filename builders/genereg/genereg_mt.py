"""The GeneReg-MT builder: k-underspecified problems over Boolean networks.

Three streams, each with `per_k` problems for every k:

- steady state, attractor target: the genes of a steady state; some are observed; which
  fixed point of the catalogue is it (engine ``boolnet-steady``);
- dynamics, attractor target: some genes of the *initial* state are observed; which
  attractor does the synchronous update reach (engine ``boolnet-dynamic``);
- dynamics, marker target: the value of one marker gene in the reached attractor (a gene
  constant on every attractor of the catalogue, so the value is defined).

A problem is drawn from a seeded RNG (seed, stream, k, index): a network (curated or
random) of at least `MIN_ASKABLE` genes, an observed context that leaves at least
`MIN_ASKABLE` genes askable (more than the default turn cap, so asking at random cannot
ask everything), and, for dynamics, at most `MAX_FREE` free genes (so every completion is
simulated; the engine's own bound is 16). It is kept when the exact MSS
search (`infoseek.analysis.minimal_sufficient_sets`, the engine's distinguishing-pair
fast path) gives exactly the wanted k, and each kept record is re-checked by the
generic subset search without the fast path (the same k and family) and by `is_k_mss`
on its canonical set. Same seed and version, same bytes.
"""

from __future__ import annotations

import random
import statistics
from collections.abc import Callable, Sequence
from typing import Any

from builders.genereg.catalogue import DYNAMIC, STEADY, catalogue, engine_spec, marker_genes
from builders.genereg.networks_pool import NETWORKS_HASH, curated_networks, random_networks
from infoseek.analysis import is_k_mss, minimal_sufficient_sets, possible_target_values
from infoseek.engines.boolnet.network import decode
from infoseek.engines.boolnet.rules import Network
from infoseek.records import engine_from_record

BUILDER = "genereg"
DOMAIN_NAME = "genereg"
BUILDER_VERSION = f"genereg-2+{NETWORKS_HASH}"
MAX_K = 4
DEFAULT_PER_K = 100
MAX_FREE = 14
"""Most free genes of a dynamics problem (2^14 completions simulated; the engine's own
bound is 16)."""
MIN_ASKABLE = 12
"""Fewest askable genes of a problem (and fewest genes of a network drawn): more than the
default turn cap of 10 questions, so a policy that asks at random cannot simply ask every
gene; the askable genes that do not help decide waste its turns."""
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


def _candidates(pool: list[tuple[str, Network]], family: str,
                target: str) -> list[tuple[str, Network]]:
    """Networks that can give this stream a problem at all."""
    found = []
    for origin, net in pool:
        if len(net.genes) < MIN_ASKABLE:
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


def _draw(rng: random.Random, family: str, target: str, k: int,
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
        shown = rng.sample(genes, rng.randint(0, len(genes) - max(k + 1, MIN_ASKABLE)))
        observed = {g: point[g] for g in genes if g in shown}
    else:
        free = rng.randint(MIN_ASKABLE, min(MAX_FREE, len(genes)))
        free_genes = set(rng.sample(genes, free))
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
    result = minimal_sufficient_sets(engine, queryable, k)
    if result.k != k:
        return None
    family_sets = [list(s) for s in result.family]
    canonical = set(family_sets[0])
    record.update({
        "target_values": values,
        "queryable": queryable,
        "forbidden": [],
        "alternative_only": sorted({v for s in family_sets[1:] for v in s} - canonical,
                                   key=genes.index),
        "k": k,
        "mss_family": family_sets,
        "difficulty": difficulty_axes(net, entries, queryable, values, family_sets),
    })
    _recheck(record, engine)
    return record


def difficulty_axes(net: Network, entries: list[dict[str, Any]], queryable: list[str],
                values: list[Any], family_sets: list[list[str]]) -> dict[str, Any]:
    degrees = [len(net.regulators(g)) for g in net.regulated]
    return {"genes": len(net.genes), "inputs": len(net.inputs),
            "mean_in_degree": round(statistics.fmean(degrees), 3),
            "max_in_degree": max(degrees), "free_genes": len(queryable),
            "attractors": len(entries),
            "cycles": sum(1 for e in entries if len(e["states"]) > 1),
            "possible_outcomes": len(values), "mss_family_size": len(family_sets)}


def _recheck(record: dict[str, Any], engine: Any) -> None:
    """A second, independent route to the same ground truth: the subset search without
    the fast path, and the SPEC section 1 validator on the canonical set."""
    plain = minimal_sufficient_sets(engine, record["queryable"], record["k"],
                                    use_fast_path=False)
    if plain.k != record["k"] or [list(s) for s in plain.family] != record["mss_family"]:
        raise AssertionError(f"{record['network']}: the two MSS searches disagree")
    if not is_k_mss(engine, record["mss_family"][0], record["queryable"]):
        raise AssertionError(f"{record['network']}: the canonical MSS fails the validator")


def build(seed: int, per_k: int, ks: Sequence[int], *, workers: int | None = None,
          progress: Callable[[int, int], None] | None = None) -> list[dict[str, Any]]:
    """`per_k` problems for each stream (`STREAMS`) and each k of `ks`; each problem is
    drawn from ``random.Random`` seeded by the seed, stream, k and index, so a k or a
    stream does not depend on which others are built. `workers` is accepted and unused
    (one problem takes milliseconds)."""
    bad = [k for k in ks if k not in range(1, MAX_K + 1)]
    if bad:
        raise ValueError(f"the genereg builder makes k in 1..{MAX_K}; got {bad}")
    pool = _pool(seed)
    records: list[dict[str, Any]] = []
    total = per_k * len(ks) * len(STREAMS)
    for k in ks:
        for family, target in STREAMS:
            candidates = _candidates(pool, family, target)
            for index in range(per_k):
                rng = random.Random(f"{BUILDER}:{seed}:{family}:{target}:{k}:{index}")
                for _attempt in range(ATTEMPTS):
                    record = _draw(rng, family, target, k, candidates)
                    if record is not None:
                        break
                else:
                    raise GeneRegBuildError(f"no {family}/{target} problem with k = {k} "
                                            f"found in {ATTEMPTS} draws (seed {seed})")
                stream = f"{family[:3]}-{target[:3]}"
                records.append({
                    "id": f"{BUILDER}-{stream}-k{k}-s{seed}-{index:03d}", **record,
                    "provenance": {"builder": BUILDER, "version": BUILDER_VERSION,
                                   "seed": seed, "index": index}})
                if progress is not None:
                    progress(len(records), total)
    return records
