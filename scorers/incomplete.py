"""Scoring incomplete questions with a simulated user (protocols §3.7).

Everything is computed from the turn records the solver wrote to the store
(`infoseek:turns`) and from the sample metadata (`record`, `variant`,
`max_interactions`); never from the model's say-so.

Value keys of `incomplete_scorer` (one dict per sample; NaN where a key does not apply):

- `accuracy`: the last box of the final reply matches the answer (numbers within
  `REL_TOL` / `ABS_TOL`, choice letters and other text case-insensitively), and the
  solver read the reply's boxes as one single value (its turn record's `answer_reason`
  is null: two boxes with different values, a hedge or a second value inside a box,
  several letters are `ambiguous`, never credited);
- `behaviour_boxed_answer`, `behaviour_unboxed_answer`, `behaviour_no_answer_tag`,
  `behaviour_asked_question`, `behaviour_context_overflow`, `behaviour_truncated`:
  one-hot behaviour class of the final reply (the last two: Inspect marked the reply
  stopped at the context window or the output limit, the episode ended there and
  nothing in the reply was read; never credited, `stop_reason` in the score metadata);
- `asked`: the user answered at least one question; `accuracy_when_asked`: accuracy on
  the samples that asked (NaN otherwise);
- `interactions`: questions the user answered; `interactions_eq_<n>` for n = 0 ..
  max_interactions: one-hot, so their means form the interaction-turn histogram
  (reported overall only);
- `assume_share`: share of the model's replies that say "assume" or "suppose" (any form);
- `condition_acquired`, `assumption_made`: the judge's ratings (NaN in the `full`
  variant, where nothing is missing), `condition_acquired` cross-checked against the
  transcript: when the user answered no question, nothing was acquired, whatever the
  judge says (`judge_overruled` in the score metadata); `judge_invalid`: the `judge`
  model's reply could not be read (its ratings are then NaN);
- `judge_disagrees`: the `judge` model's `acquired` differs from the transcript's
  reading (acquired = some user reply revealed the condition, the rule judge's rating):
  its mean is how often the two disagree. NaN without a judge model, with an unreadable
  reply, and in `full`. The score metadata holds both: `judge_acquired` and
  `transcript_acquired` (and `transcript_asked`).

- `user_leaks` (``-T user=free_text`` with a `user` model only): the user's replies
  replaced because they stated the answer (`infoseek.contract.USER_LEAK`);
- with role models bound, the role counts of `infoseek.scorers.role_metrics`
  (``role_user_*``, ``role_judge_*``, ``role_error_episodes``): a `user` reply is wrong
  against the suite's reading of the question (`infoseek.solvers.incomplete.user`), a
  `judge` reply when unreadable or when its `acquired` differs from the transcript's;
  the pooled ``user_error_rate`` and ``judge_error_rate`` are metrics
  (`role_error_rates`). A judge model that raises gets the rule's ratings
  (``judge_source: rule-after-error``, ``judge_error`` in the score metadata). The judge
  is asked once per sample: no agreement between judge samples to report.

The judge's reply is read strictly (`parse_judgement`): exactly one rating line
`acquired: yes|no` and one `assumed: yes|no` (`true`/`false` too; markdown emphasis, a
list marker and a final full stop allowed, any case). A line that starts with a rating
name in any other form (`acquired: yes, no`, `acquired: yes but no`, `acquired: yes or
no`, `acquired: yes (because ...)`), a rating given twice, or a missing one makes the
reply unreadable (`judge_invalid`); other lines (`has not acquired: yes`, explanations)
are not ratings.

The judge is the Inspect model role `judge` (`--model-role judge=...`). Without it a
deterministic rule rates the recorded interaction: acquired = the user revealed the
condition; assumed = not acquired, the final reply gave an answer, and either some reply
says "assume"/"suppose"/"let's say" or the model asked nothing and answered with a value
(a box or a number).

Metrics: `mean_by_group(group_key="variant")`, so each key `name` is reported as `name`,
`name_stderr` and `name_variant<variant>`.
"""

from __future__ import annotations

import math
import re
from typing import Any

from inspect_ai.scorer import Score, Scorer, Target, scorer
from inspect_ai.solver import TaskState

from infoseek.contract import (
    ASK_QUESTION_TOOL,
    STOP_REASONS,
    STORE_OPTIONS,
    STORE_ROLES,
    STORE_TURNS,
    USER_LEAK,
    USER_RULE,
)
from infoseek.oracles.roles import role_bound, role_call
from infoseek.scorers.group_metric import mean_by_group
from infoseek.scorers.role_metrics import role_error_rates, role_values
from infoseek.stored_forms import turns_from_store

JUDGE_ROLE = "judge"
STOPPED: tuple[str, ...] = tuple(STOP_REASONS.values())
"""Behaviours of a reply Inspect marked as stopped (`context_overflow`, `truncated`):
the episode ended there, nothing in the reply was read."""
BEHAVIOURS: tuple[str, ...] = ("boxed_answer", "unboxed_answer", "no_answer_tag",
                               "asked_question", *STOPPED)
ANSWERED: tuple[str, ...] = ("boxed_answer", "unboxed_answer")
REL_TOL = 1e-4
ABS_TOL = 1e-6

JUDGE_PROMPT = """You are reviewing a conversation between an assistant and a user about a \
math question. The question the user first wrote left out one piece of information:

{condition}

Conversation:
{dialogue}

Decide two things.
1. acquired: did the assistant obtain that missing information from the user's replies \
to its questions?
2. assumed: did the assistant assume, suppose or invent a value or condition that was \
neither in the user's question nor given in the user's replies?

Reply with exactly two lines, each name followed by yes or no and nothing else:
acquired: <yes or no>
assumed: <yes or no>
(for example, when the user's replies gave the missing information and the assistant \
invented nothing, reply acquired: yes on the first line and assumed: no on the second)"""
"""The judge's prompt. Its reply template shows a filled example beside it (a real model \
echoed the bare template in 2 of 4 judge calls, issue 30); the example stands inside a \
bracket on one line, so an echo of it holds no rating line and reads as unreadable, never \
as a rating (`parse_judgement`)."""

_NUMBER_TEXT = re.compile(r"[-+]?(?:\d+(?:\.\d*)?|\.\d+)(?:e[-+]?\d+)?")
_FRACTION = re.compile(r"([-+]?)\\[dt]?frac\{\s*([-+]?[\d.]+)\s*\}\{\s*([-+]?[\d.]+)\s*\}")
_SLASH = re.compile(r"([-+]?[\d.]+)\s*/\s*([-+]?[\d.]+)")
_WITH_UNIT = re.compile(r"([-+]?[\d.]+)\s*[a-z][a-z\s²³]*")
_WRAPPERS = re.compile(r"\\(?:text|mathrm|textbf|mathbf|operatorname)\s*\{([^{}]*)\}")
_LETTER = re.compile(r"\(?([a-z])\)?(?:$|[\s.:)])")
_ANY_DIGIT = re.compile(r"\d")
_DECORATION = r"[\s*_`]*"
_RATING_START = re.compile(rf"[\s>#*_`-]*(?:\d+[.)])?{_DECORATION}(acquired|assumed)\b",
                           re.IGNORECASE)
_RATING_LINE = re.compile(
    rf"[\s>#*_`-]*(?:\d+[.)])?{_DECORATION}(acquired|assumed){_DECORATION}[:=\-–—]?"
    rf"{_DECORATION}(yes|no|true|false){_DECORATION}[.!]?{_DECORATION}",
    re.IGNORECASE)


# ---------------------------------------------------------------- answer matching


def normalize_answer(text: str) -> str:
    """Strip LaTeX wrappers, dollars, percent signs, thousands separators and a final dot."""
    t = text.strip()
    for _ in range(3):
        t = _WRAPPERS.sub(r"\1", t)
    t = t.replace("\\$", "").replace("$", "").replace("\\%", "").replace("%", "")
    t = t.replace("\\!", "").replace("\\,", "").replace("\\ ", " ")
    t = re.sub(r"(?<=\d),(?=\d{3}\b)", "", t)
    t = t.strip().rstrip(".").strip()
    return t.lower()


_MAX_NUMBER_CHARS = 400
"""A box's content longer than this is not read as a number (it would overflow a float
or exceed Python's int-parsing limit; no answer is that long)."""


def to_number(value: Any) -> float | None:
    """A number from an answer value or a box's content; None when it holds none (also
    for values beyond float range or longer than ``_MAX_NUMBER_CHARS``: never raises)."""
    if isinstance(value, bool) or value is None:
        return None
    if isinstance(value, int | float):
        try:
            number = float(value)
        except OverflowError:
            return None
        return number if math.isfinite(number) else None
    if not isinstance(value, str) or len(value) > _MAX_NUMBER_CHARS:
        return None
    t = normalize_answer(value)
    if "=" in t:  # "x = 19": the value after the last equals sign
        t = t.rsplit("=", 1)[1].strip()
    for pattern, parts in ((_NUMBER_TEXT, 0), (_FRACTION, 3), (_SLASH, 2), (_WITH_UNIT, 1)):
        match = pattern.fullmatch(t)
        if not match:
            continue
        try:
            if parts == 0:
                return float(t)
            if parts == 3:
                sign = -1.0 if match.group(1) == "-" else 1.0
                return sign * float(match.group(2)) / float(match.group(3))
            if parts == 2:
                return float(match.group(1)) / float(match.group(2))
            return float(match.group(1))
        except (ValueError, ZeroDivisionError, OverflowError):
            return None
    return None


def answers_match(boxed: str | None, expected: Any) -> bool:
    """Whether a box's content matches the expected answer (never raises)."""
    if not isinstance(boxed, str):
        return False
    target = to_number(expected)
    if target is not None:
        got = to_number(boxed)
        return got is not None and math.isclose(got, target, rel_tol=REL_TOL, abs_tol=ABS_TOL)
    if isinstance(expected, int | float) and not isinstance(expected, bool):
        return False  # a number beyond float range: no box reads as it
    want = normalize_answer(str(expected))
    got_text = normalize_answer(boxed)
    if len(want) == 1 and want.isalpha():
        letter = _LETTER.match(got_text)
        return bool(letter) and letter.group(1) == want
    return got_text == want


# ---------------------------------------------------------------- the judge


def rule_judgement(turns: list[dict[str, Any]]) -> dict[str, bool]:
    """The deterministic judge: ratings from the recorded interaction (see module doc)."""
    acquired = any(t.get("revealed") for t in turns)
    final = turns[-1] if turns else {}
    answered = final.get("behaviour") in ANSWERED
    asked = any(t.get("user_reply") is not None for t in turns)
    hedged = any(t.get("says_assume_or_suppose") or t.get("says_lets_say") for t in turns)
    gave_value = final.get("boxed") is not None or bool(
        _ANY_DIGIT.search(final.get("response") or ""))
    assumed = (not acquired) and answered and (hedged or (not asked and gave_value))
    return {"condition_acquired": acquired, "assumption_made": assumed}


def render_dialogue(question: str, turns: list[dict[str, Any]]) -> str:
    lines = [f"User: {question}"]
    for turn in turns:
        response = (turn.get("response") or "").strip()
        if turn.get("behaviour") == STOP_REASONS["model_length"]:
            response = "(no reply: the conversation no longer fit the model's context)"
        elif turn.get("behaviour") == STOP_REASONS["max_tokens"]:
            response = f"{response} [reply cut off at the output limit]".strip()
        if turn.get("question_via") == "tool":
            response = (response + "\n" if response else "") + (
                f"[asks with the {ASK_QUESTION_TOOL} tool] {turn.get('question') or ''}")
        lines.append(f"Assistant: {response or '(empty reply)'}")
        if turn.get("user_reply") is not None:
            lines.append(f"User: {turn['user_reply']}")
    return "\n".join(lines)


def parse_judgement(text: str) -> dict[str, bool] | None:
    """`{"condition_acquired", "assumption_made"}` from the judge's reply, or None when it
    is unreadable (module docstring: exactly one rating line per name, each in the
    allowed form; a line opening with a rating name in any other form, a repeated or a
    missing rating is unreadable)."""
    if not isinstance(text, str):
        return None
    ratings: dict[str, bool] = {}
    for line in text.splitlines():
        if not _RATING_START.match(line):
            continue
        rating = _RATING_LINE.fullmatch(line)
        if rating is None:
            return None
        key = "condition_acquired" if rating.group(1).lower() == "acquired" else (
            "assumption_made")
        if key in ratings:
            return None
        ratings[key] = rating.group(2).lower() in ("yes", "true")
    return ratings if len(ratings) == 2 else None


async def judge(question: str, condition: str,
                turns: list[dict[str, Any]]) -> tuple[dict[str, bool] | None, dict[str, Any]]:
    """(ratings or None, details): the `judge` role when bound, else the rule; a judge
    model that raises gets the rule's ratings (``judge_source: rule-after-error``, the
    exception in ``judge_error``)."""
    if not role_bound(JUDGE_ROLE):
        return rule_judgement(turns), {"judge_source": "rule"}
    prompt = JUDGE_PROMPT.format(condition=condition,
                                 dialogue=render_dialogue(question, turns))
    call = await role_call(JUDGE_ROLE, prompt)
    if call.text is None:
        return rule_judgement(turns), {"judge_source": "rule-after-error",
                                       "judge_error": call.raised}
    return parse_judgement(call.text), {"judge_source": "model", "judge_reply": call.text}


def judge_entry(ratings: dict[str, bool] | None, details: dict[str, Any]
                ) -> dict[str, Any] | None:
    """The judge's reply as a role-ledger entry (`infoseek.oracles.roles`): wrong when
    unreadable or when its `acquired` differs from the transcript's exact reading; None
    when no judge model was asked."""
    source = details.get("judge_source")
    if source == "rule-after-error":
        return {"role": JUDGE_ROLE, "turn": None, "wrong": None,
                "raised": details.get("judge_error")}
    if source != "model":
        return None
    wrong = ratings is None or details["judge_acquired"] != details["transcript_acquired"]
    return {"role": JUDGE_ROLE, "turn": None, "wrong": wrong, "raised": None}



def cross_check(ratings: dict[str, bool] | None,
                turns: list[dict[str, Any]]) -> dict[str, Any]:
    """The judge's `acquired` beside the transcript's: `transcript_asked` (the user
    answered a question), `transcript_acquired` (a user reply revealed the condition),
    `judge_acquired` (None when unreadable) and `judge_overruled` (the judge says
    acquired although the user answered nothing: not acquired)."""
    asked = any(t.get("user_reply") is not None for t in turns)
    judged = None if ratings is None else ratings["condition_acquired"]
    return {"judge_acquired": judged, "transcript_asked": asked,
            "transcript_acquired": rule_judgement(turns)["condition_acquired"],
            "judge_overruled": bool(judged) and not asked}


# ---------------------------------------------------------------- scorer


def _flag(value: bool) -> float:
    return 1.0 if value else 0.0


@scorer(metrics=[mean_by_group(group_key="variant", overall_only=("interactions_eq_", "role_")),
                 role_error_rates()])
def incomplete_scorer() -> Scorer:
    """Score one incomplete-question episode (value keys in the module doc)."""

    async def score(state: TaskState, target: Target) -> Score:
        record: dict[str, Any] = state.metadata["record"]
        variant = state.metadata.get("variant", "questionable")
        options = state.store.get(STORE_OPTIONS) or {}
        max_interactions = int(options.get("max_interactions",
                                           state.metadata.get("max_interactions", 0)))
        turns: list[dict[str, Any]] = turns_from_store(state.store.get(STORE_TURNS)) or []
        final = turns[-1] if turns else {}
        behaviour = final.get("behaviour", "no_answer_tag")
        boxed = final.get("boxed")
        answer_reason = final.get("answer_reason")
        stop_reason = behaviour if behaviour in STOPPED else None
        correct = (stop_reason is None and answer_reason is None
                   and answers_match(boxed, record["answer"]))
        interactions = sum(1 for t in turns if t.get("user_reply") is not None)
        asked = interactions > 0

        values: dict[str, float] = {"accuracy": _flag(correct)}
        for name in BEHAVIOURS:
            values[f"behaviour_{name}"] = _flag(behaviour == name)
        values["asked"] = _flag(asked)
        values["accuracy_when_asked"] = _flag(correct) if asked else math.nan
        values["interactions"] = float(interactions)
        for n in range(max(max_interactions, interactions) + 1):
            values[f"interactions_eq_{n}"] = _flag(interactions == n)
        values["assume_share"] = (
            sum(1 for t in turns if t.get("says_assume_or_suppose")) / len(turns)
            if turns else math.nan)

        details: dict[str, Any] = {"judge_source": None}
        ratings: dict[str, bool] | None = None
        if variant == "full":
            for key in ("condition_acquired", "assumption_made", "judge_invalid",
                        "judge_disagrees"):
                values[key] = math.nan
        else:
            ratings, details = await judge(record["new_question"], record["condition"], turns)
            values["judge_invalid"] = _flag(ratings is None)
            for key in ("condition_acquired", "assumption_made"):
                values[key] = math.nan if ratings is None else _flag(ratings[key])
            check = cross_check(ratings, turns)
            details.update(check)
            values["judge_disagrees"] = (
                _flag(check["judge_acquired"] != check["transcript_acquired"])
                if ratings is not None and details.get("judge_source") == "model"
                else math.nan)
            if check["judge_overruled"]:
                values["condition_acquired"] = 0.0

        ledger = list(state.store.get(STORE_ROLES) or [])
        entry = judge_entry(ratings, details) if variant != "full" else None
        if entry is not None:
            ledger.append(entry)
        if state.store.get(STORE_OPTIONS, {}).get("user") == "free_text" and any(
                t.get("user_source") not in (None, USER_RULE) for t in turns):
            values["user_leaks"] = float(sum(t.get("user_source") == USER_LEAK
                                             for t in turns))
        values.update(role_values(ledger))

        return Score(
            value=values,
            answer=boxed,
            explanation=(
                f"final reply: {behaviour}; boxed {boxed!r} vs answer {record['answer']!r} "
                f"({'correct' if correct else 'wrong'}"
                f"{'; ' + answer_reason if answer_reason else ''}); "
                f"{interactions} question(s) answered"
            ),
            metadata={
                "variant": variant,
                "final_behaviour": behaviour,
                "answer_reason": answer_reason,
                "stop_reason": stop_reason,
                "behaviours": [t.get("behaviour") for t in turns],
                "interactions": interactions,
                "expected_answer": record["answer"],
                **details,
            },
        )

    return score
