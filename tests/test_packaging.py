"""Every Python package of the distribution is listed in pyproject.toml, so a plain
(non-editable) install carries all of it."""

from __future__ import annotations

import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def test_every_package_directory_is_listed():
    listed = set(tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["setuptools"][
        "packages"])
    tops = {name.split(".")[0] for name in listed}
    found = {
        ".".join(init.parent.relative_to(ROOT).parts)
        for top in tops
        for init in (ROOT / top).rglob("__init__.py")
    }
    assert found == listed
