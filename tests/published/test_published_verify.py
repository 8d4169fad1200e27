"""`infoseek verify` over released-format files, and the tasks reading them with
`-T source=` (fixtures written by this project: tests/support/fixtures/published/)."""

from __future__ import annotations

import csv
import json
import re
from pathlib import Path

import pytest
from inspect_ai import eval as inspect_eval

from infoseek.builders.published import load_published
from infoseek.builders.published.verify import verify_source
from infoseek.cli import main
from infoseek.inspect_tasks.gsme_mt_ext import gsme_mt_ext
from infoseek.inspect_tasks.logic_k_prediction import logic_k_prediction
from infoseek.inspect_tasks.logic_mt import logic_mt
from infoseek.scorers.group_metric import log_metrics
from infoseek.stored_forms import problem_from_store, sample_problem
from tests.support import FIXTURES

FIXTURES = FIXTURES / "published"
FILES = {
    "mt-infoseek-logic": FIXTURES / "logic_q_mt.csv",
    "questbench-logic": FIXTURES / "questbench_logic_q.csv",
    "mt-infoseek-gsme": FIXTURES / "gsme_q_mt.csv",
    "mt-infoseek-gsme-ext": FIXTURES / "gsme_q_mt_ext.csv",
}
LAST_LINE = re.compile(r"^agree=(\d+) disagree=(\d+)$")


def run_cli(capsys, *args: str) -> tuple[int, str, str]:
    code = main(["verify", *args, "--quiet"])
    captured = capsys.readouterr()
    return code, captured.out, captured.err


@pytest.mark.parametrize("fmt", sorted(FILES))
def test_verify_every_format_reports_the_seeded_disagreements(tmp_path, capsys, fmt) -> None:
    out = tmp_path / "out"
    code, stdout, stderr = run_cli(capsys, str(FILES[fmt]), "--source-format", fmt,
                                   "--out", str(out))
    assert code == 0, stderr
    match = LAST_LINE.match(stdout.strip().splitlines()[-1])
    assert match, stdout
    agree, disagree = int(match[1]), int(match[2])
    rows = len(load_published(str(FILES[fmt]), fmt))
    assert agree + disagree == rows and agree >= 2
    assert disagree >= 1  # every fixture seeds at least one wrong ground truth
    summary = json.loads((out / "summary.json").read_text())
    assert (summary["agree"], summary["disagree"], summary["rows"]) == (agree, disagree, rows)
    lines = [json.loads(line) for line in (out / "disagreements.jsonl").read_text().splitlines()]
    assert len(lines) == disagree
    for line in lines:
        assert line["status"] == "disagree" and line["disagreements"]
        assert all(d["check"] and d["reason"] for d in line["disagreements"])
    assert sum(summary["rows_by_check"].values()) >= disagree


def test_detected_format_matches_the_explicit_one(tmp_path, capsys) -> None:
    for fmt, path in FILES.items():
        code, stdout, _ = run_cli(capsys, str(path), "--out", str(tmp_path / fmt))
        assert code == 0 and f"({fmt})" in stdout


def test_verify_is_deterministic_across_runs_and_workers(tmp_path) -> None:
    path = str(FILES["mt-infoseek-logic"])
    verify_source(path, out_dir=tmp_path / "a", workers=1)
    verify_source(path, out_dir=tmp_path / "b", workers=2)
    for name in ("summary.json", "disagreements.jsonl"):
        assert (tmp_path / "a" / name).read_bytes() == (tmp_path / "b" / name).read_bytes()


def copy_with_broken_cell(source: Path, target: Path, row: int, field: str, value: str) -> None:
    with open(source, newline="", encoding="utf-8") as fh:
        rows = list(csv.DictReader(fh))
    rows[row - 1][field] = value
    with open(target, "w", newline="", encoding="utf-8") as fh:
        writer = csv.DictWriter(fh, fieldnames=list(rows[0]))
        writer.writeheader()
        writer.writerows(rows)


def test_a_malformed_row_is_reported_or_stops_with_strict(tmp_path, capsys) -> None:
    broken = tmp_path / "broken.csv"
    copy_with_broken_cell(FILES["mt-infoseek-logic"], broken, 2, "rules", "[['a', 'maybe b']")
    code, stdout, _ = run_cli(capsys, str(broken), "--out", str(tmp_path / "o"))
    assert code == 0
    first = json.loads((tmp_path / "o" / "disagreements.jsonl").read_text().splitlines()[0])
    assert first["row"] == 2 and first["disagreements"][0]["check"] == "malformed_row"
    assert "broken.csv, row 2" in first["disagreements"][0]["reason"]
    assert "field 'rules'" in first["disagreements"][0]["reason"]
    code, stdout, stderr = run_cli(capsys, str(broken), "--strict", "--out", str(tmp_path / "s"))
    assert code == 2 and "Traceback" not in stderr
    assert stderr.startswith("infoseek verify: broken.csv, row 2") and "'rules'" in stderr


def test_unreadable_files_exit_2_with_a_message(tmp_path, capsys) -> None:
    code, _, stderr = run_cli(capsys, str(tmp_path / "absent.csv"))
    assert code == 2 and "not found" in stderr and "Traceback" not in stderr
    other = tmp_path / "other.csv"
    other.write_text("question,answer\nq,1\n")
    code, _, stderr = run_cli(capsys, str(other))
    assert code == 2 and "match no source format" in stderr
    code, _, stderr = run_cli(capsys, str(other), "--source-format", "questbench-logic")
    assert code == 2 and "missing column" in stderr


def test_limit_verifies_the_first_rows(tmp_path, capsys) -> None:
    code, stdout, _ = run_cli(capsys, str(FILES["questbench-logic"]), "--limit", "2",
                              "--out", str(tmp_path / "o"))
    assert code == 0 and json.loads((tmp_path / "o" / "summary.json").read_text())["rows"] == 2


def _metric(log, name: str) -> float:
    return log_metrics(log)[name]


def test_logic_mt_on_released_format_with_the_optimal_model(tmp_path) -> None:
    # rows 1-6 are correct; rows 7-8 carry seeded defects (a wrong canonical MSS makes the
    # released forbid-alternatives setting withhold every sufficient set)
    records = load_published(str(FILES["mt-infoseek-logic"]), limit=6)
    logs = inspect_eval(logic_mt(source=str(FILES["mt-infoseek-logic"]), limit=6),
                        model="infoseek/optimal", log_dir=str(tmp_path), display="none")
    log = logs[0]
    assert log.status == "success"
    assert len(log.samples) == sum(len(r["target_values"]) for r in records)
    assert _metric(log, "final_sufficiency") == 1.0
    released = {r["provenance"]["released_id"] for r in records}
    assert {s.id.rsplit("-", 1)[0] for s in log.samples} == released


def test_task_limit_and_source_format(tmp_path) -> None:
    task = logic_mt(source=str(FILES["questbench-logic"]), limit=2)
    assert len({sample_problem(s.metadata)["id"] for s in task.dataset}) == 2
    assert all(s.metadata["k"] == 1 for s in task.dataset)
    task = logic_k_prediction(source=str(FILES["mt-infoseek-logic"]),
                              source_format="mt-infoseek-logic", k=[2])
    assert task.dataset and all(s.metadata["k"] == 2 for s in task.dataset)
    with pytest.raises(ValueError, match="source_format must be one of"):
        logic_mt(source=str(FILES["mt-infoseek-logic"]), source_format="mt-infoseek-gsme")
    with pytest.raises(ValueError, match="pass it as source_format="):
        logic_mt(source=str(FILES["mt-infoseek-logic"]), format="mt-infoseek-logic")


def test_gsme_ext_on_released_format_with_the_optimal_model(tmp_path) -> None:
    logs = inspect_eval(gsme_mt_ext(source=str(FILES["mt-infoseek-gsme-ext"]), limit=4),
                        model="infoseek/optimal", log_dir=str(tmp_path), display="none")
    log = logs[0]
    assert log.status == "success" and len(log.samples) == 4
    assert _metric(log, "final_sufficiency") == 1.0
    for sample in log.samples:
        # the released values (every quantity's, the answer) never reach the store
        stored = problem_from_store(sample.store["infoseek:problem"])
        assert "released" in sample_problem(sample.metadata)
        assert "released_text" in sample_problem(sample.metadata)
        assert not {"released", "released_text", "answer", "hidden_world"} & set(stored)


def test_a_math_row_whose_answer_contradicts_its_values_is_left_out(caplog) -> None:
    from infoseek.inspect_tasks.gsme_mt import gsme_mt

    path = str(FILES["mt-infoseek-gsme"])
    records = load_published(path)
    with caplog.at_level("WARNING"):
        task = gsme_mt(source=path)
    kept = {sample_problem(s.metadata)["id"] for s in task.dataset}
    left_out = [r["id"] for r in records if r["id"] not in kept]
    assert len(left_out) == 1 and len(kept) == len(records) - 1
    assert left_out[0] in caplog.text and "released answer differs" in caplog.text


def test_inspect_eval_shows_a_malformed_source_as_a_message_without_traceback(tmp_path):
    """Through the `inspect eval` command line: the file/row/field message alone."""
    import subprocess
    import sys

    broken = tmp_path / "broken.csv"
    copy_with_broken_cell(FILES["mt-infoseek-logic"], broken, 3, "rules", "[['a', 'maybe b']]")
    root = Path(__file__).resolve().parents[2]
    result = subprocess.run(
        [sys.executable, "-m", "inspect_ai", "eval", "inspect_tasks/logic_mt.py",
         "-T", f"source={broken}", "--model", "infoseek/optimal",
         "--log-dir", str(tmp_path / "logs")],
        cwd=root, capture_output=True, text=True, timeout=300)
    output = " ".join((result.stdout + result.stderr).split())
    assert "broken.csv, row 3 (sample_id 1003), field 'rules'" in output, output[-2000:]
    assert "Traceback" not in output


def test_direct_callers_still_catch_a_value_error() -> None:
    with pytest.raises(ValueError, match="not found"):
        logic_mt(source="no/such/file.csv")


def test_a_loader_failure_is_undecided_and_the_run_goes_on(tmp_path, monkeypatch) -> None:
    import infoseek.builders.logic.released.source_format as logic

    original = logic.mt_record_from_row

    def flaky(row, ref):
        if ref.row == 2:
            raise RuntimeError("boom")
        return original(row, ref)

    fmt = logic.MT_INFOSEEK_LOGIC
    monkeypatch.setattr(logic, "MT_INFOSEEK_LOGIC",
                        type(fmt)(**{**fmt.__dict__, "record_from_row": flaky}))
    summary = verify_source(str(FILES["mt-infoseek-logic"]), out_dir=tmp_path, workers=1)
    assert summary["undecided"] == 1 and summary["agree"] + summary["disagree"] == 7
    line = json.loads((tmp_path / "disagreements.jsonl").read_text().splitlines()[0])
    assert line["row"] == 2 and line["status"] == "undecided"
    assert "RuntimeError: boom" in line["disagreements"][0]["reason"]
