"""Tests for the logic vocabulary and the natural-language rendering of records."""

from __future__ import annotations

import copy
import random
import re

import pytest

from infoseek.builders.logic.logic_text import (
    askable_variables,
    join_words,
    not_askable_variables,
    render_clause,
    render_facts,
    render_logic_problem,
    split_clause,
)
from infoseek.builders.logic.logic_vocab import ADJECTIVES, NAMES, RESERVED_WORDS, pick_variables


def make_record() -> dict:
    return {
        "id": "logic-test-00001",
        "domain": "logic",
        "entity": "Bruno",
        "engine": {
            "kind": "horn",
            "clauses": [
                ["witty", "not calm", "not brave"],
                ["not shy", "not loud"],
                ["humble"],
                ["eager", "not humble"],
                ["not gentle"],
            ],
        },
        "variables": sorted(
            ["witty", "calm", "brave", "shy", "loud", "humble", "eager", "gentle", "lazy", "vain"]
        ),
        "observed": {"humble": True, "gentle": False},
        "target": "witty",
        "target_values": [False, True],
        "queryable": sorted(["calm", "brave", "shy", "loud", "eager", "lazy"]),
        "forbidden": ["vain"],
        "alternative_only": ["lazy", "loud"],
        "k": 2,
        "mss_family": [["brave", "calm"], ["lazy", "loud"]],
        "derivation_depth": 3,
        "difficulty": {"num_vars": 10, "num_constraints": 5, "depth": 3, "e_bf": 1.5},
        "provenance": {"builder": "test", "version": "0.0.0", "seed": 0, "index": 1},
    }


# ----------------------------------------------------------------- vocabulary


def test_adjectives_are_many_distinct_lowercase_words():
    assert len(ADJECTIVES) >= 170
    assert len(set(ADJECTIVES)) == len(ADJECTIVES)
    assert all(re.fullmatch(r"[a-z]+", word) for word in ADJECTIVES)


def test_adjectives_avoid_function_words_and_prefix_clashes():
    assert not set(ADJECTIVES) & RESERVED_WORDS
    for word in ("not", "is", "and", "then", "if", "yes", "no", "true", "false"):
        assert word not in ADJECTIVES
    for shorter in ADJECTIVES:
        for longer in ADJECTIVES:
            assert shorter == longer or not longer.startswith(shorter)


def test_names():
    assert 15 <= len(NAMES) <= 30
    assert len(set(NAMES)) == len(NAMES)
    assert all(re.fullmatch(r"[A-Z][a-z]+", name) for name in NAMES)
    assert not {name.lower() for name in NAMES} & set(ADJECTIVES)


def test_pick_variables_is_deterministic_and_distinct():
    first = pick_variables(random.Random(7), 40)
    second = pick_variables(random.Random(7), 40)
    assert first == second
    assert len(set(first)) == 40
    assert set(first) <= set(ADJECTIVES)
    assert pick_variables(random.Random(8), 40) != first
    assert pick_variables(random.Random(1), 0) == []


def test_pick_variables_rejects_impossible_sizes():
    with pytest.raises(ValueError):
        pick_variables(random.Random(0), len(ADJECTIVES) + 1)
    with pytest.raises(ValueError):
        pick_variables(random.Random(0), -1)


# -------------------------------------------------------------------- clauses


@pytest.mark.parametrize(
    ("clause", "expected"),
    [
        (["h", "not b1"], "If Alice is b1, then Alice is h."),
        (["h", "not b1", "not b2"], "If Alice is b1 and b2, then Alice is h."),
        (["not b1", "h", "not b2", "not b3"], "If Alice is b1, b2 and b3, then Alice is h."),
        (["not b1", "not b2"], "Alice cannot be both b1 and b2."),
        (["not b1"], "Alice is not b1."),
        (["not b1", "not b2", "not b3"], "Alice cannot be b1, b2 and b3 all at once."),
        (["h"], "Alice is h."),
    ],
)
def test_render_clause_shapes(clause, expected):
    assert render_clause(clause, "Alice") == expected


def test_render_clause_uses_entity_and_accepts_tuples():
    assert render_clause(("kind", "not calm"), "Rosa") == "If Rosa is calm, then Rosa is kind."


@pytest.mark.parametrize("clause", [[], ["a", "b"], ["a", "not b", "c"], ["not "], [""], [3]])
def test_render_clause_rejects_non_horn_or_broken_clauses(clause):
    with pytest.raises((ValueError, TypeError)):
        render_clause(clause, "Alice")


def test_split_clause():
    assert split_clause(["not a", "h", "not b"]) == ("h", ["a", "b"])
    assert split_clause(["not a"]) == (None, ["a"])


def test_join_words():
    assert join_words([]) == ""
    assert join_words(["a"]) == "a"
    assert join_words(["a", "b"]) == "a and b"
    assert join_words(["a", "b", "c", "d"]) == "a, b, c and d"


def test_render_facts_sorted_with_polarity():
    facts = render_facts({"kind": True, "brave": False, "calm": True}, "Alice")
    assert facts == ["Alice is not brave.", "Alice is calm.", "Alice is kind."]
    assert render_facts({}, "Alice") == []


# -------------------------------------------------------------------- problem


def test_askable_variables_respects_options():
    record = make_record()
    assert askable_variables(record, True) == ["brave", "calm", "eager", "shy"]
    assert askable_variables(record, False) == ["brave", "calm", "eager", "lazy", "loud", "shy"]


def test_askable_variables_never_offers_forbidden_observed_or_target():
    record = make_record()
    record["queryable"] = record["queryable"] + ["vain", "humble", "witty"]
    assert askable_variables(record, False) == ["brave", "calm", "eager", "lazy", "loud", "shy"]


def test_not_askable_variables():
    record = make_record()
    assert not_askable_variables(record, True) == ["lazy", "loud", "vain"]
    assert not_askable_variables(record, False) == ["vain"]


def test_render_problem_contents():
    record = make_record()
    text = render_logic_problem(record)
    rules = [render_clause(c, "Bruno") for c in record["engine"]["clauses"]]
    positions = [text.index(rule) for rule in rules]
    assert positions == sorted(positions), "rules keep record order"
    assert "Bruno is humble." in text
    assert "Bruno is not gentle." in text
    assert "determine whether Bruno is witty" in text
    assert "may ask about: brave, calm, eager, shy." in text
    assert "may not ask about: lazy, loud, vain." in text
    assert "Alice" not in text


def test_render_problem_without_forbidding_alternatives():
    text = render_logic_problem(make_record(), forbid_alternatives=False)
    assert "may ask about: brave, calm, eager, lazy, loud, shy." in text
    assert "may not ask about: vain." in text


def test_render_problem_is_deterministic():
    record = make_record()
    assert render_logic_problem(record) == render_logic_problem(copy.deepcopy(record))
    shuffled = copy.deepcopy(record)
    shuffled["queryable"] = list(reversed(shuffled["queryable"]))
    shuffled["observed"] = dict(reversed(list(shuffled["observed"].items())))
    assert render_logic_problem(shuffled) == render_logic_problem(record)


def test_render_problem_ignores_hidden_fields():
    record = make_record()
    changed = copy.deepcopy(record)
    changed["k"] = 4
    changed["mss_family"] = [["shy", "eager"]]
    changed["derivation_depth"] = 9
    changed["difficulty"] = {"depth": 9}
    assert render_logic_problem(changed) == render_logic_problem(record)
    text = render_logic_problem(record)
    assert "mss" not in text.lower()
    assert "depth" not in text.lower()


def test_render_problem_does_not_contain_action_keywords():
    # The text parser looks for Question:/Answer: lines; the prompt must not hold any.
    text = render_logic_problem(make_record())
    assert not re.search(r"(?im)^\W*(question|answer)\s*:", text)


def test_render_problem_with_no_facts_and_no_forbidden():
    record = make_record()
    record["observed"] = {}
    record["forbidden"] = []
    record["alternative_only"] = []
    record["variables"] = [v for v in record["variables"] if v not in ("humble", "gentle", "vain")]
    text = render_logic_problem(record)
    assert "(nothing yet)" in text
    assert "may not ask about: (none)" in text


def test_render_problem_on_generated_vocabulary():
    rng = random.Random(3)
    names = pick_variables(rng, 6)
    record = {
        "entity": rng.choice(NAMES),
        "engine": {"kind": "horn", "clauses": [[names[0], f"not {names[1]}"]]},
        "variables": sorted(names),
        "observed": {names[2]: True},
        "target": names[0],
        "queryable": sorted(names[1:2] + names[3:]),
        "forbidden": [],
        "alternative_only": [],
    }
    text = render_logic_problem(record)
    assert f"determine whether {record['entity']} is {names[0]}." in text
