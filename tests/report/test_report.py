"""`infoseek report`: tables, figures, the HTML page (in a real browser), the published
numbers, errored samples and logs that are not infoseek logs.

One module-scoped set of tiny logs of both reference models on logic_mt, gsme_mt_ext,
genereg_mt, clinguide_mt, the problem-level tasks and the single-turn family, plus an
errored copy, a log of a foreign task and a file that is no log. The table numbers are
recomputed here from the logs themselves (`read_eval_log`, sample by sample, not through
the report's reading) and compared with the CSVs and with Inspect's own metrics.
"""

from __future__ import annotations

import math
import os
import re
import statistics
from pathlib import Path

import pandas as pd
import pytest
from inspect_ai import Task
from inspect_ai import eval as inspect_eval
from inspect_ai.dataset import Sample
from inspect_ai.log import EvalError, read_eval_log, write_eval_log
from inspect_ai.model import get_model
from inspect_ai.scorer import match

from infoseek.cli import main
from infoseek.inspect_tasks._registry import PACKAGED_TASKS
from infoseek.inspect_tasks.report import build_report, register_task_report
from infoseek.inspect_tasks.report.declarations import (
    SEEK_REPORT,
    report_for,
    unregister_task_report,
)
from infoseek.inspect_tasks.report.published import PublishedDataError, _check, published
from infoseek.inspect_tasks.report.tables import MIN_STRATUM, display_frame
from infoseek.stored_forms import turns_from_store
from tests.report.test_derived_lists import EXPECTED_REPORTS
from tests.support.browser import find_chromium, load_page
from tests.support.common import text_output

TASKS = {
    "logic_mt": {"k": [1, 2], "per_k": 2},
    "gsme_mt_ext": {"k": [1, 2], "per_k": 1},
    "genereg_mt": {"k": [1], "per_k": 1},
    "clinguide_mt": {"k": [1, 2], "per_k": 2},
    "logic_k_prediction": {"k": [1, 2], "per_k": 2},
    "logic_mss": {"k": [1, 2], "per_k": 2},
    "logic_q": {"per_k": 3},
    "logic_q_well_specified": {"per_k": 3},
    "logic_q_detection": {"per_k": 3},
}
MODELS = ("infoseek/optimal", "infoseek/random")


@pytest.fixture(scope="module")
def logs(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    """Paths by name: '<task>@<model>' for every run, plus 'errored', 'foreign' and
    'garbage'."""
    folder = tmp_path_factory.mktemp("report-logs")
    runs = folder / "runs"
    results = inspect_eval([PACKAGED_TASKS[name](**args) for name, args in TASKS.items()],
                           model=list(MODELS), log_dir=str(runs), display="none")
    assert [log.status for log in results] == ["success"] * len(results)
    paths = {f"{log.eval.task.split('/')[-1]}@{log.eval.model}": Path(log.location)
             for log in results}
    assert len(paths) == len(TASKS) * len(MODELS)
    # an errored copy of the random model's logic_mt log: its first sample errored
    broken = read_eval_log(str(paths["logic_mt@infoseek/random"]))
    first = broken.samples[0]
    first.error = EvalError(message="RuntimeError: model crashed", traceback="",
                            traceback_ansi="")
    first.scores = None
    paths["errored"] = folder / "extra" / "errored.eval"
    paths["errored"].parent.mkdir()
    write_eval_log(broken, str(paths["errored"]))
    foreign = Task(dataset=[Sample(input="Say hi", target="hi")], scorer=match(),
                   name="say_hi")
    model = get_model("mockllm/model", custom_outputs=[text_output("hi")])
    [log] = inspect_eval(foreign, model=model, log_dir=str(folder / "foreign"),
                         display="none")
    paths["foreign"] = Path(log.location)
    paths["garbage"] = folder / "extra" / "notes.json"
    paths["garbage"].write_text('{"hello": "this is not a log"}\n', encoding="utf-8")
    paths["runs"] = runs
    return paths


@pytest.fixture(scope="module")
def report(logs: dict[str, Path], tmp_path_factory: pytest.TempPathFactory):
    out = tmp_path_factory.mktemp("report")
    return build_report([logs["runs"], logs["foreign"], logs["garbage"]], out, bundle=False)


def table(report, name: str) -> pd.DataFrame:
    return pd.read_csv(report.out / "tables" / f"{name}.csv", keep_default_na=False,
                       na_values=[""])


# ------------------------------------------------------------------ what is written


def test_every_task_gets_its_tables_and_figures(report) -> None:
    tasks = {s.task: s for s in report.sections}
    assert sorted(tasks) == sorted(TASKS)
    for task, section in tasks.items():
        for spec in EXPECTED_REPORTS[task].tables:
            assert (report.out / "tables" / f"{task}.{spec.name}.csv").is_file(), task
            assert (report.out / "tables" / f"{task}.{spec.name}.md").is_file(), task
        for _title, path in section.figures:
            assert path.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    names = {t.name for t in tasks["clinguide_mt"].tables}
    assert {"headline", "queries", "order_strata"} <= names
    assert {"accuracy", "axes", "filtered"} <= {t.name for t in tasks["logic_q"].tables}
    assert "detection" in {t.name for t in tasks["logic_q_detection"].tables}
    figures = {Path(p).name for s in report.sections for _t, p in s.figures}
    assert {"logic_mt.headline.png", "logic_mt.sufficiency_by_turn.png",
            "logic_mt.uncertainty.png", "logic_k_prediction.k_prediction.png",
            "clinguide_mt.order_strata.png", "logic_q.axes.png"} <= figures
    assert (report.out / "index.html").is_file() and (report.out / "report.md").is_file()


def test_logs_that_are_not_infoseek_logs_get_one_line_each(report, logs) -> None:
    assert len(report.skipped) == 2
    foreign = next(line for line in report.skipped if str(logs["foreign"]) in line)
    assert "not an infoseek log" in foreign and "say_hi" in foreign
    garbage = next(line for line in report.skipped if str(logs["garbage"]) in line)
    assert "not an Inspect log" in garbage
    assert all("\n" not in line for line in report.skipped)


def test_long_form_csvs_hold_every_sample_and_every_turn(report, logs) -> None:
    samples = pd.read_csv(report.out / "samples.csv")
    turns = pd.read_csv(report.out / "turns.csv")
    expected_samples = expected_turns = 0
    for name, path in logs.items():
        if "@" not in name:
            continue
        log = read_eval_log(str(path))
        expected_samples += len(log.samples)
        expected_turns += sum(len(turns_from_store(s.store.get("infoseek:turns")) or [])
                              for s in log.samples)
    assert len(samples) == expected_samples
    assert len(turns) == expected_turns
    assert {"task", "model", "id", "epoch", "metadata_k", "error"} <= set(samples.columns)
    assert {"turn", "action", "queries", "possible_count", "known"} <= set(turns.columns)


# ------------------------------------------------------------------ numbers from the logs


def _label_of(report, task: str, model: str) -> str:
    frame = table(report, f"{task}.{EXPECTED_REPORTS[task].tables[0].name}")
    runs = frame[(frame["kind"] == "run") & (frame["model"] == model)]
    assert len(runs) == 1
    return runs.iloc[0]["label"]


@pytest.mark.parametrize("task", ["logic_mt", "gsme_mt_ext", "genereg_mt", "clinguide_mt",
                                  "logic_k_prediction", "logic_mss", "logic_q"])
def test_table_numbers_are_recomputed_from_the_logs(report, logs, task: str) -> None:
    """Mean, stderr and n of every metric per k, recomputed sample by sample from the log
    (`read_eval_log`), equal the CSV; and equal Inspect's own metric of the log."""
    declaration = EXPECTED_REPORTS[task]
    group_key = declaration.group_key
    for model in MODELS:
        log = read_eval_log(str(logs[f"{task}@{model}"]))
        inspect_metrics = {name: m.value for s in log.results.scores
                           for name, m in s.metrics.items()}
        for spec in declaration.tables:
            frame = table(report, f"{task}.{spec.name}")
            row = frame[(frame["kind"] == "run") & (frame["model"] == model)].iloc[0]
            for metric in spec.metrics:
                by_group: dict[str, list[float]] = {}
                overall: list[float] = []
                for sample in log.samples:
                    value = sample.scores[metric.scorer].value.get(metric.key)
                    if value is None or math.isnan(value):
                        continue
                    group = sample.metadata.get(group_key)
                    by_group.setdefault(str(group), []).append(float(value))
                    overall.append(float(value))
                if not overall:
                    assert f"{metric.key}_n" not in row or row[f"{metric.key}_n"] == 0
                    continue
                for group, values in [*by_group.items(), (None, overall)]:
                    name = metric.key if group is None else f"{metric.key}_{group_key}{group}"
                    mean = statistics.fmean(values)
                    stderr = statistics.stdev(values) / math.sqrt(len(values)) \
                        if len(values) > 1 else 0.0
                    assert row[name] == pytest.approx(mean), (task, model, name)
                    assert row[f"{name}_stderr"] == pytest.approx(stderr), (task, name)
                    assert row[f"{name}_n"] == len(values)
                    if name in inspect_metrics:
                        assert row[name] == pytest.approx(inspect_metrics[name])
                assert row["samples"] == len(log.samples) and row["errored"] == 0


def test_detection_and_filtered_accuracy_from_the_logs(report, logs) -> None:
    for model in MODELS:
        log = read_eval_log(str(logs[f"logic_q_detection@{model}"]))
        metrics = {name: m.value for s in log.results.scores for name, m in s.metrics.items()}
        frame = table(report, "logic_q_detection.detection")
        row = frame[frame["model"] == model].iloc[0]
        for name in ("precision", "recall", "f1", "random_f1", "not_sure_rate"):
            assert row[name] == pytest.approx(metrics[name])
    from infoseek.scorers.filtered_accuracy import filtered_accuracy

    frame = table(report, "logic_q.filtered")
    for model in MODELS:
        expected = filtered_accuracy(logs[f"logic_q@{model}"],
                                     logs[f"logic_q_well_specified@{model}"])
        row = frame[frame["model"] == model].iloc[0]
        for name in ("unfiltered", "lenient", "strict"):
            assert row[f"{name}_accuracy"] == pytest.approx(expected[name]["accuracy"])
            assert row[f"{name}_kept"] == expected[name]["kept"]


def test_order_strata_show_small_strata_as_a_dash(report) -> None:
    frame = table(report, "clinguide_mt.order_strata")
    shown = display_frame(frame)
    from infoseek.inspect_tasks.report.extra_tables import order_strata_display

    shown = order_strata_display(frame)
    seen_dash = seen_number = False
    for (_, row), (_, text) in zip(frame.iterrows(), shown.iterrows()):
        for stratum in ("all_correct", "all_incorrect", "partial_correct",
                        "partial_incorrect"):
            cell = text[stratum.replace("_", "/")]
            if row[f"n_{stratum}"] < MIN_STRATUM:
                assert cell == "-"
                seen_dash = True
            else:
                assert cell == f"{100 * row[f'accuracy_{stratum}']:.1f}% " \
                               f"(N={int(row[f'n_{stratum}'])})"
                seen_number = True
    assert seen_dash and seen_number
    runs = frame[frame["kind"] == "run"]
    for model in MODELS:
        mine = runs[(runs["model"] == model) & (runs["k"].astype(str) == "all")].iloc[0]
        total = sum(mine[f"n_{s}"] for s in ("all_correct", "all_incorrect",
                                             "partial_correct", "partial_incorrect"))
        assert total == mine["samples"] - mine["errored"]


# ------------------------------------------------------------------ errored samples


def test_errored_samples_are_counted_and_never_raise_a_score(logs, tmp_path: Path) -> None:
    clean = build_report([logs["logic_mt@infoseek/random"]], tmp_path / "clean", bundle=False)
    broken = build_report([logs["errored"]], tmp_path / "broken", bundle=False)
    assert broken.errored == 1 and clean.errored == 0
    before = table(clean, "logic_mt.headline").iloc[0]
    after = table(broken, "logic_mt.headline").iloc[0]
    assert after["errored"] == 1 and after["samples"] == before["samples"]
    log = read_eval_log(str(logs["logic_mt@infoseek/random"]))
    kept = [s.scores["sufficiency"].value["final_sufficiency"] for s in log.samples[1:]]
    # higher is better: the errored sample counts as a failure, over every sample
    assert after["final_sufficiency"] == pytest.approx(sum(kept) / len(log.samples))
    assert after["final_sufficiency_n"] == len(log.samples)
    assert after["final_sufficiency"] <= before["final_sufficiency"]
    assert after["accuracy"] <= before["accuracy"]
    # lower is better: the errored sample is left out
    turns = table(broken, "logic_mt.turns").iloc[0]
    assert turns["total_turns_n"] == len(log.samples) - 1 and turns["errored"] == 1
    page = (broken.out / "index.html").read_text(encoding="utf-8")
    assert "1 errored" in page


# ------------------------------------------------------------------ published numbers


def test_published_rows_come_from_the_data_file(report) -> None:
    """The runs here are on built splits, not on the papers' released problems: the
    published numbers of the same setting are shown apart, in a `different_data` table,
    each naming the data it was measured on; none sits beside a run."""
    frame = table(report, "logic_mt.headline")
    assert (frame["kind"] == "run").all()
    assert set(frame["data"]) == {f"built {v.split('/')[1]}" for v in {
        read_eval_log(str(p), header_only=True).eval.task_version
        for n, p in report_logs(report).items() if n.startswith("logic_mt@")}}
    apart = table(report, "logic_mt.headline.different_data")
    assert set(apart["kind"]) == {"different data"}
    series = next(s for s in published()["series"]
                  if s["task"] == "logic_mt" and s["metric"] == "final_sufficiency"
                  and s["table"] == "Table 14")
    gpt5 = apart[apart["model"] == "GPT-5 (published, different data)"].iloc[0]
    assert gpt5["final_sufficiency_k1"] == series["values"]["GPT-5"]["1"]
    assert gpt5["final_sufficiency_k2"] == series["values"]["GPT-5"]["2"]
    assert "Table 14" in gpt5["source"] and gpt5["data"] == series["data"]["name"]
    assert "Logic-Q-MT" in gpt5["data"]
    # force-ask numbers (Table 23) apply only to a force-ask run: none here
    assert not apart["source"].str.contains("Table 23").any()
    # a table shows only the published rows of its own metrics (Table 14 has no query
    # metrics; Table 17 gives ClinGuide's query correctness and coverage at 0 distractors)
    assert not (report.out / "tables" / "logic_mt.queries.different_data.csv").exists()
    queries = table(report, "clinguide_mt.queries.different_data")
    gpt5 = queries[queries["model"] == "GPT-5 (published, different data)"].iloc[0]
    assert gpt5["query_coverage_k1"] == 0.935 and "Table 17" in gpt5["source"]
    assert "not released" in gpt5["data"]
    mss = table(report, "logic_mss.mss.different_data")
    assert set(mss["source"]) == {"MT-InfoSeek Table 21"}
    assert (table(report, "logic_mss.mss")["kind"] == "run").all()
    # the page says what the apart rows are
    page = (report.out / "index.html").read_text(encoding="utf-8")
    assert "published, different data" in page and 'class="different-data"' in page


def report_logs(report) -> dict[str, Path]:
    """'<task>@<model>' -> log file of the report's runs."""
    return {f"{task}@{model}": Path(log) for task, model, log in
            zip(report.logs["task"], report.logs["model"], report.logs["log"])}


def test_the_data_file_is_checked() -> None:
    data = published()
    assert data["series"] and all(s["source"] in data["sources"] for s in data["series"])
    broken = {**data, "series": [{**data["series"][0], "source": "nowhere"}]}
    with pytest.raises(PublishedDataError, match="unknown source"):
        _check(broken)
    broken = {**data, "series": [{**data["series"][0], "values": {"GPT-5": {"1": "high"}}}]}
    with pytest.raises(PublishedDataError, match="GPT-5"):
        _check(broken)


# ------------------------------------------------------------------ declarations


def test_a_new_task_joins_with_one_declaration() -> None:
    register_task_report("planning_mt_example", SEEK_REPORT)
    try:
        assert report_for("infoseek/planning_mt_example", set()) is SEEK_REPORT
    finally:
        unregister_task_report("planning_mt_example")
    # undeclared, but with the seek scorers: reported as a seek task
    assert report_for("someone_elses_seek", {"final_answer", "sufficiency", "queries",
                                             "invalid"}) is SEEK_REPORT
    assert report_for("say_hi", {"match"}) is None
    with pytest.raises(TypeError, match="TaskReport"):
        register_task_report("x", {"protocol": "seek"})  # type: ignore[arg-type]


# ------------------------------------------------------------------ the command


def test_the_command(logs, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    status = main(["report", str(logs["logic_mss@infoseek/optimal"]), str(logs["garbage"]),
                   "--out", str(tmp_path / "out"), "--no-bundle", "--quiet"])
    captured = capsys.readouterr()
    assert status == 0
    assert "1 log(s)" in captured.out and "index.html" in captured.out
    assert re.search(r"left out .*notes\.json: not an Inspect log", captured.err)
    assert main(["report", str(logs["garbage"]), "--out", str(tmp_path / "none"),
                 "--quiet"]) == 2
    assert "none of the logs is an infoseek log" in capsys.readouterr().err
    assert main(["report", str(tmp_path / "missing"), "--out", str(tmp_path / "x")]) == 2
    assert "no such log file or folder" in capsys.readouterr().err


def test_the_bundle_links_rows_to_their_transcripts(logs, tmp_path: Path) -> None:
    built = build_report([logs["logic_k_prediction@infoseek/optimal"]], tmp_path / "b",
                         bundle=True)
    assert built.bundle is not None and (built.bundle / "index.html").is_file()
    bundled = list((built.bundle / "logs").glob("*.eval"))
    assert len(bundled) == 1
    page = (built.out / "index.html").read_text(encoding="utf-8")
    assert f'href="viewer/index.html#/logs/{bundled[0].name}"' in page
    samples = pd.read_csv(built.out / "samples.csv")
    assert samples["transcript"].str.startswith(
        f"viewer/index.html#/logs/{bundled[0].name}/samples/sample/").all()


# ------------------------------------------------------------------ the page in a browser


def _chromium() -> str:
    found = find_chromium()
    if found is None:
        if os.environ.get("CI"):
            pytest.fail("chromium is missing in CI (.ci/run installs Debian's chromium)")
        pytest.skip("no chromium on this machine (apt-get install chromium); CI runs this")
    return found


NUMBER = r"-?\d+(?:\.\d+)?(?:e-?\d+)?"


def _check_cell(text: str, csv_row: pd.Series, column: str, frame: pd.DataFrame) -> int:
    """Compare one page cell with the CSV; returns how many numbers it compared."""
    if f"{column}_n" in frame.columns and text:
        if text == "not published":
            assert csv_row["kind"] != "run" and math.isnan(csv_row[column]), column
            return 0
        if text.startswith("n/a ("):
            assert csv_row["kind"] == "run" and math.isnan(csv_row[column]), column
            assert csv_row[f"{column}_n"] == 0
            assert text == f"n/a ({csv_row[f'{column}_why']})", (column, text)
            return 0
        found = re.fullmatch(rf"({NUMBER})(?: ± ({NUMBER}) \((\d+)\))?", text)
        assert found, (column, text)
        assert float(found.group(1)) == pytest.approx(csv_row[column], abs=5e-4)
        if found.group(2) is not None:
            assert float(found.group(2)) == pytest.approx(csv_row[f"{column}_stderr"], abs=5e-4)
            assert int(found.group(3)) == csv_row[f"{column}_n"]
        return 1
    stratum = column.replace("/", "_")
    if f"n_{stratum}" in frame.columns:
        if text == "-":
            assert csv_row[f"n_{stratum}"] < MIN_STRATUM
            return 0
        found = re.fullmatch(rf"({NUMBER})% \(N=(\d+)\)", text)
        assert found, (column, text)
        assert float(found.group(1)) / 100 == pytest.approx(csv_row[f"accuracy_{stratum}"],
                                                            abs=5e-4)
        assert int(found.group(2)) == csv_row[f"n_{stratum}"]
        return 1
    value = csv_row[column]
    if isinstance(value, int | float) and not isinstance(value, bool) and text:
        if math.isnan(float(value)):
            assert text == "n/a" or text.startswith("n/a ("), (column, text)
            return 0
        assert float(text) == pytest.approx(float(value), abs=5e-4, rel=5e-2)
        return 1
    if text:
        assert text == str(value) or text.lower() == str(value).lower(), (column, text)
    return 0


def test_the_page_in_a_real_browser(report) -> None:
    page = load_page(report.out / "index.html", _chromium())
    assert page.errors == []
    figures = sum(len(s.figures) for s in report.sections)
    assert len(page.images) == figures > 0
    for image in page.images:
        assert image["complete"], image["alt"]
        assert min(image["natural"]) > 0 and min(image["shown"]) > 0, image["alt"]
    tables = [f"{s.task}.{t.name}" for s in report.sections for t in s.tables]
    assert sorted(page.tables) == sorted(tables)
    compared = 0
    for table_id, cells in page.tables.items():
        frame = table(report, table_id)
        header, body = cells[0], cells[1:]
        assert len(body) == len(frame), table_id
        for values, (_, csv_row) in zip(body, frame.iterrows()):
            for column, text in zip(header, values):
                compared += _check_cell(text, csv_row, column, frame)
    assert compared > 500


def test_the_browser_check_sees_errors(tmp_path: Path) -> None:
    """The harness itself: a console error, an exception and a broken image are seen."""
    bad = tmp_path / "bad.html"
    bad.write_text("<!DOCTYPE html><html><body><img src='missing.png' alt='gone'>"
                   "<script>console.error('boom'); throw new Error('thrown');</script>"
                   "<table id='t'><tr><td>1</td></tr></table></body></html>",
                   encoding="utf-8")
    page = load_page(bad, _chromium())
    assert any("boom" in e for e in page.errors)
    assert any("thrown" in e for e in page.errors)
    assert page.images[0]["natural"] == [0, 0]
    assert page.tables == {"t": [["1"]]}
