"""Logic-Q-MT: multi-turn information seeking over k-underspecified Horn problems.

    inspect eval inspect_tasks/logic_mt.py --model infoseek/optimal
    inspect eval infoseek/logic_mt --model openai/gpt-4o -T k=[3,4] -T oracle=random
    inspect eval inspect_tasks/logic_mt.py -T source=logic_q_mt.csv --model infoseek/optimal
    inspect eval infoseek/logic_mt -T split=hard --model infoseek/optimal   # k = 5..8
    inspect eval infoseek/logic_mt -T unanswerable=0.2 --model infoseek/optimal
"""

from inspect_ai import Task, task

from infoseek.builders.logic.logic_mt import SPLITS, split_settings
from infoseek.contract import LOGIC_FORBID_ALTERNATIVES
from infoseek.inspect_tasks.assembly import checked_parameters, seek_task
from infoseek.inspect_tasks.task_parameters import check_choice
from infoseek.inspect_tasks.task_tags import tagged


@task
@tagged("logic")
def logic_mt(
    k: int | list[int] | None = None,
    split: str = "default",
    per_k: int = 200,
    seed: int = 0,
    oracle: str = "adversarial",
    format: str = "tool",
    max_turns: int | None = None,
    queries_per_turn: int = 1,
    budget: bool = False,
    force_ask: bool = False,
    forbid_alternatives: bool = LOGIC_FORBID_ALTERNATIVES,
    carry_reasoning: bool = False,
    source: str | None = None,
    source_format: str | None = None,
    limit: int | None = None,
    unanswerable: float = 0.0,
    solver: str = "loop",
) -> Task:
    """Seek the missing attributes, then answer (protocols §3.1).

    Args:
        k: degrees of underspecification to include (1..5; 1..8 with split=hard; default:
            the split's, [1,2,3,4] or [5,6,7,8]).
        split: which split to build (hard: k = 5..8, up to 150 attributes, 300 rules, depth 10; or
            the usual one; default default).
        per_k: problems built per k (each gives one sample per target value).
        seed: the random seed (of the builder and the oracle).
        oracle: the oracle that answers the model's questions (adversarial, cooperative, random,
            or withholding: some attributes answered "unknown", an alternative MSS left
            learnable; with forbid_alternatives=true only attributes outside the canonical MSS
            are withheld, or withholding_all: every MSS cut, the right answer "cannot be
            determined").
        format: how the model asks and answers (tool: ask / answer tools, or text: Question: /
            Answer: lines).
        max_turns: most turns the model gets (>= 1; default: 10, or 2k when that is more; then the
            final answer is asked for).
        queries_per_turn: variables that may be asked in one turn (>= 1).
        budget: state the turn and query budget in the prompt (true/false).
        force_ask: reject an answer given before k questions were asked (true/false).
        forbid_alternatives: hold the model to the canonical MSS (variables of non-canonical MSSs
            may not be asked; true/false).
        carry_reasoning: keep the model's earlier reasoning in the history (true/false).
        source: a file of problem records, instead of a built split (our records or a released
            file).
        source_format: the source file's format (with source).
        limit: read just the first N problems (of the source, or of the built split, which
            then builds only those).
        unanswerable: the share of samples no question can settle, mixed in (a number in [0, 1);
            the model must answer "cannot be determined" on them; default 0.0: none).
        solver: who plays the episode (loop: the built-in seek loop, or react: Inspect's react()
            agent through the ask / answer tools, or its text turns; default loop;
            docs/tasks/common.md).
    """
    chosen = split_settings(check_choice("split", split, list(SPLITS)), k, max_turns)
    k, max_turns, builder = chosen["k"], chosen["max_turns"], chosen["builder"]
    params = checked_parameters(
        builder, k=k, per_k=per_k, seed=seed, oracle=oracle, format=format,
        max_turns=max_turns, queries_per_turn=queries_per_turn, budget=budget,
        force_ask=force_ask, forbid_alternatives=forbid_alternatives,
        carry_reasoning=carry_reasoning, source=source, source_format=source_format,
        limit=limit)
    return seek_task("logic_mt", builder, params, unanswerable=unanswerable, player=solver)
