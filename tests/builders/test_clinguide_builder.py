"""ClinGuide-MT trees and builder: the schema check passes on every tree and names what
is wrong in a broken file; the builder is deterministic, large enough, and every record
agrees with the brute-force referee (k, MSS family, Known, target values, task-level k);
distractors never come from the problem's own tree."""

from __future__ import annotations

import itertools
import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from infoseek.analysis import is_known
from infoseek.builders.clinguide import builder
from infoseek.builders.clinguide.render import render, render_open_book
from infoseek.builders.clinguide.trees import TreeFileError, load_tree, load_trees, tree_files
from infoseek.engines.bruteforce import (
    BruteForceEngine,
    referee_known,
    referee_mss_family,
    referee_sufficient,
)
from infoseek.records import check_record, engine_from_record
from infoseek.solvers.dataset import task_level_ks
from tests.support.clinguide import referee

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module")
def records() -> list[dict[str, Any]]:
    return builder.build_split(0, 1000, [1, 2, 3, 4])


def test_every_tree_passes_the_schema_check() -> None:
    trees = load_trees()
    assert len(trees) >= 40
    assert len({t.area for t in trees}) >= 10
    assert len(trees) == len(tree_files())
    for tree in trees:
        assert tree.source.strip()
        assert len(set(tree.leaves)) == len(tree.leaves)


@pytest.mark.parametrize("edit, message", [
    (lambda d: d["variables"]["A"]["values"].append("maybe"),
     r"value\(s\) \['maybe'\] of 'A' have no branch"),
    (lambda d: d["tree"]["branches"].pop("no"), r"needs two or more branches"),
    (lambda d: d["tree"]["branches"].update({"yes | no": {"leaf": "x"}}),
     r"on two branches"),
    (lambda d: d["tree"]["branches"].update({"no": {"ask": "Nope", "branches": {}}}),
     r"tree.branches\['no'\].ask: 'Nope' is not a declared variable"),
    (lambda d: d["tree"]["branches"].update(
        {"no": {"ask": "A", "branches": {"yes": {"leaf": "L1"}, "no": {"leaf": "L3"}}}}),
     r"'A' repeats on its path"),
    (lambda d: d["tree"]["branches"].update({"no": {"leaf": "L1"}}), r"leaves must be unique"),
    (lambda d: d.pop("source"), r"field 'source'"),
    (lambda d: d["tree"]["branches"].update({"no": {}}), r"every branch must end in a leaf"),
])
def test_a_broken_tree_file_names_the_file_and_field(tmp_path, edit, message) -> None:
    good = {"title": "T", "area": "a", "source": "S",
            "variables": {"A": {"question": "A?", "values": ["yes", "no"]}},
            "tree": {"ask": "A", "branches": {"yes": {"leaf": "L1"}, "no": {"leaf": "L2"}}}}
    load_tree(_write(tmp_path, good))
    edit(good)
    with pytest.raises(TreeFileError, match=f"tree.json: .*{message}"):
        load_tree(_write(tmp_path, good))


def _write(folder: Path, data: dict) -> Path:
    path = folder / "tree.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    return path


def test_the_split_is_large_enough(records) -> None:
    assert len(records) >= 300
    assert sum(len(r["target_values"]) for r in records) >= 1200
    assert {r["k"] for r in records} == {1, 2, 3, 4}
    assert {r["distractors"] for r in records} == {0, 10, 20}
    assert len({r["id"] for r in records}) == len(records)


def test_the_builder_is_deterministic(records) -> None:
    again = builder.build_split(0, 1000, [1, 2, 3, 4])
    assert [json.dumps(r) for r in again] == [json.dumps(r) for r in records]
    assert builder.build_split(0, 5, [2]) == builder.build_split(0, 5, [2])
    assert builder.build_split(1, 1000, [2]) != [r for r in records if r["k"] == 2]
    code = ("import json; from infoseek.builders.clinguide.builder import build_split; "
            "print(json.dumps(build_split(0, 4, [3])))")
    outputs = {subprocess.run([sys.executable, "-c", code], cwd=ROOT, text=True,
                              capture_output=True, check=True,
                              env={**os.environ, "PYTHONHASHSEED": seed}).stdout
               for seed in ("1", "2")}
    assert outputs == {json.dumps(builder.build_split(0, 4, [3])) + "\n"}
    with pytest.raises(ValueError, match="1..4"):
        builder.build_split(0, 1, [5])


def test_distractors_come_from_other_trees_with_fixed_values(records) -> None:
    trees = {t.name: t for t in load_trees()}
    for record in records:
        own = set(trees[record["tree"]["name"]].domains)
        fixed = record["engine"]["fixed"]
        assert len(fixed) == record["distractors"]
        assert not own & set(fixed)
        assert set(fixed) <= set(record["queryable"])
        assert all(value in record["engine"]["domains"][v] for v, value in fixed.items())


def referee_task_k(ref: BruteForceEngine, family: list[list[str]], value: Any) -> int:
    worlds = ref.matching(None)
    with_value = [w for w in worlds if w[ref.target] == value]

    def pins(subset: tuple[str, ...]) -> bool:
        return all(all(o[ref.target] == value for o in worlds
                       if all(o[v] == w[v] for v in subset)) for w in with_value)

    return min(len(s) for mss in family for size in range(len(mss) + 1)
               for s in itertools.combinations(mss, size) if pins(s))


def check_against_referee(record: dict[str, Any]) -> None:
    check_record(record)
    ref, engine = referee(record), engine_from_record(record)
    assert not referee_known(ref) and not is_known(engine)
    assert sorted(record["target_values"]) == sorted(ref.target_values())
    hidden = record["required_order"]
    assert record["mss_family"] == [hidden] and len(hidden) == record["k"]
    assert referee_sufficient(ref, hidden)
    k, family = referee_mss_family(ref, record["queryable"], record["k"])
    assert (k, family) == (record["k"], [tuple(sorted(hidden))])
    assert task_level_ks(record) == [referee_task_k(ref, record["mss_family"], v)
                                     for v in record["target_values"]]
    for value, order in record["required_orders"].items():
        assert [v for v in hidden if v in order] == order  # a subsequence, in path order
        assert referee_task_k(ref, [order], value) == len(order)


def test_every_record_agrees_with_the_referee(records) -> None:
    """Every built record, the MSS search of the referee ranging over every askable
    variable (the distractors included)."""
    for record in records:
        check_against_referee(record)


def test_renderings_show_the_case_without_the_hidden_values(records) -> None:
    record = next(r for r in records if r["k"] == 3 and r["distractors"] == 10)
    text = render(record)
    for var, value in record["observed"].items():
        assert f"- {var}: {value}" in text
    for name in record["queryable"]:
        assert f"- {name}\n" in text
    assert all(value in text for value in record["target_values"])
    book = render_open_book(record)
    assert book.endswith(text)
    assert all(f"Guideline: {t.title}" in book for t in load_trees())


def test_infoseek_build_writes_checked_records(tmp_path, capsys, monkeypatch) -> None:
    from infoseek import cli
    from infoseek.jsonl import read_jsonl

    monkeypatch.setenv("INFOSEEK_CACHE_DIR", str(tmp_path / "cache"))
    out = tmp_path / "clinguide.jsonl"
    status = cli.main(["build", "clinguide", "--out", str(out), "--seed", "2", "--per-k", "2",
                       "--k", "1", "4", "--quiet"])
    assert status == 0, capsys.readouterr().err
    written = list(read_jsonl(out))  # every record passes check_record
    assert written == builder.build_split(2, 2, [1]) + builder.build_split(2, 2, [4])
    assert len(written) == 12
