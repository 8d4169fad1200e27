"""The reference models' strategy in the seek loop (protocols §3.1), registered for the
``seek`` protocol in `infoseek.solvers.reference.strategy`.

* optimal: asks the question that minimises the worst-case number of further questions
  (exact minimax, `infoseek.strategies`: the first such in candidate order; on engines
  with a sufficiency fast path the exact bounds of `infoseek.minimax_bounds` settle it
  where they meet, the game-tree search runs only where they do not) and answers as soon
  as the target is Known;
* random: asks a uniformly random valid, not-yet-asked variable each turn and answers
  only when nothing is left to ask or the turn cap is reached (with the target when it
  is Known, else a random still-possible value);
* reversed: on problems with a ``required_order`` asks its variables in reverse, then
  answers; on problems with a required order, optimal follows that order
  (`infoseek.solvers.seek.ordered_strategy`); elsewhere reversed asks as optimal does.

Under the withholding oracle (`infoseek.oracles.withholding`) the candidates are what can
still be learned: the askable variables minus the episode's withheld set, which the stored
options hold. optimal then plays its exact strategy over that set (it never asks a
withheld variable); random still draws from every askable variable and may meet one.

Unbounded engines (the arithmetic engine over the rationals: the target's domain cannot
be listed, so the minimax search cannot range over the replies):

* optimal is the *canonical-MSS* strategy: ask the members of ``mss_family[0]`` (under the
  withholding oracle: the MSS it keeps learnable) not yet answered, in order, then answer
  with the target value the engine computes from the answers once it is Known. It takes
  exactly k question turns (one query per turn) and is optimal in turn count because
  every sufficient set has at least k members, but it is not a minimax search;
* random asks a random askable quantity (distractors included) and, at the cap or when
  nothing is left, answers the Known value, else a random integer.

The rules come from the episode's stored options (`infoseek.solvers.seek.game.SeekOptions`,
as the solver stores them), read as they are: no default is kept here.
"""

from __future__ import annotations

import hashlib
import random
from collections import OrderedDict
from typing import Any

from infoseek.engine import Engine, is_listable, json_value
from infoseek.jsonl import dumps_record
from infoseek.oracles.policies import UNSURE
from infoseek.oracles.withholding import WITHHELD
from infoseek.record_views import askable_variables
from infoseek.records import engine_from_record
from infoseek.solvers.seek.ordered_strategy import ORDERED_MODELS, ordered_seek_decision
from infoseek.strategies import MinimaxSearch

NO_VALUE = (UNSURE, WITHHELD)
"""Recorded replies that reveal no value (the random oracle's doubt, a withheld variable)."""

_CACHE: OrderedDict[tuple, tuple[Engine, MinimaxSearch]] = OrderedDict()
_CACHE_SIZE = 1024  # above the samples in flight at once, so no engine is rebuilt per call


def _search_for(problem: dict[str, Any], candidates: list[str]) -> tuple[Engine, MinimaxSearch]:
    digest = hashlib.sha1(dumps_record(problem).encode()).hexdigest()
    key = (digest, tuple(candidates))
    if key in _CACHE:
        _CACHE.move_to_end(key)
        return _CACHE[key]
    engine = engine_from_record(problem)
    entry = (engine, MinimaxSearch(engine, candidates))
    _CACHE[key] = entry
    if len(_CACHE) > _CACHE_SIZE:
        _CACHE.popitem(last=False)
    return entry


def episode_state(turns: list[dict[str, Any]]) -> tuple[dict[str, Any], list[str]]:
    """(answers received, variables validly asked) from the turn records."""
    answers: dict[str, Any] = {}
    asked: list[str] = []
    for turn in turns:
        for query in turn.get("queries", []):
            if query.get("valid") and query.get("variable"):
                asked.append(query["variable"])
                if query.get("value") is not None and query.get("value") not in NO_VALUE:
                    answers[query["variable"]] = query["value"]
    return answers, asked


def _turn_rules(problem: dict[str, Any], turns: list[dict[str, Any]],
                options: dict[str, Any], asked: list[str]) -> tuple[bool, bool, int]:
    """(only an answer counts now, an answer would be refused under force-ask, the
    variables one turn may ask), from the episode's stored options
    (`infoseek.solvers.seek.game.SeekOptions.stored`, with the turn's ``final_turn``)."""
    at_cap = options.get("final_turn", False) or len(turns) >= int(options["max_turns"])
    must_ask = bool(options["force_ask"]) and len(asked) < problem.get("k", 0)
    return at_cap, must_ask, max(1, int(options["queries_per_turn"]))


def seek_move(model_name: str, protocol: str, problem: dict[str, Any],
              turns: list[dict[str, Any]], options: dict[str, Any],
              rng: random.Random) -> dict[str, Any]:
    """The next seek decision of `model_name` (module docstring)."""
    candidates = askable_variables(problem, options["forbid_alternatives"])
    if model_name != "random" and options.get("withholding"):
        withheld = set(options["withholding"]["withheld"])
        candidates = [v for v in candidates if v not in withheld]
    engine, search = _search_for(problem, candidates)
    answers, asked = episode_state(turns)
    if not is_listable(engine.domain(engine.target)):
        return _unbounded_seek_decision(model_name, problem, engine, candidates, answers,
                                        asked, turns, options, rng)
    remaining = [v for v in candidates if v not in asked]
    possible = [v for v in problem.get("target_values", [False, True])
                if v in engine.target_values(answers)]
    if not possible:  # cannot happen with a consistent oracle; answer something valid
        possible = list(problem.get("target_values", [False, True]))
    at_cap, must_ask, per_turn = _turn_rules(problem, turns, options, asked)
    known = len(possible) == 1

    if model_name in ORDERED_MODELS and problem.get("required_order"):
        decision = ordered_seek_decision(
            model_name, problem, engine, candidates, answers, asked, possible,
            at_cap=at_cap, must_ask=must_ask, per_turn=per_turn, rng=rng)
        if decision is not None:
            return decision

    if model_name in ("optimal", "reversed"):
        if (known and not must_ask) or at_cap or not remaining:
            return {"kind": "answer", "value": possible[0] if known else rng.choice(possible)}
        picks: list[str] = []
        state = dict(answers)
        for _ in range(per_turn):
            choice, _depth = search.best(state, len(remaining))
            if choice is None:
                # Known already (force-ask) or no strategy: ask any remaining variable.
                choice = next((v for v in remaining if v not in picks), None)
            if choice is None:
                break
            picks.append(choice)
            # Batched questions are answered together: plan the next pick against the
            # reply that keeps the most target values possible (the adversary's).
            values = sorted(engine.variable_values(choice, state), key=str)
            if not values:
                break
            state[choice] = max(values, key=lambda v: len(engine.target_values(
                {**state, choice: v})))
            if len(engine.target_values(state)) <= 1:
                break
        return {"kind": "ask", "variables": picks}

    if at_cap or not remaining:
        return {"kind": "answer", "value": possible[0] if known else rng.choice(possible)}
    picks = rng.sample(remaining, min(per_turn, len(remaining)))
    return {"kind": "ask", "variables": picks}


def _unbounded_seek_decision(
    model_name: str, problem: dict[str, Any], engine: Engine, candidates: list[str],
    answers: dict[str, Any], asked: list[str], turns: list[dict[str, Any]],
    options: dict[str, Any], rng: random.Random,
) -> dict[str, Any]:
    """The seek decision when the target's values cannot be enumerated (module docstring)."""
    values = engine.target_values(answers)
    known = len(values) == 1
    at_cap, must_ask, per_turn = _turn_rules(problem, turns, options, asked)

    def final() -> dict[str, Any]:
        if known:
            return {"kind": "answer", "value": json_value(next(iter(values)))}
        return {"kind": "answer", "value": rng.randint(0, 999)}

    if model_name == "optimal":
        family = problem.get("mss_family") or [[]]
        withholding = options.get("withholding")
        route = withholding["kept"] if withholding else family[0]  # an MSS left learnable
        plan = [v for v in route if v not in answers and v not in asked]
        if (known and not must_ask) or at_cap:
            return final()
        if not plan and must_ask:
            plan = [v for v in candidates if v not in asked]
        if not plan:
            return final()
        return {"kind": "ask", "variables": plan[:per_turn]}

    remaining = [v for v in candidates if v not in asked]
    if at_cap or not remaining:
        return final()
    return {"kind": "ask", "variables": rng.sample(remaining, min(per_turn, len(remaining)))}
