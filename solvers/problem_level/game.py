"""The problem-level protocols' pure game: k-prediction (protocols §3.2) and MSS
identification (3.3). No Inspect here; the solver (`infoseek.solvers.problem_level.solver`)
is the adapter that makes the one generate call.

The game is one prompt and one reply: `ProblemLevelOptions` holds the options of a run,
checked once when made, and the dict the solver stores under ``infoseek:options``
(`stored`), which the scorers and the reference models read; `problem_prompt` is the
prompt the model answers. There is no turn record: the scorers read the reply itself
(`infoseek.scorers.problem_metrics`).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from infoseek.answers.answer_lines import ANSWER_LINE_RULE
from infoseek.contract import DEFAULT_FORBID_ALTERNATIVES
from infoseek.solvers.options import SolverOptions
from infoseek.solvers.seek import prompts

PROTOCOLS: tuple[str, ...] = ("k_prediction", "mss_identification")


@dataclass(frozen=True)
class ProblemLevelOptions(SolverOptions):
    """The options of a problem-level run, checked when made (a ValueError names the bad
    one)."""

    protocol: str
    """``"k_prediction"`` (protocols §3.2) or ``"mss_identification"`` (3.3)."""
    k_given: bool = False
    """MSS identification: tell the model how many variables to name."""
    max_size: int = 4
    """MSS identification without k: the most variables the model may name."""
    forbid_alternatives: bool = DEFAULT_FORBID_ALTERNATIVES
    """Only the canonical MSS counts (recorded for the scorer and the reference models)."""
    seed: int = 0
    """Recorded in the options (the random reference model reads it)."""
    max_k: int = prompts.K_PREDICTION_MAX
    """k-prediction: the largest count offered (``Answer: 1`` .. ``Answer: max_k``); a
    task passes the largest k of its dataset."""

    def __post_init__(self) -> None:
        self.check_choice("protocol", PROTOCOLS)
        if not isinstance(self.max_size, int) or self.max_size < 1:
            raise ValueError(f"max_size must be a positive integer; got {self.max_size!r}")
        if not isinstance(self.max_k, int) or isinstance(self.max_k, bool) or self.max_k < 1:
            raise ValueError(f"max_k must be a positive integer; got {self.max_k!r}")

    def stored(self) -> dict[str, Any]:
        """The options as the store holds them (`infoseek.contract.STORE_OPTIONS`)."""
        return {"k_given": self.k_given, "max_size": self.max_size, "seed": self.seed,
                "forbid_alternatives": self.forbid_alternatives, "max_k": self.max_k,
                "format": "text"}


def problem_prompt(options: ProblemLevelOptions, problem: dict[str, Any], text: str) -> str:
    """The prompt of `problem` (shown as `text`) in its domain's wording: the counts to
    choose from for k-prediction, the size rule for MSS identification; it ends with the
    answer-line rule the reply is read by (`infoseek.answers.answer_lines.ANSWER_LINE_RULE`)."""
    wording = prompts.problem_level_prompts(problem)
    if options.protocol == "k_prediction":
        prompt = wording["k_prediction"].format(
            entity=problem.get("entity", "Alice"), problem=text,
            options=prompts.k_prediction_options(options.max_k))
    else:
        rule = (wording["size_given"].format(k=problem["k"]) if options.k_given
                else wording["size_free"].format(max_size=options.max_size))
        prompt = wording["mss_identification"].format(size_rule=rule, problem=text)
    return f"{prompt}\n\n{ANSWER_LINE_RULE}"
