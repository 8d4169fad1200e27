"""Every Python package of the distribution is listed in pyproject.toml, and every data
file in a package (the story templates' TOML files, ...) matches its package-data patterns,
so a plain (non-editable) install carries all of it."""

from __future__ import annotations

import fnmatch
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def _setuptools() -> dict:
    return tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["setuptools"]


def test_every_package_directory_is_listed():
    listed = set(_setuptools()["packages"])
    tops = {name.split(".")[0] for name in listed}
    found = {
        ".".join(init.parent.relative_to(ROOT).parts)
        for top in tops
        for init in (ROOT / top).rglob("__init__.py")
    }
    assert found == listed


def test_every_data_file_in_a_package_is_package_data():
    setuptools = _setuptools()
    patterns = setuptools["package-data"]
    data_files = []
    for package in setuptools["packages"]:
        folder = ROOT.joinpath(*package.split("."))
        for path in folder.iterdir():
            if path.is_file() and path.suffix not in {".py", ".pyc"} \
                    and not path.name.startswith("."):
                data_files.append(path)
                wanted = patterns.get(package, []) + patterns.get("*", [])
                assert any(fnmatch.fnmatch(path.name, p) for p in wanted), path
    assert ROOT / "builders" / "math" / "templates" / "money.toml" in data_files
