"""Model-backed roles measured against exact truth (protocols §3.8): per-sample counts
from the role ledger (`infoseek.contract.STORE_ROLES`, written by
`infoseek.oracles.roles.record_role_reply`) and the pooled per-role error rate.

Value keys a scorer adds when some role model replied in the sample (absent otherwise,
so runs without role models keep their keys):

- ``role_<role>_measured``: the role's replies the suite could check against its exact
  truth (for the evaluator: candidate labels, an entry per question carrying ``checked``
  and ``errors`` counts); ``role_<role>_wrong``: those that were wrong;
  ``role_<role>_raised``: calls in which the role's model raised (the rule answered
  instead; not measured);
- ``role_error_episodes``: 1 when the episode had at least one wrong role reply (a
  seeker's result in such an episode is not the seeker's alone), else 0.

`role_error_rates` reports ``<role>_error_rate`` = wrong / measured over all samples
(pooled, not a mean of per-sample rates) and ``<role>_measured`` (the count), for every
role with a measured reply.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from inspect_ai.scorer import Metric, SampleScore, Value, metric

ROLES: tuple[str, ...] = ("matcher", "examiner", "evaluator", "user", "judge", "transfer")
"""Every model-backed role, in report order."""
ROLE_ERROR_EPISODES = "role_error_episodes"


def _checked(entry: Mapping[str, Any]) -> int:
    """Replies (or, for the evaluator, labels) an entry measured: its ``checked`` count,
    else 1 when it has a verdict."""
    count = entry.get("checked")
    return int(count) if isinstance(count, int) else int(entry.get("wrong") is not None)


def _errors(entry: Mapping[str, Any]) -> int:
    count = entry.get("errors")
    return int(count) if isinstance(count, int) else int(entry.get("wrong") is True)


def role_values(ledger: Iterable[Mapping[str, Any]]) -> dict[str, float]:
    """The per-sample role counts of one episode's ledger (module docstring); {} when
    no role model replied."""
    entries = list(ledger)
    if not entries:
        return {}
    values: dict[str, float] = {}
    for role in ROLES:
        mine = [e for e in entries if e.get("role") == role]
        if not mine:
            continue
        values[f"role_{role}_measured"] = float(sum(_checked(e) for e in mine))
        values[f"role_{role}_wrong"] = float(sum(_errors(e) for e in mine))
        values[f"role_{role}_raised"] = float(sum(e.get("raised") is not None for e in mine))
    values[ROLE_ERROR_EPISODES] = float(any(e.get("wrong") is True for e in entries))
    return values


def pooled_error_rates(values: Iterable[Mapping[str, Any]]) -> dict[str, float]:
    """``<role>_error_rate`` and ``<role>_measured`` over many samples' values."""
    measured: dict[str, float] = {}
    wrong: dict[str, float] = {}
    for value in values:
        for role in ROLES:
            count = value.get(f"role_{role}_measured")
            if isinstance(count, int | float) and count == count and count > 0:
                measured[role] = measured.get(role, 0.0) + float(count)
                wrong[role] = wrong.get(role, 0.0) + float(value.get(f"role_{role}_wrong", 0.0))
    result: dict[str, float] = {}
    for role in ROLES:
        if measured.get(role):
            result[f"{role}_error_rate"] = wrong[role] / measured[role]
            result[f"{role}_measured"] = measured[role]
    return result


@metric
def role_error_rates() -> Metric:
    """Each role's pooled error rate against exact truth (module docstring)."""

    def compute(scores: list[SampleScore]) -> Value:
        return pooled_error_rates(s.score.value for s in scores
                                  if isinstance(s.score.value, dict))

    return compute
