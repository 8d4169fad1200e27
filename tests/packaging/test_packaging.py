"""Every Python package of the distribution is listed in pyproject.toml, and every data
file in a package (the story templates' TOML files, ...) matches its package-data patterns,
so a plain (non-editable) install carries all of it (tests/packaging/test_wheel_install.py installs
the built wheel). Private Inspect names are imported in one module only, and the licence
is declared where installers read it."""

from __future__ import annotations

import fnmatch
import re
import subprocess
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def setuptools_table() -> dict:
    return tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["setuptools"]


def package_folder(package: str) -> Path:
    """The folder a package is installed from: the longest `package-dir` entry that is a
    prefix of the package (`infoseek.solvers` -> solvers/, `infoseek.answers` ->
    infoseek/answers/)."""
    mapping = setuptools_table()["package-dir"]
    parts = package.split(".")
    for cut in range(len(parts), 0, -1):
        head = ".".join(parts[:cut])
        if head in mapping:
            return ROOT / mapping[head] / Path(*parts[cut:])
    raise AssertionError(f"{package} is under no package-dir entry")


def test_one_top_level_package_mapped_onto_the_layer_folders():
    mapping = setuptools_table()["package-dir"]
    assert {name.split(".")[0] for name in setuptools_table()["packages"]} == {"infoseek"}
    assert mapping == {"infoseek": "infoseek", "infoseek.builders": "builders",
                       "infoseek.oracles": "oracles", "infoseek.solvers": "solvers",
                       "infoseek.scorers": "scorers", "infoseek.inspect_tasks": "inspect_tasks"}


def test_every_package_directory_is_listed():
    listed = set(setuptools_table()["packages"])
    found = set()
    for top, folder in setuptools_table()["package-dir"].items():
        for init in (ROOT / folder).rglob("__init__.py"):
            inner = init.parent.relative_to(ROOT / folder).parts
            if top == "infoseek" and inner and inner[0] in {"builders", "oracles", "solvers",
                                                             "scorers", "inspect_tasks"}:
                continue
            found.add(".".join((top, *inner)))
    assert found == listed
    assert all(package_folder(name).joinpath("__init__.py").is_file() for name in listed)


def test_every_data_file_in_a_package_is_package_data():
    setuptools = setuptools_table()
    patterns = setuptools["package-data"]
    data_files = []
    for package in setuptools["packages"]:
        folder = package_folder(package)
        for path in folder.iterdir():
            if path.is_file() and path.suffix not in {".py", ".pyc"} \
                    and not path.name.startswith("."):
                data_files.append(path)
                wanted = patterns.get(package, []) + patterns.get("*", [])
                assert any(fnmatch.fnmatch(path.name, p) for p in wanted), path
    assert ROOT / "builders" / "math" / "templates" / "money.toml" in data_files


PRIVATE_INSPECT = re.compile(r"inspect_ai\._")
PRIVATE_MODULE = Path("inspect_tasks/inspect_private.py")


def python_files() -> list[Path]:
    """Every .py file of a clean clone of the working tree: tracked, plus new files git
    does not ignore (relative to the root)."""
    listed = subprocess.run(["git", "ls-files", "-z", "--cached", "--others",
                             "--exclude-standard", "--", "*.py"], cwd=ROOT,
                            capture_output=True, check=True).stdout.decode().split("\0")
    return [Path(name) for name in listed if name and (ROOT / name).is_file()]


def test_private_inspect_names_only_in_one_module():
    files = python_files()
    assert PRIVATE_MODULE in files and Path("tests/packaging/test_packaging.py") in files
    users = sorted(str(path) for path in files
                   if PRIVATE_INSPECT.search((ROOT / path).read_text(encoding="utf-8")))
    assert users == [str(PRIVATE_MODULE)]


def test_the_licence_is_declared():
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    assert project["license"] == "MIT" and project["license-files"] == ["LICENSE"]
    text = (ROOT / "LICENSE").read_text()
    assert text.startswith("MIT License\n") and "Copyright (c) 2026 the infoseek authors" in text
