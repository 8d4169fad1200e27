"""Shared test fixtures."""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path

import pytest
from hypothesis import settings

from tests.support.common import forbid_tokenizer
from tests.support.quick_tier import is_quick

ROOT = Path(__file__).resolve().parents[1]

# Under CI the property tests draw the same examples every run: a red build is then
# always reproducible, never a chance draw. Locally they explore new examples each run.
settings.register_profile("ci", derandomize=True)
if os.environ.get("CI"):
    settings.load_profile("ci")


@pytest.fixture(scope="session", autouse=True)
def infoseek_cache_dir(tmp_path_factory: pytest.TempPathFactory):
    """Build datasets into a throwaway cache, never into ~/.cache/infoseek."""
    path = tmp_path_factory.mktemp("infoseek-cache")
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("INFOSEEK_CACHE_DIR", str(path))
        yield path


@pytest.fixture
def no_tokenizer() -> Iterator[None]:
    """Fail the test if Inspect reaches for a tokenizer (an output without usage).

    Modules whose scripted outputs all carry usage request it with
    `pytestmark = pytest.mark.usefixtures("no_tokenizer")`."""
    with forbid_tokenizer():
        yield


@pytest.hookimpl(tryfirst=True)
def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Mark the tests of the quick tier (`tests.support.quick_tier`) `quick`, before
    `-m quick` selects by marker."""
    for item in items:
        try:
            path = item.path.resolve().relative_to(ROOT).as_posix()
        except ValueError:
            continue
        name = getattr(item, "originalname", None) or item.name.split("[")[0]
        if is_quick(path, name):
            item.add_marker(pytest.mark.quick)
