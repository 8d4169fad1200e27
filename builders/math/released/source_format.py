"""MT-InfoSeek GSME-Q-MT and GSME-Q-MT-Ext released files as math records.

Columns read (``gsme_q_mt.csv``, ``gsme_q_mt_ext.csv``; cells are JSON or Python
literals, parsing in `infoseek.builders.math.released.parse` and `gsme_values`):

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

Records are those of `infoseek.builders.math.math_record.math_record` with ``mss_family`` the
released
held-out set, plus ``released`` (the released values, exactly encoded) and
``released_text`` (the Rewritten Problem). `verify` re-derives everything with the exact
arithmetic engine; see `verify` for the checks.
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any

from infoseek.builders.math.math_record import candidate_queries, math_difficulty
from infoseek.builders.math.released.parse import (
    answer_value,
    csp_cell,
    equation_names,
    equations_cell,
    flag_value,
    is_role,
    loose_names,
    question_names,
    roles_only,
    variables_cell,
)
from infoseek.builders.math.released.pose import pose
from infoseek.builders.math.released.values import (
    goal_in_text,
    revealed_cell,
    revealed_in_text,
    values_cell,
)
from infoseek.builders.math.released.verify import ANSWER_COLUMNS, verify
from infoseek.builders.published import Record, SourceFormat
from infoseek.builders.published.cells import RowRef, cell, close_enough, int_cell
from infoseek.builders.published.reading import PublishedDataError
from infoseek.engines.arith.engine import ArithEngine, encode_rational

ID_FIELDS = ("sample_id", "problem_id", "id")
REQUIRED = ("Rewritten Problem", "Equations", "Heldout Value", "goal_var", "k", "Pred Values")
SIGNATURE = ("Rewritten Problem", "Equations", "Heldout Value")
EXT_COLUMNS = ("distractor_vars", "rule_records")
FLAG_COLUMNS = ("has_distractor", "has_merge", "ksufficient_found", "has_alternative_path")
FORBID_COLUMN = "Possible Questions Forbid Alternatives"
QUESTBENCH_COLUMN = "GT Question"
"""QuestBench's GSM-Q / GSME-Q files share the GSME columns; this one marks them
(`infoseek.builders.math.released.questbench`)."""

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
                 ) -> tuple[dict[str, Fraction], dict[str, int], dict[str, Any]]:
    """(every quantity's released value, {name: decimal places} for those written with a
    decimal point, notes for `released`). Ext: ``pred_values_dict`` when present and
    readable, its gaps filled from Pred Values; values the two columns give differently
    (neither one the other rounded to its written places) are kept for `verify`
    (``pred_values``)."""
    notes: dict[str, Any] = {}
    text_values: dict[str, Fraction] | None = None
    text_places: dict[str, int] = {}
    text_error: PublishedDataError | None = None
    try:
        text_values, text_places = values_cell(row, "Pred Values", ref, known)
    except PublishedDataError as exc:
        text_error = exc
    if ext and cell(row, "pred_values_dict", ref, required=False) is not None:
        try:
            pred, places = values_cell(row, "pred_values_dict", ref, known)
        except PublishedDataError as exc:
            notes["pred_values_dict_unread"] = str(exc)
        else:
            notes["pred_values_source"] = "pred_values_dict"
            if text_values is not None:
                differ = sorted(v for v in pred if v in text_values
                                and not _agrees(pred[v], places.get(v),
                                                text_values[v], text_places.get(v)))
                if differ:
                    notes["pred_values_text"] = {v: encode_rational(text_values[v])
                                                 for v in differ}
                for v, q in text_values.items():
                    if v not in pred:
                        pred[v] = q
                        if v in text_places:
                            places[v] = text_places[v]
            return pred, places, notes
    if text_values is None:
        assert text_error is not None
        raise text_error
    return text_values, text_places, notes


def _agrees(a: Fraction, a_places: int | None, b: Fraction, b_places: int | None) -> bool:
    """Whether two released values agree: equal, or one is the other rounded to the
    decimal places it was written with."""
    return close_enough(a, b, a_places) or close_enough(b, a, b_places)


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
    # leaves: the quantities no equation defines (the engine, built once the revealed
    # values are known, checks the equations themselves)
    leaves = set(variables) - {lhs for lhs, _rhs in equations}

    heldout = loose_names(row, "Heldout Value", ref) or []
    if not heldout:
        raise ref.error("Heldout Value", "is empty: the released MSS names no quantity")
    unknown = [v for v in heldout if v not in known]
    if unknown:
        raise ref.error("Heldout Value", f"names unknown quantities {unknown}")
    k = int_cell(row, "k", ref, minimum=1)

    pred, places, pred_notes = _pred_values(row, ref, known, ext)
    revealed, revealed_notes = _revealed(row, ref, text, known, leaves, pred)
    observed = {v: q for v, q in revealed.items() if v in leaves}
    revealed_derived = {v: q for v, q in revealed.items() if v not in leaves}

    missing = sorted(v for v in leaves if v not in pred and v not in observed)
    if missing:
        raise ref.error("Pred Values", f"gives no value to the leaf {missing[0]!r}"
                        + (f" (nor to {missing[1:6]})" if len(missing) > 1 else ""))
    world = {v: pred.get(v, observed.get(v)) for v in sorted(leaves)}

    answer, answer_places, source = None, None, None
    for column in ANSWER_COLUMNS:
        raw = cell(row, column, ref, required=False)
        if raw is not None:
            answer, answer_places = answer_value(raw, column, ref)
            source = column
            break
    if answer is None and goal in pred:
        answer, answer_places, source = pred[goal], places.get(goal), "Pred Values"
    try:
        engine = ArithEngine(variables, equations, observed, goal)
    except ValueError as exc:
        raise ref.error("Equations", str(exc)) from None
    if answer is None:
        try:
            answer = engine.world_target(world)
        except ValueError as exc:
            raise ref.error("Pred Values", f"no released answer, and the leaf values give "
                            f"the goal no value: {exc}") from None
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

    released: dict[str, Any] = {
        "heldout": heldout,
        "pred_values": {v: encode_rational(pred[v]) for v in sorted(pred)},
        # decimal places of the values written with a decimal point (the others: exact)
        "decimal_places": {v: places[v] for v in sorted(places)},
        "answer": encode_rational(answer) if source else None,
        "answer_source": source,
        "answer_decimal_places": answer_places,
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
        # derived quantities are refused as `not_leaf` (only leaves may be asked), even
        # when the released question list does not name them
        "not_leaf": sorted(v for v in variables if v != goal and not engine.is_leaf(v)),
        "k": k,
        "mss_family": [sorted(heldout)],
        "difficulty": math_difficulty(engine, queryable, 1),
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


# -------------------------------------------------------------------- source formats
MT_INFOSEEK_GSME = SourceFormat(
    name="mt-infoseek-gsme", domain="math",
    description="MT-InfoSeek GSME-Q-MT (gsme_q_mt.csv): equation systems from grade-school "
                "problems with a released held-out MSS",
    required=REQUIRED, signature=SIGNATURE, id_fields=ID_FIELDS,
    record_from_row=gsme_record_from_row, verify=verify,
    excludes=(*EXT_COLUMNS, QUESTBENCH_COLUMN), pose=pose,
)

MT_INFOSEEK_GSME_EXT = SourceFormat(
    name="mt-infoseek-gsme-ext", domain="math",
    description="MT-InfoSeek GSME-Q-MT-Ext (gsme_q_mt_ext.csv): generated equation DAGs "
                "with distractor subgraphs and a released held-out MSS",
    required=REQUIRED, signature=SIGNATURE + ("distractor_vars",), id_fields=ID_FIELDS,
    record_from_row=gsme_ext_record_from_row, verify=verify, excludes=(QUESTBENCH_COLUMN,),
    pose=pose,
)

__all__ = ["CHECKS", "MT_INFOSEEK_GSME", "MT_INFOSEEK_GSME_EXT", "gsme_ext_record_from_row",
           "gsme_record_from_row", "verify"]
