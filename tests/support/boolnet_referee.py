"""A plain referee for Boolean networks, sharing no code with the engines: rules are
evaluated as Python expressions, every state is enumerated, trajectories are walked one
state at a time. Used by tests/engines/test_boolnet_engine.py and the GeneReg builder tests."""

from __future__ import annotations

import functools
import itertools
import re
from typing import Any

from infoseek.engines.bruteforce import BruteForceEngine

_KEYWORDS = {"AND": " and ", "OR": " or ", "NOT": " not ", "0": "0", "1": "1"}


def python_rules(lines: list[str]) -> list[tuple[str, Any]]:
    """Rules in the canonical text (``AND`` / ``OR`` / ``NOT``, names between spaces and
    parentheses) compiled to Python; each name is read from the state as ``S[name]``, so
    names that are not Python identifiers (``cAMP/PKA``, ``Ara+``) evaluate too."""
    compiled = []
    for line in lines:
        gene, body = (part.strip() for part in line.split("=", 1))
        body = re.sub(r"[^\s()]+",
                      lambda m: _KEYWORDS.get(m.group(), f"S[{m.group()!r}]"), body)
        compiled.append((gene, compile(body.strip(), gene, "eval")))
    return compiled


def step(rules: list[tuple[str, Any]], state: dict[str, int]) -> dict[str, int]:
    new = dict(state)
    scope = {"S": dict(state)}
    for gene, code in rules:
        new[gene] = int(bool(eval(code, scope)))
    return new


def all_states(genes: list[str]):
    for values in itertools.product((0, 1), repeat=len(genes)):
        yield dict(zip(genes, values))


def referee_fixed_points(lines: list[str], genes: list[str]) -> list[dict[str, int]]:
    return [dict(p) for p in _fixed_points(tuple(lines), tuple(genes))]


@functools.lru_cache(maxsize=64)
def _fixed_points(lines: tuple[str, ...], genes: tuple[str, ...]) -> tuple:
    rules = python_rules(list(lines))
    return tuple(tuple(s.items()) for s in all_states(list(genes)) if step(rules, s) == s)


def reached_attractor(rules, state: dict[str, int], genes: list[str],
                      memo: dict[tuple, frozenset] | None = None) -> frozenset:
    """The set of states (as tuples) of the attractor `state` reaches. `memo` (state ->
    attractor, filled here for every state walked) lets later walks stop early."""
    memo = {} if memo is None else memo
    seen: dict[tuple, int] = {}
    trail = []
    current = state
    while True:
        key = tuple(current[g] for g in genes)
        if key in memo:
            found = memo[key]
            break
        if key in seen:
            found = frozenset(trail[seen[key]:])
            break
        seen[key] = len(trail)
        trail.append(key)
        current = step(rules, current)
    for key in trail:
        memo[key] = found
    return found


class _Referee(BruteForceEngine):
    """The brute-force engine, answering "every world" without a per-world test (the
    referee asks that for each candidate subset; the worlds are already the feasible
    ones)."""

    def matching(self, assignment):
        return self.worlds if not assignment else super().matching(assignment)


def dynamic_referee(record: dict[str, Any]) -> BruteForceEngine:
    """A brute-force engine for a ``boolnet-dynamic`` record: every initial state
    consistent with the observed genes, walked to its attractor, looked up by its set of
    states in the record's catalogue (the ids are labels; the sets are the fact)."""
    spec = record["engine"]
    genes = spec["genes"]
    rules = python_rules(spec["rules"])
    by_states = {}
    for entry in spec["catalogue"]:
        states = frozenset(tuple((c >> i) & 1 for i in range(len(genes)))
                           for c in entry["states"])
        by_states[states] = entry
    target = spec["target"]
    worlds = []
    free = [g for g in genes if g not in record["observed"]]
    memo: dict[tuple, frozenset] = {}
    for values in all_states(free):
        state = {g: record["observed"].get(g, values.get(g)) for g in genes}
        entry = by_states[reached_attractor(rules, state, genes, memo)]
        if target["type"] == "attractor":
            value = entry["id"]
        else:
            bit = genes.index(target["gene"])
            marks = {(c >> bit) & 1 for c in entry["states"]}
            assert len(marks) == 1
            value = marks.pop()
        worlds.append({**state, record["target"]: value})
    domain = ([e["id"] for e in spec["catalogue"]] if target["type"] == "attractor"
              else [0, 1])
    return _Referee.from_worlds(
        record["variables"], {**{g: (0, 1) for g in genes}, record["target"]: domain},
        record["observed"], record["target"], worlds)


def steady_referee(record: dict[str, Any]) -> BruteForceEngine:
    """A brute-force engine for a ``boolnet-steady`` record: every fixed point found by
    enumerating all states, consistent with the observed genes."""
    spec = record["engine"]
    genes = spec["genes"]
    ids = {tuple((e["states"][0] >> i) & 1 for i in range(len(genes))): e["id"]
           for e in spec["catalogue"]}
    target = spec["target"]
    worlds = []
    for point in referee_fixed_points(spec["rules"], genes):
        if any(point[g] != v for g, v in record["observed"].items()):
            continue
        key = tuple(point[g] for g in genes)
        value = ids[key] if target["type"] == "attractor" else point[target["gene"]]
        worlds.append({**point, record["target"]: value})
    domain = ([e["id"] for e in spec["catalogue"]] if target["type"] == "attractor"
              else [0, 1])
    return _Referee.from_worlds(
        record["variables"], {**{g: (0, 1) for g in genes}, record["target"]: domain},
        record["observed"], record["target"], worlds)


def referee_for(record: dict[str, Any]) -> BruteForceEngine:
    kind = record["engine"]["kind"]
    return steady_referee(record) if kind == "boolnet-steady" else dynamic_referee(record)
