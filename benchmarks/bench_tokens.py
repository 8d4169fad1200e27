"""How many tokens a run of each task at its defaults sends: an estimate, before paying.

    python benchmarks/bench_tokens.py                    # every packaged task, 5 samples each
    python benchmarks/bench_tokens.py --task logic_mt --task gsme_mt --samples 10
    python benchmarks/bench_tokens.py --markdown         # the table of docs/tokens.md

`infoseek estimate` over every packaged task at its defaults (the logic lives in
`infoseek.cli_estimate`, whose docstring says what is counted): `--samples` samples per
task, spread evenly over its dataset, played by the `infoseek/random` reference player;
the text of every model call becomes tokens as ceil(chars / 4), an **estimate**, scaled
to the task's sample count. First prompts hold for any player; whole episodes are the
random player's, the order of magnitude of a run, not its bill.
"""

from __future__ import annotations

import argparse
import sys

from infoseek.cli_estimate import estimate_note, estimate_rows, table_lines
from infoseek.inspect_tasks._registry import PACKAGED_TASKS


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
    rows = estimate_rows(args.task or sorted(PACKAGED_TASKS), args.samples,
                         notice=lambda line: print(f"bench_tokens: {line}", file=sys.stderr,
                                                   flush=True))
    print(estimate_note(args.samples))
    print("\n".join(table_lines(rows, args.markdown)))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
