"""The layering of DESIGN.md, checked over the import graph: imports point inward only.

- `infoseek/` (the core) imports no other layer and no Inspect; its front door,
  `infoseek/cli.py` (the `infoseek` command), may reach across (the inspect_ai entry
  point, `inspect_tasks/_registry.py`, is an ordinary task-layer module).
- `builders/` import the core only, and no Inspect.
- `oracles/` import the core only, and no Inspect but in `oracles/roles.py` (the model-backed
  roles call the bound model).
- `solvers/` and `scorers/` import the core and `oracles` (never `builders`).
- `inspect_tasks/` import builders, solvers, scorers and the core.
- Every protocol wing `solvers/<protocol>/` keeps its pure game in `game.py`, which
  imports no Inspect, not even through the modules it imports.
Every import is read from the source with `ast`, including imports inside functions.
"""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
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
# The model-backed roles call the bound model: the one oracle module that talks to Inspect.
INSPECT_ALLOWED = {"oracles/roles.py"}


def modules() -> list[Path]:
    return sorted(p for layer in LAYERS for p in (ROOT / layer).rglob("*.py"))


OUTER = set(LAYERS) - {"infoseek"}


def layer_of(module: str) -> str:
    """The layer an absolute module path belongs to: `infoseek.solvers.seek.solver` is in
    `solvers`, `infoseek.domains` in the core `infoseek`; anything else (`inspect_ai`,
    a bare `solvers` that no longer exists) is named by its top-level package."""
    parts = module.split(".")
    if parts[0] == "infoseek":
        return parts[1] if len(parts) > 1 and parts[1] in OUTER else "infoseek"
    return parts[0]


def imported_tops(path: Path) -> set[str]:
    """The layer (or outside top-level package) of every absolute import in a file."""
    tops: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            tops.update(layer_of(alias.name) for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            if node.module == "infoseek":
                tops.update(layer_of(f"infoseek.{alias.name}") for alias in node.names)
            else:
                tops.add(layer_of(node.module))
    return tops


def bare_layer_imports(path: Path) -> list[str]:
    """Imports of an outer layer by its folder name (`from solvers import ...`): installed,
    the layers exist only as `infoseek.<layer>`."""
    found: list[str] = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        names = ([alias.name for alias in node.names] if isinstance(node, ast.Import)
                 else [node.module] if isinstance(node, ast.ImportFrom) and node.level == 0
                 and node.module else [])
        found.extend(n for n in names if n.split(".")[0] in OUTER)
    return found


@pytest.mark.parametrize("path", modules(), ids=lambda p: str(p.relative_to(ROOT)))
def test_imports_point_inward(path: Path) -> None:
    name = str(path.relative_to(ROOT))
    if name in FRONT_DOORS:
        return
    layer = path.relative_to(ROOT).parts[0]
    tops = imported_tops(path)
    assert not bare_layer_imports(path), f"{name} imports {bare_layer_imports(path)}"
    crossing = (tops & set(LAYERS)) - ALLOWED[layer]
    assert not crossing, f"{name} imports {sorted(crossing)}"
    if layer in NO_INSPECT and name not in INSPECT_ALLOWED:
        assert "inspect_ai" not in tops, f"{name} imports inspect_ai"


def test_the_check_sees_a_crossing(tmp_path: Path) -> None:
    bad = tmp_path / "bad.py"
    bad.write_text("def f():\n    from infoseek.solvers.seek.solver import seek_solver\n"
                   "    from infoseek import scorers\n    import inspect_ai\n")
    assert {"solvers", "scorers", "inspect_ai"} <= imported_tops(bad)


def test_the_check_sees_a_bare_layer_import(tmp_path: Path) -> None:
    bad = tmp_path / "bad.py"
    bad.write_text("import solvers.seek\nfrom scorers import answer\n"
                   "from infoseek import domains\n")
    assert bare_layer_imports(bad) == ["solvers.seek", "scorers"]
    assert imported_tops(bad) == {"solvers", "scorers", "infoseek"}


def every_python_file() -> list[Path]:
    skip = {".git", "build", "dist", ".venv"}
    return sorted(p for p in ROOT.rglob("*.py")
                  if not skip & set(p.relative_to(ROOT).parts[:1]))


def test_no_file_imports_a_layer_by_its_folder_name() -> None:
    offenders = {str(p.relative_to(ROOT)): bare_layer_imports(p) for p in every_python_file()}
    assert not {name: found for name, found in offenders.items() if found}


def protocol_wings() -> list[Path]:
    """The protocol wings: the folders of `solvers/` that hold a solver (`reference/`
    holds the reference models, no protocol)."""
    return sorted(p for p in (ROOT / "solvers").iterdir() if (p / "solver.py").is_file())


def test_the_wings_are_found() -> None:
    assert {"seek", "problem_level", "single_turn", "incomplete"} <= {
        wing.name for wing in protocol_wings()}


@pytest.mark.parametrize("wing", protocol_wings(), ids=lambda p: p.name)
def test_every_protocol_wing_has_a_game_without_inspect(wing: Path) -> None:
    game = wing / "game.py"
    assert game.is_file(), f"solvers/{wing.name}/ has no game.py (its pure game)"
    assert "inspect_ai" not in imported_tops(game), f"solvers/{wing.name}/game.py: Inspect"


def test_no_game_pulls_in_inspect() -> None:
    """Imported in a fresh interpreter, the games leave `inspect_ai` unloaded: none of the
    modules they import reaches Inspect either."""
    modules = [f"infoseek.solvers.{wing.name}.game" for wing in protocol_wings()]
    code = (f"import importlib, sys\nfor m in {modules!r}:\n    importlib.import_module(m)\n"
            "print(sorted(m for m in sys.modules if m.split('.')[0] == 'inspect_ai'))")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          check=True, cwd=ROOT)
    assert done.stdout.strip() == "[]"
