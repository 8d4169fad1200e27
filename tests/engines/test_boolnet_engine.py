"""The Boolean-network engines against the plain referee (tests/support/boolnet_referee.py):
rule reading, fixed points (SAT), attractors, and the contract's primitives, Known,
sufficiency, the MSS family and target values on small random networks."""

from __future__ import annotations

import itertools
import random

import numpy as np
import pytest

from infoseek.analysis import is_sufficient, minimal_sufficient_sets
from infoseek.builders.genereg.catalogue import (
    DYNAMIC,
    STEADY,
    catalogue,
    engine_spec,
    marker_genes,
)
from infoseek.builders.genereg.generator import random_network
from infoseek.engines.boolnet.network import (
    attractors,
    decode,
    fixed_points,
    step_bits,
)
from infoseek.engines.boolnet.rules import (
    RuleError,
    evaluate,
    read_rules_dir,
    read_rules_text,
)
from infoseek.engines.bruteforce import referee_known, referee_mss_family, referee_sufficient
from infoseek.records import check_record, engine_from_record
from tests.support.boolnet_referee import (
    python_rules,
    reached_attractor,
    referee_fixed_points,
    referee_for,
)

EMT = """# miR-34/Snail, miR-200/Zeb core (our own encoding)
S = I AND NOT (S AND M34)
M34 = !S & !Z          # both repress miR-34
Z = NOT M200 OR (S AND Z)
M200 = NOT S || (Z && M200)
"""


def test_reader_takes_both_operator_spellings_and_comments():
    net = read_rules_text(EMT, "emt")
    assert net.genes == ("S", "M34", "Z", "M200", "I")
    assert net.inputs == ("I",)
    assert net.regulators("Z") == ("M200", "S", "Z")
    again = read_rules_text("\n".join(net.rule_lines()), "emt")
    assert again == net


@pytest.mark.parametrize("text, message", [
    ("A = B AND", "ends too early"),
    ("A B", "expected 'Gene = expression'"),
    ("A = (B OR C", "missing ')'"),
    ("A = B\nA = C", "a second rule for A (first on line 1)"),
    ("A = B $ C", "cannot read"),
    ("-A = B", "is not a gene name (a name cannot start with '+' or '-'"),
    ("A = B + C", "'+' and '-' are not operators"),
    ("A = NOT = B", "cannot read '= B'"),
    ("# only a comment", "no rules"),
    ("A = B C", "unexpected 'C'"),
])
def test_reader_names_file_and_line(text, message):
    with pytest.raises(RuleError) as info:
        read_rules_text(text, "net", where="net.txt")
    assert message in str(info.value)
    assert str(info.value).startswith("net.txt")


def test_reader_error_line_number(tmp_path):
    (tmp_path / "good.txt").write_text("A = B\n")
    (tmp_path / "bad.txt").write_text("A = B\n\n# fine\nC = AND\n")
    with pytest.raises(RuleError, match=r"bad.txt:4: "):
        read_rules_dir(tmp_path)
    (tmp_path / "bad.txt").unlink()
    assert list(read_rules_dir(tmp_path)) == ["good"]
    with pytest.raises(RuleError, match="not a directory"):
        read_rules_dir(tmp_path / "good.txt")


def test_paper_example_fixed_points():
    net = read_rules_text(EMT, "emt")
    points = [decode(c, net.genes) for c in fixed_points(net)]
    assert {"S": 0, "M34": 1, "Z": 0, "M200": 1, "I": 0} in points
    assert len(points) == 3
    assert all(p["Z"] == 1 for p in points if p["I"] == 1)


def _small_network(seed: int):
    rng = random.Random(seed)
    return random_network(rng, rng.randint(3, 6), rng.randint(0, 2), name=f"r{seed}")


@pytest.mark.parametrize("seed", range(25))
def test_fixed_points_and_attractors_match_referee(seed):
    net = _small_network(seed)
    genes = list(net.genes)
    lines = net.rule_lines()
    ref = referee_fixed_points(lines, genes)
    assert [decode(c, genes) for c in fixed_points(net)] == sorted(
        ref, key=lambda s: sum(s[g] << i for i, g in enumerate(genes)))
    rules = python_rules(lines)
    expected = {reached_attractor(rules, dict(zip(genes, v)), genes)
                for v in itertools.product((0, 1), repeat=len(genes))}
    found = {frozenset(tuple((c >> i) & 1 for i in range(len(genes))) for c in a.states)
             for a in attractors(net)}
    assert found == expected


def test_bit_parallel_step_matches_python_rules():
    net = _small_network(3)
    genes = list(net.genes)
    rules = python_rules(net.rule_lines())
    states = np.array(list(itertools.product((0, 1), repeat=len(genes))), dtype=bool)
    stepped = step_bits(net, states)
    from tests.support.boolnet_referee import step
    for row, new in zip(states, stepped):
        expected = step(rules, {g: int(v) for g, v in zip(genes, row)})
        assert [expected[g] for g in genes] == [int(v) for v in new]


def test_sat_fixed_points_exact_at_64_genes():
    # 6 toggle switches (A_i = NOT B_i, B_i = NOT A_i: two fixed points each) feeding a
    # 52-gene chain that copies their AND: 2^6 fixed points, every one checked.
    lines = []
    for i in range(6):
        lines += [f"A{i} = NOT B{i}", f"B{i} = NOT A{i}"]
    lines.append("C0 = " + " AND ".join(f"A{i}" for i in range(6)))
    lines += [f"C{j} = C{j - 1}" for j in range(1, 52)]
    net = read_rules_text("\n".join(lines), "big")
    assert len(net.genes) == 64
    points = fixed_points(net)
    assert len(points) == 64
    for code in points:
        state = decode(code, net.genes)
        values = {g: bool(v) for g, v in state.items()}
        assert all(bool(evaluate(expr, values)) == values[g] for g, expr in net.rules)


def _record(net, family, target, observed, target_var="attractor"):
    spec = engine_spec(net, family, target)
    record = {"id": "t", "domain": "genereg", "engine": spec,
              "variables": [*net.genes, target_var], "observed": observed,
              "target": target_var, "queryable": [g for g in net.genes if g not in observed],
              "k": 0, "mss_family": [[]]}
    engine = engine_from_record(record)
    record["target_values"] = sorted(engine.target_values(), key=str)
    return record, engine


def _cases(seed: int):
    """(record, engine) pairs over one random network: both families, attractor and
    marker targets, a random observed context."""
    net = _small_network(seed)
    rng = random.Random(seed * 7 + 1)
    genes = list(net.genes)
    observed = {g: rng.randint(0, 1) for g in rng.sample(genes, rng.randint(0, 2))}
    cases = []
    for family in (STEADY, DYNAMIC):
        entries = catalogue(net, family)
        if family == STEADY:
            points = [decode(e["states"][0], genes) for e in entries]
            context = {g: v for g, v in observed.items()
                       if any(p[g] == v for p in points)}
        else:
            context = observed
        if family == STEADY and not any(all(p[g] == v for g, v in context.items())
                                        for p in points):
            continue
        cases.append(_record(net, family, {"type": "attractor"}, context))
        for gene in marker_genes(net, entries)[:2]:
            cases.append(_record(net, family, {"type": "marker", "gene": gene}, context,
                                 "marker"))
    return cases


@pytest.mark.parametrize("seed", range(40))
def test_engines_agree_with_referee(seed):
    rng = random.Random(seed)
    for record, engine in _cases(seed):
        check_record(record, pins=False)  # its family is a placeholder: engines only here
        ref = referee_for(record)
        free = [g for g in record["engine"]["genes"] if g not in record["observed"]]
        assert engine.target_values() == ref.target_values()
        for _ in range(6):
            chosen = rng.sample(free, rng.randint(0, len(free)))
            assignment = {g: rng.randint(0, 1) for g in chosen}
            assert engine.target_values(assignment) == ref.target_values(assignment)
            assert engine.is_known(assignment) == referee_known(ref, assignment)
            for var in [*free[:3], record["target"]]:
                assert engine.variable_values(var, assignment) == ref.variable_values(
                    var, assignment)
                for value in ref.target_values():
                    assert engine.variable_values(var, assignment, value) == \
                        ref.variable_values(var, assignment, value)
            subset = rng.sample(free, rng.randint(0, len(free)))
            if ref.target_values(assignment):
                assert is_sufficient(engine, subset, assignment) == referee_sufficient(
                    ref, subset, assignment)
                assert is_sufficient(engine, subset, assignment, use_fast_path=False) == \
                    referee_sufficient(ref, subset, assignment)
        if ref.target_values():
            result = minimal_sufficient_sets(engine, free, 4)
            k, family = referee_mss_family(ref, free, 4)
            assert result.k == k
            assert sorted(tuple(sorted(s)) for s in result.family) == family


def test_dynamics_engine_refuses_too_many_free_genes():
    rng = random.Random(5)
    net = random_network(rng, 17, 1, name="wide")
    with pytest.raises(ValueError, match="at most 16"):
        _record(net, DYNAMIC, {"type": "attractor"}, {})


def test_steady_engine_checks_its_catalogue():
    net = read_rules_text(EMT, "emt")
    record, _ = _record(net, STEADY, {"type": "attractor"}, {})
    record["engine"]["catalogue"] = record["engine"]["catalogue"][:2]
    with pytest.raises(ValueError, match="fixed point"):
        engine_from_record(record)
