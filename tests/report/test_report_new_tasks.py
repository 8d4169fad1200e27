"""`infoseek report` on the planning and Twenty Questions tasks: their declarations, the
tables recomputed from the logs, the by-turn curves, the published rows (QuestBench
Table 2 Planning-Q, MT-InfoSeek Table 18) and the page in a real browser.

One module-scoped set of tiny logs of both reference models (the pattern of
tests/report/test_report.py): every planning task, the two Twenty Questions problem-level tasks,
and twenty_questions on both pools plus one run capped at 5 turns (a setting the paper
did not use: no published rows for it).
"""

from __future__ import annotations

import math
import statistics
from pathlib import Path

import pandas as pd
import pytest
from inspect_ai import eval as inspect_eval
from inspect_ai.log import EvalError, read_eval_log, write_eval_log

from infoseek.inspect_tasks._registry import PACKAGED_TASKS
from infoseek.inspect_tasks.report import build_report
from infoseek.inspect_tasks.report.declarations import report_for
from infoseek.inspect_tasks.report.published import published
from infoseek.inspect_tasks.report.tables import axis_correlations
from tests.report.test_derived_lists import EXPECTED_REPORTS
from tests.report.test_report import _check_cell, _chromium
from tests.support.browser import load_page

TASKS = {
    "planning_mt": {"k": [2, 3], "per_k": 1},
    "planning_mt_full": {"k": [2], "per_k": 1},
    "planning_mt_k_prediction": {"k": [2, 3], "per_k": 1},
    "planning_mt_mss": {"k": [2, 3], "per_k": 1},
    "planning_q": {"per_k": 4},
    "planning_q_detection": {"per_k": 3},
    "planning_q_well_specified": {"per_k": 4},
    "twenty_questions_k_prediction": {"k": [1, 2], "per_k": 1},
    "twenty_questions_mss": {"k": [1, 2], "per_k": 1},
}
GAMES = {"common": {"pool": "common"}, "thing": {"pool": "thing"},
         "short": {"pool": "common", "max_turns": 5}}
GAME_LIMIT = 2
MODELS = ("infoseek/optimal", "infoseek/random")
NEW_TASKS = sorted(n for n in PACKAGED_TASKS
                   if n.startswith(("planning_", "twenty_questions")))


@pytest.fixture(scope="module")
def logs(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    """Paths by '<task>@<model>', and 'twenty_questions:<game>@<model>'; 'runs': the
    folder."""
    runs = tmp_path_factory.mktemp("report-new-logs")
    results = inspect_eval([PACKAGED_TASKS[name](**args) for name, args in TASKS.items()],
                           model=list(MODELS), log_dir=str(runs), display="none")
    paths = {f"{log.eval.task.split('/')[-1]}@{log.eval.model}": Path(log.location)
             for log in results}
    for game, args in GAMES.items():
        for log in inspect_eval(PACKAGED_TASKS["twenty_questions"](**args), model=list(MODELS),
                                log_dir=str(runs), display="none", limit=GAME_LIMIT):
            results.append(log)
            paths[f"twenty_questions:{game}@{log.eval.model}"] = Path(log.location)
    assert [log.status for log in results] == ["success"] * len(results)
    paths["runs"] = runs
    return paths


@pytest.fixture(scope="module")
def report(logs: dict[str, Path], tmp_path_factory: pytest.TempPathFactory):
    return build_report([logs["runs"]], tmp_path_factory.mktemp("report-new"), bundle=False)


def table(report, name: str) -> pd.DataFrame:
    return pd.read_csv(report.out / "tables" / f"{name}.csv", keep_default_na=False,
                       na_values=[""])


def _runs(frame: pd.DataFrame, model: str, **settings: object) -> pd.Series:
    rows = frame[(frame["kind"] == "run") & (frame["model"] == model)]
    for name, value in settings.items():
        rows = rows[rows[name].astype(str) == str(value)]
    assert len(rows) == 1, (model, settings)
    return rows.iloc[0]


# ------------------------------------------------------------------ declarations


def test_every_planning_and_twenty_questions_task_is_declared(report) -> None:
    assert set(NEW_TASKS) == set(TASKS) | {"twenty_questions"}
    assert set(NEW_TASKS) <= set(EXPECTED_REPORTS)
    sections = {s.task: s for s in report.sections}
    assert sorted(sections) == NEW_TASKS and report.skipped == []
    for task, section in sections.items():
        assert [t.name for t in section.tables][:len(EXPECTED_REPORTS[task].tables)] == \
            [spec.name for spec in EXPECTED_REPORTS[task].tables], task
        for _title, path in section.figures:
            assert path.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    figures = {Path(p).name for s in report.sections for _t, p in s.figures}
    assert {"planning_mt.headline.png", "planning_mt.sufficiency_by_turn.png",
            "planning_q.axes.png", "twenty_questions.by_turn.png",
            "planning_mt_k_prediction.k_prediction.png"} <= figures
    assert {"axes", "filtered"} <= {t.name for t in sections["planning_q"].tables}
    assert "detection" in {t.name for t in sections["planning_q_detection"].tables}
    assert "by_turn" in {t.name for t in sections["twenty_questions"].tables}
    # the plan scorer's columns are in the planning_mt headline, per k
    headline = table(report, "planning_mt.headline")
    assert {"plan_exact_k2", "plan_credit_k3", "plan_valid", "final_sufficiency_k2"} <= \
        set(headline.columns)
    # a twenty_questions log nobody declared by name is still read by its scorer
    assert report_for("my_twenty_questions_variant", {"twenty_questions"}) \
        is EXPECTED_REPORTS["twenty_questions"]


# ------------------------------------------------------------------ numbers from the logs


def _key_of(name: str) -> str:
    return name.split(":")[0]


CASES = [(t, m) for t in TASKS for m in MODELS] + \
    [(f"twenty_questions:{g}", m) for g in GAMES for m in MODELS]


@pytest.mark.parametrize(("name", "model"), CASES)
def test_table_numbers_are_recomputed_from_the_logs(report, logs, name: str,
                                                    model: str) -> None:
    """Mean, stderr and n of every metric per group (k, variant or pool), recomputed
    sample by sample from the log, equal the CSV and Inspect's own metric."""
    task = _key_of(name)
    declaration = EXPECTED_REPORTS[task]
    group_key = declaration.group_key
    log = read_eval_log(str(logs[f"{name}@{model}"]))
    settings = {} if task != "twenty_questions" else {
        "pool": log.eval.task_args["pool"], "max_turns": log.eval.task_args["max_turns"]}
    inspect_metrics = {n: m.value for s in log.results.scores for n, m in s.metrics.items()}
    compared = 0
    for spec in declaration.tables:
        frame = table(report, f"{task}.{spec.name}")
        if "max_turns" in settings and "max_turns" not in frame.columns:
            continue
        row = _runs(frame, model, **settings)
        for metric in spec.metrics:
            by_group: dict[str, list[float]] = {}
            overall: list[float] = []
            for sample in log.samples:
                value = sample.scores[metric.scorer].value.get(metric.key)
                if value is None or math.isnan(value):
                    continue
                by_group.setdefault(str(sample.metadata.get(group_key)), []).append(value)
                overall.append(float(value))
            if not overall:
                assert f"{metric.key}_n" not in row or row[f"{metric.key}_n"] == 0
                continue
            for group, values in [*by_group.items(), (None, overall)]:
                column = metric.key if group is None else f"{metric.key}_{group_key}{group}"
                stderr = statistics.stdev(values) / math.sqrt(len(values)) \
                    if len(values) > 1 else 0.0
                assert row[column] == pytest.approx(statistics.fmean(values)), column
                assert row[f"{column}_stderr"] == pytest.approx(stderr), column
                assert row[f"{column}_n"] == len(values)
                if column in inspect_metrics:
                    assert row[column] == pytest.approx(inspect_metrics[column]), column
                compared += 1
        assert row["samples"] == len(log.samples) and row["errored"] == 0
    assert compared > 0


def test_twenty_questions_columns_name_the_pool(report) -> None:
    headline = table(report, "twenty_questions.headline")
    common = _runs(headline, "infoseek/optimal", pool="common", max_turns=20)
    thing = _runs(headline, "infoseek/optimal", pool="thing", max_turns=20)
    assert common["accuracy_poolcommon_n"] == GAME_LIMIT and common["accuracy_poolthing_n"] == 0
    assert thing["accuracy_poolthing_n"] == GAME_LIMIT and thing["accuracy_poolcommon_n"] == 0
    for column in ("transfer_accuracy", "turns", "mean_neig", "final_entropy"):
        assert f"{column}_poolcommon" in headline.columns
    examiner = table(report, "twenty_questions.examiner")
    assert {"examiner_disagrees", "label_failures", "mean_pass_mass"} <= set(examiner.columns)


def test_the_by_turn_curves_come_from_the_logs(report, logs) -> None:
    """Every turn's mean remaining entropy, nEIG and pass mass (and how many games it is
    over) recomputed from the games' scores; the entropy curve never rises for the
    optimal guesser's games."""
    frame = table(report, "twenty_questions.by_turn")
    for game, args in GAMES.items():
        for model in MODELS:
            log = read_eval_log(str(logs[f"twenty_questions:{game}@{model}"]))
            cap = args.get("max_turns", 20)
            mine = frame[(frame["model"] == model) & (frame["pool"] == args["pool"])
                         & (frame["max_turns"] == cap)]
            assert list(mine["turn"]) == list(range(1, 21))
            for turn in range(1, 21):
                line = mine[mine["turn"] == turn].iloc[0]
                for curve in ("entropy", "neig", "pass_mass"):
                    values = [s.scores["twenty_questions"].value.get(f"{curve}_t{turn:02d}")
                              for s in log.samples]
                    values = [v for v in values if v is not None and not math.isnan(v)]
                    assert line[f"{curve}_games"] == len(values), (game, model, turn)
                    if values:
                        assert line[curve] == pytest.approx(statistics.fmean(values))
                    else:
                        assert math.isnan(line[curve])
                if turn > cap:
                    assert line["entropy_games"] == 0
            if model == "infoseek/optimal":
                curve = list(mine["entropy"].dropna())
                assert curve and all(b <= a + 1e-9 for a, b in zip(curve, curve[1:]))


def test_planning_q_axes_and_filtered_accuracy_from_the_logs(report, logs) -> None:
    from infoseek.scorers.filtered_accuracy import filtered_accuracy

    axes = table(report, "planning_q.axes")
    filtered = table(report, "planning_q.filtered")
    for model in MODELS:
        log = read_eval_log(str(logs[f"planning_q@{model}"]))
        correct = [float(s.scores["single_turn_scorer"].value["correct"]) for s in log.samples]
        row = _runs(axes, model)
        for axis in ("depth", "e_bf", "num_vars"):
            rho, p = axis_correlations(correct, [s.metadata[axis] for s in log.samples])
            for name, value in ((f"rho_{axis}", rho), (f"p_{axis}", p)):
                if math.isnan(value):
                    assert math.isnan(row[name]), name
                else:
                    assert row[name] == pytest.approx(value), name
        expected = filtered_accuracy(logs[f"planning_q@{model}"],
                                     logs[f"planning_q_well_specified@{model}"])
        line = filtered[filtered["model"] == model].iloc[0]
        for name in ("unfiltered", "lenient", "strict"):
            assert line[f"{name}_accuracy"] == pytest.approx(expected[name]["accuracy"])
            assert line[f"{name}_kept"] == expected[name]["kept"]


def test_an_errored_game_counts_as_lost_and_has_no_information_metrics(logs,
                                                                       tmp_path: Path) -> None:
    """Accuracy, transfer accuracy and examiner wins count an errored game as a failure;
    turns, nEIG, final entropy and the curves leave it out."""
    log = read_eval_log(str(logs["twenty_questions:common@infoseek/optimal"]))
    kept = log.samples[1:]
    log.samples[0].error = EvalError(message="RuntimeError: examiner crashed", traceback="",
                                     traceback_ansi="")
    log.samples[0].scores = None
    path = tmp_path / "errored.eval"
    write_eval_log(log, str(path))
    broken = build_report([path], tmp_path / "out", bundle=False)
    row = table(broken, "twenty_questions.headline").iloc[0]
    assert row["errored"] == 1 and row["samples"] == len(log.samples)

    def values(key: str) -> list[float]:
        return [s.scores["twenty_questions"].value[key] for s in kept]

    for key in ("accuracy", "transfer_accuracy"):
        assert row[key] == pytest.approx(sum(values(key)) / len(log.samples))
        assert row[f"{key}_n"] == len(log.samples)
    for key in ("turns", "mean_neig", "final_entropy"):
        assert row[key] == pytest.approx(statistics.fmean(values(key)))
        assert row[f"{key}_n"] == len(kept)
    curve = table(broken, "twenty_questions.by_turn")
    assert (curve["entropy_games"] == len(kept)).all() and (curve["errored"] == 1).all()


# ------------------------------------------------------------------ published numbers


def _series(task: str, table_name: str, metric: str, **setting: str) -> dict:
    return next(s for s in published()["series"]
                if s["task"] == task and s["table"] == table_name and s["metric"] == metric
                and s["setting"] == setting)


def test_planning_q_published_rows(report) -> None:
    """QuestBench's numbers sit beside a planning_q run built the published generator's way
    (one BFS plan per state, ``ties=first_plan``), and apart, as different data,
    otherwise."""
    logs = pd.read_csv(report.out / "logs.csv")
    ties = set(logs.loc[logs["task"] == "planning_q", "setting.ties"].dropna()) \
        if "setting.ties" in logs else set()
    same = "first_plan" in ties
    name = "planning_q.accuracy" if same else "planning_q.accuracy.different_data"
    kind, word = ("published", "published") if same else \
        ("different data", "published, different data")
    frame = table(report, name)
    rows = frame[frame["kind"] == kind].set_index("model")
    assert (rows["data"] == "QuestBench Planning-Q: the released 7,500 problems (one BFS "
                            "plan per state)").all()
    bfs = _series("planning_q", "Table 2 (BFS baselines)", "correct")["values"]
    assert {name: v["all"] for name, v in bfs.items()} == \
        {"BFS depth 3": 0.0575, "BFS depth 5": 0.272, "BFS depth 10": 0.939}
    for name, values in bfs.items():
        assert rows.loc[f"{name} ({word})", "correct"] == values["all"]
    zs = _series("planning_q", "Table 2", "correct", prompt="zs")["values"]
    assert max(v["all"] for v in zs.values()) == 0.4732
    best = rows.loc[f"Gemini Flash Thinking 2.0 Exp 01-21 ({word})"]
    assert best["correct"] == 0.4732 and best["source"] == "QuestBench Table 2"
    # the run used prompt=zs: the cot and fs rows of the same table do not apply
    assert f"Gemma 2 2B IT ({word})" in rows.index
    assert rows.loc[f"Gemma 2 2B IT ({word})", "correct"] == zs["Gemma 2 2B IT"]["all"]
    assert not (rows["correct"] == 0.0301).any()
    # no published planning numbers for the multi-turn tasks
    assert (table(report, "planning_mt.headline")["kind"] == "run").all()


def test_twenty_questions_published_rows(report, tmp_path: Path) -> None:
    """Table 18 was measured on the paper's own lists (pools ``paper_common`` and
    ``paper_thing``): beside runs on the project's pools it is shown apart."""
    assert not (table(report, "twenty_questions.headline")["kind"] != "run").any()
    frame = table(report, "twenty_questions.headline.different_data")
    rows = frame[frame["kind"] == "different data"]
    mini = rows[rows["source"] == "MT-InfoSeek Table 18 (GPT-5-mini examiner)"] \
        .set_index("model")
    expected = {"GPT-5": (0.5405, 0.42), "GPT-5-mini": (0.4234, 0.38),
                "Qwen3-4B-Thinking": (0.2252, 0.135)}
    for model, (common, thing) in expected.items():
        label = f"{model} (published, different data)"
        assert mini.loc[label, "accuracy_poolpaper_common"] == common
        assert mini.loc[label, "accuracy_poolpaper_thing"] == thing
        assert "Common (111 targets over 405 candidates)" in mini.loc[label, "data"]
    assert set(rows["source"]) == {"MT-InfoSeek Table 18 (GPT-5-mini examiner)",
                                   "MT-InfoSeek Table 18 (Qwen3-30B-A3B-Instruct-FP8 "
                                   "examiner)"}
    values = {metric: [v for s in published()["series"] if s["task"] == "twenty_questions"
                       and s["metric"] == metric for m in s["values"].values()
                       for v in m.values()]
              for metric in ("turns", "mean_neig", "final_entropy")}
    assert 16.2 < min(values["turns"]) and max(values["turns"]) < 19.4
    assert 0.153 <= min(values["mean_neig"]) and max(values["mean_neig"]) <= 0.249
    assert 1.10 <= min(values["final_entropy"]) and max(values["final_entropy"]) <= 1.87
    # the published series are for 20-turn games: a 5-turn run gets none of them
    short = build_report([p for _i, p in _short_logs(report)], tmp_path, bundle=False)
    frame = table(short, "twenty_questions.headline")
    assert (frame["kind"] == "run").all() and len(frame) == len(MODELS)
    assert not (short.out / "tables" / "twenty_questions.headline.different_data.csv"
                ).exists()


def _short_logs(report) -> list[tuple[str, str]]:
    logs = report.logs
    return [(i, p) for i, p, task, mt in zip(logs["log_id"], logs["log"], logs["task"],
                                              logs.get("setting.max_turns", []))
            if task == "twenty_questions" and mt == 5]


# ------------------------------------------------------------------ the page


def test_the_page_in_a_real_browser(report) -> None:
    page = load_page(report.out / "index.html", _chromium())
    assert page.errors == []
    assert len(page.images) == sum(len(s.figures) for s in report.sections) > 0
    for image in page.images:
        assert image["complete"] and min(image["natural"]) > 0, image["alt"]
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
