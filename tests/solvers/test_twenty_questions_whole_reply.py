"""Issue 30 class 1 on Twenty Questions guesses: the guess is read with every line after
it, blank lines or not (protocols §3.8), so a second guess or a hedge on a later line is
never credited, while a plain remark leaves the guess alone."""

from __future__ import annotations

import pytest

from infoseek.builders.twenty_questions import builder
from infoseek.solvers.twenty_questions.game import GameTable, read_turn

pytestmark = pytest.mark.usefixtures("no_tokenizer")

COMMON = builder.game_records("common")
TABLE = GameTable.from_record(COMMON[0])


@pytest.mark.parametrize("later", ["Or maybe a cat.", "cat", "Not sure.", "Wait, I was wrong.",
                                   "70%", "Actually, a cat."])
@pytest.mark.parametrize("gap", ["\n", "\n\n", "\n\nLet me think again.\n\n"])
@pytest.mark.parametrize("final_turn", [False, True])
def test_a_hedge_or_second_guess_after_the_guess_is_never_credited(later, gap, final_turn):
    turn = read_turn(f"Guess: dog{gap}{later}", TABLE, final_turn=final_turn)
    assert turn.kind == "invalid" and turn.guess is None, turn


@pytest.mark.parametrize("later", ["I hope I got it.", "It barks and is a pet."])
def test_a_remark_after_the_guess_leaves_it_alone(later):
    turn = read_turn(f"Guess: dog\n\n{later}", TABLE, final_turn=False)
    assert (turn.kind, turn.guess) == ("guess", "dog")
