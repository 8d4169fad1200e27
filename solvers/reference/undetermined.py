"""The reference models on problems no question can settle (issue 34,
``-T unanswerable=<share>``): the seek strategy the registry names for the ``seek``
protocol (`infoseek.solvers.reference.strategy`).

On a record its builder proved unanswerable with the exact engine (``unanswerable`` set,
an empty MSS family: no assignment of the askable variables pins the target), optimal
and reversed know at once that no question can settle it and answer
`infoseek.contract.UNDETERMINED` in their first turn (under force-ask, after asking the
first k askable variables in order, the least the rule allows). random plays as
everywhere (`infoseek.solvers.seek.strategy.seek_move`): it asks at random until the
cap or until nothing is left, then guesses a still-possible value, so it never says
"cannot be determined". Every other record goes to that strategy unchanged.

The same holds for an episode of the "or none" withholding oracle
(``-T oracle=withholding_all``), whose stored withheld set leaves no sufficient set
learnable (``none_learnable``, `infoseek.oracles.withholding.withheld_every_route`):
optimal and reversed say "cannot be determined" at once (under force-ask after the
first k learnable variables).
"""

from __future__ import annotations

import random
from typing import Any

from infoseek.contract import UNDETERMINED
from infoseek.record_views import askable_variables
from infoseek.solvers.seek.strategy import episode_state
from infoseek.solvers.seek.strategy import seek_move as ordinary_seek_move


def seek_move(model_name: str, protocol: str, problem: dict[str, Any],
              turns: list[dict[str, Any]], options: dict[str, Any],
              rng: random.Random) -> dict[str, Any]:
    """The next seek decision of `model_name` (module docstring)."""
    withholding = options.get("withholding") or {}
    closed = bool(withholding.get("none_learnable"))
    settles_nothing = closed or (problem.get("unanswerable") and not problem.get("mss_family"))
    if model_name == "random" or not settles_nothing:
        return ordinary_seek_move(model_name, protocol, problem, turns, options, rng)
    withheld = set(withholding.get("withheld") or ())
    _answers, asked = episode_state(turns)
    final = options.get("final_turn", False) or len(turns) >= int(options["max_turns"])
    if bool(options["force_ask"]) and len(asked) < problem.get("k", 0) and not final:
        remaining = [v for v in askable_variables(problem, options["forbid_alternatives"])
                     if v not in asked and v not in withheld]
        if remaining:
            per_turn = max(1, int(options["queries_per_turn"]))
            return {"kind": "ask", "variables": remaining[:per_turn]}
    return {"kind": "answer", "value": UNDETERMINED}
