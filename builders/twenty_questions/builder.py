"""Twenty Questions records from the pools (`infoseek.builders.twenty_questions.pools`).

Two kinds, both over the attribute-table engine (`infoseek.engines.table`):

- **Game records** (`game_records`): one per target of a pool. The engine holds the whole
  declared pool (every candidate of the pool's groups, the table row of each), nothing is
  observed, and ``answer`` (a hidden field: the seek store never shows it) is the target.
  ``questions``, ``phrases`` and ``aliases`` carry what the offline examiner and
  evaluator and the guess reader need. ``k`` and ``mss_family`` are not defined for the
  open game (protocols §5.6, the paper's D.5.1): ``k`` is None and the family empty.
- **CSP records** (`build_split`, the registered builder): the table as a
  k-underspecified CSP for k-prediction and MSS identification. A target and an order
  of its attributes are drawn; attributes are revealed in that order (their values are
  the target's) until the candidates left need exactly ``k`` more attributes, found by
  the generic exact MSS search (`infoseek.analysis.minimal_sufficient_sets`, global
  minimality over every unrevealed attribute). The record keeps only the candidates
  consistent with what is revealed (the others are infeasible: Known, sufficiency and the
  MSS family are the same), and its task family is those candidates.

Deterministic: the seed orders targets and attributes; the same seed gives the same bytes.
"""

from __future__ import annotations

import random
import re
from collections.abc import Callable, Sequence
from typing import Any

from infoseek.analysis import minimal_sufficient_sets
from infoseek.builders.twenty_questions.pools import Pool, get_pool, pools_content_hash
from infoseek.domains import BuilderSpec
from infoseek.engines.table import AttributeTableEngine

SPEC = BuilderSpec(
    name="twenty-questions",
    build=f"{__name__}:build_split",
    version="1.0.0",
    data_hash=pools_content_hash(),
    random_stream="twenty-q",
    max_k=4, default_ks=(1, 2, 3, 4), default_per_k=10, max_per_k=200,
)
"""The CSP records; its data hash is the pool files' (an edited pool file is never served
from a stale cache entry), which every record also carries (``provenance.pools``). The
random stream's text is kept from the builder's first name (`twenty-q`), so that a seed
draws the same problems as before the rename."""
DOMAIN_NAME = "twenty_questions"
ID_PREFIX = "twenty-q"
"""Record ids start with the builder's first name, as its random stream does: an id is a
record's identity (eval-set matches samples by it, and the random reference model seeds its
draws with it), so the rename to twenty-questions left ids as they were."""
TARGET = "candidate"
ENTITY = "X"
CSP_POOL = "common"
"""The pool the CSP problems are drawn from."""


def _slug(name: str) -> str:
    return re.sub(r"[^a-z0-9]+", "-", name.lower()).strip("-")


def _table_fields(pool: Pool, names: Sequence[str]) -> dict[str, Any]:
    by_name = {c.name: c for c in pool.candidates}
    attributes = [a.id for a in pool.attributes]
    return {
        "engine": {"kind": "attribute-table", "attributes": attributes,
                   "candidates": list(names), "rows": [by_name[n].row for n in names]},
        "variables": [*attributes, TARGET],
        "target": TARGET,
        "target_values": list(names),
        "questions": {a.id: a.question for a in pool.attributes},
        "phrases": {a.id: list(a.phrases) for a in pool.attributes},
        "aliases": {n: list(by_name[n].aliases) for n in names},
    }


def game_records(pool_name: str) -> list[dict[str, Any]]:
    """One game record per target of the pool, in the pool file's target order."""
    return pool_records(get_pool(pool_name), {"pools": pools_content_hash()})


def pool_records(pool: Pool, provenance: dict[str, Any]) -> list[dict[str, Any]]:
    """One game record per target of `pool` (a shipped pool, or a name-list pool of
    `infoseek.builders.twenty_questions.pools.list_pool`), its `provenance` added to
    every record's. A candidate without a table row has ``?`` cells (only an evaluator
    model labels it)."""
    names = [c.name for c in pool.candidates]
    table = _table_fields(pool, names)
    by_name = {c.name: c for c in pool.candidates}
    return [{
        "id": f"{ID_PREFIX}-{pool.name}-{index:03d}-{_slug(target)}",
        "domain": DOMAIN_NAME, "entity": ENTITY, **table, "observed": {},
        "queryable": table["variables"][:-1], "forbidden": [], "alternative_only": [],
        "k": None, "mss_family": [], "pool": pool.name,
        "group": by_name[target].group, "answer": target,
        "provenance": {"builder": SPEC.name, "version": SPEC.version,
                       "pool": pool.name, **provenance, "index": index},
    } for index, target in enumerate(pool.targets)]


def csp_record(pool: Pool, target: str, order: Sequence[str], k: int, seed: int,
               index: int) -> dict[str, Any] | None:
    """The CSP problem of revealing `order` until exactly k attributes are missing, or
    None when the count jumps past k."""
    rows = {c.name: c.row for c in pool.candidates}
    attributes = [a.id for a in pool.attributes]
    column = {a: i for i, a in enumerate(attributes)}
    letter = {"y": "yes", "n": "no", "p": "pass"}
    observed: dict[str, str] = {}
    for attr in order:
        observed[attr] = letter[rows[target][column[attr]]]
        left = [n for n, row in rows.items()
                if all(letter[row[column[a]]] == v for a, v in observed.items())]
        if len(left) > 2 ** (2 * k):
            continue
        engine = AttributeTableEngine(attributes, left, [rows[n] for n in left], TARGET,
                                      observed)
        queryable = [a for a in attributes if a not in observed]
        result = minimal_sufficient_sets(engine, queryable, SPEC.max_k)
        if result.k is None or result.k > k:
            continue
        if result.k < k:
            return None
        fields = _table_fields(pool, left)
        return {
            "id": f"{ID_PREFIX}-s{seed}-k{k}-{index:04d}", "domain": DOMAIN_NAME,
            "entity": ENTITY, **fields, "observed": dict(observed), "queryable": queryable,
            "forbidden": [], "alternative_only": [], "k": k,
            "mss_family": [list(s) for s in result.family], "pool": pool.name,
            "provenance": {"builder": SPEC.name, "version": SPEC.version,
                           "seed": seed, "index": index, "pools": pools_content_hash(),
                           "drawn_target": target},
        }
    return None


def build_split(seed: int, per_k: int, ks: Sequence[int], *, workers: int | None = None,
                progress: Callable[[int, int], None] | None = None) -> list[dict[str, Any]]:
    """Up to `per_k` CSP problems for each k of `ks` (module docstring); `workers` is
    accepted and unused."""
    bad = [k for k in ks if k not in SPEC.ks]
    if bad:
        raise ValueError(f"the twenty-questions builder makes k in 1..{SPEC.max_k}; got {bad}")
    pool = get_pool(CSP_POOL)
    records: list[dict[str, Any]] = []
    for k in ks:
        rng = random.Random(f"{SPEC.random_stream}:{seed}:{k}")
        made, attempt = 0, 0
        while made < per_k and attempt < 50 * per_k:
            target = rng.choice([c.name for c in pool.candidates])
            order = [a.id for a in pool.attributes]
            rng.shuffle(order)
            record = csp_record(pool, target, order, k, seed, made)
            attempt += 1
            if record is not None:
                records.append(record)
                made += 1
                if progress is not None:
                    progress(len(records), per_k * len(ks))
    return records
