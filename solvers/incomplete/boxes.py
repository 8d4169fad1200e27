"""The answer boxes of an incomplete-questions reply (protocols §3.7, read by the rules
of protocols §3.8): where they are, what they hold, and whether together they hold one
single value. `infoseek.solvers.incomplete.reading` decides which boxes of a reply count
(outside `<think>` blocks, question tags and echoes of our prompts) and hands them here.
Pure functions; no Inspect imports.

The boxed answer (`ParsedReply.answer_reason`, protocols §3.8: exactly one candidate value):
the reply's boxes must all hold the same single value, else the answer is `ambiguous`
and never credited: two boxes with different values (`\\boxed{18} or maybe
\\boxed{19}`), a hedge or a second value inside a box (`19 or more`, `19
approximately`, `about 19`, `~19`, `19?`, `18-19`, `18, 19`, `x = 18 or x = 19`, an
unevaluated `12 + 7`), several choice letters (`C or D`, `C, D`, `C/D`), or a hedge
or a self-correction word right after the last box (to the end of the reply, past its
answer tag) followed by
another value (`\\boxed{19} or maybe 20`, `\\boxed{19} (or 20)`, `\\boxed{19}.
Actually, 20`, `\\boxed{C}, or maybe D`) or by a bound (`\\boxed{19} or so`); a
justification stays (`\\boxed{19}, since 12 + 7 = 19`, `\\boxed{19}. Actually, let me
check: 12 + 7 = 19`).
A single value stays one: `\\boxed{19}`, `\\boxed{x = 19}`, `\\boxed{19 hens}` (a
unit is set aside), `\\boxed{\\$1,500}`, `\\boxed{\\frac{5}{8}}`, a worked chain
`\\boxed{12 + 7 = 19}`, `\\boxed{C}`, `\\boxed{(C)}`, `\\boxed{C: 21 square cm}`,
and two boxes with the same value. Inside a box an approximation word is a hedge (a box
holds the final value), stricter than protocols §3.8's general reader.
"""

from __future__ import annotations

import re
from fractions import Fraction

from infoseek.solvers.incomplete.numbers import stated_values

_BOX_OPENERS = re.compile(r"[\\/](?:boxed|fbox)\s*\{")
_HEDGE_WORDS = (
    r"or|and|nor|either|maybe|perhaps|possibly|probably|likely|roughly|about|around|"
    r"approx\w*|nearly|almost|circa|estimated?|guess\w*|unsure|uncertain|unknown|between|"
    r"if|unless|otherwise|else|not|cannot|never|ish|at\s+(?:least|most)|up\s+to|"
    r"(?:more|less|fewer|greater|smaller|larger|higher|lower)\s+than"
)
_BOX_HEDGE = re.compile(
    rf"\b(?:{_HEDGE_WORDS})\b|(?<=\d)-?ish\b|n't\b|[<>≤≥±∓≈~?…]|\+/-|\.\.\.|"
    r"\\(?:approx|sim|simeq|pm|mp|le|ge|leq|geq|lt|gt|neq|ne|lesssim|gtrsim)(?![a-z])",
    re.IGNORECASE)
_AFTER_BOX_HEDGE = re.compile(
    r"[\s.,;:!()\[\]}$]*(?:\b(?:or|maybe|perhaps|possibly|probably|alternatively|actually|"
    r"correction|otherwise|either)\b|[~≈±?])", re.IGNORECASE)
_WRAPPERS = re.compile(r"\\(?:text|mathrm|textbf|mathbf|operatorname|mbox)\s*\{([^{}]*)\}")
_LATEX_FRACTION = re.compile(r"\\[dt]?frac\s*\{([^{}]*)\}\s*\{([^{}]*)\}")
_SCIENTIFIC = re.compile(
    r"\d(?:\.\d+)?\s*(?:e[-+]?\d+|(?:\\times|\\cdot|[×x*·])\s*10\s*(?:\^|\*\*)\s*\(?[-+]?\d+\)?)",
    re.IGNORECASE)
_UNIT_POWER = re.compile(r"(?<=[A-Za-z])\s*\^\s*\(?\d+\)?|[²³]")
_SUBSCRIPT = re.compile(r"_\(?\w+\)?")
_FRACTION_TEXT = re.compile(r"\d+(?:\.\d+)?\s*/\s*\d+(?:\.\d+)?")
_NUMBER_RUN = re.compile(r"\d+(?:,\d{3})*(?:\.\d+)?")
_ARITHMETIC = re.compile(r"[\d\s.,+\-*/×÷·()^$%]+")
_OPTION_LETTER = re.compile(r"(?<![A-Za-z])([A-Za-z])(?![A-Za-z])")


def box_spans(text: str) -> list[tuple[int, int, str]]:
    """(opener start, closing brace, content) of every complete box that no other box
    holds, in order; nested braces balanced, one pass over the braces (linear in the
    text, however many boxes are open)."""
    openers = {match.end() - 1: match.start() for match in _BOX_OPENERS.finditer(text)}
    if not openers:
        return []
    closed: list[tuple[int, int, int]] = []  # (opener start, brace, closing brace)
    open_braces: list[int] = []
    for brace in re.finditer(r"[{}]", text):
        position = brace.start()
        if brace.group() == "{":
            open_braces.append(position)
        elif open_braces:
            start = open_braces.pop()
            if start in openers:
                closed.append((openers[start], start, position))
    closed.sort()
    outer: list[tuple[int, int, int]] = []
    for span in closed:
        if outer and span[0] < outer[-1][2]:
            continue  # inside the previous (outer) box
        outer.append(span)
    return [(start, close, text[brace + 1 : close]) for start, brace, close in outer]


def extract_boxed(text: str | None) -> str | None:
    """Content of the last complete, non-empty `\\boxed{...}` (also `/boxed{`, `\\fbox{`),
    with nested braces balanced; None when there is none. "Last" is the box that opens
    last among those no other box holds."""
    if not text:
        return None
    contents = [unwrap_box(c) for _, _, c in box_spans(text) if c.strip()]
    return contents[-1] if contents else None


def unwrap_box(content: str) -> str:
    """A box's content without boxes wrapped whole around it (`\\boxed{\\boxed{19}}`)."""
    content = content.strip()
    for _ in range(8):
        inner = box_spans(content)
        if len(inner) != 1 or inner[0][0] != 0 or inner[0][1] != len(content) - 1:
            break
        content = inner[0][2].strip()
    return content


def squashed(text: str) -> str:
    """`text` lower-cased (casefolded), its whitespace collapsed: the form in which two
    texts are compared as the same words."""
    return " ".join(text.split()).casefold()


def _plain_box(content: str) -> str:
    text = _BOX_OPENERS.sub("{", content)
    for _ in range(3):
        text = _WRAPPERS.sub(r" \1 ", text)
    text = _LATEX_FRACTION.sub(r"\1/\2", text)
    for latex, plain in (("\\$", "$"), ("\\%", "%"), ("\\,", ""), ("\\!", ""), ("\\ ", " "),
                         ("\\left", ""), ("\\right", ""), ("\\times", "×"), ("\\cdot", "·"),
                         ("\\div", "÷")):
        text = text.replace(latex, plain)
    return " ".join(text.replace("{", " ").replace("}", " ").split())


def box_reason(content: str, answer_kind: str = "number") -> str | None:
    """`ambiguous` when one box's content is not a single value of `answer_kind`
    (module docstring), else None."""
    text = _plain_box(content)
    if _BOX_HEDGE.search(text):
        return "ambiguous"
    if answer_kind == "choice":
        letters = {m.group(1).upper() for m in _OPTION_LETTER.finditer(text)
                   if m.group(1) != "a" or m.start() == 0}
        return "ambiguous" if len(letters) > 1 else None
    parts = text.split("=")
    for part in parts[:-1]:
        part = _SUBSCRIPT.sub("", part)
        if re.search(r"\d", part) and not _ARITHMETIC.fullmatch(part):
            return "ambiguous"  # x = 18, x = 19
    final = _UNIT_POWER.sub("", _SUBSCRIPT.sub("", parts[-1]))
    final = _FRACTION_TEXT.sub(" 1 ", _SCIENTIFIC.sub(" 1 ", final))
    return "ambiguous" if len(_NUMBER_RUN.findall(final)) > 1 else None


def _box_value(content: str, answer_kind: str) -> object:
    """What two boxes compare by: the choice letter, the number, else the text."""
    text = _plain_box(content)
    if answer_kind == "choice":
        letter = _OPTION_LETTER.search(text)
        return letter.group(1).upper() if letter else squashed(text)
    final = text.rsplit("=", 1)[-1]
    literals = stated_values(final, expressions=False)
    if len(literals) == 1:
        return literals[0]
    derived = set(stated_values(final)) - set(literals)
    return next(iter(derived)) if len(derived) == 1 else squashed(text)


def _same_value(left: object, right: object) -> bool:
    if isinstance(left, Fraction) and isinstance(right, Fraction):
        return abs(left - right) <= Fraction(1, 10**9) * max(Fraction(1), abs(right))
    return left == right


def boxes_reason(boxes: list[str] | tuple[str, ...], answer_kind: str = "number",
                 after_last: str = "") -> str | None:
    """`ambiguous` when the boxes of one reply do not hold one single value (a box
    that is not one value, two boxes with different values, or `after_last`, the text
    after the last box, opening with a hedge); None otherwise (also for no box)."""
    if not boxes:
        return None
    if any(box_reason(box, answer_kind) for box in boxes):
        return "ambiguous"
    first = _box_value(boxes[0], answer_kind)
    if any(not _same_value(_box_value(box, answer_kind), first) for box in boxes[1:]):
        return "ambiguous"
    if _second_candidate(after_last[:400], _box_value(boxes[-1], answer_kind), answer_kind):
        return "ambiguous"
    return None


_LEAD = re.compile(r"(?:[\s,:;()\-]|\b(?:it\s+is|it's|the\s+answer\s+is|i\s+mean|maybe|"
                   r"perhaps|possibly|probably|rather|could\s+be|be|option)\b)*", re.IGNORECASE)
_NEXT_LETTER = re.compile(r"\(?([A-Z])\)?(?![A-Za-z])(?<!I(?=\s+[a-z']))")
_BOUND_AFTER_OR = re.compile(r"\s+(?:so|thereabouts|more|less|fewer|higher|lower|above|"
                             r"below|greater|smaller)\b", re.IGNORECASE)


def _second_candidate(after: str, value: object, answer_kind: str) -> bool:
    """Whether the text right after the last box opens with a hedge or self-correction
    word and then puts forward another value: for a number, the sentence's first value
    (or the value after its last `=`, a derivation's result) differs from the box's;
    for a choice, the next word is another option letter."""
    hedge = _AFTER_BOX_HEDGE.match(after)
    if hedge is None:
        return False
    rest = after[hedge.end():]
    if _BOUND_AFTER_OR.match(rest) and hedge.group().lower().endswith("or"):
        return True  # 19 or so, 19 or more
    if answer_kind == "choice":
        letter = _NEXT_LETTER.match(rest, _LEAD.match(rest).end())
        return letter is not None and letter.group(1) != value
    sentence = re.split(r"[.!?\n](?!\d)", rest, maxsplit=1)[0]
    values = stated_values(sentence.rsplit("=", 1)[-1])
    if not values:
        return bool(re.search(r"[~≈±?]", hedge.group()))  # 19 ~, 19?
    return not (isinstance(value, Fraction) and _same_value(values[0], value))
