"""Issue 30, prompts a real model can follow: a filled answer line beside every answer
template the seeker is shown.

- Gene regulation asks for three kinds of value (which attractor the cell reaches, which
  steady state it is in, a marker gene's value). On e3d0e63 its rules showed the one
  template ``Answer: <attractor id, or 0 or 1 for a marker gene>`` with no filled line;
  after issue 30 (d) one example (``Answer: A2``), which is no value of a steady-state or
  marker problem and the very value of many attractor problems. Now the rules and the
  final turn show a filled answer line for each goal, and the tool rules an example
  value for each; the example ids are of no problem (``A99``, ``S99``) and the marker
  example names both values, so no example singles out a problem's value (the fuzz
  test's leak check) and a copy of an id example is never credited.
- Every built-in seek domain's final turn and system prompt (text format): a line with
  an angle-bracket placeholder has a bracketed filled line right under it.
"""

from __future__ import annotations

import re

import pytest

from infoseek.answers import answer_kind
from infoseek.builders.datasets import domain_records
from infoseek.contract import ACTION_ANSWER
from infoseek.domains import domain_names, get_domain
from infoseek.solvers.seek import prompts
from infoseek.solvers.seek.game import SeekOptions
from infoseek.solvers.seek.parsing import parse_text_turn
from infoseek.solvers.seek.session import start_episode

pytestmark = pytest.mark.usefixtures("no_tokenizer")

_FILLED = re.compile(r"Answer: (\w+)")
_GOAL_FORM = {"attractor": re.compile(r"A\d+"), "steady": re.compile(r"S\d+"),
              "marker": re.compile(r"[01]")}


def _goal(record: dict) -> str:
    if record["engine"]["target"]["type"] == "marker":
        return "marker"
    return "steady" if record["engine"]["kind"] == "boolnet-steady" else "attractor"


@pytest.fixture(scope="module")
def genereg_records() -> dict[str, dict]:
    records = {_goal(r): r for r in domain_records("genereg", ks=[1], per_k=1, seed=0)}
    assert set(records) == {"attractor", "steady", "marker"}
    return records


def _prompts(record: dict) -> dict[str, str]:
    wording = get_domain("genereg").wording
    shared = {"entity": record["entity"], "target": record["target"]}
    return {
        fmt: prompts.seek_system_prompt(wording, fmt=fmt, per_turn=1, max_turns=4,
                                        budget=False, force_ask_k=None, **shared)
        for fmt in ("text", "tool")} | {
        "final": prompts.final_turn_prompt(wording, fmt="text", **shared)}


@pytest.mark.parametrize("goal", ["attractor", "steady", "marker"])
def test_every_genereg_goal_gets_a_filled_answer_line(genereg_records, goal) -> None:
    """The text rules and the final turn show, for this goal, a filled ``Answer:`` line
    of that goal's form (an attractor's or a steady state's id, 0 or 1); the tool rules
    name an example value of the goal too. No prompt names exactly one of the problem's
    options (no example singles out a value), an id example is of no problem and is
    refused when copied, and a marker example is read as the value it names."""
    record = genereg_records[goal]
    form = _GOAL_FORM[goal]
    shown = _prompts(record)
    for where in ("text", "final"):
        filled = {value for value in _FILLED.findall(shown[where]) if form.fullmatch(value)}
        assert filled, (goal, where, shown[where])
    if goal == "marker":
        assert "0 or 1 when it asks for a marker" in shown["tool"], shown["tool"]
    else:
        assert re.search(rf"for example {form.pattern}\)", shown["tool"]), shown["tool"]
    options = {str(value) for value in record["target_values"]}
    catalogue = {entry["id"] for entry in record["engine"]["catalogue"]}
    for where, text in shown.items():
        named = {o for o in options if re.search(rf"(?<!\w){re.escape(o)}(?!\w)", text)}
        assert len(named) != 1, (goal, where, named)
    _, context = start_episode(record, {"target_value": record["target_values"][0]},
                               SeekOptions(format="text"))
    for value in sorted({v for v in _FILLED.findall(shown["final"]) if form.fullmatch(v)}):
        parsed = parse_text_turn(f"Answer: {value}", context, [])
        if goal == "marker":
            assert (parsed.kind, str(parsed.answer_value)) == (ACTION_ANSWER, value)
        else:
            assert value not in catalogue and parsed.kind != ACTION_ANSWER, parsed


def test_an_echo_of_the_goal_examples_is_no_answer(genereg_records) -> None:
    record = genereg_records["attractor"]
    final = _prompts(record)["final"]
    [line] = [line for line in final.splitlines() if line.startswith("(the answer line")]
    _, context = start_episode(record, {"target_value": record["target_values"][0]},
                               SeekOptions(format="text"))
    parsed = parse_text_turn(line, context, [])
    assert parsed.kind != ACTION_ANSWER and parsed.reason == "no_action", parsed


_PLACEHOLDER = re.compile(r"<[^<>]+>")
_ACTION = re.compile(r"^(?:Answer|Question):")


def _unfilled_lines(text: str) -> list[str]:
    """Action lines with a placeholder that have no bracketed filled line under them."""
    lines = text.splitlines()
    missing = []
    for i, line in enumerate(lines):
        if not (_ACTION.match(line) and _PLACEHOLDER.search(line)):
            continue
        below = lines[i + 1] if i + 1 < len(lines) else ""
        if not (below.startswith("(for example: ") and not _PLACEHOLDER.search(below)):
            missing.append(line)
    return missing


@pytest.mark.parametrize("name", [n for n in domain_names() if n != "twenty_questions"])
@pytest.mark.parametrize("target", ["kind", "attractor", "marker"])
def test_every_seek_placeholder_line_has_a_filled_line_under_it(name, target) -> None:
    domain = get_domain(name)
    multiline = answer_kind(domain.answer_kind).multiline
    final = prompts.final_turn_prompt(domain.wording, entity="Alice", target=target,
                                      fmt="text", multiline=multiline)
    system = prompts.seek_system_prompt(domain.wording, entity="Alice", target=target,
                                        fmt="text", per_turn=1, max_turns=5, budget=True,
                                        force_ask_k=None)
    assert _unfilled_lines(final) == [] and _unfilled_lines(system) == []
