"""The recipes of docs/architecture.md ("Adding a domain / a protocol / an oracle policy /
a seek metric") against the code: each recipe's numbered touch points are counted where
the code really needs them, so a recipe that grows or shrinks without the code (or the
other way round) fails here."""

from __future__ import annotations

import ast
import inspect
import re
from pathlib import Path

import pytest

from infoseek.oracles import policies
from infoseek.oracles.policies import Oracle, Policy, check_policy
from infoseek.records import engine_from_record
from infoseek.scorers import seek_metrics
from infoseek.solvers.reference import strategy as reference_strategy
from tests.support import toy_domain as toy

ROOT = Path(__file__).resolve().parents[2]
ARCHITECTURE = ROOT / "docs" / "architecture.md"
PROTOCOLS = ROOT / "docs" / "protocols.md"


def recipe_steps(title: str, text: str | None = None) -> list[str]:
    """The numbered steps (their first lines) under the heading `### <title>`."""
    text = ARCHITECTURE.read_text(encoding="utf-8") if text is None else text
    match = re.search(rf"^### {re.escape(title)}\n(.*?)(?=^#)", text + "\n#", re.M | re.S)
    assert match, f"docs/architecture.md has no section '### {title}'"
    return re.findall(r"^\d+\. (.*)$", match.group(1), re.M)


def registration_calls(function) -> list[str]:
    """The names of the `register_*` calls in a function's body."""
    tree = ast.parse(inspect.getsource(function))
    return [node.func.id for node in ast.walk(tree)
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Name)
            and node.func.id.startswith("register_")]


def test_recipe_reader_counts_steps_and_refuses_a_missing_section():
    text = "### Adding x\n\nIntro.\n\n1. **a** one\n2. **b** two\n   more\n\n## Next\n"
    assert recipe_steps("Adding x", text) == ["**a** one", "**b** two"]
    with pytest.raises(AssertionError, match="no section"):
        recipe_steps("Adding y", text)


def test_domain_recipe_matches_the_toy_domain():
    """The toy domain joins with one registration per registry (engine, domain) and its
    task file: the recipe's three steps, each naming the call the toy makes."""
    steps = recipe_steps("Adding a domain")
    calls = registration_calls(toy.register)
    assert calls == ["register_engine", "register_domain"]
    assert len(steps) == len(calls) + 1  # + the task file, which nothing lists
    assert "register_engine" in steps[0] or "Engine" in steps[0]
    text = ARCHITECTURE.read_text(encoding="utf-8")
    assert "register_engine" in text and "infoseek.domains" in text


def test_protocol_recipe_matches_every_built_in_protocol():
    """Four touch points: the wing, the scorer module, the report, the strategy."""
    assert len(recipe_steps("Adding a protocol")) == 4
    wings = sorted(p.name for p in (ROOT / "solvers").iterdir()
                   if p.is_dir() and (p / "solver.py").exists())
    assert wings == ["incomplete", "problem_level", "seek", "single_turn", "twenty_questions"]
    for wing in wings:
        assert (ROOT / "solvers" / wing / "strategy.py").exists(), wing
        scorer = {"problem_level": "problem_level"}.get(wing, wing)
        assert (ROOT / "scorers" / f"{scorer}.py").exists(), wing
    source = inspect.getsource(reference_strategy)
    for protocol in ("seek", "k_prediction", "mss_identification", "incomplete",
                     "twenty_questions"):
        assert f'register_strategy("{protocol}"' in source, protocol


def test_oracle_recipe_one_table_entry_is_a_working_policy(monkeypatch):
    """A new policy is one `POLICIES` entry: the name check, `ORACLE_POLICIES` of a fresh
    read and the Oracle itself accept it with nothing else edited."""
    assert len(recipe_steps("Adding an oracle policy")) == 2
    monkeypatch.setitem(policies.POLICIES, "last_listed",
                        Policy(lambda oracle, var, options: options[-1]))
    assert check_policy("last_listed") == "last_listed"
    record = toy.build_split(0, 1, [2])[0]
    toy.register()
    try:
        engine = engine_from_record(record)
        hidden = sorted(engine.target_values(), key=repr)[0]
        oracle = Oracle(engine, hidden, policy="last_listed")
        asked = record["queryable"][0]
        assert oracle.reply(asked) == oracle.consistent_values(asked)[-1]
    finally:
        toy.unregister()
    with pytest.raises(ValueError, match="unknown oracle policy"):
        check_policy("nobody")


def test_oracle_recipe_docs_define_every_policy():
    section = re.search(r"^## 2\..*?(?=^## 3\.)", PROTOCOLS.read_text(encoding="utf-8"),
                        re.M | re.S)
    assert section
    for name in policies.POLICIES:
        assert name in section.group(0), f"protocols §2 does not define the {name} oracle"


def test_metric_recipe_every_seek_metric_has_its_places():
    """Each seek metric stands in `SCALAR_METRIC_NAMES`, in exactly one scorer group, and
    in protocols §4 or the task pages: the recipe's first three steps (the fourth, the
    version bump, is held by tests/tasks/test_eval_version.py)."""
    assert len(recipe_steps("Adding a seek metric")) == 4
    grouped = [name for names in seek_metrics.SEEK_SCORE_GROUPS.values() for name in names]
    assert sorted(grouped) == sorted(seek_metrics.SCALAR_METRIC_NAMES)
    assert len(grouped) == len(set(grouped))
    docs = PROTOCOLS.read_text(encoding="utf-8") + "".join(
        p.read_text(encoding="utf-8") for p in (ROOT / "docs" / "tasks").glob("*.md"))
    for name in seek_metrics.SCALAR_METRIC_NAMES:
        if name.startswith("invalid_") and name != "invalid_total":
            continue  # one count per invalid reason, documented with the reasons
        assert name in docs, f"{name} is not defined in docs/protocols.md or docs/tasks/"
