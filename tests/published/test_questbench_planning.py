"""QuestBench Planning-Q released CSV (`infoseek.builders.planning.released.source_format`):
loading, `infoseek verify` on the exact planning engine, `-T source=` on planning_q, and
malformed or wrong rows. Fixture (written by this project, answers worked out by hand in
its writer): tests/support/fixtures/published/questbench_planning_q.csv."""

from __future__ import annotations

import csv
import json

import pytest
from inspect_ai import eval as inspect_eval

from infoseek.builders.planning.released.source_format import QUESTBENCH_PLANNING, verify
from infoseek.builders.published import detect_source_format, load_published
from infoseek.builders.published.sources import source_records
from infoseek.cli import main
from infoseek.inspect_tasks.planning_q import planning_q
from infoseek.records import check_record
from infoseek.scorers.group_metric import log_metrics
from infoseek.stored_forms import sample_problem
from tests.support import FIXTURES
from tests.support.common import assert_row_refused

FILE = FIXTURES / "published" / "questbench_planning_q.csv"


def _rows() -> list[dict[str, str]]:
    with FILE.open(newline="", encoding="utf-8") as handle:
        return list(csv.DictReader(handle))


def _write(path, rows) -> str:
    with path.open("w", newline="", encoding="utf-8") as handle:
        writer = csv.DictWriter(handle, fieldnames=list(rows[0]))
        writer.writeheader()
        writer.writerows(rows)
    return str(path)


def test_rows_load_as_planning_records():
    records = load_published(str(FILE))
    assert [r["id"] for r in records] == [f"questbench_planning_q-row{n}" for n in (1, 2, 3)]
    for n, record in enumerate(records, 1):
        check_record(record)
        assert record["provenance"] == {"format": "questbench-planning",
                                        "source": "questbench_planning_q.csv", "row": n,
                                        "released_id": None}
    first, settled, third = records
    assert first["engine"] == {"kind": "blocks-world", "blocks": 4, "goal": ["(on a b)"]}
    assert first["observed"]["ontable a"] is False and first["observed"]["handempty"] is True
    assert first["queryable"] == ["clear c", "clear d", "on a c", "on a d"]
    assert first["mss_family"] == [["clear c"], ["clear d"], ["on a c"], ["on a d"]]
    assert len(first["target_values"]) == 2 and first["k"] == 1
    assert (settled["k"], settled["mss_family"], len(settled["target_values"])) == (0, [[]], 1)
    assert third["released"]["min_depth"] == "2"
    # released encodings: gt_qs as frozenset({...}), all_qs every atom
    assert _rows()[0]["gt_qs"].startswith("frozenset({")
    assert first["released"]["gt_qs"] == ["clear c", "clear d", "on a c", "on a d"]
    assert len(first["question_options"]) == 25
    assert first["released"]["all_valid_qs"] == first["queryable"]
    assert detect_source_format(list(_rows()[0])) is QUESTBENCH_PLANNING


def test_verify_agrees_on_every_fixture_row(tmp_path, capsys):
    out = tmp_path / "v"
    assert main(["verify", str(FILE), "--out", str(out), "--quiet"]) == 0
    assert capsys.readouterr().out.strip().splitlines()[-1] == "agree=3 disagree=0"
    summary = json.loads((out / "summary.json").read_text())
    assert (summary["format"], summary["rows"], summary["agree"]) == (
        "questbench-planning", 3, 3)


def test_planning_q_runs_the_fixture_with_source(tmp_path, caplog):
    [log] = inspect_eval(planning_q(source=str(FILE)), model="infoseek/optimal",
                         log_dir=str(tmp_path), display="none")
    assert log.status == "success"
    # the "No questions needed" row is a well-specified sample, as a built split's are
    assert [s.id for s in log.samples] == [f"questbench_planning_q-row{n}" for n in (1, 2, 3)]
    assert [s.metadata["variant"] for s in log.samples] == [
        "underspecified", "well_specified", "underspecified"]
    assert log.samples[1].metadata["correct"] == ["No questions needed"]
    assert log_metrics(log)["correct"] == 1.0
    assert [sample_problem(s.metadata)["provenance"]["row"] for s in log.samples] == [1, 2, 3]
    records = source_records(str(FILE), domain="planning")
    assert [r["id"] for r in records] == [f"questbench_planning_q-row{n}" for n in (1, 2, 3)]
    settled = records[1]
    assert (settled["k"], settled["answer"]) == (0, settled["target_values"][0])
    assert settled["derivation_depth"] == 2  # the released min_depth


def test_released_no_questions_rows_meet_the_bfs_references_at_their_depth(tmp_path):
    """bfs-D answers a released "No questions needed" row (min_depth 2) at D >= 2 only;
    a row the search does not reach gets no answer (the published BFS counting)."""
    from infoseek.records import engine_from_record
    from infoseek.single_turn import NO_QUESTION, bfs_pick, settling_depth

    settled = source_records(str(FILE), domain="planning")[1]
    engine = engine_from_record(settled)
    assert settling_depth(settled, engine) == 2
    assert [bfs_pick(engine, settled["question_options"], [], d, 2) for d in (1, 2, 3)] == [
        None, NO_QUESTION, NO_QUESTION]
    [log] = inspect_eval(planning_q(source=str(FILE)), model="infoseek/bfs-3",
                         log_dir=str(tmp_path), display="none")
    assert {s.id: s.scores["single_turn_scorer"].value["correct"] for s in log.samples} == {
        f"questbench_planning_q-row{n}": 1.0 for n in (1, 2, 3)}  # every depth is 2


def test_a_no_questions_row_with_two_plan_sets_is_left_out_naming_why(tmp_path, caplog):
    """A released "No questions needed" row whose consistent states have different sets
    of optimal plans is not posed (verify reports it as plans_differ)."""
    rows = _rows()
    conditions = [line for line in rows[1]["conditions"].splitlines()
                  if line not in ("(on a c)", "not (on a d)", "not (clear c)")]
    rows[1] = dict(rows[1], conditions="\n".join(conditions))
    path = _write(tmp_path / "open.csv", rows)
    [record] = [r for r in load_published(path) if r["k"] == 0]
    assert "answer" not in record and len(record["target_values"]) > 1
    assert {d["check"] for d in verify(record)} >= {"plans_differ"}
    with caplog.at_level("WARNING"):
        records = source_records(path, domain="planning")
    assert [r["id"] for r in records] == ["open-row1", "open-row3"]
    assert "open-row2 (a 'No questions needed' row whose consistent states have different " \
           "sets of optimal plans" in caplog.text


@pytest.mark.parametrize(("field", "change", "detail"), [
    ("conditions", lambda r: r.update(conditions=r["conditions"] + "\n(on a z)"),
     "'(on a z)' is not an atom of Blocks World with 4 blocks"),
    ("conditions", lambda r: r.update(conditions=r["conditions"] + "\nnot (ontable a)"),
     "states both (ontable a) and its negation"),
    ("gt_qs", lambda r: r.update(gt_qs="on a c"), "expected a Python set of atoms"),
    ("num_vars", lambda r: r.update(num_vars="four"), None),
    ("goals", lambda r: r.update(goals="(stacked a b)"), "is not an atom"),
])
def test_a_malformed_row_is_refused_naming_file_row_and_field(tmp_path, field, change,
                                                              detail):
    rows = _rows()
    change(rows[2])
    path = _write(tmp_path / "broken.csv", rows)
    assert_row_refused(path, f"broken.csv, row 3, field {field!r}: ", detail, planning_q)


def _checks(record) -> set[str]:
    return {d["check"] for d in verify(record)}


def test_verify_names_what_is_wrong(tmp_path):
    first, settled, third = _rows()
    short = dict(first, gt_qs="{'(on a c)'}")  # leaves out three atoms that settle it
    unoffered = dict(first, all_qs="{'(on a c)', '(on a d)', 'No questions needed.'}")
    known = dict(settled, gt_qs="{'(clear d)'}")  # nothing needs asking
    infeasible = dict(third, conditions=third["conditions"].replace("not (holding a)",
                                                                    "(holding a)"))
    records = load_published(_write(tmp_path / "wrong.csv",
                                    [short, unoffered, known, infeasible, third]))
    # the notes ride along: under the pinned one-plan convention the sets differ too
    assert _checks(records[0]) == {"gt_qs_missing", "first_plan_differs"}
    assert _checks(records[1]) == {"gt_not_offered", "first_plan_differs"}
    assert _checks(records[2]) == {"not_underspecified"}
    assert _checks(records[3]) == {"infeasible"}
    assert _checks(records[4]) == set()
    summary_dir = tmp_path / "v"
    assert main(["verify", str(tmp_path / "wrong.csv"), "--out", str(summary_dir),
                 "--quiet"]) == 0
    summary = json.loads((summary_dir / "summary.json").read_text())
    assert (summary["agree"], summary["disagree"]) == (1, 4)


def test_a_wrong_all_valid_qs_is_a_note(tmp_path):
    first = _rows()[0]
    row = dict(first, all_valid_qs="['(on a c)', '(on a d)']")
    [record] = load_published(_write(tmp_path / "valid.csv", [row]))
    found = verify(record)
    assert [d["check"] for d in found] == ["valid_qs_differ"]
    assert found[0]["computed"] == ["clear c", "clear d", "on a c", "on a d"]
    summary_dir = tmp_path / "v"
    assert main(["verify", str(tmp_path / "valid.csv"), "--out", str(summary_dir),
                 "--quiet"]) == 0
    summary = json.loads((summary_dir / "summary.json").read_text())
    assert (summary["agree"], summary["rows_by_note"]) == (1, {"valid_qs_differ": 1})


def test_gt_atoms_that_settle_only_one_plan_are_a_note(tmp_path):
    # d on b has two optimal plans (put d down, or stack it on c); a released gt atom
    # that does not settle the plan set is reported as a note, not a disagreement
    third = _rows()[2]
    extra = dict(third, all_qs="{'(clear b)', '(clear c)', '(on d b)', '(on d c)', "
                 "'(holding c)', 'No questions needed.'}",
                 conditions="\n".join(line for line in third["conditions"].splitlines()
                                      if line != "not (holding c)"),
                 gt_qs="{'(clear b)', '(clear c)', '(on d b)', '(on d c)', '(holding c)'}",
                 all_valid_qs="['(clear b)', '(clear c)', '(holding c)', '(on d b)', "
                 "'(on d c)']")
    [record] = load_published(_write(tmp_path / "note.csv", [extra]))
    found = verify(record)
    assert {d["check"] for d in found} == {"gt_qs_unconfirmed", "first_plan_differs"}
    assert [d["released"] for d in found if d["check"] == "gt_qs_unconfirmed"] == [
        ["holding c"]]


def test_atoms_that_settle_the_first_plan_only(tmp_path):
    # b is held; a and c are clear, d on the table; a and c each on the table or on d.
    # With a on the table the plan sets differ (d clear or not: 'stack b d' first or
    # not), but the first plan in action-name order is put-down b, pick-up a, stack a b
    # either way; with a on d it is put-down b, unstack a d, stack a b. So (ontable a) and
    # (on a d) settle the first plan, and nothing settles the plan set.
    true = {"(clear a)", "(clear c)", "(clear d)", "(holding b)", "(ontable a)",
            "(ontable c)", "(ontable d)"}
    hidden = {"(clear d)", "(handempty)", "(holding d)", "(on a d)", "(on c d)",
              "(ontable a)", "(ontable b)", "(ontable c)"}
    from tests.support.fixtures.published.write_questbench_planning_fixtures import (
        conditions,
        set_text,
    )
    row = dict(_rows()[0], conditions=conditions(true, hidden),
               gt_qs=set_text(["(on a d)", "(ontable a)"]),
               all_qs=set_text([*hidden, "No questions needed."]),
               all_valid_qs=set_text(hidden))
    path = _write(tmp_path / "first.csv", [row, _rows()[0]])
    record = load_published(path)[0]
    found = verify(record)
    assert {d["check"] for d in found} == {"gt_qs_unconfirmed"}
    assert sorted(found[0]["released"]) == ["on a d", "ontable a"]
    # a task cannot pose it under plan sets: left out with a warning
    assert [r["id"] for r in source_records(path, domain="planning")] == ["first-row2"]
