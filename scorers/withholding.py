"""The ``withholding`` scorer: the seek tasks add it to their four scorers when they run
under the withholding oracle (``-T oracle=withholding``, `infoseek.oracles.withholding`).

Its values are ``recovery``, ``withheld_asked`` and ``withheld_reasked``, and under the
"or none" oracle (``-T oracle=withholding_all``) ``recognised_unlearnable``
(`infoseek.scorers.withholding_metrics`), grouped by ``k`` like every seek metric; its
metadata holds the episode's withheld set, the MSS kept learnable and ``learnable_k``
(the exact k over what can still be learned), as the solver stored them.
"""

from __future__ import annotations

import math

from inspect_ai.scorer import Score, Scorer, Target, scorer
from inspect_ai.solver import TaskState

from infoseek.scorers.group_metric import mean_by_group
from infoseek.scorers.seek import seek_episode
from infoseek.scorers.withholding_metrics import withholding_metrics
from infoseek.stored_forms import stored_option


def withholding_explanation(values: dict[str, float | None], withheld: list[str]) -> str:
    """E.g. ``"withheld: a, c; asked 1 withheld; recovered"``."""
    text = f"withheld: {', '.join(withheld) or 'none'}; asked {int(values['withheld_asked'] or 0)}"
    text += " withheld"
    if values.get("withheld_reasked"):
        text += f", {int(values['withheld_reasked'])} again after 'unknown'"
    recovery = values.get("recovery")
    if recovery is not None:
        text += "; recovered" if recovery == 1.0 else "; did not recover"
    recognised = values.get("recognised_unlearnable")
    if recognised is not None:
        text += ("; said it cannot be determined" if recognised == 1.0
                 else "; did not say in time that it cannot be determined")
    return text


@scorer(metrics=[mean_by_group()], name="withholding")
def withholding_scorer() -> Scorer:
    """Seek episode under the withholding oracle, ``withholding``: ``recovery``,
    ``withheld_asked``, ``withheld_reasked`` (and ``recognised_unlearnable`` under
    ``withholding_all``; module docstring)."""

    async def score(state: TaskState, target: Target) -> Score:
        episode = seek_episode(state, target)
        chosen = stored_option(state.store, "withholding")
        values = withholding_metrics(episode.turns, chosen["withheld"],
                                     initial_possible=episode.initial_possible,
                                     none_learnable=bool(chosen.get("none_learnable")))
        return Score(
            value={name: math.nan if v is None else float(v) for name, v in values.items()},
            explanation=withholding_explanation(values, list(chosen["withheld"])),
            metadata={"withholding": chosen},
        )

    return score
