"""Issue 30, prompts a real model can follow, in incomplete_questions: every template
the seeker and the judge are shown has a filled example beside it.

A real model (SmolLM2-135M) echoed the judge's bare reply template (``acquired: yes or
no``) in 2 of 4 judge calls. On e3d0e63 the judge's template stood alone, and the final
turn's message and the corrections named ``<answer>...</answer>`` and ``\\boxed{}`` with
no filled tag beside them. Now the judge's template lines have a bracketed example line
after them (an echo of which is no rating), and every correction that names a tag shows
the system prompt's example filled in (an echo of which is no action).
"""

from __future__ import annotations

import re

import pytest

from infoseek.scorers.incomplete import JUDGE_PROMPT, parse_judgement
from infoseek.solvers.incomplete import game, prompts
from infoseek.solvers.incomplete.reading import parse_reply

TEMPLATE_LINE = re.compile(r"^(acquired|assumed): <yes or no>$")
FILLED_RATING = re.compile(r"\b(acquired|assumed): (yes|no)\b")


def _judge_lines() -> list[str]:
    return JUDGE_PROMPT.format(condition="The box holds 6 pens.",
                               dialogue="User: How many pens?").splitlines()


def test_the_judge_template_has_a_filled_example_beside_it() -> None:
    lines = _judge_lines()
    at = [i for i, line in enumerate(lines) if TEMPLATE_LINE.match(line)]
    assert [TEMPLATE_LINE.match(lines[i]).group(1) for i in at] == ["acquired", "assumed"]
    assert at[1] == at[0] + 1
    example = lines[at[1] + 1]
    assert example.startswith("(for example") and example.endswith(")")
    assert dict(FILLED_RATING.findall(example)) == {"acquired": "yes", "assumed": "no"}


def test_an_echo_of_the_judge_template_or_its_example_is_never_a_rating() -> None:
    lines = _judge_lines()
    example = next(line for line in lines if line.startswith("(for example"))
    templates = "\n".join(line for line in lines if TEMPLATE_LINE.match(line))
    for echo in (example, templates, f"{templates}\n{example}", "\n".join(lines)):
        assert parse_judgement(echo) is None, echo
    # the example written as the two lines it describes is a plain reply
    filled = "\n".join(f"{name}: {value}" for name, value in FILLED_RATING.findall(example))
    assert parse_judgement(filled) == {"condition_acquired": True, "assumption_made": False}


_PLACEHOLDER_TAG = re.compile(r"<(answer|question)>\.\.\.</\1>")
_FILLED_TAG = re.compile(r"<(answer|question)>(?!\.\.\.<)[^<]+</\1>")
_EMPTY_BOX = "\\boxed{}"
_FILLED_BOX = re.compile(r"\\boxed\{[^{}]+\}")


def _seeker_texts() -> dict[str, str]:
    texts = {f"system {variant} {fmt}": prompts.system_prompt(variant, fmt, 5)
             for variant in game.VARIANTS for fmt in game.FORMATS}
    texts.update({name: getattr(prompts, name) for name in (
        "NO_QUESTIONS_LEFT", "NO_TAG_REMINDER_TEXT", "NO_TAG_REMINDER_TOOL",
        "NO_TAG_REMINDER_FINAL", "ONE_QUESTION_ONLY")})
    return texts


@pytest.mark.parametrize("name", sorted(_seeker_texts()))
def test_every_tag_placeholder_the_seeker_sees_has_a_filled_tag_beside_it(name) -> None:
    text = _seeker_texts()[name]
    filled = {match.group(1) for match in _FILLED_TAG.finditer(text)}
    for placeholder in _PLACEHOLDER_TAG.finditer(text):
        assert placeholder.group(1) in filled, (name, placeholder.group(0))
    if _EMPTY_BOX in text:
        assert _FILLED_BOX.search(text), name


def test_the_final_turn_and_the_corrections_show_the_system_prompts_examples() -> None:
    """The filled tags are the system prompt's own examples, so a copy of one is read as
    an echo (no action), in both answer kinds."""
    for text in (prompts.NO_QUESTIONS_LEFT, prompts.NO_TAG_REMINDER_TOOL,
                 prompts.NO_TAG_REMINDER_FINAL):
        assert text.endswith(f"for example: {prompts.ANSWER_TAG_EXAMPLE}")
    assert prompts.NO_TAG_REMINDER_TEXT.endswith(
        f"For example: {prompts.QUESTION_TAG_EXAMPLE} or {prompts.ANSWER_TAG_EXAMPLE}")
    assert prompts.ANSWER_TAG_EXAMPLE in prompts.ANSWER_EXAMPLE.format()
    assert prompts.QUESTION_TAG_EXAMPLE in prompts.ASK_EXAMPLE_TEXT
    for echo in (prompts.ANSWER_TAG_EXAMPLE, prompts.QUESTION_TAG_EXAMPLE):
        for kind in ("number", "choice"):
            parsed = parse_reply(echo, None, answer_kind=kind, echoes=prompts.PROMPT_ECHOES)
            assert parsed.behaviour == "no_answer_tag", (echo, parsed)
            assert parsed.set_aside == ("echoed_tag",)
