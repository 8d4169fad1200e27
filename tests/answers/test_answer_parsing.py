"""How model text becomes answers and queries (protocols §3.8, issue 8 items 1-4).

Every example string of the issue is here (numeric answers in
`tests/answers/test_number_answers.py`): echoed templates, justified yes/no answers, freely
phrased questions, the judge's and the k-prediction prompt's own templates; and property
tests that no parser raises on any text.
"""

from __future__ import annotations

import time

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from infoseek.scorers import incomplete
from infoseek.scorers.incomplete import JUDGE_PROMPT, parse_judgement
from infoseek.scorers.problem_metrics import UNSURE, parse_k_prediction, parse_variable_list
from infoseek.scorers.seek_metrics import answers_match
from infoseek.solvers.incomplete import boxes as incomplete_boxes
from infoseek.solvers.incomplete import reading as incomplete_text
from infoseek.solvers.incomplete import user as incomplete_user
from infoseek.solvers.seek.answer_parsing import (
    AnswerReading,
    read_boolean_answer,
    read_number_answer,
)
from infoseek.solvers.seek.parsing import (
    INVALID_REASONS,
    QUANTITY_REASONS,
    parse_boolean_answer,
)
from infoseek.solvers.seek.prompts import k_prediction_options
from tests.support.parsing import (
    LOGIC,
    TEMPLATE_LINE,
    logic_tool,
    logic_turn,
    math_tool,
    math_turn,
)

ALL_REASONS = set(INVALID_REASONS) | set(QUANTITY_REASONS)


# ------------------------------------------------------------- 2. yes/no answers


@pytest.mark.parametrize(
    ("line", "value"),
    [
        ("Answer: Ingrid is not courteous because she is not naive.", False),
        ("Answer: Ingrid is courteous, since rule 4.", True),
        ("Answer: No, Ingrid is not courteous.", False),
        ("Answer: Ingrid is courteous. She is kind, so rule 2 applies.", True),
    ],
)
def test_a_trailing_justification_is_allowed(line, value):
    turn = logic_turn(line)
    assert (turn.kind, turn.answer_value, turn.reason) == ("answer", value, None)


@pytest.mark.parametrize(
    "line",
    [
        TEMPLATE_LINE,
        "Answer: yes or no",
        "Answer: yes/no",
        "Answer: Ingrid is courteous or not courteous",
        "Answer: probably yes",
        "Answer: Ingrid is courteous. Ingrid is not courteous.",
        "Answer: yes and no",
        'Answer: "yes" if Ingrid is courteous, "no" if not',
    ],
)
def test_both_values_or_a_hedge_are_ambiguous(line):
    turn = logic_turn(line)
    assert (turn.kind, turn.answer_value, turn.reason) == ("invalid", None, "ambiguous")


def test_boolean_reader_results():
    assert read_boolean_answer("yes/no", entity="Ingrid", target="courteous") == AnswerReading(
        None, "ambiguous")
    assert read_boolean_answer(" ", entity="Ingrid", target="courteous").reason == "empty"
    assert parse_boolean_answer(TEMPLATE_LINE.removeprefix("Answer: "), entity="Ingrid",
                                target="courteous") is None
    assert read_boolean_answer("Ingrid is kind", entity="Ingrid",
                               target="courteous").reason == "malformed"


def test_the_echoed_logic_template_is_never_credited_by_default():
    for turn in (logic_turn(TEMPLATE_LINE),
                 logic_tool([("answer", {"value": TEMPLATE_LINE.removeprefix("Answer: ")})])):
        assert turn.kind == "invalid" and turn.answer_value is None


def test_an_empty_forced_tool_answer_is_empty():
    assert logic_tool([("answer", {"value": ""})]).reason == "empty"
    assert logic_tool([("answer", {"value": "   "})]).reason == "empty"
    assert math_tool([("answer", {"value": ""})]).reason == "empty"


# ------------------------------------------------------------------ templates

QUESTION_TEMPLATE = "Question: Is Ingrid <attribute>?"


@pytest.mark.parametrize(
    "reply",
    [
        QUESTION_TEMPLATE,
        "Let me ask.\n**Question:**   is ingrid <attribute>?",
        "question: is INGRID <attribute>?",
        TEMPLATE_LINE,
    ],
)
def test_a_copied_template_line_makes_the_turn_invalid(reply):
    turn = logic_turn(reply, templates=[QUESTION_TEMPLATE, TEMPLATE_LINE])
    assert (turn.kind, turn.reason, turn.queries) == ("invalid", "template", ())


def test_template_lines_only_block_copies():
    turn = logic_turn("Question: Is Ingrid naive?", templates=[QUESTION_TEMPLATE])
    assert turn.asked_variables == ("naive",)
    assert logic_turn(QUESTION_TEMPLATE).queries[0].reason == "unknown"  # no templates given


def test_a_tool_answer_copying_a_template_is_invalid():
    templates = ("Answer: <number>",)
    assert math_tool([("answer", {"value": "<number>"})], templates=templates).reason == "template"
    assert math_tool([("answer", {"value": "42"})], templates=templates).answer_value == 42


# ------------------------------------------------------------------ 3. questions


@pytest.mark.parametrize(
    ("line", "variable", "reason"),
    [
        ("Question: Is Ingrid a naive person?", "naive", None),
        ("1) Question: Is Ingrid naive?", "naive", None),
        ("1. Question: Is Ingrid naive?", "naive", None),
        ("Question: Would you tell me whether Ingrid is naive?", "naive", None),
        ("Question: Is Ingrid unkind?", "unkind", None),  # not "kind"
        ("Question: Is Ingrid kind?", "kind", None),
        ("Question: Is Ingrid blue eyed?", "blue_eyed", None),
        ("Question: Does Ingrid have blue_eyed?", "blue_eyed", None),
        ("Question: Is Ingrid a courteous person?", "courteous", "target"),
        ("Question: Is Ingrid hurt at all?", "hurt", "observed"),
        ("Question: Is Ingrid a vain person?", "vain", "forbidden"),
        ("Question: Is Ingrid naive or kind?", None, "malformed"),
        ("Question: Is Ingrid a clever person?", None, "unknown"),
        ("Question: Is Ingrid?", None, "malformed"),
        ("Question:", None, "malformed"),
    ],
)
def test_a_question_naming_one_attribute_asks_for_it(line, variable, reason):
    [query] = logic_turn(line).queries
    assert (query.variable, query.reason, query.valid) == (variable, reason, reason is None)


def test_the_entity_name_is_not_an_attribute():
    [query] = logic_turn("Question: Is Kind Kate naive?", entity="Kind Kate").queries
    assert (query.variable, query.valid) == ("naive", True)


def test_repeated_applies_to_the_resolved_name():
    [query] = logic_turn("Question: Is Ingrid a naive person?", asked=["naive"]).queries
    assert query.reason == "repeated"


@pytest.mark.parametrize(
    ("line", "variable", "reason"),
    [
        ("Question: Could you tell me the price of a book?", "B", None),
        ("Question: How many books there are, please?", "book_count", None),
        ("Question: What is the number of apples (AI)?", "AI", None),
        ("Question: What is the price of the pens?", "P", "not_leaf"),
        ("Question: What is the total cost, please?", "T", "target"),
        ("Question: What are B and F?", None, "malformed"),
        ("Question: What is the weather?", None, "unknown"),
    ],
)
def test_quantity_questions_by_name_or_description(line, variable, reason):
    [query] = math_turn(line).queries
    assert (query.variable, query.reason, query.valid) == (variable, reason, reason is None)


def test_tool_questions_use_the_same_rule():
    [query] = logic_tool([("ask", {"variable": "Is Ingrid a naive person?"})]).queries
    assert (query.variable, query.valid) == ("naive", True)


# ------------------------------------------------- 4. judge and k-prediction templates


@pytest.mark.parametrize(
    "reply",
    [
        "acquired: yes or no / assumed: yes or no",
        "acquired: yes or no\nassumed: yes or no",
        JUDGE_PROMPT,
        "acquired: yes/no\nassumed: no",
        "acquired: yes\nassumed: no\nacquired: no",
        "acquired: yes, no doubt\nassumed: no",  # strict: the value ends the line
    ],
)
def test_a_judge_rating_holding_both_values_is_unreadable(reply):
    assert parse_judgement(reply) is None


def test_a_plain_judge_reply_still_reads():
    assert parse_judgement("Acquired: yes.\nassumed: no") == {
        "condition_acquired": True, "assumption_made": False}


@pytest.mark.parametrize(
    "reply",
    [
        k_prediction_options(),
        k_prediction_options(6),
        "Let me think about it.\n\n" + k_prediction_options() + "\n",
        "Answer: not ambiguous\nAnswer: <the number of quantities, like 2>\n"
        "Answer: ambiguous but not sure how many",
        "Answer: not ambiguous / 1 / 2 / 3 / 4 / ambiguous but not sure how many",
        "Answer: not ambiguous Answer: 1 Answer: ambiguous but not sure how many",
        "Answer: 2\nAnswer: 3",
        "Answer: 2 or 3",
        pytest.param("Answer: " + "9" * 5000, id="Answer: 5000 nines"),
    ],
)
def test_an_echoed_option_list_is_not_a_k_prediction(reply):
    assert parse_k_prediction(reply) is None


@pytest.mark.parametrize(
    ("reply", "expected"),
    [
        ("The options are\n" + k_prediction_options() + "\n\nI pick two.\nAnswer: 2", 2),
        ("Answer: 2 (rules 1 and 3 need it)", 2),
        ("Answer: 2\nAnswer: 2", 2),
        ("Answer: ambiguous but not sure how many", UNSURE),
    ],
)
def test_k_prediction_still_reads_one_final_value(reply, expected):
    assert parse_k_prediction(reply) == expected


@pytest.mark.parametrize(
    ("answer", "target", "expected"),
    [
        pytest.param(10**400, 42, False, id="int-of-401-digits"),
        ("4" * 400, 42, False),
        (42, "9" * 5000, False),
        ("9" * 5000, 42.0, False),
        (10**30 + 1, 10**30, True),  # relative tolerance
        pytest.param(10**400 + 1, 10**400, True, id="401-digits-close"),  # no overflow
        (1e-10, 0, True),  # absolute tolerance
        (42, 43, False),
        ("85/2", 42.5, True),
        (0.1, "1/10", True),
        (float("inf"), 42, False),
        (float("nan"), float("nan"), False),
        (42, "abc", False),
        (True, "true", True),
    ],
)
def test_seek_answers_match_exactly_and_never_overflows(answer, target, expected):
    assert answers_match(answer, target) is expected


# ------------------------------------------------------------ never raises, fast

HOSTILE = [
    "9" * 5000,
    "\ud800",
    "Answer: \ud800 is \udfff",
    "Question: \x00 kind \x00",
    "[" * 10000 + "]" * 10000,
    "(" * 5000,
    "{" * 5000,
    "\\boxed{" * 5000,
    "<question>" + " " * 100000 + "x",
    "1e" + "9" * 5000,
    "1/" + "0" * 5000,
    "Answer: " + "9" * 5000 + "/" + "9" * 5000,
    "acquired: " + "yes or " * 2000,
]

_TEXT = st.one_of(
    st.text(max_size=300),
    st.sampled_from(HOSTILE),
    st.lists(st.sampled_from(["Answer:", "Question:", "1e5", "−", "/", "=", "or", "yes",
                              "no", "naive", "Ingrid", "42", "10^3", "(", ")", "\n", " ",
                              "acquired:", "assumed:", "\\boxed{", "}", "<question>"]),
             max_size=30).map(" ".join),
)


def _check_turn(turn):
    assert turn.kind in ("ask", "answer", "invalid")
    assert turn.reason is None or turn.reason in ALL_REASONS
    for query in turn.queries:
        assert query.reason is None or query.reason in ALL_REASONS


@settings(max_examples=200, deadline=None)
@given(_TEXT)
def test_no_parser_raises_on_any_text(text):
    assert isinstance(read_number_answer(text), AnswerReading)
    assert isinstance(read_boolean_answer(text, entity="Ingrid", target="courteous"),
                      AnswerReading)
    _check_turn(logic_turn(text, templates=[QUESTION_TEMPLATE]))
    _check_turn(math_turn(text, templates=["Answer: <number>"]))
    assert parse_k_prediction(text) is None or isinstance(parse_k_prediction(text), int | str)
    parse_variable_list(text, LOGIC["variables"])
    parse_judgement(text)
    incomplete_text.parse_reply(text, [text])
    incomplete_user.content_words(text)
    incomplete_user.condition_revealed(text, "There are 12 hens.")
    incomplete_user.leaks_number(text, 42, "There are 12 hens.")
    incomplete.to_number(text)
    assert isinstance(incomplete.answers_match(text, "42"), bool)
    assert isinstance(answers_match(text, 42), bool)


_JSON_LIKE = st.recursive(
    st.one_of(st.none(), st.booleans(), st.integers(), st.floats(), _TEXT,
              st.sampled_from([10**4000, -(10**400)])),
    lambda children: st.lists(children, max_size=3) | st.dictionaries(
        st.sampled_from(["variable", "value", "x"]) | st.text(max_size=5), children,
        max_size=3),
    max_leaves=10,
)


@settings(max_examples=200, deadline=None)
@given(st.lists(st.tuples(st.one_of(st.sampled_from(["ask", "answer"]), _TEXT, st.integers()),
                          _JSON_LIKE), max_size=4))
def test_parse_tool_calls_never_raises_on_any_arguments(calls):
    _check_turn(logic_tool(calls, queries_per_turn=2))
    _check_turn(math_tool(calls, templates=["Answer: <number>"]))


@settings(max_examples=100, deadline=None)
@given(st.one_of(st.integers(), st.floats(), _TEXT, st.sampled_from([10**4000, -(10**400)])),
       st.one_of(st.integers(), st.floats(), _TEXT, st.sampled_from([10**4000, "85/2"])))
def test_answers_match_never_raises(answer, target):
    # (hypothesis cannot print ints over 4,300 digits; 10**5000 is tested on its own)
    assert isinstance(answers_match(answer, target), bool)
    boxed = answer if isinstance(answer, str) else None
    assert isinstance(incomplete.answers_match(boxed, target), bool)


def test_answers_match_on_ints_past_the_printing_limit():
    assert answers_match(10**5000, 42) is False
    assert answers_match(10**5000, 10**5000 + 1) is True
    assert incomplete.answers_match("1" * 5000, 10**5000) is False


def test_deep_tool_arguments_and_huge_ints_do_not_raise():
    nested: list = []
    for _ in range(5000):
        nested = [nested]
    for arguments in ({"value": nested}, {"variable": nested}, {"value": 10**5000},
                      '{"value": ' + "9" * 5000 + "}", "[" * 100000):
        for name in ("ask", "answer"):
            _check_turn(logic_tool([(name, arguments)]))
            _check_turn(math_tool([(name, arguments)]))


def test_one_megabyte_texts_are_read_quickly():
    started = time.monotonic()
    megabyte = ("Answer: 42 or " * 80000)[:1_000_000]
    assert read_number_answer(megabyte).reason == "ambiguous"
    assert read_boolean_answer(megabyte, entity="Ingrid", target="courteous").reason
    assert parse_k_prediction(megabyte) is None
    parse_variable_list(megabyte, LOGIC["variables"])
    parse_judgement("acquired: " + "x" * 1_000_000)
    assert incomplete_boxes.extract_boxed("\\boxed{" * 150_000) is None
    assert incomplete_text.question_tags(
        "<question>a" + " " * 1_000_000 + "b</question>") == ["a" + " " * 1_000_000 + "b"]
    assert incomplete_text.question_tags("<question>a" + " " * 1_000_000 + "b") == []
    assert logic_turn("Question: " + "naive " * 150_000, max_chars=2_000_000).queries
    assert time.monotonic() - started < 30
