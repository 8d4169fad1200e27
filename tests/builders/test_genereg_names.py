"""Gene names as published rule files spell them (`infoseek.engines.boolnet.rules`): the
rule grammar reads ``cAMP/PKA``, ``p63-73``, ``Ara+`` / ``Ara-``, ``14_3_3s``, ``3oxo``,
``IκBalpha``, ``NF_κB`` and ``TGF−beta1`` as names and refuses ``+`` / ``-`` used as
operators; `infoseek verify` reads released rows over such networks end to end; the
names flow through the prompt, the question parsers, the matcher reply, MSS answers and
the genereg tasks.

Fixtures (written by this project;
`tests/support/fixtures/published/write_genereg_name_fixtures.py`):
two small networks in tests/support/fixtures/published/genereg_names_rules/ and nine correct
rows plus two with a planted error in mt_infoseek_genereg_names.jsonl."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest
from inspect_ai import eval

from infoseek import cli
from infoseek.builders.published import load_published
from infoseek.engines.boolnet.rules import (
    RuleError,
    expression_text,
    is_gene_name,
    parse_expression,
    read_rules_dir,
    read_rules_text,
)
from infoseek.engines.bruteforce import referee_mss_family, referee_sufficient
from infoseek.inspect_tasks.genereg_mt import genereg_mt, genereg_mt_mss
from infoseek.oracles.matcher import read_matcher_reply
from infoseek.records import check_record, engine_from_record
from infoseek.scorers.group_metric import log_metrics
from infoseek.scorers.problem_metrics import parse_variable_list
from infoseek.scorers.seek import seek_values
from infoseek.solvers.seek.game import SeekOptions
from infoseek.solvers.seek.parsing import parse_text_turn
from infoseek.solvers.seek.session import start_episode
from infoseek.solvers.seek.tool_parsing import parse_tool_calls
from infoseek.stored_forms import turns_from_store
from tests.support import FIXTURES
from tests.support.boolnet_referee import referee_for
from tests.support.common import assert_eval_success

FIXTURES = FIXTURES / "published"
ROWS = FIXTURES / "mt_infoseek_genereg_names.jsonl"
RULES = FIXTURES / "genereg_names_rules"
FORMAT = "mt-infoseek-genereg"
PLANTED = {"nm-wrong-k": {"k"}, "nm-wrong-mss": {"mss_family"}}

NAMES = {  # each kind of name the published files use
    "slash": ["cAMP/PKA", "AUX/IAA"],
    "hyphen": ["p63-73", "DISC-FAS", "m-xyl"],
    "trailing sign": ["Ara+", "Ara-"],
    "leading digit": ["14_3_3s", "3oxo"],
    "Greek": ["IκBalpha", "NF_κB"],
    "Unicode minus": ["TGF−beta1"],
}
ALL_NAMES = [name for names in NAMES.values() for name in names]


@pytest.fixture(autouse=True)
def _cache(tmp_path_factory, monkeypatch):
    monkeypatch.setenv("INFOSEEK_CACHE_DIR", str(tmp_path_factory.getbasetemp() / "grn"))


@pytest.fixture(scope="module")
def records() -> dict[str, dict]:
    return {r["id"]: r for r in load_published(str(ROWS), FORMAT, inputs={"rules": str(RULES)},
                                               skip_refused=True)}


# ------------------------------------------------------------------------ the grammar


@pytest.mark.parametrize("kind", NAMES)
def test_published_name_spellings_are_names(kind):
    first, *rest = NAMES[kind]
    other = rest[0] if rest else "G2"
    net = read_rules_text(f"{first} = NOT {other} AND ({first} | X)\n{other} = !{first}",
                          "net", where="net.txt")
    assert net.regulated == (first, other)
    assert net.inputs == ("X",)
    assert net.regulators(first) == (other, first, "X")
    assert read_rules_text("\n".join(net.rule_lines()), "net") == net
    assert all(is_gene_name(name) for name in NAMES[kind])


def test_glued_symbols_end_a_name_and_signs_do_not():
    expr = parse_expression("Ara+&!Ara-|(cAMP/PKA&&TGF−beta1)||~3oxo")
    assert expr == ("or", (("and", (("var", "Ara+"), ("not", ("var", "Ara-")))),
                           ("and", (("var", "cAMP/PKA"), ("var", "TGF−beta1"))),
                           ("not", ("var", "3oxo"))))
    assert parse_expression("B-C") == ("var", "B-C")  # one gene, as p63-73 is
    assert parse_expression("Not a aNd b oR FALSE") == \
        ("or", (("and", (("not", ("var", "a")), ("var", "b"))), ("const", False)))


@pytest.mark.parametrize("text, message", [
    ("A = B + C", "cannot read '+ C' ('+' and '-' are not operators"),
    ("A = B - C", "cannot read '- C' ('+' and '-' are not operators"),
    ("A = B \u2212 C", "'+' and '-' are not operators"),
    ("A = -B", "'-B' is not a gene name (a name cannot start with '+' or '-'"),
    ("+A = B", "'+A' is not a gene name"),
    ("A = B, C", "cannot read ', C' (a name cannot hold ',' or ';')"),
    ("A = B = C", "cannot read '= C'"),
    ("not = B", "'not' is not a gene name (it is a keyword or a constant)"),
    ("A = B $ C", "cannot read '$ C'"),
])
def test_signs_used_as_operators_are_refused(text, message):
    with pytest.raises(RuleError) as info:
        read_rules_text(text, "net", where="net.txt")
    assert str(info.value).startswith("net.txt:1: ")
    assert message in str(info.value)


def _random_expr(rng: random.Random, names: list[str], depth: int = 0):
    roll = rng.random()
    if depth > 3 or roll < 0.3:
        return ("var", rng.choice(names))
    if roll < 0.45:
        return ("not", _random_expr(rng, names, depth + 1))
    kind = rng.choice(["and", "or"])
    parts = tuple(_random_expr(rng, names, depth + 1) for _ in range(rng.randint(2, 3)))
    return (kind, parts)


def _spelled(expr, rng: random.Random) -> str:
    """`expr` in a random mix of the grammar's spellings, spaces only where a word needs
    them, every sub-expression in parentheses."""
    if expr[0] == "var":
        return expr[1]
    if expr[0] == "not":
        return rng.choice(["NOT ", "not ", "!", "~"]) + "(" + _spelled(expr[1], rng) + ")"
    words = {"and": ["AND", "and", "&", "&&"], "or": ["OR", "or", "|", "||"]}[expr[0]]
    out = ""
    for i, part in enumerate(expr[1]):
        if i:
            word = rng.choice(words)
            out += f" {word} " if word.isalpha() else word
        out += "(" + _spelled(part, rng) + ")"
    return out


def _flat(expr):
    """`expr` with nested and/or of the same kind flattened (as the parser builds it)."""
    if expr[0] == "var":
        return expr
    if expr[0] == "not":
        return ("not", _flat(expr[1]))
    parts = []
    for part in map(_flat, expr[1]):
        parts += part[1] if part[0] == expr[0] else [part]
    return (expr[0], tuple(parts))


@pytest.mark.parametrize("seed", range(3))
def test_every_spelling_reads_back_to_its_tree(seed):
    """Random expressions over old-style names (A1, G_2.b) and published names, written
    in every operator spelling and glued to parentheses, read back to the tree that wrote
    them; the canonical text reads back to the same tree."""
    rng = random.Random(seed)
    names = ["A1", "G_2.b", "x", *ALL_NAMES]
    for _ in range(200):
        tree = _random_expr(rng, names)
        parsed = parse_expression(_spelled(tree, rng))
        assert _flat(parsed) == _flat(tree)
        assert _flat(parse_expression(expression_text(parsed))) == _flat(tree)


def test_curated_networks_hold_only_old_style_names():
    """The shipped networks and the older fixtures use names the old grammar read
    (``[A-Za-z_][A-Za-z0-9_.]*``), so the wider grammar reads them as before."""
    import re

    from infoseek.builders.genereg import networks
    old_name = re.compile(r"[A-Za-z_][A-Za-z0-9_.]*")
    for folder in (Path(networks.__file__).parent, FIXTURES / "genereg_rules"):
        for net in read_rules_dir(folder).values():
            assert all(old_name.fullmatch(g) for g in net.genes), net.name


# --------------------------------------------------------------- released rows, verify


def test_cli_verify_reads_every_row_and_finds_the_planted_errors(tmp_path, capsys):
    corrected = tmp_path / "corrected.jsonl"
    assert cli.main(["verify", str(ROWS), "--source-format", FORMAT, "--rules", str(RULES),
                     "--out", str(tmp_path / "v"), "--workers", "1", "--quiet",
                     "--write-corrected", str(corrected)]) == 0
    printed = capsys.readouterr().out.strip().splitlines()
    assert printed[-1] == "agree=9 disagree=2"
    assert not any("cannot be read" in line for line in printed)
    lines = (tmp_path / "v" / "disagreements.jsonl").read_text(encoding="utf-8").splitlines()
    found = {o["id"]: {d["check"] for d in o["disagreements"]} for o in map(json.loads, lines)}
    assert found == PLANTED
    reasons = " ".join(d["reason"] for o in map(json.loads, lines) for d in o["disagreements"])
    assert "{TGF−beta1} is not sufficient; missing {14_3_3s, TGF−beta1}" in reasons
    assert cli.main(["verify", str(corrected), "--source-format", FORMAT, "--rules", str(RULES),
                     "--out", str(tmp_path / "v2"), "--workers", "1", "--quiet"]) == 0
    assert capsys.readouterr().out.strip().splitlines()[-1] == "agree=11 disagree=0"


def test_the_rows_agree_with_the_plain_referee(records):
    """The correct rows' released ground truth against the referee (which evaluates the
    rules as Python with names looked up by string, sharing no code with the engines)."""
    assert set(records) == {json.loads(line)["id"] for line in ROWS.read_text().splitlines()}
    seen = set()
    for record in records.values():
        check_record(record)
        seen |= set(record["engine"]["genes"])
        if record["id"] in PLANTED:
            continue
        ref = referee_for(record)
        released = record["released"]
        assert sorted(ref.target_values(), key=str) == sorted(record["target_values"], key=str)
        assert len(released["feasible_target_values"]) == len(record["target_values"])
        k, family = referee_mss_family(ref, record["queryable"], 4)
        assert k == released["k_min"] == record["k"], record["id"]
        assert family == sorted(tuple(sorted(s)) for s in
                                released["minimal_sufficient_sets"]), record["id"]
        assert all(referee_sufficient(ref, s) for s in record["mss_family"])
        assert engine_from_record(record).target_values() == ref.target_values()
    assert set(ALL_NAMES) <= seen


# ------------------------------------------------------------ prompts, parsers, matcher


def _context(record: dict, fmt: str):
    return start_episode(record, {"target_value": record["target_values"][0]},
                         SeekOptions(format=fmt))


@pytest.mark.parametrize("row_id", ["nm-00", "nm-04"])
def test_questions_and_tool_calls_name_each_gene(records, row_id):
    record = records[row_id]
    episode, text = _context(record, "text")
    _, tool = _context(record, "tool")
    assert set(text.askable) <= set(record["engine"]["genes"])
    for name in text.askable:
        for line in (f"Question: What is the value of {name}?", f"Question: Is {name} on?",
                     f"Question: {name}?", f"Question: What is the value of `{name}`?"):
            turn = parse_text_turn(line, text, [])
            assert [(q.variable, q.reason) for q in turn.queries] == [(name, None)], line
        turn = parse_tool_calls([("ask", {"variable": name})], tool, [])
        assert [(q.variable, q.reason) for q in turn.queries] == [(name, None)], name
        assert read_matcher_reply(f"`{name}`.", text.askable) == name


@pytest.mark.parametrize("row_id, fragment, reason", [
    ("nm-04", "Ara", "unknown"),  # not Ara+ nor Ara-
    ("nm-04", "xyl", "unknown"),  # not m-xyl nor xyl-operon
    ("nm-04", "Ara+ and Ara-", "malformed"),
    ("nm-00", "cAMP", "unknown"),
    ("nm-00", "cAMP/PKA or AUX/IAA", "malformed"),
])
def test_a_part_of_a_name_names_no_gene(records, row_id, fragment, reason):
    _, context = _context(records[row_id], "text")
    turn = parse_text_turn(f"Question: What is the value of {fragment}?", context, [])
    assert [(q.variable, q.reason) for q in turn.queries] == [(None, reason)]


def test_prompt_lists_the_names_as_written(records):
    from infoseek.builders.genereg.genereg_text import render_genereg_problem
    text = render_genereg_problem(records["nm-00"])
    assert "  cAMP/PKA = TGF−beta1 AND NOT AUX/IAA" in text
    assert "External inputs (no rule; they keep their value): TGF−beta1." in text
    assert "on: " in text and "Genes you may ask about" in text
    assert parse_variable_list("Answer: Ara+, Ara-, 3oxo", ["Ara+", "Ara-", "3oxo"]) == \
        (["Ara+", "Ara-", "3oxo"], 0)
    assert parse_variable_list("Answer: Ara", ["Ara+", "Ara-"]) == ([], 1)


def _run(task, tmp_path):
    [log] = eval(task, model="infoseek/optimal", log_dir=str(tmp_path), display="none")
    assert_eval_success(log)
    return log


@pytest.mark.parametrize("fmt", ["text", "tool"])
def test_genereg_mt_runs_the_rows_with_optimal(fmt, tmp_path):
    log = _run(genereg_mt(source=str(ROWS), rules=str(RULES), format=fmt), tmp_path)
    asked = set()
    for sample in log.samples:
        values = seek_values(sample.scores)
        assert values["final_sufficiency"] == 1.0, sample.id
        assert values["accuracy"] == 1.0, sample.id
        assert values["invalid_total"] == 0.0, sample.id
        turns = turns_from_store(sample.store["infoseek:turns"])
        asked |= {q["variable"] for t in turns for q in t["queries"] if q["valid"]}
    assert {"TGF−beta1", "14_3_3s", "p63-73", "Ara-", "m-xyl"} <= asked
    log = _run(genereg_mt_mss(source=str(ROWS), rules=str(RULES)), tmp_path)
    assert log_metrics(log)["exact"] == 1.0
