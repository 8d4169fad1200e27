"""protocols §3.8, sharpened by issue 18: a justification may follow the value, but an answer
that puts a second candidate value of its kind forward (a self-correction, an
alternative, a conditional, a probability, a second line, a list) is ``ambiguous``; the
labels the prompts write before a value (``- S1``, ``1. S1``, ``attractor S1``,
``recommendation: ...``, ``G2 = 0``) are the value they label; a tool call with an
argument beside ``value`` / ``variable`` is ``bad_arguments``.

Each kind is checked on both sides: the second-value forms are never credited, and the
single values with justifications that mention other quantities (gene values, the
numbers of a derivation, an option ruled out) stay credited."""

from __future__ import annotations

import pytest

from infoseek.answers import AnswerSpec, answer_kind, answer_spec
from tests.support.parsing import LOGIC, parse_text, parse_tools

ATTRACTOR = answer_spec("choice", target="attractor", values=["S1", "S2", "S3"])
MARKER = answer_spec("choice", target="marker", values=[0, 1])
RECOMMENDATION = answer_spec("choice", target="recommendation", values=[
    "Investigate the cause of haemolytic anaemia", "Reassure about Gilbert syndrome"])
YES_NO = answer_spec("boolean", entity="Alice", target="kind")
NUMBER = answer_spec("number", target="T")
VECTOR = answer_spec("vector", values=[{"G1": 0, "G2": 1}, {"G1": 1, "G2": 0}])
PLAN = ["pick up A", "stack A on B", "unstack A from B", "put down A"]
SEQUENCE = answer_spec("sequence", values=[PLAN[:2], PLAN[2:]])
REASSURE, INVESTIGATE = RECOMMENDATION.options[1], RECOMMENDATION.options[0]


def read(spec: AnswerSpec, body: str):
    return answer_kind(spec).read_text(body, spec)


SECOND_VALUES = [
    # choice: attractor ids
    (ATTRACTOR, "S1. Actually, S2."),
    (ATTRACTOR, "S1; correction: S2"),
    (ATTRACTOR, "S1 with 50% probability, S2 otherwise"),
    (ATTRACTOR, "S1\nS2"),
    (ATTRACTOR, "S1 (90% sure)"),
    (ATTRACTOR, "S1 if G2 is on; S2 if it is off"),
    (ATTRACTOR, "S1 if G2 is on"),  # an answer on a condition is a hedge, like "unless"
    (NUMBER, "276 if the rooster does not count"),
    (YES_NO, "yes, if rule 3 applies"),
    (ATTRACTOR, "S1. Wait, I mean S3."),
    (ATTRACTOR, "S1 - or rather S2"),
    (ATTRACTOR, "S1, then again the answer could be S3"),
    (ATTRACTOR, "S1 with probability 0.6"),
    (ATTRACTOR, "1. S1\n2. S2"),
    # choice: a marker gene's value
    (MARKER, "0 (S1), 1 (S2)"),
    (MARKER, "1. Actually 0"),
    (MARKER, "G2 = 1; on second thought, 0"),
    (MARKER, "1\n0"),
    # choice: recommendations
    (RECOMMENDATION, f"{REASSURE}. {INVESTIGATE} if bilirubin rises."),
    (RECOMMENDATION, f"{REASSURE}; correction: {INVESTIGATE}"),
    (RECOMMENDATION, f"- {REASSURE}\n- {INVESTIGATE}"),
    # yes / no
    (YES_NO, "yes. Actually, no."),
    (YES_NO, "Yes; correction: no"),
    (YES_NO, "yes\nno"),
    (YES_NO, "Alice is kind. Wait, she is not kind."),
    (YES_NO, "Alice is kind. Actually not kind."),
    (YES_NO, "yes (80% sure)"),
    (YES_NO, "Alice is not kind; if she were tall, yes."),
    (YES_NO, "True. The answer is false."),
    (YES_NO, "yes, it's a no"),
    # numbers
    (NUMBER, "276; correction: 277"),
    (NUMBER, "276. Actually, 277."),
    (NUMBER, "276\n277"),
    (NUMBER, "276 with 60% probability"),
    (NUMBER, "276, 277 if the rooster counts"),
    (NUMBER, "1,200. Actually 1,300"),
    (NUMBER, "276, but actually the total is 277"),
    (NUMBER, "276, but actually the total: 277"),
    (NUMBER, "276 hens. Wait, I mean 277."),
    (NUMBER, "42; T = 43"),
    (NUMBER, "42 (6 * 7 = 43)"),
    # vectors and sequences
    (VECTOR, "G1 = 0, G2 = 1. Actually G1 = 1, G2 = 0"),
    (VECTOR, "G1=0, G2=1\nG1=1, G2=0"),
    (VECTOR, "G1=0, G2=1 (because I1 = 1). Alternatively G1 = 1, G2 = 0"),
    (VECTOR, "G1=0, G2=1 (70% sure)"),
    (SEQUENCE, "pick up A (or unstack A from B); stack A on B"),
    (SEQUENCE, "pick up A; stack A on B (60% sure)"),
    (answer_spec("sequence"), "pick A; stack A. Actually, pick B"),
]


@pytest.mark.parametrize(("spec", "body"), SECOND_VALUES)
def test_a_second_value_put_forward_is_ambiguous(spec, body):
    assert read(spec, body).reason == "ambiguous", body


ONE_VALUE = [
    # class 6: the labels the prompts write
    (ATTRACTOR, "- S1", "S1"),
    (ATTRACTOR, "1. S1", "S1"),
    (ATTRACTOR, "attractor S1", "S1"),
    (ATTRACTOR, "the attractor is S1", "S1"),
    (ATTRACTOR, "steady state S1", "S1"),
    (ATTRACTOR, "Attractor: S2 (because I1 = 1)", "S2"),
    (RECOMMENDATION, f"recommendation: {REASSURE}", REASSURE),
    (RECOMMENDATION, f"- {REASSURE}", REASSURE),
    (MARKER, "G2 = 0", "0"),
    (MARKER, "marker = 1", "1"),
    (MARKER, "G2: 1", "1"),
    (MARKER, "the value of G2 is 1", "1"),
    (YES_NO, "- yes", True),
    (YES_NO, "1. Alice is kind", True),
    (NUMBER, "- 42", 42),
    # justifications that mention other quantities, not other answers
    (MARKER, "0 because G3 = 1 and G4 = 1", "0"),
    (MARKER, "1 (I2 = 0, so G2 stays on)", "1"),
    (MARKER, "1, since I2 is 0", "1"),
    (MARKER, "1 (G2 = 1 in S3)", "1"),
    (ATTRACTOR, "S1 because S2 is excluded by G1", "S1"),
    (RECOMMENDATION, f"recommendation: {REASSURE} (no need to investigate the cause of "
                     "haemolytic anaemia)", REASSURE),
    (YES_NO, "no, because rule 3 is true", False),
    (YES_NO, "Alice is kind because she is not rude.", True),
    (YES_NO, "yes. True, since rule 4 fires", True),
    (YES_NO, "No. Alice is not kind, because no rule makes her kind", False),
    (YES_NO, "yes\nbecause rule 3 fires", True),
    (NUMBER, "42 because 6 * 7", 42),
    (NUMBER, "42 (6 * 7 = 42)", 42),
    (NUMBER, "42. 6 × 7 = 42", 42),
    (NUMBER, "42 (10 + 32)", 42),
    (NUMBER, "42 (B = 10, P = 32)", 42),
    (NUMBER, "276. Actually, B = 10, so 276", 276),
    (NUMBER, "42, since T = B + P = 10 + 32 = 42", 42),
    (NUMBER, "42. There are 6 coops with 7 hens each.", 42),
    (NUMBER, "42 because 50% of 84 is 42", 42),
    (NUMBER, "$1,200 in total, i.e. 12 x 100", 1200),
    (NUMBER, "42\nbecause each of the 6 coops holds 7", 42),
    (VECTOR, "G1=0, G2=1 (G1 = 0 since I1 = 0)", {"G1": 0, "G2": 1}),
    (VECTOR, "G1=0, G2=1 because I1 = 1 and G3 = 0", {"G1": 0, "G2": 1}),
    (VECTOR, "- G1 = 0\n- G2 = 1", {"G1": 0, "G2": 1}),
    (SEQUENCE, "pick up A; stack A on B (because B is clear)", PLAN[:2]),
]


@pytest.mark.parametrize(("spec", "body", "value"), ONE_VALUE)
def test_one_value_with_its_label_or_justification_is_credited(spec, body, value):
    assert read(spec, body).value == value, body


@pytest.mark.parametrize("body", ["S1 or S2", "maybe: S1", "S2: S1", "not S1: S2"])
def test_a_label_that_names_an_option_or_a_hedge_is_no_label(body):
    assert read(ATTRACTOR, body).reason == "ambiguous"


def test_a_list_number_that_is_an_option_is_not_a_list_mark():
    assert read(MARKER, "1. 0").reason in ("ambiguous", "malformed")


# ------------------------------------------------------------ through the parsers


def test_a_second_line_after_the_answer_line_is_read():
    turn = parse_text("Answer: Ingrid is courteous.\nActually, Ingrid is not courteous.",
                      **LOGIC)
    assert turn.reason == "ambiguous"
    # issue 30 class 1: no blank-line cut, the retraction after a blank line is read
    turn = parse_text("Answer: Ingrid is courteous.\n\nActually, I was unsure at first.",
                      **LOGIC)
    assert turn.reason == "ambiguous"


@pytest.mark.parametrize("arguments", [
    {"value": "yes", "alternative": "no"},
    {"value": "yes", "confidence": 0.9},
    {"value": True, "note": ""},
])
def test_an_answer_tool_call_with_another_argument_is_bad_arguments(arguments):
    turn = parse_tools([("answer", arguments)], **LOGIC)
    assert (turn.kind, turn.reason) == ("invalid", "bad_arguments")
    assert parse_tools([("answer", {"value": "yes"})], **LOGIC).answer_value is True


def test_an_ask_tool_call_with_another_argument_is_bad_arguments():
    turn = parse_tools([("ask", {"variable": "kind", "also": "naive"})], **LOGIC)
    assert turn.queries[0].reason == "bad_arguments"
    assert parse_tools([("ask", {"variable": "kind"})], **LOGIC).queries[0].valid


# ------------------------------------------ hedges, approximations and retractions
# protocols §3.8: hedges are never credited (issue 18, classes 1 and 2: the seek answer kinds
# read these the way the single-turn reader does). A retraction with no second value, an
# uncertainty attached to the value, an approximation and a question mark after the
# value are ambiguous; a stated belief ("I think the answer is no") is a hedge too.

HEDGED = [
    # retractions with no second value
    (YES_NO, "no. Actually, I was wrong."),
    (YES_NO, "no. Wait, let me reconsider."),
    (NUMBER, "19. Actually, I was wrong."),
    (NUMBER, "19, scratch that"),
    (NUMBER, "19. Never mind."),
    (NUMBER, "19. Wait..."),
    (ATTRACTOR, "S1. Hmm, let me double-check."),
    (MARKER, "1. On second thought, I take that back."),
    (RECOMMENDATION, f"{REASSURE}. Actually, that's wrong."),
    (VECTOR, "G1=0, G2=1. Actually, I was wrong."),
    (SEQUENCE, "pick up A; stack A on B. Scratch that."),
    # uncertainty
    (YES_NO, "no (not sure)"),
    (YES_NO, "no, I think"),
    (YES_NO, "no, just a guess"),
    (YES_NO, "I'm not sure, no"),
    (YES_NO, "I think the answer is no"),
    (YES_NO, "Alice is kind, I believe"),
    (NUMBER, "19 (not sure)"),
    (NUMBER, "19, I guess"),
    (NUMBER, "my best guess is 19"),
    (ATTRACTOR, "S1, I think"),
    (MARKER, "1 (not certain)"),
    (RECOMMENDATION, f"I'd say {REASSURE}"),
    (VECTOR, "G1=0, G2=1 (not sure)"),
    (SEQUENCE, "pick up A; stack A on B, I think"),
    # approximations
    (NUMBER, "about 19"),
    (NUMBER, "roughly 19"),
    (NUMBER, "approximately 19"),
    (NUMBER, "around 19 hens"),
    (NUMBER, "~19"),
    (NUMBER, "T ≈ 19"),
    (NUMBER, "19 or so"),
    (NUMBER, "19-ish"),
    (NUMBER, "19 (roughly)"),
    (NUMBER, "the answer is about 19"),
    (MARKER, "about 1"),
    (ATTRACTOR, "roughly S1"),
    # a question mark after the value
    (NUMBER, "19?"),
    (YES_NO, "no?"),
    (YES_NO, "Alice is kind?"),
    (ATTRACTOR, "S1?"),
    (MARKER, "1?"),
    (VECTOR, "G1=0, G2=1?"),
    (SEQUENCE, "pick up A; stack A on B?"),
    (ATTRACTOR, "S1 (G2 on?)"),
    (NUMBER, "Is it 19?"),
]


@pytest.mark.parametrize(("spec", "body"), HEDGED)
def test_a_hedged_approximate_or_retracted_value_is_ambiguous(spec, body):
    assert read(spec, body).reason == "ambiguous", body


@pytest.mark.parametrize(("spec", "body"), [
    (YES_NO, "I'm not sure"), (NUMBER, "no idea, I guess"), (ATTRACTOR, "I think")])
def test_a_hedge_that_names_no_value_stays_malformed(spec, body):
    assert read(spec, body).reason == "malformed", body


STILL_ONE_VALUE = [
    (YES_NO, "no, because Rosa is not kind", False),
    (YES_NO, "no, because is Alice kind? No rule says so.", False),
    (YES_NO, "yes!", True),
    (NUMBER, "42 (6 * 7 = 42)", 42),
    (NUMBER, "42 (why? 6 * 7)", 42),
    (NUMBER, "42 because the question is about hens", 42),
    (NUMBER, "42, the question is about hens", 42),
    (NUMBER, "276. Actually, B = 10, so 276", 276),
    (ATTRACTOR, "S1 because S2 is excluded by G1", "S1"),
    (RECOMMENDATION, f"{REASSURE}.", REASSURE),  # an option worded "... about ..."
    (answer_spec("choice", target="step", values=["Ask about the diet", "Examine"]),
     "Ask about the diet", "Ask about the diet"),
    (VECTOR, "G1=0, G2=1 (what fixes G2? I1 = 1)", {"G1": 0, "G2": 1}),
    (NUMBER, "42. What else? Nothing.", 42),
    (SEQUENCE, "pick up A; stack A on B (is B clear? yes)", PLAN[:2]),
]


@pytest.mark.parametrize(("spec", "body", "value"), STILL_ONE_VALUE)
def test_no_hedge_in_the_value_stays_credited(spec, body, value):
    assert read(spec, body).value == value, body


@pytest.mark.parametrize("body", ["no (not sure)", "19?", "no. Actually, I was wrong."])
def test_the_tool_format_reads_hedges_alike(body):
    spec = NUMBER if body.startswith("19") else YES_NO
    assert answer_kind(spec).read_tool(body, spec).reason == "ambiguous"
    assert parse_tools([("answer", {"value": "no (not sure)"})], **LOGIC).reason == "ambiguous"
