"""Guideline trees as data: one JSON file per tree in ``trees/``, read and checked here.

A file holds::

    {"title": "Low back pain in an adult",          # the presenting problem
     "area": "musculoskeletal",                     # the clinical area
     "source": "guideline or textbook chapter, by name",
     "variables": {"Pain duration": {"question": "How long has the pain lasted?",
                                     "values": ["under 6 weeks", "6 weeks or more"]}},
     "tree": {"ask": "Pain duration",
              "branches": {"under 6 weeks": {"leaf": "..."},
                           "6 weeks or more": {"ask": "...", "branches": {...}}}}}

A branch key is one value, or several joined by `` | `` (an edge that several values
share). The check on load (`load_tree`) refuses a tree unless: every branch ends in a leaf
(a node either asks a declared variable with two or more branches, or is a leaf); the
values of a node's branches are disjoint and cover the variable's values; no variable
repeats on a root-to-leaf path; leaves are unique within the tree; every declared
variable is asked somewhere; the source line is there. `load_trees` also requires one
value set per variable name across trees (a name that two trees use is one variable).
Errors name the file and the field. The trees' content hash keys the dataset cache.
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

TREES_DIR = Path(__file__).with_name("trees")
BRANCH_JOIN = " | "
TEXT_FIELDS = ("title", "area", "source")


class TreeFileError(ValueError):
    """A tree file that cannot be used; the message names the file and the field."""


@dataclass(frozen=True)
class GuidelineTree:
    """One checked tree: ``tree`` is in the engine's form (`infoseek.engines.tree`)."""

    name: str
    title: str
    area: str
    source: str
    questions: dict[str, str]
    domains: dict[str, list[str]]
    tree: dict[str, Any]

    @property
    def leaves(self) -> list[str]:
        found: list[str] = []

        def walk(node: dict[str, Any]) -> None:
            if "leaf" in node:
                found.append(node["leaf"])
            else:
                for branch in node["branches"]:
                    walk(branch["then"])

        walk(self.tree)
        return found


def load_tree(path: Path) -> GuidelineTree:
    """Read and check one tree file (module docstring); raises `TreeFileError`."""
    where = path.name
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise TreeFileError(f"{where}: not a readable JSON file ({exc})") from None
    if not isinstance(data, dict):
        raise TreeFileError(f"{where}: expected a JSON object")
    for field in TEXT_FIELDS:
        if not isinstance(data.get(field), str) or not data[field].strip():
            raise TreeFileError(f"{where}: field {field!r} must be a non-empty text")
    variables = data.get("variables")
    if not isinstance(variables, dict) or not variables:
        raise TreeFileError(f"{where}: field 'variables' must be an object "
                            "{name: {question, values}}")
    questions: dict[str, str] = {}
    domains: dict[str, list[str]] = {}
    for name, spec in variables.items():
        field = f"variables.{name}"
        if not isinstance(spec, dict) or not isinstance(spec.get("question"), str):
            raise TreeFileError(f"{where}: field {field!r} needs a 'question' text")
        values = spec.get("values")
        if (not isinstance(values, list) or len(values) < 2
                or not all(isinstance(v, str) and v for v in values)
                or len(set(values)) != len(values)):
            raise TreeFileError(f"{where}: field {field}.values must list two or more "
                                "distinct texts")
        if BRANCH_JOIN.strip() in "".join(values):
            raise TreeFileError(f"{where}: field {field}.values must not contain '|'")
        questions[name], domains[name] = spec["question"], list(values)
    if "recommendation" in variables:
        raise TreeFileError(f"{where}: 'recommendation' is the target, not a variable")
    leaves: list[str] = []
    asked: set[str] = set()
    tree = _node(data.get("tree"), domains, (), leaves, asked, where, "tree")
    repeated = sorted({leaf for leaf in leaves if leaves.count(leaf) > 1})
    if repeated:
        raise TreeFileError(f"{where}: field 'tree': leaves must be unique; repeated "
                            f"{repeated[:3]}")
    unused = sorted(set(domains) - asked)
    if unused:
        raise TreeFileError(f"{where}: field 'variables': never asked in the tree: "
                            f"{unused[:5]}")
    return GuidelineTree(path.stem, data["title"], data["area"], data["source"], questions,
                         domains, tree)


def _node(node: Any, domains: dict[str, list[str]], path: tuple[str, ...], leaves: list[str],
          asked: set[str], where: str, field: str) -> dict[str, Any]:
    if not isinstance(node, dict):
        raise TreeFileError(f"{where}: field {field!r} must be a node object "
                            "({'leaf': ...} or {'ask': ..., 'branches': ...})")
    if "leaf" in node:
        if set(node) != {"leaf"} or not isinstance(node["leaf"], str) or not node["leaf"]:
            raise TreeFileError(f"{where}: field {field!r}: a leaf is {{'leaf': text}}")
        leaves.append(node["leaf"])
        return {"leaf": node["leaf"]}
    var, branches = node.get("ask"), node.get("branches")
    if var not in domains:
        raise TreeFileError(f"{where}: field {field}.ask: {var!r} is not a declared "
                            "variable (every branch must end in a leaf)")
    if var in path:
        raise TreeFileError(f"{where}: field {field}.ask: {var!r} repeats on its path")
    if not isinstance(branches, dict) or len(branches) < 2:
        raise TreeFileError(f"{where}: field {field}.branches: needs two or more branches")
    asked.add(var)
    seen: list[str] = []
    out = []
    for key, child in branches.items():
        values = [v.strip() for v in key.split(BRANCH_JOIN.strip())]
        unknown = [v for v in values if v not in domains[var]]
        if unknown:
            raise TreeFileError(f"{where}: field {field}.branches: {unknown} are not values "
                                f"of {var!r} ({domains[var]})")
        overlap = [v for v in values if v in seen]
        if overlap:
            raise TreeFileError(f"{where}: field {field}.branches: value(s) {overlap} of "
                                f"{var!r} are on two branches")
        seen.extend(values)
        out.append({"values": values, "then": _node(child, domains, (*path, var), leaves,
                                                     asked, where,
                                                     f"{field}.branches[{key!r}]")})
    missing = [v for v in domains[var] if v not in seen]
    if missing:
        raise TreeFileError(f"{where}: field {field}.branches: value(s) {missing} of {var!r} "
                            "have no branch")
    return {"ask": var, "branches": out}


def tree_files(directory: Path = TREES_DIR) -> list[Path]:
    return sorted(directory.glob("*.json"))


def load_trees(directory: Path = TREES_DIR) -> list[GuidelineTree]:
    """Every tree of `directory`, checked, in file-name order; a variable name used by
    two trees must have the same values in both."""
    trees = [load_tree(path) for path in tree_files(directory)]
    if not trees:
        raise TreeFileError(f"{directory}: no tree files (*.json)")
    seen: dict[str, tuple[str, list[str]]] = {}
    for tree in trees:
        for name, values in tree.domains.items():
            first = seen.setdefault(name, (tree.name, values))
            if first[1] != values:
                raise TreeFileError(f"{tree.name}.json: field 'variables.{name}': values "
                                    f"{values} differ from {first[0]}.json's {first[1]}")
    return trees


def trees_content_hash(directory: Path = TREES_DIR) -> str:
    """A short hash of every tree file's name and bytes (the cache version)."""
    digest = hashlib.sha256()
    for path in tree_files(directory):
        digest.update(path.name.encode() + b"\0" + path.read_bytes() + b"\0")
    return digest.hexdigest()[:12]
