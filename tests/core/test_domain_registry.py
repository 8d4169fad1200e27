"""The domain registry (`infoseek.domains`): lookups, errors, and that the built-in
declarations agree with what they point at."""

from __future__ import annotations

from dataclasses import fields

import pytest

from infoseek import domains
from infoseek.builders.datasets import domain_records
from infoseek.builders.published import get_source_format
from infoseek.contract import ANSWER_KINDS
from infoseek.domains import (
    BuilderSpec,
    Domain,
    UnknownDomain,
    get_builder,
    get_domain,
    register_domain,
    unregister_domain,
)

LOGIC = get_domain("logic")


def test_unknown_names_list_what_is_registered() -> None:
    with pytest.raises(UnknownDomain, match="registered: clinguide, genereg, logic, math"):
        get_domain("chess")
    with pytest.raises(UnknownDomain, match="logic-mt"):
        get_builder("chess-mt")
    with pytest.raises(KeyError, match="has no renderer 'words'; it has seek"):
        LOGIC.renderer("words")


def test_a_taken_name_is_refused_and_a_declaration_must_be_a_domain() -> None:
    with pytest.raises(ValueError, match="already registered"):
        register_domain("logic", Domain(name="logic", answer_kind="boolean",
                                        wording=LOGIC.wording))
    register_domain("logic", "infoseek.builders.logic.domain:DOMAIN")  # the same again is fine
    with pytest.raises(ValueError, match="answer kind 'colour'"):
        Domain(name="x", answer_kind="colour", wording=LOGIC.wording)
    register_domain("wrong", "infoseek.builders.logic.domain:DOMAIN")
    try:
        with pytest.raises(ValueError, match="not a Domain named 'wrong'"):
            get_domain("wrong")
    finally:
        unregister_domain("wrong")
    with pytest.raises(ValueError, match="'module:attribute'"):
        register_domain("nothing", "no path")


def test_a_registered_domain_is_seen_by_every_lookup() -> None:
    spec = BuilderSpec(name="echo-mt", build=lambda seed, per_k, ks, **_: [], version="1",
                       max_k=2, default_per_k=3, max_per_k=10)
    register_domain("echo", Domain(name="echo", answer_kind="choice", wording=LOGIC.wording,
                                   builders=(spec,), source_formats={"echo-csv": "x:y"}))
    try:
        assert "echo-mt" in domains.builder_names()
        assert get_builder("echo-mt") == (get_domain("echo"), spec)
        assert domains.source_format_home("echo-csv") == ("echo", "x:y")
        assert "echo-csv" in domains.source_format_names()
        assert domains.source_format_names("echo") == ("echo-csv",)
        assert spec.ks == (1, 2)
    finally:
        unregister_domain("echo")
    assert "echo-mt" not in domains.builder_names()


@pytest.mark.parametrize("name", ["logic", "math"])
def test_built_in_declarations_agree_with_their_parts(name) -> None:
    domain = get_domain(name)
    assert domain.answer_kind in ANSWER_KINDS
    for source_format_name in domain.source_formats:
        assert get_source_format(source_format_name).domain == name
    for spec in domain.builders:
        [record] = domain_records(spec.name, ks=[1], per_k=1, seed=0)
        assert record["domain"] == name and record["k"] == 1
        for variant in domain.renderers:
            text = domain.renderer(variant)(record, forbid_alternatives=True)
            assert record["target"] in text or name == "math"
            assert isinstance(text, str) and text.strip()


def test_the_ask_tool_uses_the_domains_word_for_a_variable() -> None:
    from inspect_ai.tool import ToolDef

    from infoseek.solvers.seek.tools import ask_tool

    for name, noun in (("logic", "attribute"), ("math", "quantity")):
        definition = ToolDef(ask_tool(get_domain(name).wording.noun))
        assert definition.name == "ask" and noun in definition.description
        assert noun in definition.parameters.properties["variable"].description


def test_question_lines_fill_the_templates_placeholder() -> None:
    assert LOGIC.wording.question("Bob", "cold") == "Question: Is Bob cold?"
    assert get_domain("math").wording.question("", "A_2") == "Question: What is A_2?"


def test_the_built_in_domains_join_through_the_plug_in_entry_point_group() -> None:
    """The six built-in domains are entry points of the infoseek distribution, in the
    group docs/plugins.md gives plug-ins; the registry module names none of them."""
    from importlib.metadata import entry_points
    from pathlib import Path

    built_in = {e.name: e for e in entry_points(group=domains.ENTRY_POINT_GROUP)
                if domains.is_built_in(e)}
    assert sorted(built_in) == ["clinguide", "genereg", "logic", "math", "planning",
                                "twenty_questions"]
    for name, entry_point in built_in.items():
        assert entry_point.value == f"infoseek.builders.{name}.domain:DOMAIN"
        assert get_domain(name).name == name
        assert name not in domains._PLUGINS  # a built-in's failure is not a plug-in's
    source = Path(domains.__file__).read_text(encoding="utf-8")
    assert "infoseek.builders" not in source and "inspect_tasks" not in source
    assert "register_domain(\"" not in source


def test_a_declaration_listing_task_modules_is_still_accepted() -> None:
    """Plug-ins written when `Domain` listed its task modules keep working: the keyword
    is accepted, and tasks are found through the plug-in's own inspect_ai entry point."""
    old_style = Domain(name="old", answer_kind="choice", wording=LOGIC.wording,
                       task_modules=("old_plugin.tasks",))
    assert "task_modules" not in {f.name for f in fields(old_style)}


def test_a_builder_name_belongs_to_one_domain_and_is_found_there() -> None:
    """`get_builder` searches the loaded domains first, so the order it imports them in
    must not decide what it finds: every built-in builder name is declared once."""
    built_in = ("clinguide", "genereg", "logic", "math", "planning", "twenty_questions")
    declared = [(spec.name, name) for name in built_in
                for spec in get_domain(name).builders]
    names = [name for name, _ in declared]
    assert len(names) == len(set(names)) and "logic-mt" in names
    for name, owner in declared:
        assert domains.get_builder(name)[0].name == owner
