"""The released MT-InfoSeek GeneReg layout (`infoseek.builders.genereg.released.source_format`):
loading against
a
rules folder, `infoseek verify` reporting exactly the planted disagreements, corrected
rows that re-verify clean, and `-T source= -T rules=` on the genereg tasks.

Fixtures (written by this project): three small networks of our own in
tests/support/fixtures/published/genereg_rules/ and
tests/support/fixtures/published/mt_infoseek_genereg.jsonl:
ten correct rows (ids ``fx-*``; var_names in another order than the rule files') and seven
rows with planted errors, named by what is wrong with them."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from inspect_ai import eval

from infoseek import cli
from infoseek.builders.published import PublishedDataError, load_published
from infoseek.builders.published.sources import source_records
from infoseek.builders.published.verify import CORRECTION_FIELD, verify_source
from infoseek.engines.bruteforce import referee_mss_family, referee_sufficient
from infoseek.inspect_tasks.genereg_mt import genereg_mt, genereg_mt_mss
from infoseek.inspect_tasks.task_parameters import TaskParameterError
from infoseek.records import check_record, engine_from_record
from infoseek.scorers.group_metric import log_metrics
from infoseek.scorers.seek import seek_values
from infoseek.stored_forms import sample_problem
from tests.support import FIXTURES
from tests.support.boolnet_referee import referee_for
from tests.support.common import assert_eval_success

FIXTURES = FIXTURES / "published"
RELEASED = FIXTURES / "mt_infoseek_genereg.jsonl"
RULES = FIXTURES / "genereg_rules"
FORMAT = "mt-infoseek-genereg"

PLANTED = {
    "wrong-k": {"k"},
    "wrong-mss": {"mss_family"},
    "branch-off-observed": {"branch_observed"},
    "mismatched-var-names": {"var_names"},
    "wrong-feasible-count": {"feasible_count"},
    "branches-same-outcome": {"branch_outcomes"},
    "wrong-marker-values": {"branch_value"},
}
CORRECT_ROWS = 10


@pytest.fixture(autouse=True)
def _cache(tmp_path_factory, monkeypatch):
    monkeypatch.setenv("INFOSEEK_CACHE_DIR", str(tmp_path_factory.getbasetemp() / "grr"))


def _outcomes(out: Path) -> dict[str, dict]:
    lines = (out / "disagreements.jsonl").read_text(encoding="utf-8").splitlines()
    return {o["id"]: o for o in map(json.loads, lines)}


def test_verify_reports_exactly_the_planted_disagreements(tmp_path):
    summary = verify_source(str(RELEASED), FORMAT, out_dir=tmp_path / "v", workers=1,
                            inputs={"rules": str(RULES)})
    assert (summary["agree"], summary["disagree"], summary["undecided"]) == (CORRECT_ROWS, 7, 0)
    outcomes = _outcomes(tmp_path / "v")
    assert {i: {d["check"] for d in o["disagreements"]} for i, o in outcomes.items()} == PLANTED
    reasons = {i: " ".join(d["reason"] for d in o["disagreements"]) for i, o in outcomes.items()}
    assert "k_min is 3, but the smallest sufficient set of askable genes has 2" in \
        reasons["wrong-k"]
    assert "{D} is not sufficient; missing {E}" in reasons["wrong-mss"]
    assert "has IPTG = 1 but the row observes IPTG = 0" in reasons["branch-off-observed"]
    assert "lacks GFP; names YFP, not in the rules" in reasons["mismatched-var-names"]
    assert "2 feasible outcome(s) released, the rules allow 3" in reasons["wrong-feasible-count"]
    assert "reach the same outcome" in reasons["branches-same-outcome"]
    assert "says the marker is 1, but its state reaches an attractor where it is 0" in \
        reasons["wrong-marker-values"]


def test_cli_verify_and_write_corrected_reverify_clean(tmp_path, capsys):
    corrected = tmp_path / "corrected.jsonl"
    assert cli.main(["verify", str(RELEASED), "--source-format", FORMAT, "--rules", str(RULES),
                     "--out", str(tmp_path / "v"), "--workers", "1", "--quiet",
                     "--write-corrected", str(corrected)]) == 0
    printed = capsys.readouterr().out.strip().splitlines()
    assert printed[-1] == f"agree={CORRECT_ROWS} disagree=7"
    assert any("left out 1 row(s) that cannot be read: mismatched-var-names" in line
               for line in printed)
    rows = [json.loads(line) for line in corrected.read_text(encoding="utf-8").splitlines()]
    released = {r["id"]: r for r in map(json.loads, RELEASED.read_text().splitlines())}
    assert [r["id"] for r in rows] == [i for i in released if i != "mismatched-var-names"]
    changed = {r["id"]: r[CORRECTION_FIELD]["changed"] for r in rows}
    assert changed["wrong-k"] == ["k_min"]
    assert changed["wrong-mss"] == ["minimal_sufficient_sets"]
    assert changed["wrong-feasible-count"] == ["feasible_target_values", "branches"]
    assert changed["branch-off-observed"] == ["feasible_target_values", "branches"]
    assert changed["wrong-marker-values"] == ["branches"]
    assert all(not changed[i] for i in released if i.startswith("fx-"))
    by_id = {r["id"]: r for r in rows}
    assert by_id["wrong-k"]["k_min"] == 2
    assert sorted(map(tuple, by_id["wrong-mss"]["minimal_sufficient_sets"])) == \
        [("A",), ("C",), ("E",), ("F",), ("SIGNAL",)]
    for row_id, row in by_id.items():  # the rest of the layout is untouched
        assert {k: v for k, v in row.items() if k not in (
            CORRECTION_FIELD, "k_min", "minimal_sufficient_sets", "feasible_target_values",
            "branches")} == {k: v for k, v in released[row_id].items() if k not in (
                "k_min", "minimal_sufficient_sets", "feasible_target_values", "branches")}
    assert cli.main(["verify", str(corrected), "--source-format", FORMAT, "--rules", str(RULES),
                     "--out", str(tmp_path / "v2"), "--workers", "1", "--quiet"]) == 0
    assert capsys.readouterr().out.strip().splitlines()[-1] == \
        f"agree={len(rows)} disagree=0"


def test_the_correct_rows_agree_with_the_plain_referee():
    """The fixture's correct rows are checked by the referee (no code shared with the
    engines), so the verifier is not only agreeing with itself."""
    records = [r for r in load_published(str(RELEASED), FORMAT, inputs={"rules": str(RULES)},
                                         skip_refused=True) if r["id"].startswith("fx-")]
    assert len(records) == CORRECT_ROWS
    for record in records:
        check_record(record)
        ref = referee_for(record)
        assert sorted(ref.target_values(), key=str) == sorted(record["target_values"], key=str)
        assert len(record["released"]["feasible_target_values"]) == len(record["target_values"])
        k, family = referee_mss_family(ref, record["queryable"], 4)
        assert k == record["released"]["k_min"] == record["k"], record["id"]
        assert family == sorted(tuple(sorted(s)) for s in
                                record["released"]["minimal_sufficient_sets"]), record["id"]
        assert all(referee_sufficient(ref, s) for s in record["mss_family"])
        assert engine_from_record(record).target_values() == ref.target_values()


def test_records_carry_recomputed_ground_truth_and_keep_the_released():
    records = {r["id"]: r for r in load_published(
        str(RELEASED), FORMAT, inputs={"rules": str(RULES)}, skip_refused=True)}
    assert "mismatched-var-names" not in records
    wrong = records["wrong-k"]
    assert wrong["k"] == 2 and wrong["released"]["k_min"] == 3
    assert wrong["engine"]["genes"] == ["LACI", "TETR", "GFP", "IPTG", "ATC"]
    assert wrong["released"]["var_names"] == ["ATC", "GFP", "IPTG", "LACI", "TETR"]
    assert records["wrong-mss"]["mss_family"][0] == ["A"]
    with pytest.raises(PublishedDataError, match="var_names.*lacks GFP"):
        load_published(str(RELEASED), FORMAT, inputs={"rules": str(RULES)})


def test_missing_or_misplaced_inputs_fail_fast(tmp_path, capsys):
    with pytest.raises(PublishedDataError, match="needs rules"):
        load_published(str(RELEASED), FORMAT)
    with pytest.raises(PublishedDataError, match="no such folder"):
        load_published(str(RELEASED), FORMAT, inputs={"rules": str(tmp_path / "none")})
    assert cli.main(["verify", str(RELEASED), "--out", str(tmp_path / "v"), "--quiet"]) == 2
    assert "needs rules (infoseek verify --rules DIR" in capsys.readouterr().err
    logic = FIXTURES / "logic_q_mt.csv"
    assert cli.main(["verify", str(logic), "--rules", str(RULES), "--quiet",
                     "--out", str(tmp_path / "v")]) == 2
    assert "takes no rules" in capsys.readouterr().err
    # --format is the option's older spelling, still accepted
    assert cli.main(["verify", str(logic), "--format", "mt-infoseek-logic", "--quiet",
                     "--out", str(tmp_path / "v"), "--write-corrected",
                     str(tmp_path / "c.jsonl")]) == 2
    err = capsys.readouterr().err.strip()
    assert err.count("\n") == 0 and "cannot write corrected rows" in err
    with pytest.raises(TaskParameterError, match="-T rules needs -T source"):
        genereg_mt(rules=str(RULES))
    with pytest.raises(PublishedDataError, match="needs rules"):
        source_records(str(RELEASED), domain="genereg", source_format=FORMAT)


def _run(task, tmp_path):
    [log] = eval(task, model="infoseek/optimal", log_dir=str(tmp_path), display="none")
    assert_eval_success(log)
    return log


def test_released_source_runs_genereg_mt_with_optimal(tmp_path):
    log = _run(genereg_mt(source=str(RELEASED), rules=str(RULES)), tmp_path)
    problems = {sample_problem(s.metadata)["id"] for s in log.samples}
    assert problems == set(json.loads(line)["id"] for line in RELEASED.read_text().splitlines()
                           ) - {"mismatched-var-names"}
    for sample in log.samples:
        values = seek_values(sample.scores)
        assert values["final_sufficiency"] == 1.0, sample.id
        assert values["accuracy"] == 1.0, sample.id
    metrics = log_metrics(log)
    assert {metrics[f"accuracy_k{k}"] for k in (1, 2, 3, 4)} == {1.0}
    log = _run(genereg_mt_mss(source=str(RELEASED), rules=str(RULES), k=[1, 2]), tmp_path)
    assert log_metrics(log)["exact_k1"] == log_metrics(log)["exact_k2"] == 1.0


def test_rows_that_cannot_be_read_are_reported_with_their_reason(tmp_path):
    first = json.loads(RELEASED.read_text().splitlines()[0])
    rows = [{**first, "id": "no-such-network", "model": "nowhere"},
            {**first, "id": "bad-observed", "observed": [["GFP", 2]]},
            {**first, "id": "state-too-large", "branches": [{"y": 0, "state": 1 << 5}]},
            first]
    path = tmp_path / "rows.jsonl"
    path.write_text("".join(json.dumps(r) + "\n" for r in rows), encoding="utf-8")
    summary = verify_source(str(path), FORMAT, out_dir=tmp_path / "v", workers=1,
                            inputs={"rules": str(RULES)})
    assert (summary["agree"], summary["disagree"]) == (1, 3)
    outcomes = _outcomes(tmp_path / "v")
    checks = {i: [d["check"] for d in o["disagreements"]] for i, o in outcomes.items()}
    assert checks == {"no-such-network": ["model"], "bad-observed": ["malformed_row"],
                      "state-too-large": ["malformed_row"]}
    assert "no rule file nowhere.txt" in outcomes["no-such-network"]["disagreements"][0][
        "reason"]
    assert "GFP has value 2; expected 0 or 1" in outcomes["bad-observed"]["disagreements"][0][
        "reason"]


def test_a_released_mss_naming_an_observed_gene_is_refuted(tmp_path):
    row = next(json.loads(line) for line in RELEASED.read_text().splitlines()
               if json.loads(line)["id"] == "fx-08")  # observes ATC = 0 and TETR = 1
    path = tmp_path / "rows.jsonl"
    path.write_text(json.dumps({**row, "minimal_sufficient_sets": [["TETR"]]}) + "\n",
                    encoding="utf-8")
    verify_source(str(path), FORMAT, out_dir=tmp_path / "v", workers=1,
                  inputs={"rules": str(RULES)})
    [outcome] = _outcomes(tmp_path / "v").values()
    [found] = outcome["disagreements"]
    assert found["check"] == "mss_family" and found["computed"] == [["IPTG"]]
    assert "{TETR} names genes that are not askable (TETR); missing {IPTG}" in found["reason"]


def test_a_released_jsonl_source_is_told_from_our_records():
    """Without source_format, a .jsonl of released rows is read as released (and so asks
    for its rules), not as our records."""
    with pytest.raises(PublishedDataError, match="needs rules"):
        source_records(str(RELEASED), domain="genereg")
    records = source_records(str(RELEASED), domain="genereg", inputs={"rules": str(RULES)},
                             ks=[2])
    assert {r["k"] for r in records} == {2}
    assert "wrong-k" in {r["id"] for r in records}  # released k_min 3, recomputed 2
