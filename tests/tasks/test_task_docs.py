"""Every `@task` documents its `-T` parameters in an `Args:` section of its docstring,
and in a parameter table of its family's page under docs/tasks/.

Inspect users read `inspect info` and the docstring, so each task's docstring names
exactly its parameters (none missing, none extra), and a default it states (`default 10`)
is the signature's default. Newcomers follow the README's table of task families to a
page of docs/tasks/: every registered task has a column in one parameter table of those
pages (`| parameter | <tasks> ... | meaning |`), whose rows are exactly the task's
parameters with their defaults.
"""

from __future__ import annotations

import ast
import inspect
import re
import sys
from pathlib import Path
from typing import Any

import pytest

from infoseek.inspect_tasks._registry import PACKAGED_TASKS

ROOT = Path(__file__).resolve().parents[2]
TASK_DIR = ROOT / "inspect_tasks"
TASK_DOCS = ROOT / "docs" / "tasks"
"""The task family pages, each holding the parameter tables of its tasks."""
ENTRY = re.compile(r"^(\w+):\s*(.*)$")
NOT_TAKEN = "—"
"""A parameter table cell saying that a task does not take the row's parameter."""


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


def table_cells(line: str) -> list[str]:
    """The cells of one Markdown table row (`\\|` inside a cell is not a separator)."""
    return [cell.strip() for cell in re.split(r"(?<!\\)\|", line.strip().strip("|"))]


def parameter_tables(text: str, source: str = "text") -> dict[str, dict[str, str]]:
    """Task name -> {parameter: its default cell}, read from every table whose header is
    `| parameter | <tasks> | ... | meaning |`: each middle header cell names one or more
    tasks in backticks, and its cell in a row holds the default (`` `10` ``, or words such
    as `none` for no value) or `NOT_TAKEN` where those tasks lack the parameter. A task
    named in two columns, a row without a meaning or a parameter name not in backticks
    raises AssertionError naming it (and `source`, the file the text comes from)."""
    lines = text.splitlines()
    tables: dict[str, dict[str, str]] = {}
    for index, line in enumerate(lines):
        header = table_cells(line) if line.startswith("|") else []
        if len(header) < 3 or header[0] != "parameter" or header[-1] != "meaning":
            continue
        columns = [re.findall(r"`(\w+)`", cell) for cell in header[1:-1]]
        for names in columns:
            assert names, f"{source} line {index + 1}: a column header names no task in backticks"
            for name in names:
                assert name not in tables, f"{source}: task {name!r} has two parameter tables"
                tables[name] = {}
        for offset, row in enumerate(lines[index + 2:], index + 3):
            if not row.startswith("|"):
                break
            cells = table_cells(row)
            assert len(cells) == len(header), f"{source} line {offset}: {len(cells)} cells"
            parameter = re.fullmatch(r"`(\w+)`", cells[0])
            assert parameter, f"{source} line {offset}: parameter {cells[0]!r} not in backticks"
            assert cells[-1], f"{source} line {offset}: {cells[0]} has no meaning"
            for names, cell in zip(columns, cells[1:-1], strict=True):
                if cell != NOT_TAKEN:
                    for name in names:
                        tables[name][parameter.group(1)] = cell
    return tables


def documented_parameter_tables() -> dict[str, dict[str, str]]:
    """`parameter_tables` of every page of docs/tasks/, merged: a task with tables on two
    pages raises AssertionError naming both."""
    tables: dict[str, dict[str, str]] = {}
    where: dict[str, str] = {}
    pages = sorted(TASK_DOCS.glob("*.md"))
    assert pages, f"no task pages in {TASK_DOCS}"
    for page in pages:
        source = str(page.relative_to(ROOT))
        for name, table in parameter_tables(page.read_text(encoding="utf-8"), source).items():
            assert name not in tables, (
                f"task {name!r} has parameter tables in {where[name]} and {source}")
            tables[name], where[name] = table, source
    return tables


def default_cell_matches(cell: str, default: Any) -> bool:
    """Whether a documented default cell states `default`: the value in backticks as a `-T`
    value is written (`` `[1,2,3,4]` ``, `` `false` ``), or words (`none`, `detected`)
    for a parameter without a default value."""
    if default is None:
        return not cell.startswith("`")
    return cell.startswith(f"`{yaml_text(default)}`")


@pytest.mark.parametrize("name", sorted(PACKAGED_TASKS))
def test_task_page_table_lists_exactly_the_task_parameters_and_defaults(name):
    parameters = inspect.signature(PACKAGED_TASKS[name]).parameters
    tables = documented_parameter_tables()
    assert name in tables, (
        f"docs/tasks/ has no parameter table column for the task {name!r}: add a column "
        f"headed `{name}` to a `| parameter | ... | meaning |` table of its family's page "
        f"(or a table of its own) with a row for each of its parameters: "
        f"{', '.join(parameters)}")
    documented = tables[name]
    missing = [p for p in parameters if p not in documented]
    extra = [p for p in documented if p not in parameters]
    assert not missing and not extra, (
        f"docs/tasks/ table column of {name!r}: missing {missing}, not parameters of the "
        f"task {extra} (write {NOT_TAKEN} in a row the task does not take)")
    for parameter in parameters.values():
        cell = documented[parameter.name]
        assert default_cell_matches(cell, parameter.default), (
            f"docs/tasks/ table column of {name!r}: {parameter.name} default {cell!r}, the "
            f"signature has {parameter.default!r}")


def test_task_page_tables_name_only_registered_tasks():
    documented = documented_parameter_tables()
    assert sorted(set(documented) - set(PACKAGED_TASKS)) == []


def test_readme_links_every_task_page_with_a_parameter_table():
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    for page in sorted(TASK_DOCS.glob("*.md")):
        if parameter_tables(page.read_text(encoding="utf-8"), page.name):
            assert f"](docs/tasks/{page.name})" in readme, (
                f"README.md's table of task families links no docs/tasks/{page.name}")


def test_documented_tables_refuse_a_task_on_two_pages(tmp_path, monkeypatch):
    table = "| parameter | `a` | meaning |\n|---|---|---|\n| `k` | `1` | degrees |\n"
    (tmp_path / "one.md").write_text(table)
    monkeypatch.setattr(sys.modules[__name__], "TASK_DOCS", tmp_path)
    monkeypatch.setattr(sys.modules[__name__], "ROOT", tmp_path)
    assert documented_parameter_tables() == {"a": {"k": "`1`"}}
    (tmp_path / "two.md").write_text(table)
    with pytest.raises(AssertionError, match="one.md and two.md"):
        documented_parameter_tables()


def test_table_reader_reads_columns_defaults_and_absent_cells():
    text = """Intro.

| parameter | `a` | `b`, `c` | meaning |
|---|---|---|---|
| `k` | `[1,2]` | `[1,2]` | degrees |
| `flag` | `false` | — | a flag |
| `source` | none | none | a file |

| parameter | default | meaning |
|---|---|---|
"""
    with pytest.raises(AssertionError, match="names no task"):
        parameter_tables(text)
    tables = parameter_tables(text.split("\n\n| parameter | default")[0])
    assert tables == {"a": {"k": "`[1,2]`", "flag": "`false`", "source": "none"},
                      "b": {"k": "`[1,2]`", "source": "none"},
                      "c": {"k": "`[1,2]`", "source": "none"}}
    assert default_cell_matches("`false` (a note)", False)
    assert not default_cell_matches("`true`", False)
    assert not default_cell_matches("`10`", None)
    assert default_cell_matches("none", None)
    twice = "| parameter | `a` | `a` | meaning |\n|---|---|---|---|\n"
    with pytest.raises(AssertionError, match="two parameter tables"):
        parameter_tables(twice)


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
