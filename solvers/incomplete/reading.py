"""Reading a model's reply in the incomplete-questions protocol (protocols §3.7, read by the
rules of protocols §3.8), and the rule that the deterministic simulated user follows. Pure
functions; no Inspect imports.

Reply format (text): optional `<think>...</think>`, then either `<question>...</question>`
(questionable variant only) or `<answer>... \\boxed{value} ...</answer>`. An answer wins
over a question in the same reply.

Behaviour class of one reply (first match wins), after dropping `<think>` blocks and
setting aside what is not an action (below):

1. `boxed_answer`: a non-empty `\\boxed{...}` outside any `<question>` tag (a missing
   `<answer>` tag is forgiven, as the published study did);
2. `unboxed_answer`: a closed `<answer>...</answer>` tag without a box;
3. `asked_question`: a closed `<question>...</question>` tag, or a call of the
   `ask_user` tool;
4. `no_answer_tag`: none of these.

Set aside, never an action (each reason recorded once in `ParsedReply.set_aside`, in
order of first occurrence):

- `unclosed_tag`: a `<question>` or `<answer>` opener without its closer (`...inside
  <question>...</question. The answer is...`). Text after an unclosed `<question>`
  (up to the next tag opener) is still inside that question: a box there is no answer;
- `echoed_tag`: a tag or a box whose content is a placeholder (`...`, `…`, only
  punctuation) or a copy of a tag of our own prompts and corrections (`echoes`: the
  example question, the example answer `Ben has \\boxed{7} apples.`);
- `empty_tag`: a `<question>` or `<answer>` tag with nothing inside;
- a tool question (`ask_user`) that is empty (`empty_tag`), a placeholder or the
  prompt's example question (`echoed_tag`) asks nothing either;
- `box_in_question`: a box inside a `<question>` tag (the reply is a question; the box
  is never an answer).

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

Content words (the deterministic user's relatedness test): lower-cased tokens of the
text that are numbers (`12`, `2.5`) or words of at least three letters outside a fixed
list of function and question words, with a crude plural/verb `s` stripped (`hens` ->
`hen`, `boxes` -> `box`, `berries` -> `berry`). A question is *related* to the condition
when the two share at least one content word or number.

Numbers a user reply states (the leak filter and `condition_revealed`) are read in every
spelling by `infoseek.solvers.incomplete.numbers`.
"""

from __future__ import annotations

import bisect
import math
import re
from dataclasses import dataclass
from fractions import Fraction

from infoseek.solvers.incomplete.numbers import stated_values

BEHAVIOURS: tuple[str, ...] = ("boxed_answer", "unboxed_answer", "no_answer_tag",
                               "asked_question")
ANSWER_BEHAVIOURS: tuple[str, ...] = ("boxed_answer", "unboxed_answer")
SET_ASIDE_REASONS: tuple[str, ...] = ("unclosed_tag", "echoed_tag", "empty_tag",
                                      "box_in_question")
"""Why text that looks like an action is not one (module docstring)."""
ANSWER_KINDS: tuple[str, ...] = ("number", "choice")
"""How a record's answer is written: a number, or a choice letter."""

_BOX_OPENERS = re.compile(r"[\\/](?:boxed|fbox)\s*\{")
_THINK = re.compile(r"<think>.*?(?:</think>|$)", re.IGNORECASE | re.DOTALL)
_TAG = re.compile(r"<(/?)(question|answer)\s*>", re.IGNORECASE)
_ASSUME_SUPPOSE = re.compile(r"\b(?:assum|suppos)\w*", re.IGNORECASE)
_LETS_SAY = re.compile(r"\blet(?:'|’)?s\s+say\b|\blet\s+us\s+say\b", re.IGNORECASE)
_TOKEN = re.compile(r"\d+(?:\.\d+)?|[a-z]+")
_PLACEHOLDER = re.compile(r"[^\w]*")
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

STOPWORDS: frozenset[str] = frozenset("""
about above after again against all also and any are because been before being below
between both but can could did does doing down during each every few for from further
had has have having her here hers herself him himself his how into its itself just
let many more most much must not now off once only other our ours out over own same
she should some such than that the their theirs them then there these they this those
through too under until very was were what when where which while who whom why will
with would you your yours yourself know tell please need give given many value number
question answer missing information detail details thing things say said one
""".split())


@dataclass(frozen=True)
class ParsedReply:
    """What one model reply does."""

    behaviour: str
    boxed: str | None            # content of the last answer box, if any
    question: str | None         # the question asked (tag or tool), if any
    question_via: str | None     # "tag" | "tool" | None
    extra_questions: int         # further questions in the same reply (not answered)
    says_assume_or_suppose: bool
    says_lets_say: bool
    boxes: tuple[str, ...] = ()  # every answer box's content, in order
    answer_reason: str | None = None  # "ambiguous" when the boxes hold no single value
    set_aside: tuple[str, ...] = ()  # SET_ASIDE_REASONS, each once, in order


def answer_kind_of(answer: object) -> str:
    """`choice` for a one-letter answer, else `number`."""
    if isinstance(answer, str) and len(answer.strip()) == 1 and answer.strip().isalpha():
        return "choice"
    return "number"


def _box_spans(text: str) -> list[tuple[int, int, str]]:
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
    contents = [_unwrap(c) for _, _, c in _box_spans(text) if c.strip()]
    return contents[-1] if contents else None


def strip_think(text: str) -> str:
    return _THINK.sub(" ", text or "")


def _squash(text: str) -> str:
    return " ".join(text.split()).casefold()


def tag_contents(*texts: str) -> frozenset[str]:
    """The contents of the `<question>` / `<answer>` tags of our own prompt texts, as
    `echoes` for `parse_reply` (lower-cased, whitespace collapsed). Boxes are not
    collected: the example's `\\boxed{7}` alone is a plain answer of 7."""
    found: set[str] = set()
    for text in texts:
        found.update(_squash(tag.content) for tag in _tags(text) if tag.closed)
    return frozenset(c for c in found if c)


@dataclass(frozen=True)
class _Tag:
    name: str       # "question" | "answer"
    start: int      # the opener
    end: int        # after the closer, or where an unclosed tag's reach ends
    content: str
    closed: bool


def _tags(text: str) -> list[_Tag]:
    """The `<question>` and `<answer>` tags of `text`, in order. A closer pairs with the
    latest opener of its name; an opener left without one is unclosed, and reaches to
    the next opener of any tag (or the end). Linear in the text."""
    marks = list(_TAG.finditer(text))
    tags: list[_Tag] = []
    pending: dict[str, re.Match[str]] = {}
    for mark in marks:
        name = mark.group(2).lower()
        if not mark.group(1):
            if name in pending:
                tags.append(_unclosed(pending.pop(name), mark.start(), text))
            for other in list(pending):
                tags.append(_unclosed(pending.pop(other), mark.start(), text))
            pending[name] = mark
        elif name in pending:
            opener = pending.pop(name)
            tags.append(_Tag(name, opener.start(), mark.end(),
                             text[opener.end() : mark.start()], True))
    for opener in pending.values():
        tags.append(_unclosed(opener, len(text), text))
    tags.sort(key=lambda t: t.start)
    return tags


def _unclosed(opener: re.Match[str], reach: int, text: str) -> _Tag:
    return _Tag(opener.group(2).lower(), opener.start(), reach, text[opener.end() : reach],
                False)


def _is_placeholder(content: str) -> bool:
    return _PLACEHOLDER.fullmatch(content) is not None


def question_tags(text: str | None, echoes: frozenset[str] = frozenset()) -> list[str]:
    """The contents of the closed, non-empty `<question>` tags outside `<think>` blocks
    that are not echoes of our prompts, in order."""
    return [t.content.strip() for t in _tags(strip_think(text or ""))
            if t.name == "question" and _tag_reason(t, echoes) is None]


def _tag_reason(tag: _Tag, echoes: frozenset[str]) -> str | None:
    if not tag.closed:
        return "unclosed_tag"
    return _content_reason(tag.content, echoes)


def _content_reason(content: str, echoes: frozenset[str]) -> str | None:
    """`empty_tag` or `echoed_tag` for a tag's content (or a tool question) that is
    nothing, a placeholder or a copy of our prompts; None for a real one."""
    if not content.strip():
        return "empty_tag"
    if _is_placeholder(content) or _squash(content) in echoes:
        return "echoed_tag"
    return None


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
        return letter.group(1).upper() if letter else _squash(text)
    final = text.rsplit("=", 1)[-1]
    literals = stated_values(final, expressions=False)
    if len(literals) == 1:
        return literals[0]
    derived = set(stated_values(final)) - set(literals)
    return next(iter(derived)) if len(derived) == 1 else _squash(text)


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


def says_assume_or_suppose(text: str | None) -> bool:
    """The token test of the published study: "assume" or "suppose" in any form."""
    return bool(_ASSUME_SUPPOSE.search(text or ""))


def says_lets_say(text: str | None) -> bool:
    return bool(_LETS_SAY.search(text or ""))


def parse_reply(text: str | None, tool_questions: list[str] | None = None, *,
                answer_kind: str = "number",
                echoes: frozenset[str] = frozenset()) -> ParsedReply:
    """Classify one reply (module docstring). `tool_questions`: the `question` arguments
    of its `ask_user` tool calls, in order (a tool call takes precedence over a
    `<question>` tag); `answer_kind`: how the record's answer is written (`number` or
    `choice`); `echoes`: the tag contents of our own prompts (`tag_contents`)."""
    text = text or ""
    visible = strip_think(text)
    tags = _tags(visible)
    set_aside: list[str] = []
    questions: list[str] = []
    answer_tag = False
    question_spans: list[tuple[int, int]] = []
    echo_spans: list[tuple[int, int]] = []
    for tag in tags:
        reason = _tag_reason(tag, echoes)
        if tag.name == "question":
            question_spans.append((tag.start, tag.end))
        if reason is not None:
            set_aside.append(reason)
            if reason == "echoed_tag":
                echo_spans.append((tag.start, tag.end))
        elif tag.name == "question":
            questions.append(tag.content.strip())
        else:
            answer_tag = True

    def inside(position: int, spans: list[tuple[int, int]]) -> bool:
        # tags never overlap, so the spans are sorted by start and by end
        index = bisect.bisect_right(spans, (position, len(visible) + 1)) - 1
        return index >= 0 and spans[index][0] <= position < spans[index][1]

    boxes: list[str] = []
    last_end = 0
    for start, end, content in _box_spans(visible):
        if not content.strip():
            continue
        if inside(start, echo_spans):
            continue
        if _is_placeholder(content):
            set_aside.append("echoed_tag")
            continue
        if inside(start, question_spans):
            set_aside.append("box_in_question")
            continue
        boxes.append(_unwrap(content))
        last_end = end + 1
    asked: list[tuple[str, str]] = []
    for tool_question in tool_questions or []:
        reason = _content_reason(tool_question, echoes)
        if reason is None:
            asked.append((tool_question, "tool"))
        else:
            set_aside.append(reason)
    asked += [(q, "tag") for q in questions]
    if boxes:
        behaviour = "boxed_answer"
    elif answer_tag:
        behaviour = "unboxed_answer"
    elif asked:
        behaviour = "asked_question"
    else:
        behaviour = "no_answer_tag"
    question, via = asked[0] if asked and behaviour == "asked_question" else (None, None)
    answer_reason = boxes_reason(boxes, answer_kind, _after_box(visible, last_end, tags))
    return ParsedReply(
        behaviour=behaviour,
        boxed=boxes[-1] if boxes else None,
        question=question,
        question_via=via,
        extra_questions=max(0, len(asked) - 1) if behaviour == "asked_question" else 0,
        says_assume_or_suppose=says_assume_or_suppose(text),
        says_lets_say=says_lets_say(text),
        boxes=tuple(boxes),
        answer_reason=answer_reason,
        set_aside=tuple(dict.fromkeys(set_aside)),
    )


def _unwrap(content: str) -> str:
    """A box's content without boxes wrapped whole around it (`\\boxed{\\boxed{19}}`)."""
    content = content.strip()
    for _ in range(8):
        inner = _box_spans(content)
        if len(inner) != 1 or inner[0][0] != 0 or inner[0][1] != len(content) - 1:
            break
        content = inner[0][2].strip()
    return content


def _after_box(visible: str, last_end: int, tags: list[_Tag]) -> str:
    """The text after the last answer box, to the end of the reply, with the closing
    ``</answer>`` tag set aside: a second value offered after the tag (``<answer>\\boxed{19}
    </answer> Or 20``) is still the model's answer text. Question tags after the box are
    dropped (a question is not an answer value)."""
    if not last_end:
        return ""
    after = visible[last_end:]
    for tag in sorted(tags, key=lambda t: t.start, reverse=True):
        if tag.name == "question" and tag.start >= last_end:
            after = after[: tag.start - last_end] + " " + after[tag.end - last_end:]
    return re.sub(r"</\s*answer\s*>", " ", after, flags=re.IGNORECASE)


# ----------------------------------------------------------- the deterministic user


def _stem(word: str) -> str:
    if len(word) > 4 and word.endswith("ies"):
        return word[:-3] + "y"
    if len(word) > 4 and word.endswith(("sses", "xes", "ches", "shes")):
        return word[:-2]
    if len(word) > 3 and word.endswith("s") and not word.endswith(("ss", "us", "is")):
        return word[:-1]
    return word


def content_words(text: str | None) -> list[str]:
    """Content words and numbers of `text`, in order of first occurrence."""
    seen: dict[str, None] = {}
    for token in _TOKEN.findall((text or "").lower().replace(",", "")):
        if token[0].isdigit():
            seen.setdefault(token, None)
        elif len(token) >= 3 and token not in STOPWORDS:
            stem = _stem(token)
            if stem not in STOPWORDS:
                seen.setdefault(stem, None)
    return list(seen)


def shares_content_word(question: str | None, condition: str) -> bool:
    return bool(set(content_words(question)) & set(content_words(condition)))


USER_REVEAL = "Here is what I know: {condition}"
USER_UNKNOWN = "Sorry, I don't know anything about that."


def rule_user_reply(question: str | None, condition: str) -> tuple[str, bool]:
    """(reply, revealed) of the deterministic simulated user: the condition when the
    question shares a content word or number with it, else that it does not know."""
    if shares_content_word(question, condition):
        return USER_REVEAL.format(condition=condition), True
    return USER_UNKNOWN, False


def numbers_in(text: str | None) -> list[Fraction]:
    """The numbers `text` states as written, in any spelling (digits, words, ordinals,
    fractions in words; `infoseek.solvers.incomplete.numbers`), without the values of
    arithmetic it writes out."""
    return stated_values(text, expressions=False)


def _close(x: Fraction, value: Fraction) -> bool:
    return abs(x - value) <= Fraction(1, 10**9) * max(Fraction(1), abs(value))


def condition_revealed(reply: str | None, condition: str) -> bool:
    """Whether a (model-written) user reply conveys the condition: every number of the
    condition appears in it (in any spelling: `seven` for 7, `2 and a half` for 2.5); a
    condition without numbers needs at least half of its content words."""
    numbers = numbers_in(condition)
    if numbers:
        said = stated_values(reply)
        return all(any(_close(s, n) for s in said) for n in numbers)
    words = content_words(condition)
    if not words:
        return False
    said_words = set(content_words(reply))
    return 2 * sum(w in said_words for w in words) >= len(words)


_PLAIN_NUMBER = re.compile(r"[-+]?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][-+]?\d{1,3})?")


def answer_value(answer: object) -> Fraction | None:
    """The exact value of a record's numeric answer (an int, a float, or a numeric
    string such as `"1,900"` or `"0.625"`); None for a choice letter, free text, a
    bool, or a non-finite float."""
    if isinstance(answer, bool):
        return None
    if isinstance(answer, int):
        return Fraction(answer)
    if isinstance(answer, float):
        return Fraction(repr(answer)) if math.isfinite(answer) else None
    if not isinstance(answer, str):
        return None
    text = answer.replace(",", "").strip()
    return Fraction(text) if len(text) <= 100 and _PLAIN_NUMBER.fullmatch(text) else None


def leaks_number(reply: str | None, answer: object, condition: str) -> bool:
    """Whether `reply` states a numeric `answer`, in any spelling (words, scientific
    notation, an ordinal, glued to a unit, a fraction or a simple expression equal to
    it), when the condition itself does not state that value (the user is told only the
    condition, and may repeat any number it holds, in any spelling)."""
    value = answer_value(answer)
    if value is None:
        return False  # choice letters and free text: no number to leak
    if any(_close(v, value) for v in stated_values(condition)):
        return False
    return any(_close(v, value) for v in stated_values(reply))
