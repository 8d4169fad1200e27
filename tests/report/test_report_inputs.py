"""`infoseek report` on bad input (issue 30, classes 9 and 12): an --out it cannot use is
refused in one line before anything is written (empty, under a file, a device, or a
folder holding an earlier report without --force); a log whose file name is not UTF-8 is
reported; a foreign log whose task is named like an infoseek task (``logic_mt``,
``twenty_questions``), even with the scorer names and report metadata of one, is left
out with one line; the same run stored under two file names is counted once.

One tiny logic_mt log of ``infoseek/optimal`` and two foreign logs of ``mockllm/model``
serve every test (module scope).
"""

from __future__ import annotations

import os
import shutil
from pathlib import Path
from types import SimpleNamespace

import pandas as pd
import pytest
from inspect_ai import Task
from inspect_ai import eval as inspect_eval
from inspect_ai.dataset import Sample
from inspect_ai.model import get_model
from inspect_ai.scorer import Score, Target, accuracy, scorer
from inspect_ai.solver import TaskState

from infoseek.cli import main
from infoseek.inspect_tasks._registry import PACKAGED_TASKS
from infoseek.inspect_tasks.inspect_private import registry_restored
from infoseek.inspect_tasks.report import build_report
from infoseek.inspect_tasks.report.declarations import SEEK_REPORT
from infoseek.inspect_tasks.report.reading import run_problem
from tests.support.common import text_output

pytestmark = pytest.mark.usefixtures("no_tokenizer")


def _named_scorer(name: str):
    """A foreign scorer recorded under `name` (an infoseek scorer's name), with
    Inspect's own metric."""

    @scorer(metrics=[accuracy()], name=name)
    def make():
        async def score(state: TaskState, target: Target) -> Score:
            return Score(value=1.0)

        return score

    return make()


def _foreign(name: str, scorers: list[str], report: str, folder: Path) -> Path:
    """A log of a task of our own named `name` (not infoseek's), carrying scorers with
    infoseek's scorer names and the report metadata an infoseek task records."""
    task = Task(dataset=[Sample(input="Say hi", target="hi", id="s1")],
                scorer=[_named_scorer(s) for s in scorers], name=name,
                metadata={"report": report})
    model = get_model("mockllm/model", custom_outputs=[text_output("hi")])
    [log] = inspect_eval(task, model=model, log_dir=str(folder), display="none")
    assert log.status == "success"
    return Path(log.location)


@pytest.fixture(scope="module")
def logs(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    folder = tmp_path_factory.mktemp("report-inputs")
    [log] = inspect_eval(PACKAGED_TASKS["logic_mt"](k=[1], per_k=1), model="infoseek/optimal",
                         log_dir=str(folder / "ours"), display="none")
    assert log.status == "success"
    # The foreign scorers take unqualified names (answer, sufficiency, ...) in Inspect's
    # registry: put it back after, or a later `inspect score` would find them.
    with registry_restored():
        return {
            "ours": Path(log.location),
            "logic_mt": _foreign("logic_mt", ["answer", "sufficiency", "queries", "invalid"],
                                 "seek", folder / "foreign_seek"),
            "twenty_questions": _foreign("twenty_questions", ["twenty_questions"],
                                         "twenty_questions", folder / "foreign_20q"),
        }


def report(*args: str) -> int:
    return main(["report", *args, "--no-bundle", "--quiet"])


# ------------------------------------------------------------------ --out


def test_an_empty_out_is_refused_and_the_working_folder_kept(logs, tmp_path, capsys,
                                                              monkeypatch) -> None:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "samples.csv").write_text("mine\n", encoding="utf-8")
    (tmp_path / "report.md").write_text("mine\n", encoding="utf-8")
    assert report(str(logs["ours"]), "--out", "") == 2
    err = capsys.readouterr().err
    assert err.startswith("infoseek report: --out is empty") and err.count("\n") == 1
    assert (tmp_path / "samples.csv").read_text(encoding="utf-8") == "mine\n"
    assert (tmp_path / "report.md").read_text(encoding="utf-8") == "mine\n"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["report.md", "samples.csv"]


@pytest.mark.parametrize("where", ["under a file", "a device", "under a device"])
def test_an_out_that_cannot_be_a_folder_is_refused_in_one_line(logs, tmp_path, capsys,
                                                                where) -> None:
    blocker = tmp_path / "afile"
    blocker.write_text("mine\n", encoding="utf-8")
    out = {"under a file": blocker / "report", "a device": Path("/dev/null"),
           "under a device": Path("/dev/null/report")}[where]
    assert report(str(logs["ours"]), "--out", str(out)) == 2
    err = capsys.readouterr().err
    assert err.startswith(f"infoseek report: --out {out}") and err.count("\n") == 1, err
    assert "Traceback" not in err
    assert blocker.read_text(encoding="utf-8") == "mine\n"


def test_an_earlier_report_is_kept_without_force(logs, tmp_path, capsys) -> None:
    out = tmp_path / "r"
    assert report(str(logs["ours"]), "--out", str(out)) == 0
    (out / "report.md").write_text("edited\n", encoding="utf-8")
    capsys.readouterr()
    assert report(str(logs["ours"]), "--out", str(out)) == 2
    err = capsys.readouterr().err
    assert err == (f"infoseek report: --out {out} holds an earlier report (report.md, "
                   "samples.csv, ...); pass --force to replace it\n"), err
    assert (out / "report.md").read_text(encoding="utf-8") == "edited\n"
    assert report(str(logs["ours"]), "--out", str(out), "--force") == 0
    assert (out / "report.md").read_text(encoding="utf-8").startswith("# infoseek report")


def test_an_existing_folder_without_a_report_is_written_into(logs, tmp_path) -> None:
    out = tmp_path / "mine"
    out.mkdir()
    (out / "notes.txt").write_text("mine\n", encoding="utf-8")
    assert report(str(logs["ours"]), "--out", str(out)) == 0
    assert (out / "notes.txt").read_text(encoding="utf-8") == "mine\n"
    assert (out / "index.html").is_file()


def test_force_leaves_no_table_of_the_earlier_report(logs, tmp_path) -> None:
    out = tmp_path / "r"
    assert report(str(logs["ours"]), "--out", str(out)) == 0
    stale = out / "tables" / "gone_task.headline.csv"
    stale.write_text("old\n", encoding="utf-8")
    assert report(str(logs["ours"]), "--out", str(out), "--force") == 0
    assert not stale.exists()


# ------------------------------------------------------------------ log names


def test_a_log_whose_file_name_is_not_utf8_is_reported(logs, tmp_path, capsys) -> None:
    folder = tmp_path / "logs"
    folder.mkdir()
    odd = folder / os.fsdecode(b"run-\xff\xfe.eval")
    shutil.copyfile(logs["ours"], odd)
    out = tmp_path / "r"
    assert report(str(folder), "--out", str(out)) == 0, capsys.readouterr().err
    samples = pd.read_csv(out / "samples.csv")
    assert len(samples) > 0 and samples["log"].str.contains("run-").all()
    assert (out / "logs.csv").is_file() and (out / "index.html").is_file()


def test_a_log_whose_file_name_is_not_utf8_is_bundled_and_linked(logs, tmp_path) -> None:
    folder = tmp_path / "logs"
    folder.mkdir()
    shutil.copyfile(logs["ours"], folder / os.fsdecode(b"run-\xff.eval"))
    built = build_report([folder], tmp_path / "r", bundle=True)
    assert built.bundle is not None
    assert [p.name for p in (built.bundle / "logs").glob("*.eval")] == ["L1.eval"]
    page = (built.out / "index.html").read_text(encoding="utf-8")
    assert 'href="viewer/index.html#/logs/L1.eval"' in page


# ------------------------------------------------------------------ what is an infoseek run


@pytest.mark.parametrize("name", ["logic_mt", "twenty_questions"])
def test_a_foreign_log_named_like_an_infoseek_task_is_left_out(logs, tmp_path, name) -> None:
    built = build_report([logs["ours"], logs[name]], tmp_path / "r", bundle=False)
    assert list(built.logs["log"]) == [str(logs["ours"])]
    [line] = [s for s in built.skipped if str(logs[name]) in s]
    assert "not an infoseek run" in line and "\n" not in line
    assert built.samples == len(pd.read_csv(built.out / "samples.csv"))
    assert {s.task for s in built.sections} == {"logic_mt"}


def test_a_foreign_log_alone_is_no_report(logs, tmp_path, capsys) -> None:
    assert report(str(logs["logic_mt"]), "--out", str(tmp_path / "r")) == 2
    assert "none of the logs is an infoseek log" in capsys.readouterr().err


def test_the_same_run_under_two_names_is_counted_once(logs, tmp_path) -> None:
    folder = tmp_path / "logs"
    folder.mkdir()
    first = folder / "a.eval"
    second = folder / "b-copy.eval"
    shutil.copyfile(logs["ours"], first)
    shutil.copyfile(logs["ours"], second)
    alone = build_report([logs["ours"]], tmp_path / "alone", bundle=False)
    built = build_report([folder], tmp_path / "r", bundle=False)
    assert len(built.logs) == 1 and built.samples == alone.samples
    [line] = built.skipped
    assert line.startswith(f"{second}: the same run as {first}") and "\n" not in line
    headline = pd.read_csv(built.out / "tables" / "logic_mt.headline.csv")
    assert list(headline[headline["kind"] == "run"]["samples"]) == [alone.samples]


def test_a_fifo_or_device_named_as_a_log_is_not_read(tmp_path, capsys) -> None:
    fifo = tmp_path / "pipe.eval"
    os.mkfifo(fifo)
    for path, kind in ((fifo, "a FIFO"), (Path("/dev/zero"), "a character device")):
        assert report(str(path), "--out", str(tmp_path / "r")) == 2
        assert capsys.readouterr().err == (
            f"infoseek report: {path}: is {kind}, not a log file or folder\n")


def _spec(task: str, registry: str, packages: dict[str, str],
          metrics: dict[str, list[str]]) -> SimpleNamespace:
    """What `run_problem` reads of an `EvalSpec`."""
    return SimpleNamespace(
        task=task, task_registry_name=registry, packages=packages,
        scorers=[SimpleNamespace(name=name, metrics=[SimpleNamespace(name=m) for m in ms])
                 for name, ms in metrics.items()])


SEEK_SCORERS = ("answer", "sufficiency", "queries", "invalid")


@pytest.mark.parametrize("registry, packages, metric, infoseek_run", [
    ("infoseek/logic_mt", {"inspect_ai": "0", "infoseek": "0"}, "infoseek/mean_by_group",
     True),  # the infoseek package's own task
    ("mapcolour/mapcolour_mt", {"inspect_ai": "0", "mapcolour": "0"},
     "infoseek/mean_by_group", True),  # a plug-in's task over infoseek's scorers
    ("logic_mt", {"inspect_ai": "0"}, "infoseek/mean_by_group", True),  # a task file by path
    ("logic_mt", {"inspect_ai": "0"}, "inspect_ai/accuracy", False),  # a foreign task
    ("infoseek/logic_mt", {"inspect_ai": "0"}, "inspect_ai/accuracy", False),  # a name only
], ids=["package", "plug-in", "task file", "foreign", "name only"])
def test_what_makes_an_infoseek_run(registry, packages, metric, infoseek_run) -> None:
    spec = _spec("logic_mt", registry, packages, {s: [metric] for s in SEEK_SCORERS})
    assert (run_problem(spec, SEEK_REPORT) is None) is infoseek_run
    lacking = _spec("logic_mt", registry, packages, {"answer": [metric]})
    assert "lacks the scorer(s) invalid, queries, sufficiency" in run_problem(lacking,
                                                                       SEEK_REPORT)


def test_a_task_file_run_by_its_path_is_reported(tmp_path) -> None:
    from infoseek.inspect_tasks import logic_mt

    [log] = inspect_eval(f"{logic_mt.__file__}@logic_mt", task_args={"k": 1, "per_k": 1},
                         model="infoseek/optimal", log_dir=str(tmp_path / "logs"),
                         display="none")
    assert log.status == "success" and "infoseek" not in (log.eval.packages or {})
    built = build_report([log.location], tmp_path / "r", bundle=False)
    assert built.skipped == [] and {s.task for s in built.sections} == {"logic_mt"}
