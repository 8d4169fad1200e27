"""Logic-Q verification against the brute-force referee, and the released conventions
(forbid-alternatives lists, negated facts, offered lists that are not U(P))."""

from __future__ import annotations

import ast
import csv
import json

from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from infoseek.builders.logic.released.source_format import (
    mt_record_from_row,
    questbench_record_from_row,
    verify_mt,
    verify_questbench,
)
from infoseek.engines.bruteforce import horn_referee, referee_known, referee_mss_family
from infoseek.records import check_record
from tests.support.published_logic import MT_FILE, REF, check_names
from tests.support.published_logic import small_row as _small_row
from tests.support.strategies import horn_problems


# ------------------------------------------------------------------ property
@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(problem=horn_problems(max_vars=7), data=st.data())
def test_verify_agrees_with_the_referee(problem, data):
    names, clauses, observed, target = problem
    open_names = [v for v in names if v not in observed and v != target]
    forbidden = data.draw(st.lists(st.sampled_from(open_names), max_size=1, unique=True)
                          if open_names else st.just([]))
    queryable = sorted(set(open_names) - set(forbidden))
    referee = horn_referee(names, clauses, observed, target)
    row = {
        "sample_id": "1", "goal": target,
        "known_facts": repr(sorted(v for v, x in observed.items() if x)),
        "known_untrue_facts": repr(sorted(v for v, x in observed.items() if not x)),
        "cannot_ask_facts": repr(forbidden), "rules": repr(clauses),
        "all_valid_qs": repr(queryable), "num_constraints": str(len(clauses)),
    }
    if not referee.worlds or referee_known(referee):
        row.update(k="1", gt_qs=repr([queryable[:1] or [target]]), all_alternative_gt_qs="[]")
        expected = "infeasible" if not referee.worlds else "not_underspecified"
        assert expected in check_names(verify_mt(mt_record_from_row(row, REF)))
        return
    k, family = referee_mss_family(referee, queryable, len(queryable))
    assume(k is not None)
    canonical = list(family[0])
    alternatives = {v for s in family[1:] for v in s} - set(canonical)
    row.update(k=str(k), gt_qs=repr([canonical]), all_alternative_gt_qs=repr(
        [list(s) for s in family]),
        all_valid_qs_forbid_alternatives=repr(sorted(set(queryable) - alternatives)))
    record = mt_record_from_row(row, REF)
    check_record({"id": "p", **record})
    assert verify_mt(record) == []
    if k == 1:
        row["gt_qs"] = repr(sorted(s[0] for s in family))
        assert verify_questbench(questbench_record_from_row(row, REF)) == []


def test_fixture_rows_are_python_literals():
    with open(MT_FILE, encoding="utf-8") as fh:
        first = next(csv.DictReader(fh))
    assert isinstance(ast.literal_eval(first["rules"]), list)
    assert ast.literal_eval(first["gt_qs"])[0] == sorted(ast.literal_eval(first["gt_qs"])[0])


# ------------------------------------------------------------------ released conventions
def test_forbid_alternatives_list_withholds_every_mss_name_as_released():
    """The released list is all_valid_qs minus every name of every MSS (canonical too);
    the alternative-only names are the withheld ones outside the canonical MSS."""
    row = _small_row(
        rules="[['g', 'not a'], ['a', 'not g'], ['g', 'not b'], ['b', 'not g']]",
        known_facts="[]", gt_qs='[["a"]]', all_alternative_gt_qs='[["a"], ["b"]]',
        all_valid_qs="['a', 'b']", all_valid_qs_forbid_alternatives="[]",
        num_constraints="4")
    record = mt_record_from_row(row, REF)
    assert record["mss_family"] == [["a"], ["b"]]
    assert record["alternative_only"] == ["b"]
    assert verify_mt(record) == []


def test_negated_entries_in_fact_lists_and_cannot_ask_with_known_facts():
    record = mt_record_from_row(_small_row(known_facts="['c', 'not d']",
                                           cannot_ask_facts="['c', 'g', 'b']"), REF)
    assert record["observed"] == {"c": True, "d": False}
    assert record["forbidden"] == ["b"]  # known facts and the goal are never askable anyway
    assert record["released"]["cannot_ask_facts"] == ["b", "c", "g"]


def test_an_offered_list_that_is_not_u_p_is_a_note_not_a_disagreement(tmp_path):
    from infoseek.builders.published.verify import verify_source

    row = _small_row(all_valid_qs="['a']", all_valid_qs_forbid_alternatives="[]",
                     num_constraints="9")
    path = tmp_path / "one.csv"
    with open(path, "w", newline="", encoding="utf-8") as fh:
        writer = csv.DictWriter(fh, fieldnames=list(row))
        writer.writeheader()
        writer.writerow(row)
    summary = verify_source(str(path), "mt-infoseek-logic", out_dir=tmp_path / "out")
    assert (summary["agree"], summary["disagree"]) == (1, 0)
    assert summary["rows_by_note"] == {"num_constraints": 1, "queryable": 1}
    line = json.loads((tmp_path / "out" / "disagreements.jsonl").read_text())
    assert line["status"] == "agree" and line["disagreements"] == []
    assert {n["check"] for n in line["notes"]} == {"queryable", "num_constraints"}
    assert "b" in json.dumps(line["notes"])


def test_a_smaller_mss_among_names_the_offered_list_leaves_out_is_a_disagreement():
    """k is minimal over all of U(P): an offered list that omits `a` (g <-> a) cannot make
    {b, c} (g <-> b & c) a 2-MSS."""
    row = _small_row(
        k="2", known_facts="[]",
        rules="[['g', 'not a'], ['a', 'not g'], ['g', 'not b', 'not c'], ['b', 'not g'], "
              "['c', 'not g']]",
        gt_qs='[["b", "c"]]', all_alternative_gt_qs='[["b", "c"]]',
        all_valid_qs="['b', 'c']", all_valid_qs_forbid_alternatives="[]",
        num_constraints="5")
    found = verify_mt(mt_record_from_row(row, REF))
    assert {d["check"] for d in found} == {"queryable", "k_unoffered"}
    entry = next(d for d in found if d["check"] == "k_unoffered")
    assert (entry["released"], entry["computed"], entry["example"]) == (2, 1, ["a"])
