"""GSME-Q-MT-Ext: seeded equation-system DAGs with a planted k-MSS (protocols §5.3).

Construction of one candidate (deterministic per (seed, k, index, attempt)):

1. the goal component: a backbone chain of ``depth`` derived quantities ending in the
   goal (each uses the previous one), side branches feeding it until it has the
   requested number of relevant leaves, and merge nodes (a quantity from three parents,
   ``a + b * c``); distractor derived quantities hang off the goal component without
   feeding the goal; disconnected distractor subgraphs add unrelated leaves and derived
   quantities until the problem has about 15-20 askable (unrevealed) leaves, so that
   asking at random rarely finds all k relevant ones within the turn cap;
2. values by forward execution: every leaf gets a positive integer when it is created,
   every derived quantity is computed at once; a division ``x = y / L + z`` always has a
   fresh leaf ``L`` as divisor, drawn after its quotient (one of the exact quotients of
   ``value(y)``), so all values stay positive integers; ``-`` puts the larger operand
   first; ``*`` falls back to ``+`` when the product would be large;
3. hide k goal-relevant leaves (the planted set S), every leaf of the disconnected
   distractor subgraphs (askable ``irrelevant_leaf`` queries) and a share of the other
   non-relevant leaves, reveal every other leaf; keep the candidate only when the exact search
   (`infoseek.analysis.minimal_sufficient_sets` over all unrevealed leaves) returns
   exactly the requested k (cancellations can make a hidden leaf irrelevant), the
   planted set first in the family when it is in it;
4. run `validate_math_record` on the record.

Records (JSON): see `infoseek.builders.math.math_record`; numbers are JSON ints or
``"p/q"`` strings.
"""

from __future__ import annotations

import random
import re
from collections.abc import Callable, Iterable, Sequence
from typing import Any

from infoseek.analysis import minimal_sufficient_sets
from infoseek.builders.jobs import BuildError, build_split_with, first_valid_problem
from infoseek.builders.math.math_record import math_record, validate_math_record
from infoseek.domains import BuilderSpec
from infoseek.engines.arith.engine import ArithEngine

SPEC = BuilderSpec(
    name="gsme-mt-ext",
    build=f"{__name__}:build_split",
    version="1.1.0",
    random_stream="gsme_mt_ext:1.1.0",
    max_k=6, default_ks=(1, 2, 3, 4), default_per_k=130, max_per_k=5_000,
    unanswerable="infoseek.builders.math.unanswerable:build_ext",
)
"""The default split. The random stream is the text the generators were seeded with when
the version was part of it, kept so that a seed draws the same problems."""
MAX_ATTEMPTS = 200
BIG = 10**6
HARD_SPEC = BuilderSpec(
    name="gsme-mt-ext-hard",
    build=f"{__name__}:build_hard_split",
    version="1.0.0",
    random_stream="gsme_mt_ext_hard:1.0.0",
    max_k=8, default_ks=(5, 6, 7, 8), default_per_k=130, max_per_k=5_000,
    unanswerable="infoseek.builders.math.unanswerable:build_ext_hard",
)
"""The hard split (`-T split=hard`): k = 5..8, backbone depth 3-10, its own random
stream (the default split's records do not change)."""
HARD_DEPTHS = (3, 10)


# --------------------------------------------------------------------------- shared
def _names(count: int) -> list[str]:
    """A, B, ..., Z, AA, AB, ... (identifiers for the arithmetic engine)."""
    out: list[str] = []
    i = 0
    while len(out) < count:
        n, s = i, ""
        while True:
            s = chr(65 + n % 26) + s
            n = n // 26 - 1
            if n < 0:
                break
        out.append(s)
        i += 1
    return out


# --------------------------------------------------------------------------- generator
class _Dag:
    """Nodes created in order with their values (forward execution)."""

    def __init__(self, rng: random.Random) -> None:
        self.rng = rng
        self.nodes: list[str] = []
        self.values: dict[str, int] = {}
        self.equations: dict[str, str] = {}

    def _new(self) -> str:
        name = f"n{len(self.nodes)}"
        self.nodes.append(name)
        return name

    def leaf(self, value: int | None = None) -> str:
        name = self._new()
        self.values[name] = value if value is not None else self.rng.randint(2, 20)
        return name

    def combine(self, parents: Sequence[str]) -> str:
        """A derived quantity from 2 or 3 parents (3: a merge node)."""
        rng = self.rng
        v = self.values
        name = self._new()
        if len(parents) == 3:
            a, b, c = parents
            op = rng.choice("+-")
            prod = v[b] * v[c]
            if prod > BIG:
                expr, value = f"{a} + {b} + {c}", v[a] + v[b] + v[c]
            elif op == "-" and v[a] > prod:
                expr, value = f"{a} - {b} * {c}", v[a] - prod
            else:
                expr, value = f"{a} + {b} * {c}", v[a] + prod
        else:
            a, b = parents
            op = rng.choice("++-*/")
            divisors = [d for d in range(2, 13) if v[a] % d == 0 and v[a] // d >= 2]
            if op == "/" and divisors:
                # integer-friendly division by a fresh leaf: the quotient is drawn first
                # (among the exact ones) and the divisor follows from it
                quotient = v[a] // rng.choice(divisors)
                den = f"n{len(self.nodes)}"
                self.nodes.append(den)
                self.values[den] = v[a] // quotient
                self.equations[name] = f"{a} / {den} + {b}"
                self.values[name] = quotient + v[b]
                return name
            if op == "*" and v[a] * v[b] <= BIG:
                expr, value = f"{a} * {b}", v[a] * v[b]
            elif op == "-" and v[a] != v[b]:
                hi, lo = (a, b) if v[a] > v[b] else (b, a)
                expr, value = f"{hi} - {lo}", v[hi] - v[lo]
            else:
                expr, value = f"{a} + {b}", v[a] + v[b]
        self.equations[name] = expr
        self.values[name] = value
        return name


def _component_leaves(dag: _Dag, root: str) -> set[str]:
    out: set[str] = set()
    stack = [root]
    seen: set[str] = set()
    while stack:
        node = stack.pop()
        if node in seen:
            continue
        seen.add(node)
        if node in dag.equations:
            stack.extend(re.findall(r"n\d+", dag.equations[node]))
        else:
            out.add(node)
    return out


def _candidate(rng: random.Random, k: int, depths: tuple[int, int] = (3, 7)
               ) -> dict[str, Any] | None:
    dag = _Dag(rng)
    depth = rng.randint(*depths)
    relevant_target = k + rng.randint(2, 6)
    merges = rng.randint(1, 3)
    # backbone
    cur = dag.combine([dag.leaf(), dag.leaf()])
    pool = [cur]  # derived nodes of the goal component
    for _step in range(1, depth):
        if merges and rng.random() < 0.4:
            merges -= 1
            others = [rng.choice(pool) if rng.random() < 0.5 else dag.leaf(), dag.leaf()]
            cur = dag.combine([cur, *others])
        else:
            other = dag.leaf() if rng.random() < 0.6 or len(pool) < 2 else rng.choice(pool[:-1])
            cur = dag.combine([cur, other] if rng.random() < 0.5 else [other, cur])
        pool.append(cur)
    goal = cur
    # side branches feeding the goal until it has enough relevant leaves
    for _ in range(20):
        have = len(_component_leaves(dag, goal))
        if have >= relevant_target:
            break
        side = dag.combine([dag.leaf(), dag.leaf()])
        goal = dag.combine([goal, side] if rng.random() < 0.5 else [side, goal])
        pool.append(goal)
    relevant = sorted(_component_leaves(dag, goal), key=dag.nodes.index)
    if len(relevant) < k + 1:
        return None
    # distractor derived quantities hanging off the goal component
    hanging: list[str] = []
    for _ in range(rng.randint(3, 6)):
        base = rng.choice(relevant + pool[:-1] + hanging)
        other = rng.choice(relevant + pool[:-1]) if rng.random() < 0.6 else dag.leaf()
        if other != base:
            hanging.append(dag.combine([base, other]))
    # non-relevant leaves of the goal component (operands of the hanging quantities)
    # hidden as well, about a third of them
    extra_hidden = [n for n in dag.nodes if n not in dag.equations and n not in relevant
                    and rng.random() < 0.3]
    # disconnected distractor subgraphs: unrelated leaves (all left unrevealed and
    # askable) and derived quantities, until the problem has about 15-20 askable leaves
    wanted = max(rng.randint(15, 20) - k - len(extra_hidden), 6)
    distractor_leaves: list[str] = []
    while len(distractor_leaves) < wanted:
        part = [dag.leaf(), dag.leaf()]
        fresh = 2
        node = dag.combine(part)
        for _ in range(rng.randint(3, 6)):
            if len(distractor_leaves) + fresh >= wanted or rng.random() < 0.4:
                other = rng.choice(part[:-1])
            else:
                other = dag.leaf()
                fresh += 1
            part.append(other)
            node = dag.combine([node, other])
            part.append(node)
        part_leaves = _component_leaves(dag, node)
        distractor_leaves.extend(sorted(part_leaves - set(relevant), key=dag.nodes.index))
    # names: shuffle so that names carry no structure
    labels = _names(len(dag.nodes))
    rng.shuffle(labels)
    rename = dict(zip(dag.nodes, labels))

    def ren(expr: str) -> str:
        return re.sub(r"n\d+", lambda m: rename[m.group(0)], expr)

    leaves = [n for n in dag.nodes if n not in dag.equations]
    planted = rng.sample(relevant, k)
    hidden = set(planted) | set(distractor_leaves) | set(extra_hidden)
    variables = sorted(rename[n] for n in dag.nodes)
    equations = [[rename[n], ren(dag.equations[n])] for n in dag.nodes if n in dag.equations]
    observed = {rename[n]: dag.values[n] for n in leaves if n not in hidden}
    target = rename[goal]
    engine = ArithEngine(variables, equations, observed, target)
    if len(engine.target_values()) == 1:
        return None
    unrevealed = sorted(v for v in engine.leaves if v not in observed)
    result = minimal_sufficient_sets(engine, unrevealed, k)
    if result.k != k:
        return None
    planted_set = tuple(sorted(rename[n] for n in planted))
    family = [tuple(sorted(s)) for s in result.family]
    if planted_set in family:
        family.remove(planted_set)
        family.insert(0, planted_set)
    descriptions = {v: f"quantity {v}" for v in variables}
    leaf_values = {rename[n]: dag.values[n] for n in leaves}
    world = engine.complete_world(leaf_values)
    if world[target] != dag.values[goal]:  # forward execution and engine must agree
        raise BuildError("forward execution disagrees with the engine")
    return math_record(engine=engine, descriptions=descriptions, leaf_values=leaf_values,
                       family=family, k=k,
                       extra={"planted": sorted(planted_set)})


def build_problem(seed: int, k: int, index: int) -> dict[str, Any]:
    """One validated problem; deterministic in (seed, k, index)."""
    return first_valid_problem(
        SPEC, seed=seed, k=k, index=index, max_attempts=MAX_ATTEMPTS,
        candidate=_candidate, validate=validate_math_record,
    )


def build_split(
    seed: int = 0, per_k: int = SPEC.default_per_k, ks: Iterable[int] = SPEC.default_ks,
    *, workers: int | None = None, progress: Callable[[int, int], None] | None = None,
) -> list[dict[str, Any]]:
    """`per_k` problems for each k, in (k, index) order."""
    return build_split_with(build_problem, SPEC, seed, per_k, ks, workers, progress)


def _hard_candidate(rng: random.Random, k: int) -> dict[str, Any] | None:
    """A candidate with a backbone of `HARD_DEPTHS`; redrawn when side branches make the
    graph deeper than the backbone's cap."""
    record = _candidate(rng, k, HARD_DEPTHS)
    if record is None or record["difficulty"]["depth"] > HARD_DEPTHS[1]:
        return None
    return record


def build_hard_problem(seed: int, k: int, index: int) -> dict[str, Any]:
    """One validated problem of the hard split (`HARD_DEPTHS`, k up to
    ``HARD_SPEC.max_k``)."""
    return first_valid_problem(
        HARD_SPEC, seed=seed, k=k, index=index, max_attempts=MAX_ATTEMPTS,
        candidate=_hard_candidate, validate=validate_math_record,
    )


def build_hard_split(
    seed: int = 0, per_k: int = HARD_SPEC.default_per_k,
    ks: Iterable[int] = HARD_SPEC.default_ks,
    *, workers: int | None = None, progress: Callable[[int, int], None] | None = None,
) -> list[dict[str, Any]]:
    """The hard split: `per_k` problems for each k, in (k, index) order."""
    return build_split_with(build_hard_problem, HARD_SPEC, seed, per_k, ks, workers,
                            progress)
