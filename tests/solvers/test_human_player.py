"""The human player (`infoseek/human`) and `infoseek play`, fed through standard input.

The provider shows what is new in the conversation and reads a reply ended by an empty
line; end of input gives up the sample. `play` runs a task with it in the text format and
writes an ordinary Inspect log. The terminal itself is driven in tmux in
tests/solvers/test_human_player_tmux.py.
"""

from __future__ import annotations

import asyncio
import io
import json
import os
import threading
import time

import anyio
import pytest
from inspect_ai.model import (
    ChatMessageAssistant,
    ChatMessageSystem,
    ChatMessageUser,
    GenerateConfig,
    get_model,
)

from infoseek.inspect_tasks.play import (
    PlayError,
    parse_task_args,
    play,
    resolve_task,
    summary,
)
from infoseek.solvers.reference.human import (
    ABANDONED,
    PROMPT,
    WELCOME,
    HumanModelAPI,
    read_in_thread,
    read_reply,
)


def test_a_reply_ends_at_an_empty_line_after_some_text() -> None:
    stream = io.StringIO("\n  \nQuestion: Is Bo kind?\nbecause\n\nAnswer: Bo is kind.\n\n")
    assert read_reply(stream) == "Question: Is Bo kind?\nbecause"
    assert read_reply(stream) == "Answer: Bo is kind."
    assert read_reply(stream) is None  # end of input before any text


def test_end_of_input_after_text_ends_the_reply() -> None:
    assert read_reply(io.StringIO("Answer: Bo is kind.")) == "Answer: Bo is kind."
    assert read_reply(io.StringIO("\n\n")) is None


def _generate(model: HumanModelAPI, messages: list) -> str:
    async def call() -> str:
        output = await model.generate(messages, [], "none", GenerateConfig())
        assert output.usage is not None and output.usage.total_tokens == 0
        return output.completion

    return anyio.run(call)


def test_the_provider_shows_new_messages_and_returns_the_typed_reply() -> None:
    stdin = io.StringIO("Question: Is Bo kind?\n\nAnswer: Bo is kind.\n\n")
    stdout = io.StringIO()
    model = HumanModelAPI(stdin=stdin, stdout=stdout)
    system = ChatMessageSystem(content="SYSTEM RULES")
    first = [system, ChatMessageUser(content="THE PROBLEM")]
    assert _generate(model, first) == "Question: Is Bo kind?"
    screen = stdout.getvalue()
    assert WELCOME in screen and PROMPT in screen
    assert screen.index("SYSTEM RULES") < screen.index("THE PROBLEM") < screen.index(PROMPT)

    stdout.seek(0)
    stdout.truncate()
    later = [*first, ChatMessageAssistant(content="Question: Is Bo kind?"),
             ChatMessageUser(content="Yes, Bo is kind.")]
    assert _generate(model, later) == "Answer: Bo is kind."
    screen = stdout.getvalue()
    assert "Yes, Bo is kind." in screen
    assert "THE PROBLEM" not in screen and WELCOME not in screen


def test_end_of_input_gives_up_the_sample_without_reading_again() -> None:
    stdin = io.StringIO("")
    stdout = io.StringIO()
    model = HumanModelAPI(stdin=stdin, stdout=stdout)
    messages = [ChatMessageSystem(content="RULES"), ChatMessageUser(content="PROBLEM")]
    assert _generate(model, messages) == ""
    assert ABANDONED in stdout.getvalue()
    # later turns of the same sample return at once, reading nothing
    stdin.write("Answer: never read\n\n")
    stdin.seek(0)
    shown = len(stdout.getvalue())
    later = [*messages, ChatMessageUser(content="Your last message was empty.")]
    assert _generate(model, later) == ""
    assert len(stdout.getvalue()) == shown
    # another sample (other messages) is asked again
    other = [ChatMessageSystem(content="RULES"), ChatMessageUser(content="PROBLEM 2")]
    assert _generate(model, other) == "Answer: never read"


def test_the_infoseek_provider_makes_the_human_and_names_it_among_valid_models() -> None:
    assert str(get_model("infoseek/human")) == "infoseek/human"
    with pytest.raises(ValueError, match="infoseek/human"):
        get_model("infoseek/nobody")
    with pytest.raises(ValueError, match="takes no model arguments"):
        get_model("infoseek/human", speed=2)


def test_play_sets_the_text_format_and_refuses_another() -> None:
    assert resolve_task("logic_mt", {"k": 1}) == ("infoseek/logic_mt",
                                                   {"k": 1, "format": "text"})
    # a task without a format parameter gets none
    assert resolve_task("logic_q", {}) == ("infoseek/logic_q", {})
    with pytest.raises(PlayError, match="drop -T format=tool"):
        resolve_task("logic_mt", {"format": "tool"})
    with pytest.raises(PlayError, match="unknown task 'nosuch'.*logic_mt"):
        resolve_task("nosuch", {})
    assert parse_task_args(["k=1", "per_k=2", "format=text"]) == {
        "k": 1, "per_k": 2, "format": "text"}
    with pytest.raises(PlayError, match="must be NAME=VALUE"):
        parse_task_args(["k1"])


def _problem_screen_reply(problem_text: str) -> tuple[str, str]:
    """A question about the first askable attribute and an answer, read off the problem."""
    goal = next(line for line in problem_text.splitlines() if line.startswith("Goal:"))
    entity, attribute = goal.removeprefix("Goal: determine whether ").rstrip(".").split(
        " is ", 1)
    askable = next(line for line in problem_text.splitlines()
                   if line.startswith(f"Attributes of {entity} you may ask about:"))
    first = askable.split(":", 1)[1].split(",")[0].strip()
    return f"Question: Is {entity} {first}?", f"Answer: {entity} is {attribute}."


def test_play_writes_an_ordinary_log_with_turn_records_and_scores(
        tmp_path, monkeypatch, capfd) -> None:
    # the first sample of logic_mt k=1; the replies are written for it after reading it
    from infoseek.inspect_tasks.logic_mt import logic_mt

    problem_text = logic_mt(k=1, per_k=1, format="text").dataset[0].input
    problem_text = problem_text if isinstance(problem_text, str) else problem_text[-1].text
    question, answer = _problem_screen_reply(problem_text)
    monkeypatch.setattr("sys.stdin", io.StringIO(f"{question}\n\n{answer}\n\n"))
    log = play("logic_mt", {"k": 1, "per_k": 1}, limit=1, log_dir=str(tmp_path))
    screen = capfd.readouterr().out  # the provider writes to the process's own stdout
    assert WELCOME in screen and problem_text.splitlines()[0] in screen
    assert log.status == "success" and log.eval.model == "infoseek/human"
    assert log.eval.task_args["format"] == "text"
    sample = log.samples[0]
    texts = [m.text for m in sample.messages if m.role == "assistant"]
    assert texts == [question, answer]
    turns = sample.store["infoseek:turns"]
    turns = json.loads(turns) if isinstance(turns, str) else turns
    assert turns[0]["action"] == "ask" and turns[0]["queries"][0]["valid"]
    assert turns[-1]["action"] == "answer"
    assert set(sample.scores) >= {"final_answer", "sufficiency", "queries", "invalid"}
    assert sample.scores["invalid"].value["invalid_total"] == 0
    shown = summary(log)
    assert f"log: {log.location}" in shown and "final_answer: accuracy=" in shown


def test_a_sample_given_up_ends_with_empty_turns_not_an_error(tmp_path, monkeypatch) -> None:
    monkeypatch.setattr("sys.stdin", io.StringIO(""))
    log = play("logic_mt", {"k": 1, "per_k": 1}, limit=1, log_dir=str(tmp_path))
    assert log.status == "success"
    sample = log.samples[0]
    assert sample.error is None
    turns = sample.store["infoseek:turns"]
    turns = json.loads(turns) if isinstance(turns, str) else turns
    assert turns and all(turn["action"] == "invalid" and turn["reason"] == "empty"
                         for turn in turns)
    assert sample.scores["final_answer"].value["accuracy"] == 0
    assert sample.scores["invalid"].value["invalid_empty"] == len(turns)


def test_the_report_says_a_person_played_not_a_reference_model() -> None:
    from infoseek.inspect_tasks.report.tables import reference_note

    note = reference_note("logic_mt", "seek", "infoseek/human", {})
    assert "a person" in note and "reads the prompt" in note
    assert "reads the problem record" in reference_note("logic_mt", "seek",
                                                        "infoseek/optimal", {})


def test_a_wait_for_a_reply_is_cancelled_at_once_and_leaves_only_a_daemon_thread() -> None:
    """Ctrl-C cancels the wait: nothing is typed on the pipe, and the wait ends at its
    timeout instead of when a line comes; the reader left behind cannot hold the process
    open."""
    read_end, write_end = os.pipe()
    stream = os.fdopen(read_end, "r")
    try:
        async def wait() -> None:
            await asyncio.wait_for(read_in_thread(stream), timeout=0.2)

        started = time.monotonic()
        with pytest.raises(TimeoutError):
            asyncio.run(wait())
        assert time.monotonic() - started < 5
        readers = [t for t in threading.enumerate() if t.name == "infoseek-human-reply"]
        assert readers and all(t.daemon for t in readers)
    finally:
        os.close(write_end)  # end of input: the reader returns and its thread ends
        for thread in threading.enumerate():
            if thread.name == "infoseek-human-reply":
                thread.join(timeout=5)
        stream.close()
