"""Reading a final answer out of model text (SPEC 3.8), shared by the seek-loop parsers.

Pure functions (no Inspect imports). Every reader returns an :class:`AnswerReading`: the
value, or the reason it cannot be credited (``empty``, ``malformed``, ``ambiguous``,
``out_of_range``); no text, however long or strange, makes a reader raise.

The rule: an answer is credited only when it holds exactly one candidate value of its
kind. A trailing justification is set aside first: it starts at ``(``, ``[``, ``;``, a
sentence end (``.``, ``!``, ``?`` before a space), or a word such as ``because``,
``since``, ``as``, ``given``, ``so``, ``which``, ``by``, ``from`` (:data:`_JUSTIFICATION`).
A justification that opens with a hedge (``or``, ``maybe``...) or, for numbers, with
another number, makes the answer ``ambiguous``.

Numbers (:func:`read_number_answer`), read from the first non-empty line:

- integers, decimals, fractions ``7/2``, thousands separators (``1,200``), scientific
  notation (``6.688e+04``, ``2.5E3``, ``1e-05``, and ``2.5 x 10^3`` /
  ``2.5 × 10^3`` written out: a mantissa times a literal 10 to an integer power), the
  Unicode minus (``−276``); words, units and currency signs around the number are set
  aside (``$1,200``, ``42 dollars``, ``the answer is 42``, ``T = 42``);
- a worked chain ``B + P = 10 + 32 = 42`` reads its final ``= N`` when every earlier
  part is either a name (no digits: ``B + P``) or pure arithmetic (``10 + 32``); the final
  part must be one number, so an unevaluated ``T = 10 + 32`` is never credited;
- ``ambiguous``: two or more numbers (``66881 or 66880``, ``between 66875 and 66880``,
  ``5-6``, ``5 to 6``, ``20 * 11``, ``3+4``), a bare power (``10^3``, ``10**3``, ``10³``),
  other unevaluated forms (``√2``, ``pi``), bounds and hedges (``at least 42``, ``42 or
  more``, ``maybe 42``, ``>42``); approximation words with one number (``about 42``,
  ``~42``) are accepted;
- ``malformed``: no number, a negated one (``not 42``), a zero denominator;
- ``out_of_range``: more than :data:`MAX_ANSWER_DIGITS` significant digits, or a value
  of magnitude ``>= 10**MAX_DECIMAL_EXPONENT`` or non-zero and
  ``< 10**-MAX_DECIMAL_EXPONENT``. The value is built exactly (``Fraction``, never float)
  only after these bounds are checked, so huge inputs cost nothing.

The value is exact and JSON-safe: an int when integral, else a ``"p/q"`` string in lowest
terms (``"85/2"``).

Yes/no answers (:func:`read_boolean_answer`): see its docstring.

Template lines (:func:`template_key`): a reply line equal to a template line of the
prompt after collapsing whitespace, dropping markdown emphasis and case is a copy.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Collection, Iterable
from dataclasses import dataclass
from fractions import Fraction

from infoseek import contract

MAX_ANSWER_DIGITS = 60
"""A written number with more significant digits than this is ``out_of_range``."""
MAX_DECIMAL_EXPONENT = 60
"""A number is ``out_of_range`` when ``|value| >= 10**MAX_DECIMAL_EXPONENT`` or
``0 < |value| < 10**-MAX_DECIMAL_EXPONENT``."""

_UPPER_BOUND = 10**MAX_DECIMAL_EXPONENT
_LOWER_BOUND = Fraction(1, 10**MAX_DECIMAL_EXPONENT)


@dataclass(frozen=True)
class AnswerReading:
    """The value an answer holds, or why it holds none (``reason`` from
    ``solvers.parsing.INVALID_REASONS``: empty, malformed, ambiguous, out_of_range)."""

    value: object | None
    reason: str | None = None

    @property
    def valid(self) -> bool:
        return self.reason is None


def _invalid(reason: str) -> AnswerReading:
    return AnswerReading(None, reason)


def _collapse(text: str) -> str:
    return " ".join(text.split())


_DROPPED_CHARS = str.maketrans(dict.fromkeys("*`\"'“”«»"))
_EDGE_UNDERSCORES = re.compile(r"(?<![a-z0-9])_+|_+(?![a-z0-9])")
_EDGE_PUNCTUATION = " \t?.!,;:()[]{}<>"
_ISNT = re.compile(r"\bisn't\b")


def _normalise(text: str) -> str:
    """Lowercase, drop markdown emphasis and quotes, collapse whitespace."""
    text = text.replace("\u2019", "'").replace("\u2018", "'").lower()
    text = _ISNT.sub("is not", text)
    text = text.translate(_DROPPED_CHARS)
    text = _EDGE_UNDERSCORES.sub(" ", text)
    return _collapse(text)


@functools.lru_cache(maxsize=1024)
def _name_pattern(name: str) -> re.Pattern[str]:
    """``name`` as a whole word (not inside a longer name); depends only on the problem,
    so compiled once."""
    return re.compile(rf"(?<![\w-]){re.escape(name)}(?![\w-])")


def _mentions(text: str, name: str) -> bool:
    return _name_pattern(name).search(text) is not None


# ------------------------------------------------------------------------ templates

_TEMPLATE_LEAD = " \t>#+-"
_EMPHASIS = str.maketrans(dict.fromkeys("*_`"))


def template_key(line: object) -> str:
    """The form in which a reply line and a template line are compared: whitespace
    collapsed, markdown emphasis (``*``, ``_``, backticks) dropped, case folded."""
    if not isinstance(line, str):
        return ""
    text = line.translate(_EMPHASIS)
    return _collapse(text).strip(_TEMPLATE_LEAD).casefold()


@functools.lru_cache(maxsize=256)
def _template_index(templates: tuple[str, ...]) -> tuple[frozenset[str], frozenset[str]]:
    """The non-empty keys of ``templates``, and the keys of their ``Answer:`` /
    ``Question:`` lines without the keyword (the same for every turn of an episode, so
    cached)."""
    keys = frozenset(key for key in map(template_key, templates) if key)
    bare = {key.split(":", 1)[1].strip() for key in keys
            if key.startswith(("answer:", "question:"))}
    return keys, frozenset(bare - {""})


def _index_of(templates: Collection[str]) -> tuple[frozenset[str], frozenset[str]]:
    if isinstance(templates, str):
        templates = (templates,)
    return _template_index(tuple(t for t in (templates or ()) if isinstance(t, str)))


def copied_template_line(lines: Iterable[str], templates: Collection[str]) -> str | None:
    """The first of ``lines`` that copies a template line, or None."""
    keys, _ = _index_of(templates)
    if not keys:
        return None
    return next((line for line in lines if template_key(line) in keys), None)


def copies_template(value: str, templates: Collection[str]) -> bool:
    """Whether an answer value copies a template line, whole or without its keyword."""
    keys, bare = _index_of(templates)
    if not keys:
        return False
    value_key = template_key(value)
    return value_key in keys or value_key in bare


# ---------------------------------------------------------------- justification

_JUSTIFICATION_WORDS = (
    "because|since|as|given|due|so|thus|hence|therefore|which|according|based|from|by|"
    "per|via|using|considering|following|with|where|when|after|i\\.e|e\\.g"
)
_JUSTIFICATION = re.compile(
    rf"[(\[;]|[.!?](?=\s|$)|\b(?:{_JUSTIFICATION_WORDS})\b", re.IGNORECASE
)
_OPENING_HEDGE = re.compile(
    r"(?:or|either|nor|maybe|perhaps|possibly|probably|unless|otherwise|alternatively)\b",
    re.IGNORECASE,
)


def _split_justification(
    text: str, start: int = 0, protected: tuple[str, ...] = ()
) -> tuple[str, str]:
    """``(head, tail)``: the tail starts at the first justification marker at or after
    ``start`` that is not inside one of the ``protected`` names (a target or entity
    spelled with such a word); it is empty when there is none."""
    spans = [
        match.span()
        for name in protected
        if name
        for match in _name_pattern(name).finditer(text)
    ]
    for marker in _JUSTIFICATION.finditer(text, start):
        if not any(low <= marker.start() < high for low, high in spans):
            return text[: marker.start()], text[marker.start() :]
    return text, ""


def _tail_opening(tail: str) -> str:
    return tail.lstrip(" \t.!?;,:([-")


# -------------------------------------------------------------------------- yes/no

_POLARITY = re.compile(r"(yes|no|true|false)\b[\s,:\-]*")
_POLARITY_WORD = re.compile(r"\b(?:yes|no|true|false)\b")
_ANSWER_LEAD = re.compile(r"^(?:the\s+)?(?:final\s+)?answer\s*(?:is\s*)?:?\s*")
_BOOLEAN_HEDGE = re.compile(
    r"/|\b(?:or|either|nor|maybe|perhaps|possibly|probably|might|may|could|unsure|"
    r"uncertain|unclear|undetermined|unknown)\b"
)


def read_boolean_answer(text: object, *, entity: str, target: str) -> AnswerReading:
    """Read a yes/no answer about ``target``.

    Accepted: ``yes`` / ``no`` / ``true`` / ``false``; ``Alice is X`` / ``Alice is not
    X`` / ``Alice isn't X`` (also without ``Alice is``); a yes/no word followed by a
    statement that agrees with it (``No, Alice is not X``); any of these followed by a
    justification (``Alice is not X because she is not Y``, ``Alice is X, since rule
    4``). Reasons: ``empty``; ``ambiguous`` when both values are named or a value is
    hedged (``yes or no``, ``yes/no``, ``Alice is X. or Alice is not X``, ``probably
    yes``, a justification that states the other value); ``malformed`` for anything else
    (no value, a statement about another attribute, a yes/no word contradicting its
    statement).
    """
    if isinstance(text, bool):
        return AnswerReading(text)
    if not isinstance(text, str):
        return _invalid("malformed")
    if not text.strip():
        return _invalid("empty")
    sentence = _normalise(text)
    sentence = _ANSWER_LEAD.sub("", sentence)
    polarity: bool | None = None
    word = _POLARITY.match(sentence)
    if word:
        polarity = word.group(1) in ("yes", "true")
        sentence = sentence[word.end() :]
    target_name = _normalise(target) if isinstance(target, str) else ""
    entity_name = _normalise(entity) if isinstance(entity, str) else ""
    head, tail = _split_justification(sentence, 0, (target_name, entity_name))
    head = head.strip(_EDGE_PUNCTUATION + "-")
    if _BOOLEAN_HEDGE.search(head):
        names_a_value = (
            polarity is not None
            or _POLARITY_WORD.search(head) is not None
            or (bool(target_name) and _mentions(head, target_name))
        )
        return _invalid("ambiguous" if names_a_value else "malformed")
    if polarity is not None and (
        _OTHER_POLARITY[polarity].search(head) is not None
        or _restates_other_value(tail, polarity, entity_name, target_name)
    ):
        return _invalid("ambiguous")  # "yes and no", '"yes" if X is T, "no" if not'
    if head:
        ent = re.escape(entity_name)
        subject = rf"(?:{ent}\s+)?" if ent else ""
        statement = re.fullmatch(rf"{subject}(?:is\s+)?(not\s+)?(.+)", head)
        if statement is None or statement.group(2).strip() != target_name:
            return _invalid("malformed")
        value = statement.group(1) is None
        if polarity is not None and polarity != value:
            return _invalid("malformed")
    elif polarity is None:
        return _invalid("malformed")
    else:
        value = polarity
    if _restates_other_value(tail, value, entity_name, target_name):
        return _invalid("ambiguous")
    return AnswerReading(value)


_OTHER_POLARITY = {True: re.compile(r"\b(?:no|false)\b"), False: re.compile(r"\b(?:yes|true)\b")}


def _restates_other_value(tail: str, value: bool, entity: str, target: str) -> bool:
    """Whether a justification opens with a hedge or the other yes/no word, or states
    the target's other value about the entity (``... or Alice is not X``)."""
    opening = _tail_opening(tail)
    if _OPENING_HEDGE.match(opening):
        return True
    word = _POLARITY.match(opening)
    if word and (word.group(1) in ("yes", "true")) != value:
        return True
    if not target:
        return False
    subjects = "she|he|they|it" + (f"|{re.escape(entity)}" if entity else "")
    pattern = rf"\b(?:{subjects})\s+(?:is|are)\s+(not\s+)?{re.escape(target)}(?![\w-])"
    return any((match.group(1) is None) != value for match in re.finditer(pattern, tail))


def parse_boolean_answer(text: object, *, entity: str, target: str) -> bool | None:
    """The value of :func:`read_boolean_answer`, or ``None`` when it cannot be credited."""
    value = read_boolean_answer(text, entity=entity, target=target).value
    return value if isinstance(value, bool) else None


# -------------------------------------------------------------------------- numbers

ANSWER_KINDS = contract.ANSWER_KINDS

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
        return _invalid("malformed")  # division by zero
    if not digits:
        return AnswerReading(0)
    if len(digits) > MAX_ANSWER_DIGITS or len(denominator_text) > MAX_ANSWER_DIGITS:
        return _invalid("out_of_range")
    if len(exponent_text.lstrip("+-").lstrip("0")) > 4:
        return _invalid("out_of_range")
    power = int(exponent_text) - len(decimals)
    magnitude = len(digits) - 1 + power  # decimal exponent of the leading digit
    if not -2 * MAX_DECIMAL_EXPONENT <= magnitude < 2 * MAX_DECIMAL_EXPONENT:
        return _invalid("out_of_range")
    value = Fraction(int(digits)) * Fraction(10) ** power / int(denominator_text)
    if match.group("sign") == "-":
        value = -value
    return _bounded(value)


def _bounded(value: Fraction) -> AnswerReading:
    if abs(value) >= _UPPER_BOUND or (value and abs(value) < _LOWER_BOUND):
        return _invalid("out_of_range")
    if value.denominator == 1:
        return AnswerReading(int(value))
    return AnswerReading(f"{value.numerator}/{value.denominator}")


def _single_number(text: str) -> AnswerReading:
    """The one number of ``text`` (no ``=`` in it)."""
    numbers = list(_NUMBER.finditer(text))
    if not numbers:
        return _invalid("malformed")
    if len(numbers) > 1 or _EXPRESSION.search(text) or "×" in text or "÷" in text:
        return _invalid("ambiguous")
    return _exact_number(numbers[0])


def _worked_chain(parts: list[str]) -> AnswerReading:
    """``name = expression = ... = N``: every part before the last is a name (no digits)
    or pure arithmetic; the last is one number."""
    for part in parts[:-1]:
        if re.search(r"[0-9]", part) and not _PURE_ARITHMETIC.fullmatch(part):
            return _invalid("ambiguous")
    final = parts[-1]
    if not final.strip():
        return _invalid("malformed")
    return _single_number(final)


def read_number_answer(text: object) -> AnswerReading:
    """Read one exact number from an answer (rules in the module docstring)."""
    if isinstance(text, bool):
        return _invalid("malformed")
    if isinstance(text, int):
        if abs(text) >= _UPPER_BOUND:
            return _invalid("out_of_range")
        return AnswerReading(text)
    if isinstance(text, float):
        if text != text:
            return _invalid("malformed")
        if text in (float("inf"), float("-inf")):
            return _invalid("out_of_range")
        text = repr(text)
    if not isinstance(text, str):
        return _invalid("malformed")
    line = next((ln for ln in text.splitlines() if ln.strip()), "")
    if not line:
        return _invalid("empty")
    line = _clean_number_line(line)
    first = _NUMBER.search(line)
    if first is None:
        return _invalid("malformed")
    head, tail = _split_justification(line, first.end())
    opening = _tail_opening(tail)
    if _OPENING_HEDGE.match(opening) or _NUMBER.match(opening):
        return _invalid("ambiguous")
    lowered = head.lower()
    if _NUMBER_HEDGE.search(lowered):
        return _invalid("ambiguous")
    if _NEGATION.search(lowered):
        return _invalid("malformed")
    if "=" in head:
        return _worked_chain(head.split("="))
    return _single_number(head)


def parse_number_answer(text: object) -> int | str | None:
    """The value of :func:`read_number_answer` (an int or a ``"p/q"`` string), or
    ``None`` when the answer cannot be credited."""
    return read_number_answer(text).value  # type: ignore[return-value]
