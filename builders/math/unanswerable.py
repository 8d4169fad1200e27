"""Math problems no question can settle (issue 34, `-T unanswerable=` on `gsme_mt`, `gsm_mt`
and `gsme_mt_ext`).

Made from an ordinary GSME-Q-MT problem (`gsme_mt.build_problem`; for `gsme_mt_ext`, its
own builder's) by *making a needed
quantity unaskable*: one leaf of the canonical MSS, the withheld leaf ``L``, leaves the
askable list (``candidate_queries`` and ``queryable``) and becomes forbidden (asking for it
is refused). Its description stays in the problem, so the model can see what is missing.

Which leaf may be withheld is decided exactly, on the target written as an expression of
the leaves (every derived quantity substituted by its equation, the revealed values put
in; `sympy`, exact rationals): ``L`` qualifies when ``dT/dL`` is not identically zero and
names no quantity but ``L``. Then ``T = h(L) + g(rest)`` with ``h`` a non-constant
rational function, so whatever values the askable quantities take, ``L`` still ranges
over all but finitely many rationals (the feasible ones: no divisor zero) and ``T`` over
infinitely many values: no assignment of the askable quantities pins the target. A
canonical MSS with no such leaf (every leaf multiplied by an askable quantity that could
be 0, say) is skipped, and the next ordinary problem tried.

`validate_unanswerable_math_record` re-checks the criterion and, as the builders' own
rejection test does, that the whole askable set is not sufficient (the arithmetic
engine's exact ``distinguishing_pair`` fast path). The tests hold small instances with
finite domains to the brute-force referee (`infoseek.builders.unanswerable.settles_nothing`).
"""

from __future__ import annotations

from typing import Any

import sympy

from infoseek.analysis import is_known, is_sufficient
from infoseek.builders.unanswerable import (
    UNANSWERABLE_SUFFIX,
    canonical_singles,
    first_unanswerable,
)
from infoseek.engines.arith.engine import parse_rational
from infoseek.record_views import askable_variables

VERSION = "1.0.0"
"""The version of this construction (recorded in each record's provenance)."""
RANDOM_STREAM = "gsme_mt_unanswerable:1.0.0"
BASE_TRIES = 20
"""Ordinary problems tried, at indices ``INDEX_OFFSET + index + t * TRY_STRIDE``
(`infoseek.builders.unanswerable`), before a `BuildError`."""


def target_expression(record: dict[str, Any]) -> sympy.Expr:
    """The target as an exact expression of the unrevealed leaves: each derived quantity
    replaced by its equation, each revealed quantity by its value."""
    names = list(record["variables"])
    symbols = {name: sympy.Symbol(name) for name in names}
    equations = {name: sympy.sympify(expr, locals=symbols, rational=True)
                 for name, expr in record["engine"]["equations"]}
    observed = {symbols[n]: sympy.Rational(str(parse_rational(v)))
                for n, v in record["observed"].items()}
    expanded: dict[str, sympy.Expr] = {}

    def expand(name: str) -> sympy.Expr:
        if symbols[name] in observed:
            return observed[symbols[name]]
        if name not in equations:
            return symbols[name]
        if name not in expanded:
            rhs = equations[name]
            expanded[name] = rhs.subs({s: expand(str(s)) for s in rhs.free_symbols},
                                      simultaneous=True)
        return expanded[name]

    return expand(record["target"])


def withheld_leaf_settles_nothing(record: dict[str, Any], leaf: str) -> bool:
    """The criterion of the module docstring: ``dT/dL`` is not identically zero and names
    no quantity but the withheld leaf."""
    symbol = sympy.Symbol(leaf)
    slope = sympy.cancel(sympy.diff(target_expression(record), symbol))
    return slope != 0 and slope.free_symbols <= {symbol}


def withhold_leaf(record: dict[str, Any], leaf: str) -> dict[str, Any]:
    """The unanswerable form of the ordinary math `record` with `leaf` made unaskable
    (module docstring). The id gets the suffix ``-unanswerable``; ``k`` stays the
    ordinary problem's; ``mss_family`` is empty; the hidden world stays (the oracle
    answers from it)."""
    out = {key: value for key, value in record.items() if key != "provenance"}
    out["id"] = f"{record['id']}-{UNANSWERABLE_SUFFIX}"
    out["queryable"] = [v for v in record["queryable"] if v != leaf]
    out["candidate_queries"] = [entry for entry in record.get("candidate_queries", [])
                                if (entry.get("name") if isinstance(entry, dict)
                                    else entry) != leaf]
    out["forbidden"] = sorted({*record.get("forbidden", ()), leaf})
    out["alternative_only"] = []
    out["mss_family"] = []
    out["unanswerable"] = {"withheld": [leaf], "made_from": record["id"]}
    out["difficulty"] = {**record.get("difficulty", {}), "mss_family_size": 0}
    out["provenance"] = {**(record.get("provenance") or {}), "unanswerable": VERSION}
    return out


def validate_unanswerable_math_record(record: dict[str, Any]) -> list[str]:
    """The exact checks of the module docstring; returns the problems (empty: valid)."""
    from infoseek.records import engine_from_record

    withheld = list((record.get("unanswerable") or {}).get("withheld") or [])
    if len(withheld) != 1:
        return ["an unanswerable math record withholds exactly one leaf"]
    leaf = withheld[0]
    errors: list[str] = []
    engine = engine_from_record(record)
    if is_known(engine):
        errors.append("the target is Known from the observations")
    askable = askable_variables(record, forbid_alternatives=True)
    if leaf in askable or leaf in record["observed"] or not engine.is_leaf(leaf):
        errors.append(f"{leaf!r} must be an unrevealed leaf that may not be asked")
    if not withheld_leaf_settles_nothing(record, leaf):
        errors.append(f"the target does not depend on {leaf!r} alone in a way no answer "
                      "can cancel")
    if is_sufficient(engine, askable):
        errors.append("the askable quantities together settle the target")
    return errors


def _one_leaf_test(record: dict[str, Any]):
    """`first_unanswerable`'s test on `record`: its one withheld leaf qualifies."""
    return lambda leaves: withheld_leaf_settles_nothing(record, leaves[0])


def build_unanswerable(base_builder, seed: int, k: int, index: int) -> dict[str, Any]:
    """Unanswerable record `index` at (seed, k): the first of the ordinary problems at
    indices ``INDEX_OFFSET + index + t * TRY_STRIDE`` (t = 0, 1, ...) with a canonical-MSS
    leaf that qualifies (tried in a seeded order); deterministic in (seed, k, index)."""
    return first_unanswerable(
        "math", seed=seed, k=k, index=index, random_stream=RANDOM_STREAM, tries=BASE_TRIES,
        ordinary=lambda at: base_builder(seed, k, at), withheld_sets=canonical_singles,
        leaves_open=_one_leaf_test, withhold=lambda base, leaves: withhold_leaf(base, leaves[0]),
        validate=validate_unanswerable_math_record)


def build_default(seed: int, k: int, index: int) -> dict[str, Any]:
    """From the GSME-Q-MT story builder (`gsme_mt.build_problem`)."""
    from infoseek.builders.math.gsme_mt import build_problem

    return build_unanswerable(build_problem, seed, k, index)


def build_ext(seed: int, k: int, index: int) -> dict[str, Any]:
    """From the generated-DAG builder (`gsme_mt_ext.build_problem`)."""
    from infoseek.builders.math.gsme_mt_ext import build_problem

    return build_unanswerable(build_problem, seed, k, index)


def build_ext_hard(seed: int, k: int, index: int) -> dict[str, Any]:
    """From the generated-DAG builder's hard split (`gsme_mt_ext.build_hard_problem`)."""
    from infoseek.builders.math.gsme_mt_ext import build_hard_problem

    return build_unanswerable(build_hard_problem, seed, k, index)
