"""The reference guessers of Twenty Questions, registered for the ``twenty_questions``
protocol in `infoseek.solvers.reference.strategy`.

Both read the game record (without its hidden target) and the turns so far from the
store, ask only the table's attribute questions (``Is X alive?``) and believe the
examiner's answers: the candidates left are those whose cell equals every answer.

- optimal: once one candidate is left, asks the guess question ``Is X <name>?`` (its
  confirmation is evidence too, so the belief ends near certainty); on the final turn
  guesses (``Guess: <name>``: the first candidate left, the first of the pool when none
  is); otherwise asks the
  unasked attribute of the greatest soft expected information gain (`infoseek.twenty_questions`)
  under a uniform belief over the candidates left, the first in table order on a tie.
- random: asks a random unasked attribute every turn but the last, then guesses a random
  candidate among those left.

A candidate without a table row (``?`` cells: a name-list pool, labelled by an evaluator
model) counts as pass in the information gain and never matches an answer, so it is not
among the candidates left once a question is answered.
"""

from __future__ import annotations

import random
from typing import Any

from infoseek.solvers.twenty_questions.game import GameTable, consistent_candidates, table_labels
from infoseek.twenty_questions import expected_information_gain, uniform


def _state(problem: dict[str, Any], turns: list[dict[str, Any]]
           ) -> tuple[GameTable, list[str], set[str]]:
    table = GameTable.from_record(problem)
    answered = [(table_labels(t["question"], t.get("guess"), table), t["evidence"])
                for t in turns if t.get("question") and t.get("evidence")]
    asked = {t["question"] for t in turns if t.get("question")}
    return table, consistent_candidates(table, answered), asked


def best_question(table: GameTable, left: list[str], asked: set[str]) -> str | None:
    """The attribute question of greatest EIG over the candidates left (None: none
    tells them apart)."""
    rows = [table.rows[table.candidates.index(c)] for c in left]
    belief = uniform(len(left))
    best, best_gain = None, 1e-12
    letter = {"y": "yes", "n": "no", "p": "pass"}
    for column, attr in enumerate(table.attributes):
        question = table.questions[attr]
        if question in asked or len({row[column] for row in rows}) < 2:
            continue
        gain = expected_information_gain(belief, [letter.get(row[column], "pass")
                                                  for row in rows])
        if gain > best_gain:
            best, best_gain = question, gain
    return best


def twenty_questions_move(model_name: str, protocol: str, problem: dict[str, Any],
                  turns: list[dict[str, Any]], options: dict[str, Any],
                  rng: random.Random) -> dict[str, Any]:
    """The next reply of `model_name` (module docstring)."""
    table, left, asked = _state(problem, turns)
    final = bool(options.get("final_turn"))
    if model_name == "random":
        open_questions = [table.questions[a] for a in table.attributes
                          if table.questions[a] not in asked]
        if final or not open_questions:
            return {"kind": "text", "text": f"Guess: {rng.choice(left or list(table.candidates))}"}
        return {"kind": "text", "text": rng.choice(open_questions)}
    if not final and len(left) == 1:
        return {"kind": "text", "text": f"Is X {left[0]}?"}
    question = None if final else best_question(table, left, asked)
    if question is None:
        return {"kind": "text", "text": f"Guess: {(left or list(table.candidates))[0]}"}
    return {"kind": "text", "text": question}
