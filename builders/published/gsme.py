"""MT-InfoSeek GSME-Q-MT and GSME-Q-MT-Ext released files as math records.

Columns read (``gsme_q_mt.csv``, ``gsme_q_mt_ext.csv``; cells are JSON or Python
literals, parsing in `builders.published.gsme_parse`):

- ``Equations``: ``"P = B + (F * B)" -> description`` (or a list of such strings, or of
  ``[lhs, rhs]`` pairs); every equation must parse and define one named quantity;
- ``Variables``: name -> description (optional); in Ext it maps names to roles
  (``known_leaf``, ``derived_distractor``, ``goal``, ...): the roles are kept in
  ``released["roles"]`` and a description comes from the ``CSP`` column's
  ``A = 15 [desc]`` / ``P [desc]`` lines when they hold one, else it is the name;
- ``goal_var`` (else the quantity on the ``Goal:`` line of the text), ``k``,
  ``Heldout Value`` (the released MSS: a list of names);
- ``Given_Conditions``: the revealed quantities, as released a JSON list of names whose
  values are the Rewritten Problem's ``B = 12`` lines (else their Pred Values; a text
  value that differs from Pred Values is a ``revealed_values`` disagreement); also a
  dict, ``"A = 15"`` strings or text; when absent or blank, the ``A = 15`` lines of
  ``Rewritten Problem`` (outside its Equations block) whose left side is a leaf;
- ``Pred Values``: every quantity's value, ``name = value`` lines as released (or a JSON
  object; names that are not quantities are ignored); Ext prefers ``pred_values_dict``
  when present and readable (values the two give differently: ``pred_values``); the
  hidden world is the leaves' values;
- ``answer``, else ``Full Answer`` (a number, or a worked solution whose final number
  counts), else the goal's Pred Value;
- ``Possible Questions`` (names, or questions that contain one name or description);
  when absent, every unrevealed quantity but the target;
- Ext only: ``distractor_vars`` and the ``True``/``False`` flags (kept), ``rule_records``
  and ``graph`` (not used: the equations define the problem); ``Possible Questions
  Forbid Alternatives`` is kept when present.

Records are those of `builders.gsme_ext.math_record` with ``mss_family`` the released
held-out set, plus ``released`` (the released values, exactly encoded) and
``released_text`` (the Rewritten Problem). `verify` re-derives everything with the exact
arithmetic engine; see `verify` for the checks.
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any

from builders.gsme_ext import candidate_queries
from builders.published import PublishedFormat, Record
from builders.published.gsme_parse import (
    answer_value,
    csp_cell,
    equation_names,
    equations_cell,
    flag_value,
    goal_in_text,
    is_role,
    loose_names,
    question_names,
    revealed_cell,
    revealed_in_text,
    roles_only,
    values_cell,
    variables_cell,
)
from builders.published.reading import PublishedDataError, RowRef, cell, int_cell
from infoseek.analysis import minimal_sufficient_sets
from infoseek.arith import ArithEngine, ArithUndecidable, encode_rational, is_unbounded
from infoseek.arith_expr import parse_rational

ID_FIELDS = ("sample_id", "problem_id", "id")
REQUIRED = ("Rewritten Problem", "Equations", "Heldout Value", "goal_var", "k", "Pred Values")
SIGNATURE = ("Rewritten Problem", "Equations", "Heldout Value")
EXT_COLUMNS = ("distractor_vars", "rule_records")
ANSWER_COLUMNS = ("answer", "Full Answer")
RELATIVE_TOLERANCE = Fraction(1, 10**6)
FLAG_COLUMNS = ("has_distractor", "has_merge", "ksufficient_found", "has_alternative_path")
FORBID_COLUMN = "Possible Questions Forbid Alternatives"

CHECKS = ("infeasible", "revealed_values", "revealed_not_leaf", "not_underspecified",
          "heldout_not_leaf", "heldout_not_sufficient", "heldout_not_minimal", "k",
          "answer", "pred_values", "undecidable")
"""Every `check` name `verify` may report."""


# --------------------------------------------------------------------------- rows
def _descriptions(row: dict[str, Any], ref: RowRef
                  ) -> tuple[dict[str, str], dict[str, str], dict[str, str], str | None]:
    """(the Variables names with their descriptions, the descriptions to use, the roles
    when Variables maps names to roles (Ext), the CSP goal question). A description is the
    Variables one, else the CSP column's ``A = 15 [desc]`` one (role words are not
    descriptions), else the name itself (filled in by the caller)."""
    declared = variables_cell(row, ref)
    roles: dict[str, str] = {}
    if roles_only(declared):
        roles = {v: d for v, d in declared.items() if d}
    csp, question = csp_cell(row, ref)
    names = dict(declared) if declared else dict(csp)
    described: dict[str, str] = {}
    for name in dict.fromkeys([*names, *csp]):
        own = declared.get(name, "")
        if own and not roles and own != name:
            described[name] = own
        elif csp.get(name) and not is_role(csp[name]):
            described[name] = csp[name]
    return names, described, roles, question


def _pred_values(row: dict[str, Any], ref: RowRef, known: set[str], ext: bool
                 ) -> tuple[dict[str, Fraction], set[str], dict[str, Any]]:
    """(every quantity's released value, the inexact ones, notes for `released`). Ext:
    ``pred_values_dict`` when present and readable, its gaps filled from Pred Values;
    values the two columns give differently are kept for `verify` (``pred_values``)."""
    notes: dict[str, Any] = {}
    text_values: dict[str, Fraction] | None = None
    text_inexact: set[str] = set()
    text_error: PublishedDataError | None = None
    try:
        text_values, text_inexact = values_cell(row, "Pred Values", ref, known)
    except PublishedDataError as exc:
        text_error = exc
    if ext and cell(row, "pred_values_dict", ref, required=False) is not None:
        try:
            pred, inexact = values_cell(row, "pred_values_dict", ref, known)
        except PublishedDataError as exc:
            notes["pred_values_dict_unread"] = str(exc)
        else:
            notes["pred_values_source"] = "pred_values_dict"
            if text_values is not None:
                differ = sorted(v for v in pred if v in text_values
                                and not _agrees(pred[v], text_values[v],
                                                v in inexact or v in text_inexact))
                if differ:
                    notes["pred_values_text"] = {v: encode_rational(text_values[v])
                                                 for v in differ}
                for v, q in text_values.items():
                    if v not in pred:
                        pred[v] = q
                        if v in text_inexact:
                            inexact.add(v)
            return pred, inexact, notes
    if text_values is None:
        assert text_error is not None
        raise text_error
    return text_values, text_inexact, notes


def _agrees(a: Fraction, b: Fraction, inexact: bool) -> bool:
    return a == b or (inexact and _close(a, b))


def _revealed(row: dict[str, Any], ref: RowRef, text: str, known: set[str],
              leaves: set[str], pred: dict[str, Fraction]
              ) -> tuple[dict[str, Fraction], dict[str, Any]]:
    """(the revealed values, notes for `released`). Given_Conditions names the revealed
    quantities (with values, or bare names whose values are the problem text's ``B = 12``
    lines, else their Pred Values); without it, the text's ``A = 15`` lines of leaves."""
    notes: dict[str, Any] = {}
    listed = revealed_cell(row, ref, known)
    if listed is None:
        return revealed_in_text(text, leaves), notes
    shown = revealed_in_text(text, known)
    revealed: dict[str, Fraction] = {}
    from_pred = []
    for name, value in listed.items():
        if value is None:
            value = shown.get(name)
            if value is None:
                value = pred.get(name)
                if value is None:
                    raise ref.error("Given_Conditions", f"reveals {name!r}, but neither the "
                                    "Rewritten Problem nor Pred Values gives its value")
                from_pred.append(name)
        revealed[name] = value
    if from_pred:
        notes["revealed_from_pred_values"] = sorted(from_pred)
    unlisted = sorted(v for v in shown if v in leaves and v not in listed)
    if unlisted:
        notes["text_revealed_unlisted"] = {v: encode_rational(shown[v]) for v in unlisted}
    return revealed, notes


def _record(row: dict[str, Any], ref: RowRef, ext: bool) -> Record:
    text = cell(row, "Rewritten Problem", ref, required=False, default="")
    text = text if isinstance(text, str) else str(text)
    declared, described, roles, goal_question = _descriptions(row, ref)
    equations, equation_descriptions = equations_cell(row, ref, declared=declared)
    known = set(declared) | set(equation_names(equations))
    variables = sorted(known)

    goal = cell(row, "goal_var", ref, required=False)
    goal = goal.strip() if isinstance(goal, str) else goal
    if goal is None:
        goal = goal_in_text(text, known)
        if goal is None:
            raise ref.error("goal_var", "is empty and the Goal: line names no single quantity")
    if goal not in known:
        raise ref.error("goal_var", f"{goal!r} is not a quantity of this problem (not in "
                        "Variables nor in any equation)")
    try:
        structure = ArithEngine(variables, equations, {}, goal)
    except ValueError as exc:
        raise ref.error("Equations", str(exc)) from None
    leaves = set(structure.leaves)

    heldout = loose_names(row, "Heldout Value", ref) or []
    if not heldout:
        raise ref.error("Heldout Value", "is empty: the released MSS names no quantity")
    unknown = [v for v in heldout if v not in known]
    if unknown:
        raise ref.error("Heldout Value", f"names unknown quantities {unknown}")
    k = int_cell(row, "k", ref, minimum=1)

    pred, inexact, pred_notes = _pred_values(row, ref, known, ext)
    revealed, revealed_notes = _revealed(row, ref, text, known, leaves, pred)
    observed = {v: q for v, q in revealed.items() if v in leaves}
    revealed_derived = {v: q for v, q in revealed.items() if v not in leaves}

    missing = sorted(v for v in leaves if v not in pred and v not in observed)
    if missing:
        raise ref.error("Pred Values", f"gives no value to the leaf {missing[0]!r}"
                        + (f" (nor to {missing[1:6]})" if len(missing) > 1 else ""))
    world = {v: pred.get(v, observed.get(v)) for v in sorted(leaves)}

    answer, answer_inexact, source = None, False, None
    for column in ANSWER_COLUMNS:
        raw = cell(row, column, ref, required=False)
        if raw is not None:
            answer, answer_inexact = answer_value(raw, column, ref)
            source = column
            break
    if answer is None and goal in pred:
        answer, answer_inexact, source = pred[goal], goal in inexact, "Pred Values"
    if answer is None:
        try:
            answer = structure.world_target(world)
        except ValueError as exc:
            raise ref.error("Pred Values", f"no released answer, and the leaf values give "
                            f"the goal no value: {exc}") from None

    engine = ArithEngine(variables, equations, observed, goal)
    queries = question_names(row, ref, known, described)
    if queries is None:
        candidates = candidate_queries(engine, observed)
        unmatched: list[str] = []
    else:
        relevant = set(engine.goal_relevant_leaves())
        names, unmatched = queries
        candidates = [
            {"name": v, "kind": ("derived" if not engine.is_leaf(v) else
                                 "relevant_leaf" if v in relevant else "irrelevant_leaf")}
            for v in names if v != goal and v not in observed
        ]
    queryable = sorted(v for v in leaves if v not in observed)
    try:
        values = engine.target_values()
        compatible: int | str = "unbounded" if is_unbounded(values) else len(values)
    except ArithUndecidable:
        compatible = "undecidable"

    released: dict[str, Any] = {
        "heldout": heldout,
        "pred_values": {v: encode_rational(pred[v]) for v in sorted(pred)},
        "inexact": sorted(inexact),
        "answer": encode_rational(answer) if source else None,
        "answer_source": source,
        "answer_inexact": answer_inexact,
    }
    if revealed_derived:
        released["revealed_derived"] = {v: encode_rational(q)
                                        for v, q in sorted(revealed_derived.items())}
    if unmatched:
        released["unmatched_questions"] = unmatched
    if equation_descriptions:
        released["equation_descriptions"] = equation_descriptions
    if roles:
        released["roles"] = roles
    if goal_question:
        released["goal_question"] = goal_question
    released.update(pred_notes)
    released.update(revealed_notes)
    if ext:
        released["distractor_vars"] = loose_names(row, "distractor_vars", ref,
                                                  required=False) or []
        flags = {f: flag_value(row[f]) for f in FLAG_COLUMNS
                 if f in row and flag_value(row[f]) is not None}
        if flags:
            released["flags"] = flags
    forbid = _questions_forbid_alternatives(row, ref, known, described)
    if forbid is not None:
        released["questions_forbid_alternatives"] = forbid
    return {
        "domain": "math",
        "engine": engine.engine_spec(),
        "variables": variables,
        "descriptions": {v: described.get(v) or v for v in variables},
        "observed": {v: encode_rational(observed[v]) for v in sorted(observed)},
        "target": goal,
        "hidden_world": {v: encode_rational(q) for v, q in world.items()},
        "answer": encode_rational(answer),
        "queryable": queryable,
        "forbidden": [],
        "alternative_only": [],
        "candidate_queries": candidates,
        "k": k,
        "mss_family": [sorted(heldout)],
        "difficulty": {
            "depth": engine.depth(),
            "num_vars": len(variables),
            "num_rules": len(engine.equations),
            "num_relevant_leaves": len(engine.goal_relevant_leaves()),
            "num_queryable": len(queryable),
            "mss_family_size": 1,
            "compatible_values": compatible,
        },
        "released": released,
        "released_text": text,
    }


def _questions_forbid_alternatives(row: dict[str, Any], ref: RowRef, known: set[str],
                                   described: dict[str, str]) -> list[str] | str | None:
    """The released ``Possible Questions Forbid Alternatives`` (kept, not used): the names
    it holds, or its text when it holds something else; None when absent."""
    if cell(row, FORBID_COLUMN, ref, required=False) is None:
        return None
    try:
        found = question_names(row, ref, known, described, field=FORBID_COLUMN)
    except PublishedDataError:
        found = None
    if found is None or found[1]:
        return str(row[FORBID_COLUMN])
    return found[0]


def gsme_record_from_row(row: dict[str, Any], ref: RowRef) -> Record:
    return _record(row, ref, ext=False)


def gsme_ext_record_from_row(row: dict[str, Any], ref: RowRef) -> Record:
    return _record(row, ref, ext=True)


# --------------------------------------------------------------------------- verify
def _close(released: Fraction, computed: Fraction) -> bool:
    scale = max(abs(released), abs(computed))
    return abs(released - computed) <= RELATIVE_TOLERANCE * scale


def _names(values: list[str]) -> str:
    return "[" + ", ".join(values) + "]"


def verify(record: Record) -> list[dict[str, Any]]:
    """Re-derive the released ground truth with the exact engine; every disagreement,
    each ``{"check", "reason", "released"?, "computed"?}`` (values exactly encoded):

    - ``infeasible``: no world agrees with the revealed values, or the released leaf
      values (Pred Values) make a divisor zero (then answer/pred_values are not checked);
    - ``revealed_values``: a revealed value differs from that leaf's Pred Value;
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
      (exactly; or beyond a relative tolerance of 1e-6 when the answer was a decimal);
    - ``pred_values``: derived quantities whose released value differs from forward
      computation from the leaves (same tolerance rule, per value);
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
        inexact = bool(released.get("answer_inexact"))
        if computed != answer and not (inexact and _close(answer, computed)):
            how = ("beyond a relative tolerance of 1e-6 (the released answer is a decimal)"
                   if inexact else "compared exactly")
            found.append({"check": "answer", "released": encode_rational(answer),
                          "computed": encode_rational(computed),
                          "reason": f"the target computed from the released leaf values is "
                          f"{encode_rational(computed)}, not the released answer "
                          f"{encode_rational(answer)} ({how})"})
    pred = released.get("pred_values") or {}
    loose = set(released.get("inexact") or ())
    differ = []
    for v in engine.derived:
        if v in pred:
            given = parse_rational(pred[v])
            if given != full[v] and not (v in loose and _close(given, full[v])):
                differ.append(v)
    if differ:
        found.append({"check": "pred_values", "released": {v: pred[v] for v in differ},
                      "computed": {v: encode_rational(full[v]) for v in differ},
                      "reason": f"released values of {_names(differ)} differ from forward "
                      "computation from the leaf values (exactly; decimals within a relative "
                      "tolerance of 1e-6)"})


# --------------------------------------------------------------------------- formats
MT_INFOSEEK_GSME = PublishedFormat(
    name="mt-infoseek-gsme", domain="math",
    description="MT-InfoSeek GSME-Q-MT (gsme_q_mt.csv): equation systems from grade-school "
                "problems with a released held-out MSS",
    required=REQUIRED, signature=SIGNATURE, id_fields=ID_FIELDS,
    record_from_row=gsme_record_from_row, verify=verify, excludes=EXT_COLUMNS,
)

MT_INFOSEEK_GSME_EXT = PublishedFormat(
    name="mt-infoseek-gsme-ext", domain="math",
    description="MT-InfoSeek GSME-Q-MT-Ext (gsme_q_mt_ext.csv): generated equation DAGs "
                "with distractor subgraphs and a released held-out MSS",
    required=REQUIRED, signature=SIGNATURE + ("distractor_vars",), id_fields=ID_FIELDS,
    record_from_row=gsme_ext_record_from_row, verify=verify,
)

__all__ = ["CHECKS", "MT_INFOSEEK_GSME", "MT_INFOSEEK_GSME_EXT", "gsme_ext_record_from_row",
           "gsme_record_from_row", "verify"]
