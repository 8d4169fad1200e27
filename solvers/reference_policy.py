"""Decisions of the reference models `infoseek/optimal` and `infoseek/random`.

The provider in `infoseek.solvers.reference_models` calls `decide` with what the solver wrote to
the sample store: the protocol, the problem record, the turn records so far and the
solver options. Nothing here reads the prompt or the hidden target value.

* optimal: in the seek protocol asks the question that minimises the worst-case number
  of further questions (exact minimax, `infoseek.policies`) and answers as soon as the
  target is Known; states the exact k; names the canonical MSS.
* random: asks a uniformly random valid, not-yet-asked variable each turn and answers
  only when nothing is left to ask or the turn cap is reached (with the target when it
  is Known, else a random still-possible value); picks k-predictions and variable sets
  uniformly.
* reversed: on problems with a ``required_order`` asks its variables in reverse, then
  answers; on problems with a required order, optimal follows that order
  (`infoseek.solvers.ordered_policy`); elsewhere reversed asks as optimal does, and in the
  problem-level protocols it picks as random does.

Unbounded engines (the arithmetic engine over the rationals: the target's domain cannot
be listed, so the minimax search cannot range over the replies):

* optimal is the *canonical-MSS* policy: ask the members of ``mss_family[0]`` not yet
  answered, in order, then answer with the target value the engine computes from the
  answers once it is Known. It takes exactly k question turns (one query per turn) and is
  optimal in turn count because every sufficient set has at least k members, but it is
  not a minimax search;
* random asks a random askable quantity (distractors included) and, at the cap or when
  nothing is left, answers the Known value, else a random integer.
"""

from __future__ import annotations

import hashlib
import random
from collections import OrderedDict
from typing import Any

from infoseek.engine import Engine, is_listable, json_value
from infoseek.policies import MinimaxSearch
from infoseek.records import askable_variables, dumps_record, engine_from_record
from infoseek.solvers.ordered_policy import ORDERED_MODELS, ordered_seek_decision

K_CHOICES: tuple[Any, ...] = (0, 1, 2, 3, 4, "unsure")

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
                if query.get("value") is not None and query.get("value") != "unsure":
                    answers[query["variable"]] = query["value"]
    return answers, asked


def _rng(model_name: str, problem: dict[str, Any], turns: list, options: dict) -> random.Random:
    return random.Random(
        f"{model_name}:{options.get('seed', 0)}:{problem.get('id')}:"
        f"{options.get('target_index', 0)}:{len(turns)}"
    )


def decide(
    model_name: str,
    protocol: str,
    problem: dict[str, Any],
    turns: list[dict[str, Any]],
    options: dict[str, Any],
) -> dict[str, Any]:
    from infoseek.single_turn import SINGLE_TURN_PROTOCOLS
    from infoseek.solvers.single_turn_policy import BFS_MODELS, single_turn_decision

    if model_name not in ("optimal", "random", "reversed", *BFS_MODELS):
        raise ValueError(f"unknown reference model {model_name!r}")
    rng = _rng(model_name, problem, turns, options)
    if protocol in SINGLE_TURN_PROTOCOLS:
        return single_turn_decision(model_name, protocol, problem, options, rng)
    if model_name in BFS_MODELS:
        raise ValueError(f"infoseek/{model_name} plays the single-turn protocols only "
                         f"({', '.join(SINGLE_TURN_PROTOCOLS)}), not {protocol!r}")
    if protocol == "k_prediction":
        value = problem["k"] if model_name == "optimal" else rng.choice(K_CHOICES)
        return {"kind": "text", "text": f"Answer: {_k_text(value)}"}
    if protocol == "mss_identification":
        return {"kind": "text", "text": "Answer: " + ", ".join(_mss_pick(model_name, problem,
                                                                           options, rng))}
    if protocol == "incomplete":
        return _incomplete_decision(model_name, problem, turns, options, rng)
    if protocol != "seek":
        raise ValueError(f"unknown protocol {protocol!r}")
    return _seek_decision(model_name, problem, turns, options, rng)


def _k_text(value: Any) -> str:
    if value == 0:
        return "not ambiguous"
    if value == "unsure":
        return "ambiguous but not sure how many"
    return str(value)


def _mss_pick(model_name: str, problem: dict[str, Any], options: dict[str, Any],
              rng: random.Random) -> list[str]:
    forbid = options.get("forbid_alternatives", True)
    if model_name == "optimal":
        return list(problem["mss_family"][0])
    pool = askable_variables(problem, forbid)
    if options.get("k_given"):
        size = problem["k"]
    else:
        size = rng.randint(1, int(options.get("max_size", 4)))
    return sorted(rng.sample(pool, min(size, len(pool))))


def _seek_decision(model_name: str, problem: dict[str, Any], turns: list[dict[str, Any]],
                   options: dict[str, Any], rng: random.Random) -> dict[str, Any]:
    forbid = options.get("forbid_alternatives", True)
    candidates = askable_variables(problem, forbid)
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
    max_turns = int(options.get("max_turns", 10))
    per_turn = max(1, int(options.get("queries_per_turn", 1)))
    at_cap = options.get("final_turn", False) or len(turns) >= max_turns
    must_ask = options.get("force_ask", False) and len(asked) < problem.get("k", 0)
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
    max_turns = int(options.get("max_turns", 10))
    per_turn = max(1, int(options.get("queries_per_turn", 1)))
    at_cap = options.get("final_turn", False) or len(turns) >= max_turns
    must_ask = options.get("force_ask", False) and len(asked) < problem.get("k", 0)

    def final() -> dict[str, Any]:
        if known:
            return {"kind": "answer", "value": json_value(next(iter(values)))}
        return {"kind": "answer", "value": rng.randint(0, 999)}

    if model_name == "optimal":
        family = problem.get("mss_family") or [[]]
        plan = [v for v in family[0] if v not in answers and v not in asked]
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


def _incomplete_decision(model_name: str, problem: dict[str, Any], turns: list[dict[str, Any]],
                         options: dict[str, Any], rng: random.Random) -> dict[str, Any]:
    """Incomplete questions (SPEC 3.7); `problem` is the record, answer included.

    optimal is oracle-informed (an upper reference, not a solver): in the questionable
    variant it asks one question naming the condition's content words (preferring those
    the incomplete question also uses), then answers with the record's answer; in the
    other variants it answers at once. random answers at once with a random number.
    """
    from infoseek.solvers.incomplete_text import content_words

    if model_name == "random":
        return {"kind": "text", "text": f"<answer>\\boxed{{{rng.randint(0, 999)}}}</answer>"}
    asked = any(turn.get("behaviour") == "asked_question" for turn in turns)
    if (options.get("variant") == "questionable" and not asked
            and not options.get("final_turn", False)):
        condition_words = [w for w in content_words(problem["condition"]) if w.isalpha()]
        shared = [w for w in condition_words
                  if w in set(content_words(problem["new_question"]))]
        topic = ", ".join((shared or condition_words or ["the problem"])[:3])
        return {"kind": "text", "text": (
            "<think>The question leaves out something I need.</think>"
            f"<question>What is the missing detail about {topic}?</question>")}
    return {"kind": "text", "text": (
        f"<answer>The answer is \\boxed{{{problem['answer']}}}.</answer>")}
