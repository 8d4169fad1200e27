"""The released MT-InfoSeek GeneReg file (JSON Lines, one problem a line) as genereg
records, read against a folder of rule files (the source format's extra input ``rules``).

Fields read:

- ``family``: ``GeneReg-SS`` (steady state) or ``GeneReg-Dyn`` (dynamics);
- ``model``: the network, the rule file ``<model>.txt`` of the rules folder;
- ``var_names``: the gene order of the row (external inputs included); it must hold
  exactly the rule file's genes and external inputs, in any order: a row that does not
  is refused with the check ``var_names`` (its states and indices cannot be read);
- ``target_type``: ``attractor_id`` or ``marker_gene`` (with ``marker_gene``, a gene);
- ``observed``: ``[[gene, 0|1], ...]``;
- ``k_min``, ``minimal_sufficient_sets`` (lists of gene names), ``feasible_target_values``
  (integer labels of the publisher's catalogue; for a marker target, the values 0/1);
- ``branches``: ``[{"y": label, "state": code}, ...]``, the code one full assignment with
  bit i = gene i of ``var_names`` (least significant bit first): a fixed point for the
  steady family, an initial state for the dynamics family;
- ``metadata.forbid_profile.queryable_gene_indices``: the askable genes (indices into
  ``var_names``); absent: every gene not observed.

A row becomes a record like the GeneReg-MT builder's (`infoseek.builders.genereg.genereg_mt`):
the engine, the catalogue with our ids (``S1, ...`` / ``A1, ...``), the target values,
``k`` and the MSS family are all computed from the rules (the released file is known to
hold wrong ground truth, so a task never runs on it; the canonical MSS is the first
released set when it is one of ours), and ``released`` keeps every released field of
ground truth as written. `infoseek.builders.genereg.released.verify` re-derives everything again
to compare with ``released`` and corrects rows.
"""

from __future__ import annotations

import functools
from pathlib import Path
from typing import Any

from infoseek.analysis import minimal_sufficient_sets, possible_target_values
from infoseek.builders.genereg.catalogue import DYNAMIC, STEADY, catalogue, engine_spec
from infoseek.builders.genereg.genereg_mt import (
    ATTRACTOR,
    DOMAIN_NAME,
    MARKER,
    TARGET_VARIABLE,
    changeable_genes,
    difficulty_axes,
)
from infoseek.builders.genereg.released.verify import correct_row, verify_row
from infoseek.builders.published import Record, SourceFormat
from infoseek.builders.published.cells import RowRef, cell, int_cell
from infoseek.engines.boolnet.rules import Network, RuleError, read_rules_file
from infoseek.records import engine_from_record
from infoseek.text import short_repr

FAMILIES = {"GeneReg-SS": STEADY, "GeneReg-Dyn": DYNAMIC}
TARGET_TYPES = {"attractor_id": ATTRACTOR, "marker_gene": MARKER}
REQUIRED = ("family", "model", "var_names", "target_type", "observed", "k_min",
            "minimal_sufficient_sets", "feasible_target_values", "branches")
SIGNATURE = ("model", "var_names", "branches", "feasible_target_values")
ID_FIELDS = ("id", "sample_id", "problem_id")
REFUSED_VAR_NAMES = "var_names"
"""The check of a row whose var_names are not its rule file's genes and inputs."""


@functools.lru_cache(maxsize=256)
def _rule_file(path: str, stamp: tuple[int, int]) -> Network:
    return read_rules_file(path)


def rules_network(rules_dir: str, model: Any, ref: RowRef) -> Network:
    """The network ``<rules_dir>/<model>.txt`` (read once per file version)."""
    if not isinstance(model, str) or not model.strip() or "/" in model or "\\" in model:
        raise ref.error("model", f"expected a network name (a rule file name without .txt), "
                                 f"got {short_repr(model)}")
    path = Path(rules_dir) / f"{model.strip()}.txt"
    if not path.is_file():
        raise ref.error("model", f"no rule file {path.name} in {rules_dir}",
                        check="model")
    stat = path.stat()
    try:
        return _rule_file(str(path), (stat.st_mtime_ns, stat.st_size))
    except RuleError as exc:
        raise ref.error("model", f"the rule file cannot be read: {exc}", check="model") from None


def _choice(row: dict[str, Any], field: str, ref: RowRef, allowed: dict[str, str]) -> str:
    value = cell(row, field, ref)
    if value not in allowed:
        raise ref.error(field, f"expected one of {', '.join(allowed)}, got {short_repr(value)}")
    return allowed[value]


def _list(row: dict[str, Any], field: str, ref: RowRef, what: str) -> list[Any]:
    value = row.get(field)
    if not isinstance(value, list):
        raise ref.error(field, f"expected {what}, got {short_repr(value)}")
    return value


def _int(value: Any) -> int | None:
    if isinstance(value, bool):
        return int(value)
    if isinstance(value, int):
        return value
    if isinstance(value, float) and value.is_integer():
        return int(value)
    return None


def _var_names(row: dict[str, Any], ref: RowRef) -> list[str]:
    names = _list(row, "var_names", ref, "a list of gene names")
    if not names or not all(isinstance(n, str) and n.strip() for n in names):
        raise ref.error("var_names", f"expected a non-empty list of gene names, got "
                                     f"{short_repr(names)}")
    names = [n.strip() for n in names]
    if len(set(names)) != len(names):
        repeated = sorted({n for n in names if names.count(n) > 1})
        raise ref.error("var_names", f"names {repeated[0]!r} more than once")
    return names


def _check_var_names(var_names: list[str], network: Network, ref: RowRef) -> None:
    genes = list(network.genes)
    if set(var_names) == set(genes):
        return
    missing = [g for g in genes if g not in var_names]
    extra = [g for g in var_names if g not in genes]
    parts = []
    if missing:
        parts.append(f"lacks {', '.join(missing[:6])}")
    if extra:
        parts.append(f"names {', '.join(extra[:6])}, not in the rules")
    raise ref.error("var_names", f"do not match {network.name}.txt's genes and external "
                                 f"inputs ({len(genes)}): {'; '.join(parts)}",
                    check=REFUSED_VAR_NAMES)


def _gene(value: Any, field: str, ref: RowRef, var_names: list[str]) -> str:
    if not isinstance(value, str) or value.strip() not in var_names:
        raise ref.error(field, f"{short_repr(value)} is not a gene of var_names")
    return value.strip()


def _observed(row: dict[str, Any], ref: RowRef, var_names: list[str]) -> dict[str, int]:
    observed: dict[str, int] = {}
    for pair in _list(row, "observed", ref, "a list of [gene, 0|1] pairs"):
        if not isinstance(pair, list) or len(pair) != 2:
            raise ref.error("observed", f"expected [gene, 0|1], got {short_repr(pair)}")
        gene = _gene(pair[0], "observed", ref, var_names)
        value = _int(pair[1])
        if value not in (0, 1):
            raise ref.error("observed", f"{gene} has value {short_repr(pair[1])}; expected 0 or 1")
        if observed.get(gene, value) != value:
            raise ref.error("observed", f"{gene} is observed both 0 and 1")
        observed[gene] = value
    return observed


def _gene_sets(row: dict[str, Any], ref: RowRef, var_names: list[str]) -> list[list[str]]:
    field = "minimal_sufficient_sets"
    sets = []
    for item in _list(row, field, ref, "a list of lists of gene names"):
        if not isinstance(item, list):
            raise ref.error(field, f"expected lists of gene names, got {short_repr(item)}")
        sets.append(sorted({_gene(g, field, ref, var_names) for g in item},
                           key=var_names.index))
    return sets


def _branches(row: dict[str, Any], ref: RowRef, n: int) -> list[dict[str, int]]:
    out = []
    for number, item in enumerate(_list(row, "branches", ref, 'a list of {"y", "state"}'), 1):
        y = _int(item.get("y")) if isinstance(item, dict) else None
        state = _int(item.get("state")) if isinstance(item, dict) else None
        if y is None or state is None or not 0 <= state < (1 << n):
            raise ref.error("branches", f"branch {number}: expected {{\"y\": id, \"state\": "
                                        f"0..2^{n}-1}}, got {short_repr(item)}")
        out.append({"y": y, "state": state})
    return out


def _queryable_indices(row: dict[str, Any], ref: RowRef, n: int) -> list[int] | None:
    meta = row.get("metadata")
    profile = meta.get("forbid_profile") if isinstance(meta, dict) else None
    indices = profile.get("queryable_gene_indices") if isinstance(profile, dict) else None
    if indices is None:
        return None
    field = "metadata.forbid_profile.queryable_gene_indices"
    if not isinstance(indices, list) or any(_int(i) is None or not 0 <= _int(i) < n
                                            for i in indices):
        raise ref.error(field, f"expected indices into var_names (0..{n - 1}), got "
                               f"{short_repr(indices)}")
    return sorted({_int(i) for i in indices})  # type: ignore[type-var]


def record_from_row(row: dict[str, Any], ref: RowRef, inputs: dict[str, str]) -> Record:
    """One released row -> a genereg record (without `id`)."""
    family = _choice(row, "family", ref, FAMILIES)
    network = rules_network(inputs["rules"], cell(row, "model", ref), ref)
    var_names = _var_names(row, ref)
    _check_var_names(var_names, network, ref)
    target_type = _choice(row, "target_type", ref, TARGET_TYPES)
    genes = list(network.genes)
    if target_type == MARKER:
        spec_target = {"type": MARKER,
                       "gene": _gene(row.get("marker_gene"), "marker_gene", ref, var_names)}
    else:
        spec_target = {"type": ATTRACTOR}
    observed = _observed(row, ref, var_names)
    k_min = int_cell(row, "k_min", ref, minimum=0)
    released_family = _gene_sets(row, ref, var_names)
    feasible = [_int(v) for v in _list(row, "feasible_target_values", ref,
                                       "a list of integer ids")]
    if any(v is None for v in feasible):
        raise ref.error("feasible_target_values", "expected integer ids")
    twice = next((v for i, v in enumerate(feasible) if v in feasible[:i]), None)
    if twice is not None:
        raise ref.error("feasible_target_values", f"lists {twice} twice; each value is one "
                        "outcome: list it once")
    branches = _branches(row, ref, len(var_names))
    indices = _queryable_indices(row, ref, len(var_names))
    askable = set(var_names if indices is None else [var_names[i] for i in indices])
    try:
        entries = catalogue(network, family)
    except ValueError as exc:  # too many genes to walk every state
        raise ref.error("model", str(exc), check="undecidable") from None
    target_var = TARGET_VARIABLE[target_type]
    queryable = [g for g in genes if g in askable and g not in observed]
    family_sets = [sorted(s, key=genes.index) for s in released_family]
    record: Record = {
        "domain": DOMAIN_NAME,
        "entity": "the cell",
        "family": family,
        "target_type": target_type,
        "network": network.name,
        "network_origin": "released",
        "engine": engine_spec(network, family, spec_target),
        "variables": [*genes, target_var],
        "observed": {g: observed[g] for g in genes if g in observed},
        "target": target_var,
        "target_values": [],
        "queryable": queryable,
        "forbidden": [],
        "alternative_only": sorted({g for s in family_sets[1:] for g in s}
                                   - set(family_sets[0] if family_sets else []),
                                   key=genes.index),
        "k": k_min,
        "mss_family": family_sets or [[]],
    }
    try:
        engine = engine_from_record(record)
        values = possible_target_values(engine)
    except ValueError as exc:  # a marker that varies on a reachable cycle, too many genes
        check = "marker_gene" if target_type == MARKER and "marker" in str(exc) else "undecidable"
        raise ref.error("marker_gene" if check == "marker_gene" else "observed", str(exc),
                        check=check) from None
    record["target_values"] = values
    if values:
        computed = minimal_sufficient_sets(engine, queryable, len(queryable))
        if computed.k is not None:
            sets = [list(s) for s in computed.family]
            first = family_sets[0] if family_sets else None
            if first in sets:
                sets = [first] + [s for s in sets if s != first]
            record["k"], record["mss_family"] = computed.k, sets
            record["alternative_only"] = sorted({g for s in sets[1:] for g in s} - set(sets[0]),
                                                key=genes.index)
    changeable = len(changeable_genes(engine, queryable)) if values else 0
    record["difficulty"] = difficulty_axes(network, entries, queryable, values,
                                           record["mss_family"], changeable)
    record["released"] = {
        "var_names": var_names, "k_min": k_min, "minimal_sufficient_sets": released_family,
        "feasible_target_values": feasible, "branches": branches,
        "queryable_gene_indices": indices,
    }
    return record


MT_INFOSEEK_GENEREG = SourceFormat(
    name="mt-infoseek-genereg",
    domain="genereg",
    description="MT-InfoSeek GeneReg (JSON Lines): steady-state and dynamics problems over "
                "Boolean networks named by rule file, with k_min, the MSS family, the "
                "feasible outcomes and one witness branch per outcome",
    required=REQUIRED,
    signature=SIGNATURE,
    id_fields=ID_FIELDS,
    record_from_row=record_from_row,  # type: ignore[arg-type]
    verify=verify_row,
    inputs=("rules",),
    correct=correct_row,
)

__all__ = ["MT_INFOSEEK_GENEREG", "record_from_row", "rules_network"]
