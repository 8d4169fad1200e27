"""What the model sees of a ClinGuide-MT problem, closed-book or open-book.

Closed-book (``render``): the presenting problem, what is known of the patient (the
observed prefix), the clinical variables it may ask about (its own tree's not yet known
and the distractors, by name) and the recommendations to choose from (those still
reachable). Open-book (``render_open_book``): the same, after every guideline tree of
the collection written out in the project's wording, so the model must still find the
right tree and node.
"""

from __future__ import annotations

from typing import Any

from infoseek.builders.clinguide.trees import GuidelineTree, load_trees
from infoseek.record_views import askable_variables


def render(record: dict[str, Any], *, forbid_alternatives: bool = False) -> str:
    """The closed-book prompt of a record."""
    tree = record["tree"]
    lines = [f"A patient presents to you with this problem: {tree['title']} "
             f"(clinical area: {tree['area']})."]
    if record["observed"]:
        lines.append("What is known about the patient so far:")
        lines += [f"- {var}: {value}" for var, value in record["observed"].items()]
    else:
        lines.append("Nothing else is known about the patient yet.")
    lines.append("Clinical variables you may ask about (ask by the exact name):")
    lines += [f"- {name}" for name in askable_variables(record, forbid_alternatives)]
    lines.append("The guideline's recommendation for this patient is exactly one of:")
    lines += [f"- {value}" for value in record["target_values"]]
    lines.append("Which recommendation does the guideline give for this patient?")
    return "\n".join(lines)


def tree_text(tree: GuidelineTree) -> str:
    """One guideline tree as indented text: each question, its answers, where they lead."""
    lines = [f"Guideline: {tree.title} (clinical area: {tree.area}; based on {tree.source})"]

    def walk(node: dict[str, Any], depth: int) -> None:
        pad = "  " * depth
        for branch in node["branches"]:
            answer = " or ".join(branch["values"])
            child = branch["then"]
            if "leaf" in child:
                lines.append(f"{pad}- if {node['ask']} is {answer}: recommend {child['leaf']}")
            else:
                lines.append(f"{pad}- if {node['ask']} is {answer}: next ask {child['ask']}")
                walk(child, depth + 1)

    lines.append(f"  Start by asking {tree.tree['ask']}.")
    walk(tree.tree, 1)
    return "\n".join(lines)


def guideline_book(trees: list[GuidelineTree] | None = None) -> str:
    """Every tree of the collection, in file order."""
    return "\n\n".join(tree_text(t) for t in (trees or load_trees()))


def render_open_book(record: dict[str, Any], *, forbid_alternatives: bool = False) -> str:
    """The open-book prompt: the guideline book, then the closed-book problem."""
    return ("Reference: the guideline decision trees you may use.\n\n" + guideline_book()
            + "\n\nThe case:\n" + render(record, forbid_alternatives=forbid_alternatives))
