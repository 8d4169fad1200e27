"""The quick tier (`python -m pytest -m quick`, `tests.support.quick_tier`): every test it
names exists, it reaches every layer, it holds no slow test, and the marker selects it."""

from __future__ import annotations

import ast
from pathlib import Path

from tests.support.quick_tier import LAYERS, QUICK_TESTS, is_quick

ROOT = Path(__file__).resolve().parents[2]


def _functions(path: Path) -> dict[str, ast.FunctionDef]:
    tree = ast.parse(path.read_text())
    return {node.name: node for node in tree.body
            if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef)
            and node.name.startswith("test_")}


def _slow(node: ast.FunctionDef) -> bool:
    return any("slow" in ast.unparse(d) for d in node.decorator_list)


def test_every_name_of_the_tier_is_a_test_that_exists_and_is_not_slow() -> None:
    for file, names in QUICK_TESTS.items():
        path = ROOT / file
        assert path.is_file(), f"{file}: no such test file (update tests/support/quick_tier.py)"
        functions = _functions(path)
        missing = [n for n in names if n not in functions]
        assert not missing, f"{file}: no test named {', '.join(missing)}"
        module_slow = any(
            isinstance(node, ast.Assign) and "pytestmark" in ast.unparse(node.targets[0])
            and "slow" in ast.unparse(node.value) for node in ast.parse(path.read_text()).body)
        chosen = [functions[n] for n in names] if names else list(functions.values())
        assert not module_slow and not any(map(_slow, chosen)), f"{file}: a slow test"


def test_the_tier_reaches_every_layer() -> None:
    reached = {file.split("/")[1] for file in QUICK_TESTS}
    assert set(LAYERS) <= reached, sorted(set(LAYERS) - reached)
    folders = {p.name for p in (ROOT / "tests").iterdir()
               if p.is_dir() and any(p.glob("test_*.py"))}
    assert set(LAYERS) <= folders


def test_is_quick_reads_the_table() -> None:
    assert is_quick("tests/core/test_domain_registry.py", "test_anything")  # whole file
    assert is_quick("tests/solvers/test_bad_outputs.py", "test_unknown_variable")
    assert not is_quick("tests/solvers/test_bad_outputs.py", "test_huge_text")
    assert not is_quick("tests/report/test_report.py", "test_anything")
