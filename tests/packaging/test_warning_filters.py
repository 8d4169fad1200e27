"""The pytest warning filters (`pyproject.toml`) silence deprecation warnings raised
inside third-party packages, and only those: a warning attributed to our own code
(`infoseek.*`, the tests) is still shown."""

from __future__ import annotations

import re
import tomllib
import warnings
from pathlib import Path

import pytest

PYPROJECT = Path(__file__).resolve().parents[2] / "pyproject.toml"
OURS = ("infoseek", "infoseek.solvers.seek.solver", "infoseek.builders.cache",
        "tests.support.common",
        "tests.packaging.test_warning_filters", "__main__")
THEIRS = ("inspect_ai.model._retry", "tenacity", "tenacity.wait")


def configured_filters() -> list[str]:
    options = tomllib.loads(PYPROJECT.read_text())["tool"]["pytest"]["ini_options"]
    return options.get("filterwarnings", [])


def ignored_modules() -> list[str]:
    """The module patterns of the `ignore::DeprecationWarning:<module>` entries; any
    other kind of entry fails (a blanket ignore would hide our own warnings)."""
    patterns = []
    for entry in configured_filters():
        action, _message, category, module = (entry.split(":", 4) + [""] * 4)[:4]
        assert action == "ignore" and category == "DeprecationWarning" and module, (
            f"pyproject.toml filterwarnings entry {entry!r}: only "
            "ignore::DeprecationWarning:<third-party module> entries belong here")
        patterns.append(module)
    return patterns


def test_filters_name_third_party_modules_only():
    patterns = ignored_modules()
    assert patterns, "no filterwarnings entries in pyproject.toml"
    for pattern in patterns:
        for module in OURS:
            assert not re.match(pattern, module), f"{pattern!r} would hide {module}'s warnings"
    for module in THEIRS:
        assert any(re.match(pattern, module) for pattern in patterns), module


def test_the_filters_in_effect_drop_theirs_and_keep_ours(request):
    if request.config.getoption("pythonwarnings"):
        pytest.skip("-W options replace the configured filters for this run")
    with warnings.catch_warnings(record=True) as caught:
        for module in (*THEIRS, *OURS):
            warnings.warn_explicit(f"deprecated in {module}", DeprecationWarning,
                                   filename=f"{module}.py", lineno=1, module=module)
    shown = [str(w.message) for w in caught]
    assert shown == [f"deprecated in {module}" for module in OURS]
