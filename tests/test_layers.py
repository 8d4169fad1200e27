"""The layering of DESIGN.md, checked over the import graph: imports point inward only.

- `infoseek/` (the core) imports no other layer and no Inspect; its front door,
  `infoseek/cli.py` (the `infoseek` command), may reach across (the inspect_ai entry
  point, `inspect_tasks/_registry.py`, is an ordinary task-layer module).
- `builders/` import the core only, and no Inspect.
- `oracles/` import the core only.
- `solvers/` and `scorers/` import the core and `oracles` (never `builders`).
- `inspect_tasks/` import builders, solvers, scorers and the core.
Every import is read from the source with `ast`, including imports inside functions.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
LAYERS = ("infoseek", "builders", "oracles", "solvers", "scorers", "inspect_tasks")
FRONT_DOORS = {"infoseek/cli.py"}
ALLOWED = {
    "infoseek": {"infoseek"},
    "builders": {"infoseek", "builders"},
    "oracles": {"infoseek", "oracles"},
    "solvers": {"infoseek", "oracles", "solvers"},
    "scorers": {"infoseek", "oracles", "scorers"},
    "inspect_tasks": {"infoseek", "oracles", "builders", "solvers", "scorers", "inspect_tasks"},
}
NO_INSPECT = {"infoseek", "builders", "oracles"}


def modules() -> list[Path]:
    return sorted(p for layer in LAYERS for p in (ROOT / layer).rglob("*.py"))


def imported_tops(path: Path) -> set[str]:
    """The top-level package of every absolute import in a file."""
    tops: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            tops.update(alias.name.split(".")[0] for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            tops.add(node.module.split(".")[0])
    return tops


@pytest.mark.parametrize("path", modules(), ids=lambda p: str(p.relative_to(ROOT)))
def test_imports_point_inward(path: Path) -> None:
    name = str(path.relative_to(ROOT))
    if name in FRONT_DOORS:
        return
    layer = path.relative_to(ROOT).parts[0]
    tops = imported_tops(path)
    crossing = (tops & set(LAYERS)) - ALLOWED[layer]
    assert not crossing, f"{name} imports {sorted(crossing)}"
    if layer in NO_INSPECT:
        assert "inspect_ai" not in tops, f"{name} imports inspect_ai"


def test_the_check_sees_a_crossing(tmp_path: Path) -> None:
    bad = tmp_path / "bad.py"
    bad.write_text("def f():\n    from solvers.seek import seek_solver\n    import inspect_ai\n")
    assert {"solvers", "inspect_ai"} <= imported_tops(bad)
