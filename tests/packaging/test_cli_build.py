"""`infoseek build` keeps what is there and checks before it builds (issue 8, item 15):
an existing --out needs --force, --out must be writable, --per-k is capped."""

from __future__ import annotations

import pytest

from infoseek import cli
from infoseek.builders.logic import logic_mt
from infoseek.domains import builder_names, get_builder


@pytest.fixture
def no_build(monkeypatch):
    get_builder("logic-mt")  # the domain holds the builder it read on loading: load it first

    def refuse(*args, **kwargs):
        raise AssertionError("built before the arguments were checked")

    monkeypatch.setattr(logic_mt, "build_split", refuse)


def build(*args: str) -> int:
    return cli.main(["build", "logic-mt", "--quiet", "--k", "1", *args])


def test_an_existing_out_is_kept_without_force(tmp_path, capsys, no_build) -> None:
    out = tmp_path / "logic.jsonl"
    out.write_text("mine\n", encoding="utf-8")
    assert build("--out", str(out), "--per-k", "1") == 2
    assert out.read_text(encoding="utf-8") == "mine\n"
    assert capsys.readouterr().err == (
        f"infoseek build: {out} exists; pass --force to overwrite it\n")


def test_force_overwrites(tmp_path) -> None:
    out = tmp_path / "logic.jsonl"
    out.write_text("mine\n", encoding="utf-8")
    assert build("--out", str(out), "--per-k", "1", "--force") == 0
    lines = out.read_text(encoding="utf-8").splitlines()
    assert len(lines) == 1 and lines[0].startswith('{"id":')
    assert not list(tmp_path.glob("*.tmp"))


def test_a_missing_folder_is_refused_before_building(tmp_path, capsys, no_build) -> None:
    out = tmp_path / "nowhere" / "logic.jsonl"
    assert build("--out", str(out), "--per-k", "1") == 2
    assert capsys.readouterr().err == (
        f"infoseek build: cannot write {out}: folder {out.parent} does not exist\n")


def test_a_folder_as_out_is_refused(tmp_path, capsys, no_build) -> None:
    assert build("--out", str(tmp_path), "--per-k", "1", "--force") == 2
    assert "is a folder" in capsys.readouterr().err


def test_per_k_above_the_cap_is_refused(tmp_path, capsys, no_build) -> None:
    cap = get_builder("logic-mt")[1].max_per_k
    assert build("--out", str(tmp_path / "x.jsonl"), "--per-k", str(cap + 1)) == 2
    assert capsys.readouterr().err == (
        f"infoseek build: --per-k {cap + 1} is above the cap for logic-mt "
        f"({cap} problems per k)\n")
    assert not (tmp_path / "x.jsonl").exists()


def test_help_states_the_caps(capsys, monkeypatch) -> None:
    monkeypatch.setenv("COLUMNS", "10000")  # argparse wraps hyphenated names (gsme-mt- ext)
    with pytest.raises(SystemExit):
        cli.main(["build", "--help"])
    text = " ".join(capsys.readouterr().out.split())
    for name in builder_names():
        assert f"{get_builder(name)[1].max_per_k} for {name}" in text
    assert "--force" in text
