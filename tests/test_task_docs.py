"""Every `@task` documents its `-T` parameters in an `Args:` section of its docstring.

Inspect users read `inspect info` and the docstring, not the README table, so each task's
docstring names exactly its parameters (none missing, none extra), and a default it
states (`default 10`) is the signature's default.
"""

from __future__ import annotations

import ast
import inspect
import re
from pathlib import Path
from typing import Any

import pytest

from infoseek.inspect_tasks._registry import PACKAGED_TASKS

TASK_DIR = Path(__file__).resolve().parents[1] / "inspect_tasks"
ENTRY = re.compile(r"^(\w+):\s*(.*)$")


def documented_args(doc: str | None) -> dict[str, str]:
    """The `Args:` entries of `doc` (name -> text, continuation lines joined); {} when
    there is no `Args:` section."""
    lines = inspect.cleandoc(doc or "").splitlines()
    try:
        start = lines.index("Args:") + 1
    except ValueError:
        return {}
    entries: dict[str, str] = {}
    current: str | None = None
    entry_indent = 0
    for line in lines[start:]:
        if not line.strip():
            break
        indent = len(line) - len(line.lstrip())
        if indent == 0:  # the next section
            break
        match = ENTRY.match(line.strip())
        if match and (current is None or indent <= entry_indent):
            current, entry_indent = match.group(1), indent
            entries[current] = match.group(2)
        elif current is not None:
            entries[current] += " " + line.strip()
    return entries


def task_functions_in_files() -> dict[str, ast.FunctionDef]:
    """The functions decorated with `@task` in inspect_tasks/*.py, read with `ast`."""
    found: dict[str, ast.FunctionDef] = {}
    for path in sorted(TASK_DIR.glob("*.py")):
        for node in ast.parse(path.read_text()).body:
            if isinstance(node, ast.FunctionDef) and any(
                    (isinstance(d, ast.Name) and d.id == "task")
                    or (isinstance(d, ast.Call) and getattr(d.func, "id", None) == "task")
                    for d in node.decorator_list):
                found[node.name] = node
    return found


def yaml_text(value: Any) -> str:
    """A default as a `-T` value is written (`true`, `[1,2,3,4]`, `10`)."""
    if isinstance(value, bool):
        return str(value).lower()
    if isinstance(value, list):
        return "[" + ",".join(yaml_text(v) for v in value) + "]"
    return str(value)


def test_every_task_file_function_is_registered():
    assert set(task_functions_in_files()) == set(PACKAGED_TASKS)


@pytest.mark.parametrize("name", sorted(task_functions_in_files()))
def test_args_section_names_exactly_the_parameters(name):
    node = task_functions_in_files()[name]
    params = [a.arg for a in node.args.args + node.args.kwonlyargs]
    documented = documented_args(ast.get_docstring(node))
    assert documented, f"{name}: no Args: section"
    assert list(documented) == params, f"{name}: Args: {list(documented)} vs {params}"
    assert all(text.strip() for text in documented.values()), f"{name}: empty entry"


@pytest.mark.parametrize("name", sorted(PACKAGED_TASKS))
def test_registered_task_docstring_and_defaults(name):
    factory = PACKAGED_TASKS[name]
    signature = inspect.signature(factory)
    documented = documented_args(inspect.getdoc(factory))
    assert set(documented) == set(signature.parameters)
    for param in signature.parameters.values():
        stated = re.search(r"\bdefault ([^\s;:,)]+(?:,[^\s;:,)]+)*)", documented[param.name])
        if stated and param.default is not None:
            assert stated.group(1).rstrip(".") == yaml_text(param.default), (
                f"{name}.{param.name}: docstring says default {stated.group(1)}, "
                f"signature has {param.default!r}")


def test_documented_args_catches_missing_and_extra_entries():
    doc = """Summary.

    Args:
        k: degrees (1..4;
            default [1,2,3,4]).
        seed: builder seed.

    Returns:
        nothing.
    """
    assert documented_args(doc) == {"k": "degrees (1..4; default [1,2,3,4]).",
                                    "seed": "builder seed."}
    assert documented_args("One line, no Args.") == {}
