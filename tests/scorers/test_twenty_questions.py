"""Twenty Questions data, engine and metrics: the pools as checked data, the attribute
table as a CSP on the generic core (checked against the brute-force referee), the
information metrics equal to a hand computation, and one test per defect of the published
implementation that the suite must not repeat (the game-level ones are in
tests/solvers/test_twenty_questions_game.py)."""

from __future__ import annotations

import itertools
import json
import math
import random
from pathlib import Path

import pytest

from infoseek.analysis import is_sufficient, minimal_sufficient_sets
from infoseek.builders.twenty_questions import builder
from infoseek.builders.twenty_questions.pools import (
    FILES,
    MIN_ATTRIBUTES,
    PoolFileError,
    builtin_pools,
    load_pools,
)
from infoseek.engines.table import AttributeTableEngine
from infoseek.records import check_record
from infoseek.scorers.twenty_questions_metrics import game_metrics
from infoseek.solvers.twenty_questions.game import GameTable, question_attribute
from infoseek.twenty_questions import entropy, expected_information_gain, pass_mass, uniform, update

DATA = Path(builder.__file__).with_name("data")


# --------------------------------------------------------------------------- the pools


def test_the_pools_have_their_declared_shape():
    pools = builtin_pools()
    common, thing = pools["common"], pools["thing"]
    assert len(common.targets) == 111 and 380 <= len(common.candidates) <= 420
    assert {common.candidate(t).group for t in common.targets} == {
        "animal", "place", "food", "object"}
    assert len(thing.candidates) >= 190 and set(thing.targets) == {
        c.name for c in thing.candidates}
    for pool in pools.values():
        assert len(pool.attributes) >= MIN_ATTRIBUTES
        rows = [c.row for c in pool.candidates]
        assert len(set(rows)) == len(rows)  # no two candidates share a row
        assert all(len(r) == len(pool.attributes) and set(r) <= set("ynp") for r in rows)
        assert all(c.aliases for c in pool.candidates)


def test_every_attribute_question_names_its_own_attribute():
    record = builder.game_records("common")[0]
    table = GameTable.from_record(record)
    for attr in table.attributes:
        assert question_attribute(table.questions[attr], table) == attr, attr
        assert question_attribute(table.questions[attr].replace("X", "it"), table) == attr


def _copy_data(tmp_path: Path) -> Path:
    for name in FILES:
        (tmp_path / name).write_bytes((DATA / name).read_bytes())
    return tmp_path


@pytest.mark.parametrize(("edit", "message"), [
    (lambda t: t.replace("| yynyn", "| qynyn", 1), "candidates.txt:3: field 'cells'"),
    (lambda t: t.replace(" | animal | ", " | beast | ", 1), "field 'group' 'beast'"),
    (lambda t: t.replace("dog | animal | dogs,", "dog | animal | cats,", 1),
     "candidates.txt:4: 'cats' already names 'dog'"),
    (lambda t: t + "object2 | object | object2 | " + next(
        line for line in t.splitlines() if " | object | " in line).split(" | ")[3] + "\n",
     "have the same row"),
    (lambda t: t.replace("dog | animal |", "dog | animal", 1), "expected 4 fields"),
])
def test_a_broken_candidates_file_is_refused_with_its_line(tmp_path, edit, message):
    data = _copy_data(tmp_path)
    path = data / "candidates.txt"
    path.write_text(edit(path.read_text(encoding="utf-8")), encoding="utf-8")
    with pytest.raises(PoolFileError, match=message.replace("(", r"\(")):
        load_pools(data)


def test_a_target_outside_its_pool_is_refused(tmp_path):
    data = _copy_data(tmp_path)
    path = data / "pools.json"
    spec = json.loads(path.read_text(encoding="utf-8"))
    spec["common"]["targets"][0] = "unicorn"
    path.write_text(json.dumps(spec), encoding="utf-8")
    with pytest.raises(PoolFileError, match="targets \\['unicorn'\\]"):
        load_pools(data)


# ------------------------------------------------------------------------- the engine


def small_engine(rng: random.Random) -> AttributeTableEngine:
    attributes = [f"a{i}" for i in range(5)]
    rows = sorted({"".join(rng.choice("ynp") for _ in attributes) for _ in range(9)})
    return AttributeTableEngine(attributes, [f"c{i}" for i in range(len(rows))], rows,
                                "candidate")


@pytest.mark.parametrize("seed", range(12))
def test_the_table_engine_agrees_with_brute_force(seed):
    rng = random.Random(seed)
    engine = small_engine(rng)
    rows = {c: engine.row(c) for c in engine.candidates}
    for size in range(0, 4):
        for subset in itertools.combinations(engine.attributes, size):
            projections = [tuple(r[a] for a in subset) for r in rows.values()]
            brute = len(set(projections)) == len(projections)
            assert (engine.distinguishing_pair(subset) is None) == brute
            assert is_sufficient(engine, subset, {}, use_fast_path=False) == brute
    fast = minimal_sufficient_sets(engine, list(engine.attributes), 5)
    slow = minimal_sufficient_sets(engine, list(engine.attributes), 5, use_fast_path=False)
    assert (fast.k, fast.family) == (slow.k, slow.family)


def test_csp_records_pass_the_record_check_and_have_their_k():
    records = builder.build_split(0, 1, [1, 2, 3])
    assert [r["k"] for r in records] == [1, 2, 3]
    for record in records:
        check_record(record)
        engine = AttributeTableEngine(record["engine"]["attributes"],
                                      record["engine"]["candidates"],
                                      record["engine"]["rows"], "candidate",
                                      record["observed"])
        result = minimal_sufficient_sets(engine, record["queryable"], 4)
        assert result.k == record["k"] and [list(s) for s in result.family] == record[
            "mss_family"]
    assert builder.build_split(0, 1, [1, 2, 3]) == records  # same seed, same records


# ------------------------------------------------------------------------ the metrics


def test_metrics_equal_a_hand_computed_example():
    """Three candidates A, B, C; question 1 labelled (yes, no, pass), answered yes;
    question 2 labelled (no, yes, no), answered no."""
    q1, q2 = ["yes", "no", "pass"], ["no", "yes", "no"]
    got = game_metrics(3, [(1, q1, "yes"), (2, q2, "no")], 2)
    third = 1 / 3
    # turn 1: Lbar rows (0.98, .02, .02)/1.02, (.02, .98, .02)/1.02, (.5, .5, .98)/1.98
    p_yes = third * (0.98 / 1.02 + 0.02 / 1.02 + 0.5 / 1.98)
    p_no = third * (0.02 / 1.02 + 0.98 / 1.02 + 0.5 / 1.98)
    p_pass = third * (0.02 / 1.02 + 0.02 / 1.02 + 0.98 / 1.98)

    def h(*weights):
        total = sum(weights)
        return -sum(w / total * math.log(w / total) for w in weights)

    eig1 = math.log(3) - (p_yes * h(0.98 / 1.02, 0.02 / 1.02, 0.5 / 1.98)
                          + p_no * h(0.02 / 1.02, 0.98 / 1.02, 0.5 / 1.98)
                          + p_pass * h(0.02 / 1.02, 0.02 / 1.02, 0.98 / 1.98))
    after1 = (0.98 / 1.5, 0.02 / 1.5, 0.5 / 1.5)  # weights 0.98, 0.02, 0.5 over 1.5
    a, b, c = after1
    eig2 = h(a, b, c) - sum(
        (a * la + b * lb + c * lc) * h(a * la, b * lb, c * lc)
        for la, lb, lc in ((0.02 / 1.02, 0.98 / 1.02, 0.02 / 1.02),
                           (0.98 / 1.02, 0.02 / 1.02, 0.98 / 1.02),
                           (0.02 / 1.02, 0.02 / 1.02, 0.02 / 1.02)))
    after2 = (a * 0.98, b * 0.02, c * 0.98)
    assert got["eig"][1] == pytest.approx(eig1, abs=1e-12)
    assert got["neig"][1] == pytest.approx(eig1 / (math.log(3) + 1e-12), abs=1e-12)
    assert got["pass_mass"] == {1: pytest.approx(third, abs=1e-15), 2: 0.0}
    assert got["eig"][2] == pytest.approx(eig2, abs=1e-12)
    assert got["entropy"] == [pytest.approx(h(*after1), abs=1e-12),
                              pytest.approx(h(*after2), abs=1e-12)]
    assert got["belief"] == pytest.approx([w / sum(after2) for w in after2], abs=1e-12)
    assert got["mean_neig"] == pytest.approx(
        (eig1 / math.log(3) + eig2 / h(*after1)) / 2, abs=1e-9)


def hard_partition_neig(labels: list[str]) -> float:
    """The published implementation's EIG: the entropy of the hard partition."""
    n = len(labels)
    parts = [labels.count(g) / n for g in ("yes", "no", "pass")]
    return -sum(p * math.log(p) for p in parts if p) / math.log(n)


def test_defect_1_eig_is_the_soft_one_not_the_hard_partition():
    belief = uniform(188)
    split = ["yes"] * 60 + ["no"] * 60 + ["pass"] * 68
    soft = expected_information_gain(belief, split) / (entropy(belief) + 1e-12)
    assert round(soft, 3) == 0.105 and round(hard_partition_neig(split), 2) == 0.21
    # the hard version prefers a question that draws many Pass labels; the soft one does not
    clean = ["yes"] * 94 + ["no"] * 94
    assert hard_partition_neig(split) > hard_partition_neig(clean)
    assert expected_information_gain(belief, clean) > expected_information_gain(belief, split)


def test_pass_mass_is_taken_before_the_update():
    belief = [0.4, 0.5, 0.1]
    labels = ["pass", "yes", "no"]
    assert pass_mass(belief, labels) == 0.4
    assert pass_mass(update(belief, labels, "yes"), labels) == pytest.approx(0.2 / 0.692)
    got = game_metrics(3, [(1, labels, "yes")], 1)
    assert got["pass_mass"][1] == pytest.approx(1 / 3)  # uniform before the update


def test_defect_3_the_declared_pool_is_the_whole_pool():
    common = builtin_pools()["common"]
    for record in builder.game_records("common")[:40:13]:
        assert record["engine"]["candidates"] == [c.name for c in common.candidates]
        assert record["group"] in {"animal", "place", "food", "object"}
    got = game_metrics(len(common.candidates), [], 1)
    assert got["initial_entropy"] == pytest.approx(math.log(len(common.candidates)))
