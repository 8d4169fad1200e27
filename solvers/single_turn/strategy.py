"""The reference models' strategy in the single-turn protocols (protocols §3.4-3.6),
registered for each of them in `infoseek.solvers.reference.strategy`.

Read from the store like every reference model (never the prompt): the problem record
without its hidden fields and the option list.

* optimal: picks the first sufficient option (option order), or "No questions needed"
  when the target is Known; detection: the Known value, else "Not sure"; solving: the
  Known value.
* bfs-D (D = 3, 5, 10): backward search from the target to depth D
  (`infoseek.single_turn.bfs_pick`): the first sufficient option reached within D
  levels; "No questions needed" on a Known target only when the search reaches it
  within D (`infoseek.single_turn.settling_depth`: on Planning-Q the row's published
  depth, elsewhere 0). When the search settles nothing within D it guesses a uniformly
  random option, except on planning, where it gives no answer (a reply without an
  answer line, read as ``no_action``). What we followed: the QuestBench paper says only
  that its BFS baseline runs breadth-first search to depth 3, 5 and 10 (Table 2: 5.75 /
  27.2 / 93.9% on Planning-Q); its depth axis is the released ``min_depth``, and those
  numbers are the share of rows whose ``min_depth`` is within D (our split built its way
  has 5.9 / 27.1 / 94.2% there), so it credits a row exactly when its depth is within D
  and never by a guess. Detection and solving as optimal (deciding Known needs no
  search).
* random: a uniformly random option; detection: "Not sure" or a random possible value
  with equal chance; solving: a random possible value (a random integer when the values
  cannot be listed).
"""

from __future__ import annotations

import random
from typing import Any

from infoseek.answers import answer_kind
from infoseek.domains import UnknownDomain, domain_of
from infoseek.engine import is_unbounded, json_value
from infoseek.records import engine_from_record
from infoseek.single_turn import (
    NO_QUESTION,
    NOT_SURE,
    bfs_pick,
    plan_depths,
    settling_depth,
    sufficient_options,
)
from infoseek.solvers.dataset import value_label
from infoseek.solvers.reference.strategy import BFS_MODELS


def _answer(text: Any) -> dict[str, Any]:
    return {"kind": "text", "text": f"Answer: {text}"}


def single_turn_move(model_name: str, protocol: str, problem: dict[str, Any],
                     turns: list[dict[str, Any]], options: dict[str, Any],
                     rng: random.Random) -> dict[str, Any]:
    """The one answer of `model_name` (module docstring)."""
    engine = engine_from_record(problem)
    values = engine.target_values()
    known = len(values) == 1 and not is_unbounded(values)
    if protocol == "question_selection":
        choices = list(options.get("choices") or [NO_QUESTION])
        variables = [c for c in choices if c != NO_QUESTION]
        if model_name == "random":
            return _answer(rng.randrange(len(choices)) + 1)
        if model_name in BFS_MODELS:
            depth = int(model_name.removeprefix("bfs-"))
            pick = bfs_pick(engine, variables, sufficient_options(engine, variables), depth,
                            settling_depth(problem, engine))
            if pick is None and plan_depths(engine) is not None:
                return {"kind": "text", "text": f"Backward search to depth {depth} settles "
                        "nothing here, so I give no answer."}
        else:  # optimal, and any other exact reference model (no order to follow here)
            found = sufficient_options(engine, variables)
            pick = NO_QUESTION if known else (found[0] if found else None)
        if pick is None:
            return _answer(rng.randrange(len(choices)) + 1)
        return _answer(choices.index(pick) + 1)
    if model_name != "random":
        if known:
            return _answer(_label(problem, json_value(next(iter(values)))))
        return _answer(NOT_SURE if protocol == "detection" else _random_value(problem, rng))
    if protocol == "detection" and rng.random() < 0.5:
        return _answer(NOT_SURE)
    return _answer(_random_value(problem, rng))


def _random_value(problem: dict[str, Any], rng: random.Random) -> str:
    listed = problem.get("target_values") or []
    if not listed:  # values that cannot be listed (numbers): a random integer
        return str(rng.randint(0, 999))
    return _label(problem, rng.choice(listed))


def _label(problem: dict[str, Any], value: Any) -> str:
    """A value as the domain's answer kind writes it (a plan set: one of its plans)."""
    try:
        return answer_kind(domain_of(problem).answer_kind).label(value)
    except UnknownDomain:
        return value_label(value)
