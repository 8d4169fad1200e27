"""The `infoseek` command never replaces what is not its to replace (issue 18, classes
11, 12 and 19): an output that exists and is not a regular file (a FIFO, a device,
through a symlink too) is refused with or without --force; `verify --write-corrected`
keeps an existing file unless --force and never writes over its own input (the same
path, a symlink to it, a hard link to it) nor its result files; `build --k 1 1` is
refused. Nothing here writes to a real device: the devices are reached through symlinks
in a temporary folder, so a refusal that failed would replace the link, not the device."""

from __future__ import annotations

import os
import stat
from pathlib import Path

import pytest

from infoseek import cli
from infoseek.builders.logic import logic_mt
from infoseek.domains import get_builder
from tests.support import FIXTURES

FIXTURES = FIXTURES / "published"
RELEASED = FIXTURES / "mt_infoseek_genereg.jsonl"
RULES = FIXTURES / "genereg_rules"
FORMAT = "mt-infoseek-genereg"


@pytest.fixture
def no_build(monkeypatch):
    get_builder("logic-mt")  # the domain holds the builder it read on loading: load it first

    def refuse(*args, **kwargs):
        raise AssertionError("built before the arguments were checked")

    monkeypatch.setattr(logic_mt, "build_split", refuse)


def build(*args: str) -> int:
    return cli.main(["build", "logic-mt", "--quiet", "--per-k", "1", *args])


def verify(tmp_path: Path, source: Path, *args: str) -> int:
    return cli.main(["verify", str(source), "--source-format", FORMAT, "--rules", str(RULES),
                     "--out", str(tmp_path / "v"), "--workers", "1", "--quiet", *args])


@pytest.mark.parametrize("force", [[], ["--force"]], ids=["plain", "force"])
def test_build_refuses_a_fifo(tmp_path, capsys, no_build, force) -> None:
    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)
    assert build("--k", "1", "--out", str(fifo), *force) == 2
    assert stat.S_ISFIFO(fifo.stat().st_mode)
    assert capsys.readouterr().err == (
        f"infoseek build: {fifo} is a FIFO, not a regular file; --out names a file to "
        "write (refused even with --force)\n")


@pytest.mark.parametrize("device", ["/dev/null", "/dev/full", "/dev/zero"])
def test_build_refuses_a_device_behind_a_symlink(tmp_path, capsys, no_build, device) -> None:
    if not Path(device).exists():
        pytest.skip(f"no {device} here")
    link = tmp_path / "out.jsonl"
    link.symlink_to(device)
    assert build("--k", "1", "--out", str(link), "--force") == 2
    assert link.is_symlink() and stat.S_ISCHR(link.stat().st_mode)
    assert "is a character device, not a regular file" in capsys.readouterr().err


def test_build_refuses_a_repeated_k(tmp_path, capsys, no_build) -> None:
    out = tmp_path / "x.jsonl"
    assert build("--k", "1", "2", "1", "--out", str(out)) == 2
    assert capsys.readouterr().err == (
        "infoseek build: --k 1 is given more than once (each k is built once; the records "
        "would repeat)\n")
    assert not out.exists()


def test_build_with_distinct_ks_still_writes(tmp_path) -> None:
    out = tmp_path / "x.jsonl"
    assert build("--k", "2", "1", "--out", str(out)) == 0
    assert len(out.read_text(encoding="utf-8").splitlines()) == 2


def test_write_corrected_keeps_an_existing_file_without_force(tmp_path, capsys) -> None:
    corrected = tmp_path / "corrected.jsonl"
    corrected.write_text("mine\n", encoding="utf-8")
    assert verify(tmp_path, RELEASED, "--write-corrected", str(corrected)) == 2
    assert corrected.read_text(encoding="utf-8") == "mine\n"
    assert capsys.readouterr().err == (
        f"infoseek verify: {corrected} exists; pass --force to overwrite it\n")
    assert not (tmp_path / "v").exists()  # refused before verifying anything
    assert verify(tmp_path, RELEASED, "--write-corrected", str(corrected), "--force") == 0
    assert corrected.read_text(encoding="utf-8").startswith("{")


def copy_of_release(tmp_path: Path) -> tuple[Path, bytes]:
    source = tmp_path / "released.jsonl"
    data = RELEASED.read_bytes()
    source.write_bytes(data)
    return source, data


@pytest.mark.parametrize("how", ["same path", "other spelling", "symlink", "hard link"])
def test_write_corrected_never_writes_over_its_input(tmp_path, capsys, how) -> None:
    source, data = copy_of_release(tmp_path)
    target = tmp_path / "alias.jsonl"
    if how == "same path":
        target = source
    elif how == "other spelling":
        (tmp_path / "v").mkdir()
        target = tmp_path / "v" / ".." / source.name
    elif how == "symlink":
        target.symlink_to(source)
    else:
        os.link(source, target)
    assert verify(tmp_path, source, "--write-corrected", str(target), "--force") == 2
    assert source.read_bytes() == data
    err = capsys.readouterr().err
    assert err.startswith(f"infoseek verify: {target} is the input file {source}") and (
        err.count("\n") == 1)


def test_write_corrected_never_writes_over_the_results(tmp_path, capsys) -> None:
    target = tmp_path / "v" / "summary.json"
    assert verify(tmp_path, RELEASED, "--write-corrected", str(target), "--force") == 2
    assert "is the input file" in capsys.readouterr().err and not target.exists()


def test_write_corrected_refuses_a_fifo(tmp_path, capsys) -> None:
    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)
    assert verify(tmp_path, RELEASED, "--write-corrected", str(fifo), "--force") == 2
    assert stat.S_ISFIFO(fifo.stat().st_mode)
    assert "is a FIFO, not a regular file" in capsys.readouterr().err


def test_verify_refuses_a_file_as_its_out_folder(tmp_path, capsys) -> None:
    taken = tmp_path / "v"
    taken.write_text("mine\n", encoding="utf-8")
    assert verify(tmp_path, RELEASED) == 2
    assert taken.read_text(encoding="utf-8") == "mine\n"
    assert capsys.readouterr().err == (
        f"infoseek verify: --out {taken} is not a folder; --out names the folder of "
        "results\n")


def test_verify_refuses_a_fifo_among_its_results(tmp_path, capsys) -> None:
    (tmp_path / "v").mkdir()
    os.mkfifo(tmp_path / "v" / "disagreements.jsonl")
    assert verify(tmp_path, RELEASED) == 2
    assert "disagreements.jsonl is a FIFO, not a regular file" in capsys.readouterr().err
