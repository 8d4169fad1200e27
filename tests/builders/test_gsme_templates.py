"""GSME-Q-MT story templates: structure, seeded integer instances, sentences, the
restricted exact evaluator, and determinism."""

from __future__ import annotations

import dataclasses
import functools
import json
import random
from fractions import Fraction

import networkx as nx
import pytest
import sympy

from infoseek.builders.math.templates import (
    TEMPLATES,
    THEMES,
    ExpressionError,
    StoryTemplate,
    TemplateError,
    evaluate_equations,
    evaluate_expression,
    expression_names,
    instantiate,
    parse_template_expression,
    template_by_id,
    template_depth,
    templates_by_theme,
)
from infoseek.builders.math.templates.loader import template_from_data
from infoseek.engines.arith.expr import parse_expression as parse_arith

SEEDS = range(50)
IDS = [t.id for t in TEMPLATES]


def dependency_graph(template: StoryTemplate) -> nx.DiGraph:
    graph = nx.DiGraph()
    graph.add_nodes_from(template.variables)
    for name, expr in template.equations:
        for parent in expression_names(expr):
            graph.add_edge(parent, name)
    return graph


class CornerRng:
    """Stands in for random.Random: each auxiliary draw takes the low or the high end of
    its range by one bit of ``bits``, so the extreme combinations get exercised."""

    def __init__(self, bits: int) -> None:
        self.bits = bits
        self.draws = 0
        self.names = random.Random(bits)

    def sample(self, population, k):
        return self.names.sample(population, k)

    def randint(self, low: int, high: int) -> int:
        bit = (self.bits >> (self.draws % 60)) & 1
        self.draws += 1
        return high if bit else low


# --------------------------------------------------------------------------- collection


def test_collection_size_and_themes():
    assert len(TEMPLATES) >= 44
    assert len(set(IDS)) == len(IDS)
    assert len(THEMES) >= 8
    assert set(THEMES) == {t.theme for t in TEMPLATES}
    assert all(templates_by_theme(theme) for theme in THEMES)
    assert sum(len(templates_by_theme(theme)) for theme in THEMES) == len(TEMPLATES)


def test_quantity_counts_span_2_to_27():
    counts = [len(t.variables) for t in TEMPLATES]
    assert min(counts) == 2
    assert max(counts) == 27
    assert all(2 <= c <= 27 for c in counts)
    assert sum(c >= 10 for c in counts) >= 5


def test_large_deep_and_merging_templates_exist():
    large_deep = [t for t in TEMPLATES if len(t.variables) >= 10 and template_depth(t) >= 3]
    assert len(large_deep) >= 5
    merging = [t for t in TEMPLATES
               if any(len(set(expression_names(e))) >= 3 for _, e in t.equations)]
    assert len(merging) >= 5
    assert max(template_depth(t) for t in TEMPLATES) >= 5


def test_template_by_id():
    for t in TEMPLATES:
        assert template_by_id(t.id) is t
    with pytest.raises(KeyError):
        template_by_id("no-such-template")


# --------------------------------------------------------------------------- structure


@pytest.mark.parametrize("template_id", IDS)
def test_structure(template_id):
    t = template_by_id(template_id)
    variables = set(t.variables)
    defined = [name for name, _ in t.equations]
    assert len(defined) == len(set(defined)), "a quantity is defined twice"
    graph = dependency_graph(t)
    assert nx.is_directed_acyclic_graph(graph)
    assert set(graph.nodes) == variables, "an equation uses an unknown quantity"
    assert set(t.leaves) == variables - set(defined)
    assert set(t.leaves) == {v for v in variables if graph.in_degree(v) == 0}
    assert t.goal in defined and t.goal not in t.leaves
    assert set(t.descriptions) == variables
    assert all(d.strip() and "{" not in d for d in t.descriptions.values())
    ancestors = nx.ancestors(graph, t.goal)
    assert any(a in t.leaves for a in ancestors)
    depth = nx.dag_longest_path_length(graph.subgraph(ancestors | {t.goal}))
    assert template_depth(t) == depth
    for q in t.quantities:
        parse_template_expression(q.expr or q.draw.formula)


# --------------------------------------------------------------------------- instances


@functools.cache
def _sympy_expression(expr: str, names: tuple[str, ...]) -> sympy.Expr:
    return sympy.parse_expr(expr, local_dict={n: sympy.Symbol(n) for n in names})


def _check_instance(t: StoryTemplate, record: dict) -> None:
    assert json.loads(json.dumps(record)) == record
    assert record["template"] == t.id and record["theme"] == t.theme
    assert record["variables"] == list(t.variables)
    assert record["leaves"] == list(t.leaves)
    assert record["equations"] == [list(eq) for eq in t.equations]
    assert set(record["descriptions"]) == set(t.variables)
    assert list(record["values"]) == record["leaves"]
    assert list(record["derived"]) == [name for name, _ in t.equations]
    numbers = [*record["values"].values(), *record["derived"].values(), record["answer"]]
    assert all(type(v) is int and v > 0 for v in numbers)
    assert record["goal"] == t.goal
    assert record["answer"] == record["derived"][t.goal]
    # Independent check of every equation with sympy's exact rationals.
    everything = {**record["values"], **record["derived"]}
    substitution = {sympy.Symbol(name): sympy.Integer(v) for name, v in everything.items()}
    for name, expr in record["equations"]:
        assert _sympy_expression(expr, t.variables).xreplace(substitution) == everything[name]
    sentences = record["sentences"]
    assert set(sentences["values"]) == set(record["leaves"])
    assert set(sentences["equations"]) == set(record["derived"])
    for leaf, sentence in sentences["values"].items():
        assert str(record["values"][leaf]) in sentence
    cast = record["characters"]
    assert len(set(cast.values())) == len(cast) == len(t.cast)
    texts = [*sentences["values"].values(), *sentences["equations"].values(),
             sentences["question"]]
    for text in texts:
        assert text.strip() and "{" not in text and "}" not in text
    assert sentences["question"].endswith("?")


@pytest.mark.parametrize("template_id", IDS)
def test_instantiates_to_integers_for_50_seeds(template_id):
    t = template_by_id(template_id)
    answers = set()
    for seed in SEEDS:
        record = instantiate(t, random.Random(seed))
        _check_instance(t, record)
        answers.add(record["answer"])
    assert len(answers) > 1, "the seed never changes the answer"


@pytest.mark.parametrize("template_id", IDS)
def test_extreme_draws_stay_positive_integers(template_id):
    t = template_by_id(template_id)
    patterns = [0, (1 << 60) - 1, *(random.Random(p).getrandbits(60) for p in range(30))]
    for bits in patterns:
        _check_instance(t, instantiate(t, CornerRng(bits)))


@pytest.mark.parametrize("template_id", IDS)
def test_deterministic(template_id):
    t = template_by_id(template_id)
    for seed in (0, 1, 12345):
        first = json.dumps(instantiate(t, random.Random(seed)), sort_keys=False)
        second = json.dumps(instantiate(t, random.Random(seed)), sort_keys=False)
        assert first == second


def test_rng_state_drives_the_instance():
    t = template_by_id("school-class-supply-order")
    rng = random.Random(3)
    first = instantiate(t, rng)
    second = instantiate(t, rng)
    assert first != second
    rng = random.Random(3)
    assert instantiate(t, rng) == first and instantiate(t, rng) == second


def test_sentences_fill_cast_names():
    t = template_by_id("shop-notebooks-and-pens")
    record = instantiate(t, random.Random(5))
    buyer = record["characters"]["buyer"]
    assert buyer in record["sentences"]["values"]["notebooks"]
    assert buyer in record["sentences"]["question"]
    assert str(record["values"]["notebook_price"]) in record["sentences"]["values"][
        "notebook_price"]


# --------------------------------------------------------------------------- evaluator


@pytest.mark.parametrize("expr", [
    "f(a)", "abs(a)", "a.real", "a ** 2", "a // b", "a % b", "-a", "+a", "a if b else a",
    "[a]", "(a, b)", "'a'", "a < b", "a and b", "lambda: a", "__import__('os')", "a @ b",
    "a[0]", "{a}", "True", "None", "1j", "a; b", "", "a +", "a = 1", "a << 1", "a & b",
    "not a", "(a := 1)", "f'{a}'", "...",
])
def test_evaluator_rejects_disallowed_syntax(expr):
    with pytest.raises(ExpressionError):
        evaluate_expression(expr, {"a": 2, "b": 3})
    with pytest.raises(ExpressionError):
        parse_template_expression(expr)


def test_evaluator_rejects_names_outside_the_system():
    with pytest.raises(ExpressionError):
        evaluate_expression("a + c", {"a": 1, "b": 2})
    with pytest.raises(ExpressionError):
        parse_template_expression("a + c", {"a", "b"})
    with pytest.raises(ExpressionError):
        evaluate_equations([("t", "a + missing")], {"a": 1})


def test_evaluator_is_exact():
    values = {"a": 2, "b": 3, "c": 4}
    assert evaluate_expression("(a + b) * 2 / c - 1", values) == Fraction(3, 2)
    assert evaluate_expression("1 / 3 * 3", {}) == 1
    assert evaluate_expression("a / b", values) == Fraction(2, 3)
    assert evaluate_expression("0.1 * 10", {}) == 1
    assert evaluate_expression(" a+b ", values) == 5
    with pytest.raises(ExpressionError):
        evaluate_expression("a / (b - 3)", values)
    assert expression_names("b + a * b - 2") == ("b", "a")


def test_template_expressions_use_the_core_language_without_unary_signs():
    # The same text means the same tree as in the arithmetic engine's language ...
    assert parse_template_expression("(a + 2.5) / b") == parse_arith("(a + 2.5) / b")
    assert evaluate_expression("a * 0.30000000000000001", {"a": 10}) == Fraction(
        "3.0000000000000001")
    # ... but a template may not write a unary sign, which the core allows elsewhere.
    assert parse_arith("a - -b") == ("-", ("var", "a"), ("neg", ("var", "b")))
    with pytest.raises(ExpressionError, match="unary"):
        parse_template_expression("a - -b")
    with pytest.raises(ExpressionError, match="keyword"):
        parse_template_expression("if + a")
    with pytest.raises(ExpressionError, match="constant zero"):
        parse_template_expression("a / (2 - 2)")


def test_evaluate_equations_orders_and_rejects_cycles():
    derived = evaluate_equations([("t", "b + p"), ("p", "b + f * b")], {"b": 2, "f": 3})
    assert derived == {"t": 10, "p": 8}
    assert list(derived) == ["t", "p"]
    with pytest.raises(TemplateError):
        evaluate_equations([("x", "y + 1"), ("y", "x + 1")], {})
    with pytest.raises(TemplateError):
        evaluate_equations([("x", "a"), ("x", "a")], {"a": 1})
    with pytest.raises(TemplateError):
        evaluate_equations([("a", "2")], {"a": 1})


# --------------------------------------------------------------------------- validation


def given(name, description, low, high, sentence, formula=None):
    """A leaf quantity's table as a template file writes it."""
    if formula is None:
        return {"name": name, "description": description, "between": [low, high],
                "sentence": sentence}
    return {"name": name, "description": description, "draw": formula,
            "ranges": {"n": [low, high]}, "sentence": sentence}


def rule(name, description, expr, sentence):
    """A derived quantity's table as a template file writes it."""
    return {"name": name, "description": description, "expr": expr, "sentence": sentence}


def _tiny(**changes) -> StoryTemplate:
    fields = {
        "id": "tiny",
        "theme": "test",
        "cast": ["kid"],
        "quantity": [
            given("a", "first number", 1, 5, "{kid} has {value} apples."),
            given("b", "second number", 1, 3, "There are {value} more.", formula="a * n"),
            rule("t", "sum", "a + b", "The total is both added."),
        ],
        "goal": "t",
        "question": "How many does {kid} have?",
    }
    fields.update(changes)
    return template_from_data(fields, "tiny.toml")


def test_valid_tiny_template():
    t = _tiny()
    record = instantiate(t, random.Random(0))
    assert record["answer"] == record["values"]["a"] + record["values"]["b"]


@pytest.mark.parametrize("changes", [
    {"goal": "a"},
    {"goal": "missing"},
    {"quantity": [given("a", "x", 1, 2, "No value here."), rule("t", "y", "a", "Same.")]},
    {"quantity": [given("a", "x", 1, 2, "{value} {stranger}."),
                  rule("t", "y", "a", "Same.")]},
    {"quantity": [given("a", "x", 1, 2, "{value}."),
                  rule("t", "y", "u + a", "Cycle."), rule("u", "z", "t", "Cycle.")]},
    {"quantity": [given("a", "x", 1, 2, "{value}."), rule("t", "y", "a ** 2", "Power.")]},
    {"quantity": [given("a", "x", 1, 2, "{value}."), rule("t", "y", "a + ghost", "Ghost.")]},
    {"quantity": [given("a", "x", 1, 2, "{value}.", formula="t + n"),
                  rule("t", "y", "a", "Draw uses a later value.")]},
    {"quantity": [given("a", "x", 3, 2, "{value}."), rule("t", "y", "a", ".")]},
    {"quantity": [given("a", "", 1, 2, "{value}."), rule("t", "y", "a", ".")]},
    {"quantity": [given("a", "x", 1, 2, "{value}."), rule("a", "y", "2", "Defined twice.")]},
    {"quantity": [given("class", "x", 1, 2, "{value}."), rule("t", "y", "2", "Keyword name.")]},
    {"question": "How many does {nobody} have?"},
])
def test_malformed_templates_are_rejected(changes):
    with pytest.raises(TemplateError, match=r"^tiny\.toml: template 'tiny': "):
        _tiny(**changes)


def test_broken_guarantee_is_reported():
    t = _tiny(quantity=[
        given("a", "x", 2, 3, "{value}."),
        rule("t", "half", "a / 4", "A quarter of it."),
    ])
    with pytest.raises(TemplateError):
        instantiate(t, random.Random(0))


def test_templates_are_frozen():
    t = TEMPLATES[0]
    with pytest.raises(dataclasses.FrozenInstanceError):
        t.goal = "other"  # type: ignore[misc]
