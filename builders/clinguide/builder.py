"""The ClinGuide-MT builder: problems from root-to-leaf pathways of the guideline trees.

A pathway is a root-to-leaf path. Hiding its last k variables (k = 1..4) leaves a prefix,
the patient context; the problem is the tree with that prefix observed, and its task
family is every recommendation still reachable (one instance per leaf below the prefix).
Ground truth is computed by the decision-tree engine (`infoseek.engines.tree`) and the
generic exact search (`infoseek.analysis`): a pathway with k hidden variables becomes a
problem only when the engine's MSS family is exactly the hidden variables (k-MSS, global
minimality over every askable variable) and every pathway below the prefix asks them in
the hidden order (so "the order of the hidden path" is one order for the whole family;
a branch that skips a variable asks a subsequence of it). The hidden variables, in path
order, are the canonical MSS and ``required_order``; ``required_orders`` gives each
instance (leaf) the hidden variables on its own pathway, in order.

Each problem is emitted at three distractor levels (0, 10, 20): that many variables of
other trees (never a name of the problem's own tree), each with a value drawn from its
value set, offered among the askable variables; the engine holds them fixed, so they
never change the recommendation. Deterministic: the seed orders the problems of each k
and draws the distractors; the same seed gives the same bytes.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from infoseek.analysis import minimal_sufficient_sets, possible_target_values
from infoseek.builders.clinguide.trees import GuidelineTree, load_trees, trees_content_hash
from infoseek.domains import BuilderSpec
from infoseek.engines.tree import DecisionTreeEngine, tree_paths

SPEC = BuilderSpec(
    name="clinguide",
    build=f"{__name__}:build_split",
    version="1.0.0",
    data_hash=trees_content_hash(),
    random_stream="clinguide",
    max_k=4, default_ks=(1, 2, 3, 4), default_per_k=1000, max_per_k=1000,
)
"""ClinGuide-MT; its data hash is the guideline trees' (an edited tree file is never
served from a stale cache entry), which every record also carries
(``provenance.trees``)."""
DOMAIN_NAME = "clinguide"
DISTRACTOR_LEVELS: tuple[int, ...] = (0, 10, 20)
TARGET = "recommendation"
ENTITY = "the patient"


@dataclass(frozen=True)
class Pathway:
    """A problem before distractors: a tree, the observed prefix, the hidden variables."""

    tree: GuidelineTree
    node_index: int
    prefix: tuple[tuple[str, str], ...]
    hidden: tuple[str, ...]
    orders: dict[str, list[str]]
    """leaf -> the hidden variables its own pathway asks, in order."""


def _is_subsequence(part: Sequence[str], whole: Sequence[str]) -> bool:
    items = iter(whole)
    return all(any(x == y for y in items) for x in part)


def _internal_nodes(tree: dict[str, Any]) -> list[tuple[tuple[tuple[str, str], ...], dict]]:
    """(prefix, node) of every internal node, depth first; the prefix gives each variable
    the first value of the edge taken."""
    found: list[tuple[tuple[tuple[str, str], ...], dict]] = []

    def walk(node: dict[str, Any], prefix: tuple[tuple[str, str], ...]) -> None:
        if "leaf" in node:
            return
        found.append((prefix, node))
        for branch in node["branches"]:
            walk(branch["then"], (*prefix, (node["ask"], branch["values"][0])))

    walk(tree, ())
    return found


def tree_pathways(tree: GuidelineTree) -> list[Pathway]:
    """The candidate problems of one tree: internal nodes whose subtree has one longest
    pathway that every other pathway below follows as a subsequence (its variables, at
    most ``SPEC.max_k``, are the hidden ones). Whether they form the MSS is checked by the
    engine when the record is made."""
    out = []
    for index, (prefix, node) in enumerate(_internal_nodes(tree.tree)):
        below = [([var for var, _ in steps], leaf) for steps, leaf in tree_paths(node)]
        longest = max(below, key=lambda item: len(item[0]))[0]
        if len(longest) > SPEC.max_k or not all(_is_subsequence(v, longest) for v, _ in below):
            continue
        if len({v for vars_, _ in below for v in vars_}) != len(longest):
            continue
        out.append(Pathway(tree, index, prefix, tuple(longest),
                           {leaf: vars_ for vars_, leaf in below}))
    return out


def _distractors(pathway: Pathway, trees: Sequence[GuidelineTree], level: int,
                 rng: random.Random) -> dict[str, str]:
    own = set(pathway.tree.domains)
    pool = sorted({name for t in trees if t.name != pathway.tree.name for name in t.domains}
                  - own)
    domains = {name: values for t in trees for name, values in t.domains.items()}
    chosen = sorted(rng.sample(pool, level))
    return {name: rng.choice(domains[name]) for name in chosen}


def make_record(pathway: Pathway, trees: Sequence[GuidelineTree], level: int,
                seed: int) -> dict[str, Any] | None:
    """The record of `pathway` at distractor `level`, or None when the engine's MSS
    family is not exactly the hidden variables."""
    tree = pathway.tree
    rng = random.Random(f"{SPEC.random_stream}:{seed}:{tree.name}:{pathway.node_index}:{level}")
    fixed = _distractors(pathway, trees, level, rng)
    all_domains = {name: values for t in trees for name, values in t.domains.items()}
    domains = {**tree.domains, **{name: all_domains[name] for name in fixed}}
    observed = dict(pathway.prefix)
    engine = DecisionTreeEngine(tree.tree, domains, fixed, observed, TARGET)
    queryable = sorted(v for v in domains if v not in observed)
    result = minimal_sufficient_sets(engine, queryable, SPEC.max_k)
    if result.k != len(pathway.hidden) or [set(s) for s in result.family] != [
            set(pathway.hidden)]:
        return None
    target_values = possible_target_values(engine)
    questions = {name: tree.questions.get(name) or _question_of(name, trees)
                 for name in domains}
    return {
        "id": f"{SPEC.name}-{tree.name}-n{pathway.node_index}-d{level}",
        "domain": DOMAIN_NAME,
        "entity": ENTITY,
        "engine": {"kind": "decision-tree", "tree": tree.tree, "domains": domains,
                   "fixed": fixed},
        "variables": [*domains, TARGET],
        "observed": observed,
        "target": TARGET,
        "target_values": target_values,
        "queryable": queryable,
        "forbidden": [],
        "alternative_only": [],
        "k": result.k,
        "mss_family": [list(pathway.hidden)],
        "required_order": list(pathway.hidden),
        "required_orders": {leaf: pathway.orders[leaf] for leaf in target_values},
        "distractors": level,
        "questions": questions,
        "tree": {"name": tree.name, "title": tree.title, "area": tree.area,
                 "source": tree.source},
        "provenance": {"builder": SPEC.name, "version": SPEC.version, "seed": seed,
                       "trees": trees_content_hash()},
    }


def _question_of(name: str, trees: Sequence[GuidelineTree]) -> str:
    return next(t.questions[name] for t in trees if name in t.questions)


def build_split(seed: int, per_k: int, ks: Sequence[int], *, workers: int | None = None,
                progress: Callable[[int, int], None] | None = None) -> list[dict[str, Any]]:
    """Up to `per_k` pathway problems for each k of `ks`, each at the three distractor
    levels (so up to ``3 * per_k`` records per k), in an order the seed shuffles;
    `workers` is accepted and unused (building takes seconds)."""
    bad = [k for k in ks if k not in SPEC.ks]
    if bad:
        raise ValueError(f"the clinguide builder makes k in 1..{SPEC.max_k}; got {bad}")
    trees = load_trees()
    pathways = [p for tree in trees for p in tree_pathways(tree)]
    records: list[dict[str, Any]] = []
    total = len(DISTRACTOR_LEVELS) * sum(
        min(per_k, sum(1 for p in pathways if len(p.hidden) == k)) for k in ks)
    for k in ks:
        chosen = [p for p in pathways if len(p.hidden) == k]
        random.Random(f"{SPEC.random_stream}:{seed}:order:{k}").shuffle(chosen)
        made = 0
        for pathway in chosen:
            if made >= per_k:
                break
            level_records = [make_record(pathway, trees, level, seed)
                             for level in DISTRACTOR_LEVELS]
            if any(r is None for r in level_records):
                continue
            records.extend(level_records)  # type: ignore[arg-type]
            made += 1
            if progress is not None:
                progress(len(records), total)
    return records
