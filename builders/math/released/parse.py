"""Cell parsing for the MT-InfoSeek GSME-Q-MT(-Ext) files
(`infoseek.builders.math.released.source_format`).

Each function reads one released column of a row and either returns plain values or
raises `PublishedDataError` through `ref.error(field, ...)`, naming the file, the row and
the column. Numbers become exact `Fraction`s (`cells.exact_number`) with the number of
decimal places they were written with (`decimal_places`: 2 for ``"2.50"``, None for
``15``), because released decimals may be rounded: a value written with d places agrees
with an exact one that rounds to it at d places (`cells.close_enough`); a value
written without a decimal point must be exact.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from fractions import Fraction
from typing import Any

from infoseek.builders.published.cells import (
    RowRef,
    cell,
    close_enough,
    decode_literal,
    exact_number,
    literal_cell,
)
from infoseek.engines.arith.expr import encode_rational, names_in, parse_expression
from infoseek.text import short_repr

NAME = re.compile(r"[^\W\d]\w*")
NUMBER_TEXT = r"[-+]?\$?(?:\d{1,3}(?:,\d{3})+|\d+)(?:\.\d+)?(?:\s*/\s*\d+)?"
ASSIGNMENT = re.compile(rf"({NAME.pattern})\s*[=:]\s*({NUMBER_TEXT})")
BULLET = re.compile(r"^\s*(?:[-*\u2022]|\d+[.)])\s+")
SECTION = re.compile(r"^\s*(variables|equations|goal)\s*:\s*(.*)$", re.IGNORECASE)
# operators written with other characters; each has one meaning
_OPERATORS = {"\u00d7": "*", "\u00b7": "*", "\u2217": "*", "\u22c5": "*", "\u00f7": "/",
              "\u2215": "/", "\u2212": "-", "\u2013": "-"}
_TIMES_X = re.compile(r"(?<![\w.])(\d+(?:\.\d+)?)\s*[xX]\s*(\d+(?:\.\d+)?)(?![\w.])")


def is_name(text: Any) -> bool:
    return isinstance(text, str) and NAME.fullmatch(text) is not None


_DECIMAL = re.compile(r"[-+]?\d*(?:\.(\d*))?(?:[eE]([-+]?\d+))?")


def decimal_places(value: Any) -> int | None:
    """How many decimal places a released number was written with, or None when it was
    written exactly (an int, integer text, a fraction such as ``7/2``). A JSON float
    counts the digits of its ``repr`` (``290.0``: 1); an exponent form counts
    ``max(0, digits after the point - exponent)`` (``1.5e3``: 0, ``2e-3``: 3)."""
    if isinstance(value, float):
        text = repr(value)
    elif isinstance(value, str):
        text = value.strip().replace(",", "").replace("$", "").rstrip("%").strip()
    else:
        return None
    match = _DECIMAL.fullmatch(text)
    if match is None or (match.group(1) is None and match.group(2) is None):
        return None
    return max(0, len(match.group(1) or "") - int(match.group(2) or 0))


def decimal_text(value: Fraction, places: int) -> str:
    """`value` written with `places` decimal places (``3.33``, ``290.0``); its exact
    encoding when it has more places than that."""
    scaled = value * 10**places
    if scaled.denominator != 1:
        return encode_rational(value)
    digits = str(abs(scaled.numerator)).rjust(places + 1, "0")
    sign = "-" if scaled < 0 else ""
    return sign + (f"{digits[:-places]}.{digits[-places:]}" if places else digits)


def rounding_note(what: str, released: Fraction, computed: Fraction,
                  places: int | None) -> str:
    """Which comparison rule applied to the released `what` (``answer``) and `computed`:
    ``the released answer 3.33 is 10/3 rounded to 2 decimals``, ``differs by more than
    rounding to 1 decimal allows``, or ``compared exactly`` (written without a decimal
    point)."""
    if places is None:
        return "compared exactly: written without a decimal point"
    unit = f"{places} decimal{'' if places == 1 else 's'}"
    if released == computed:
        return f"the released {what} {decimal_text(released, places)} is exact"
    if close_enough(released, computed, places):
        return (f"the released {what} {decimal_text(released, places)} is "
                f"{encode_rational(computed)} rounded to {unit}")
    return f"differs by more than rounding to {unit} allows"


def number(value: Any, field: str, ref: RowRef, what: str) -> tuple[Fraction, int | None]:
    """(exact value, decimal places written or None when written exactly) of one
    released number; an error naming `what` otherwise."""
    try:
        exact = exact_number(value)
    except ValueError:
        raise ref.error(field, f"{what}: expected a number, got {short_repr(value)}") from None
    return exact, decimal_places(value)


def text_sections(text: str) -> dict[str, list[str]]:
    """The lines of a Rewritten Problem by block: ``intro``, ``variables``,
    ``equations``, ``goal`` (the text after ``Goal:`` and any lines below it)."""
    sections: dict[str, list[str]] = {"intro": [], "variables": [], "equations": [],
                                      "goal": []}
    current = "intro"
    for line in text.splitlines():
        match = SECTION.match(line)
        if match:
            current = match.group(1).lower()
            if match.group(2).strip():
                sections[current].append(match.group(2))
            continue
        sections[current].append(line)
    return sections


# ------------------------------------------------------------------ equations
def normalise_rhs(rhs: str, names: set[str]) -> str:
    """Unambiguous operator spellings rewritten: ``×``/``·`` -> ``*``, ``÷`` -> ``/``,
    ``−`` -> ``-``, and ``3 x 4`` (between two numbers, when no quantity is called x)."""
    for symbol, op in _OPERATORS.items():
        rhs = rhs.replace(symbol, op)
    if not names & {"x", "X"}:
        rhs = _TIMES_X.sub(r"\1 * \2", rhs)
    return rhs.strip()


def equations_cell(row: dict[str, Any], ref: RowRef, field: str = "Equations",
                   declared: Iterable[str] = ()) -> tuple[list[list[str]], dict[str, str]]:
    """([[lhs, rhs], ...] in released order, {lhs: description}). The cell is a dict
    ``"LHS = RHS" -> description``, a list of ``"LHS = RHS"`` strings or a list of
    ``[lhs, rhs]`` pairs. Every equation must parse and define one quantity.
    `declared`: the names listed elsewhere (Variables), for the ``3 x 4`` rule."""
    value = literal_cell(row, field, ref)
    if isinstance(value, dict):
        items = [(key, desc) for key, desc in value.items()]
    elif isinstance(value, (list, tuple)):
        items = [(item, None) for item in value]
    else:
        raise ref.error(field, "expected a JSON object of 'LHS = RHS' equations (or a list "
                        f"of them), got {short_repr(value)}")
    if not items:
        raise ref.error(field, "holds no equation")
    pairs: list[tuple[str, str, str]] = []  # (lhs, raw rhs, shown text)
    for item, _desc in items:
        if isinstance(item, (list, tuple)) and len(item) == 2 and all(
                isinstance(p, str) for p in item):
            lhs, rhs = item[0].strip(), item[1]
            shown = f"{lhs} = {rhs}"
        elif isinstance(item, str):
            shown = item.strip()
            if shown.count("=") != 1:
                raise ref.error(field, f"equation {shown!r} must have the form 'LHS = RHS' "
                                "with exactly one '='")
            lhs, rhs = (part.strip() for part in shown.split("="))
        else:
            raise ref.error(field, f"expected an equation string, got {short_repr(item)}")
        if not is_name(lhs):
            raise ref.error(field, f"equation {shown!r}: the left side must be a single "
                            f"quantity name, got {lhs!r}")
        pairs.append((lhs, rhs, shown))
    lhs_names = {lhs for lhs, _rhs, _shown in pairs}
    # names used elsewhere than as a "3 x 4" product decide whether x may be a quantity
    rough = set(declared) | lhs_names | {t for _l, rhs, _s in pairs
                         for t in NAME.findall(_TIMES_X.sub(" * ", rhs))}
    equations: list[list[str]] = []
    for lhs, rhs, shown in pairs:
        clean = normalise_rhs(rhs, rough)
        try:
            parse_expression(clean, "right side")
        except ValueError as exc:
            raise ref.error(field, f"equation {shown!r} does not parse: {exc}") from None
        equations.append([lhs, clean])
    descriptions = {}
    for (lhs, _rhs, _shown), (_item, desc) in zip(pairs, items):
        if isinstance(desc, str) and desc.strip():
            descriptions.setdefault(lhs, desc.strip())
    return equations, descriptions


def equation_names(equations: list[list[str]]) -> list[str]:
    """Every name the equations mention, first-occurrence order."""
    found: dict[str, None] = {}
    for lhs, rhs in equations:
        found.setdefault(lhs, None)
        for name in names_in(parse_expression(rhs)):
            found.setdefault(name, None)
    return list(found)


# ------------------------------------------------------------------ names
def variables_cell(row: dict[str, Any], ref: RowRef, field: str = "Variables"
                   ) -> dict[str, str]:
    """{name: description} from a JSON object (or a list of names: no descriptions)."""
    value = literal_cell(row, field, ref, required=False)
    if value is None:
        return {}
    if isinstance(value, dict):
        items = list(value.items())
    elif isinstance(value, (list, tuple)):
        items = [(item, "") for item in value]
    else:
        raise ref.error(field, f"expected a JSON object name -> description, got "
                        f"{short_repr(value)}")
    out: dict[str, str] = {}
    for name, desc in items:
        if not is_name(name):
            raise ref.error(field, f"{short_repr(name)} is not a quantity name")
        out[name] = desc.strip() if isinstance(desc, str) else ("" if desc is None
                                                                 else str(desc))
    return out


def loose_names(row: dict[str, Any], field: str, ref: RowRef, *, required: bool = True
                ) -> list[str] | None:
    """A list of names: a JSON/Python list, or plain text ``A, B`` / a single name."""
    raw = cell(row, field, ref, required=required)
    if raw is None:
        return None
    try:
        value = decode_literal(raw)
    except ValueError:
        value = [part.strip() for part in str(raw).split(",")]
    if isinstance(value, str):
        value = [value]
    if isinstance(value, (set, frozenset)):
        value = sorted(value)
    if not isinstance(value, (list, tuple)):
        raise ref.error(field, f"expected a list of names, got {short_repr(raw)}")
    out: list[str] = []
    for item in value:
        if not is_name(item if not isinstance(item, str) else item.strip()):
            raise ref.error(field, f"expected a list of names; {short_repr(item)} is not a name")
        if item.strip() not in out:
            out.append(item.strip())
    return out


# ------------------------------------------------------------------ CSP and roles
ROLE_WORDS = frozenset({"known_leaf", "known_leaf_distractor", "unknown_leaf",
                        "unknown_leaf_distractor", "leaf", "leaf_distractor", "derived",
                        "derived_distractor", "goal", "distractor"})
"""Words the Ext files write where the plain file writes a description (a node's role)."""
_CSP_VARIABLE = re.compile(rf"^\s*({NAME.pattern})\s*(?:=\s*({NUMBER_TEXT}))?\s*"
                           r"(?:\[(.*)\])?\s*$")


def is_role(text: Any) -> bool:
    return isinstance(text, str) and text.strip().lower() in ROLE_WORDS


def roles_only(described: dict[str, str]) -> bool:
    """Whether a Variables cell maps names to roles (every filled-in value a role word)."""
    filled = [d for d in described.values() if d]
    return bool(filled) and all(is_role(d) for d in filled)


def csp_cell(row: dict[str, Any], ref: RowRef, field: str = "CSP"
             ) -> tuple[dict[str, str], str | None]:
    """({name: description} from the Variables block lines ``A = 15 [desc]`` / ``P
    [desc]``, including names without a description (empty), the goal question from
    the Goal block ``T [question]`` or None). Empty when the column is absent; lines of
    another shape are skipped (the column is informative, not required)."""
    raw = cell(row, field, ref, required=False)
    if raw is None:
        return {}, None
    sections = text_sections(str(raw))
    found: dict[str, str] = {}
    for line in sections["variables"]:
        match = _CSP_VARIABLE.match(line)
        if match:
            found.setdefault(match.group(1), (match.group(3) or "").strip())
    question = None
    for line in sections["goal"]:
        match = _CSP_VARIABLE.match(line)
        if match and match.group(3) and match.group(3).strip() and not is_role(
                match.group(3)):
            question = match.group(3).strip()
            break
    return found, question


def flag_value(raw: Any) -> bool | None:
    """A released ``True``/``False`` flag (also ``1``/``0``, ``yes``/``no``); None otherwise."""
    if isinstance(raw, bool):
        return raw
    text = str(raw).strip().lower()
    if text in {"true", "1", "yes"}:
        return True
    if text in {"false", "0", "no"}:
        return False
    return None


# ------------------------------------------------------------------ answers
_GSM_MARK = re.compile(r"####\s*(" + NUMBER_TEXT + ")")
_ANY_NUMBER = re.compile(r"(?<![\w.])" + NUMBER_TEXT)


def answer_value(raw: Any, field: str, ref: RowRef) -> tuple[Fraction, int | None]:
    """(the released answer, its decimal places or None when written exactly): a number,
    numeric text, or a worked solution whose final number (``#### 42`` when present, else
    the last number) is the answer."""
    if not isinstance(raw, str):
        return number(raw, field, ref, "the answer")
    text = raw.strip()
    try:
        return exact_number(text), decimal_places(text)
    except ValueError:
        pass
    mark = _GSM_MARK.search(text)
    found = mark.group(1) if mark else None
    if found is None:
        numbers = _ANY_NUMBER.findall(text)
        found = numbers[-1] if numbers else None
    if found is None:
        raise ref.error(field, f"no number in the answer text {short_repr(text)}")
    return number(found.replace(" ", ""), field, ref, "the answer")


def question_names(row: dict[str, Any], ref: RowRef, names: set[str],
                   descriptions: dict[str, str], field: str = "Possible Questions"
                   ) -> tuple[list[str], list[str]] | None:
    """(names in released order, entries that name no quantity), or None when the
    column is absent or blank. An entry is a name, or a question that contains exactly
    one quantity name (or, failing that, one quantity's description: the longest
    description it contains)."""
    raw = cell(row, field, ref, required=False)
    if raw is None:
        return None
    try:
        value = decode_literal(raw)
    except ValueError:
        value = [line for line in str(raw).splitlines() if line.strip()]
    if value is None:
        return None
    if isinstance(value, str):
        value = [value]
    if not isinstance(value, (list, tuple)):
        raise ref.error(field, f"expected a list of questions or names, got {short_repr(raw)}")
    found_names: list[str] = []
    unmatched: list[str] = []
    for entry in value:
        if isinstance(entry, dict):
            entry = entry.get("name", entry.get("variable"))
        if not isinstance(entry, str) or not entry.strip():
            raise ref.error(field, f"expected a question or a name, got {short_repr(entry)}")
        text = entry.strip()
        found = list(dict.fromkeys(t for t in NAME.findall(text) if t in names))
        if len(found) > 1:
            raise ref.error(field, f"the question {short_repr(text)} names several quantities "
                            f"({', '.join(found)})")
        if not found:
            lowered = text.lower()
            hits = [(len(d), v) for v, d in descriptions.items()
                    if d and d != v and d.lower() in lowered]
            if hits:
                longest = max(hits)[0]
                best = [v for size, v in hits if size == longest]
                if len(best) == 1:
                    found = best
        if not found:
            unmatched.append(text)
        elif found[0] not in found_names:
            found_names.append(found[0])
    return found_names, unmatched
