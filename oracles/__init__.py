"""Oracles: who answers the model (adversarial, cooperative, random) and refusal rules."""

from oracles.policies import (
    ORACLE_POLICIES,
    REFUSAL_REASONS,
    UNSURE,
    Oracle,
    check_query,
    refusal_text,
)

__all__ = ["ORACLE_POLICIES", "REFUSAL_REASONS", "UNSURE", "Oracle", "check_query", "refusal_text"]
