"""`infoseek verify --out DIR` keeps an earlier run's results unless --force (issue 30,
class 11), like every other command that writes; the default folder too."""

from __future__ import annotations

import shutil
from pathlib import Path

from infoseek import cli
from tests.support import FIXTURES

RELEASED = FIXTURES / "published" / "logic_q_mt.csv"
FORMAT = "mt-infoseek-logic"


def verify(*args: str) -> int:
    return cli.main(["verify", "--format", FORMAT, "--workers", "1", "--quiet", *args])


def test_an_earlier_run_is_kept_without_force(tmp_path, capsys) -> None:
    out = tmp_path / "v"
    assert verify(str(RELEASED), "--out", str(out)) == 0
    (out / "summary.json").write_text("mine\n", encoding="utf-8")
    capsys.readouterr()
    assert verify(str(RELEASED), "--out", str(out)) == 2
    assert capsys.readouterr().err == (
        f"infoseek verify: --out {out} holds the results of an earlier run "
        "(disagreements.jsonl, summary.json); pass --force to overwrite them\n")
    assert (out / "summary.json").read_text(encoding="utf-8") == "mine\n"
    assert verify(str(RELEASED), "--out", str(out), "--force") == 0
    assert (out / "summary.json").read_text(encoding="utf-8").startswith("{")


def test_the_default_folder_is_kept_without_force(tmp_path, capsys, monkeypatch) -> None:
    monkeypatch.chdir(tmp_path)
    source = Path(shutil.copyfile(RELEASED, tmp_path / "rows.csv"))
    assert verify(str(source)) == 0
    out = tmp_path / f"rows.{FORMAT}.verify"
    (out / "disagreements.jsonl").write_text("mine\n", encoding="utf-8")
    capsys.readouterr()
    assert verify(str(source)) == 2
    err = capsys.readouterr().err
    assert err.startswith(f"infoseek verify: --out {out.name} holds the results of an "
                          "earlier run") and err.count("\n") == 1, err
    assert (out / "disagreements.jsonl").read_text(encoding="utf-8") == "mine\n"
    assert verify(str(source), "--force") == 0


def test_an_empty_existing_folder_is_written_into(tmp_path) -> None:
    out = tmp_path / "v"
    out.mkdir()
    assert verify(str(RELEASED), "--out", str(out)) == 0
    assert (out / "summary.json").is_file()


def test_an_out_that_cannot_be_a_folder_is_refused(tmp_path, capsys) -> None:
    blocker = tmp_path / "afile"
    blocker.write_text("mine\n", encoding="utf-8")
    for out, start in (("", "--out is empty"), (str(blocker / "v"), f"--out {blocker / 'v'}"),
                       ("/dev/null/v", "--out /dev/null/v")):
        assert verify(str(RELEASED), "--out", out) == 2
        err = capsys.readouterr().err
        assert err.startswith(f"infoseek verify: {start}") and err.count("\n") == 1, err
    assert blocker.read_text(encoding="utf-8") == "mine\n"
