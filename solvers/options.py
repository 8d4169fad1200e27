"""The base of every protocol's options object (`infoseek.solvers.seek.game.SeekOptions`,
`...problem_level.game.ProblemLevelOptions`, `...incomplete.game.IncompleteOptions`): a
frozen dataclass that a task makes once and hands to its solver.

Inspect records a solver's parameters in the log's plan (``plan.steps[].params``) and
writes an object that is not JSON by its class name alone; it asks such an object for
``_repr_params_()`` first (the hook its own compaction strategies implement). The options
answer with their fields, so the plan shows every option's value. Pure: no Inspect import.
"""

from __future__ import annotations

from dataclasses import asdict
from typing import Any


class SolverOptions:
    """Mixed into a protocol's frozen options dataclass: how the log's plan shows it."""

    def _repr_params_(self) -> dict[str, Any]:
        """The options as the log's plan records them: every field and its value."""
        return asdict(self)  # type: ignore[call-overload]
