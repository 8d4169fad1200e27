"""The reference models' strategy in the problem-level protocols (protocols §3.2, 3.3),
registered for ``k_prediction`` and ``mss_identification`` in
`infoseek.solvers.reference.strategy`.

* k-prediction: optimal states the record's exact k; random and reversed pick one of
  `K_CHOICES` uniformly.
* MSS identification: optimal names the canonical MSS; random and reversed name a
  uniformly random set of askable variables (of size k when the prompt gives it, else
  1..``max_size``), read from the stored options
  (`infoseek.solvers.problem_level.game.ProblemLevelOptions`) with no default kept here.
"""

from __future__ import annotations

import random
from typing import Any

from infoseek.record_views import askable_variables

K_CHOICES: tuple[Any, ...] = (0, 1, 2, 3, 4, "unsure")


def k_prediction_move(model_name: str, protocol: str, problem: dict[str, Any],
                      turns: list[dict[str, Any]], options: dict[str, Any],
                      rng: random.Random) -> dict[str, Any]:
    """The k the model states, as an ``Answer:`` line."""
    value = problem["k"] if model_name == "optimal" else rng.choice(K_CHOICES)
    return {"kind": "text", "text": f"Answer: {_k_text(value)}"}


def mss_move(model_name: str, protocol: str, problem: dict[str, Any],
             turns: list[dict[str, Any]], options: dict[str, Any],
             rng: random.Random) -> dict[str, Any]:
    """The variable set the model names, as an ``Answer:`` line."""
    return {"kind": "text",
            "text": "Answer: " + ", ".join(_mss_pick(model_name, problem, options, rng))}


def _k_text(value: Any) -> str:
    if value == 0:
        return "not ambiguous"
    if value == "unsure":
        return "ambiguous but not sure how many"
    return str(value)


def _mss_pick(model_name: str, problem: dict[str, Any], options: dict[str, Any],
              rng: random.Random) -> list[str]:
    if model_name == "optimal":
        return list(problem["mss_family"][0])
    pool = askable_variables(problem, options["forbid_alternatives"])
    if options["k_given"]:
        size = problem["k"]
    else:
        size = rng.randint(1, int(options["max_size"]))
    return sorted(rng.sample(pool, min(size, len(pool))))
