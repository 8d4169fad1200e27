"""What the model sees of a Twenty Questions CSP problem (k-prediction, MSS
identification): the candidates left, what is known of X, the attributes it may ask."""

from __future__ import annotations

from typing import Any

from infoseek.record_views import askable_variables


def render(record: dict[str, Any], *, forbid_alternatives: bool = False) -> str:
    questions = record["questions"]
    lines = ["X is exactly one of these candidates: "
             + ", ".join(record["target_values"]) + "."]
    if record["observed"]:
        lines.append("What is known about X (attribute: question: answer):")
        lines += [f"- {a}: {questions[a]} {v}" for a, v in record["observed"].items()]
    lines.append("Attributes you may ask about (by the exact name; each is yes, no or pass):")
    lines += [f"- {a}: {questions[a]}"
              for a in askable_variables(record, forbid_alternatives)]
    lines.append("Which candidate is X?")
    return "\n".join(lines)
