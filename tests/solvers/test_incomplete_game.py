"""The incomplete-questions game without Inspect (`infoseek.solvers.incomplete.game`): one
reply in, the turn record and what the model is told next out; the options checked once.
(`tests/packaging/test_layers.py` checks that no game pulls in Inspect.)"""

from __future__ import annotations

import re

import pytest

from infoseek.contract import INCOMPLETE_TURN_FIELDS
from infoseek.solvers.incomplete.game import (
    IncompleteEpisode,
    IncompleteOptions,
    UserReply,
    play_turn,
    stopped_reply,
    user_replied,
)
from infoseek.solvers.incomplete.prompts import (
    NO_QUESTIONS_LEFT,
    NO_TAG_REMINDER_FINAL,
    NO_TAG_REMINDER_TEXT,
    NO_TAG_REMINDER_TOOL,
    PROMPT_ECHOES,
)
from infoseek.solvers.incomplete.reading import parse_reply

QUESTION = "<question>How many hens did he buy?</question>"
ANSWER = "<answer>\\boxed{19}</answer>"
REPLY = UserReply("Here is what I know: he bought 7.", "rule", True)


def play(episode: IncompleteEpisode, text: str):
    return play_turn(episode, parse_reply(text, echoes=PROMPT_ECHOES), response=text)


def test_a_question_is_answered_by_the_user_until_none_is_left() -> None:
    episode = IncompleteEpisode("questionable", 2, "text")
    step = play(episode, QUESTION)
    assert step.asks_user and step.told is None and not step.record.final
    assert step.record.user_reply is None  # the solver asks the user, then fills it in
    assert user_replied(episode, REPLY) == REPLY.text
    assert episode.turns[-1].user_reply == REPLY.text and episode.turns[-1].revealed
    assert episode.asked == 1 and not episode.final_turn
    play(episode, QUESTION)
    assert user_replied(episode, REPLY) == f"{REPLY.text}\n\n{NO_QUESTIONS_LEFT}"
    assert episode.final_turn
    last = play(episode, QUESTION)  # no question left: the episode ends
    assert not last.asks_user and last.told is None
    assert last.record.final and last.record.final_turn and last.record.user_reply is None
    assert [t.turn for t in episode.turns] == [1, 2, 3]


@pytest.mark.parametrize(("fmt", "max_interactions", "reminder"), [
    ("text", 5, NO_TAG_REMINDER_TEXT), ("tool", 5, NO_TAG_REMINDER_TOOL),
    ("text", 0, NO_TAG_REMINDER_FINAL)])
def test_one_reminder_per_episode(fmt, max_interactions, reminder) -> None:
    episode = IncompleteEpisode("questionable", max_interactions, fmt)
    first = play(episode, "Let me think.")
    assert (first.told, first.asks_user, first.record.reminded, first.record.final) == (
        reminder, False, True, False)
    second = play(episode, "Still thinking.")
    assert second.told is None and second.record.final and not second.record.reminded
    assert episode.asked == 0  # a reminder costs no question


@pytest.mark.parametrize("variant", ["raw", "full"])
def test_raw_and_full_end_at_the_first_reply(variant) -> None:
    for text in (QUESTION, "No tags.", ANSWER):
        episode = IncompleteEpisode(variant, 5, "text")
        step = play(episode, text)
        assert step.told is None and not step.asks_user
        assert step.record.final and step.record.final_turn


@pytest.mark.parametrize("reason", ["context_overflow", "truncated"])
def test_a_stopped_reply_ends_the_episode_unread(reason) -> None:
    episode = IncompleteEpisode("questionable", 5, "tool")
    calls = ({"function": "ask_user", "arguments": {"question": "How many?"}},)
    step = play_turn(episode, stopped_reply(reason), response=QUESTION, tool_calls=calls)
    assert step.told is None and not step.asks_user and step.record.final
    assert (step.record.behaviour, step.record.answer_reason) == (reason, reason)
    assert step.record.question is None and step.record.to_dict()["tool_calls"] == [
        {"function": "ask_user", "arguments": {"question": "How many?"}}]
    with pytest.raises(ValueError):
        stopped_reply("no_action")


def test_the_record_stores_the_contract_fields_in_order() -> None:
    episode = IncompleteEpisode("questionable", 5, "text")
    stored = play(episode, "<answer>\\boxed{18} or \\boxed{19}</answer>").record.to_dict()
    assert tuple(stored) == INCOMPLETE_TURN_FIELDS
    assert stored["boxes"] == ["18", "19"] and stored["answer_reason"] == "ambiguous"


def test_the_options_are_checked_when_made_and_stored_as_before() -> None:
    assert list(IncompleteOptions().stored().items()) == [
        ("variant", "questionable"), ("max_interactions", 5), ("format", "text"), ("seed", 0),
        ("user", "structured")]
    assert IncompleteOptions("raw", 0, "tool", 3, "free_text").stored() == {
        "variant": "raw", "max_interactions": 0, "format": "tool", "seed": 3,
        "user": "free_text"}
    for given, message in (
            ({"variant": "half"}, "variant must be one of raw, questionable, full; got 'half'"),
            ({"format": "json"}, "format must be one of text, tool; got 'json'"),
            ({"max_interactions": -1}, "max_interactions must be an integer >= 0; got -1"),
            ({"max_interactions": True}, "max_interactions must be an integer >= 0; got True"),
            ({"user": "chatty"}, "user must be one of structured, free_text; got 'chatty'")):
        with pytest.raises(ValueError, match=f"^{re.escape(message)}$"):
            IncompleteOptions(**given)
