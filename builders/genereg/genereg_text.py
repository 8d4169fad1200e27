"""How a GeneReg-MT problem reads: the rules, the attractor catalogue, the known genes,
the genes that may be asked about, and the goal (protocols §5.4). Like every domain's
problem text it holds no action line (a ``Question:`` or ``Answer:`` line the seek reader
would take for the model's own when echoed) and no template line of the prompt."""

from __future__ import annotations

from typing import Any

from infoseek.record_views import askable_variables


def _on_genes(code: int, genes: list[str]) -> str:
    on = [g for i, g in enumerate(genes) if (code >> i) & 1]
    return "on: " + (", ".join(on) if on else "none") + "; every other gene off"


def catalogue_lines(record: dict[str, Any]) -> list[str]:
    spec = record["engine"]
    genes = spec["genes"]
    lines = []
    for entry in spec["catalogue"]:
        states = entry["states"]
        if len(states) == 1:
            lines.append(f"  {entry['id']} (fixed point): {_on_genes(states[0], genes)}")
        else:
            lines.append(f"  {entry['id']} (cycle of {len(states)} states, in update order):")
            lines += [f"      state {i}: {_on_genes(code, genes)}"
                      for i, code in enumerate(states, 1)]
    return lines


def render_genereg_problem(record: dict[str, Any], *, forbid_alternatives: bool = False) -> str:
    spec = record["engine"]
    steady = spec["kind"] == "boolnet-steady"
    genes = spec["genes"]
    rules = spec["rules"]
    regulated = {line.split("=", 1)[0].strip() for line in rules}
    inputs = [g for g in genes if g not in regulated]
    lines = ["A gene regulatory network: every gene is either on (1) or off (0). Each rule "
             "below gives a gene's next value from the current values of its regulators."]
    lines += [f"  {rule}" for rule in rules]
    if inputs:
        lines.append("External inputs (no rule; they keep their value): "
                     + ", ".join(inputs) + ".")
    if steady:
        lines.append("The cell is in a steady state: every gene already equals the value its "
                     "rule gives. These are all the steady states of the network:")
    else:
        lines.append("All genes are updated at the same time, step after step, from an "
                     "initial state until the cell settles in an attractor. These are all "
                     "the attractors of the network:")
    lines += catalogue_lines(record)
    where = "in the steady state" if steady else "in the initial state"
    known = ", ".join(f"{g} = {v}" for g, v in record["observed"].items())
    lines.append(f"Known genes {where}: " + (known or "none") + ".")
    askable = askable_variables(record, forbid_alternatives)
    lines.append(f"Genes you may ask about ({where}): " + ", ".join(askable) + ".")
    target = spec.get("target", {"type": "attractor"})
    if target["type"] == "marker":
        lines.append(f"Goal: find the value (0 or 1) of the marker gene {target['gene']} in "
                     "the attractor the cell reaches.")
    elif steady:
        lines.append("Goal: find which steady state the cell is in (give its id).")
    else:
        lines.append("Goal: find which attractor the cell reaches (give its id).")
    return "\n".join(lines)
