"""The `infoseek` command (a front door of the core: it may reach the outer layers).

    infoseek build logic-mt --out logic.jsonl [--seed N] [--per-k N] [--k 1 2 3 4]
    infoseek build gsme-mt-ext --out ext.jsonl [--seed N] [--per-k N] [--k 1 2 3 4]
    infoseek build gsme-mt --out gsme.jsonl [--seed N] [--per-k N] [--k 1 2 3 4]
"""

from __future__ import annotations

import argparse
import sys
import time
from collections.abc import Callable, Sequence
from typing import Any

BUILDERS = ("logic-mt", "gsme-mt", "gsme-mt-ext")


def _progress(stream) -> Callable[[int, int], None]:
    last = {"t": 0.0}

    def show(done: int, total: int) -> None:
        now = time.monotonic()
        if done == total or now - last["t"] > 0.5:
            last["t"] = now
            width = 30
            filled = int(width * done / max(total, 1))
            bar = "#" * filled + "-" * (width - filled)
            end = "\n" if done == total else ""
            stream.write(f"\r[{bar}] {done}/{total}{end}")
            stream.flush()

    return show


def _build(args: argparse.Namespace) -> int:
    from infoseek.records import write_jsonl

    if args.builder == "gsme-mt":
        from builders import gsme_mt as module
    elif args.builder == "gsme-mt-ext":
        from builders import gsme_ext as module
    else:
        from builders import logic_mt as module
    per_k = args.per_k if args.per_k is not None else module.DEFAULT_PER_K
    start = time.perf_counter()
    progress = None if args.quiet else _progress(sys.stderr)
    try:
        records: list[dict[str, Any]] = module.build_split(
            args.seed, per_k, args.k, workers=args.workers, progress=progress
        )
    except ValueError as exc:
        print(f"infoseek build: {exc}", file=sys.stderr)
        return 2
    try:
        count = write_jsonl(records, args.out)
    except OSError as exc:
        print(f"infoseek build: cannot write {args.out}: {exc.strerror}", file=sys.stderr)
        return 2
    seconds = time.perf_counter() - start
    print(f"built {count} problems in {seconds:.2f} s -> {args.out}")
    return 0


def _positive(text: str) -> int:
    value = int(text)
    if value < 1:
        raise argparse.ArgumentTypeError(f"must be a positive integer, got {text}")
    return value


def parser() -> argparse.ArgumentParser:
    top = argparse.ArgumentParser(
        prog="infoseek", description="infoseek: build and check information-seeking problems."
    )
    sub = top.add_subparsers(dest="command", required=True)
    build = sub.add_parser("build", help="build a problem split as JSONL")
    build.add_argument("builder", choices=BUILDERS, help="which problem family to build")
    build.add_argument("--out", required=True, help="output JSONL file")
    build.add_argument("--seed", type=int, default=0, help="random seed (default 0)")
    build.add_argument("--per-k", type=_positive, default=None, dest="per_k",
                       help="problems per k (default: logic-mt 200, gsme-mt-ext 130, "
                       "gsme-mt 100)")
    build.add_argument("--k", type=int, nargs="+", default=[1, 2, 3, 4],
                       help="degrees of underspecification (default 1 2 3 4; at most 5 for "
                       "logic-mt, 6 for gsme-mt-ext, 4 for gsme-mt)")
    build.add_argument("--workers", type=_positive, default=None,
                       help="worker processes (default: one per CPU)")
    build.add_argument("--quiet", action="store_true", help="no progress bar")
    build.set_defaults(run=_build)
    return top


def main(argv: Sequence[str] | None = None) -> int:
    args = parser().parse_args(argv)
    return int(args.run(args))


if __name__ == "__main__":
    raise SystemExit(main())
