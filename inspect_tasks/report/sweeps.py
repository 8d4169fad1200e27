"""One-command sweeps: the papers' settings as `eval_set` recipes.

    infoseek sweep oracles --model openai/gpt-4o --log-dir logs/oracles [--per-k 20]
    infoseek report logs/oracles --out report/oracles

A recipe is a list of (task, task arguments): the registered task run once per setting,
so every log records its setting as task arguments and the report puts one row per
setting. Inspect's `eval_set` runs them: rerunning the same command in the same log
folder resumes (finished logs are kept, failed ones retried).

Recipes (``--task`` picks the seek task where a recipe varies a seek setting):

- ``oracles``: adversarial, cooperative and random oracles (MT-InfoSeek's oracle sweep);
- ``budgets``: no budget, then "T turns x q queries per turn" 1x4, 2x2, 4x1 and 10x1
  stated in the prompt (MT-InfoSeek Fig. 25-26);
- ``force_ask``: answers before k queries rejected or not (MT-InfoSeek Table 23);
- ``forbid_alternatives``: variables of non-canonical MSSs askable or not;
- ``prompt_modes``: zero-shot, step-by-step and four-shot single-turn question
  selection (QuestBench), with the well-specified and detection tasks for filtered
  accuracy and F1;
- ``suite``: every headline task at a modest size, for a one-page overview of a model.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

SEEK_TASKS = ("logic_mt", "genereg_mt", "clinguide_mt", "gsme_mt_ext", "gsme_mt", "gsm_mt")
ORACLE_TASKS = ("logic_mt", "genereg_mt", "clinguide_mt")
"""Seek tasks with a choice of oracle (the math tasks answer from the hidden world)."""
FORBID_TASKS = ("logic_mt", "genereg_mt")
BUDGETS = ((1, 4), (2, 2), (4, 1), (10, 1))
PROMPT_TASKS = ("logic_q", "gsme_q", "gsm_q")


class SweepError(ValueError):
    """A recipe that cannot run as asked (what to fix is in the message)."""


@dataclass(frozen=True)
class Recipe:
    name: str
    description: str
    tasks: tuple[str, ...]
    """The tasks ``--task`` may pick (the first is the default); empty: fixed tasks."""


RECIPES = {r.name: r for r in (
    Recipe("oracles", "adversarial, cooperative and random oracles", ORACLE_TASKS),
    Recipe("budgets", "no budget, 1x4, 2x2, 4x1 and 10x1 turns x queries", SEEK_TASKS),
    Recipe("force_ask", "answers before k queries rejected, or not", SEEK_TASKS),
    Recipe("forbid_alternatives", "non-canonical MSS variables askable, or not",
           FORBID_TASKS),
    Recipe("prompt_modes", "zero-shot, step-by-step and four-shot question selection",
           PROMPT_TASKS),
    Recipe("suite", "every headline task at a modest size", ()),
)}


def recipe_runs(name: str, task: str | None = None, per_k: int = 10
                ) -> list[tuple[str, dict[str, Any]]]:
    """The (task, arguments) runs of a recipe."""
    if name not in RECIPES:
        raise SweepError(f"unknown sweep {name!r}; choose one of {', '.join(RECIPES)}")
    recipe = RECIPES[name]
    if task is not None and task not in recipe.tasks:
        raise SweepError(f"sweep {name} cannot vary {task}; --task takes "
                         + (", ".join(recipe.tasks) if recipe.tasks else "nothing here"))
    chosen = task or (recipe.tasks[0] if recipe.tasks else "")
    size = {"per_k": per_k}
    if name == "oracles":
        return [(chosen, {**size, "oracle": o}) for o in ("adversarial", "cooperative",
                                                          "random")]
    if name == "budgets":
        return [(chosen, dict(size))] + [
            (chosen, {**size, "budget": True, "max_turns": turns, "queries_per_turn": q})
            for turns, q in BUDGETS]
    if name == "force_ask":
        return [(chosen, {**size, "force_ask": flag}) for flag in (False, True)]
    if name == "forbid_alternatives":
        return [(chosen, {**size, "forbid_alternatives": flag}) for flag in (True, False)]
    if name == "prompt_modes":
        family = chosen
        return [(t, {**size, "prompt": p}) for p in ("zs", "cot", "fs")
                for t in (family, f"{family}_well_specified", f"{family}_detection")]
    return [
        ("logic_mt", dict(size)), ("gsme_mt_ext", dict(size)), ("genereg_mt", dict(size)),
        ("clinguide_mt", {"per_k": max(per_k, 1)}),
        ("logic_k_prediction", dict(size)), ("logic_mss", dict(size)),
        ("logic_mss", {**size, "k_given": True}),
        ("logic_q", dict(size)), ("logic_q_well_specified", dict(size)),
        ("logic_q_detection", dict(size)),
        ("gsme_mt_ext_k_prediction", dict(size)), ("gsme_mt_ext_mss", dict(size)),
    ]


def run_sweep(name: str, models: Sequence[str], log_dir: str, *, task: str | None = None,
              per_k: int = 10, max_samples: int | None = None,
              display: str | None = None) -> bool:
    """Run a recipe with `inspect_ai.eval_set` into `log_dir`; True when every run
    finished."""
    from inspect_ai import eval_set

    from infoseek.inspect_tasks._registry import PACKAGED_TASKS

    runs = recipe_runs(name, task, per_k)
    missing = sorted({t for t, _ in runs if t not in PACKAGED_TASKS})
    if missing:
        raise SweepError(f"sweep {name} needs tasks that are not registered: "
                         + ", ".join(missing))
    tasks = [PACKAGED_TASKS[t](**args) for t, args in runs]
    options: dict[str, Any] = {}
    if max_samples is not None:
        options["max_samples"] = max_samples
    if display is not None:
        options["display"] = display
    success, _logs = eval_set(tasks, log_dir=log_dir, model=list(models), **options)
    return bool(success)
