"""The networks GeneReg-MT draws from: the curated rule files shipped in
``builders/genereg/networks/`` and seeded random networks (`generator`).

`NETWORKS_HASH` is the content hash of the curated files (the builder's data hash, part
of its data version, so an edited rule file never serves stale cached problems).
"""

from __future__ import annotations

import functools
import hashlib
import random
from pathlib import Path

from infoseek.builders.genereg.generator import random_network
from infoseek.engines.boolnet.rules import Network, read_rules_dir

NETWORKS_DIR = Path(__file__).parent / "networks"
RANDOM_POOL = 24
"""Random networks per build seed."""
RANDOM_GENES = (6, 14)
"""Regulated genes of a random network (inclusive range); 1-4 inputs are added."""


def _hash() -> str:
    digest = hashlib.sha256()
    for path in sorted(NETWORKS_DIR.glob("*.txt")):
        digest.update(path.name.encode() + b"\0" + path.read_bytes() + b"\0")
    return digest.hexdigest()[:12]


NETWORKS_HASH = _hash()


@functools.lru_cache(maxsize=1)
def curated_networks() -> tuple[Network, ...]:
    """The curated networks, sorted by name."""
    return tuple(read_rules_dir(NETWORKS_DIR).values())


def curated_sources() -> dict[str, str]:
    """Network name -> its source line (the ``# source:`` comment)."""
    found = {}
    for path in sorted(NETWORKS_DIR.glob("*.txt")):
        for line in path.read_text(encoding="utf-8").splitlines():
            if line.startswith("# source:"):
                found[path.stem] = line[len("# source:"):].strip()
                break
    return found


@functools.lru_cache(maxsize=8)
def random_networks(seed: int) -> tuple[Network, ...]:
    """`RANDOM_POOL` random networks for build seed `seed` (names ``random-<seed>-<i>``)."""
    pool = []
    for index in range(RANDOM_POOL):
        rng = random.Random(f"genereg-random:{seed}:{index}")
        genes = rng.randint(*RANDOM_GENES)
        inputs = rng.randint(1, min(4, genes))
        pool.append(random_network(rng, genes, inputs, name=f"random-{seed}-{index:02d}"))
    return tuple(pool)
