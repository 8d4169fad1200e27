"""Protocol prompts, written for this project.

Each domain renders its problems and words its questions itself (`infoseek.domains`:
the renderers and the `Wording` of its declaration); this module composes that wording
with the lines every protocol shares (budget, final turn, k options). The corrections
after an invalid turn are the examiner's (`infoseek.oracles.refusals`).
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

from infoseek.domains import Wording, domain_of

LAST_TURN_SENTENCE = ("After them you get one last turn, in which only an answer counts; you "
                      "may answer earlier.")
"""What happens after the turn cap, said in both budget lines: the model gets ``max_turns``
turns in which it may ask, then one more in which it must answer (the episode's final
turn, `infoseek.solvers.seek.game.Episode.final_turn`), so it is told of every call it gets;
``total_turns`` counts the turns it could ask in, never more than ``max_turns``."""
BUDGET_LINE = (
    "Budget: you have at most {turns} turn(s) of questions, with up to {per_turn} "
    "question(s) per turn. " + LAST_TURN_SENTENCE
)
NO_BUDGET_LINE = "You may ask questions on up to {turns} turn(s). " + LAST_TURN_SENTENCE
FORCE_ASK_LINE = "You must ask at least {k} question(s) before you may answer."

FINAL_TURN = "You have no questions left. Give your final answer now."
"""The first sentence of the final turn's message; `final_turn_prompt` adds the answer
line to write (text format) or the tool call to make (tool format)."""

K_PREDICTION_MAX = 4
"""The largest count the k-prediction prompts offer unless told otherwise (protocols §3.2)."""

def k_prediction_options(max_k: int = K_PREDICTION_MAX) -> str:
    """The answer lines a k-prediction prompt offers: not ambiguous, every count 1..max_k,
    and ambiguous but not sure how many."""
    counts = "".join(f"Answer: {k}\n" for k in range(1, max_k + 1))
    return f"Answer: not ambiguous\n{counts}Answer: ambiguous but not sure how many"


def with_example(template: str, example: str) -> str:
    """A template line and, on the next line, the same line filled in (``(for example:
    Answer: 42)``), so a model sees what to put in place of the angle brackets; the
    example line opens with a bracket, so an echo of it is never an action line."""
    return f"{template}\n(for example: {example})" if example else template


def _templates_shown(wording: Wording, entity: str) -> dict[str, str]:
    """The ``{question_template}`` and ``{answer_template}`` of the rules: each template
    with its filled example (`with_example`)."""
    return {"question_template": with_example(
                wording.question_template.format(entity=entity),
                wording.question_example.format(entity=entity)),
            "answer_template": with_example(wording.answer_template or "",
                                            wording.answer_example)
            if wording.answer_template else ""}


def template_lines(wording: Wording, *, entity: str, fmt: str) -> tuple[str, ...]:
    """The example lines the seek prompts (system prompt and corrections) show with a
    placeholder in angle brackets: a reply line copying one verbatim is not an action.
    Answer lines the prompt shows whole are real answers, so they are not here."""
    if fmt != "text":
        return ()
    question = wording.question_template.format(entity=entity)
    if wording.answer_template is None:
        return (question,)
    return (question, wording.answer_template)


def problem_level_prompts(problem: Mapping[str, Any]) -> dict[str, str]:
    """The k-prediction / MSS-identification wording of a record's domain."""
    wording = domain_of(problem).wording
    return {"k_prediction": wording.k_prediction,
            "mss_identification": wording.mss_identification,
            "size_given": wording.size_given, "size_free": wording.size_free}


def seek_system_prompt(wording: Wording, *, entity: str, target: str, fmt: str,
                       per_turn: int, max_turns: int, budget: bool,
                       force_ask_k: int | None) -> str:
    """The seek system prompt in the domain's wording."""
    rules = wording.tool_rules if fmt == "tool" else wording.text_rules
    lines = [wording.intro, rules.format(
        per_turn=per_turn, entity=entity, target=target,
        **_templates_shown(wording, entity))]
    if budget:
        lines.append(BUDGET_LINE.format(turns=max_turns, per_turn=per_turn))
    else:
        lines.append(NO_BUDGET_LINE.format(turns=max_turns))
    if force_ask_k:
        lines.append(FORCE_ASK_LINE.format(k=force_ask_k))
    return "\n\n".join(lines)


_PLACEHOLDER = re.compile(r"<[^<>]+>")


def _text_rules(wording: Wording, *, entity: str, target: str) -> str:
    return wording.text_rules.format(
        per_turn=1, entity=entity, target=target, **_templates_shown(wording, entity))


def _bracketed_after(rules: list[str], template: str) -> list[str]:
    """The lines right under `template` in the rules that open with a bracket: its filled
    example (`with_example`) and any further examples the domain shows there (genereg's
    answer line for each kind of goal), so the final turn shows what the rules showed."""
    if template not in rules:
        return []
    found = []
    for line in rules[rules.index(template) + 1:]:
        if not line.startswith("("):
            break
        found.append(line)
    return found


def final_turn_prompt(wording: Wording, *, entity: str, target: str, fmt: str,
                      multiline: bool = False) -> str:
    """The message of the forced final turn: `FINAL_TURN`, then the exact answer line
    to write, restated from the domain's own rules (protocols §3.8 credits only an ``Answer:``
    line, so a bare answer sentence is not an answer). Text format: the ``Answer:``
    lines the system prompt showed (the two whole lines of a yes/no goal, or the one
    line with its placeholder; a multi-line answer starts with the template line); tool
    format: the ``answer`` call. Nothing in it depends on the hidden value: a yes/no goal's
    two lines are both listed, and a choice's options are not (the prompt shows them)."""
    if fmt == "tool":
        return (f"{FINAL_TURN} Do not ask: call the `answer` tool, with your answer as its "
                "`value`, written as the rules say. Only that call counts as your answer.")
    rules = [line.strip() for line in _text_rules(wording, entity=entity, target=target)
             .splitlines()]
    lines = [line for line in rules if line.startswith("Answer:")]
    template = wording.answer_template
    if (multiline and template) or not lines:
        lines = [template or "Answer: <your answer>"]
    placeholder = _PLACEHOLDER.search(lines[0])
    if len(lines) == 1 and placeholder is not None:
        after = _bracketed_after(rules, lines[0])
        shown = "\n".join([lines[0], *after]) if after else with_example(
            lines[0], wording.answer_example if lines[0] == template else "")
        if multiline:
            return (f"{FINAL_TURN} Do not ask. Write your answer starting with a line "
                    f"written like\n{shown}\nwith your answer in place of "
                    f"{placeholder.group(0)}, then the rest of it on the lines after, as "
                    "the rules say. Text without `Answer:` is not an answer.")
        return (f"{FINAL_TURN} Do not ask. End your message with exactly one line written "
                f"like\n{shown}\nwith your answer in place of {placeholder.group(0)}. "
                "The line must start with `Answer:`; text without it is not an answer.")
    listed = "\n".join(lines)
    return (f"{FINAL_TURN} Do not ask. End your message with exactly one of these lines, "
            f"copied whole, `Answer:` included:\n{listed}\nA sentence without `Answer:` "
            "is not an answer.")
