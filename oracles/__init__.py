"""Oracles: who answers the model (adversarial, cooperative, random, world-backed) and
refusal rules."""

from infoseek.oracles.policies import (
    ORACLE_POLICIES,
    REFUSAL_REASONS,
    UNSURE,
    WORLD_POLICY,
    Oracle,
    check_query,
    refusal_text,
)

__all__ = ["ORACLE_POLICIES", "REFUSAL_REASONS", "UNSURE", "WORLD_POLICY", "Oracle",
           "check_query", "refusal_text"]
