"""How many tokens a run of each task at its defaults sends: an estimate, before paying.

    python benchmarks/bench_tokens.py                    # every packaged task, 5 samples each
    python benchmarks/bench_tokens.py --task logic_mt --task gsme_mt --samples 10
    python benchmarks/bench_tokens.py --markdown         # the table of docs/tokens.md
    python benchmarks/bench_tokens.py --against LOGS...  # a real model's counts beside it

`infoseek estimate` over every packaged task at its defaults (the logic lives in
`infoseek.inspect_tasks.report.estimate`, whose docstring says what is counted):
`--samples` samples per task, spread evenly over its dataset, played by the
`infoseek/random` reference player;
the text of every model call becomes tokens as ceil(chars / 4), an **estimate**, scaled
to the task's sample count. First prompts hold for any player; whole episodes are the
random player's, the order of magnitude of a run, not its bill.

`--against LOG...` plays nothing: for each log of a real model it sums the prompt and
output tokens the provider recorded for every call and the estimate of the same calls'
text (`infoseek.inspect_tasks.report.estimate.recorded_against_estimate`), and prints
the ratio: how far ceil(chars / 4) is from that model's tokenizer.
"""

from __future__ import annotations

import argparse
import sys

from infoseek.inspect_tasks._registry import PACKAGED_TASKS
from infoseek.inspect_tasks.report.estimate import (
    estimate_note,
    estimate_rows,
    recorded_against_estimate,
    table_lines,
)


def print_against(logs: list[str]) -> int:
    """The `--against` table: per log, recorded and estimated tokens and their ratio."""
    print("| task | model | calls | prompt tokens (recorded) | prompt (est.) | ratio | "
          "output tokens (recorded) | output (est.) | ratio |")
    print("|" + "---|" * 9)
    rows = [recorded_against_estimate(log) for log in logs]
    total = {"task": "all", "model": "", **{k: sum(r[k] for r in rows) for k in (
        "calls", "prompt", "prompt_est", "output", "output_est")}}
    for r in [*rows, total] if len(rows) > 1 else rows:
        cells = [r["task"], r["model"], r["calls"], r["prompt"], r["prompt_est"],
                 f"{r['prompt'] / r['prompt_est']:.2f}" if r["prompt_est"] else "n/a",
                 r["output"], r["output_est"],
                 f"{r['output'] / r['output_est']:.2f}" if r["output_est"] else "n/a"]
        print("| " + " | ".join(f"{c:,}" if isinstance(c, int) else str(c)
                                for c in cells) + " |")
    return 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--task", action="append", choices=sorted(PACKAGED_TASKS),
                        metavar="TASK", help="a packaged task (repeatable; default: all)")
    parser.add_argument("--samples", type=int, default=5,
                        help="samples played per task, spread over its dataset (default 5)")
    parser.add_argument("--markdown", action="store_true", help="a Markdown table")
    parser.add_argument("--against", nargs="+", metavar="LOG", default=None,
                        help="logs of a real model: recorded tokens beside the estimate")
    args = parser.parse_args(argv)
    if args.against:
        return print_against(args.against)
    if args.samples < 1:
        parser.error("--samples must be at least 1")
    rows = estimate_rows(args.task or sorted(PACKAGED_TASKS), args.samples,
                         notice=lambda line: print(f"bench_tokens: {line}", file=sys.stderr,
                                                   flush=True))
    print(estimate_note(args.samples))
    print("\n".join(table_lines(rows, args.markdown)))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
