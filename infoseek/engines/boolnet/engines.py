"""Two engines over Boolean networks, both over an explicit table of feasible rows.

* ``boolnet-steady`` (`SteadyStateEngine`): the variables are the genes of a steady
  state; the constraints are ``x_g = f_g(x)`` for every regulated gene. The rows are the
  network's fixed points (SAT, `network.fixed_points`) that agree with the observed
  genes; the target is the fixed point's id in the catalogue (or a marker gene's value).
* ``boolnet-dynamic`` (`DynamicsEngine`): the variables are the genes of the *initial*
  state; the target is the attractor the synchronous update reaches (its id in the
  catalogue) or a marker gene's value in it. The rows are every completion of the
  observed genes (at most 2^`MAX_FREE_GENES`), each simulated to its attractor at once,
  bit-parallel (`network.attractor_index`).

Both answer the contract's primitives by masking the row table, and offer the exact
`distinguishing_pair` fast path (group the rows by their values on the subset; a group
with two outcomes is a pair), so sufficiency and the MSS search never enumerate subsets'
rows one by one. Nothing is sampled: every row is there.

Record form (besides the common fields)::

    "engine": {"kind": "boolnet-dynamic", "network": "emt",
               "rules": ["S = I AND NOT (S AND M34)", "..."],
               "genes": ["S", "M34", "Z", "M200", "I"],
               "catalogue": [{"id": "A1", "states": [5]}, {"id": "A2", "states": [9, 12]}],
               "target": {"type": "attractor"}}      # or {"type": "marker", "gene": "Z"}

``genes`` is the state order (bit i of a state code is gene i, least significant bit
first); ``catalogue`` lists the attractors (steady: the fixed points) with their ids.
The record's variables are the genes plus the target variable.
"""

from __future__ import annotations

import functools
from collections.abc import Iterable, Sequence
from typing import Any

import numpy as np

from infoseek.engine import ANY, Assignment, Engine, World
from infoseek.engines import EngineFormError
from infoseek.engines.boolnet.network import (
    attractor_index,
    bits_of,
    check_attractor,
    fixed_points,
)
from infoseek.engines.boolnet.rules import Network, RuleError, read_rules_text

GENE_DOMAIN: tuple[int, ...] = (0, 1)
MAX_FREE_GENES = 16
"""The dynamics engine simulates every completion of the observed genes: at most 2^16."""
TARGET_TYPES = ("attractor", "marker")


@functools.lru_cache(maxsize=256)
def network_from_lines(name: str, lines: tuple[str, ...]) -> Network:
    return read_rules_text("\n".join(lines), name=name)


def _code_bits(codes: Sequence[int], n: int) -> np.ndarray:
    """Bool matrix of arbitrary-size state codes (Python ints; any n)."""
    return np.array([[(c >> i) & 1 for i in range(n)] for c in codes], dtype=bool
                    ).reshape(len(codes), n)


class RowTableEngine(Engine):
    """An engine whose feasible worlds are rows (gene values) with an outcome each."""

    def __init__(self, genes: Sequence[str], target: str, target_domain: Sequence[Any],
                 observed: dict[str, Any], bits: np.ndarray, outcome: np.ndarray) -> None:
        self.genes = tuple(genes)
        self.variables = (*self.genes, target)
        self.target = target
        self.target_domain = tuple(target_domain)
        self.observed = dict(observed)
        self.column = {gene: i for i, gene in enumerate(self.genes)}
        keep = np.ones(len(bits), dtype=bool)
        for gene, value in self.observed.items():
            if gene in self.column:
                keep &= bits[:, self.column[gene]] == bool(value)
        self.bits = bits[keep]
        self.outcome = outcome[keep]

    def domain(self, var: str) -> tuple[Any, ...]:
        if var == self.target:
            return self.target_domain
        if var in self.column:
            return GENE_DOMAIN
        raise KeyError(var)

    def _mask(self, assignment: Assignment | None, target_value: Any = ANY) -> np.ndarray:
        mask = np.ones(len(self.bits), dtype=bool)
        items = list((assignment or {}).items())
        if target_value is not ANY:
            items.append((self.target, target_value))
        for var, value in items:
            if var == self.target:
                if value not in self.target_domain:
                    return np.zeros(len(self.bits), dtype=bool)
                mask &= self.outcome == self.target_domain.index(value)
            elif var in self.column and value in GENE_DOMAIN and not isinstance(value, str):
                if var in self.observed and self.observed[var] != value:
                    return np.zeros(len(self.bits), dtype=bool)
                mask &= self.bits[:, self.column[var]] == bool(value)
            else:
                return np.zeros(len(self.bits), dtype=bool)
        return mask

    def _outcomes(self, mask: np.ndarray) -> list[int]:
        """Indices (into the target domain) of the outcomes of the masked rows."""
        counts = np.bincount(self.outcome[mask], minlength=len(self.target_domain))
        return np.flatnonzero(counts).tolist()

    def target_values(self, assignment: Assignment | None = None) -> frozenset:
        return frozenset(self.target_domain[i] for i in self._outcomes(self._mask(assignment)))

    def variable_values(self, var: str, assignment: Assignment | None = None,
                        target_value: Any = ANY) -> frozenset:
        mask = self._mask(assignment, target_value)
        if var == self.target:
            return frozenset(self.target_domain[i] for i in self._outcomes(mask))
        if var not in self.column:
            return frozenset()
        values = self.bits[mask, self.column[var]]
        return frozenset(v for v, present in ((0, not values.all()), (1, values.any()))
                         if present and len(values))

    def _world(self, row: int) -> World:
        world: World = {g: int(self.bits[row, i]) for i, g in enumerate(self.genes)}
        world[self.target] = self.target_domain[int(self.outcome[row])]
        return world

    def distinguishing_pair(self, subset: Iterable[str],
                            assignment: Assignment | None = None
                            ) -> tuple[World, World] | None:
        """Two feasible rows equal on `subset` with different outcomes, or None."""
        rows = np.flatnonzero(self._mask(assignment))
        if len(rows) < 2:
            return None
        columns = [self.column[v] for v in dict.fromkeys(subset) if v in self.column]
        if len(columns) > 62:
            _, group = np.unique(self.bits[np.ix_(rows, columns)], axis=0,
                                 return_inverse=True)
            group = group.reshape(-1)
        else:
            # the subset's values read as a number, first column most significant: the
            # same order as the rows' lexicographic order, without sorting the rows
            weights = np.left_shift(np.int64(1),
                                    np.arange(len(columns) - 1, -1, -1, dtype=np.int64))
            group = self.bits[np.ix_(rows, columns)].astype(np.int64) @ weights
        outcome = self.outcome[rows]
        order = np.lexsort((outcome, group))
        g, o = group[order], outcome[order]
        split = np.flatnonzero((g[1:] == g[:-1]) & (o[1:] != o[:-1]))
        if not len(split):
            return None
        second = int(split[0]) + 1
        first = int(np.flatnonzero(g == g[second])[0])
        return self._world(int(rows[order[first]])), self._world(int(rows[order[second]]))


def _catalogue(spec: dict[str, Any]) -> tuple[list[str], list[tuple[int, ...]]]:
    ids = [entry["id"] for entry in spec["catalogue"]]
    states = [tuple(int(s) for s in entry["states"]) for entry in spec["catalogue"]]
    return ids, states


def _target(spec: dict[str, Any], ids: list[str], genes: Sequence[str],
            states: list[tuple[int, ...]]) -> tuple[tuple[Any, ...], list[int]]:
    """The target's domain and, for each catalogue entry, the index of its value."""
    target = spec.get("target", {"type": "attractor"})
    if target.get("type") == "attractor":
        return tuple(ids), list(range(len(ids)))
    gene = target.get("gene")
    bit = list(genes).index(gene)
    values = []
    for codes in states:
        marks = {(c >> bit) & 1 for c in codes}
        values.append(marks.pop() if len(marks) == 1 else -1)
    return GENE_DOMAIN, values


def _network(record: dict[str, Any]) -> Network:
    spec = record["engine"]
    network = network_from_lines(spec.get("network", "network"), tuple(spec["rules"]))
    if list(network.genes) != list(spec["genes"]):
        raise ValueError(f"'genes' {spec['genes']} are not the rules' genes then inputs "
                         f"{list(network.genes)}")
    return network


@functools.lru_cache(maxsize=512)
def _steady_catalogue_error(network: Network, states: tuple[tuple[int, ...], ...]) -> str:
    """Why `states` is not the network's fixed points ("" when it is); memoised, as an
    engine is built per record and a builder's draws share a few networks."""
    points = fixed_points(network)
    if any(len(s) != 1 for s in states) or sorted(s[0] for s in states) != list(points):
        return f"the catalogue is not the network's {len(points)} fixed point(s)"
    return ""


@functools.lru_cache(maxsize=512)
def _non_attractors(network: Network, states: tuple[tuple[int, ...], ...]) -> tuple[int, ...]:
    """Indices of the catalogue entries that are not attractors in update order;
    memoised like `_steady_catalogue_error`."""
    return tuple(i for i, s in enumerate(states) if not check_attractor(network, s))


class SteadyStateEngine(RowTableEngine):
    """Rows: the network's fixed points (SAT) agreeing with the observed genes."""

    @classmethod
    def from_record(cls, record: dict[str, Any]) -> SteadyStateEngine:
        spec = record["engine"]
        network = _network(record)
        ids, states = _catalogue(spec)
        error = _steady_catalogue_error(network, tuple(states))
        if error:
            raise ValueError(error)
        domain, value_of = _target(spec, ids, network.genes, states)
        codes = [s[0] for s in states]
        bits = _code_bits(codes, len(network.genes))
        return cls(network.genes, record["target"], domain, record["observed"], bits,
                   np.array(value_of, dtype=np.int64).reshape(-1))


@functools.lru_cache(maxsize=512)
def _dynamic_rows(network: Network, observed: tuple[tuple[str, int], ...],
                  catalogue: tuple[tuple[int, ...], ...]) -> tuple[np.ndarray, np.ndarray]:
    """(bits of every completion of `observed`, index of the attractor each reaches)."""
    genes = network.genes
    fixed = dict(observed)
    free = [i for i, g in enumerate(genes) if g not in fixed]
    if len(free) > MAX_FREE_GENES:
        raise ValueError(f"{len(free)} free genes; the dynamics engine simulates every "
                         f"completion, so at most {MAX_FREE_GENES}")
    base = sum(int(v) << genes.index(g) for g, v in fixed.items())
    local = bits_of(np.arange(1 << len(free), dtype=np.int64), len(free)).astype(np.int64)
    shifts = np.left_shift(np.int64(1), np.array(free, dtype=np.int64))
    codes = base + (local @ shifts if free else np.zeros(1, dtype=np.int64))
    reached = attractor_index(network, catalogue, codes)
    return bits_of(codes, len(genes)), reached


class DynamicsEngine(RowTableEngine):
    """Rows: every completion of the observed initial genes, with its attractor."""

    @classmethod
    def from_record(cls, record: dict[str, Any]) -> DynamicsEngine:
        spec = record["engine"]
        network = _network(record)
        ids, states = _catalogue(spec)
        bad = [ids[i] for i in _non_attractors(network, tuple(states))]
        if bad:
            raise ValueError(f"catalogue entries {bad[:5]} are not attractors in update order")
        domain, value_of = _target(spec, ids, network.genes, states)
        observed = tuple(sorted((g, int(v)) for g, v in record["observed"].items()
                                if g in network.genes))
        bits, reached = _dynamic_rows(network, observed, tuple(states))
        outcome = np.array(value_of, dtype=np.int64)[reached]
        if (outcome < 0).any():
            raise ValueError("a reachable attractor does not hold the marker gene constant")
        return cls(network.genes, record["target"], domain, record["observed"], bits, outcome)


def steady_from_record(record: dict[str, Any]) -> SteadyStateEngine:
    return SteadyStateEngine.from_record(record)


def dynamic_from_record(record: dict[str, Any]) -> DynamicsEngine:
    return DynamicsEngine.from_record(record)


def check_record_form(record: dict[str, Any], names: set[str]) -> None:
    """The record check both kinds register: rules that parse, genes in state order,
    a catalogue of ids with state codes, a known target type, 0/1 observations."""
    spec = record["engine"]
    rules = spec.get("rules")
    if not isinstance(rules, list) or not all(isinstance(r, str) for r in rules):
        raise EngineFormError("engine", "needs 'rules', a list of 'Gene = expression' lines")
    try:
        network = network_from_lines(str(spec.get("network", "network")), tuple(rules))
    except RuleError as exc:
        raise EngineFormError("engine", f"has a bad rule: {exc}") from None
    if spec.get("genes") != list(network.genes):
        raise EngineFormError("engine", f"'genes' must be the rules' genes then their "
                                        f"inputs: {list(network.genes)}")
    expected = {*network.genes, record["target"]}
    if names != expected:
        raise EngineFormError("variables", "must be the genes and the target")
    catalogue = spec.get("catalogue")
    if not isinstance(catalogue, list) or not catalogue or not all(
            isinstance(e, dict) and isinstance(e.get("id"), str)
            and isinstance(e.get("states"), list) and e["states"]
            and all(isinstance(s, int) and s >= 0 for s in e["states"]) for e in catalogue):
        raise EngineFormError("engine", "needs 'catalogue', a list of {id, states}")
    ids = [e["id"] for e in catalogue]
    if len(set(ids)) != len(ids):
        raise EngineFormError("engine", "catalogue ids must be distinct")
    target = spec.get("target", {"type": "attractor"})
    if not isinstance(target, dict) or target.get("type") not in TARGET_TYPES or (
            target["type"] == "marker" and target.get("gene") not in network.genes):
        raise EngineFormError("engine", "'target' must be {type: attractor} or "
                                        "{type: marker, gene: <a gene>}")
    for gene, value in record["observed"].items():
        if gene == record["target"] or value not in GENE_DOMAIN or isinstance(value, bool):
            raise EngineFormError("observed", f"must give genes 0 or 1; {gene} = {value!r}")
    allowed = ids if target["type"] == "attractor" else list(GENE_DOMAIN)
    values = record.get("target_values")
    if not isinstance(values, list) or not values or any(v not in allowed for v in values):
        raise EngineFormError("target_values", f"must be a non-empty list of {allowed[:8]}")
