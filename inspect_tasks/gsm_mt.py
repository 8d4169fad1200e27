"""GSM-Q-MT (verbal): the GSME-Q-MT story problems (`infoseek.builders.math.gsme_mt`) as word
problems (`infoseek.builders.math.gsm_text`): one sentence per revealed value and per
equation, the held-out values left out, then the list of quantities that may be asked.

    inspect eval inspect_tasks/gsm_mt.py --model infoseek/optimal -T per_k=20

Tasks: `gsm_mt` (seek loop, world-backed oracle, numeric answers) and `gsm_mt_full`
(every value given: the reasoning upper bound). The logic is `infoseek.inspect_tasks.gsme_mt`'s
(`story_seek_task`); this file declares the tasks, so that
`inspect eval inspect_tasks/gsm_mt.py` finds them.
"""

from inspect_ai import Task, task

from infoseek.contract import DEFAULT_MAX_TURNS, FULL_INFORMATION_MAX_TURNS
from infoseek.inspect_tasks.gsme_mt import story_seek_task
from infoseek.inspect_tasks.task_tags import tagged


@task
@tagged("math")
def gsm_mt(
    k: int | list[int] = [1, 2, 3, 4],
    per_k: int = 100,
    seed: int = 0,
    oracle: str = "world",
    format: str = "tool",
    max_turns: int = DEFAULT_MAX_TURNS,
    queries_per_turn: int = 1,
    budget: bool = False,
    force_ask: bool = False,
    carry_reasoning: bool = False,
    source: str | None = None,
    source_format: str | None = None,
    limit: int | None = None,
    unanswerable: float = 0.0,
) -> Task:
    """Seek the missing quantities of a word problem, then answer with a number.

    See protocols §3.1, 5.3.

    Args:
        k: degrees of underspecification to include (1..4; an int or a list; default [1,2,3,4]).
        per_k: problems built per k (>= 1; default 100); unused with source.
        seed: the random seed (of the builder; an integer; default 0); unused with source.
        oracle: the oracle that answers the model's questions (world: replies give the hidden
            world's value, or withholding: some quantities answered "unknown", the MSS left
            learnable; default world).
        format: how the model asks and answers (tool: ask / answer tools, or text: Question: /
            Answer: lines; default tool).
        max_turns: most turns the model gets (>= 1; default 10; then the final answer is asked for).
        queries_per_turn: variables that may be asked in one turn (here quantities; >= 1; default
            1).
        budget: state the turn and query budget in the prompt (true/false; default false).
        force_ask: reject an answer given before k questions were asked (true/false;
            default false).
        carry_reasoning: keep the model's earlier reasoning in the history (true/false;
            default false).
        source: a file of problem records, instead of a built split (path or URL: our JSONL math
            records or a released GSME-Q-MT / GSME-Q-MT-Ext CSV).
        source_format: the source file's format (with source: mt-infoseek-gsme, mt-infoseek-gsme-ext
            or records; default: detected).
        limit: read just the first N problems (of the source, or of the built split, which
            then builds only those; >= 1; default: all).
        unanswerable: the share of samples no question can settle, mixed in (a number in [0, 1);
            the model must answer "cannot be determined" on them; default 0.0: none).
    """
    return story_seek_task("gsm_mt", "words", locals())


@task
@tagged("math")
def gsm_mt_full(
    k: int | list[int] = [1, 2, 3, 4],
    per_k: int = 100,
    seed: int = 0,
    format: str = "tool",
    max_turns: int = FULL_INFORMATION_MAX_TURNS,
    carry_reasoning: bool = False,
    source: str | None = None,
    source_format: str | None = None,
    limit: int | None = None,
) -> Task:
    """Full information: every held-out value is stated; the model answers at once.

    Args:
        k: degrees of underspecification to include (1..4; an int or a list; default [1,2,3,4]).
        per_k: problems built per k (>= 1; default 100); unused with source.
        seed: the random seed (of the builder; an integer; default 0); unused with source.
        format: how the model asks and answers (tool: ask / answer tools, or text: Question: /
            Answer: lines; default tool).
        max_turns: most turns the model gets (>= 1; default 1: answer at once).
        carry_reasoning: keep the model's earlier reasoning in the history (true/false;
            default false).
        source: a file of problem records, instead of a built split (path or URL: our JSONL math
            records or a released GSME-Q-MT / GSME-Q-MT-Ext CSV).
        source_format: the source file's format (with source: mt-infoseek-gsme, mt-infoseek-gsme-ext
            or records; default: detected).
        limit: read just the first N problems (of the source, or of the built split, which
            then builds only those; >= 1; default: all).
    """
    return story_seek_task("gsm_mt_full", "words", locals(), full_information=True)
