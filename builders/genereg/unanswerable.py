"""Gene-regulation problems no question can settle (issue 34, `-T unanswerable=` on
`genereg_mt`).

Made from an ordinary GeneReg-MT problem (`genereg_mt.build_problem`; record ``i`` takes
its stream from ``i`` in the order of `genereg_mt.STREAMS`) by *making needed genes
unaskable*: the first of these gene sets that leaves the target open whatever the
askable genes are becomes forbidden: one gene of the canonical MSS (in a seeded order),
then the whole canonical MSS, then every gene of the MSS family. Asking for a forbidden
gene is refused.

The check is exact (`rows_settle_nothing`): the Boolean network engines hold every
feasible world as a row with its outcome (`RowTableEngine`: the steady states, or every
completion of the observed initial state with the attractor it reaches), so grouping the
rows by the values of the askable genes and asking that every group has at least two
outcomes is the whole question, answered in one pass. The tests hold it to the
brute-force referee (`infoseek.builders.unanswerable.settles_nothing`, which asks the
engine row by row). A problem where no such set works is skipped for the next ordinary
one. The engine's fast path also confirms that the whole askable set is not sufficient,
the builders' own rejection test.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from infoseek.analysis import is_known, is_sufficient
from infoseek.builders.unanswerable import (
    UNANSWERABLE_SUFFIX,
    canonical_then_family,
    first_unanswerable,
    open_whatever_is_asked,
)
from infoseek.record_views import askable_variables

VERSION = "1.0.0"
"""The version of this construction (recorded in each record's provenance)."""
RANDOM_STREAM = "genereg_mt_unanswerable:1.0.0"
BASE_TRIES = 10
"""Ordinary problems tried per record before a `BuildError`."""


def rows_settle_nothing(engine: Any, askable: Sequence[str]) -> bool:
    """True iff every feasible assignment of the `askable` genes leaves at least two
    outcomes among the engine's rows (a `RowTableEngine`: ``bits`` and ``outcome``)."""
    if len(engine.bits) == 0:
        return False
    columns = [engine.column[g] for g in askable]
    weights = np.array([1 << i for i in range(len(columns))], dtype=np.int64)
    keys = (engine.bits[:, columns].astype(np.int64) @ weights if columns
            else np.zeros(len(engine.bits), dtype=np.int64))
    pairs = np.unique(np.stack([keys, engine.outcome.astype(np.int64)], axis=1), axis=0)
    _, outcomes_per_key = np.unique(pairs[:, 0], return_counts=True)
    return bool((outcomes_per_key >= 2).all())


def forbid_genes(record: dict[str, Any], genes: list[str]) -> dict[str, Any]:
    """The record with `genes` made unaskable: forbidden, out of ``queryable``; the id
    gets the suffix ``-unanswerable``, the MSS family is empty, ``k`` stays."""
    out = {key: value for key, value in record.items() if key != "provenance"}
    out["id"] = f"{record['id']}-{UNANSWERABLE_SUFFIX}"
    out["queryable"] = [g for g in record["queryable"] if g not in genes]
    out["forbidden"] = sorted({*record.get("forbidden", ()), *genes})
    out["alternative_only"] = []
    out["mss_family"] = []
    out["unanswerable"] = {"withheld": sorted(genes), "made_from": record["id"]}
    out["provenance"] = {**(record.get("provenance") or {}), "unanswerable": VERSION}
    return out


def validate_unanswerable_genereg_record(record: dict[str, Any]) -> list[str]:
    """The exact checks of the module docstring; returns the problems (empty: valid)."""
    from infoseek.records import engine_from_record

    withheld = list((record.get("unanswerable") or {}).get("withheld") or [])
    engine = engine_from_record(record)
    askable = askable_variables(record, forbid_alternatives=True)
    errors = []
    if not withheld or set(withheld) & set(askable):
        errors.append("the withheld genes must be forbidden")
    if is_known(engine):
        errors.append("the target is Known from the observations")
    if is_sufficient(engine, askable):
        errors.append("the askable genes together settle the target")
    elif not rows_settle_nothing(engine, askable):
        errors.append("some answers to the askable genes settle the target")
    return errors


def build_unanswerable(seed: int, k: int, index: int) -> dict[str, Any]:
    """Unanswerable record `index` at (seed, k) (module docstring); deterministic in
    (seed, k, index)."""
    from infoseek.builders.genereg.genereg_mt import STREAMS, build_problem

    family, target = STREAMS[index % len(STREAMS)]
    return first_unanswerable(
        "genereg", seed=seed, k=k, index=index, random_stream=RANDOM_STREAM,
        tries=BASE_TRIES,
        ordinary=lambda at: build_problem((seed, k, family, target, at)),
        withheld_sets=canonical_then_family,
        leaves_open=open_whatever_is_asked(rows_settle_nothing),
        withhold=forbid_genes, validate=validate_unanswerable_genereg_record)
