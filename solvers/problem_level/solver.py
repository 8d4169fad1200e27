"""Problem-level protocols: k-prediction (protocols §3.2) and MSS identification (3.3): the
Inspect adapter over the one-prompt game of `infoseek.solvers.problem_level.game`."""

from __future__ import annotations

from typing import Any

from inspect_ai.model import ChatMessageUser
from inspect_ai.solver import Generate, Solver, TaskState, solver

from infoseek.solvers.problem_level.game import ProblemLevelOptions, problem_prompt
from infoseek.solvers.turns import (
    CONTEXT_OVERFLOW,
    EpisodeWriter,
    drop_from_history,
    generate_turn,
    stopped_reason,
)
from infoseek.stored_forms import sample_problem, stored_problem


@solver
def problem_level_solver(options: ProblemLevelOptions) -> Solver:
    """One generate call on the problem-level prompt of `options.protocol`
    (`infoseek.solvers.problem_level.game.ProblemLevelOptions`, checked when made), e.g.
    ``problem_level_solver(ProblemLevelOptions("k_prediction", max_k=5))``. A reply
    stopped by the context window or the output limit (`infoseek.contract.STOP_REASONS`)
    is not read: the scorers count it invalid with its reason."""

    async def solve(state: TaskState, generate: Generate) -> TaskState:
        problem: dict[str, Any] = sample_problem(state.metadata)
        prompt = problem_prompt(options, problem, state.user_prompt.text)
        state.messages = [ChatMessageUser(content=prompt)]
        writer = EpisodeWriter(options.protocol, stored_problem(problem), state.epoch)
        writer.turns([])
        writer.options(options.stored())
        message = await generate_turn(state, generate)  # no choices: an empty reply
        if stopped_reason(state, message) == CONTEXT_OVERFLOW:
            drop_from_history(state, message)  # the provider's error, not the model's words
        return state

    return solve
