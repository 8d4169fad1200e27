"""The base of every protocol's options object (`infoseek.solvers.seek.game.SeekOptions`,
`...problem_level.game.ProblemLevelOptions`, `...incomplete.game.IncompleteOptions`): a
frozen dataclass that a task makes once and hands to its solver.

Inspect records a solver's parameters in the log's plan (``plan.steps[].params``) and
writes an object that is not JSON by its class name alone; it asks such an object for
``_repr_params_()`` first (the hook its own compaction strategies implement). The options
answer with their fields, so the plan shows every option's value. Pure: no Inspect import.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import asdict
from typing import Any


class SolverOptions:
    """Mixed into a protocol's frozen options dataclass: how the log's plan shows it."""

    def check_whole(self, *names: str, least: int) -> None:
        """Each option in `names` is an integer (not a bool) of at least `least`; else a
        ValueError naming it: ``"max_turns must be an integer >= 1; got 0"``."""
        for name in names:
            value = getattr(self, name)
            if not isinstance(value, int) or isinstance(value, bool) or value < least:
                raise ValueError(f"{name} must be an integer >= {least}; got {value!r}")

    def check_choice(self, name: str, allowed: Sequence[str]) -> None:
        """Option `name` is one of `allowed`; else a ValueError naming it and them."""
        value = getattr(self, name)
        if value not in allowed:
            raise ValueError(f"{name} must be one of {', '.join(allowed)}; got {value!r}")

    def _repr_params_(self) -> dict[str, Any]:
        """The options as the log's plan records them: every field and its value."""
        return asdict(self)  # type: ignore[call-overload]
