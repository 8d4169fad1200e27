"""QuestBench GSM-Q and GSME-Q released CSVs as math records (source format
``questbench-gsm``: one layout serves both files).

Columns, as QuestBench's own evaluator reads them (``evaluators/gsm.py``) and as a public
view of the released ``gsm_CSP_full.csv`` shows them: ``Rewritten Problem`` (the
underspecified problem: prose in GSM-Q; in GSME-Q the equations, the revealed ``A = 15``
lines and ``What is B?``), ``Variables`` (JSON name -> description), ``Equations`` (JSON
object ``"LHS = RHS"`` -> description, or a list), ``Possible Questions`` (JSON list of
names, offered in this order, then "No questions needed": the GT Question and the
distractors), ``GT Question`` (the one name whose value settles the goal), ``Full Answer``,
and, read when present, ``Pred Values`` (every quantity's value, ``name = value`` lines),
``CSP`` (the full problem in blocks: ``A = 15 [description]``, ``P [description]``,
equations, ``Goal:``), ``Heldout Value`` (the GT Question's value), ``Distractor Vars``
(Python list of names), ``Full Problem``, ``depth`` and ``Question ID`` (kept).

How a row becomes a record (the rules also stand in docs/published-data.md):

- the leaves' values (the hidden world) are ``Pred Values``, else the CSP's ``A = 15``
  lines (else the ``Full Problem``'s); every leaf needs one;
- the goal is the quantity of the CSP's ``Goal:`` block, else of the ``What is ...?`` (or
  ``Goal:``) line of the Full Problem, then of the Rewritten Problem;
- the revealed values: a Rewritten Problem that writes ``A = 15`` lines for leaves is a
  GSME-Q row and reveals exactly those (a value that differs from the leaf's released one
  is reported); a prose one (GSM-Q) reveals what QuestBench's construction keeps, every
  leaf but the GT Question and the ``Distractor Vars`` (without that column: every leaf
  the goal depends on but the GT Question);
- k = 1 and the released minimal sufficient set is ``[GT Question]``;
- a GSM-Q row's word rendering (``gsm_q`` and the other word-problem tasks) is the
  released prose (the record's ``sentences``), opened, in a variant that reveals it, by one
  sentence stating the GT Question's value.

The record id is ``<file stem>-row<N>`` (data rows from 1), whatever ``Question ID`` says
(the released files repeat it); the provenance keeps the file, the row and ``Question ID``.
Verification is the GSME one (`infoseek.builders.math.released.verify`: the held-out
quantity is an unrevealed leaf, sufficient, k = 1 is the smallest sufficient size, the
answer and the derived Pred Values against forward computation, the revealed values)
plus ``gt_not_offered`` (the GT Question is not among the Possible Questions, so the
released item has no right choice) and ``heldout_value`` (Heldout Value is not the GT
Question's value).
"""

from __future__ import annotations

import json
import re
from typing import Any

from infoseek.builders.math.gsm_text import format_number
from infoseek.builders.math.released.parse import (
    NAME,
    NUMBER_TEXT,
    equation_names,
    equations_cell,
    is_name,
    loose_names,
    number,
    text_sections,
    variables_cell,
)
from infoseek.builders.math.released.pose import pose
from infoseek.builders.math.released.source_format import gsme_record_from_row
from infoseek.builders.math.released.values import revealed_in_text, value_lines
from infoseek.builders.math.released.verify import verify as verify_gsme
from infoseek.builders.published import Record, SourceFormat
from infoseek.builders.published.cells import RowRef, cell, close_enough, decode_literal
from infoseek.builders.published.reading import PublishedDataError
from infoseek.engines.arith.engine import ArithEngine, encode_rational
from infoseek.engines.arith.expr import parse_rational
from infoseek.text import short_repr

REQUIRED = ("Rewritten Problem", "Variables", "Equations", "Possible Questions",
            "GT Question", "Full Answer")
SIGNATURE = ("Rewritten Problem", "Possible Questions", "GT Question")
OPTIONAL = ("CSP", "Pred Values", "Heldout Value", "Distractor Vars", "Full Problem", "depth",
            "Question ID")
ID_FIELDS = ("Question ID",)
CHECKS = ("gt_not_offered", "heldout_value")
"""The checks this source format adds to the GSME ones (`verify`)."""

_VALUE_LINE = re.compile(rf"^\s*({NAME.pattern})\s*=\s*({NUMBER_TEXT})\s*(?:\[.*\])?\s*[.]?$")
_QUESTION_LINE = re.compile(r"^\s*what\s+is\b(.*)$", re.IGNORECASE)
# the fields the GSME reader names, and the QuestBench columns they come from here
_FIELD_NAMES = {"Pred Values": "CSP", "goal_var": "CSP", "Heldout Value": "GT Question",
                "Given_Conditions": "Rewritten Problem", "k": "GT Question"}


def _csp_values(text: str) -> dict[str, str]:
    """{name: value text} of the ``A = 15 [description]`` lines of a CSP (or symbolic
    Full Problem) outside its Equations and Goal blocks."""
    sections = text_sections(text)
    found: dict[str, str] = {}
    for line in [*sections["intro"], *sections["variables"]]:
        match = _VALUE_LINE.match(line)
        if match:
            found.setdefault(match.group(1), match.group(2).strip())
    return found


def _goal(text: str, known: set[str]) -> str | None:
    """The one known quantity of the Goal block (its first line), else of the last
    ``What is ...?`` line of `text`; None when there is none or several."""
    sections = text_sections(text)
    lines = [line for line in sections["goal"] if line.strip()]
    if lines:
        found = {t for t in NAME.findall(lines[0].split("[", 1)[0]) if t in known}
        return next(iter(found)) if len(found) == 1 else None
    for line in reversed(text.splitlines()):
        match = _QUESTION_LINE.match(line)
        if match:
            found = {t for t in NAME.findall(match.group(1)) if t in known}
            return next(iter(found)) if len(found) == 1 else None
    return None


def _possible_questions(row: dict[str, Any], ref: RowRef, known: set[str]) -> list[str]:
    field = "Possible Questions"
    raw = cell(row, field, ref)
    try:
        value = decode_literal(raw)
    except ValueError:
        raise ref.error(field, f"expected a JSON list of quantity names, got "
                        f"{short_repr(raw)}") from None
    if not isinstance(value, (list, tuple)):
        raise ref.error(field, f"expected a JSON list of quantity names, got {short_repr(raw)}")
    names: list[str] = []
    for item in value:
        name = item.strip() if isinstance(item, str) else item
        if not is_name(name):
            raise ref.error(field, f"{short_repr(item)} is not a quantity name")
        if name not in known:
            raise ref.error(field, f"{name!r} is not a quantity of this problem (not in "
                            "Variables nor in any equation)")
        if name not in names:
            names.append(name)
    return names


def _gt_question(row: dict[str, Any], ref: RowRef, known: set[str]) -> str:
    raw = cell(row, "GT Question", ref)
    name = str(raw).strip()
    try:
        decoded = decode_literal(name)
    except ValueError:
        decoded = name
    if isinstance(decoded, (list, tuple)) and len(decoded) == 1:
        decoded = decoded[0]
    name = decoded.strip() if isinstance(decoded, str) else name
    if not is_name(name):
        raise ref.error("GT Question", f"expected one quantity name, got {short_repr(raw)}")
    if name not in known:
        raise ref.error("GT Question", f"{name!r} is not a quantity of this problem (not in "
                        "Variables nor in any equation)")
    return name


def _distractors(row: dict[str, Any], ref: RowRef, known: set[str]) -> list[str] | None:
    """The released ``Distractor Vars`` (a list of names), or None when absent."""
    names = loose_names(row, "Distractor Vars", ref, required=False)
    if names is None:
        return None
    unknown = [n for n in names if n not in known]
    if unknown:
        raise ref.error("Distractor Vars", f"{unknown[0]!r} is not a quantity of this problem")
    return names


def _leaf_values(row: dict[str, Any], ref: RowRef, known: set[str], leaves: set[str],
                 csp: str, full: str) -> tuple[dict[str, str], str]:
    """({leaf: value text}, the column they come from): ``Pred Values`` when the file has
    it (every quantity's value, ``name = value`` lines), else the CSP's ``A = 15`` lines
    (and the Full Problem's for leaves the CSP gives none)."""
    if cell(row, "Pred Values", ref, required=False) is not None:
        values = {n: v for n, v in value_lines(str(row["Pred Values"]), "Pred Values", ref)
                  if n in known}
        field = "Pred Values"
    else:
        values = {n: v for n, v in _csp_values(csp).items() if n in known}
        if full:
            for name, value in _csp_values(full).items():
                if name in known:
                    values.setdefault(name, value)
        field = "CSP"
    for name in sorted(values):
        number(values[name], field, ref, f"the value of {name!r}")
    missing = sorted(leaves - set(values))
    if missing:
        raise ref.error(field, f"gives no value to the leaf {missing[0]!r}"
                        + (f" (nor to {missing[1:6]})" if len(missing) > 1 else "")
                        + (": expected an 'A = 15 [description]' line for every quantity no "
                           "equation defines" if field == "CSP" else ""))
    return values, field


def questbench_gsm_record_from_row(row: dict[str, Any], ref: RowRef) -> Record:
    """One QuestBench GSM-Q / GSME-Q row as a math record (rules: the module docstring)."""
    declared = variables_cell(row, ref)
    if not declared:
        raise ref.error("Variables", "is empty: expected a JSON object name -> description")
    equations, _descriptions = equations_cell(row, ref, declared=declared)
    known = set(declared) | set(equation_names(equations))
    leaves = known - {lhs for lhs, _rhs in equations}
    text = str(cell(row, "Rewritten Problem", ref))
    csp = cell(row, "CSP", ref, required=False)
    csp = str(csp) if csp is not None else ""
    full = cell(row, "Full Problem", ref, required=False)
    full = str(full) if full is not None else ""
    if not csp and cell(row, "Pred Values", ref, required=False) is None:
        raise ref.error("CSP", "is empty and there is no Pred Values column: the leaves' "
                        "values are in one of them")

    goal = ((_goal(csp, known) if csp else None) or (_goal(full, known) if full else None)
            or _goal(text, known))
    if goal is None:
        raise ref.error("Rewritten Problem", "names no single goal quantity (no 'What is "
                        "...?' line here or in the Full Problem, no 'Goal:' block in the CSP)")
    gt = _gt_question(row, ref, known)
    offered = _possible_questions(row, ref, known)
    distractors = _distractors(row, ref, known)
    values, values_field = _leaf_values(row, ref, known, leaves, csp, full)

    shown = revealed_in_text(text, leaves)
    if shown:
        variant, revealed = "GSME-Q", sorted(shown)
        rule = "the Rewritten Problem's 'A = 15' lines"
    elif distractors is not None:
        variant = "GSM-Q"
        revealed = sorted(n for n in leaves if n != gt and n not in distractors)
        rule = ("every leaf but the GT Question and the Distractor Vars (the Rewritten "
                "Problem is prose)")
    else:
        try:
            relevant = set(ArithEngine(sorted(known), equations, {}, goal)
                           .goal_relevant_leaves())
        except ValueError as exc:
            raise ref.error("Equations", str(exc)) from None
        variant = "GSM-Q"
        revealed = sorted(n for n in relevant if n != gt)
        rule = ("every leaf the goal depends on but the GT Question (the Rewritten Problem "
                "is prose; no Distractor Vars column)")

    adapted = {
        "Rewritten Problem": text, "Variables": row["Variables"], "CSP": csp or None,
        "Equations": row["Equations"], "Possible Questions": json.dumps(offered),
        "Full Answer": row["Full Answer"], "goal_var": goal, "k": "1",
        "Heldout Value": json.dumps([gt]),
        "Pred Values": (row["Pred Values"] if values_field == "Pred Values" else
                        "\n".join(f"{n} = {values[n]}" for n in sorted(values))),
        "Given_Conditions": json.dumps(revealed),
    }
    names = dict(_FIELD_NAMES, **({"Pred Values": "Pred Values"}
                                  if values_field == "Pred Values" else {}))
    try:
        record = gsme_record_from_row(adapted, ref)
    except PublishedDataError as exc:
        message = str(exc)
        for ours, theirs in names.items():
            message = message.replace(f"field {ours!r}", f"field {theirs!r}")
        raise PublishedDataError(message, check=exc.check) from None
    released = record["released"]
    released.pop("revealed_from_pred_values", None)
    heldout_value = cell(row, "Heldout Value", ref, required=False)
    if heldout_value is not None:
        exact, places = number(heldout_value, "Heldout Value", ref, "the held-out value")
        released["heldout_value"] = {"value": encode_rational(exact), "decimal_places": places}
    released["questbench"] = {
        "variant": variant, "revealed_rule": rule, "possible_questions": offered,
        "gt_question": gt, "distractor_vars": distractors,
        "question_id": _plain(row.get("Question ID")), "depth": _plain(row.get("depth")),
    }
    if full:
        released["full_problem"] = full
    if variant == "GSM-Q":
        # the word-problem tasks tell the released prose; a variant that reveals the GT
        # Question's value opens with one sentence stating it
        described = record["descriptions"].get(gt, gt)
        record["sentences"] = {
            "values": {gt: f"{described[:1].upper()}{described[1:]} is "
                           f"{format_number(record['hidden_world'][gt])}."},
            "equations": {}, "question": text.strip()}
    return record


def _plain(value: Any) -> Any:
    if value is None or (isinstance(value, str) and not value.strip()):
        return None
    return value.strip() if isinstance(value, str) else value


def verify(record: Record) -> list[dict[str, Any]]:
    """The GSME checks (`infoseek.builders.math.released.verify.verify`: a Rewritten
    Problem value that differs from the leaf's released value is ``revealed_values``),
    plus ``gt_not_offered`` and ``heldout_value``."""
    found = verify_gsme(record)
    released = record.get("released") or {}
    info = released.get("questbench") or {}
    gt = info.get("gt_question")
    offered = info.get("possible_questions") or []
    if gt is not None and gt not in offered:
        found.append({"check": "gt_not_offered", "released": offered,
                      "reason": f"the GT Question {gt!r} is not among the Possible Questions, "
                      "so the released item has no right choice"})
    held = released.get("heldout_value")
    world = record.get("hidden_world") or {}
    if held is not None and gt in world:
        given, value = parse_rational(held["value"]), parse_rational(world[gt])
        if not close_enough(given, value, held["decimal_places"]):
            found.append({"check": "heldout_value", "released": held["value"],
                          "computed": encode_rational(value),
                          "reason": f"Heldout Value {held['value']} is not the value "
                          f"{encode_rational(value)} the problem gives {gt!r}"})
    return found


QUESTBENCH_GSM = SourceFormat(
    name="questbench-gsm", domain="math",
    description="QuestBench GSM-Q / GSME-Q CSV: grade-school problems (prose or "
                "equations) with one held-out quantity, the GT Question",
    required=REQUIRED, signature=SIGNATURE, id_fields=ID_FIELDS,
    record_from_row=questbench_gsm_record_from_row, verify=verify,
    pose=pose, id_from_file=True,
)

__all__ = ["CHECKS", "QUESTBENCH_GSM", "questbench_gsm_record_from_row", "verify"]
