"""The simulated user of incomplete questions (protocols §3.7): who answers the model's
question, and how no text a model writes reaches the model under test.

Three users, chosen by the task's `user` parameter (`USER_KINDS`):

- ``structured`` (the default when the `user` model role is bound; it cannot leak by
  construction): the `user` model only *classifies* whether the question asks for the
  record's missing condition. It is shown the condition as the one numbered item and
  must reply exactly ``1`` (the question asks for it) or ``none``, read strictly like the
  matcher's pick (`infoseek.oracles.matcher.read_matcher_reply`: case, spacing, quotes
  and a final full stop aside; anything else is unreadable). The words the model under
  test receives are the suite's own (`USER_REVEAL` with the record's condition text, or
  `USER_UNKNOWN`); an unreadable pick gets the rule's reply (``model-unreadable``). No
  text the user model writes reaches the model under test, whatever it writes (the
  answer in Roman numerals, hexadecimal, another language, "one more than eighteen",
  "the answer is C").
- ``free_text`` (opt-in, ``-T user=free_text``; leaky): the `user` model's own reply
  reaches the model, through a leak filter that cannot be complete: a reply that states
  the hidden numeric answer in a spelling the filter reads (`leaks_number`: `nineteen`,
  `1.9e1`, `19th`, `19hens`, `12+7`), unless the condition itself states that value, is
  replaced by the rule's reply (``model-replaced``, counted as a leak); so is a reply
  longer than `MAX_USER_REPLY_CHARS` (``model-too-long``). Roman numerals, other
  languages, hexadecimal and riddles pass the filter.
- without the role, a deterministic rule answers (`rule_user_reply`: the condition when
  the question is related to it, else that the user does not know; ``rule``).

A user model that raises gets the rule's reply (``rule-after-error``), its exception in
the turn record (`user_error`). Every user-model reply is measured (`measure_user`)
against the suite's reading of the question (the rule: related or not): a pick or a
reply that reveals when the rule would not, or the reverse, or is unreadable, is wrong.

Content words (the deterministic user's relatedness test): lower-cased tokens of the
text that are numbers (`12`, `2.5`) or words of at least three letters outside a fixed
list of function and question words, with a crude plural/verb `s` stripped (`hens` ->
`hen`, `boxes` -> `box`, `berries` -> `berry`). A question is *related* to the condition
when the two share at least one content word or number.

Numbers a user reply states (the leak filter and `condition_revealed`) are read in every
spelling by `infoseek.solvers.incomplete.numbers`.
"""

from __future__ import annotations

import math
import re
from fractions import Fraction
from typing import Any

from infoseek.contract import (
    USER_AFTER_ERROR,
    USER_CHOICE,
    USER_FREE_TEXT,
    USER_LEAK,
    USER_RULE,
    USER_TOO_LONG,
    USER_UNREADABLE,
)
from infoseek.oracles.matcher import read_matcher_reply
from infoseek.oracles.roles import record_role_reply, role_bound, role_call
from infoseek.solvers.incomplete.game import STRUCTURED, USER_KINDS, UserReply
from infoseek.solvers.incomplete.numbers import stated_values
from infoseek.solvers.incomplete.prompts import STRUCTURED_USER_SYSTEM, USER_SYSTEM

USER_ROLE = "user"
PICK_CONDITION, PICK_NONE = "1", "none"
MAX_USER_REPLY_CHARS = 2000
"""A `user` model reply longer than this is replaced by the rule's reply, like one that
leaks the answer (the user is told to reply in one or two sentences)."""

_TOKEN = re.compile(r"\d+(?:\.\d+)?|[a-z]+")

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


def read_user_pick(reply: str | None) -> bool | None:
    """The structured user's pick: True (the question asks for the condition), False
    (``none``), or None when the reply is not exactly one of the two."""
    picked = read_matcher_reply(reply or "", (PICK_CONDITION, PICK_NONE))
    return None if picked is None else picked == PICK_CONDITION


def user_wrong(reply: UserReply, question: str | None, condition: str) -> bool | None:
    """Whether a user-model reply is wrong against the suite's reading of the question
    (the rule: related or not): it revealed the condition when the rule would not or
    the reverse, leaked, was too long or unreadable. None for a rule's reply or a raise."""
    if reply.source in (USER_RULE, USER_AFTER_ERROR):
        return None
    if reply.source in (USER_UNREADABLE, USER_LEAK, USER_TOO_LONG):
        return True
    return reply.revealed != shares_content_word(question, condition)


def _asked(question: str | None) -> str:
    return (question.strip() if question and question.strip()
            else "(The assistant asked an empty question.)")


async def _structured_reply(question: str | None, condition: str) -> UserReply:
    call = await role_call(USER_ROLE, f"Question: {_asked(question)}",
                           system=STRUCTURED_USER_SYSTEM.format(condition=condition))
    if call.text is None:
        reply, revealed = rule_user_reply(question, condition)
        return UserReply(reply, USER_AFTER_ERROR, revealed, call.raised)
    pick = read_user_pick(call.text)
    if pick is None:
        reply, revealed = rule_user_reply(question, condition)
        return UserReply(reply, USER_UNREADABLE, revealed)
    if pick:
        return UserReply(USER_REVEAL.format(condition=condition), USER_CHOICE, True)
    return UserReply(USER_UNKNOWN, USER_CHOICE, False)


async def _free_text_reply(question: str | None, record: dict[str, Any]) -> UserReply:
    condition = record["condition"]
    call = await role_call(USER_ROLE, _asked(question),
                           system=USER_SYSTEM.format(condition=condition))
    if call.text is None:
        reply, revealed = rule_user_reply(question, condition)
        return UserReply(reply, USER_AFTER_ERROR, revealed, call.raised)
    reply = call.text.strip()
    replaced = (USER_TOO_LONG if len(reply) > MAX_USER_REPLY_CHARS
                else USER_LEAK if leaks_number(reply, record["answer"], condition)
                else None)
    if replaced is not None:
        rule_reply, revealed = rule_user_reply(question, condition)
        return UserReply(rule_reply, replaced, revealed)
    return UserReply(reply, USER_FREE_TEXT, condition_revealed(reply, condition))


async def simulated_user_reply(question: str | None, record: dict[str, Any], *,
                               kind: str = STRUCTURED, turn: int | None = None) -> UserReply:
    """The user's reply to `question` (module docstring): the `user` model role when
    bound (it sees only the condition and the question), as a `kind` user, else the
    deterministic rule. A model reply is recorded in the role ledger, measured."""
    if kind not in USER_KINDS:
        raise ValueError(f"user must be one of {', '.join(USER_KINDS)}; got {kind!r}")
    condition = record["condition"]
    if not role_bound(USER_ROLE):
        reply, revealed = rule_user_reply(question, condition)
        return UserReply(reply, USER_RULE, revealed)
    reply = (await _structured_reply(question, condition) if kind == STRUCTURED
             else await _free_text_reply(question, record))
    record_role_reply(USER_ROLE, turn=turn, wrong=user_wrong(reply, question, condition),
                      raised=reply.error, source=reply.source)
    return reply
