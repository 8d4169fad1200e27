"""An empty path given to a command that writes is refused by name (issue 30, class 9):
``--out ""`` is the working folder to the file system, and each command says what to
name instead of reporting that "" is a folder."""

from __future__ import annotations

import pytest

from infoseek import cli
from tests.support import FIXTURES

RELEASED = FIXTURES / "published" / "logic_q_mt.csv"


@pytest.mark.parametrize("argv, message", [
    (["build", "logic-mt", "--per-k", "1", "--quiet", "--out", ""],
     "infoseek build: --out is empty; name the file to write\n"),
    (["verify", str(RELEASED), "--quiet", "--write-corrected", ""],
     "infoseek verify: --write-corrected is empty; name the file to write\n"),
    (["verify", str(RELEASED), "--quiet", "--out", ""],
     "infoseek verify: --out is empty; name the folder to write\n"),
], ids=["build --out", "verify --write-corrected", "verify --out"])
def test_an_empty_path_is_refused_by_name(tmp_path, capsys, monkeypatch, argv, message) -> None:
    monkeypatch.chdir(tmp_path)
    assert cli.main(argv) == 2
    assert capsys.readouterr().err == message
    assert list(tmp_path.iterdir()) == []
