"""Reading the cells of released rows: where a row came from (`RowRef`, for messages
that name the file, the row and the field), cells decoded field by field (literals,
name lists, integers), exact numbers and the released rounding, and released ids.
Files and rows themselves are read by `infoseek.builders.published.reading`.
"""

from __future__ import annotations

import ast
import json
import math
import re
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from infoseek.builders.published.reading import PublishedDataError, source_name
from infoseek.text import short_repr


@dataclass(frozen=True)
class RowRef:
    """Where a row came from, for error messages and provenance."""

    source: str
    row: int  # 1-based data row
    label: str | None = None  # how messages name the released id ("sample_id 12")
    released_id: str | None = None  # the released id itself, when the row has one

    def where(self, field: str | None = None) -> str:
        text = f"{source_name(self.source)}, row {self.row}"
        if self.label is not None:
            text += f" ({self.label})"
        if field is not None:
            text += f", field {field!r}"
        return text

    def error(self, field: str | None, problem: str, check: str | None = None
              ) -> PublishedDataError:
        return PublishedDataError(f"{self.where(field)}: {problem}", check=check)


def is_blank(value: Any) -> bool:
    return value is None or (isinstance(value, str) and not value.strip()) or (
        isinstance(value, float) and math.isnan(value))


def decode_literal(value: Any) -> Any:
    """A cell holding a Python literal or JSON (`"['a', 'not b']"`, `'{"x": 1}'`,
    `'true'`), decoded; values that are not strings are returned as they are. Raises
    ValueError when the text is neither."""
    if not isinstance(value, str):
        return value
    text = value.strip()
    try:
        return ast.literal_eval(text)
    except (ValueError, SyntaxError, TypeError, MemoryError, RecursionError):
        pass
    try:
        return json.loads(text)
    except (ValueError, RecursionError):
        raise ValueError(f"not a Python literal or JSON value: {short_repr(text)}") from None


def cell(row: dict[str, Any], field: str, ref: RowRef, *, required: bool = True,
         default: Any = None) -> Any:
    """The raw cell, or `default` when the column is absent or the cell blank; a
    required missing cell is an error."""
    value = row.get(field)
    if is_blank(value):
        if required:
            problem = "is missing" if field not in row else "is empty"
            raise ref.error(field, problem)
        return default
    return value


def literal_cell(row: dict[str, Any], field: str, ref: RowRef, *, required: bool = True,
                 default: Any = None) -> Any:
    if required and field in row and is_blank(row[field]):
        raise ref.error(field, "is empty; expected a Python literal or JSON value "
                               "(write [] for an empty list)")
    value = cell(row, field, ref, required=required, default=default)
    if value is default and not required:
        return default
    try:
        return decode_literal(value)
    except ValueError as exc:
        raise ref.error(field, str(exc)) from None


def name_list(value: Any, field: str, ref: RowRef) -> list[str]:
    """A list of variable names (a tuple or set is accepted; a bare name is not)."""
    if isinstance(value, (tuple, set, frozenset)):
        value = sorted(value) if isinstance(value, (set, frozenset)) else list(value)
    if not isinstance(value, list):
        raise ref.error(field, f"expected a list of names, got {short_repr(value)}")
    out = []
    for item in value:
        if not isinstance(item, str) or not item.strip():
            raise ref.error(field, f"expected a list of names; {short_repr(item)} is not a name")
        out.append(item.strip())
    return out


def names_cell(row: dict[str, Any], field: str, ref: RowRef, *,
               required: bool = True) -> list[str] | None:
    value = literal_cell(row, field, ref, required=required)
    if value is None:
        return None
    return name_list(value, field, ref)


def int_cell(row: dict[str, Any], field: str, ref: RowRef, *, required: bool = True,
             minimum: int | None = None) -> int | None:
    value = cell(row, field, ref, required=required)
    if value is None:
        return None
    number: Any = value
    if isinstance(value, str):
        text = value.strip()
        try:
            number = int(text)
        except ValueError:
            try:
                number = float(text)
            except ValueError:
                raise ref.error(field, f"expected an integer, got {short_repr(value)}") from None
    if isinstance(number, float) and number.is_integer():
        number = int(number)
    if isinstance(number, bool) or not isinstance(number, int):
        raise ref.error(field, f"expected an integer, got {short_repr(value)}")
    if minimum is not None and number < minimum:
        raise ref.error(field, f"expected an integer >= {minimum}, got {number}")
    return number


MAX_EXPONENT = 400  # a larger decimal exponent is no grade-school quantity (and 1e99999999
# would take Fraction minutes to build)
_DECIMAL = re.compile(r"[-+]?(\d+(\.\d*)?|\.\d+)([eE]([-+]?\d+))?")
_RATIO = re.compile(r"([-+]?\d+)\s*/\s*(\d+)")
_THOUSANDS = re.compile(r"[-+]?\d{1,3}(,\d{3})+(\.\d+)?")


def exact_number(value: Any) -> Fraction:
    """An exact rational from a JSON number or numeric text (`15`, `2.5`, `7/2`,
    `1,200`, `$3.50`, `40%` as 40). Floats are read through their shortest decimal text,
    so 0.1 means 1/10. Commas are read only as thousands separators (`1,5` is refused,
    not 15). Raises ValueError when the value is not a finite number, has a zero
    denominator, or an exponent beyond +-400."""
    if isinstance(value, bool):
        raise ValueError(f"not a number: {value!r}")
    if isinstance(value, int):
        return Fraction(value)
    if isinstance(value, Fraction):
        return value
    if isinstance(value, float):
        if not math.isfinite(value):
            raise ValueError(f"not a finite number: {value!r}")
        return Fraction(repr(value))
    if isinstance(value, str):
        text = value.strip().replace("$", "").rstrip("%").strip()
        if "," in text:
            if not _THOUSANDS.fullmatch(text):
                raise ValueError(f"not a number (a comma may only separate thousands): "
                                 f"{short_repr(value)}")
            text = text.replace(",", "")
        ratio = _RATIO.fullmatch(text)
        if ratio:
            if int(ratio.group(2)) == 0:
                raise ValueError(f"not a number (zero denominator): {short_repr(value)}")
            return Fraction(int(ratio.group(1)), int(ratio.group(2)))
        decimal = _DECIMAL.fullmatch(text)
        if decimal:
            if decimal.group(4) is not None and abs(int(decimal.group(4))) > MAX_EXPONENT:
                raise ValueError(f"not a number (exponent beyond {MAX_EXPONENT}): "
                                 f"{short_repr(value)}")
            return Fraction(text)
    raise ValueError(f"not a number: {short_repr(value)}")


HALF_UNIT = Fraction(1, 2)
"""A value written with d decimal places stands for anything within half a unit of its
last place (``HALF_UNIT * 10**-d``, bound included)."""


def close_enough(released: Fraction, computed: Fraction, places: int | None) -> bool:
    """Whether a released value written with `places` decimal places agrees with the
    exact `computed` one: `computed` rounds to it at that many places, i.e.
    ``|released - computed| <= 1/2 * 10**-places`` (3.33 for 10/3, 290.0 for 290.04;
    not 1000000.2 for 1000001). A value written without a decimal point (`places`
    None) must be equal. A long decimal that is `computed` rounded to a double (as a
    float pipeline prints it: 33.333333333333336 for 100/3) also agrees."""
    if released == computed:
        return True
    if places is None:
        return False
    if abs(released - computed) <= HALF_UNIT / 10**places:
        return True
    try:
        return Fraction(repr(float(computed))) == released
    except OverflowError:
        return False


def released_id(row: dict[str, Any], fields: tuple[str, ...]) -> str | None:
    """The row's own id from the first of `fields` that is filled in, as text."""
    for field in fields:
        value = row.get(field)
        if not is_blank(value):
            if isinstance(value, float) and value.is_integer():
                value = int(value)
            return str(value).strip()
    return None


def unique_ids(ids: list[str], refs: list[RowRef]) -> list[str]:
    """Released ids, kept as they are when unique; a repeated id gets `~row<N>` so every
    record id is unique and still shows the released one."""
    counts: dict[str, int] = {}
    for value in ids:
        counts[value] = counts.get(value, 0) + 1
    return [value if counts[value] == 1 else f"{value}~row{ref.row}"
            for value, ref in zip(ids, refs, strict=True)]
