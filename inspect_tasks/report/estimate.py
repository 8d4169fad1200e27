"""What `infoseek estimate` prints: how many tokens a run of each task will send, before
paying for it (the command itself lives in `infoseek.inspect_tasks.commands`).

    infoseek estimate logic_mt gsme_mt [-T per_k=20] [--samples 5] [--markdown]

Each task is built as `inspect eval` would build it with the same ``-T`` arguments (its
defaults otherwise), and `--samples` of its samples, spread evenly over the dataset and
the same ones every time, are played by the `infoseek/random` reference player, which
calls no language model. The text of every model call its log records is counted
(`infoseek.inspect_tasks.report.tokens.episode_estimate`): the first prompt (system
prompt, problem, tool definitions), every call's prompt summed over the episode (each call
resends the conversation so far) and the player's own output. Characters become tokens as
ceil(chars / 4) (`CHARS_PER_TOKEN`): no tokenizer is used, so every token number here is
an **estimate** (`ESTIMATE_NOTE` says what it is; docs/tokens.md compares it with a real
model's counts). Per-sample means are scaled to the task's sample count.

First prompts depend only on the task's data, so they hold for any model; whole episodes
are the random player's (a real model asks a different number of questions and writes
longer replies), the order of magnitude of a run rather than its bill. Calls through a
model role are counted apart (``role_calls``), not in the tokens.

`benchmarks/bench_tokens.py` is the same over every packaged task (the table of
docs/tokens.md); both use `estimate_row` and `table_lines`.
"""

from __future__ import annotations

import statistics
import tempfile
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

PLAYER = "infoseek/random"

COLUMNS = [("task", "task"), ("samples", "samples"),
           ("measured", "samples played"),
           ("first_prompt", "first prompt / sample (est.)"),
           ("calls", "player calls / sample"),
           ("prompt", "episode prompt / sample (est.)"),
           ("output", "episode output / sample (est., random player)"),
           ("suite_first_prompts", "task: first prompts (est.)"),
           ("suite_episodes", "task: whole episodes (est.)")]


class EstimateError(ValueError):
    """A task or argument the estimate cannot use (the message says what to fix)."""


def estimate_note(samples: int) -> str:
    """The line printed above every estimate table: what its numbers are."""
    from infoseek.inspect_tasks.report.tokens import CHARS_PER_TOKEN

    return (f"Estimated tokens: ceil(characters / {CHARS_PER_TOKEN}) of every model call, "
            f"no tokenizer. Player {PLAYER} (calls no language model), {samples} sample(s) "
            "per task spread over its dataset. First prompts hold for any model; whole "
            "episodes are the random player's, the order of magnitude of a run, not its "
            "bill. Role-model calls are not counted.")


def spread(count: int, wanted: int) -> list[int]:
    """`wanted` indexes spread evenly over ``range(count)`` (all of them if fewer)."""
    if wanted >= count:
        return list(range(count))
    return sorted({round(i * (count - 1) / max(wanted - 1, 1)) for i in range(wanted)})


def task_factory(name: str) -> tuple[str, Callable[..., Any]]:
    """A registered task's bare name and factory, from ``logic_mt`` or
    ``infoseek/logic_mt``; an unknown name raises `EstimateError` listing the tasks."""
    from infoseek.inspect_tasks._registry import REGISTERED_TASKS, TASK_PREFIX

    full = name if "/" in name else f"{TASK_PREFIX}/{name}"
    factory = REGISTERED_TASKS.get(full)
    if factory is None:
        known = ", ".join(sorted(n.removeprefix(f"{TASK_PREFIX}/") for n in REGISTERED_TASKS))
        raise EstimateError(f"unknown task {name!r}; the tasks are: {known}")
    return full.removeprefix(f"{TASK_PREFIX}/"), factory


def checked_task(name: str, task_args: dict[str, Any]) -> tuple[str, Callable[..., Any]]:
    """`task_factory`, and an `EstimateError` if the task has no parameter for one of
    `task_args` (a value's range is the task's to check when it is built)."""
    import inspect

    bare, factory = task_factory(name)
    parameters = inspect.signature(factory).parameters
    if any(p.kind is inspect.Parameter.VAR_KEYWORD for p in parameters.values()):
        return bare, factory
    unknown = [arg for arg in task_args if arg not in parameters]
    if unknown:
        raise EstimateError(f"{bare} takes no parameter {', '.join(unknown)} (drop that -T, "
                            f"or estimate {bare} apart from the tasks that take it)")
    return bare, factory


def estimate_row(name: str, wanted: int, log_dir: Path,
                 task_args: dict[str, Any] | None = None) -> dict[str, Any]:
    """The estimate of one task built with `task_args`: its sample count, the samples
    played, and per sample the mean first prompt, calls, episode prompt and output
    tokens (estimated), and the task's first prompts and whole episodes in all."""
    from inspect_ai import eval as inspect_eval
    from inspect_ai.log import read_eval_log

    from infoseek.inspect_tasks.report.tokens import episode_estimate

    bare, factory = checked_task(name, task_args or {})
    try:
        task = factory(**(task_args or {}))
    except (TypeError, ValueError) as exc:
        raise EstimateError(f"{bare}: {exc}") from None
    dataset = task.dataset
    if len(dataset) == 0:
        raise EstimateError(f"{bare}: the task has no samples with these arguments")
    ids = [dataset[i].id for i in spread(len(dataset), wanted)]
    [log] = inspect_eval(task, model=PLAYER, sample_id=ids, log_dir=str(log_dir),
                         display="none")
    if log.status != "success":
        raise EstimateError(f"{bare}: the random player's run did not finish ({log.status}: "
                            f"{log.error.message if log.error else 'no error recorded'})")
    full = read_eval_log(log.location, resolve_attachments=True)  # long texts in full
    episodes = [episode_estimate(sample) for sample in full.samples or []]

    def mean(key: str) -> float:
        return statistics.fmean(e[key] for e in episodes) if episodes else 0.0

    row: dict[str, Any] = {"task": bare, "samples": len(dataset), "measured": len(episodes)}
    for key in ("first_prompt", "prompt", "output", "calls", "role_calls"):
        row[key] = mean(key)
    row["suite_first_prompts"] = row["first_prompt"] * len(dataset)
    row["suite_episodes"] = (row["prompt"] + row["output"]) * len(dataset)
    return row


def recorded_against_estimate(log_path: str | Path) -> dict[str, Any]:
    """One log's recorded token counts beside the estimate of the same calls: for every
    call of the model under test (not a role call) whose output records usage, the
    provider's prompt tokens (``input_tokens`` plus cache reads and writes) and output
    tokens, and `call_estimate` of that call's text; summed, with the ratios recorded /
    estimated. How good ceil(chars / 4) is for that model's tokenizer on this text."""
    from inspect_ai.event import ModelEvent
    from inspect_ai.log import read_eval_log

    from infoseek.inspect_tasks.report.tokens import call_estimate

    log = read_eval_log(str(log_path), resolve_attachments=True)
    out = {"task": log.eval.task.split("/")[-1], "model": log.eval.model, "calls": 0,
           "prompt": 0, "prompt_est": 0, "output": 0, "output_est": 0}
    for sample in log.samples or []:
        for event in sample.events or []:
            usage = getattr(event.output, "usage", None) if isinstance(event, ModelEvent) \
                else None
            if usage is None or event.role is not None:
                continue
            prompt, output = call_estimate(event)
            out["calls"] += 1
            out["prompt"] += (usage.input_tokens + (usage.input_tokens_cache_read or 0)
                              + (usage.input_tokens_cache_write or 0))
            out["prompt_est"] += prompt
            out["output"] += usage.output_tokens
            out["output_est"] += output
    out["prompt_ratio"] = out["prompt"] / out["prompt_est"] if out["prompt_est"] else None
    out["output_ratio"] = out["output"] / out["output_est"] if out["output_est"] else None
    return out


def _cell(value: object) -> str:
    if isinstance(value, float):
        return f"{value:,.1f}" if value < 100 else f"{round(value):,}"
    return f"{value:,}" if isinstance(value, int) else str(value)


def table_lines(rows: list[dict[str, Any]], markdown: bool = False) -> list[str]:
    """The estimate table (`COLUMNS`), with an ``all tasks`` line when there are several
    rows; aligned text, or Markdown."""
    total = {"task": "all tasks", "samples": sum(int(r["samples"]) for r in rows),
             "measured": sum(int(r["measured"]) for r in rows),
             "suite_first_prompts": sum(float(r["suite_first_prompts"]) for r in rows),
             "suite_episodes": sum(float(r["suite_episodes"]) for r in rows)}
    shown = [*rows, total] if len(rows) > 1 else rows
    heads = [title for _, title in COLUMNS]
    body = [[_cell(r.get(key, "")) for key, _ in COLUMNS] for r in shown]
    if markdown:
        return (["| " + " | ".join(heads) + " |", "|" + "---|" * len(heads)]
                + ["| " + " | ".join(line) + " |" for line in body])
    widths = [max(len(h), *(len(line[i]) for line in body)) for i, h in enumerate(heads)]
    return ["  ".join(h.rjust(w) for h, w in zip(heads, widths))] + [
        "  ".join(c.rjust(w) for c, w in zip(line, widths)) for line in body]


def estimate_rows(names: Sequence[str], samples: int,
                  task_args: dict[str, Any] | None = None,
                  notice: Callable[[str], None] | None = None) -> list[dict[str, Any]]:
    """`estimate_row` of every task in `names`, in order (logs in a temporary folder,
    removed afterwards); `notice` hears one line per task done and per task whose
    episodes made role calls (not counted)."""
    rows: list[dict[str, Any]] = []
    started = time.perf_counter()
    with tempfile.TemporaryDirectory(prefix="infoseek-estimate-") as folder:
        for name in names:
            row = estimate_row(name, samples, Path(folder), task_args)
            rows.append(row)
            if notice is not None:
                if row["role_calls"]:
                    notice(f"{row['task']} made {row['role_calls']:.1f} role call(s) per "
                           "sample, not counted in its tokens")
                notice(f"{row['task']} done ({time.perf_counter() - started:.0f} s)")
    return rows
