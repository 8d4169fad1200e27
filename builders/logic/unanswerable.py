"""Logic problems no question can settle (issue 34, `-T unanswerable=` on `logic_mt`).

Made from an ordinary problem of the split's builder (`logic_mt.build_problem`, or the
hard split's) by *withholding a needed premise*: a fresh attribute, the key, joins the
body of every rule that mentions the target (``if Alice is a and b, then Alice is kind``
becomes ``if Alice is a, b and key, then Alice is kind``; ``if Alice is kind, then Alice is
c`` becomes ``if Alice is kind and key, then Alice is c``), and the key may not be asked.
Every other unobserved attribute may be asked (no alternative is held back: there is no
MSS left to hold the model to).

Why nothing can settle the target (exact, for every assignment `s` of any set of askable
attributes that the rules and observations allow): take a world satisfying the rules, the
observations and `s`, and set the key false. Every rule that mentions the target also
has the key in its body, so it holds whatever the target is; no other rule mentions the
key or the target, so none changes. Both target values therefore stay possible: the
target is open after any answers. With the key known true the problem is its ordinary
self again, so the key is exactly the missing premise.

`validate_unanswerable_logic_record` checks the premises of that argument on the record
itself with the exact Horn engine (both target values possible, the key fresh, forbidden
and in every target rule, the target and key in no other rule) and, as the builders'
own rejection test does, that the whole askable set is not sufficient (the engine's exact
fast path). The tests hold it to the brute-force referee
(`infoseek.builders.unanswerable.settles_nothing`) on small instances.
"""

from __future__ import annotations

import random
from typing import Any

from infoseek.analysis import is_sufficient, possible_target_values
from infoseek.builders.jobs import BuildError
from infoseek.builders.logic.logic_record import logic_difficulty
from infoseek.builders.logic.logic_vocab import ADJECTIVES, RESERVED_WORDS
from infoseek.builders.unanswerable import INDEX_OFFSET, UNANSWERABLE_SUFFIX
from infoseek.engines.horn import format_literal, parse_literal
from infoseek.record_views import askable_variables

VERSION = "1.0.0"
"""The version of this construction (recorded in each record's provenance)."""
RANDOM_STREAM = "logic_mt_unanswerable:1.0.0"


def withhold_premise(record: dict[str, Any], rng: random.Random) -> dict[str, Any]:
    """The unanswerable form of the ordinary logic `record` (module docstring): a fresh
    key attribute drawn with `rng` joins every rule that mentions the target and is
    forbidden. The id gets the suffix ``-unanswerable``; ``k`` stays the ordinary
    problem's (its group in the report); ``mss_family`` is empty (no set suffices)."""
    target = record["target"]
    names = list(record["variables"])
    taken = set(names)
    key = rng.choice([a for a in ADJECTIVES if a not in taken and a not in RESERVED_WORDS])
    clauses = []
    for clause in record["engine"]["clauses"]:
        if any(parse_literal(literal)[0] == target for literal in clause):
            clause = [*clause, format_literal(key, False)]
        clauses.append(list(clause))
    variables = sorted([*names, key])
    forbidden = sorted({*record.get("forbidden", ()), key})
    queryable = sorted(v for v in variables
                       if v not in record["observed"] and v != target and v not in forbidden)
    base_provenance = dict(record.get("provenance") or {})
    return {
        "id": f"{record['id']}-{UNANSWERABLE_SUFFIX}",
        "domain": record["domain"],
        "entity": record["entity"],
        "engine": {"kind": "horn", "clauses": clauses},
        "variables": variables,
        "observed": dict(record["observed"]),
        "target": target,
        "target_values": list(record["target_values"]),
        "queryable": queryable,
        "forbidden": forbidden,
        "alternative_only": [],
        "k": record["k"],
        "mss_family": [],
        "unanswerable": {"withheld": [key], "made_from": record["id"]},
        "derivation_depth": None,
        "difficulty": logic_difficulty(num_vars=len(variables), rules=clauses, depth=None,
                                       queryable=queryable, family=[], k=record["k"]),
        "provenance": {**base_provenance, "unanswerable": VERSION},
    }


def validate_unanswerable_logic_record(record: dict[str, Any]) -> list[str]:
    """The exact checks of the module docstring; returns the problems (empty: valid)."""
    from infoseek.records import engine_from_record

    errors: list[str] = []
    engine = engine_from_record(record)
    target = record["target"]
    withheld = list((record.get("unanswerable") or {}).get("withheld") or [])
    if len(withheld) != 1:
        return ["an unanswerable logic record withholds exactly one key attribute"]
    key = withheld[0]
    if len(possible_target_values(engine)) < 2:
        errors.append("the target is Known from the observations")
    if key not in record.get("forbidden", ()) or key in record["observed"]:
        errors.append(f"the key {key!r} must be forbidden and unobserved")
    if target in record["observed"]:
        errors.append("the target is observed")
    for clause in record["engine"]["clauses"]:
        mentioned = {parse_literal(literal)[0] for literal in clause}
        has_key = format_literal(key, False) in clause
        if (target in mentioned) != has_key or (key in mentioned and not has_key):
            errors.append(f"rule {clause} breaks the withheld-premise shape (the key "
                          "belongs, negated, to exactly the rules that mention the target)")
    askable = askable_variables(record, forbid_alternatives=True)
    if key in askable or target in askable:
        errors.append("the key or the target is askable")
    if is_sufficient(engine, askable):
        errors.append("the askable attributes together settle the target")
    return errors


def build_unanswerable(base_builder, seed: int, k: int, index: int) -> dict[str, Any]:
    """Unanswerable record `index` at (seed, k), made from `base_builder`'s problem at
    index `INDEX_OFFSET + index` (``base_builder(seed, k, index)``: a validated ordinary
    problem); deterministic in (seed, k, index). A record the checks reject is a bug and
    raises `BuildError`."""
    base = base_builder(seed, k, INDEX_OFFSET + index)
    rng = random.Random(f"{RANDOM_STREAM}:{seed}:{k}:{index}")
    record = withhold_premise(base, rng)
    errors = validate_unanswerable_logic_record(record)
    if errors:
        raise BuildError(f"unanswerable logic record {record['id']} rejected: {errors}")
    return record


def build_default(seed: int, k: int, index: int) -> dict[str, Any]:
    """From the default split's builder (`logic_mt.build_problem`)."""
    from infoseek.builders.logic.logic_mt import build_problem

    return build_unanswerable(build_problem, seed, k, index)


def build_hard(seed: int, k: int, index: int) -> dict[str, Any]:
    """From the hard split's builder (`logic_mt.build_hard_problem`)."""
    from infoseek.builders.logic.logic_mt import build_hard_problem

    return build_unanswerable(build_hard_problem, seed, k, index)
