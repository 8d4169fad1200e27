"""Shared test fixtures."""

from __future__ import annotations

import pytest


@pytest.fixture(scope="session", autouse=True)
def infoseek_cache_dir(tmp_path_factory: pytest.TempPathFactory):
    """Build datasets into a throwaway cache, never into ~/.cache/infoseek."""
    path = tmp_path_factory.mktemp("infoseek-cache")
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("INFOSEEK_CACHE_DIR", str(path))
        yield path
