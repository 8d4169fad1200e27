"""Belief over a Twenty Questions candidate pool and the information a question carries
(protocols §4; the paper's D.5.4-D.5.5). Pure: the scorers report these
(`infoseek.scorers.twenty_questions_metrics`), the reference guesser maximises the EIG
(`infoseek.solvers.twenty_questions.strategy`).

Labels and evidence are ``yes`` / ``no`` / ``pass``. The likelihood of evidence ``a`` for a
candidate labelled ``g`` is 0.98 when ``g == a``, 0.50 when ``g`` is pass (and ``a`` is
not), 0.02 otherwise; the update multiplies and renormalises. The soft EIG renormalises
the likelihood over the three answers (``Lbar``) and is the mutual information of the
target and the answer: ``H(p) - sum_a P(a) H(p_a)``. A failed label (``fail``: the
evaluator gave none) is treated as pass here; the scorer counts it.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

MATCH, PASS_LABEL, MISMATCH = 0.98, 0.50, 0.02
EPSILON = 1e-12
ANSWERS: tuple[str, ...] = ("yes", "no", "pass")
FAILED = "fail"


def likelihood(label: str, answer: str) -> float:
    """L(answer | candidate labelled `label`); a failed label counts as pass."""
    label = "pass" if label == FAILED else label
    if label == answer:
        return MATCH
    if label == "pass":
        return PASS_LABEL
    return MISMATCH


def uniform(count: int) -> list[float]:
    return [1.0 / count] * count


def entropy(belief: Sequence[float]) -> float:
    return -sum(p * math.log(p) for p in belief if p > 0)


def update(belief: Sequence[float], labels: Sequence[str], answer: str) -> list[float]:
    """The belief after `answer` to a question labelled `labels`."""
    weights = [p * likelihood(g, answer) for p, g in zip(belief, labels, strict=True)]
    total = sum(weights)
    return [w / total for w in weights]


def expected_information_gain(belief: Sequence[float], labels: Sequence[str]) -> float:
    """The soft EIG of a question (module docstring)."""
    norm = {g: sum(likelihood(g, a) for a in ANSWERS) for g in (*ANSWERS, FAILED)}
    gain = entropy(belief)
    for answer in ANSWERS:
        weights = [p * likelihood(g, answer) / norm[g]
                   for p, g in zip(belief, labels, strict=True)]
        mass = sum(weights)
        if mass > 0:
            gain -= mass * entropy([w / mass for w in weights])
    return gain


def pass_mass(belief: Sequence[float], labels: Sequence[str]) -> float:
    return sum(p for p, g in zip(belief, labels, strict=True) if g in ("pass", FAILED))
