"""Values in the MT-InfoSeek GSME files: the `Pred Values` cell, the revealed quantities
(`Given_Conditions`, or the `A = 15` lines of the problem text) and the text's sections.
Shared decoding rules are in `infoseek.builders.math.released.parse`.
"""

from __future__ import annotations

import re
from fractions import Fraction
from typing import Any

from infoseek.builders.math.released.parse import (
    ASSIGNMENT,
    BULLET,
    NAME,
    NUMBER_TEXT,
    is_name,
    number,
    text_sections,
)
from infoseek.builders.published.cells import RowRef, cell, decode_literal, exact_number
from infoseek.text import short_repr


def values_cell(row: dict[str, Any], field: str, ref: RowRef, known: set[str]
                ) -> tuple[dict[str, Fraction], dict[str, int]]:
    """Pred Values (or Ext ``pred_values_dict``): ({name: exact value} for the `known`
    names, {name: decimal places} for the values written with a decimal point). The
    cell is a JSON object name -> number, or text with one ``name = number`` per line (as
    released: ``B = 200\\nP = 290.0``). Other names (extra bookkeeping entries) are
    ignored."""
    raw = cell(row, field, ref)
    try:
        value = decode_literal(raw)
    except ValueError:
        value = str(raw)
    if isinstance(value, str):
        items = value_lines(value, field, ref)
    elif isinstance(value, dict):
        items = list(value.items())
    else:
        raise ref.error(field, "expected 'name = number' lines or a JSON object name -> "
                        f"number, got {short_repr(value)}")
    out: dict[str, Fraction] = {}
    places: dict[str, int] = {}
    for name, raw_value in items:
        name = name.strip() if isinstance(name, str) else name
        if name not in known:
            continue
        exact, written = number(raw_value, field, ref, f"the value of {name!r}")
        if name in out and out[name] != exact:
            raise ref.error(field, f"{name!r} is given two different values")
        out[name] = exact
        if written is not None:
            places[name] = written
    return out, places


def value_lines(text: str, field: str, ref: RowRef) -> list[tuple[str, str]]:
    """[(name, value text)] from ``name = value`` lines (``;`` also separates); every
    non-blank line must be one assignment to a name."""
    items: list[tuple[str, str]] = []
    for line in re.split(r"[\n;]", text):
        body = BULLET.sub("", line).strip().rstrip(",.")
        if not body:
            continue
        name, sep, rest = body.partition("=")
        if not sep:
            name, sep, rest = body.partition(":")
        if not sep or not is_name(name.strip()) or not rest.strip():
            raise ref.error(field, "expected 'name = number' lines or a JSON object, got "
                            f"the line {short_repr(line.strip())}")
        items.append((name.strip(), rest.strip()))
    if not items:
        raise ref.error(field, "holds no 'name = number' line")
    return items


def _assignments_in_text(text: str) -> list[tuple[str, str]]:
    """Every ``name = number`` (or ``name: number``) piece of a text."""
    return [(m.group(1), m.group(2)) for m in ASSIGNMENT.finditer(text)]


def revealed_cell(row: dict[str, Any], ref: RowRef, known: set[str],
                  field: str = "Given_Conditions") -> dict[str, Fraction | None] | None:
    """The revealed quantities from Given_Conditions, name -> value, or name -> None for
    a bare name (as released: ``["M", "P"]``; its value is in the problem text or Pred
    Values, and the caller finds it). Accepted: a JSON list of names, a dict name ->
    value, a list of ``"A = 15"`` strings (or ``[name, value]`` pairs, or a mix with
    names), or text (``A = 15, B = 3``, or names ``A, B``). None when the column is
    absent, blank, ``None``, or text holding no quantity (the caller then reads the
    problem text). Names given as data (dict, list) must be quantities of the problem;
    in free text, other ``word = number`` pieces are skipped."""
    raw = cell(row, field, ref, required=False)
    if raw is None:
        return None
    try:
        value = decode_literal(raw)
    except ValueError:
        value = str(raw)
    if value is None:
        return None
    pairs: list[tuple[Any, Any]] = []
    if isinstance(value, dict):
        pairs = list(value.items())
    elif isinstance(value, str):
        pairs = [(n, x) for n, x in _assignments_in_text(value) if n in known]
        if not pairs:
            words = [w for w in re.split(r"[\s,;]+", value.strip()) if w]
            if words and all(w in known for w in words):
                pairs = [(w, None) for w in words]
        if not pairs:
            return None
    elif isinstance(value, (list, tuple)):
        for item in value:
            if isinstance(item, (list, tuple)) and len(item) == 2:
                pairs.append((item[0], item[1]))
            elif isinstance(item, str) and is_name(item.strip()):
                pairs.append((item, None))
            elif isinstance(item, str):
                found = _assignments_in_text(item)
                if len(found) != 1:
                    raise ref.error(field, "expected a name or 'name = value', got "
                                    f"{short_repr(item)}")
                pairs.extend(found)
            elif isinstance(item, dict):
                pairs.extend(item.items())
            else:
                raise ref.error(field, "expected a name or 'name = value', got "
                                f"{short_repr(item)}")
    else:
        raise ref.error(field, f"expected the revealed quantities (a JSON list of names, an "
                        f"object name -> value, or 'A = 15' lines), got {short_repr(value)}")
    out: dict[str, Fraction | None] = {}
    for name, raw_value in pairs:
        name = name.strip() if isinstance(name, str) else name
        if name not in known:
            raise ref.error(field, f"{short_repr(name)} is not a quantity of this problem")
        if raw_value is None:
            out.setdefault(name, None)
            continue
        exact, _places = number(raw_value, field, ref, f"the value of {name!r}")
        if out.get(name) is not None and out[name] != exact:
            raise ref.error(field, f"{name!r} is given two different values")
        out[name] = exact
    return out


def revealed_in_text(text: str, leaves: set[str]) -> dict[str, Fraction]:
    """Revealed values written in the problem text: whole lines ``A = 15`` (bullets and
    several ``A = 15, B = 3`` pieces allowed) whose left side is a leaf and whose right
    side is a plain number, outside the Equations block."""
    sections = text_sections(text)
    out: dict[str, Fraction] = {}
    piece = re.compile(rf"\s*({NAME.pattern})\s*=\s*({NUMBER_TEXT})\s*[.]?\s*")
    for block in ("intro", "variables", "goal"):
        for line in sections[block]:
            body = BULLET.sub("", line).strip().rstrip(".;,")
            if not body:
                continue
            parts = re.split(r"[;,]\s+(?=[^\W\d]\w*\s*=)", body)
            matches = [piece.fullmatch(part) for part in parts]
            if not all(matches):
                continue
            for m in matches:
                assert m is not None
                if m.group(1) in leaves:
                    out[m.group(1)] = exact_number(m.group(2))
    return out


def goal_in_text(text: str, known: set[str]) -> str | None:
    """The quantity named on the ``Goal:`` line (the only known name there)."""
    lines = text_sections(text)["goal"]
    found = [t for t in NAME.findall(lines[0]) if t in known] if lines else []
    return found[0] if len(set(found)) == 1 else None
