"""How the reference models `infoseek/optimal`, `infoseek/random`, ... move: one strategy
per protocol, in a registry.

The provider in `infoseek.solvers.reference.models` calls `decide` with what the solver wrote to
the sample store: the protocol, the problem record, the turn records so far and the
solver options. Nothing here reads the prompt or the hidden target value.

A protocol joins with one line, `register_strategy`, naming the function that moves in
it (or a ``"module:function"`` path imported on first use, so importing this module
imports no strategy) and the reference models that play it. The built-in protocols are
registered at the bottom of this module:

* seek (`infoseek.solvers.seek.strategy`): optimal asks the question that minimises the
  worst-case number of further questions (exact minimax, `infoseek.strategies`) and
  answers as soon as the target is Known; random asks a random valid variable; reversed
  asks a required order backwards (`infoseek.solvers.seek.ordered_strategy`); on a problem
  no question can settle, optimal and reversed say so (`infoseek.solvers.reference.undetermined`);
* k-prediction and MSS identification (`infoseek.solvers.problem_level.strategy`);
* incomplete questions (`infoseek.solvers.incomplete.strategy`);
* the single-turn protocols (`infoseek.solvers.single_turn.strategy`), the only ones the
  backward-search models ``bfs-D`` play.

A strategy is called as ``move(model_name, protocol, problem, turns, options, rng)``;
``rng`` is seeded by the model, the options' seed, the problem, the target index and
the number of turns so far, so the same store always gives the same move. It returns a
decision: ``{"kind": "ask", "variables": [...]}``, ``{"kind": "answer", "value": v}``
or ``{"kind": "text", "text": ...}``.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from infoseek.contract import SINGLE_TURN_PROTOCOLS
from infoseek.domains import resolve

Move = Callable[[str, str, dict[str, Any], list[dict[str, Any]], dict[str, Any],
                 random.Random], dict[str, Any]]
"""``move(model_name, protocol, problem, turns, options, rng) -> decision``."""

GENERAL_MODELS: tuple[str, ...] = ("optimal", "random", "reversed")
"""The reference models that play every protocol."""
BFS_DEPTHS: tuple[int, ...] = (3, 5, 10)
BFS_MODELS: tuple[str, ...] = tuple(f"bfs-{depth}" for depth in BFS_DEPTHS)
"""Backward search to depth D (`infoseek.single_turn.bfs_pick`): single-turn protocols."""
REFERENCE_MODEL_NAMES: tuple[str, ...] = (*GENERAL_MODELS, *BFS_MODELS)
"""Every reference model, as named after the ``infoseek/`` prefix."""


@dataclass(frozen=True)
class Strategy:
    """How the reference models move in one protocol."""

    move: Move | str
    """The function, or its ``"module:function"`` path."""
    models: tuple[str, ...]
    """The reference models that play the protocol."""


_STRATEGIES: dict[str, Strategy] = {}


def register_strategy(protocol: str, move: Move | str,
                      models: Sequence[str] = GENERAL_MODELS) -> None:
    """Let the reference `models` play `protocol` by `move` (a function or its
    ``"module:function"`` path); registering a protocol again replaces its strategy."""
    unknown = [name for name in models if name not in REFERENCE_MODEL_NAMES]
    if unknown:
        raise ValueError(f"unknown reference models {unknown}; the reference models are "
                         f"{', '.join(REFERENCE_MODEL_NAMES)}")
    _STRATEGIES[protocol] = Strategy(move, tuple(models))


def strategy(protocol: str) -> Strategy:
    """The strategy registered for `protocol` (ValueError naming the registered ones)."""
    if protocol not in _STRATEGIES:
        raise ValueError(f"unknown protocol {protocol!r}; the reference models play "
                         f"{', '.join(_STRATEGIES)}")
    return _STRATEGIES[protocol]


def _rng(model_name: str, problem: dict[str, Any], turns: list, options: dict) -> random.Random:
    """The reference's random stream at this point of this episode. From the second
    repeat of a sample on (``--epochs``), the stored ``epoch`` joins the seed, so each
    repeat is a fresh draw; the first repeat's stream is the same as without epochs."""
    epoch = options.get("epoch", 1)
    return random.Random(
        f"{model_name}:{options.get('seed', 0)}:{problem.get('id')}:"
        f"{options.get('target_index', 0)}:{len(turns)}" + (f":epoch{epoch}" if epoch > 1 else "")
    )


def decide(
    model_name: str,
    protocol: str,
    problem: dict[str, Any],
    turns: list[dict[str, Any]],
    options: dict[str, Any],
) -> dict[str, Any]:
    """The move of reference model `model_name` in `protocol` at this point."""
    if model_name not in REFERENCE_MODEL_NAMES:
        raise ValueError(f"unknown reference model {model_name!r}")
    found = strategy(protocol)
    if model_name not in found.models:
        raise ValueError(f"infoseek/{model_name} does not play the {protocol!r} protocol; "
                         f"it is played by {', '.join(found.models)}")
    rng = _rng(model_name, problem, turns, options)
    return resolve(found.move)(model_name, protocol, problem, turns, options, rng)


register_strategy("seek", "infoseek.solvers.reference.undetermined:seek_move")
register_strategy("k_prediction", "infoseek.solvers.problem_level.strategy:k_prediction_move")
register_strategy("mss_identification", "infoseek.solvers.problem_level.strategy:mss_move")
register_strategy("incomplete", "infoseek.solvers.incomplete.strategy:incomplete_move")
register_strategy("twenty_questions",
                  "infoseek.solvers.twenty_questions.strategy:twenty_questions_move")
for _protocol in SINGLE_TURN_PROTOCOLS:
    register_strategy(_protocol, "infoseek.solvers.single_turn.strategy:single_turn_move",
                      models=REFERENCE_MODEL_NAMES)
