"""How incomplete_questions reads replies, judge ratings and user replies (issue 18,
classes 3, 4, 5, 16, 17): one value per box, strict judge ratings, the answer in any
numeric spelling, echoed and unclosed tags, the judge against the transcript."""

from __future__ import annotations

import math
import time
from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from inspect_ai import eval
from inspect_ai.model import ChatMessageTool, get_model

from infoseek.contract import STORE_TURNS
from infoseek.inspect_tasks.incomplete_questions import incomplete_questions
from infoseek.scorers.incomplete import cross_check, parse_judgement
from infoseek.solvers.incomplete.arithmetic import MAX_RUN_TOKENS
from infoseek.solvers.incomplete.boxes import box_reason
from infoseek.solvers.incomplete.numbers import stated_values
from infoseek.solvers.incomplete.prompts import PROMPT_ECHOES, system_prompt
from infoseek.solvers.incomplete.reading import (
    SET_ASIDE_REASONS,
    answer_kind_of,
    parse_reply,
    question_tags,
)
from infoseek.solvers.incomplete.user import answer_value, condition_revealed, leaks_number
from infoseek.stored_forms import turns_from_store
from tests.support import FIXTURES
from tests.support.common import assert_eval_success, text_output, tool_output

pytestmark = pytest.mark.usefixtures("no_tokenizer")


def read(text: str, kind: str = "number", tools: list[str] | None = None):
    return parse_reply(text, tools, answer_kind=kind, echoes=PROMPT_ECHOES)


# ------------------------------------------------------------------ 3. boxed answers


@pytest.mark.parametrize(
    ("text", "kind"),
    [
        ("\\boxed{18} or maybe \\boxed{19}", "number"),
        ("<answer>\\boxed{20}</answer><answer>\\boxed{19}</answer>", "number"),
        ("\\boxed{19 or more}", "number"),
        ("\\boxed{19 approximately}", "number"),
        ("\\boxed{about 19}", "number"),
        ("\\boxed{\\approx 19}", "number"),
        ("\\boxed{~19}", "number"),
        ("\\boxed{19ish}", "number"),
        ("\\boxed{19-ish hens}", "number"),
        ("\\boxed{19?}", "number"),
        ("\\boxed{19 \\pm 1}", "number"),
        ("\\boxed{at least 19}", "number"),
        ("\\boxed{fewer than 20}", "number"),
        ("\\boxed{18-19}", "number"),
        ("\\boxed{18 to 19}", "number"),
        ("\\boxed{18, 19}", "number"),
        ("\\boxed{x = 18 or x = 19}", "number"),
        ("\\boxed{x = 18, x = 19}", "number"),
        ("\\boxed{12 + 7}", "number"),
        ("\\boxed{not 19}", "number"),
        ("\\boxed{19}, or possibly 20", "number"),
        ("<answer>\\boxed{19}. Actually, 20.</answer>", "number"),
        ("\\boxed{19} (or 20)", "number"),
        ("\\boxed{19}, or, if you count the rooster, 20.", "number"),
        ("\\boxed{19}, or maybe twenty", "number"),
        ("\\boxed{19} or so", "number"),
        ("\\boxed{19}?", "number"),
        ("\\boxed{C}, or maybe D", "choice"),
        ("\\boxed{C or D}", "choice"),
        ("\\boxed{C, D}", "choice"),
        ("\\boxed{C/D}", "choice"),
        ("\\boxed{(C) (D)}", "choice"),
        ("\\boxed{D} then \\boxed{C}", "choice"),
        # the answer's text runs past its closing tag
        ("<answer>\\boxed{19}</answer> Or 20", "number"),
        ("<answer>\\boxed{19}</answer>\nActually, 20.", "number"),
        ("<answer>\\boxed{C}</answer>, or maybe D", "choice"),
    ],
)
def test_a_box_holding_no_single_value_is_ambiguous(text, kind) -> None:
    parsed = read(text, kind)
    assert parsed.behaviour == "boxed_answer"
    assert parsed.answer_reason == "ambiguous", parsed


@pytest.mark.parametrize(
    ("text", "kind", "boxed"),
    [
        ("\\boxed{19}", "number", "19"),
        ("\\boxed{x = 19}", "number", "x = 19"),
        ("\\boxed{19 hens}", "number", "19 hens"),
        ("\\boxed{19 fish}", "number", "19 fish"),
        ("\\boxed{19 free-range hens}", "number", "19 free-range hens"),
        ("\\boxed{19 \\text{ hens}}", "number", "19 \\text{ hens}"),
        ("\\boxed{\\$1,500}", "number", "\\$1,500"),
        ("\\boxed{-19}", "number", "-19"),
        ("\\boxed{\\frac{5}{8}}", "number", "\\frac{5}{8}"),
        ("\\boxed{0.625 \\text{ litres}}", "number", "0.625 \\text{ litres}"),
        ("\\boxed{21 \\text{ cm}^2}", "number", "21 \\text{ cm}^2"),
        ("\\boxed{x_1 = 19}", "number", "x_1 = 19"),
        ("\\boxed{12 + 7 = 19}", "number", "12 + 7 = 19"),
        ("\\boxed{19}, since 12 + 7 = 19.", "number", "19"),
        ("\\boxed{19} (because he bought 7)", "number", "19"),
        ("\\boxed{19}. Actually, let me check: 12 + 7 = 19. Yes.", "number", "19"),
        ("\\boxed{19}. Actually, it is 19 (12 + 7).", "number", "19"),
        ("<answer>\\boxed{19}</answer> since 12 + 7 = 19.", "number", "19"),
        ("\\boxed{C}. Actually, I am sure.", "choice", "C"),
        ("\\boxed{19} then again \\boxed{19.0}", "number", "19.0"),
        ("\\boxed{\\boxed{19}}", "number", "19"),
        ("\\boxed{C}", "choice", "C"),
        ("\\boxed{(C)}", "choice", "(C)"),
        ("\\boxed{\\text{C}}", "choice", "\\text{C}"),
        ("\\boxed{C: 21 square cm}", "choice", "C: 21 square cm"),
        ("\\boxed{C: a square of 21 cm}", "choice", "C: a square of 21 cm"),
        ("\\boxed{C} and \\boxed{c}", "choice", "c"),
    ],
)
def test_a_single_value_in_a_box_stays_one(text, kind, boxed) -> None:
    parsed = read(text, kind)
    assert (parsed.behaviour, parsed.boxed, parsed.answer_reason) == (
        "boxed_answer", boxed, None)


def test_a_box_inside_a_question_is_no_answer() -> None:
    parsed = read("<question>Is it \\boxed{19}?</question>")
    assert parsed.behaviour == "asked_question" and parsed.boxed is None
    assert parsed.question == "Is it \\boxed{19}?" and parsed.set_aside == ("box_in_question",)
    unclosed = read("<question>Could the answer be \\boxed{19}")
    assert unclosed.behaviour == "no_answer_tag"
    assert unclosed.set_aside == ("unclosed_tag", "box_in_question")
    # a box outside the question, or after an unclosed question's next tag, is an answer
    both = read("<question>Is it \\boxed{20}?</question><answer>\\boxed{19}</answer>")
    assert (both.behaviour, both.boxed, both.answer_reason) == ("boxed_answer", "19", None)
    after = read("inside <question>...</question. <answer>\\boxed{19}</answer>")
    assert (after.behaviour, after.boxed) == ("boxed_answer", "19")


def test_box_reason_by_kind() -> None:
    assert box_reason("x = 19 m") is None  # a unit letter is no second letter
    assert box_reason("x = 19 m", "choice") == "ambiguous"
    assert answer_kind_of("C") == "choice" and answer_kind_of(" c ") == "choice"
    assert answer_kind_of(19) == answer_kind_of("0.625") == answer_kind_of("CD") == "number"


# ------------------------------------------------------------------ 4. judge ratings


@pytest.mark.parametrize(
    "reply",
    [
        "acquired: yes, no\nassumed: no",
        "acquired: yes but no\nassumed: no",
        "has not acquired: yes\nassumed: no",
        "acquired: yes; no\nassumed: no",
        "acquired: yes, or rather no\nassumed: no",
        "never acquired: yes\nassumed: no",
        "acquired: yes\nassumed: no (maybe yes)",
        "acquired: yes\nassumed: no\nacquired: yes",
        "acquired: yes, assumed: no",
        "acquired: yes (the user told it)\nassumed: no",
        "assumed: no\nThe assistant acquired it.",
        "acquired: probably\nassumed: no",
        "",
    ],
)
def test_a_judge_reply_not_in_the_allowed_form_is_unreadable(reply) -> None:
    assert parse_judgement(reply) is None


@pytest.mark.parametrize(
    ("reply", "acquired", "assumed"),
    [
        ("acquired: yes\nassumed: no", True, False),
        ("**Acquired:** Yes\n**Assumed:** No", True, False),
        ("1) acquired = yes\n2) assumed = no\nThe assistant asked how many.", True, False),
        ("- Acquired - NO.\n- Assumed - YES.", False, True),
        ("acquired: false\nassumed: true", False, True),
        ("Here is my review.\n\nacquired: no\nassumed: no\n\nIt never asked.", False, False),
    ],
)
def test_one_rating_line_each_reads(reply, acquired, assumed) -> None:
    assert parse_judgement(reply) == {"condition_acquired": acquired,
                                      "assumption_made": assumed}


# ------------------------------------------------------------------ 5. leaks

CONDITION = "He buys 7 more hens at the market."


@pytest.mark.parametrize(
    "reply",
    [
        "nineteen hens", "Nineteen.", "NINETEEN", "1.9e1 hens", "1.90E+01", "The 19th hen",
        "his nineteenth hen", "19hens", "a 19-strong flock", "12+7", "12 + 7", "(30 - 11)",
        "twelve plus seven", "twenty minus one", "a dozen plus seven", "38/2 hens",
        "\\frac{38}{2}", "38 divided by 2", "2 times 9.5", "1.9 x 10^1", "1.9 × 10¹",
        "19.0 hens", "190e-1", "nineteen-year-old", "١٩ hens", "−(−19)",
    ],
)
def test_the_answer_in_any_spelling_leaks(reply) -> None:
    assert leaks_number(reply, 19, CONDITION), reply


@pytest.mark.parametrize(
    ("reply", "answer", "condition"),
    [
        ("five eighths of a litre", 0.625, "The jug holds 2.5 litres."),
        ("five-eighths", "0.625", "The jug holds 2.5 litres."),
        ("62.5% of a litre", 0.625, "The jug holds 2.5 litres."),
        ("2.5 / 4 litres", 0.625, "The jug holds 2.5 litres."),
        ("one hundred and twenty-three", 123, "He has 3 more."),
        ("a hundred and twenty three", 123, "He has 3 more."),
        ("two thousand five hundred", 2500, "It costs 5 dollars."),
        ("1,500 dollars", "1,500", "It costs 5 dollars."),
        ("the twenty-first day", 21, "It lasts 3 weeks."),
        ("half a dozen", 6, "Each box holds 3."),
        ("two and a half", 2.5, "Each box holds 3."),
        ("minus five degrees", -5, "It drops by 7 degrees."),
    ],
)
def test_other_answers_leak_in_other_spellings(reply, answer, condition) -> None:
    assert leaks_number(reply, answer, condition)


@pytest.mark.parametrize(
    ("reply", "answer", "condition"),
    [
        ("He bought seven more hens.", 19, CONDITION),
        ("Seven, at the market.", 7, CONDITION),  # the condition's own value, in words
        ("He buys 7 more.", 7, CONDITION),
        ("The jug holds two and a half litres.", 0.625, "The jug holds 2.5 litres."),
        ("First, he went to the market; a second trip was not needed.", 2, CONDITION),
        ("I don't know, sorry.", 19, CONDITION),
        ("Route A19 and version 1.19.", 19, CONDITION),
        ("twelve seven", 19, CONDITION),  # two numbers, no arithmetic between them
        ("Option C.", "C", CONDITION),
        ("It was 12 + 7 = 19.", True, CONDITION),
    ],
)
def test_what_is_no_leak(reply, answer, condition) -> None:
    assert not leaks_number(reply, answer, condition)


def test_numbers_in_words_reveal_the_condition() -> None:
    assert condition_revealed("He bought seven more.", CONDITION)
    assert condition_revealed("Two and a half litres.", "The jug holds 2.5 litres.")
    assert not condition_revealed("He bought a few more.", CONDITION)


def test_number_reading_is_exact_and_bounded() -> None:
    assert stated_values("0.1 + 0.2") == [Fraction(1, 10), Fraction(2, 10), Fraction(3, 10)]
    assert stated_values("2^1000") == [2, 1000]  # a power over 60 is not evaluated
    assert stated_values("1/0") == [1, 0]
    assert stated_values("1e99999") == []
    assert stated_values("((((1") == [1]
    long_sum = "+".join(["1"] * MAX_RUN_TOKENS)  # a run too long to be simple
    assert Fraction(MAX_RUN_TOKENS // 2 + 1) not in stated_values(long_sum)
    assert answer_value(True) is None and answer_value(math.inf) is None
    assert answer_value("C") is None and answer_value("1,900") == 1900
    started = time.monotonic()
    for text in ("1+" * 200_000, "(" * 500_000, "one hundred and " * 30_000,
                 "12 + 7 nineteen hens " * 20_000):
        leaks_number(text, 19, CONDITION)
        condition_revealed(text, CONDITION)
    assert time.monotonic() - started < 60  # linear; generous for a loaded machine


# ------------------------------------------------------------------ 16. echoes


@pytest.mark.parametrize(
    ("text", "reason"),
    [
        ("...inside <question>...</question. The answer is 732...", "unclosed_tag"),
        ("<question>How many hens did he buy?", "unclosed_tag"),
        ("<answer>It is 19", "unclosed_tag"),
        ("I will answer inside <answer>...</answer> later.", "echoed_tag"),
        ("<question>…</question>", "echoed_tag"),
        ("<question>How many books does one row hold?</question>", "echoed_tag"),
        ("<answer>Ben has \\boxed{7} apples.</answer>", "echoed_tag"),
        ("Then \\boxed{...}.", "echoed_tag"),
        ("<question></question>", "empty_tag"),
        ("<answer> </answer>", "empty_tag"),
    ],
)
def test_an_unclosed_or_echoed_tag_is_no_action(text, reason) -> None:
    parsed = read(text)
    assert parsed.behaviour == "no_answer_tag", parsed
    assert parsed.question is None and parsed.boxed is None
    assert reason in parsed.set_aside and set(parsed.set_aside) <= set(SET_ASIDE_REASONS)


def test_every_tag_of_our_prompts_and_corrections_is_an_echo() -> None:
    from infoseek.solvers.incomplete import game, prompts

    texts = [system_prompt(v, f, 5) for v in game.VARIANTS for f in game.FORMATS]
    texts += [prompts.NO_QUESTIONS_LEFT, prompts.NO_TAG_REMINDER_TEXT,
              prompts.NO_TAG_REMINDER_TOOL, prompts.NO_TAG_REMINDER_FINAL,
              prompts.ONE_QUESTION_ONLY]
    for text in texts:
        assert read(text).behaviour == "no_answer_tag", text
        assert read(text, "choice").behaviour == "no_answer_tag", text


def test_a_real_action_beside_an_echo_still_counts() -> None:
    parsed = read("My reply goes in <answer>...</answer>. <question>How many hens?</question>")
    assert (parsed.behaviour, parsed.question, parsed.set_aside) == (
        "asked_question", "How many hens?", ("echoed_tag",))
    tool = read("Then <answer>...</answer>.", tools=["How many hens?"])
    assert (tool.behaviour, tool.question_via) == ("asked_question", "tool")
    for question, reason in (("", "empty_tag"), ("...", "echoed_tag"),
                             ("How many books does one row hold?", "echoed_tag")):
        echoed = read("", tools=[question])
        assert (echoed.behaviour, echoed.set_aside) == ("no_answer_tag", (reason,))
    second = read("", tools=["...", "How many hens?"])
    assert (second.question, second.extra_questions) == ("How many hens?", 0)
    assert question_tags("<question>a</question><question>b") == ["a"]
    assert question_tags("<question>x <question>y</question>") == ["y"]


# ------------------------------------------------------------------ 17. cross-check


def test_the_judge_is_cross_checked_against_the_transcript() -> None:
    silent = [{"behaviour": "boxed_answer", "user_reply": None, "revealed": None}]
    asked = [{"behaviour": "asked_question", "user_reply": "Here...", "revealed": True},
             {"behaviour": "boxed_answer", "user_reply": None, "revealed": None}]
    yes = {"condition_acquired": True, "assumption_made": False}
    no = {"condition_acquired": False, "assumption_made": False}
    assert cross_check(yes, silent) == {"judge_acquired": True, "transcript_asked": False,
                                        "transcript_acquired": False, "judge_overruled": True}
    assert cross_check(no, silent)["judge_overruled"] is False
    assert cross_check(yes, asked)["judge_overruled"] is False
    assert cross_check(no, asked)["transcript_acquired"] is True
    assert cross_check(None, asked)["judge_acquired"] is None


def test_the_reply_goes_to_the_tool_call_that_asked(tmp_path) -> None:
    fixture = FIXTURES / "incomplete_questions.json"
    outputs = [tool_output(("ask_user", {"question": "..."}),
                           ("ask_user", {"question": "How many hens did he buy?"})),
               text_output("<answer>\\boxed{19}</answer>")]
    [log] = eval(incomplete_questions(source=str(fixture), format="tool"),
                 model=get_model("mockllm/model", custom_outputs=outputs), sample_id="hens",
                 log_dir=str(tmp_path), display="none", ctl_server=False)
    assert_eval_success(log)
    [sample] = log.samples
    first = turns_from_store(sample.store[STORE_TURNS])[0]
    assert first["question"] == "How many hens did he buy?"
    assert first["set_aside"] == ["echoed_tag"]
    tool_messages = [m.text for m in sample.messages if isinstance(m, ChatMessageTool)]
    assert tool_messages[0].startswith("Only one question")
    assert tool_messages[1] == first["user_reply"]


_ARITHMETIC_TEXT = st.text(alphabet="0123456789+-*/^().,eE x×÷%=<> \\{}boxedfrac"
                           "onetwlvhudrsa-", max_size=80)


@settings(max_examples=300, deadline=None)
@given(_ARITHMETIC_TEXT)
def test_number_and_box_readers_never_raise(text) -> None:
    values = stated_values(text)
    assert all(isinstance(v, Fraction) and abs(v) <= Fraction(10) ** 120 for v in values)
    parsed = read(text)
    assert parsed.answer_reason in (None, "ambiguous")
    assert set(parsed.set_aside) <= set(SET_ASIDE_REASONS)
    assert isinstance(leaks_number(text, 19, text[::-1]), bool)
    assert parse_judgement(text) is None or len(parse_judgement(text)) == 2
