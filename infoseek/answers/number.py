"""The ``number`` answer kind: one exact number.

Written as the number itself (`label`: ``42``, ``-3``, ``85/2``). Read by
:func:`read_number_answer`, from the first non-empty line:

- integers, decimals, fractions ``7/2``, thousands separators (``1,200``), scientific
  notation (``6.688e+04``, ``2.5E3``, ``1e-05``, and ``2.5 x 10^3`` /
  ``2.5 × 10^3`` written out: a mantissa times a literal 10 to an integer power), the
  Unicode minus (``−276``); words, units and currency signs around the number are set
  aside (``$1,200``, ``42 dollars``, ``the answer is 42``, ``T = 42``);
- a worked chain ``B + P = 10 + 32 = 42`` reads its final ``= N`` when every earlier
  part is either a name (no digits: ``B + P``) or pure arithmetic (``10 + 32``); the final
  part must be one number, so an unevaluated ``T = 10 + 32`` is never credited;
- a trailing justification, and the lines after the first, are set aside
  (`infoseek.answers.answer_text.split_justification`); one that opens with a hedge or puts
  another number forward makes the answer ``ambiguous`` (`_offers_another`: ``276;
  correction: 277``, ``276, 277 if ...``, ``276 with 60% probability``, ``T = 277``),
  while numbers stated of other names (``B = 10``) and a derivation ending in the value
  (``6 * 7 = 42``) are facts;
- ``ambiguous``: two or more numbers (``66881 or 66880``, ``between 66875 and 66880``,
  ``5-6``, ``5 to 6``, ``20 * 11``, ``3+4``), a bare power (``10^3``, ``10**3``, ``10³``),
  other unevaluated forms (``√2``, ``pi``), bounds and hedges (``at least 42``, ``42 or
  more``, ``maybe 42``, ``>42``), approximations (``about 42``, ``~42``, ``≈ 42``,
  ``42 or so``, ``42-ish``), uncertainty (``42 (not sure)``, ``42, I think``), a
  question mark after the value (``42?``) and retractions (``42. Actually, I was
  wrong``): `infoseek.answers.doubts.read_undoubted`;
- ``malformed``: no number, a negated one (``not 42``), a zero denominator;
- ``out_of_range``: more than :data:`MAX_ANSWER_DIGITS` significant digits, or a value
  of magnitude ``>= 10**MAX_DECIMAL_EXPONENT`` or non-zero and
  ``< 10**-MAX_DECIMAL_EXPONENT``. The value is built exactly (``Fraction``, never float)
  only after these bounds are checked, so huge inputs cost nothing.

The value is exact and JSON-safe: an int when integral, else a ``"p/q"`` string in lowest
terms (``"85/2"``). A tool argument may also be a JSON number.

Comparison (:func:`numbers_close`): exact fractions with the tolerance of
``math.isclose`` (:data:`REL_TOL`, :data:`ABS_TOL`); ``"p/q"`` and decimal strings read
as numbers; nothing overflows or raises. Pure: no Inspect imports.
"""

from __future__ import annotations

import math
import re
from fractions import Fraction
from typing import Any

from infoseek.answers.answer_text import OPENING_HEDGE, split_justification, tail_opening
from infoseek.answers.base import AnswerKind, AnswerReading, AnswerSpec, invalid
from infoseek.answers.doubts import read_undoubted
from infoseek.answers.second_values import PROBABILITY, bound_to_a_name, justification_clauses

MAX_ANSWER_DIGITS = 60
"""A written number with more significant digits than this is ``out_of_range``."""
MAX_DECIMAL_EXPONENT = 60
"""A number is ``out_of_range`` when ``|value| >= 10**MAX_DECIMAL_EXPONENT`` or
``0 < |value| < 10**-MAX_DECIMAL_EXPONENT``."""
REL_TOL = 1e-6
"""Relative tolerance of a numeric comparison."""
ABS_TOL = 1e-9
"""Absolute tolerance of a numeric comparison."""

_UPPER_BOUND = 10**MAX_DECIMAL_EXPONENT
_LOWER_BOUND = Fraction(1, 10**MAX_DECIMAL_EXPONENT)

_SEPARATOR = "[,\u00a0\u2009\u202f]"
_NUMBER = re.compile(
    r"(?<![A-Za-z0-9_.])(?P<sign>[+-]?)"
    rf"(?P<mantissa>[0-9]{{1,3}}(?:{_SEPARATOR}[0-9]{{3}})+(?:\.[0-9]+)?"
    r"|[0-9]+(?:\.[0-9]+)?|\.[0-9]+)"
    r"(?:[eE](?P<exponent>[+-]?[0-9]+))?"
    r"(?:\s*/\s*(?P<denominator>[0-9]+)(?![0-9]|\.[0-9]))?"
    rf"(?![0-9]|\.[0-9]|{_SEPARATOR}[0-9]{{3}}(?![0-9]))"
)
_MINUS_SIGNS = str.maketrans(dict.fromkeys("\u2212\u2012\u2013\u2014\ufe63\uff0d", "-"))
_SUPERSCRIPTS = str.maketrans("⁰¹²³⁴⁵⁶⁷⁸⁹⁻⁺", "0123456789-+")
_SUPERSCRIPT_POWER = re.compile(r"(?<=[0-9)])([⁻⁺]?[⁰¹²³⁴⁵⁶⁷⁸⁹]+)")
_LATEX_WRAPPER = re.compile(r"\\(?:boxed|text|mathrm|textbf|mathbf|operatorname)\s*\{")
_LATEX_FRACTION = re.compile(r"\\[dt]?frac\s*\{([^{}]*)\}\s*\{([^{}]*)\}")
_TIMES = re.compile(r"(?<=[0-9)])\s*(?:\\times|\\cdot|[*×·✕]|x(?=\s*10\b))\s*(?=[0-9(.])")
_POWER = re.compile(r"(?<=[0-9)])\s*\*\*\s*(?=[0-9(+-])")
_WRITTEN_SCIENTIFIC = re.compile(
    r"(?<![A-Za-z0-9_.])([+-]?(?:[0-9]+(?:\.[0-9]+)?|\.[0-9]+))\s*×\s*10\s*\^\s*"
    r"(?:\{\s*([+-]?[0-9]+)\s*\}|\(\s*([+-]?[0-9]+)\s*\)|([+-]?[0-9]+))(?![0-9.])"
)
_NUMBER_HEDGE = re.compile(
    r"\b(?:or|either|nor|maybe|perhaps|possibly|probably|likely|guess|unsure|uncertain|"
    r"between|range|at\s+(?:least|most)|up\s+to|(?:more|less|fewer|greater|smaller|"
    r"larger|higher|lower)\s+than)\b|[<>≤≥±]|\+/-"
)
_NEGATION = re.compile(r"\b(?:not|never|cannot)\b|n't\b")
_EXPRESSION = re.compile(r"[\^√∑∏π!]|\b(?:pi|sqrt|log|ln|exp|sin|cos|tan|mod)\b")
_PURE_ARITHMETIC = re.compile(r"[0-9\s.,+\-×÷/()\[\]]+")


def _clean_number_line(line: str) -> str:
    line = line.translate(_MINUS_SIGNS)
    line = _SUPERSCRIPT_POWER.sub(lambda m: "^" + m.group(1).translate(_SUPERSCRIPTS), line)
    line = _LATEX_WRAPPER.sub("", line)
    line = _LATEX_FRACTION.sub(r"\1/\2", line)
    for latex, plain in (("\\$", "$"), ("\\%", "%"), ("\\,", ""), ("\\!", ""), ("\\ ", " ")):
        line = line.replace(latex, plain)
    line = line.replace("{", "").replace("}", "").replace("`", "")
    line = _POWER.sub("^", line)
    line = _TIMES.sub(" × ", line)
    line = line.replace("*", "").replace("≈", "=").replace("~", " ")
    return _WRITTEN_SCIENTIFIC.sub(
        lambda m: f"{m.group(1)}e{m.group(2) or m.group(3) or m.group(4)}", line
    )


def _exact_number(match: re.Match[str]) -> AnswerReading:
    """The exact value of one number token, checked against the bounds before it is
    built (so a 5,000-digit token costs no more than a short one)."""
    mantissa = re.sub(_SEPARATOR, "", match.group("mantissa"))
    whole, _, decimals = mantissa.partition(".")
    decimals = decimals.rstrip("0")
    digits = (whole + decimals).lstrip("0")
    exponent_text = match.group("exponent") or "0"
    denominator_text = (match.group("denominator") or "1").lstrip("0")
    if not denominator_text:
        return invalid("malformed")  # division by zero
    if not digits:
        return AnswerReading(0)
    if len(digits) > MAX_ANSWER_DIGITS or len(denominator_text) > MAX_ANSWER_DIGITS:
        return invalid("out_of_range")
    if len(exponent_text.lstrip("+-").lstrip("0")) > 4:
        return invalid("out_of_range")
    power = int(exponent_text) - len(decimals)
    magnitude = len(digits) - 1 + power  # decimal exponent of the leading digit
    if not -2 * MAX_DECIMAL_EXPONENT <= magnitude < 2 * MAX_DECIMAL_EXPONENT:
        return invalid("out_of_range")
    value = Fraction(int(digits)) * Fraction(10) ** power / int(denominator_text)
    if match.group("sign") == "-":
        value = -value
    return _bounded(value)


def _bounded(value: Fraction) -> AnswerReading:
    if abs(value) >= _UPPER_BOUND or (value and abs(value) < _LOWER_BOUND):
        return invalid("out_of_range")
    if value.denominator == 1:
        return AnswerReading(int(value))
    return AnswerReading(f"{value.numerator}/{value.denominator}")


def _single_number(text: str) -> AnswerReading:
    """The one number of ``text`` (no ``=`` in it)."""
    numbers = list(_NUMBER.finditer(text))
    if not numbers:
        return invalid("malformed")
    if len(numbers) > 1 or _EXPRESSION.search(text) or "×" in text or "÷" in text:
        return invalid("ambiguous")
    return _exact_number(numbers[0])


def _worked_chain(parts: list[str]) -> AnswerReading:
    """``name = expression = ... = N``: every part before the last is a name (no digits)
    or pure arithmetic; the last is one number."""
    for part in parts[:-1]:
        if re.search(r"[0-9]", part) and not _PURE_ARITHMETIC.fullmatch(part):
            return invalid("ambiguous")
    final = parts[-1]
    if not final.strip():
        return invalid("malformed")
    return _single_number(final)


def read_number_answer(text: object, *, target: str = "") -> AnswerReading:
    """Read one exact number from an answer (rules in the module docstring); ``target``,
    when given, is the answer's own name (``T = 277`` in a justification offers 277). A
    hedged, approximate or retracted number (``about 19``, ``19?``, ``19 (not sure)``,
    ``19. Actually, I was wrong``) is ``ambiguous``
    (`infoseek.answers.doubts.read_undoubted`)."""
    return read_undoubted(lambda body: _read_number(body, target=target), text, (target,))


def _read_number(text: object, *, target: str = "") -> AnswerReading:
    if isinstance(text, bool):
        return invalid("malformed")
    if isinstance(text, int):
        if abs(text) >= _UPPER_BOUND:
            return invalid("out_of_range")
        return AnswerReading(text)
    if isinstance(text, float):
        if text != text:
            return invalid("malformed")
        if text in (float("inf"), float("-inf")):
            return invalid("out_of_range")
        text = repr(text)
    if not isinstance(text, str):
        return invalid("malformed")
    lines = [ln for ln in text.splitlines() if ln.strip()]
    if not lines:
        return invalid("empty")
    line = _clean_number_line(lines[0])
    first = _NUMBER.search(line)
    if first is None:
        return invalid("malformed")
    head, tail = split_justification(line, first.end())
    opening = tail_opening(tail)
    if OPENING_HEDGE.match(opening):
        return invalid("ambiguous")
    lowered = head.lower()
    if _NUMBER_HEDGE.search(lowered):
        return invalid("ambiguous")
    if _NEGATION.search(lowered):
        return invalid("malformed")
    reading = _worked_chain(head.split("=")) if "=" in head else _single_number(head)
    if not reading.valid:
        return reading
    later = "\n".join(_clean_number_line(ln) for ln in lines[1:])
    if _offers_another(f"{tail}\n{later}", reading.value, target):
        return invalid("ambiguous")
    return reading


def _offers_another(tail: str, value: object, target: str) -> bool:
    """Whether a justification puts forward a number other than ``value`` (protocols §3.8):
    a probability; a clause that, after its self-correction words and answer leads,
    opens with another number (``; correction: 277``, ``277 if the rooster counts``) or
    is ``<target> = N``, unless it is arithmetic whose last ``= N`` is the value
    (``6 * 7 = 42``) or an expression with no result (``6 * 7``); or, after a
    self-correction or alternative cue, a clause whose last number, not another name's
    value, is another (``actually the total is 277``). Numbers stated of other names
    (``B = 10``, ``6 coops``) are facts of the justification."""
    if PROBABILITY.search(tail):
        return True
    expected = exact_number(value)
    labelled = False
    for clause, cued in justification_clauses(tail):
        offered = _opening_number(clause, target)
        if offered is not None and exact_number(offered) != expected and not (
                labelled and _LABELLED_LIST_GOES_ON.match(clause)):
            return True
        labelled = _LABELLED_LIST.search(clause) is not None or (
            labelled and _LABELLED_LIST_GOES_ON.fullmatch(clause) is not None)
        if cued:
            numbers = [m for m in _NUMBER.finditer(clause)
                       if not bound_to_a_name(clause, m.start())]
            if numbers and exact_number(_exact_number(numbers[-1]).value) != expected:
                return True
    return False


_LABELLED_LIST = re.compile(
    r"\b(?:rules?|steps?|facts?|lines?|equations?|conditions?|premises?|examples?|"
    r"options?)\s*(?:#|no\.?)?\s*\d{1,4}(?:\s*(?:,|and|&)\s*\d{1,4})*\s*$",
    re.IGNORECASE)
"""A clause ending in labelled numbers (``because rules 1``): the clause after it may go
on listing them (``rules 1, 4 and 7``), and those numbers are labels, no second value."""
_LABELLED_LIST_GOES_ON = re.compile(r"\d{1,4}(?:\s*(?:and|&|,)\s*\d{1,4})*\b(?![.,/]\d)",
                                    re.IGNORECASE)


def _opening_number(clause: str, target: str) -> object | None:
    """The number a clause offers as an answer by opening with it (or with ``<target> =``),
    or None."""
    if target:
        named = re.match(rf"{re.escape(target)}\s*(?:=|:|\bis\b)\s*", clause, re.IGNORECASE)
        if named:
            clause = clause[named.end() :]
    opening = _NUMBER.match(clause)
    if opening is None:
        return None
    rest = clause[opening.end() :]
    if "=" in clause and _PURE_ARITHMETIC.fullmatch(clause.split("=")[0]):
        return _worked_chain(clause.split("=")).value  # a derivation: its result
    if re.match(r"\s*(?:[-+×÷/^]|\bx\b)", rest):
        return None  # an expression with no result
    return _exact_number(opening).value


def _is_number(value: Any) -> bool:
    return isinstance(value, int | float) and not isinstance(value, bool)


def exact_number(value: Any) -> Fraction | None:
    """The exact value (a ``Fraction``) of a number or of a numeric string: an integer,
    a decimal, scientific notation or ``"p/q"``. ``None`` for anything else, for a
    non-finite float, and for strings too long or with too large an exponent to be a
    recorded answer (so a 5,000-digit string costs nothing and never raises)."""
    if _is_number(value):
        if isinstance(value, float):
            return Fraction(repr(value)) if math.isfinite(value) else None
        return Fraction(value)
    if not isinstance(value, str) or len(value) > 4000:
        return None
    text = value.strip()
    fraction = re.fullmatch(r"([+-]?[0-9]+)\s*/\s*([0-9]+)", text)  # exact "p/q" values
    if fraction:
        denominator = int(fraction.group(2))
        return Fraction(int(fraction.group(1)), denominator) if denominator else None
    decimal = re.fullmatch(r"([+-]?(?:[0-9]+\.?[0-9]*|\.[0-9]+))(?:[eE]([+-]?[0-9]{1,3}))?", text)
    if decimal is None:
        return None
    return Fraction(decimal.group(1)) * Fraction(10) ** int(decimal.group(2) or 0)


def numbers_close(given: Any, expected: Any, *, rel_tol: float = REL_TOL,
                  abs_tol: float = ABS_TOL) -> bool:
    """Whether two numbers (or numeric strings) are equal within ``math.isclose``'s
    tolerance, computed exactly: ``|a - b| <= max(rel_tol * max(|a|, |b|), abs_tol)``.
    A side that does not read as a number never matches; a 400-digit answer against 42
    is simply ``False``."""
    if given is None or expected is None:
        return False
    if type(given) is type(expected) and given == expected:
        return True
    left, right = exact_number(given), exact_number(expected)
    if left is None or right is None:
        return False
    tolerance = max(abs(left), abs(right)) * Fraction(rel_tol)
    return abs(left - right) <= max(tolerance, Fraction(abs_tol))


class NumberKind(AnswerKind):
    """One exact number; a tool argument may also be a JSON number."""

    name = "number"
    malformed = "Your answer could not be read as a number."

    def read_text(self, body: object, spec: AnswerSpec) -> AnswerReading:
        if not isinstance(body, str):
            return invalid("malformed")
        return read_number_answer(body, target=spec.target)

    def read_tool(self, argument: object, spec: AnswerSpec) -> AnswerReading:
        if _is_number(argument):
            return read_number_answer(argument)
        return super().read_tool(argument, spec)

    def compare(self, given: object, expected: object, spec: AnswerSpec | None = None) -> float:
        return 1.0 if numbers_close(given, expected) else 0.0
