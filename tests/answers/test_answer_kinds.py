"""The answer-kind registry (`infoseek.answers`): every kind's text and tool reading,
its written form (`label`) read back, its comparison (partial credit for sequences),
the registry's errors, and a plug-in kind used by both parsers."""

from __future__ import annotations

import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from infoseek import contract
from infoseek.answers import (
    AnswerKind,
    AnswerReading,
    AnswerSpec,
    UnknownAnswerKind,
    answer_kind,
    answer_kind_names,
    answer_spec,
    doubts,
    register_answer_kind,
    unregister_answer_kind,
)
from infoseek.answers import sequence as sequence_module
from infoseek.scorers.answer_match import answer_score, answers_match
from tests.support.parsing import LOGIC, parse_text, parse_tools

OPTIONS = ["Refer to cardiology", "Pain clinic", "Watch and wait", "3"]
CHOICE = answer_spec("choice", values=OPTIONS)
VECTOR = answer_spec("vector", values=[{"TGFB": 1, "SMAD": 0}, {"TGFB": 0, "SMAD": 1}])
PLAN = ["pick up A", "stack A on B", "unstack A from B", "put down A"]
SEQUENCE = answer_spec("sequence", values=[PLAN[:2], PLAN[2:]])
HUGE = "stack A on B; " * 5000


def text(spec: AnswerSpec, body: object) -> AnswerReading:
    return answer_kind(spec.kind).read_text(body, spec)


def tool(spec: AnswerSpec, argument: object) -> AnswerReading:
    return answer_kind(spec.kind).read_tool(argument, spec)


# ------------------------------------------------------------------------ registry


def test_every_contract_kind_is_registered_under_its_own_name():
    assert set(contract.ANSWER_KINDS) <= set(answer_kind_names())
    for name in contract.ANSWER_KINDS:
        assert answer_kind(name).name == name
        assert answer_kind(name).malformed.endswith(".")


def test_an_unknown_kind_names_the_registered_ones():
    with pytest.raises(UnknownAnswerKind, match="registered: boolean, number, choice"):
        answer_kind("colour")
    with pytest.raises(ValueError, match="colour"):
        parse_text("Answer: red", **{**LOGIC, "answer_kind": "colour"})


def test_a_second_kind_of_the_same_name_needs_replace():
    class Other(AnswerKind):
        name = "number"

    with pytest.raises(ValueError, match="already registered"):
        register_answer_kind(Other())
    with pytest.raises(ValueError, match="non-empty name"):
        register_answer_kind(AnswerKind())


class Colour(AnswerKind):
    """A plug-in kind: one of red / green / blue, or a JSON list of one of them."""

    name = "colour"
    malformed = "Your answer could not be read as a colour."

    def read_text(self, body, spec):
        word = body.strip().lower() if isinstance(body, str) else ""
        if not word:
            return AnswerReading(None, "empty")
        return AnswerReading(word) if word in ("red", "green", "blue") else AnswerReading(
            None, "malformed")


@pytest.fixture
def colour_kind():
    register_answer_kind(Colour())
    yield
    unregister_answer_kind("colour")


def test_a_plug_in_kind_is_read_by_both_parsers(colour_kind):
    turn = parse_text("I think so.\nAnswer: Green", **{**LOGIC, "answer_kind": "colour"})
    assert (turn.kind, turn.answer_value) == ("answer", "green")
    turn = parse_text("Answer: purple", **LOGIC, answer=AnswerSpec("colour"))
    assert (turn.kind, turn.reason) == ("invalid", "malformed")
    turn = parse_tools([("answer", {"value": "blue"})], **LOGIC,
                            answer=AnswerSpec("colour"))
    assert turn.answer_value == "blue"
    turn = parse_tools([("answer", {"value": 7})], **LOGIC, answer=AnswerSpec("colour"))
    assert turn.reason == "bad_arguments"
    assert answers_match("green", "Green ", kind="colour")


def test_the_spec_takes_what_each_kind_needs_from_the_possible_values():
    assert CHOICE.options == tuple(OPTIONS)
    assert (VECTOR.names, VECTOR.allowed) == (("TGFB", "SMAD"), (1, 0))
    assert SEQUENCE.items == tuple(PLAN)
    assert answer_spec("number", target="T", values=contract.UNBOUNDED) == AnswerSpec(
        "number", target="T")
    # a set of values gives the same options whatever its iteration order
    assert answer_spec("choice", values=frozenset({"b", "a"})).options == ("a", "b")


# ---------------------------------------------------------------- boolean and number


@pytest.mark.parametrize(("body", "expected"), [
    ("yes", AnswerReading(True)),
    ("Ingrid is not courteous, because she is vain.", AnswerReading(False)),
    ("yes or no", AnswerReading(None, "ambiguous")),
    ("", AnswerReading(None, "empty")),
    ("purple", AnswerReading(None, "malformed")),
])
def test_the_boolean_kind_reads_as_before(body, expected):
    spec = answer_spec("boolean", entity="Ingrid", target="courteous")
    assert text(spec, body) == expected
    assert tool(spec, True) == AnswerReading(True)
    assert tool(spec, 1).reason == "bad_arguments"


@pytest.mark.parametrize(("body", "expected"), [
    ("42", 42), ("85/2", "85/2"), ("-3", -3), ("1,200 dollars", 1200),
])
def test_the_number_kind_reads_as_before(body, expected):
    spec = answer_spec("number", values=contract.UNBOUNDED)
    assert text(spec, body) == AnswerReading(expected)
    assert tool(spec, 42) == AnswerReading(42)
    assert tool(spec, True).reason == "bad_arguments"
    assert text(spec, "5 or 6").reason == "ambiguous"
    assert text(spec, "9" * 100).reason == "out_of_range"


# ----------------------------------------------------------------------- choice


@pytest.mark.parametrize(("body", "expected"), [
    ("Refer to cardiology", AnswerReading("Refer to cardiology")),
    ("**refer to CARDIOLOGY.**", AnswerReading("Refer to cardiology")),
    ('"The pain clinic"', AnswerReading("Pain clinic")),
    ("the answer is: watch and wait", AnswerReading("Watch and wait")),
    ("Pain clinic, because the pain lasted more than 6 months",
     AnswerReading("Pain clinic")),
    ("3", AnswerReading("3")),
    ("Pain clinic or refer to cardiology", AnswerReading(None, "ambiguous")),
    ("Pain clinic, refer to cardiology", AnswerReading(None, "ambiguous")),
    ("Pain clinic; refer to cardiology", AnswerReading(None, "ambiguous")),
    ("Pain clinic (or watch and wait)", AnswerReading(None, "ambiguous")),
    ("maybe pain clinic", AnswerReading(None, "ambiguous")),
    ("go to the pain clinic tomorrow", AnswerReading(None, "malformed")),
    ("surgery", AnswerReading(None, "malformed")),
    ("   ", AnswerReading(None, "empty")),
    (HUGE, AnswerReading(None, "malformed")),
])
def test_a_choice_is_exactly_one_listed_option(body, expected):
    assert text(CHOICE, body) == expected


def test_a_choice_tool_argument_is_text_or_a_number():
    assert tool(CHOICE, "pain clinic") == AnswerReading("Pain clinic")
    assert tool(CHOICE, 3) == AnswerReading("3")
    assert tool(CHOICE, True).reason == "bad_arguments"
    assert tool(CHOICE, ["Pain clinic"]).reason == "bad_arguments"


def test_a_choice_without_listed_options_keeps_its_text():
    assert text(AnswerSpec("choice"), "The Tiger.") == AnswerReading("tiger")
    assert text(AnswerSpec("choice"), "tiger or lion").reason == "ambiguous"


# ----------------------------------------------------------------------- vector


@pytest.mark.parametrize(("body", "expected"), [
    ("TGFB = 1, SMAD = 0", AnswerReading({"TGFB": 1, "SMAD": 0})),
    ("smad=0; tgfb=1", AnswerReading({"TGFB": 1, "SMAD": 0})),
    ("TGFB: 1\nSMAD: 0", AnswerReading({"TGFB": 1, "SMAD": 0})),
    ("TGFB is 0 and SMAD is 1", AnswerReading({"TGFB": 0, "SMAD": 1})),
    ("(TGFB=1, SMAD=0), the only steady state", AnswerReading({"TGFB": 1, "SMAD": 0})),
    ("TGFB=1, SMAD=0 because TGFB activates itself", AnswerReading({"TGFB": 1, "SMAD": 0})),
    ('{"TGFB": 1, "SMAD": 0}', AnswerReading({"TGFB": 1, "SMAD": 0})),
    ("TGFB=1", AnswerReading(None, "malformed")),  # missing
    ("TGFB=1, SMAD=0, ERK=1", AnswerReading(None, "malformed")),  # extra
    ("TGFB=1, TGFB=1, SMAD=0", AnswerReading(None, "malformed")),  # repeated
    # a component given two values puts a second vector forward (protocols §3.8)
    ("TGFB=1, TGFB=0, SMAD=0", AnswerReading(None, "ambiguous")),
    ("TGFB=2, SMAD=0", AnswerReading(None, "malformed")),  # not an allowed value
    ("TGFB = 0 or 1, SMAD = 0", AnswerReading(None, "ambiguous")),
    ("TGFB = 0/1, SMAD = 0", AnswerReading(None, "ambiguous")),
    ("TGFB high", AnswerReading(None, "malformed")),
    ("", AnswerReading(None, "empty")),
    (HUGE, AnswerReading(None, "malformed")),
])
def test_a_vector_names_every_component_once(body, expected):
    assert text(VECTOR, body) == expected


def test_a_vector_tool_argument_may_be_an_object():
    assert tool(VECTOR, {"tgfb": 1, "SMAD": "0"}) == AnswerReading({"TGFB": 1, "SMAD": 0})
    assert tool(VECTOR, {"TGFB": 1}).reason == "malformed"
    assert tool(VECTOR, {"TGFB": [1], "SMAD": 0}).reason == "malformed"
    assert tool(VECTOR, {"TGFB": "1 or 0", "SMAD": 0}).reason == "ambiguous"
    assert tool(VECTOR, {}).reason == "empty"
    assert tool(VECTOR, [1, 0]).reason == "bad_arguments"


# --------------------------------------------------------------------- sequence


@pytest.mark.parametrize(("body", "expected"), [
    ("pick up A; stack A on B", AnswerReading(PLAN[:2])),
    ("1. Pick up A\n2. **Stack A on B**", AnswerReading(PLAN[:2])),
    ("- unstack A from B\n- put down A", AnswerReading(PLAN[2:])),
    ("unstack A from B, put down A", AnswerReading(PLAN[2:])),
    ("pick up A -> stack A on B", AnswerReading(PLAN[:2])),
    ('["pick up A", "stack A on B"]', AnswerReading(PLAN[:2])),
    ("pick up A (the hand is empty); stack A on B", AnswerReading(PLAN[:2])),
    ("none", AnswerReading([])),
    ("pick up A; fly away", AnswerReading(None, "malformed")),
    ("pick up A; ; stack A on B", AnswerReading(None, "malformed")),
    ("pick up A or put down A", AnswerReading(None, "ambiguous")),
    ("", AnswerReading(None, "empty")),
    (HUGE, AnswerReading(None, "malformed")),  # the trailing "; " leaves an empty item
    (HUGE.rstrip("; "), AnswerReading(["stack A on B"] * 5000)),
])
def test_a_sequence_is_an_ordered_list_of_known_items(body, expected):
    assert text(SEQUENCE, body) == expected


def test_a_sequence_tool_argument_may_be_a_list():
    assert tool(SEQUENCE, ["pick up a", "stack a on b"]) == AnswerReading(PLAN[:2])
    assert tool(SEQUENCE, []) == AnswerReading([])
    assert tool(SEQUENCE, [["pick up A"]]).reason == "malformed"
    assert tool(SEQUENCE, {"steps": PLAN}).reason == "bad_arguments"


def test_a_sequence_answer_runs_over_several_lines_in_the_text_format():
    reply = "My plan:\nAnswer:\n1. pick up A\n2. stack A on B\n\nThat is all."
    turn = parse_text(reply, **LOGIC, answer=SEQUENCE)
    assert (turn.kind, turn.answer_value) == ("answer", PLAN[:2])
    turn = parse_text("Answer: pick up A\nstack A on B\nQuestion: Is Ingrid kind?",
                           **LOGIC, answer=SEQUENCE)
    assert turn.reason == "multiple_actions"
    # a yes/no answer reads its value from its own line; the lines after it are its
    # justification, where the other value makes it ambiguous (issue 18)
    turn = parse_text("Answer: yes\nIngrid is not courteous", **LOGIC)
    assert turn.reason == "ambiguous"
    # issue 30 class 1: a blank line no longer ends the answer; the other value is read
    turn = parse_text("Answer: yes\nbecause rule 3 fires\n\nIngrid is not courteous", **LOGIC)
    assert turn.reason == "ambiguous"


# ------------------------------------------------------------------- comparison


@pytest.mark.parametrize(("kind", "given", "expected", "score"), [
    ("choice", "Pain clinic", "pain clinic", 1.0),
    ("choice", "Pain clinic", "Refer to cardiology", 0.0),
    ("choice", "3", 3, 1.0),
    ("vector", {"TGFB": 1, "SMAD": 0}, {"smad": 0, "tgfb": 1}, 1.0),
    ("vector", {"TGFB": 1, "SMAD": 0}, {"TGFB": 1, "SMAD": 1}, 0.0),
    ("vector", {"TGFB": 1}, {"TGFB": 1, "SMAD": 0}, 0.0),
    ("sequence", ["a", "b", "c"], ["A", "b", "c"], 1.0),
    ("sequence", ["a", "b", "c"], ["a", "c"], 2 / 3),  # one deletion out of three
    ("sequence", ["b", "a"], ["a", "b"], 0.0),  # two substitutions out of two
    ("sequence", [], [], 1.0),
    ("sequence", "a; b", ["a", "b"], 0.0),
    ("number", "85/2", 42.5, 1.0),
    ("number", 41.9, 42, 0.0),
    ("boolean", "true", True, 1.0),
])
def test_each_kind_compares_by_its_rule(kind, given, expected, score):
    assert answer_score(given, expected, kind=kind) == pytest.approx(score)
    assert answers_match(given, expected, kind=kind) is (score == 1.0)


def test_an_unknown_kind_in_a_comparison_raises_but_a_value_never_does():
    with pytest.raises(UnknownAnswerKind):
        answers_match(1, 1, kind="colour")
    for kind in contract.ANSWER_KINDS:
        for value in (None, float("nan"), 10**5000, [[[]]], {"a": object()}, object()):
            assert answer_score(value, [1, "x"], kind=kind) in (0.0, 1.0)


@settings(max_examples=200, deadline=None)
@given(st.lists(st.sampled_from("abcd"), max_size=8), st.lists(st.sampled_from("abcd"),
                                                                 max_size=8))
def test_the_item_distance_agrees_with_a_plain_dynamic_programme(left, right):
    fast = sequence_module.item_distance(left, right)
    saved = sequence_module._Levenshtein
    sequence_module._Levenshtein = None
    try:
        plain = sequence_module.item_distance(left, right)
    finally:
        sequence_module._Levenshtein = saved
    assert fast == plain
    assert fast <= max(len(left), len(right))


# ------------------------------------------------------------- written forms read back

_RESERVED_WORDS = frozenset(
    {"the", "an", "or", "nor", "may", "and", "is", "none", "either", "maybe", "might", "could",
     "answer", "final", "perhaps", "unless", "possibly", "probably", "otherwise", "unsure",
     "unclear", "unknown", "uncertain", "undetermined", "alternatively", "because", "since",
     "wait", "hmm", "um", "uh", "presumably", "think", "believe", "suppose", "reckon", "feel",
     "about", "around", "roughly", "approximately", "approx", "circa", "nearly", "almost"}
    | set(re.findall(r"[a-z]+", f"{doubts.UNCERTAINTY_WORDS}|{doubts.CORRECTION_OPENERS}")))
"""Words the readers take as hedges, corrections or markers (a label holding one is read
as what it says, not as a value): kept out of the generated labels."""
_WORD = st.text(alphabet="abcdefghijklmnopqrstuvwxyz", min_size=2, max_size=8).filter(
    lambda w: w not in _RESERVED_WORDS)
_LABEL = st.lists(_WORD, min_size=1, max_size=3).map(" ".join)


def _round_trip(spec: AnswerSpec, value: object) -> None:
    kind = answer_kind(spec.kind)
    written = kind.label(value)
    assert kind.read_text(written, spec) == AnswerReading(value), written
    assert kind.read_tool(written, spec) == AnswerReading(value), written
    assert kind.compare(kind.read_text(written, spec).value, value, spec) == 1.0


@settings(max_examples=150, deadline=None)
@given(st.lists(_LABEL, min_size=1, max_size=5, unique_by=str.casefold), st.data())
def test_a_choice_label_reads_back(options, data):
    value = data.draw(st.sampled_from(options))
    _round_trip(answer_spec("choice", values=options), value)


@settings(max_examples=150, deadline=None)
@given(st.dictionaries(_WORD.map(str.upper), st.sampled_from([0, 1, 2, True, False]),
                       min_size=1, max_size=5))
def test_a_vector_label_reads_back(value):
    _round_trip(answer_spec("vector", values=[value]), value)
    _round_trip(AnswerSpec("vector", names=tuple(value)), value)


@settings(max_examples=150, deadline=None)
@given(st.lists(_LABEL, max_size=6))
def test_a_sequence_label_reads_back(value):
    _round_trip(answer_spec("sequence", values=[value, ["extra step"]]), value)
    if value:
        _round_trip(AnswerSpec("sequence"), value)


@settings(max_examples=150, deadline=None)
@given(st.one_of(st.booleans()), st.integers(-10**20, 10**20),
       st.fractions(max_denominator=1000))
def test_yes_no_and_number_labels_read_back(flag, integer, fraction):
    _round_trip(answer_spec("boolean", entity="Ingrid", target="courteous"), flag)
    _round_trip(answer_spec("number"), integer)
    exact = (int(fraction) if fraction.denominator == 1
             else f"{fraction.numerator}/{fraction.denominator}")
    _round_trip(answer_spec("number"), exact)
    assert answer_kind("boolean").label(flag) == ("yes" if flag else "no")
    assert answer_kind("number").label(integer) == str(integer)


# --------------------------------------------------------------- never raises


@settings(max_examples=300, deadline=None)
@given(st.sampled_from(contract.ANSWER_KINDS),
       st.one_of(st.text(max_size=200), st.none(), st.booleans(), st.integers(),
                 st.floats(), st.lists(st.text(max_size=5), max_size=3),
                 st.dictionaries(st.text(max_size=5), st.one_of(st.integers(), st.text(
                     max_size=5), st.none()), max_size=3)))
def test_no_argument_makes_a_reader_raise(name, argument):
    for spec in (answer_spec(name), CHOICE, VECTOR, SEQUENCE):
        spec = AnswerSpec(name, options=spec.options, names=spec.names,
                          allowed=spec.allowed, items=spec.items)
        for reading in (text(spec, argument), tool(spec, argument)):
            assert reading.valid or reading.reason in contract.INVALID_REASONS


# ------------------------------------------------------------- reference models


def test_reference_models_write_answers_with_the_kind_label():
    from infoseek.solvers.reference.models import answer_label, labelled_decision

    logic, math = {"domain": "logic", "target": "kind"}, {"domain": "math", "target": "T"}
    assert [answer_label(logic, v) for v in (True, False)] == ["yes", "no"]
    assert [answer_label(math, v) for v in (42, "85/2", -3)] == ["42", "85/2", "-3"]
    assert answer_label({"target": "kind"}, False) == "no"  # a record of no domain
    # the text format states a yes/no answer about the entity, so the value stays a bool
    decision = {"kind": "answer", "value": False}
    assert labelled_decision(decision, logic) is decision
    assert labelled_decision({"kind": "answer", "value": 42}, math) == {"kind": "answer",
                                                                      "value": "42"}


def test_the_tool_parser_hands_any_json_value_to_the_kind():
    turn = parse_tools([("answer", {"value": {"TGFB": 1, "SMAD": 0}})], **LOGIC,
                            answer=VECTOR)
    assert (turn.kind, turn.answer_value) == ("answer", {"TGFB": 1, "SMAD": 0})
    turn = parse_tools([("answer", '{"value": ["pick up A", "stack A on B"]}')],
                            **LOGIC, answer=SEQUENCE)
    assert turn.answer_value == PLAN[:2]
    turn = parse_tools([("answer", {"value": "surgery"})], **LOGIC, answer=CHOICE)
    assert turn.reason == "malformed"
    turn = parse_tools([("answer", {"value": None})], **LOGIC, answer=CHOICE)
    assert turn.reason == "bad_arguments"


def test_a_vector_answer_over_several_lines_in_the_text_format():
    turn = parse_text("Answer:\nTGFB = 1\nSMAD = 0", **LOGIC, answer=VECTOR)
    assert turn.answer_value == {"TGFB": 1, "SMAD": 0}
    turn = parse_text("Answer: TGFB = 1\n\nSMAD = 0", **LOGIC, answer=VECTOR)
    assert turn.reason == "malformed"  # the pairs are the first paragraph: SMAD missing
    turn = parse_text("Answer:\n\nTGFB = 1\nSMAD = 0\n\nDone.", **LOGIC, answer=VECTOR)
    assert turn.answer_value == {"TGFB": 1, "SMAD": 0}
