"""Issue 30, class 10: a multi-line answer stays whole in the kept history, and only what
is not the action counts as reasoning.

A planning_mt text answer ``Answer: (unstack a b)`` followed by the plan's other steps
is read whole (every line after the answer line), so the history keeps every one of those
lines (the reasoning before it is dropped unless carried) and the reasoning-trace
diagnostics never count them as reasoning: the reference models, which write only their
action, reason in no episode. On e3d0e63 the history kept the first line only and
``infoseek/random`` reasoned in every planning episode.
"""

from __future__ import annotations

import pytest
from inspect_ai import eval
from inspect_ai.model import ChatMessageAssistant, get_model

from infoseek.inspect_tasks.planning_mt import planning_mt
from infoseek.scorers.trace_diagnostics import reasoning_of_output
from infoseek.turn_text import split_turn
from tests.support.common import assert_eval_success, text_output

PLAN = "Answer: (unstack a b)\n(put-down a)\n(pick-up b)\n\n(stack b c)"


def test_an_answer_is_its_line_and_every_line_after_it() -> None:
    split = split_turn(f"Let me think.\nThe goal needs b on c.\n{PLAN}")
    assert split.action == PLAN
    assert split.reasoning == "Let me think.\nThe goal needs b on c."
    asked = split_turn("First a thought.\nQuestion: Is (on a b) true?\nThat settles it.")
    assert asked.action == "Question: Is (on a b) true?"
    assert asked.reasoning == "First a thought.\nThat settles it."
    assert split_turn("The answer is: 18\nbecause 3 * 6.").reasoning == ""


def test_a_plan_after_the_answer_line_is_not_reasoning() -> None:
    message = ChatMessageAssistant(content=PLAN)
    assert reasoning_of_output(message) == ""
    with_thought = ChatMessageAssistant(content=f"I need b on c first.\n{PLAN}")
    assert reasoning_of_output(with_thought) == "I need b on c first."


@pytest.mark.usefixtures("no_tokenizer")
def test_the_reference_models_plans_are_no_reasoning(tmp_path) -> None:
    [log] = eval(planning_mt(k=[1, 2], per_k=2, format="text"), model="infoseek/random",
                 log_dir=str(tmp_path), display="none")
    assert_eval_success(log)
    answered = 0
    for sample in log.samples:
        assert sample.scores["queries"].metadata["diagnostics"]["reasoning_turns"] == 0
        last = [m for m in sample.messages if isinstance(m, ChatMessageAssistant)][-1]
        if last.text.startswith("Answer:") and len(last.text.splitlines()) > 1:
            answered += 1
    assert answered  # some plan of several steps was given and kept whole


@pytest.mark.usefixtures("no_tokenizer")
def test_the_whole_plan_stays_in_the_history_without_its_reasoning(tmp_path) -> None:
    """Under force-ask an early answer is refused and the model reads its own turn back:
    every line of the plan, none of the reasoning before it."""
    early = text_output(f"I guess without asking.\n{PLAN}\nThis is short because a is "
                        "clear.")
    outputs = [early] + [text_output("Answer: none")] * 6
    model = get_model("mockllm/model", custom_outputs=outputs)
    [log] = eval(planning_mt(k=[1], per_k=1, format="text", force_ask=True, max_turns=2),
                 model=model, limit=1, log_dir=str(tmp_path), display="none")
    assert_eval_success(log)
    [sample] = log.samples
    kept = [m.text for m in sample.messages if isinstance(m, ChatMessageAssistant)]
    assert kept[0] == f"{PLAN}\nThis is short because a is clear."
    assert "I guess" not in "\n".join(kept)
