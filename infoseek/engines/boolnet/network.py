"""The synchronous Boolean model: states, one update step, fixed points, attractors.

A state is one value per gene in `Network.genes` order; a *state code* is the integer
with bit i = gene i (least significant bit first). Every regulated gene is updated at
once from the previous state; an external input keeps its value.

- `fixed_points`: every state with x = f(x), enumerated with SAT (python-sat, Tseitin
  encoding of ``x_g <-> f_g(x)``, one blocking clause over the genes per model found).
  Exact for any network size; the cost grows with the number of fixed points.
- `attractors`: every attractor (fixed points and cycles) by walking the whole state
  space (2^n states, bit-parallel with numpy); exact, for n <= `MAX_EXHAUSTIVE_GENES`.
- `step_codes` / `attractor_index`: bit-parallel simulation of many states at once and the
  lookup of the catalogued attractor each one reaches.
"""

from __future__ import annotations

import functools
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from infoseek.engines.boolnet.rules import Expr, Network, evaluate

MAX_EXHAUSTIVE_GENES = 22
"""Largest network whose whole state space `attractors` walks (2^22 = 4M states)."""
MAX_FIXED_POINTS = 1 << 20
"""`fixed_points` refuses a network with more fixed points than this."""


@dataclass(frozen=True)
class Attractor:
    """One attractor: its states' codes, in the order the update visits them, starting
    at the smallest code. A fixed point has one state."""

    states: tuple[int, ...]


def bits_of(codes: np.ndarray, n: int) -> np.ndarray:
    """The (rows, n) bool matrix of state codes."""
    return ((codes[:, None] >> np.arange(n, dtype=np.int64)) & 1).astype(bool)


def codes_of(bits: np.ndarray) -> np.ndarray:
    """State codes of a (rows, n) bool matrix (n <= 62)."""
    weights = np.left_shift(np.int64(1), np.arange(bits.shape[1], dtype=np.int64))
    return bits.astype(np.int64) @ weights


def step_bits(network: Network, bits: np.ndarray) -> np.ndarray:
    """One synchronous update of every row of a (rows, n) bool matrix."""
    genes = network.genes
    columns = {gene: bits[:, i] for i, gene in enumerate(genes)}
    out = bits.copy()
    for i, (_, expr) in enumerate(network.rules):
        value = evaluate(expr, columns)
        out[:, i] = value if isinstance(value, np.ndarray) else bool(value)
    return out


def step_codes(network: Network, codes: np.ndarray) -> np.ndarray:
    n = len(network.genes)
    return codes_of(step_bits(network, bits_of(codes, n)))


def decode(code: int, genes: Sequence[str]) -> dict[str, int]:
    return {gene: (code >> i) & 1 for i, gene in enumerate(genes)}


def encode(values: dict[str, int], genes: Sequence[str]) -> int:
    return sum(int(values[gene]) << i for i, gene in enumerate(genes))


# ------------------------------------------------------------------ fixed points (SAT)


def _tseitin(expr: Expr, var_of: dict[str, int], clauses: list[list[int]],
             counter: list[int]) -> int:
    """A literal equivalent to `expr`, adding the defining clauses."""
    kind = expr[0]
    if kind == "var":
        return var_of[expr[1]]
    if kind == "const":
        counter[0] += 1
        lit = counter[0]
        clauses.append([lit] if expr[1] else [-lit])
        return lit
    if kind == "not":
        return -_tseitin(expr[1], var_of, clauses, counter)
    parts = [_tseitin(part, var_of, clauses, counter) for part in expr[1]]
    counter[0] += 1
    out = counter[0]
    if kind == "and":  # out <-> AND parts
        clauses.extend([-out, p] for p in parts)
        clauses.append([out, *(-p for p in parts)])
    else:  # out <-> OR parts
        clauses.extend([out, -p] for p in parts)
        clauses.append([-out, *parts])
    return out


def fixed_point_cnf(network: Network) -> tuple[list[list[int]], int]:
    """Clauses whose models, projected on variables 1..n (gene i = variable i+1), are
    exactly the fixed points; and n."""
    genes = network.genes
    var_of = {gene: i + 1 for i, gene in enumerate(genes)}
    clauses: list[list[int]] = []
    counter = [len(genes)]
    for gene, expr in network.rules:
        lit = _tseitin(expr, var_of, clauses, counter)
        x = var_of[gene]
        clauses.extend(([-x, lit], [x, -lit]))
    return clauses, len(genes)


def fixed_points(network: Network) -> tuple[int, ...]:
    """Every fixed point's state code, ascending (SAT with blocking clauses)."""
    return _fixed_points_cached(network)


@functools.lru_cache(maxsize=256)
def _fixed_points_cached(network: Network) -> tuple[int, ...]:
    from pysat.solvers import Minisat22

    clauses, n = fixed_point_cnf(network)
    found: list[int] = []
    with Minisat22(bootstrap_with=clauses) as solver:
        while solver.solve():
            model = solver.get_model()
            values = [lit > 0 for lit in model[:n]]
            found.append(sum(1 << i for i, v in enumerate(values) if v))
            if len(found) > MAX_FIXED_POINTS:
                raise ValueError(f"network {network.name}: more than {MAX_FIXED_POINTS} "
                                 "fixed points")
            solver.add_clause([-(i + 1) if v else i + 1 for i, v in enumerate(values)])
    return tuple(sorted(found))


# ------------------------------------------------------------- attractors (exhaustive)


def attractors(network: Network) -> tuple[Attractor, ...]:
    """Every attractor of the network, fixed points first (by code), then cycles (by
    length, then smallest code). Walks all 2^n states; n <= MAX_EXHAUSTIVE_GENES."""
    return _attractors_cached(network)


@functools.lru_cache(maxsize=64)
def _attractors_cached(network: Network) -> tuple[Attractor, ...]:
    n = len(network.genes)
    if n > MAX_EXHAUSTIVE_GENES:
        raise ValueError(f"network {network.name}: {n} genes; the attractor catalogue "
                         f"walks every state, so at most {MAX_EXHAUSTIVE_GENES} genes")
    total = 1 << n
    successor = np.empty(total, dtype=np.int64)
    block = 1 << 16
    for start in range(0, total, block):
        codes = np.arange(start, min(total, start + block), dtype=np.int64)
        successor[start:start + len(codes)] = step_codes(network, codes)
    # The image of the image ... shrinks to the states on cycles.
    current = np.unique(successor)
    while True:
        image = np.unique(successor[current])
        if len(image) == len(current):
            break
        current = image
    on_cycle = set(current.tolist())
    found: list[Attractor] = []
    for start in current.tolist():
        if start not in on_cycle:
            continue
        cycle = [start]
        on_cycle.discard(start)
        nxt = int(successor[start])
        while nxt != start:
            cycle.append(nxt)
            on_cycle.discard(nxt)
            nxt = int(successor[nxt])
        low = cycle.index(min(cycle))
        found.append(Attractor(tuple(cycle[low:] + cycle[:low])))
    return tuple(sorted(found, key=lambda a: (len(a.states), a.states[0])))


def check_attractor(network: Network, attractor: Sequence[int]) -> bool:
    """Whether the codes form one attractor in update order (each maps to the next)."""
    codes = np.array(list(attractor), dtype=np.int64)
    if len(codes) == 0 or len(set(codes.tolist())) != len(codes):
        return False
    return bool(np.array_equal(step_codes(network, codes), np.roll(codes, -1)))


def attractor_index(network: Network, catalogue: Sequence[Sequence[int]],
                    codes: np.ndarray) -> np.ndarray:
    """For each start state, the index in `catalogue` of the attractor it reaches.

    Simulates every state at once; each row stops when it lands on a catalogued state
    (a sorted lookup table of every catalogued state: the memo). A row that has not met
    one after 2^n steps reaches an attractor the catalogue lacks: ValueError."""
    n = len(network.genes)
    states = np.array([s for a in catalogue for s in a], dtype=np.int64)
    owners = np.array([i for i, a in enumerate(catalogue) for _ in a], dtype=np.int64)
    order = np.argsort(states)
    states, owners = states[order], owners[order]
    result = np.full(len(codes), -1, dtype=np.int64)
    pending = np.arange(len(codes))
    current = np.asarray(codes, dtype=np.int64).copy()
    steps = 0
    while len(pending):
        pos = np.clip(np.searchsorted(states, current), 0, max(len(states) - 1, 0))
        hit = (states[pos] == current) if len(states) else np.zeros(len(current), bool)
        result[pending[hit]] = owners[pos[hit]]
        pending, current = pending[~hit], current[~hit]
        if not len(pending):
            break
        steps += 1
        if steps > (1 << n) + 1:
            raise ValueError(f"network {network.name}: a state reaches an attractor that "
                             "is not in the catalogue")
        current = step_codes(network, current)
    return result
