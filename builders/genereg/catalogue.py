"""Attractor catalogues of a network, with the ids shown to the model, cached per
network.

- steady family: the fixed points (SAT), ids ``S1, S2, ...`` by ascending state code;
- dynamic family: every attractor (whole state space walked), fixed points first by
  code, then cycles by length and smallest code, ids ``A1, A2, ...``.

A catalogue depends only on the rules, so it is cached in memory and on disk under the
dataset cache folder (``genereg-catalogue-<family>-<hash of the rules>.json``); a file
that does not hold a valid catalogue for those rules is recomputed.
"""

from __future__ import annotations

import functools
import hashlib
import json
from typing import Any

from infoseek.builders.cache import cache_dir
from infoseek.engines.boolnet.network import attractors, check_attractor, fixed_points
from infoseek.engines.boolnet.rules import Network
from infoseek.jsonl import write_atomically

STEADY = "steady"
DYNAMIC = "dynamic"
FAMILIES = (STEADY, DYNAMIC)
ENGINE_KIND = {STEADY: "boolnet-steady", DYNAMIC: "boolnet-dynamic"}


def rules_hash(network: Network) -> str:
    return hashlib.sha256("\n".join(network.rule_lines()).encode()).hexdigest()[:16]


def _compute(network: Network, family: str) -> list[dict[str, Any]]:
    if family == STEADY:
        return [{"id": f"S{i}", "states": [code]}
                for i, code in enumerate(fixed_points(network), 1)]
    return [{"id": f"A{i}", "states": list(a.states)}
            for i, a in enumerate(attractors(network), 1)]


def _valid(network: Network, family: str, entries: Any) -> bool:
    if not isinstance(entries, list) or not entries:
        return False
    try:
        if family == STEADY:
            return [e["states"][0] for e in entries] == list(fixed_points(network))
        return all(check_attractor(network, e["states"]) for e in entries)
    except (KeyError, TypeError, IndexError):
        return False


@functools.lru_cache(maxsize=256)
def _cached(network: Network, family: str) -> str:
    path = cache_dir() / f"genereg-catalogue-{family}-{rules_hash(network)}.json"
    if path.exists():
        try:
            entries = json.loads(path.read_text(encoding="utf-8"))
        except ValueError:
            entries = None
        if _valid(network, family, entries):
            return json.dumps(entries)
    entries = _compute(network, family)
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        write_atomically(path, json.dumps(entries).encode("utf-8"), ordinary_mode=True)
    except OSError:
        pass  # a read-only cache folder only costs the recomputation
    return json.dumps(entries)


def catalogue(network: Network, family: str) -> list[dict[str, Any]]:
    """The network's catalogue for `family` (a fresh list each call)."""
    if family not in FAMILIES:
        raise ValueError(f"family must be one of {FAMILIES}; got {family!r}")
    return json.loads(_cached(network, family))


def engine_spec(network: Network, family: str, target: dict[str, Any]) -> dict[str, Any]:
    """The ``engine`` field of a record over `network`."""
    return {"kind": ENGINE_KIND[family], "network": network.name,
            "rules": network.rule_lines(), "genes": list(network.genes),
            "catalogue": catalogue(network, family), "target": dict(target)}


def marker_genes(network: Network, entries: list[dict[str, Any]]) -> list[str]:
    """Genes constant on every state of every catalogued attractor (so a marker value is
    defined whichever attractor is reached), in gene order."""
    found = []
    for bit, gene in enumerate(network.genes):
        if all(len({(c >> bit) & 1 for c in e["states"]}) == 1 for e in entries):
            found.append(gene)
    return found
