"""Per-episode metrics of the withholding oracle (`infoseek.oracles.withholding`): what the
model did about the variables it could not learn. Pure: no Inspect imports, so reports
and tests call it on turn records read back from logs.

Read from the recorded turns and the episode's withheld set only (the seek options the
solver stored), never from what the model says:

- ``withheld_asked``: how many valid questions asked a withheld variable (each got the
  "unknown" reply);
- ``withheld_reasked``: how many questions asked a withheld variable again after its
  "unknown" reply (refused as repeated): not taking in that it cannot be learned;
- ``recovery``: for episodes that met a withheld variable while the target was still open,
  1.0 when the target became Known afterwards (sufficiency reached by another route, over
  what can still be learned), else 0.0; ``None`` (not applicable) for episodes that met
  none while the target was open.
- ``recognised_unlearnable``: only on episodes of the "or none" oracle
  (``-T oracle=withholding_all``), where the withheld set leaves no sufficient set
  learnable: 1.0 when the final answer is `infoseek.contract.UNDETERMINED` ("cannot be
  determined") given before the turn cap (not in the final turn the cap forces), else
  0.0. Absent under ``-T oracle=withholding``, whose episodes always keep a route open.

Known is the flag the solver recorded after each turn (the engine's verdict on the
replies received, which never include a withheld variable), so sufficiency here is
sufficiency over what can still be learned.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from infoseek.contract import UNDETERMINED
from infoseek.oracles.withholding import WITHHELD
from infoseek.scorers.seek_turns import (
    final_answer_turn,
    is_valid,
    known_after,
    possible_count,
    queries_of,
)

WITHHOLDING_METRIC_NAMES: tuple[str, ...] = ("recovery", "withheld_asked", "withheld_reasked")
"""The keys of :func:`withholding_metrics`, reported by the ``withholding`` scorer."""
RECOGNISED_METRIC = "recognised_unlearnable"
"""The key :func:`withholding_metrics` adds on ``none_learnable`` episodes."""


def withholding_metrics(turns: Sequence[dict], withheld: Iterable[str], *,
                        initial_possible: list | str,
                       none_learnable: bool = False) -> dict[str, float | None]:
    """The keys of :data:`WITHHOLDING_METRIC_NAMES` for one episode, and
    :data:`RECOGNISED_METRIC` when `none_learnable` (module docstring)."""
    hidden = {str(name) for name in withheld}
    known = possible_count(initial_possible) == 1
    told_unknown: set[str] = set()
    asked = reasked = 0
    met_open = False
    for turn in turns:
        for query in queries_of(turn):
            name = query.get("variable")
            if name is None or str(name) not in hidden:
                continue
            if is_valid(query) and query.get("value") == WITHHELD:
                asked += 1
                told_unknown.add(str(name))
                met_open = met_open or not known
            elif query.get("reason") == "repeated" and str(name) in told_unknown:
                reasked += 1
        known = known_after(turn, known)
    values: dict[str, float | None] = {
        "recovery": (1.0 if known else 0.0) if met_open else None,
        "withheld_asked": float(asked), "withheld_reasked": float(reasked)}
    if none_learnable:
        answer = final_answer_turn(turns)
        said = (answer is not None and answer.get("answer") == UNDETERMINED
                and answer.get("final_turn") is not True)
        values[RECOGNISED_METRIC] = 1.0 if said else 0.0
    return values
