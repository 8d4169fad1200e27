"""Every number a piece of text states, in any spelling (protocols §3.7's leak filter).

The simulated user of `incomplete_questions` must never tell the model the answer. A
reply is checked against the answer's value in every spelling a reader would take for
it, not only as a standalone decimal:

- digits, with thousands separators (`1,900`), decimals (`19.0`), a sign, Unicode
  digits and the Unicode minus, glued to a word (`19hens`, `19kg`) or an ordinal suffix
  (`19th`, `21st`); a digit run glued *after* letters (`A19`, `mp3`) is a name, not a
  number;
- scientific notation (`1.9e1`, `1.9 x 10^1`, `1.9 × 10¹`, `\\(1.9 \\times 10^{1}\\)`);
- number words, compound and hyphenated (`nineteen`, `twenty-three`, `one hundred and
  twenty-three`, `a hundred`, `two thousand five hundred`), also before a scale word
  (`1.9 thousand`), `a dozen`, `half a dozen`, `two dozen`;
- ordinals (`19th`, `nineteenth`, `twenty-first`, `hundredth`); `first` and `second`
  alone are left out (`First, ...`, `a second`), though `twenty-first` counts;
- fractions equal to a value (`38/2`, `\\frac{5}{8}`, `five eighths`, `a half`, `two
  and a half`) and percentages (`62.5%` also states 0.625);
- a simple arithmetic expression, evaluated exactly (`12+7`, `12 + 7`, `(30 - 11)`,
  `twelve plus seven`, `2 times 9.5`, `38 divided by 2`): numbers joined by `+ - * / ^`
  (also `x`, `×`, `·`, `÷`, `\\times`, `\\cdot`, `\\div`, `**`) and parentheses, with
  the usual precedence, evaluated exactly by `infoseek.solvers.incomplete.arithmetic`
  (a bounded shunting-yard over `Fraction`s, never `eval`: a run of more than
  `MAX_RUN_TOKENS` tokens, one whose values leave +-10^120, a power above 60, a division
  by zero or unbalanced parentheses is skipped).

Roman numerals, words in other languages and a value spread over sentences are not
read. Linear in the text: one tokenising pass, one pass over the tokens.
Pure; no Inspect imports.
"""

from __future__ import annotations

import re
import unicodedata
from fractions import Fraction

from infoseek.solvers.incomplete.arithmetic import (
    MAX_DIGITS,
    VALUE_LIMIT,
    Token,
    expression_values,
)

_UNITS = {w: i for i, w in enumerate(
    "zero one two three four five six seven eight nine".split())}
_TEENS = {w: i + 10 for i, w in enumerate(
    "ten eleven twelve thirteen fourteen fifteen sixteen seventeen eighteen nineteen".split())}
_TENS = {w: (i + 2) * 10 for i, w in enumerate(
    "twenty thirty forty fifty sixty seventy eighty ninety".split())}
_SCALES = {"thousand": 10**3, "million": 10**6, "billion": 10**9, "trillion": 10**12}
_ORDINAL_UNITS = {"first": 1, "second": 2, "third": 3, "fourth": 4, "fifth": 5,
                  "sixth": 6, "seventh": 7, "eighth": 8, "ninth": 9}
_ORDINAL_TEENS = {"tenth": 10, "eleventh": 11, "twelfth": 12, **{
    w[:-1] + "th" if w.endswith("t") else w + "th": v
    for w, v in _TEENS.items() if v >= 13}}
_ORDINAL_TENS = {w[:-1] + "ieth": v for w, v in _TENS.items()}
_ORDINAL_SCALES = {"hundredth": 100, **{w + "th": v for w, v in _SCALES.items()}}
_DENOMINATORS = {"half": 2, "halves": 2, "third": 3, "thirds": 3, "quarter": 4,
                 "quarters": 4, **{w + "s": v for w, v in {**_ORDINAL_UNITS,
                                                            **_ORDINAL_TEENS}.items()
                                   if v >= 4}}
_LONE_ORDINALS_LEFT_OUT = frozenset({"first", "second"})
_OPERATOR_WORDS = {"plus": "+", "minus": "-", "times": "*"}
_TWO_WORD_OPERATORS = {("multiplied", "by"): "*", ("divided", "by"): "/"}

_DIGIT_CHARS = re.compile(r"[^\x00-\x7f]")
_MINUSES = str.maketrans(dict.fromkeys("\u2212\u2012\u2013\u2014\ufe63\uff0d", "-"))
_SUPERSCRIPT_DIGITS = str.maketrans("⁰¹²³⁴⁵⁶⁷⁸⁹⁻⁺", "0123456789-+")
_SUPERSCRIPT_RUN = re.compile(r"[⁻⁺]?[⁰¹²³⁴⁵⁶⁷⁸⁹]+")
_LATEX_FRACTION = re.compile(r"\\[dt]?frac\s*\{([^{}]*)\}\s*\{([^{}]*)\}")
_LATEX_OPERATORS = ((r"\times", " * "), (r"\cdot", " * "), (r"\div", " / "),
                    (r"\left", " "), (r"\right", " "), (r"\%", "%"), (r"\,", ""),
                    (r"\!", ""), (r"\$", "$"))
_TOKEN = re.compile(
    r"(?P<num>(?:\d{1,3}(?:,\d{3})+|\d+)(?:\.\d+)?|\.\d+)(?P<exp>[eE][-+]?\d+)?"
    r"|(?P<word>[^\W\d_]+(?:['’\-][^\W\d_]+)*\w*)"
    r"|(?P<op>\*\*|[-+*/^()×÷·%])"
    r"|(?P<gap>\S)"
)


def _ascii_digits(text: str) -> str:
    """Unicode decimal digits as ASCII digits (other characters unchanged)."""
    def one(match: re.Match[str]) -> str:
        char = match.group()
        digit = unicodedata.decimal(char, None)
        return str(digit) if digit is not None else char
    return _DIGIT_CHARS.sub(one, text)


def _clean(text: str) -> str:
    text = _ascii_digits(text.translate(_MINUSES))
    text = _SUPERSCRIPT_RUN.sub(lambda m: "^" + m.group().translate(_SUPERSCRIPT_DIGITS), text)
    for _ in range(3):
        text = _LATEX_FRACTION.sub(r"(\1)/(\2)", text)
    for latex, plain in _LATEX_OPERATORS:
        text = text.replace(latex, plain)
    return text.replace("{", "(").replace("}", ")")


def _literal(digits: str, exponent: str | None) -> Fraction | None:
    plain = digits.replace(",", "")
    if len(plain) > MAX_DIGITS + 1:
        return None
    whole, _, decimals = plain.partition(".")
    value = Fraction(int(whole + decimals or "0"), 10 ** len(decimals))
    if exponent:
        if len(exponent[1:].lstrip("+-").lstrip("0")) > 3:
            return None
        power = int(exponent[1:])
        if abs(power) > MAX_DIGITS:
            return None
        value *= Fraction(10) ** power
    return value if abs(value) <= VALUE_LIMIT else None


# Token kinds: ("num", value, literal) ("op", symbol) ("word", lower) ("gap", None).


def _tokens(text: str) -> list[Token]:
    out: list[Token] = []
    previous_end = -1
    previous_word = False
    for match in _TOKEN.finditer(_clean(text)):
        kind = "num" if match.group("num") is not None else match.lastgroup
        glued = match.start() == previous_end
        if kind == "num":
            if glued and previous_word:  # A19, mp3: a name
                out.append(("gap", None))
            else:
                value = _literal(match.group("num"), match.group("exp"))
                out.append(("num", value, True) if value is not None else ("gap", None))
        elif kind == "word":
            word = match.group().lower().replace("’", "'")
            if glued and out and out[-1][0] == "num" and word in ("th", "st", "nd", "rd"):
                previous_end, previous_word = match.end(), True
                continue  # 19th: the number itself
            for index, part in enumerate(word.split("-")):
                if index:
                    out.append(("hyphen", None))
                out.append(("word", part))
        elif kind == "op":
            symbol = {"×": "*", "·": "*", "÷": "/", "**": "^"}.get(match.group(), match.group())
            out.append(("op", symbol))
        else:
            out.append(("gap", None))
        previous_end, previous_word = match.end(), kind == "word"
    return out


def _number_words(tokens: list[Token], values: list[Fraction]) -> list[Token]:
    """Replace number-word phrases (and operator words) by num / op tokens; ordinals,
    fractions and dozens are added to `values` as they are read."""
    out: list[Token] = []
    i = 0
    n = len(tokens)

    def word_at(j: int) -> str | None:
        while j < n and tokens[j][0] == "hyphen":
            j += 1
        return tokens[j][1] if j < n and tokens[j][0] == "word" else None

    while i < n:
        token = tokens[i]
        if token[0] != "word":
            if token[0] != "hyphen":
                out.append(token)
            i += 1
            continue
        word = token[1]
        two = (word, word_at(i + 1))
        if two in _TWO_WORD_OPERATORS:
            out.append(("op", _TWO_WORD_OPERATORS[two]))
            i += 2
            continue
        if word in _OPERATOR_WORDS:
            out.append(("op", _OPERATOR_WORDS[word]))
            i += 1
            continue
        if word == "x" and out and (out[-1][0] == "num" or out[-1] == ("op", ")")):
            out.append(("op", "*"))
            i += 1
            continue
        if word == "percent" and out and out[-1][0] == "num":
            out.append(("op", "%"))
            i += 1
            continue
        if out and out[-1][0] == "num" and (word in _SCALES or word == "hundred"
                                           or word == "dozen"):
            factor = 12 if word == "dozen" else _SCALES.get(word, 100)
            scaled = out.pop()[1] * factor
            out.append(("num", scaled, True) if abs(scaled) <= VALUE_LIMIT else ("gap", None))
            i += 1
            continue
        if word == "a" and word_at(i + 1) == "dozen":
            out.append(("num", Fraction(12), True))
            i = _skip_to_word(tokens, i + 1) + 1
            continue
        phrase = _read_phrase(tokens, i, word_at)
        if phrase is None:
            out.append(("gap", None))
            i += 1
            continue
        value, ordinal, end = phrase
        i = end
        denominator = word_at(i)
        if not ordinal and denominator in _DENOMINATORS and value:
            values.append(Fraction(value))
            value = Fraction(value, _DENOMINATORS[denominator])
            i += 1
        if not ordinal and word_at(i) == "and" and word_at(i + 1) == "a" and (
                word_at(i + 2) in ("half", "quarter")):
            values.append(Fraction(value))
            value = Fraction(value) + Fraction(1, _DENOMINATORS[word_at(i + 2)])
            i += 3
        if not ordinal and word_at(i) == "dozen":
            values.append(Fraction(value))
            value = Fraction(value) * 12
            i += 1
        out.append(("num", Fraction(value), True))
    return out


def _read_phrase(tokens: list[Token], start: int, word_at) -> tuple[Fraction, bool, int] | None:
    """The number-word phrase starting at `tokens[start]`: (value, is ordinal, index
    after it), or None when no phrase starts there."""
    total = 0
    current = 0
    last: str | None = None
    i = start
    n = len(tokens)
    consumed_end = start
    ordinal = False
    while i < n:
        if tokens[i][0] == "hyphen":
            i += 1
            continue
        if tokens[i][0] != "word":
            break
        word = tokens[i][1]
        if last is None and word == "a" and word_at(i + 1) in ("hundred", *_SCALES, "dozen",
                                                                "half", "quarter", "third"):
            current, last = 1, "a"
            if word_at(i + 1) in ("half", "quarter", "third"):
                value = Fraction(1, _DENOMINATORS[word_at(i + 1)])
                return value, False, _skip_to_word(tokens, i + 1) + 1
            i += 1
            continue
        if last is None and word == "half" and word_at(i + 1) == "a" and word_at(i + 2) == "dozen":
            return Fraction(6), False, _skip_to_word(tokens, _skip_to_word(tokens, i + 1) + 1) + 1
        if word in _UNITS and (word != "zero" or last is None) and last in (
                None, "tens", "hundred", "scale", "and"):
            current += _UNITS[word]
            last = "unit"
        elif word in _TEENS and last in (None, "hundred", "scale", "and"):
            current += _TEENS[word]
            last = "teen"
        elif word in _TENS and last in (None, "hundred", "scale", "and"):
            current += _TENS[word]
            last = "tens"
        elif word == "hundred" and last in ("unit", "teen", "a") and current < 100:
            current *= 100
            last = "hundred"
        elif word in _SCALES and last in ("unit", "teen", "tens", "hundred", "a") and current:
            total += current * _SCALES[word]
            current = 0
            last = "scale"
        elif word == "and" and last in ("hundred", "scale") and (
                word_at(i + 1) in _UNITS or word_at(i + 1) in _TEENS
                or word_at(i + 1) in _TENS or word_at(i + 1) in _ORDINAL_UNITS
                or word_at(i + 1) in _ORDINAL_TEENS or word_at(i + 1) in _ORDINAL_TENS):
            last = "and"
        elif word in _ORDINAL_UNITS and last in (None, "tens", "hundred", "scale", "and"):
            if last is None and word in _LONE_ORDINALS_LEFT_OUT:
                break
            current += _ORDINAL_UNITS[word]
            ordinal, i = True, i + 1
            consumed_end = i
            break
        elif word in _ORDINAL_TEENS and last in (None, "hundred", "scale", "and"):
            current += _ORDINAL_TEENS[word]
            ordinal, i = True, i + 1
            consumed_end = i
            break
        elif word in _ORDINAL_TENS and last in (None, "hundred", "scale", "and"):
            current += _ORDINAL_TENS[word]
            ordinal, i = True, i + 1
            consumed_end = i
            break
        elif word in _ORDINAL_SCALES and last in (None, "unit", "teen", "tens", "hundred",
                                                  "a"):
            current = (current or 1) * _ORDINAL_SCALES[word]
            ordinal, i = True, i + 1
            consumed_end = i
            break
        else:
            break
        i += 1
        if last != "and":
            consumed_end = i
    if consumed_end == start or last in (None, "a") and not ordinal:
        return None
    return Fraction(total + current), ordinal, consumed_end


def _skip_to_word(tokens: list[Token], j: int) -> int:
    while j < len(tokens) and tokens[j][0] == "hyphen":
        j += 1
    return j


def stated_values(text: str | None, *, expressions: bool = True) -> list[Fraction]:
    """Every value `text` states (module docstring), in order, repeats kept; with
    `expressions=False` only the numbers as written (digits, words, ordinals,
    fractions in words, percentages) and not the values of arithmetic runs."""
    if not text:
        return []
    values: list[Fraction] = []
    tokens = _number_words(_tokens(text), values)
    values.extend(t[1] for t in tokens if t[0] == "num")
    if expressions:
        values.extend(expression_values(tokens))
    return values

