"""Logic-Q-MT: multi-turn information seeking over k-underspecified Horn problems.

    inspect eval inspect_tasks/logic_mt.py --model infoseek/optimal
    inspect eval infoseek/logic_mt --model openai/gpt-4o -T k=[3,4] -T oracle=random
    inspect eval inspect_tasks/logic_mt.py -T source=logic_q_mt.csv --model infoseek/optimal
"""

from inspect_ai import Task, task

from infoseek.contract import DEFAULT_MAX_TURNS, LOGIC_FORBID_ALTERNATIVES
from infoseek.inspect_tasks.assembly import checked_parameters, seek_task


@task
def logic_mt(
    k: int | list[int] = [1, 2, 3, 4],
    per_k: int = 200,
    seed: int = 0,
    oracle: str = "adversarial",
    format: str = "tool",
    max_turns: int = DEFAULT_MAX_TURNS,
    queries_per_turn: int = 1,
    budget: bool = False,
    force_ask: bool = False,
    forbid_alternatives: bool = LOGIC_FORBID_ALTERNATIVES,
    carry_reasoning: bool = False,
    source: str | None = None,
    source_format: str | None = None,
    limit: int | None = None,
) -> Task:
    """Seek the missing attributes, then answer (SPEC 3.1).

    Args:
        k: degrees of underspecification to include (1..5).
        per_k: problems per k (each gives one sample per target value).
        seed: builder and oracle seed.
        oracle: adversarial, cooperative or random.
        format: tool or text.
        max_turns: turn cap (>= 1).
        queries_per_turn: variables that may be asked in one turn (>= 1).
        budget: state the turn and query budget in the prompt (true/false).
        force_ask: reject an answer given before k questions were asked (true/false).
        forbid_alternatives: variables of non-canonical MSSs may not be asked (true/false).
        carry_reasoning: keep the model's earlier reasoning in the history (true/false).
        source: a file of problem records or a released file, instead of a built split.
        source_format: the source file's format (with source).
        limit: read only the first N problems of the source (with source).
    """
    params = checked_parameters(
        "logic-mt", k=k, per_k=per_k, seed=seed, oracle=oracle, format=format,
        max_turns=max_turns, queries_per_turn=queries_per_turn, budget=budget,
        force_ask=force_ask, forbid_alternatives=forbid_alternatives,
        carry_reasoning=carry_reasoning, source=source, source_format=source_format,
        limit=limit)
    return seek_task("logic_mt", "logic-mt", params)
