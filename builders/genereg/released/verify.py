"""Re-verifying and correcting released MT-InfoSeek GeneReg rows with our engines.

The released labels (``y``, ``feasible_target_values``) name the publisher's catalogue,
which we do not have, so everything is checked by structure, from the rules alone:

- ``infeasible``: no outcome is consistent with the observed genes;
- ``branch_observed``: a branch's state disagrees with an observed gene;
- ``branch_state``: a steady-state branch's state is not a fixed point (or a marker
  branch reaches an attractor where the marker is not constant);
- ``branch_value``: a marker branch's ``y`` is not the marker's value in the attractor
  its state reaches;
- ``branch_outcomes``: two branches with different labels reach the same outcome, or
  one label is given to branches reaching different outcomes (they must be pairwise
  distinct);
- ``branch_labels``: the branches' labels are not the released feasible values;
- ``feasible_count``: the number of feasible values is not the number of outcomes our
  engine finds (for a marker target, ``feasible_values``: not the values it finds);
- ``k``: ``k_min`` is not the size of the smallest sufficient set of askable genes
  (``not_sufficient``: not even every askable gene together decides the outcome);
- ``mss_family``: the released sets are not exactly the minimum-size sufficient sets,
  the family recomputed by `infoseek.analysis.minimal_sufficient_sets`.

`correct_row` writes the row back with our outcomes, ``k_min`` and the whole MSS family:
a released label is kept where a valid branch ties it to one outcome (a marker's label
is its value), an outcome no released branch names gets the smallest integer label not
used in the row, and each outcome keeps its released branch when that branch is valid,
else gets a witness state of our engine (re-encoded in ``var_names`` order).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from infoseek.analysis import (
    MssResult,
    is_sufficient,
    minimal_sufficient_sets,
    possible_target_values,
)
from infoseek.engines.boolnet.engines import RowTableEngine, network_from_lines
from infoseek.engines.boolnet.network import attractor_index, decode
from infoseek.records import engine_from_record

Record = dict[str, Any]
CORRECTED_FIELDS = ("k_min", "minimal_sufficient_sets", "feasible_target_values", "branches")


@dataclass
class Truth:
    """What the rules say about one record."""

    engine: RowTableEngine
    outcomes: list[Any]  # our outcome values (catalogue ids, or marker values)
    mss: MssResult | None  # None when infeasible


def recompute(record: Record) -> Truth:
    engine = engine_from_record(record)
    outcomes = possible_target_values(engine)
    mss = None
    if outcomes:
        queryable = record["queryable"]
        mss = minimal_sufficient_sets(engine, queryable, len(queryable))
    return Truth(engine, outcomes, mss)


def _is_marker(record: Record) -> bool:
    return record["engine"].get("target", {}).get("type") == "marker"


def branch_outcome(record: Record, state: int) -> tuple[Any, str | None]:
    """(our outcome of the released state code, None) or (None, why it has none)."""
    spec = record["engine"]
    var_names = record["released"]["var_names"]
    genes = spec["genes"]
    values = decode(state, var_names)
    code = sum(values[g] << i for i, g in enumerate(genes))
    entries = spec["catalogue"]
    if spec["kind"] == "boolnet-steady":
        index = next((i for i, e in enumerate(entries) if e["states"][0] == code), None)
        if index is None:
            return None, "is not a fixed point of the rules"
    else:
        network = network_from_lines(spec.get("network", "network"), tuple(spec["rules"]))
        index = int(attractor_index(network, [tuple(e["states"]) for e in entries],
                                    np.array([code], dtype=np.int64))[0])
    entry = entries[index]
    if not _is_marker(record):
        return entry["id"], None
    bit = genes.index(spec["target"]["gene"])
    marks = {(c >> bit) & 1 for c in entry["states"]}
    if len(marks) != 1:
        return None, f"reaches {entry['id']}, where the marker is not constant"
    return marks.pop(), None


def _observed_clash(record: Record, state: int) -> list[str]:
    values = decode(state, record["released"]["var_names"])
    return [g for g, v in record["observed"].items() if values[g] != v]


def _valid_branches(record: Record) -> tuple[list[tuple[int, dict[str, int], Any]],
                                             list[dict[str, Any]]]:
    """([(branch number, branch, our outcome)] for the branches consistent with the rules
    and the observations, [disagreements of the others])."""
    valid, found = [], []
    for number, branch in enumerate(record["released"]["branches"], 1):
        clash = _observed_clash(record, branch["state"])
        if clash:
            found.append({"check": "branch_observed",
                          "reason": f"branch {number} (y={branch['y']}) has "
                                    + ", ".join(f"{g} = {1 - record['observed'][g]}"
                                                for g in clash)
                                    + " but the row observes "
                                    + ", ".join(f"{g} = {record['observed'][g]}"
                                                for g in clash),
                          "released": branch})
            continue
        outcome, problem = branch_outcome(record, branch["state"])
        if problem is not None:
            found.append({"check": "branch_state",
                          "reason": f"branch {number} (y={branch['y']}): its state {problem}",
                          "released": branch})
            continue
        valid.append((number, branch, outcome))
    return valid, found


def _sets(family: Sequence[Sequence[str]]) -> set[frozenset[str]]:
    return {frozenset(s) for s in family}


def _named(sets: set[frozenset[str]], order: Sequence[str]) -> list[list[str]]:
    return sorted((sorted(s, key=list(order).index) for s in sets),
                  key=lambda s: [list(order).index(g) for g in s])


def verify_row(record: Record) -> list[dict[str, Any]]:
    """Every disagreement between the row's released ground truth and the rules."""
    released = record["released"]
    truth = recompute(record)
    marker = _is_marker(record)
    found: list[dict[str, Any]] = []
    if not truth.outcomes:
        found.append({"check": "infeasible",
                      "reason": "no outcome is consistent with the observed genes under "
                                "the rules"})
    valid, bad = _valid_branches(record)
    found += bad
    labels_of: dict[Any, list[Any]] = {}
    outcomes_of: dict[Any, list[Any]] = {}
    for number, branch, outcome in valid:
        if marker and branch["y"] != outcome:
            found.append({"check": "branch_value",
                          "reason": f"branch {number} says the marker is {branch['y']}, but "
                                    f"its state reaches an attractor where it is {outcome}",
                          "released": branch["y"], "computed": outcome})
        labels_of.setdefault(outcome, []).append(branch["y"])
        outcomes_of.setdefault(branch["y"], []).append(outcome)
    for label, outs in outcomes_of.items():
        if len(set(outs)) > 1:
            found.append({"check": "branch_outcomes",
                          "reason": f"label {label} is given to branches reaching different "
                                    f"outcomes ({', '.join(map(str, dict.fromkeys(outs)))})"})
    for outcome, labels in labels_of.items():
        if len(set(labels)) > 1:
            found.append({"check": "branch_outcomes",
                          "reason": f"branches labelled {sorted(set(labels))} reach the same "
                                    f"outcome ({outcome}); branches must reach distinct ones"})
    feasible = set(released["feasible_target_values"])
    labels = {b["y"] for b in released["branches"]}
    if labels != feasible:
        found.append({"check": "branch_labels",
                      "reason": f"the branches are labelled {sorted(labels)}, the feasible "
                                f"values are {sorted(feasible)}",
                      "released": sorted(labels), "computed": sorted(feasible)})
    if marker and truth.outcomes and feasible != set(truth.outcomes):
        found.append({"check": "feasible_values",
                      "reason": f"the marker can end at {sorted(truth.outcomes)}, not "
                                f"{sorted(feasible)}",
                      "released": sorted(feasible), "computed": sorted(truth.outcomes)})
    elif truth.outcomes and len(feasible) != len(truth.outcomes):
        found.append({"check": "feasible_count",
                      "reason": f"{len(feasible)} feasible outcome(s) released, the rules "
                                f"allow {len(truth.outcomes)} ({', '.join(truth.outcomes)})",
                      "released": len(feasible), "computed": len(truth.outcomes)})
    if truth.mss is not None:
        found += _mss_disagreements(record, truth)
    return found


def _mss_disagreements(record: Record, truth: Truth) -> list[dict[str, Any]]:
    released = record["released"]
    assert truth.mss is not None
    genes = record["engine"]["genes"]
    if truth.mss.k is None:
        return [{"check": "not_sufficient",
                 "reason": "even every askable gene together leaves the outcome open",
                 "released": released["k_min"], "computed": None}]
    found = []
    ours = _sets(truth.mss.family)
    if released["k_min"] != truth.mss.k:
        example = ", ".join(sorted(next(iter(ours)), key=genes.index)) or "none"
        found.append({"check": "k",
                      "reason": f"k_min is {released['k_min']}, but the smallest sufficient "
                                f"set of askable genes has {truth.mss.k} (e.g. {example})",
                      "released": released["k_min"], "computed": truth.mss.k})
    theirs = _sets(released["minimal_sufficient_sets"])
    if theirs != ours:
        parts = []
        for s in _named(theirs - ours, genes):
            # every sufficient set of size <= k is in our family, so a set outside it of
            # that size is not sufficient; a larger one may be sufficient but not minimum
            unaskable = [g for g in s if g not in record["queryable"]]
            if unaskable:
                why = f"names genes that are not askable ({', '.join(unaskable)})"
            elif len(s) <= truth.mss.k or not is_sufficient(truth.engine, s):
                why = "is not sufficient"
            else:
                why = f"is sufficient but has {len(s)} genes, not {truth.mss.k}"
            parts.append(f"{{{', '.join(s)}}} {why}")
        missing = _named(ours - theirs, genes)
        if missing:
            parts.append("missing " + ", ".join("{" + ", ".join(s) + "}" for s in missing))
        found.append({"check": "mss_family",
                      "reason": "the released sets are not the minimum-size sufficient sets: "
                                + "; ".join(parts),
                      "released": _named(theirs, genes), "computed": _named(ours, genes)})
    return found


def _witness(truth: Truth, outcome: Any) -> np.ndarray:
    """The gene values (our gene order) of the first engine row with `outcome`."""
    engine = truth.engine
    index = engine.target_domain.index(outcome)
    row = int(np.flatnonzero(engine.outcome == index)[0])
    return engine.bits[row]


def correct_row(row: dict[str, Any], record: Record, disagreements: list[dict[str, Any]]
                ) -> tuple[dict[str, Any], dict[str, Any]]:
    """The row with our feasible outcomes, branches, k_min and MSS family, and a note."""
    truth = recompute(record)
    var_names = record["released"]["var_names"]
    genes = record["engine"]["genes"]
    checks = sorted({d["check"] for d in disagreements})
    if not truth.outcomes or truth.mss is None or truth.mss.k is None:
        why = ("the observed genes contradict the rules" if not truth.outcomes else
               "no set of askable genes decides the outcome")
        return dict(row), {"changed": [], "disagreements": checks,
                           "note": f"not corrected: {why}"}
    marker = _is_marker(record)
    valid, _ = _valid_branches(record)
    label_of: dict[Any, int] = {}
    if marker:
        label_of = {o: int(o) for o in truth.outcomes}
    else:
        tied: dict[Any, set[int]] = {}
        owners: dict[int, set[Any]] = {}
        for _number, branch, outcome in valid:
            tied.setdefault(outcome, set()).add(branch["y"])
            owners.setdefault(branch["y"], set()).add(outcome)
        for outcome, labels in tied.items():
            if len(labels) == 1 and len(owners[next(iter(labels))]) == 1:
                label_of[outcome] = next(iter(labels))
    used = set(label_of.values()) | {b["y"] for b in record["released"]["branches"]}
    used |= set(record["released"]["feasible_target_values"])
    new_labels = {}
    for outcome in truth.outcomes:
        if outcome not in label_of:
            label = next(i for i in range(len(used) + 1) if i not in used)
            used.add(label)
            label_of[outcome] = label
            new_labels[str(label)] = outcome
    branches = []
    for outcome in truth.outcomes:
        kept = next((b for _n, b, o in valid if o == outcome and b["y"] == label_of[outcome]),
                    None)
        if kept is not None:
            branches.append({"y": label_of[outcome], "state": kept["state"]})
            continue
        bits = _witness(truth, outcome)
        values = {g: int(bits[i]) for i, g in enumerate(genes)}
        state = sum(values[g] << i for i, g in enumerate(var_names))
        branches.append({"y": label_of[outcome], "state": state})
    branches.sort(key=lambda b: b["y"])
    ours = _sets(truth.mss.family)
    family = _named(ours, var_names)
    released_first = record["released"]["minimal_sufficient_sets"][:1]
    if released_first and frozenset(released_first[0]) in ours:
        first = sorted(released_first[0], key=var_names.index)
        family = [first] + [s for s in family if s != first]
    fixed = dict(row)
    fixed.update({"k_min": truth.mss.k, "minimal_sufficient_sets": family,
                  "feasible_target_values": sorted(b["y"] for b in branches),
                  "branches": branches})
    changed = [f for f in CORRECTED_FIELDS if fixed[f] != row.get(f)]
    note: dict[str, Any] = {"changed": changed, "disagreements": checks}
    if new_labels:
        note["new_labels"] = new_labels
    note["note"] = ("recomputed from the rules; nothing changed" if not changed else
                    "recomputed from the rules: " + ", ".join(changed) + " rewritten")
    return fixed, note
