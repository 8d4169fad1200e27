"""How many tokens a run of each task at its defaults sends: an estimate, before paying.

    python benchmarks/bench_tokens.py                    # every packaged task, 5 samples each
    python benchmarks/bench_tokens.py --task logic_mt --task gsme_mt --samples 10
    python benchmarks/bench_tokens.py --markdown         # the table of docs/tokens.md

For each task, built at its default settings, this plays `--samples` samples spread evenly
over the task's dataset (the same ones every time) with the `infoseek/random` reference
player, and counts the text of every model call its log records
(`infoseek.inspect_tasks.report.tokens.episode_estimate`): the first prompt (system
prompt, problem and tool definitions), every call's prompt summed over the episode (each
call sends the conversation so far again) and the player's outputs. Characters become
tokens as ceil(chars / 4) (`CHARS_PER_TOKEN`): no tokenizer is used, so every number is
an **estimate**, and within a few tens of percent of a real tokenizer's count for
English text; numbers, symbols and JSON often take more tokens per character.

Scaled to the whole task: mean per sample times the task's sample count at defaults.
First prompts depend only on the task's data, so the first-prompt column holds for any
player. Whole-episode numbers are the random reference's episodes: a real model asks a
different number of questions and writes longer replies (its output tokens, and the
reasoning tokens of a reasoning model, are not estimated here), so read them as the
order of magnitude of a run, not its bill. Calls through a model role (judges,
examiners) are counted apart (``role_calls``) and not in the tokens.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
from pathlib import Path

from inspect_ai import eval as inspect_eval
from inspect_ai.log import read_eval_log

from infoseek.inspect_tasks._registry import PACKAGED_TASKS
from infoseek.inspect_tasks.report.tokens import CHARS_PER_TOKEN, episode_estimate

PLAYER = "infoseek/random"


def spread(count: int, wanted: int) -> list[int]:
    """`wanted` indexes spread evenly over ``range(count)`` (all of them if fewer)."""
    if wanted >= count:
        return list(range(count))
    return sorted({round(i * (count - 1) / max(wanted - 1, 1)) for i in range(wanted)})


def measure(name: str, wanted: int, log_dir: Path) -> dict[str, object]:
    task = PACKAGED_TASKS[name]()
    dataset = task.dataset
    ids = [dataset[i].id for i in spread(len(dataset), wanted)]
    [log] = inspect_eval(task, model=PLAYER, sample_id=ids, log_dir=str(log_dir),
                         display="none")
    if log.status != "success":
        raise SystemExit(f"bench_tokens: {name} did not finish ({log.status}: "
                         f"{log.error.message if log.error else 'no error recorded'})")
    full = read_eval_log(log.location, resolve_attachments=True)  # long texts
    episodes = [episode_estimate(sample) for sample in full.samples or []]

    def mean(key: str) -> float:
        return statistics.fmean(e[key] for e in episodes) if episodes else 0.0

    row: dict[str, object] = {"task": name, "samples": len(dataset),
                              "measured": len(episodes)}
    for key in ("first_prompt", "prompt", "output", "calls", "role_calls"):
        row[key] = mean(key)
    row["suite_first_prompts"] = row["first_prompt"] * len(dataset)
    row["suite_episodes"] = (row["prompt"] + row["output"]) * len(dataset)
    return row


COLUMNS = [("task", "task"), ("samples", "samples at defaults"),
           ("measured", "samples played"),
           ("first_prompt", "first prompt / sample (est.)"),
           ("calls", "player calls / sample"),
           ("prompt", "episode prompt / sample (est.)"),
           ("output", "episode output / sample (est., random player)"),
           ("suite_first_prompts", "task: first prompts (est.)"),
           ("suite_episodes", "task: whole episodes (est.)")]


def _cell(value: object) -> str:
    if isinstance(value, float):
        return f"{value:,.1f}" if value < 100 else f"{round(value):,}"
    return f"{value:,}" if isinstance(value, int) else str(value)


def print_table(rows: list[dict[str, object]], markdown: bool) -> None:
    total = {"task": "all tasks", "samples": sum(int(r["samples"]) for r in rows),
             "measured": sum(int(r["measured"]) for r in rows),
             "suite_first_prompts": sum(float(r["suite_first_prompts"]) for r in rows),
             "suite_episodes": sum(float(r["suite_episodes"]) for r in rows)}
    shown = [*rows, total] if len(rows) > 1 else rows
    heads = [title for _, title in COLUMNS]
    body = [[_cell(r.get(key, "")) for key, _ in COLUMNS] for r in shown]
    if markdown:
        print("| " + " | ".join(heads) + " |")
        print("|" + "---|" * len(heads))
        for line in body:
            print("| " + " | ".join(line) + " |")
        return
    widths = [max(len(h), *(len(line[i]) for line in body)) for i, h in enumerate(heads)]
    print("  ".join(h.rjust(w) for h, w in zip(heads, widths)))
    for line in body:
        print("  ".join(c.rjust(w) for c, w in zip(line, widths)))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--task", action="append", choices=sorted(PACKAGED_TASKS),
                        metavar="TASK", help="a packaged task (repeatable; default: all)")
    parser.add_argument("--samples", type=int, default=5,
                        help="samples played per task, spread over its dataset (default 5)")
    parser.add_argument("--markdown", action="store_true", help="a Markdown table")
    args = parser.parse_args(argv)
    if args.samples < 1:
        parser.error("--samples must be at least 1")
    names = args.task or sorted(PACKAGED_TASKS)
    rows = []
    started = time.perf_counter()
    with tempfile.TemporaryDirectory(prefix="bench-tokens-") as folder:
        for name in names:
            rows.append(measure(name, args.samples, Path(folder)))
            if rows[-1]["role_calls"]:
                print(f"bench_tokens: {name} made {rows[-1]['role_calls']:.1f} role call(s) "
                      "per sample, not counted in its tokens", file=sys.stderr)
            print(f"bench_tokens: {name} done ({time.perf_counter() - started:.0f} s)",
                  file=sys.stderr, flush=True)
    print(f"Estimated tokens (ceil(characters / {CHARS_PER_TOKEN}), no tokenizer): "
          f"player {PLAYER}, {args.samples} sample(s) per task spread over its dataset")
    print_table(rows, args.markdown)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
