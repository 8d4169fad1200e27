"""Issue 30 on the single-turn readers (protocols §3.8): the one answer-line rule,
the whole reply read (class 1), and picks with a count or a justification naming an
option (class 5)."""

from __future__ import annotations

import pytest

from infoseek.single_turn import NO_QUESTION, NOT_SURE
from infoseek.solvers.single_turn.reading import read_choice
from infoseek.solvers.single_turn.values import read_value

LOGIC = {"domain": "logic", "entity": "Alice", "target": "tall",
         "target_values": [False, True]}
NAMES = ["kind", "unkind", "brave", "calm", "vain", "shy", "loud", "proud", "smart",
         "quiet", "rich", "poor"]
THIRTEEN = [*NAMES, NO_QUESTION]
PLANNING = {"domain": "planning", "entity": "", "target": "plan"}
ATOMS = [f"{p} {b}" for p in ("clear", "ontable", "holding") for b in "abcdefg"]
ATOMS = [*ATOMS[:21], NO_QUESTION]


@pytest.mark.parametrize("text", ["Answer: 9 (out of 13)", "Answer: 9 of 13",
                                  "Answer: 9 (option 9 out of 13)"])
def test_a_pick_with_a_count_after_it_is_read_as_the_pick(text):
    reading = read_choice(text, LOGIC, THIRTEEN)
    assert (reading.pick, reading.reason) == (8, None)


def test_a_count_is_not_a_pick_but_a_second_pick_still_is():
    assert read_choice("Answer: 9 (out of 13)", LOGIC, THIRTEEN).pick == 8
    assert read_choice("Answer: 9 or 10 (out of 13)", LOGIC, THIRTEEN).reason == "ambiguous"


@pytest.mark.parametrize("text", [
    "Answer: 20, because clear a is already known",
    "Answer: 20 because clear a and ontable b are already known",
    "Answer: 20, since holding c is given.",
])
def test_a_justification_naming_a_known_atom_is_no_second_pick(text):
    assert read_choice(text, PLANNING, ATOMS).pick == 19


@pytest.mark.parametrize("text", [
    "Answer: 20 or 21", "Answer: 20, clear a", "Answer: 20, because clear a is known. "
    "Actually, 21.", "Answer: 20\n\nOr maybe clear a.",
])
def test_two_picks_stay_ambiguous(text):
    assert read_choice(text, PLANNING, ATOMS).reason == "ambiguous"


@pytest.mark.parametrize("text", ["2", "(2)", "Option 2", "No questions needed.",
                                  'The answer is "2".', "I pick 2."])
def test_a_pick_without_an_answer_line_is_no_answer(text):
    """The one answer-line rule, the same in every protocol."""
    assert read_choice(text, LOGIC, THIRTEEN).reason == "no_action"


def test_the_answer_line_rule_on_values():
    assert read_value('The answer is "Not Sure".', LOGIC, allow_not_sure=True).reason == (
        "no_action")
    assert read_value("The answer is: Not sure", LOGIC, allow_not_sure=True).pick == NOT_SURE
    assert read_value("The answer is: yes", LOGIC, allow_not_sure=True).pick is True
    assert read_value("yes", LOGIC, allow_not_sure=True).reason == "no_action"
    assert read_choice("The final answer is: 3", LOGIC, THIRTEEN).pick == 2


@pytest.mark.parametrize("tail", ["Actually, 4.", "Or maybe 4.", "Not sure.",
                                  "Wait, I was wrong.", "70%", "I am 70% sure."])
def test_what_follows_a_blank_line_is_read(tail):
    assert read_choice(f"Answer: 3\n\n{tail}", LOGIC, THIRTEEN).reason == "ambiguous"
    value_tail = tail.replace("4", "no")
    reading = read_value(f"Answer: yes\n\n{value_tail}", LOGIC, allow_not_sure=True)
    assert reading.reason == "ambiguous", value_tail


def test_a_remark_after_a_blank_line_leaves_the_pick_alone():
    assert read_choice("Answer: 3\n\nI hope this helps.", LOGIC, THIRTEEN).pick == 2
    reading = read_value("Answer: yes\n\nThis follows from the rules.", LOGIC,
                         allow_not_sure=True)
    assert reading.pick is True


@pytest.mark.parametrize("protocol", ["question_selection", "detection", "well_specified"])
@pytest.mark.parametrize("setting", ["zs", "cot", "fs"])
def test_every_single_turn_prompt_states_the_answer_line_rule(protocol, setting):
    from infoseek.answers.answer_lines import ANSWER_LINE_RULE
    from infoseek.solvers.single_turn.reading import instruction

    text = instruction(protocol, setting)
    assert '"Answer: "' in text and text.endswith(ANSWER_LINE_RULE)
