"""Oracles: who answers the model (adversarial, cooperative, random, world-backed, and
withholding, `infoseek.oracles.withholding`), the
refusals and corrections it gives instead of a value, and the one door to a bound model
role (`infoseek.oracles.roles`). The seek turn they answer is played in the seek game
(`infoseek.solvers.seek.game.play_turn`)."""

from infoseek.oracles.policies import (
    ORACLE_POLICIES,
    UNSURE,
    WORLD_POLICY,
    Oracle,
    check_policy,
)
from infoseek.oracles.refusals import REFUSAL_REASONS, check_query, refusal_text
from infoseek.oracles.withholding import WITHHELD, WITHHOLDING_ALL_POLICY, WITHHOLDING_POLICY

__all__ = ["ORACLE_POLICIES", "REFUSAL_REASONS", "UNSURE", "WITHHELD", "WITHHOLDING_ALL_POLICY",
           "WITHHOLDING_POLICY",
           "WORLD_POLICY", "Oracle", "check_policy", "check_query", "refusal_text"]
