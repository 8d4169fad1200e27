"""Shared helpers of the ClinGuide-MT tests: the brute-force referee of a decision-tree
record, written from the tree's meaning (follow the values from the root) and sharing no
code with the engine."""

from __future__ import annotations

from typing import Any

from infoseek.engines.bruteforce import BruteForceEngine


def leaf_reached(node: dict[str, Any], world: dict[str, Any]) -> str:
    """The leaf the tree reaches when every variable takes its value in `world`."""
    while "leaf" not in node:
        value = world[node["ask"]]
        node = next(b["then"] for b in node["branches"] if value in b["values"])
    return node["leaf"]


def all_leaves(node: dict[str, Any]) -> list[str]:
    if "leaf" in node:
        return [node["leaf"]]
    return [leaf for b in node["branches"] for leaf in all_leaves(b["then"])]


def referee(record: dict[str, Any], *, narrow_fixed: bool = True) -> BruteForceEngine:
    """Every world of the record: the target is the leaf reached, fixed variables hold
    their value. ``narrow_fixed`` enumerates a fixed variable over its one feasible value
    only (the same feasible worlds, far fewer assignments to enumerate)."""
    spec = record["engine"]
    tree, fixed, target = spec["tree"], spec.get("fixed", {}), record["target"]
    domains = {v: tuple(values) for v, values in spec["domains"].items()}
    if narrow_fixed:
        domains.update({v: (value,) for v, value in fixed.items()})
    domains[target] = tuple(all_leaves(tree))

    def consistent(world: dict[str, Any]) -> bool:
        return (all(world[v] == value for v, value in fixed.items())
                and world[target] == leaf_reached(tree, world))

    return BruteForceEngine(record["variables"], domains, consistent, record["observed"],
                            target)
