"""Problem-level protocols: k-prediction (protocols §3.2) and MSS identification (3.3)."""

from __future__ import annotations

from typing import Any

from inspect_ai.model import ChatMessageUser
from inspect_ai.solver import Generate, Solver, TaskState, solver

from infoseek.answers.answer_lines import ANSWER_LINE_RULE
from infoseek.contract import (
    DEFAULT_FORBID_ALTERNATIVES,
)
from infoseek.solvers.seek import prompts
from infoseek.solvers.turns import (
    CONTEXT_OVERFLOW,
    EpisodeWriter,
    drop_from_history,
    generate_turn,
    stopped_reason,
)
from infoseek.stored_forms import sample_problem, stored_problem

PROTOCOLS = ("k_prediction", "mss_identification")


@solver
def problem_level_solver(protocol: str, *, k_given: bool = False, max_size: int = 4,
                         forbid_alternatives: bool = DEFAULT_FORBID_ALTERNATIVES, seed: int = 0,
                         max_k: int = prompts.K_PREDICTION_MAX) -> Solver:
    """One generate call on a problem-level prompt, ending with the answer-line rule the
    reply is read by (`infoseek.answers.answer_lines.ANSWER_LINE_RULE`). A reply stopped
    by the context window or the output limit (`infoseek.contract.STOP_REASONS`) is not
    read: the scorers count it invalid with its reason.

    Args:
        protocol: "k_prediction" (protocols §3.2) or "mss_identification" (3.3).
        k_given: MSS identification: tell the model how many variables to name.
        max_size: MSS identification without k: the most variables it may name.
        forbid_alternatives: recorded in the options for the scorer and reference models.
        seed: recorded in the options.
        max_k: k-prediction: the largest count offered (``Answer: 1`` .. ``Answer:
            max_k``); the task passes the largest k of its dataset.
    """
    if protocol not in PROTOCOLS:
        raise ValueError(f"protocol must be one of {', '.join(PROTOCOLS)}; got {protocol!r}")
    if not isinstance(max_size, int) or max_size < 1:
        raise ValueError(f"max_size must be a positive integer; got {max_size!r}")
    if not isinstance(max_k, int) or isinstance(max_k, bool) or max_k < 1:
        raise ValueError(f"max_k must be a positive integer; got {max_k!r}")

    async def solve(state: TaskState, generate: Generate) -> TaskState:
        problem: dict[str, Any] = sample_problem(state.metadata)
        entity = problem.get("entity", "Alice")
        text = state.user_prompt.text
        wording = prompts.problem_level_prompts(problem)
        if protocol == "k_prediction":
            prompt = wording["k_prediction"].format(
                entity=entity, problem=text, options=prompts.k_prediction_options(max_k))
        else:
            rule = (wording["size_given"].format(k=problem["k"]) if k_given
                    else wording["size_free"].format(max_size=max_size))
            prompt = wording["mss_identification"].format(size_rule=rule, problem=text)
        state.messages = [ChatMessageUser(content=f"{prompt}\n\n{ANSWER_LINE_RULE}")]
        writer = EpisodeWriter(protocol, stored_problem(problem))
        writer.turns([])
        writer.options({"k_given": k_given, "max_size": max_size, "seed": seed,
                        "forbid_alternatives": forbid_alternatives, "max_k": max_k,
                        "format": "text"})
        message = await generate_turn(state, generate)  # no choices: an empty reply
        if stopped_reason(state, message) == CONTEXT_OVERFLOW:
            drop_from_history(state, message)  # the provider's error, not the model's words
        return state

    return solve
