"""The report compares like with like (issue 31, item 4): a row is one model, one setting
and one dataset (split, source file and its hash, every bound model role, all in the
label); blank cells say why; no ``-0.000`` and no axis scaled to float noise; reference
rows say what the reference knows; a published number sits beside a run only when the
run is on the data it was measured on, and is shown apart as "different data" otherwise.

Small real logs of the reference models (`inspect_ai.eval`), one module-scoped report.
"""

from __future__ import annotations

import hashlib
import math
import shutil
from pathlib import Path

import matplotlib.pyplot as plt
import pandas as pd
import pytest
from inspect_ai import eval as inspect_eval
from inspect_ai.log import read_eval_log
from inspect_ai.model import get_model

from infoseek.builders.datasets import domain_records
from infoseek.contract import TASK_SOURCE
from infoseek.inspect_tasks.clinguide_mt import clinguide_mt
from infoseek.inspect_tasks.gsme_mt_ext import gsme_mt_ext
from infoseek.inspect_tasks.incomplete_questions import incomplete_questions
from infoseek.inspect_tasks.logic_k_prediction import logic_k_prediction
from infoseek.inspect_tasks.logic_mt import logic_mt
from infoseek.inspect_tasks.report import build_report, figures
from infoseek.inspect_tasks.report.published import (
    PublishedDataError,
    _check,
    published,
    same_data,
)
from infoseek.inspect_tasks.report.tables import (
    display_frame,
    format_cell,
    format_plain,
    mean_stderr,
)
from infoseek.inspect_tasks.twenty_questions import twenty_questions
from infoseek.jsonl import dumps_record
from tests.support import FIXTURES
from tests.support.common import text_output

OPTIMAL, RANDOM = "infoseek/optimal", "infoseek/random"
RELEASED_LOGIC = FIXTURES / "published" / "logic_q_mt.csv"
"""A file the project wrote in MT-InfoSeek's released Logic-Q-MT layout."""


def _records_file(path: Path, per_k: int) -> Path:
    records = domain_records("logic-mt", ks=[1], per_k=per_k, seed=3)
    path.write_text("".join(dumps_record(r) + "\n" for r in records), encoding="utf-8")
    return path


@pytest.fixture(scope="module")
def logs(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    folder = tmp_path_factory.mktemp("like-with-like")
    data = folder / "data"
    data.mkdir()
    one = _records_file(data / "one.jsonl", per_k=1)
    two = _records_file(data / "two.jsonl", per_k=2)
    released = shutil.copy(RELEASED_LOGIC, data / "logic_q_mt.csv")
    runs = folder / "runs"
    tasks = {
        "built": logic_mt(k=1, per_k=1),
        "one": logic_mt(k=1, source=str(one)),
        "two": logic_mt(k=1, source=str(two)),
        "released": logic_mt(k=[1], source=str(released)),
        "default": gsme_mt_ext(k=1, per_k=1),
        "hard": gsme_mt_ext(k=5, per_k=1, split="hard"),
        "clinguide": clinguide_mt(k=[1, 2], per_k=2, distractors=0),
        "full": incomplete_questions(variant="full", count=2),
        "questionable": incomplete_questions(variant="questionable", count=2),
    }
    paths: dict[str, Path] = {}
    for name, task in tasks.items():
        models = [OPTIMAL, RANDOM] if name == "clinguide" else [OPTIMAL]
        for log in inspect_eval(task, model=models, log_dir=str(runs), display="none"):
            assert log.status == "success", (name, log.error)
            paths[f"{name}@{log.eval.model}"] = Path(log.location)
    [log] = inspect_eval(clinguide_mt(k=[1, 2], per_k=2, distractors=0), model=OPTIMAL,
                         model_roles={"matcher": "mockllm/model"}, log_dir=str(runs),
                         display="none")
    assert log.status == "success"
    paths["matcher@infoseek/optimal"] = Path(log.location)
    [log] = inspect_eval(twenty_questions(pool="common"), model=RANDOM, limit=2,
                         log_dir=str(runs), display="none")
    assert log.status == "success"
    paths["twenty@infoseek/random"] = Path(log.location)
    invalid = get_model("mockllm/model",
                        custom_outputs=[text_output("I cannot tell.")] * 4)
    [log] = inspect_eval(logic_k_prediction(k=1, per_k=2), model=invalid,
                         log_dir=str(folder / "invalid"), display="none")
    assert log.status == "success"
    paths["invalid"] = Path(log.location)
    paths["runs"], paths["one"], paths["two"] = runs, one, two
    return paths


@pytest.fixture(scope="module")
def report(logs: dict[str, Path], tmp_path_factory: pytest.TempPathFactory):
    return build_report([logs["runs"]], tmp_path_factory.mktemp("report"), bundle=False)


def table(report, name: str) -> pd.DataFrame:
    return pd.read_csv(report.out / "tables" / f"{name}.csv", keep_default_na=False,
                       na_values=[""])


def runs_of(frame: pd.DataFrame) -> pd.DataFrame:
    return frame[frame["kind"] == "run"]


# ------------------------------------------------------------------ one dataset a row


def test_the_task_records_its_source_file_and_hash(logs) -> None:
    for name in ("one", "two"):
        log = read_eval_log(str(logs[f"{name}@{OPTIMAL}"]), header_only=True)
        recorded = log.eval.metadata[TASK_SOURCE]
        assert recorded["file"] == f"{name}.jsonl"
        assert recorded["sha256"] == hashlib.sha256(logs[name].read_bytes()).hexdigest()
        assert recorded["sha256_of"] == "file" and recorded["format"] == "records"
    released = read_eval_log(str(logs[f"released@{OPTIMAL}"]), header_only=True)
    assert released.eval.metadata[TASK_SOURCE]["format"] == "mt-infoseek-logic"
    built = read_eval_log(str(logs[f"built@{OPTIMAL}"]), header_only=True)
    assert TASK_SOURCE not in (built.eval.metadata or {})


def test_runs_on_different_files_and_the_built_split_are_separate_rows(report, logs) -> None:
    frame = runs_of(table(report, "logic_mt.headline"))
    assert len(frame) == 4  # one model, one setting, four datasets
    labels = list(frame["label"])
    assert len(set(labels)) == 4
    for name in ("one", "two"):
        digest = hashlib.sha256(logs[name].read_bytes()).hexdigest()[:12]
        row = frame[frame["label"].str.contains(f"source={name}.jsonl#{digest}",
                                                regex=False)]
        assert len(row) == 1
        assert row.iloc[0]["data"] == f"file {name}.jsonl#{digest}"
        log = read_eval_log(str(logs[f"{name}@{OPTIMAL}"]))
        assert row.iloc[0]["samples"] == len(log.samples)
    built = frame[~frame["label"].str.contains("source=")]
    assert len(built) == 1 and built.iloc[0]["data"].startswith("built logic-mt@")
    released = frame[frame["label"].str.contains("source=logic_q_mt.csv#")].iloc[0]
    assert released["data"].endswith("(mt-infoseek-logic)")


def test_the_split_is_in_the_key_and_the_label(report) -> None:
    frame = runs_of(table(report, "gsme_mt_ext.headline"))
    assert sorted(frame["split"]) == ["default", "hard"]
    hard = frame[frame["split"] == "hard"].iloc[0]
    assert "split=hard" in hard["label"] and "hard" in hard["data"]
    default = frame[frame["split"] == "default"].iloc[0]
    assert "split=default" in default["label"]
    # each row holds only its own split's k
    assert hard["final_sufficiency_k5_n"] > 0 and hard["final_sufficiency_k1_n"] == 0
    assert default["final_sufficiency_k1_n"] > 0 and default["final_sufficiency_k5_n"] == 0


def test_a_bound_role_and_the_rule_are_separate_rows(report) -> None:
    frame = runs_of(table(report, "clinguide_mt.headline"))
    optimal = frame[frame["model"] == OPTIMAL]
    assert len(optimal) == 2
    assert sorted(optimal["roles"]) == ["matcher=mockllm/model", "matcher=rule"]
    assert all(r in label for r, label in zip(optimal["roles"], optimal["label"]))
    random = frame[frame["model"] == RANDOM].iloc[0]
    assert random["roles"] == "matcher=rule" and "matcher=rule" in random["label"]


# ------------------------------------------------------------------ what a reference knows


def test_reference_rows_say_what_the_reference_knows(report) -> None:
    frame = runs_of(table(report, "clinguide_mt.headline"))
    random = frame[frame["model"] == RANDOM].iloc[0]
    assert "distractors=0 every askable variable is in the MSS" in random["note"]
    optimal = frame[(frame["model"] == OPTIMAL) & (frame["roles"] == "matcher=rule")].iloc[0]
    # the note's claim, measured: random is as sufficient and accurate as optimal here
    for metric in ("final_sufficiency", "accuracy"):
        assert random[metric] == optimal[metric] == 1.0
    assert "never the hidden value" in optimal["note"]
    twenty = runs_of(table(report, "twenty_questions.headline")).iloc[0]
    assert "guesses only among the candidates the exact attribute table leaves open" \
        in twenty["note"]
    page = (report.out / "index.html").read_text(encoding="utf-8")
    assert "every askable variable is in the MSS" in page


# ------------------------------------------------------------------ blank cells say why


def test_a_blank_cell_says_why(report) -> None:
    frame = table(report, "incomplete_questions.accuracy")
    shown = display_frame(frame)
    full = (frame["variant"] == "full").to_numpy()
    for column in ("condition_acquired_variantfull", "judge_invalid_variantfull"):
        assert runs_of(frame)[f"{column}_n"].eq(0).all()
        # the full run has samples without a rating; the other run has no full sample
        assert shown[column][full].str.startswith(
            "n/a (the full variant has nothing missing").all()
        assert (shown[column][~full] == "n/a (no variant=full samples)").all()
    assert (shown["accuracy_variantquestionable"][full]
            == "n/a (no variant=questionable samples)").all()
    # no metric cell of any table is empty, and a published row names every setting
    for path in (report.out / "tables").glob("*.csv"):
        frame = pd.read_csv(path, keep_default_na=False, na_values=[""])
        if "kind" not in frame:
            continue
        shown = display_frame(frame)
        for column in shown.columns:
            if f"{column}_n" in frame.columns:
                assert shown[column].astype(bool).all(), (path.name, column)
        published_rows = frame["kind"] != "run"
        for column in ("oracle", "pool", "split"):
            if column in frame:
                assert frame.loc[published_rows, column].notna().all(), (path.name, column)


def test_a_published_cell_without_a_number_says_not_published() -> None:
    frame = pd.DataFrame({"label": ["x (published)"], "kind": ["published"],
                          "accuracy_k1": [math.nan], "accuracy_k1_stderr": [math.nan],
                          "accuracy_k1_n": [math.nan]})
    assert list(display_frame(frame)["accuracy_k1"]) == ["not published"]


def test_no_minus_zero_from_float_noise() -> None:
    assert format_cell(-1.3e-17, 2.0e-18, 4) == "0.000 ± 0.000 (4)"
    assert format_cell(-0.0004, 0.0, 2) == "0.000 ± 0.000 (2)"
    assert format_plain(-2e-17) == "0.000"
    assert format_cell(-0.25) == "-0.250"
    mean, stderr, n = mean_stderr([1e-17, -3e-17, 0.0])
    assert (mean, stderr, n) == (0.0, 0.0, 3) and math.copysign(1, mean) == 1


def test_axes_do_not_scale_to_float_noise(tmp_path: Path, monkeypatch) -> None:
    kept = {}
    monkeypatch.setattr(figures, "_save", lambda fig, path: kept.setdefault("fig", fig)
                        and path)
    table = pd.DataFrame({"label": ["m"] * 3, "kind": ["run"] * 3, "turn": [1, 2, 3],
                          "entropy": [3e-17, -2e-17, 1e-17], "neig": [0.5, 0.4, 0.3],
                          "pass_mass": [0.1, 0.1, 0.1]})
    figures.entropy_by_turn_figure(table, tmp_path / "x.png", "noise")
    low, high = kept["fig"].axes[0].get_ylim()
    assert high - low >= 0.5
    plt.close(kept["fig"])


# ------------------------------------------------------------------ figures


def test_eight_k_panels_wrap_into_lines_of_four(tmp_path: Path, monkeypatch) -> None:
    kept = {}
    monkeypatch.setattr(figures, "_save", lambda fig, path: kept.setdefault("fig", fig)
                        and path)
    samples = pd.DataFrame({"log_id": ["L1"] * 8, "metadata_k": list(range(1, 9)),
                            "error": [""] * 8, "turn_count": [3] * 8,
                            "score.sufficiency.turn_to_sufficiency": [2.0] * 8})
    rows = pd.DataFrame({"log_id": ["L1"], "row": ["m"]})
    figures.sufficiency_by_turn_figure(samples, rows, tmp_path / "s.png", "t")
    fig = kept["fig"]
    shown = [a for a in fig.axes if a.get_visible()]
    assert len(shown) == 8
    assert len({round(a.get_position().y0, 3) for a in shown}) == 2
    assert len({round(a.get_position().x0, 3) for a in shown}) == 4
    assert fig.get_size_inches()[0] <= 4 * 3.6 + 1e-9
    plt.close(fig)


def test_an_all_invalid_run_shows_invalid_bars(logs, tmp_path: Path, monkeypatch) -> None:
    bars: dict[str, list[float]] = {}
    original = figures._save

    def keep(fig, path):
        if Path(path).name.endswith(".k_prediction.png"):
            bars.update({a.get_title(): [p.get_height() for p in a.patches
                                         if p.get_visible()]
                         for a in fig.axes if a.get_visible()})
        return original(fig, path)

    monkeypatch.setattr(figures, "_save", keep)
    built = build_report([logs["invalid"]], tmp_path / "r", bundle=False)
    headline = table(built, "logic_k_prediction.k_prediction")
    assert headline.iloc[0]["invalid_k1"] == 1.0
    assert bars["invalid rate"] == [1.0]
    assert bars["under-prediction rate"] == [0.0] and bars["over-prediction rate"] == [0.0]
    names = {Path(p).name for s in built.sections for _t, p in s.figures}
    assert "logic_k_prediction.k_prediction.png" in names


# ------------------------------------------------------------------ published rows


def test_published_rows_sit_beside_a_run_on_the_same_data_only(report) -> None:
    frame = table(report, "logic_mt.headline")
    beside = frame[frame["kind"] == "published"]
    series = next(s for s in published()["series"] if s["task"] == "logic_mt"
                  and s["table"] == "Table 14" and s["metric"] == "final_sufficiency")
    assert set(beside["data"]) == {series["data"]["name"]}
    gpt5 = beside[beside["model"] == "GPT-5 (published)"].iloc[0]
    assert gpt5["final_sufficiency_k1"] == series["values"]["GPT-5"]["1"]
    # ClinGuide's curated trees were never released: its numbers are always apart
    assert not (table(report, "clinguide_mt.headline")["kind"] == "published").any()
    apart = table(report, "clinguide_mt.headline.different_data")
    assert set(apart["kind"]) == {"different data"}
    assert apart["model"].str.endswith("(published, different data)").all()
    # gsme_mt_ext runs are on built splits: Table 16 is apart too
    assert not (table(report, "gsme_mt_ext.headline")["kind"] == "published").any()
    assert (report.out / "tables" / "gsme_mt_ext.headline.different_data.csv").is_file()


def test_every_series_names_its_data_and_the_file_is_checked() -> None:
    data = published()
    assert all(s["data"]["name"] for s in data["series"])
    assert all(b["data"]["name"] for b in data["order_strata"])
    broken = {**data, "series": [{k: v for k, v in data["series"][0].items() if k != "data"}]}
    with pytest.raises(PublishedDataError, match="'data' must name the data"):
        _check(broken)
    bad = {**data["series"][0], "data": {"name": "x", "same_as": [{"colour": "red"}]}}
    with pytest.raises(PublishedDataError, match="colour"):
        _check({**data, "series": [bad]})


def test_same_data_matching() -> None:
    twenty = next(s for s in published()["series"] if s["task"] == "twenty_questions")
    assert same_data(twenty["data"], {"pool": "paper_common", "max_turns": "20"})
    assert not same_data(twenty["data"], {"pool": "common", "max_turns": "20"})
    # the paper's pool with targets of one's own is not the paper's data
    assert not same_data(twenty["data"], {"pool": "paper_common", "max_turns": "20",
                                          "data.source": "mine.txt#unhashed"})
    assert set(next(iter(twenty["values"].values()))) <= {"paper_common", "paper_thing"}
    planning = next(s for s in published()["series"] if s["task"] == "planning_q")
    assert same_data(planning["data"], {"data.builder": "planning-q@2.0.0",
                                        "ties": "first_plan"})
    assert not same_data(planning["data"], {"data.builder": "planning-q@2.0.0",
                                            "ties": "plan_set"})
    # a source file is never the built split, whatever its builder
    assert not same_data(planning["data"], {"data.builder": "planning-q@2.0.0",
                                            "ties": "first_plan",
                                            "data.source": "mine.jsonl#abc"})
    logic = next(s for s in published()["series"] if s["task"] == "logic_mt")
    assert same_data(logic["data"], {"data.format": "mt-infoseek-logic"})
    assert not same_data(logic["data"], {"data.builder": "logic-mt@1.1.0"})


def test_filtered_accuracy_pairs_runs_on_the_same_data_only() -> None:
    """A well-specified run on another file never filters a question-selection run."""
    from infoseek.inspect_tasks.report.extra_tables import filtered_table

    def frame(log_id: str, correct: list[float]) -> pd.DataFrame:
        return pd.DataFrame({"log_id": log_id, "model": "m", "error": "",
                             "metadata_problem_id": ["p1", "p2"],
                             "metadata_variant": "underspecified",
                             "score.single_turn_scorer.correct": correct})

    question = frame("L1", [1.0, 0.0])
    rows = pd.DataFrame({"log_id": ["L1"], "row": ["m"], "model": ["m"]})
    same, other = frame("L2", [1.0, 0.0]), frame("L3", [1.0, 1.0])
    solving = [("x_well_specified", pd.concat([same, other], ignore_index=True))]
    data_of = {"L1": "file a.jsonl#1", "L2": "file a.jsonl#1", "L3": "file b.jsonl#2"}
    line = filtered_table(question, rows, solving, data_of).iloc[0]
    # only L2 filters: p2 was not solved there, so strict keeps p1 alone
    assert line["strict_kept"] == 1 and line["strict_accuracy"] == 1.0
    assert line["lenient_kept"] == 1  # L3 solved p2; it must not count
    pooled = filtered_table(question, rows, solving).iloc[0]  # no data known: both
    assert pooled["lenient_kept"] == 2
