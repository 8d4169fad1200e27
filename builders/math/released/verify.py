"""Re-verification of released GSME-Q-MT(-Ext) rows with the exact arithmetic engine:
our engine is ground truth, every disagreement is reported with its reason, nothing is
fixed. The records come from `infoseek.builders.math.released.source_format`; the checks
are listed in `verify`.
"""

from __future__ import annotations

from typing import Any

from infoseek.analysis import minimal_sufficient_sets
from infoseek.builders.math.released.parse import rounding_note
from infoseek.builders.published import Record
from infoseek.builders.published.cells import close_enough
from infoseek.engines.arith.engine import ArithEngine, ArithUndecidable, encode_rational
from infoseek.engines.arith.expr import parse_rational

ANSWER_COLUMNS = ("answer", "Full Answer")


def _names(values: list[str]) -> str:
    return "[" + ", ".join(values) + "]"


def verify(record: Record) -> list[dict[str, Any]]:
    """Re-derive the released ground truth with the exact engine; every disagreement,
    each ``{"check", "reason", "released"?, "computed"?}`` (values exactly encoded):

    - ``infeasible``: no world agrees with the revealed values, or the released leaf
      values (Pred Values) make a divisor zero (then answer/pred_values are not checked);
    - ``revealed_values``: a revealed value differs from that leaf's Pred Value (compared
      exactly: leaf values are the problem's inputs, which the hidden world must match);
    - ``revealed_not_leaf``: Given_Conditions reveals derived quantities (not used as
      observations; computed values shown);
    - ``not_underspecified``: the target is Known (one value in every world) from the
      revealed values alone;
    - ``heldout_not_leaf``: a held-out name is derived, revealed or the target;
    - ``heldout_not_sufficient``: revealing the held-out set does not determine the
      target (a witness pair of target values is given);
    - ``heldout_not_minimal``: a proper subset of the held-out set already suffices (named);
    - ``k``: the smallest sufficient set among the unrevealed leaves has a size other than
      the released k, or the released k differs from the held-out set's size;
    - ``answer``: the target in the released world differs from the released answer
      (exactly; a released decimal written with d places agrees when the target rounds
      to it at d places, ``|answer - target| <= 1/2 * 10**-d``);
    - ``pred_values``: derived quantities whose released value differs from forward
      computation from the leaves (same rounding rule, per value);
    - ``undecidable``: the engine cannot decide the problem exactly (not a disagreement).
    """
    found: list[dict[str, Any]] = []
    try:
        _verify(record, found)
    except ArithUndecidable as exc:
        found.append({"check": "undecidable",
                      "reason": f"the exact engine cannot decide this problem: {exc}"})
    return found


def _verify(record: Record, found: list[dict[str, Any]]) -> None:
    from infoseek.records import engine_from_record

    engine = engine_from_record(record)
    assert isinstance(engine, ArithEngine)
    released = record.get("released") or {}
    target = record["target"]
    heldout = list(released.get("heldout") or record["mss_family"][0])
    k = record["k"]
    observed = engine.observed
    world = {v: parse_rational(x) for v, x in record["hidden_world"].items()}

    values = engine.target_values()
    if not values:
        found.append({"check": "infeasible", "reason": "no value of the unrevealed leaves "
                      "agrees with the equations and the revealed values"})
        return
    full = engine.try_complete_world(world)
    if full is None:
        found.append({"check": "infeasible", "reason": "the released leaf values (Pred "
                      "Values) make some divisor zero: they are not a solution"})
    wrong = sorted(v for v in observed if v in world and world[v] != observed[v])
    if wrong:
        found.append({"check": "revealed_values",
                      "reason": f"revealed values differ from Pred Values for {_names(wrong)}",
                      "released": {v: encode_rational(world[v]) for v in wrong},
                      "computed": {v: encode_rational(observed[v]) for v in wrong}})
    text_pred = released.get("pred_values_text") or {}
    if text_pred:
        names = sorted(text_pred)
        dict_pred = released.get("pred_values") or {}
        found.append({"check": "pred_values",
                      "released": {"Pred Values": text_pred,
                                   "pred_values_dict": {v: dict_pred.get(v) for v in names}},
                      "reason": f"Pred Values and pred_values_dict give {_names(names)} "
                      "different values (pred_values_dict was used)"})
    unlisted = released.get("text_revealed_unlisted") or {}
    if unlisted:
        found.append({"check": "revealed_values", "released": unlisted,
                      "reason": f"the Rewritten Problem shows values for {_names(sorted(unlisted))}"
                      " that Given_Conditions does not list (they were not used as "
                      "observations)"})
    derived_given = released.get("revealed_derived") or {}
    if derived_given:
        entry: dict[str, Any] = {
            "check": "revealed_not_leaf", "released": derived_given,
            "reason": f"Given_Conditions reveals derived quantities {_names(sorted(derived_given))}"
                      "; only leaves are observations, so they were not used"}
        if full is not None:
            entry["computed"] = {v: encode_rational(full[v]) for v in sorted(derived_given)}
        found.append(entry)
    known = len(values) == 1
    if known:
        found.append({"check": "not_underspecified",
                      "reason": "the target is Known from the revealed values alone",
                      "computed": encode_rational(next(iter(values)))})
    not_leaf = [v for v in heldout
                if not engine.is_leaf(v) or v in observed or v == target]
    if not_leaf:
        found.append({"check": "heldout_not_leaf", "released": heldout,
                      "reason": f"held-out {_names(not_leaf)} "
                      f"{'is' if len(not_leaf) == 1 else 'are'} not unrevealed leaves "
                      "(derived, revealed or the target)", "computed": not_leaf})
    pair = engine.distinguishing_pair(heldout)
    if pair is not None:
        w1, w2 = pair
        found.append({"check": "heldout_not_sufficient", "released": heldout,
                      "reason": f"revealing {_names(heldout)} does not determine the target: "
                      f"it can still be {encode_rational(w1[target])} or "
                      f"{encode_rational(w2[target])}",
                      "computed": [encode_rational(w1[target]), encode_rational(w2[target])]})
    elif not known and len(heldout) > 1:
        smaller = minimal_sufficient_sets(engine, heldout, len(heldout) - 1)
        if smaller.k is not None:
            subset = sorted(smaller.family[0])
            found.append({"check": "heldout_not_minimal", "released": heldout,
                          "computed": subset,
                          "reason": f"the proper subset {_names(subset)} of the held-out set "
                          "already determines the target"})
    unrevealed = sorted(v for v in engine.leaves if v not in observed)
    if known:
        true_k, example = 0, []
    else:
        search = minimal_sufficient_sets(engine, unrevealed, len(unrevealed))
        true_k = search.k
        example = sorted(search.family[0]) if search.family else []
    problems = []
    if true_k != k:
        problems.append(f"the smallest sufficient set among the unrevealed leaves has size "
                        f"{true_k} (e.g. {_names(example)}), not the released k = {k}")
    if k != len(heldout):
        problems.append(f"the released k = {k} differs from the size {len(heldout)} of the "
                        "held-out set")
    if problems:
        found.append({"check": "k", "reason": "; ".join(problems), "released": k,
                      "computed": true_k, "computed_mss": example})
    if full is None:
        return
    if released.get("answer_source") in ANSWER_COLUMNS:
        answer = parse_rational(record["answer"])
        computed = full[target]
        places = released.get("answer_decimal_places")
        if not close_enough(answer, computed, places):
            how = rounding_note("answer", answer, computed, places)
            found.append({"check": "answer", "released": encode_rational(answer),
                          "computed": encode_rational(computed),
                          "reason": f"the target computed from the released leaf values is "
                          f"{encode_rational(computed)}, not the released answer "
                          f"{encode_rational(answer)} ({how})"})
    pred = released.get("pred_values") or {}
    written = released.get("decimal_places") or {}
    differ, notes = [], []
    for v in engine.derived:
        if v in pred:
            given = parse_rational(pred[v])
            if not close_enough(given, full[v], written.get(v)):
                differ.append(v)
                notes.append(f"{v}: " + rounding_note("value", given, full[v],
                                                      written.get(v)))
    if differ:
        found.append({"check": "pred_values", "released": {v: pred[v] for v in differ},
                      "computed": {v: encode_rational(full[v]) for v in differ},
                      "reason": f"released values of {_names(differ)} differ from forward "
                      f"computation from the leaf values ({'; '.join(notes)})"})
