"""Reading a model's reply in the incomplete-questions protocol (SPEC 3.7), and the rule
that the deterministic simulated user follows. Pure functions; no Inspect imports.

Reply format (text): optional `<think>...</think>`, then either `<question>...</question>`
(questionable variant only) or `<answer>... \\boxed{value} ...</answer>`. An answer wins
over a question in the same reply.

Behaviour class of one reply (first match wins), after dropping `<think>` blocks:

1. `boxed_answer`: a non-empty `\\boxed{...}` anywhere (a missing `<answer>` tag is
   forgiven, as the published study did);
2. `unboxed_answer`: an `<answer>` tag without a box;
3. `asked_question`: a `<question>` tag, or a call of the `ask_user` tool;
4. `no_answer_tag`: none of these.

Content words (the deterministic user's relatedness test): lower-cased tokens of the
text that are numbers (`12`, `2.5`) or words of at least three letters outside a fixed
list of function and question words, with a crude plural/verb `s` stripped (`hens` ->
`hen`, `boxes` -> `box`, `berries` -> `berry`). A question is *related* to the condition
when the two share at least one content word or number.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

BEHAVIOURS: tuple[str, ...] = ("boxed_answer", "unboxed_answer", "no_answer_tag",
                               "asked_question")
ANSWER_BEHAVIOURS: tuple[str, ...] = ("boxed_answer", "unboxed_answer")

_BOX_OPENERS = re.compile(r"[\\/](?:boxed|fbox)\s*\{")
_THINK = re.compile(r"<think>.*?(?:</think>|$)", re.IGNORECASE | re.DOTALL)
_QUESTION_TAG = re.compile(r"<question>(.*?)(?:</question>|$)", re.IGNORECASE | re.DOTALL)
_ANSWER_TAG = re.compile(r"<answer>", re.IGNORECASE)
_ASSUME_SUPPOSE = re.compile(r"\b(?:assum|suppos)\w*", re.IGNORECASE)
_LETS_SAY = re.compile(r"\blet(?:'|’)?s\s+say\b|\blet\s+us\s+say\b", re.IGNORECASE)
_TOKEN = re.compile(r"\d+(?:\.\d+)?|[a-z]+")
_NUMBER = re.compile(r"(?<![\w.])-?\d+(?:,\d{3})*(?:\.\d+)?(?![\w])")

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
    boxed: str | None            # content of the last non-empty box, if any
    question: str | None         # the question asked (tag or tool), if any
    question_via: str | None     # "tag" | "tool" | None
    extra_questions: int         # further questions in the same reply (not answered)
    says_assume_or_suppose: bool
    says_lets_say: bool


def extract_boxed(text: str | None) -> str | None:
    """Content of the last complete, non-empty `\\boxed{...}` (also `/boxed{`, `\\fbox{`),
    with nested braces balanced; None when there is none. "Last" is the box that opens
    last. One pass over the braces (linear in the text, however many boxes are open)."""
    if not text:
        return None
    box_braces = {match.end() - 1 for match in _BOX_OPENERS.finditer(text)}
    if not box_braces:
        return None
    found: tuple[int, str] | None = None
    open_braces: list[int] = []
    for brace in re.finditer(r"[{}]", text):
        position = brace.start()
        if brace.group() == "{":
            open_braces.append(position)
        elif open_braces:
            start = open_braces.pop()
            if start in box_braces and (found is None or start > found[0]):
                content = text[start + 1 : position].strip()
                if content:
                    found = (start, content)
    return None if found is None else found[1]


def strip_think(text: str) -> str:
    return _THINK.sub(" ", text or "")


def question_tags(text: str | None) -> list[str]:
    """The contents of the `<question>` tags outside `<think>` blocks, in order."""
    return [q.strip() for q in _QUESTION_TAG.findall(strip_think(text or ""))]


def says_assume_or_suppose(text: str | None) -> bool:
    """The token test of the published study: "assume" or "suppose" in any form."""
    return bool(_ASSUME_SUPPOSE.search(text or ""))


def says_lets_say(text: str | None) -> bool:
    return bool(_LETS_SAY.search(text or ""))


def parse_reply(text: str | None, tool_questions: list[str] | None = None) -> ParsedReply:
    """Classify one reply. `tool_questions`: the `question` arguments of its `ask_user`
    tool calls, in order (a tool call takes precedence over a `<question>` tag)."""
    text = text or ""
    visible = strip_think(text)
    boxed = extract_boxed(visible)
    tags = question_tags(text)
    asked: list[tuple[str, str]] = [(q, "tool") for q in (tool_questions or [])]
    asked += [(q, "tag") for q in tags]
    if boxed is not None:
        behaviour = "boxed_answer"
    elif _ANSWER_TAG.search(visible):
        behaviour = "unboxed_answer"
    elif asked:
        behaviour = "asked_question"
    else:
        behaviour = "no_answer_tag"
    question, via = asked[0] if asked and behaviour == "asked_question" else (None, None)
    return ParsedReply(
        behaviour=behaviour,
        boxed=boxed,
        question=question,
        question_via=via,
        extra_questions=max(0, len(asked) - 1) if behaviour == "asked_question" else 0,
        says_assume_or_suppose=says_assume_or_suppose(text),
        says_lets_say=says_lets_say(text),
    )


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


def numbers_in(text: str | None) -> list[float]:
    return [float(n.replace(",", "")) for n in _NUMBER.findall(text or "")]


def condition_revealed(reply: str | None, condition: str) -> bool:
    """Whether a (model-written) user reply conveys the condition: every number of the
    condition appears in it; a condition without numbers needs at least half of its
    content words."""
    numbers = numbers_in(condition)
    if numbers:
        said = numbers_in(reply)
        return all(any(abs(n - s) < 1e-9 for s in said) for n in numbers)
    words = content_words(condition)
    if not words:
        return False
    said_words = set(content_words(reply))
    return 2 * sum(w in said_words for w in words) >= len(words)


def leaks_number(reply: str | None, answer: object, condition: str) -> bool:
    """Whether `reply` states a numeric `answer` that the condition itself does not hold."""
    if isinstance(answer, bool):
        return False
    if isinstance(answer, int | float):
        value = float(answer)
    else:
        try:
            value = float(str(answer).replace(",", "").strip())
        except ValueError:
            return False  # choice letters and free text: no number to leak
    def close(x: float) -> bool:
        return abs(x - value) <= 1e-9 * max(1.0, abs(value))

    return any(close(n) for n in numbers_in(reply)) and not any(
        close(n) for n in numbers_in(condition)
    )
