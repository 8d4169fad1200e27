"""The names scorers were recorded under in logs of earlier eval versions.

A log records each scorer by its name without the package (``eval.scorers``,
``results.scores``, ``sample.scores``). When a scorer is renamed, the logs written before
keep its old name. :data:`RENAMED_SCORERS` is the one table of such renames, and every
reader of logs (the report, :func:`infoseek.scorers.seek.seek_values`) maps the names it
reads through :func:`current_scorer_name`, so that an old log reports exactly as a new
one. Values and metric names inside a score are never renamed here: a rename that
changed them would be a new metric, not an alias.

A rename moves the eval version's N (`infoseek.inspect_tasks.versions`); its entry here
says which version made it. No import of Inspect: pure readers can use it.
"""

from __future__ import annotations

RENAMED_SCORERS: dict[str, str] = {
    # eval version 2-A: the seek protocol's final-answer scorer was ``answer``, which is
    # also Inspect's built-in scorer ``answer(pattern)``.
    "answer": "final_answer",
}
"""Old recorded name -> the scorer's name now."""


def current_scorer_name(recorded: str) -> str:
    """The name a scorer has now, for the name a log recorded (itself when it was never
    renamed)."""
    return RENAMED_SCORERS.get(recorded, recorded)
