"""The ``plan`` answer kind: a Blocks World plan, one ground action per line.

A specialised ``sequence`` (`infoseek.answers.sequence.SequenceKind`): the value read is
the ordered list of actions, but the planning target is a *set* of optimal plans, so two
things differ from the generic kind, which compares one list with one list and sets aside
a ``(...)`` after an item as a justification (every PDDL action is written in brackets):

* reading (`read_plan`): actions are written ``(unstack a b)``, one per line (numbering,
  bullets and ``Step 1:`` dropped); several on one line may be separated by spaces,
  commas, semicolons or arrows; a JSON list of action strings is read too; ``none`` is
  the empty plan. Each action must be one of the problem's ground actions (the spec's
  items: ``pick-up`` / ``put-down`` of one block, ``stack`` / ``unstack`` of two
  different blocks, blocks of the problem); an unknown action, an unknown block, a wrong
  number of blocks or an action written without brackets (``unstack a b``) is
  ``malformed``, wherever it stands: a step with an unknown action word among the
  others (``(move a b)``, or ``move a b`` on a line of its own; a bracketed atom such as
  ``(on a b)`` is a fact, not a step) and a step written without brackets after the
  plan (an extra step, ``put-down a`` on a line of its own) are never set aside; a
  hedge or a self-correction anywhere outside the actions (``(stack a b) or (stack b
  a)``, ``maybe``, ``actually``, ``instead``) or a probability (``70%``, ``90% sure``)
  is ``ambiguous``. Other text around the actions (``then``, a justification line) is
  set aside. Every line of the body is read, blank lines or not (protocols §3.8: the
  whole reply counts), so a step or a second plan after a blank line is part of what is
  read;
* comparison (`plan_credit`): the expected value names the true state's plan set by a
  representative state (`infoseek.engines.planning.space.GoalAnalysis.value_text`); a
  plan is credited 1.0 when it is optimal from there (applicable step by step, reaches
  the goal, as long as the optimal plans); a plan with an inapplicable step earns 0.0
  (never credit); any other applicable plan earns ``1 - d / max(len(plan), L)``, with
  ``d`` the least edit distance to any optimal plan (whole actions, a dynamic programme
  over the optimal moves) and ``L`` the optimal length. A value of the one-plan-per-state
  convention (``... first optimal plan of N steps``, `GoalAnalysis.first_plan_text`)
  names one plan: only that plan earns 1.0, and ``d`` is the edit distance to it.

`label` writes the value's lexicographically first optimal plan, one action per line.
Pure: no Inspect imports; never raises on model text.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass

from infoseek.answers import register_answer_kind
from infoseek.answers.answer_text import ANSWER_LEAD, normalise
from infoseek.answers.base import AnswerReading, AnswerSpec, invalid
from infoseek.answers.doubts import read_undoubted
from infoseek.answers.second_values import PROBABILITY
from infoseek.answers.sequence import EMPTY_SEQUENCE, SequenceKind
from infoseek.engines.planning.pddl import ACTIONS, ground_operators
from infoseek.engines.planning.space import goal_analysis, parse_value

NAME = "plan"

_ACTION = re.compile(r"\(\s*([A-Za-z][A-Za-z_-]*)((?:\s+[^\s()]+)*)\s*\)")
_BARE_ACTION = re.compile(r"\b(?:pick[-_ ]?up|put[-_ ]?down|un-?stack|stack)\s+[a-z]\b",
                          re.IGNORECASE)
_LIST_MARK = re.compile(r"^\s*(?:[-*•+]|\d{1,3}\s*[.):]|step\s*\d{1,3}\s*[.):-]?)\s*",
                        re.IGNORECASE)
_HEDGE = re.compile(r"/|\b(?:or|either|maybe|perhaps|possibly|probably|might|could|"
                    r"alternatively|actually|instead|otherwise|unless|wait|correction|"
                    r"unsure|uncertain)\b", re.IGNORECASE)
_ATOM_WORDS = frozenset({"on", "ontable", "clear", "holding", "handempty"})
"""Predicates of the domain: a bracketed atom beside the plan is a fact, not a step."""
_CONNECTIVE = re.compile(r"^\s*(?:(?:and\s+)?then|next|finally|and|after\s+that)\b[\s,:]*",
                         re.IGNORECASE)
_ALIASES = {"pickup": "pick-up", "putdown": "put-down", "pick_up": "pick-up",
            "put_down": "put-down"}
_EMPTY = {EMPTY_SEQUENCE, "no actions", "empty plan", "the empty plan", "nothing",
          "no action"}
_ARITY = {"pick-up": 1, "put-down": 1, "stack": 2, "unstack": 2}


@dataclass(frozen=True)
class PlanReading:
    """A plan read from text, or why it cannot be (a contract reason and a sentence)."""

    plan: list[str] | None
    reason: str | None = None
    why: str = ""


def _blocks_of(items: tuple[str, ...]) -> set[str] | None:
    if not items:
        return None
    return {name for item in items for name in item.strip("()").split()[1:]}


def _action(name: str, arguments: str, blocks: set[str] | None) -> tuple[str | None, str]:
    """The ground action a bracketed group writes, or (None, why not)."""
    verb = name.lower()
    verb = _ALIASES.get(verb, verb)
    args = [a.strip(",;.").lower() for a in arguments.split()]
    if verb not in _ARITY:
        return None, f"unknown action {name!r}"
    if len(args) != _ARITY[verb]:
        return None, f"({verb}) takes {_ARITY[verb]} block(s), got {len(args)}"
    if blocks is not None and any(a not in blocks for a in args):
        unknown = next(a for a in args if a not in blocks)
        return None, f"unknown block {unknown!r}"
    if blocks is None and any(not re.fullmatch(r"[a-z]", a) for a in args):
        return None, f"unknown block in ({verb} {' '.join(args)})"
    if len(args) == 2 and args[0] == args[1]:
        return None, f"({verb} {args[0]} {args[1]}) names one block twice"
    return f"({verb} {' '.join(args)})", ""


def _is_block(word: str, blocks: set[str] | None) -> bool:
    word = word.strip(",;.").lower()
    return word in blocks if blocks is not None else re.fullmatch(r"[a-z]", word) is not None


def _step_shaped(verb: str, arguments: list[str], blocks: set[str] | None) -> bool:
    """Whether ``verb`` applied to ``arguments`` is written like a step (a word, then one
    or two blocks and nothing else), whatever the word: an unknown action is then a step
    that cannot be read, never a remark to set aside."""
    return (bool(re.fullmatch(r"[A-Za-z][A-Za-z_-]*", verb)) and 1 <= len(arguments) <= 2
            and verb.lower() not in _ATOM_WORDS
            and all(_is_block(a, blocks) for a in arguments))


def _bare_step(remark: str, blocks: set[str] | None) -> str | None:
    """Why a line that is one step written without brackets (``put-down a``, ``move a
    b``; list marks and a leading ``then`` aside) cannot be read, or None when the line is
    something else (prose, a justification)."""
    words = _CONNECTIVE.sub("", remark).strip(" \t.;,!").split()
    if len(words) < 2 or not _step_shaped(words[0], words[1:], blocks):
        return None
    verb = _ALIASES.get(words[0].lower(), words[0].lower())
    if verb in _ARITY:
        return "actions must be written in brackets, like (unstack a b)"
    return f"unknown action {words[0]!r}"


def read_plan(body: object, blocks: set[str] | None = None) -> PlanReading:
    """Read a plan (module docstring); `blocks` limits the block names (None: any
    letter)."""
    if not isinstance(body, str):
        return PlanReading(None, "malformed", "not text")
    text = body.strip()
    if not text:
        return PlanReading(None, "empty", "no plan")
    text = re.sub(ANSWER_LEAD.pattern, "", text, count=1, flags=re.IGNORECASE).strip()
    if text.startswith("["):
        try:
            decoded = json.loads(text)
        except (ValueError, RecursionError):
            decoded = None
        if isinstance(decoded, list):
            return read_items(decoded, blocks)
    if normalise(text).strip(" .!") in _EMPTY:
        return PlanReading([])
    plan: list[str] = []
    for line in text.splitlines():
        if not line.strip():
            continue  # no blank-line cut (protocols §3.8): a later step is read as the next
        line = _LIST_MARK.sub("", line)
        found = False
        rest = []
        position = 0
        for match in _ACTION.finditer(line):
            action, why = _action(match[1], match[2], blocks)
            rest.append(line[position:match.start()])
            position = match.end()
            if action is None:
                if (match[1].lower() in _ARITY or _ALIASES.get(match[1].lower())
                        or _step_shaped(match[1], match[2].split(), blocks)):
                    return PlanReading(None, "malformed", why)  # a step that cannot be read
                rest.append(match[0])  # a bracketed remark (or an atom), not an action
                continue
            plan.append(action)
            found = True
        rest.append(line[position:])
        remark = " ".join(rest)
        if _HEDGE.search(remark) or PROBABILITY.search(remark):
            return PlanReading(None, "ambiguous", "a hedge or a correction beside the plan")
        if not found and _BARE_ACTION.search(remark) and not plan:
            return PlanReading(None, "malformed", "actions must be written in brackets, "
                                                  "like (unstack a b)")
        bare = None if found else _bare_step(remark, blocks)
        if bare is not None:  # a step of its own among or after the actions
            return PlanReading(None, "malformed", bare)
    if not plan:
        return PlanReading(None, "malformed", "no action found")
    return PlanReading(plan)


def read_items(items: list, blocks: set[str] | None = None) -> PlanReading:
    """A plan given as a list of action texts (a JSON list, a tool argument)."""
    plan: list[str] = []
    for item in items:
        if not isinstance(item, str):
            return PlanReading(None, "malformed", "a list item is not text")
        reading = read_plan(item, blocks)
        if reading.plan is None:
            return reading
        if len(reading.plan) != 1:
            return PlanReading(None, "malformed", "one action per list item")
        plan.extend(reading.plan)
    return PlanReading(plan)


def _reading(found: PlanReading) -> AnswerReading:
    return AnswerReading(found.plan) if found.plan is not None else invalid(found.reason)


@dataclass(frozen=True)
class PlanCheck:
    """A plan checked from a state: applicable throughout, optimal, its credit."""

    applicable: bool
    optimal: bool
    credit: float
    why: str = ""


def check_plan(plan: object, value: object) -> PlanCheck:
    """How `plan` fares against the plan set `value` names (module docstring)."""
    found = parse_value(value)
    if found is None or not isinstance(plan, list | tuple):
        return PlanCheck(False, False, 0.0, "no plan or no plan set to compare with")
    if not all(isinstance(step, str) for step in plan):
        return PlanCheck(False, False, 0.0, "a step is not text")
    try:
        analysis = goal_analysis(found.count, found.goal)
    except ValueError as exc:
        return PlanCheck(False, False, 0.0, str(exc))
    space = analysis.space
    index = space.index_of(space.mask_of(found.state)) if all(
        a in space.bit for a in found.state) else None
    if index is None:
        return PlanCheck(False, False, 0.0, "the plan set names no valid state")
    number = {name: i for i, name in enumerate(space.operators)}
    mask = int(space.masks[index])
    for position, step in enumerate(plan, start=1):
        operator = number.get(step)
        after = None if operator is None else space.apply(mask, operator)
        if after is None:
            return PlanCheck(False, False, 0.0, f"step {position} {step} is not applicable")
        mask = after
    goal = space.mask_of(found.goal)
    steps = int(analysis.dist[index])
    if found.first:
        wanted = analysis.first_plan(index)
        if list(plan) == wanted:
            return PlanCheck(True, True, 1.0)
        distance = _edit_distance(list(plan), wanted)
        longest = max(len(plan), len(wanted))
        return PlanCheck(True, False, max(0.0, min(1.0 - distance / longest, 1.0 - 1e-9)),
                         "applicable but not the first optimal plan")
    if mask & goal == goal and len(plan) == steps:
        return PlanCheck(True, True, 1.0)
    distance = analysis.nearest_distance(index, list(plan))
    longest = max(len(plan), steps)
    credit = 1.0 - distance / longest if longest else 1.0
    return PlanCheck(True, False, max(0.0, min(credit, 1.0 - 1e-9)),
                     "applicable but not optimal")


def _edit_distance(given: list[str], wanted: list[str]) -> int:
    """Whole actions inserted, deleted or substituted to turn `given` into `wanted`."""
    row = list(range(len(wanted) + 1))
    for i, step in enumerate(given, start=1):
        previous, row[0] = row[0], i
        for j, other in enumerate(wanted, start=1):
            previous, row[j] = row[j], min(row[j] + 1, row[j - 1] + 1,
                                           previous + (step != other))
    return row[-1]


def plan_credit(plan: object, value: object) -> float:
    return check_plan(plan, value).credit


class PlanKind(SequenceKind):
    """A Blocks World plan (module docstring)."""

    name = NAME
    malformed = ("Your answer could not be read as a plan: write one action per line, "
                 "like (unstack a b), using only the problem's blocks.")
    multiline = True

    def read_text(self, body: object, spec: AnswerSpec) -> AnswerReading:
        """Read a plan; a hedged or retracted one (``probably``, ``I think``, ``scratch
        that``) is ``ambiguous``, as in every kind (`read_undoubted`)."""
        blocks = _blocks_of(spec.items)
        return read_undoubted(lambda text: _reading(read_plan(text, blocks)), body)

    def read_tool(self, argument: object, spec: AnswerSpec) -> AnswerReading:
        if isinstance(argument, list):
            return _reading(read_items(argument, _blocks_of(spec.items)))
        if isinstance(argument, str):
            return self.read_text(argument, spec)
        return invalid("bad_arguments")

    def compare(self, given: object, expected: object, spec: AnswerSpec | None = None) -> float:
        """Against a plan set (an engine value): `plan_credit`; against another plan (a
        list), the generic sequence comparison."""
        if isinstance(expected, list | tuple):
            return super().compare(given, expected, spec)
        try:
            return plan_credit(given, expected)
        except (TypeError, ValueError, RecursionError):
            return 0.0

    def label(self, value: object) -> str:
        found = parse_value(value)
        if found is None:
            return super().label(value)
        analysis = goal_analysis(found.count, found.goal)
        index = analysis.space.index_of(analysis.space.mask_of(found.state))
        plan = analysis.first_plan(index) if index is not None else []
        return "\n".join(plan) if plan else EMPTY_SEQUENCE

    def spec_fields(self, values: object) -> dict[str, tuple]:
        for value in values:  # type: ignore[union-attr]
            found = parse_value(value)
            if found is not None:
                return {"items": tuple(op.name for op in ground_operators(found.count))}
        return {}


KIND = register_answer_kind(PlanKind(), replace=True)
__all__ = ["ACTIONS", "KIND", "NAME", "PlanCheck", "PlanKind", "check_plan", "plan_credit",
           "read_plan"]
