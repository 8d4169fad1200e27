"""The reference models' strategy for incomplete questions (protocols §3.7), registered for
the ``incomplete`` protocol in `infoseek.solvers.reference.strategy`.

optimal (and reversed) is oracle-informed (an upper reference, not a solver): in the
questionable variant it asks one question naming the condition's content words
(preferring those the incomplete question also uses), then answers with the record's
answer; in the other variants it answers at once. random answers at once with a random
number.
"""

from __future__ import annotations

import random
from typing import Any

from infoseek.solvers.incomplete.user import content_words


def incomplete_move(model_name: str, protocol: str, problem: dict[str, Any],
                    turns: list[dict[str, Any]], options: dict[str, Any],
                    rng: random.Random) -> dict[str, Any]:
    """The next reply of `model_name` (module docstring); `problem` is the record,
    answer included."""
    if model_name == "random":
        return {"kind": "text", "text": f"<answer>\\boxed{{{rng.randint(0, 999)}}}</answer>"}
    asked = any(turn.get("behaviour") == "asked_question" for turn in turns)
    if (options.get("variant") == "questionable" and not asked
            and not options.get("final_turn", False)):
        condition_words = [w for w in content_words(problem["condition"]) if w.isalpha()]
        shared = [w for w in condition_words
                  if w in set(content_words(problem["new_question"]))]
        topic = ", ".join((shared or condition_words or ["the problem"])[:3])
        return {"kind": "text", "text": (
            "<think>The question leaves out something I need.</think>"
            f"<question>What is the missing detail about {topic}?</question>")}
    return {"kind": "text", "text": (
        f"<answer>The answer is \\boxed{{{problem['answer']}}}.</answer>")}
