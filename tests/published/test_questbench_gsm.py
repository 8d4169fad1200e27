"""QuestBench GSM-Q / GSME-Q released CSVs (`infoseek.builders.math.released.questbench`):
loading with ids from file and row, `infoseek verify`, `-T source=` on the math tasks, and
malformed or wrong rows. Fixture (written by this project):
tests/support/fixtures/published/questbench_gsm_q.csv."""

from __future__ import annotations

import csv
import json
import re

import pytest
from inspect_ai import eval as inspect_eval

from infoseek.builders.math.released.questbench import QUESTBENCH_GSM, verify
from infoseek.builders.published import PublishedDataError, detect_source_format, load_published
from infoseek.cli import main
from infoseek.inspect_tasks.gsm_q import gsm_q
from infoseek.inspect_tasks.gsme_q import gsme_q
from infoseek.records import check_record
from infoseek.scorers.group_metric import log_metrics
from infoseek.stored_forms import sample_problem
from tests.support import FIXTURES
from tests.support.common import assert_row_refused

FILE = FIXTURES / "published" / "questbench_gsm_q.csv"
MT_FILE = FIXTURES / "published" / "gsme_q_mt.csv"


def _rows() -> list[dict[str, str]]:
    with FILE.open(newline="", encoding="utf-8") as handle:
        return list(csv.DictReader(handle))


def _write(path, rows) -> str:
    with path.open("w", newline="", encoding="utf-8") as handle:
        writer = csv.DictWriter(handle, fieldnames=list(rows[0]))
        writer.writeheader()
        writer.writerows(rows)
    return str(path)


def test_rows_load_with_ids_from_file_and_row():
    records = load_published(str(FILE))
    assert [r["id"] for r in records] == [f"questbench_gsm_q-row{n}" for n in range(1, 5)]
    for n, record in enumerate(records, 1):
        check_record(record)
        assert record["provenance"] == {"format": "questbench-gsm",
                                        "source": "questbench_gsm_q.csv", "row": n,
                                        "released_id": "17"}
        assert record["k"] == 1
    variants = [r["released"]["questbench"]["variant"] for r in records]
    assert variants == ["GSME-Q", "GSM-Q", "GSME-Q", "GSM-Q"]
    # GSME-Q reveals the Rewritten Problem's lines; GSM-Q every valued leaf the goal
    # depends on but the GT Question (the distractor oranges is left out in both)
    assert records[0]["observed"] == {"eaten": 5, "per_bag": 6}
    assert records[1]["observed"] == {"bags": 4, "per_bag": 6}
    assert records[0]["mss_family"] == [["bags"]] and records[1]["mss_family"] == [["eaten"]]
    assert records[0]["hidden_world"] == {"bags": 4, "eaten": 5, "oranges": 7, "per_bag": 6}
    assert records[0]["target"] == "left" and records[0]["answer"] == 19


def test_detected_from_the_columns_and_apart_from_mt_infoseek():
    columns = list(_rows()[0])
    # the released file has MT-InfoSeek's GSME columns too (Heldout Value, Pred Values)
    assert {"Heldout Value", "Pred Values", "Equations"} <= set(columns)
    assert detect_source_format(columns) is QUESTBENCH_GSM
    assert load_published(str(MT_FILE), limit=1)[0]["provenance"]["format"] == \
        "mt-infoseek-gsme"


def test_verify_agrees_on_every_fixture_row(tmp_path, capsys):
    out = tmp_path / "v"
    code = main(["verify", str(FILE), "--out", str(out), "--quiet"])
    stdout = capsys.readouterr().out.strip().splitlines()
    assert code == 0
    assert stdout[-1] == "agree=4 disagree=0"
    summary = json.loads((out / "summary.json").read_text())
    assert (summary["format"], summary["rows"], summary["agree"]) == ("questbench-gsm", 4, 4)


@pytest.mark.parametrize("task", [gsme_q, gsm_q])
def test_tasks_run_the_fixture_with_source(tmp_path, task):
    [log] = inspect_eval(task(source=str(FILE)), model="infoseek/optimal",
                         log_dir=str(tmp_path), display="none")
    assert log.status == "success"
    assert [s.id for s in log.samples] == [f"questbench_gsm_q-row{n}" for n in range(1, 5)]
    assert log_metrics(log)["correct"] == 1.0
    rows = [sample_problem(s.metadata)["provenance"]["row"] for s in log.samples]
    assert rows == [1, 2, 3, 4]
    # the rounded released answer 3.33 is posed as the exact 10/3
    assert sample_problem(log.samples[2].metadata)["answer"] == "10/3"
    prose = "Each bag holds 6 apples and there are 4 bags. Some of the apples were eaten."
    shown = str(log.samples[1].input)
    # a GSM-Q row is told in its released prose by the word-problem task
    assert (prose in shown) is (task is gsm_q), shown


@pytest.mark.parametrize(("field", "change", "detail"), [
    ("Pred Values", lambda r: r.update({"Pred Values": r["Pred Values"].replace(
        "bags = 4\n", "")}), "gives no value to the leaf 'bags'"),
    ("GT Question", lambda r: r.update({"GT Question": "wagons"}),
     "'wagons' is not a quantity of this problem"),
    ("Possible Questions", lambda r: r.update({"Possible Questions": "bags or oranges"}),
     "expected a JSON list of quantity names"),
    ("Equations", lambda r: r.update(Equations=json.dumps(["total = per_bag * * bags"])),
     "does not parse"),
    ("Pred Values", lambda r: r.update({"Pred Values": r["Pred Values"].replace(
        "per_bag = 6", "per_bag = six")}), "expected a number"),
    ("Heldout Value", lambda r: r.update({"Heldout Value": "four"}), "expected a number"),
    ("Distractor Vars", lambda r: r.update({"Distractor Vars": "['pears']"}),
     "'pears' is not a quantity"),
])
def test_a_malformed_row_is_refused_naming_file_row_and_field(tmp_path, field, change,
                                                              detail):
    rows = _rows()
    change(rows[1])
    path = _write(tmp_path / "broken.csv", rows)
    assert_row_refused(path, f"broken.csv, row 2 (Question ID 17), field {field!r}: ", detail,
                       gsme_q)


def _checks(record) -> set[str]:
    return {d["check"] for d in verify(record)}


def test_verify_names_what_is_wrong(tmp_path):
    rows = _rows()[:2]
    wrong = [dict(rows[0]) for _ in range(4)]
    wrong[0]["GT Question"] = "oranges"  # a distractor settles nothing
    wrong[1]["Possible Questions"] = json.dumps(["oranges"])  # the GT is not offered
    wrong[2]["Full Answer"] = "20"
    wrong[3]["Rewritten Problem"] = wrong[3]["Rewritten Problem"].replace("eaten = 5",
                                                                          "eaten = 4")
    wrong.append(dict(rows[0], **{"Heldout Value": "5.0"}))
    wrong.append(dict(rows[0], **{"Pred Values": rows[0]["Pred Values"].replace(
        "left = 19", "left = 18")}))
    records = load_published(_write(tmp_path / "wrong.csv", [*wrong, rows[1]]))
    assert "heldout_not_sufficient" in _checks(records[0])
    assert _checks(records[1]) == {"gt_not_offered"}
    assert _checks(records[2]) == {"answer"}
    assert _checks(records[3]) == {"revealed_values"}
    assert _checks(records[4]) == {"heldout_value"}
    assert _checks(records[5]) == {"pred_values"}
    assert _checks(records[6]) == set()


def test_without_pred_values_the_csp_gives_the_values(tmp_path):
    rows = [{k: v for k, v in row.items() if k not in ("Pred Values", "Heldout Value")}
            for row in _rows()]
    records = load_published(_write(tmp_path / "csp.csv", rows))
    assert [r["hidden_world"] for r in records] == [
        r["hidden_world"] for r in load_published(str(FILE))]
    assert all(verify(r) == [] for r in records)
    rows[1]["CSP"] = rows[1]["CSP"].replace("bags = 4 [", "bags [")
    with pytest.raises(PublishedDataError, match=re.escape(
            "csp.csv, row 2 (Question ID 17), field 'CSP': gives no value to the leaf "
            "'bags'")):
        load_published(_write(tmp_path / "csp.csv", rows))
