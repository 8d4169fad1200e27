"""The `infoseek` command (a front door of the core: it may reach the outer layers).

    infoseek build logic-mt --out logic.jsonl [--seed N] [--per-k N] [--k 1 2 3 4] [--force]
    infoseek build gsme-mt-ext --out ext.jsonl [--seed N] [--per-k N] [--k 1 2 3 4]
    infoseek verify logic_q_mt.csv --source-format mt-infoseek-logic [--out DIR] [--limit N]
    infoseek verify genereg.jsonl --source-format mt-infoseek-genereg --rules DIR \
        [--write-corrected OUT [--force]]
    infoseek filter QS_LOG WS_LOG
    infoseek report LOGS... --out DIR [--force] [--no-bundle] [--quiet] [--compare A B] \
        [--prices PRICES.yaml]
    infoseek sweep RECIPE --model M [--model M2] --log-dir DIR [--task T] [--per-k N] [--workers N]
    infoseek k50 LOGS...
    infoseek merge SHARD_LOGS... -o merged.eval [--force]
    infoseek play TASK [-T NAME=VALUE ...] [--limit N] [--log-dir DIR]
    infoseek estimate TASKS... [-T NAME=VALUE ...] [--samples N] [--markdown] [--quiet]

The builders `build` offers and the source formats `verify --source-format` accepts (the
layouts of released files; ``--format`` is an older spelling of the option) are those the
registered domains declare (`infoseek.domains`), installed plug-ins' included (entry-point
group ``infoseek.domains``); a broken plug-in is named in a warning and in the error for
a builder nothing declares, and the other builders still work. The extra inputs `verify`
offers (`--rules DIR`, ...) are `infoseek.builders.published.INPUTS`.

Files are checked before any work (`infoseek.cli_files`); ``build --k`` takes each k once.
The commands that read or make logs (`report`, `k50`, `sweep`, `merge`, `estimate`) live
in the task layer with what they compute (`infoseek.inspect_tasks.commands`); this front
door adds them.
"""

from __future__ import annotations

import argparse
import sys
import textwrap
import threading
import time
from collections.abc import Callable, Sequence
from typing import Any

from infoseek.cli_files import output_problem, verify_output_problem
from infoseek.domains import (
    UnknownDomain,
    builder_names,
    get_builder,
    resolve,
    source_format_names,
)
from infoseek.jsonl import jsonl_bytes, write_atomically


def progress_line(stream) -> Callable[[int, int], None]:
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


class _Bar:
    """`infoseek build`'s progress bar on `stream`: redrawn when the builder reports
    (at most every half second, and at the end), and while it is silent at least every
    `interval` seconds with the time so far (a thread: a genereg build once went 31 s
    between two reports). `stop` ends the thread."""

    def __init__(self, stream: Any, interval: float = 10.0) -> None:
        self.stream, self.interval = stream, interval
        self.start = self.last = time.monotonic()
        self.done, self.total, self.first = 0, 0, True
        self.lock = threading.Lock()
        self.stopped = threading.Event()
        self.thread = threading.Thread(target=self._watch, name="build progress", daemon=True)
        self.thread.start()

    def __call__(self, done: int, total: int) -> None:
        with self.lock:
            self.done, self.total = done, total
            if done == total or self.first or time.monotonic() - self.last > 0.5:
                self.first = False
                self._draw()

    def stop(self) -> None:
        self.stopped.set()
        self.thread.join()

    def _draw(self, elapsed: str = "") -> None:
        self.last = time.monotonic()
        width = 30
        filled = int(width * self.done / max(self.total, 1))
        bar = "#" * filled + "-" * (width - filled)
        end = "\n" if self.total and self.done == self.total else ""
        try:
            self.stream.write(f"\r[{bar}] {self.done}/{self.total or '?'}{elapsed}{end}")
            self.stream.flush()
        except (OSError, ValueError):
            pass  # a closed stream never stops a build

    def _watch(self) -> None:
        margin = min(1.0, self.interval / 10)
        while not self.stopped.wait(max(self.last + self.interval - margin - time.monotonic(),
                                        0.0)):
            with self.lock:
                if time.monotonic() - self.last >= self.interval - margin:
                    self._draw(f" ({time.monotonic() - self.start:.0f} s)")


def _build(args: argparse.Namespace) -> int:
    _, spec = get_builder(args.builder)
    per_k = args.per_k if args.per_k is not None else spec.default_per_k
    cap = spec.max_per_k
    if per_k > cap:
        print(f"infoseek build: --per-k {per_k} is above the cap for {args.builder} "
              f"({cap} problems per k)", file=sys.stderr)
        return 2
    problem = output_problem(args.out, args.force)
    if problem is not None:
        print(f"infoseek build: {problem}", file=sys.stderr)
        return 2
    start = time.perf_counter()
    ks = args.k if args.k is not None else list(spec.default_ks)
    repeated = sorted({k for k in ks if ks.count(k) > 1})
    if repeated:
        print(f"infoseek build: --k {' '.join(map(str, repeated))} is given more than once "
              "(each k is built once; the records would repeat)", file=sys.stderr)
        return 2
    bad_k = [k for k in ks if k not in spec.ks]
    if bad_k:
        print(f"infoseek build: --k {' '.join(map(str, bad_k))} is not available for "
              f"{args.builder} (1 to {spec.max_k})", file=sys.stderr)
        return 2
    progress = None if args.quiet else _Bar(sys.stderr)
    try:
        records: list[dict[str, Any]] = resolve(spec.build)(
            args.seed, per_k, ks, workers=args.workers, progress=progress
        )
    except ValueError as exc:
        print(f"infoseek build: {exc}", file=sys.stderr)
        return 2
    finally:
        if progress is not None:
            progress.stop()
    try:
        write_atomically(args.out, jsonl_bytes(records), ordinary_mode=True)
    except OSError as exc:
        print(f"infoseek build: cannot write {args.out}: {exc.strerror}", file=sys.stderr)
        return 2
    seconds = time.perf_counter() - start
    print(f"built {len(records)} problems in {seconds:.2f} s -> {args.out}")
    if spec.shape and records:
        for line in resolve(spec.shape)(records):
            print(line)
    return 0


def _verify(args: argparse.Namespace) -> int:
    from infoseek.builders.published import INPUTS, PublishedDataError
    from infoseek.builders.published.verify import verify_source

    progress = None if args.quiet else progress_line(sys.stderr)
    inputs = {name: getattr(args, name) for name in INPUTS
              if getattr(args, name, None) is not None}
    problem = verify_output_problem(args)
    if problem is not None:
        print(f"infoseek verify: {problem}", file=sys.stderr)
        return 2
    try:
        summary = verify_source(args.path, args.source_format, out_dir=args.out, limit=args.limit,
                                workers=args.workers, strict=args.strict, progress=progress,
                                inputs=inputs, corrected=args.write_corrected,
                                force=args.force)
    except PublishedDataError as exc:
        print(f"infoseek verify: {exc}", file=sys.stderr)
        return 2
    except OSError as exc:
        print(f"infoseek verify: cannot write results: {exc}", file=sys.stderr)
        return 2
    checks = summary["rows_by_check"]
    print(f"{summary['source']} ({summary['format']}): {summary['rows']} rows verified in "
          f"{summary['seconds']:.2f} s")
    if checks:
        print("rows by disagreement: " + ", ".join(f"{c}={n}" for c, n in checks.items()))
    if summary["rows_by_note"]:
        print("rows with notes (not ground truth): "
              + ", ".join(f"{c}={n}" for c, n in summary["rows_by_note"].items()))
    if summary["undecided"]:
        print(f"undecided={summary['undecided']} (rows the exact engine could not decide or "
              "the loader failed on; reasons in disagreements.jsonl)")
    print(f"disagreements -> {summary['disagreements_file']}")
    print(f"summary -> {summary['summary_file']}")
    if "corrected_file" in summary:
        left_out = summary["corrected_left_out"]
        print(f"corrected {summary['corrected_rows']} rows -> {summary['corrected_file']}"
              + (f" (left out {len(left_out)} row(s) that cannot be read: "
                 f"{', '.join(left_out[:5])}{' ...' if len(left_out) > 5 else ''})"
                 if left_out else ""))
    print(f"agree={summary['agree']} disagree={summary['disagree']}")
    return 0


def _filter(args: argparse.Namespace) -> int:
    from infoseek.scorers.filtered_accuracy import FilterError, filtered_accuracy, format_filtered

    try:
        result = filtered_accuracy(args.question_log, args.solving_log)
    except FilterError as exc:
        print(f"infoseek filter: {exc}", file=sys.stderr)
        return 2
    print(format_filtered(result))
    return 0


def _play(args: argparse.Namespace) -> int:
    from infoseek.inspect_tasks.play import PlayError, parse_task_args, play, summary

    try:
        log = play(args.task, parse_task_args(args.task_args), limit=args.limit,
                   log_dir=args.log_dir)
    except PlayError as exc:
        print(f"infoseek play: {exc}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        log = None
    if log is None:
        print(f"infoseek play: stopped (Ctrl-C); the log of the run so far, status "
              f"cancelled, is in {args.log_dir or 'the Inspect log folder'}", file=sys.stderr)
        return 130
    print(summary(log))
    return 0 if log.status == "success" else 1


def positive(text: str) -> int:
    value = int(text)
    if value < 1:
        raise argparse.ArgumentTypeError(f"must be a positive integer, got {text}")
    return value


def _builder_name(text: str) -> str:
    """A registered builder's name; otherwise the registry's error, which lists the
    builders and any installed plug-in that failed to load."""
    try:
        get_builder(text)
    except UnknownDomain as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None
    return text


class _WholeNames(argparse.HelpFormatter):
    """Help text wrapped between words only: a builder name (``gsme-mt-ext``) is never
    split at its hyphens."""

    def _split_lines(self, text: str, width: int) -> list[str]:
        return textwrap.wrap(" ".join(text.split()), width, break_on_hyphens=False)


def parser() -> argparse.ArgumentParser:
    top = argparse.ArgumentParser(
        prog="infoseek", description="infoseek: build and check information-seeking problems."
    )
    sub = top.add_subparsers(dest="command", required=True)
    build = sub.add_parser("build", help="build a problem split as JSONL",
                           formatter_class=_WholeNames)
    builders = [get_builder(name)[1] for name in builder_names()]
    build.add_argument("builder", type=_builder_name, metavar="BUILDER",
                       help="which problem family to build: "
                       + ", ".join(b.name for b in builders))
    build.add_argument("--out", required=True,
                       help="output JSONL file (its folder must exist; an existing file is "
                       "kept unless --force)")
    build.add_argument("--force", action="store_true", help="overwrite an existing --out")
    build.add_argument("--seed", type=int, default=0, help="random seed (default 0)")
    build.add_argument("--per-k", type=positive, default=None, dest="per_k",
                       help="problems per k (default: " + ", ".join(
                           f"{b.name} {b.default_per_k}" for b in builders) + "; at most "
                       + ", ".join(f"{b.max_per_k} for {b.name}" for b in builders) + ")")
    build.add_argument("--k", type=int, nargs="+", default=None,
                       help="degrees of underspecification (default: " + ", ".join(
                           f"{b.name} {' '.join(map(str, b.default_ks))}" for b in builders)
                       + "; at most " + ", ".join(f"{b.max_k} for {b.name}" for b in builders)
                       + ")")
    build.add_argument("--workers", type=positive, default=None,
                       help="worker processes (default: one per CPU)")
    build.add_argument("--quiet", action="store_true", help="no progress bar")
    build.set_defaults(run=_build)

    verify = sub.add_parser(
        "verify", help="re-verify a released file's ground truth with the exact engines",
        formatter_class=_WholeNames,
        description="Map every row of a released file to a problem record and recompute "
        "its ground truth (underspecification, k, MSS family or the released MSS's "
        "sufficiency and minimality, answers). Writes disagreements.jsonl and summary.json "
        "and ends with a line 'agree=N disagree=M'. Exit status 0 when the file was "
        "verified (whatever it disagrees on), 2 when it cannot be read.")
    verify.add_argument("path", help="a released CSV/JSON file (local path or URL)")
    verify.add_argument("--source-format", "--format", choices=source_format_names(),
                        default=None, dest="source_format", metavar="NAME",
                        help="the file's source format, the layout of its release: "
                        + ", ".join(source_format_names()) + " (default: detected from its "
                        "columns; --format is an older spelling)")
    verify.add_argument("--out", default=None,
                        help="output folder (default: <file stem>.<source format>.verify; "
                        "an earlier run's results there are kept unless --force)")
    verify.add_argument("--limit", type=positive, default=None,
                        help="verify only the first N rows")
    verify.add_argument("--workers", type=positive, default=None,
                        help="worker processes (default: one per CPU)")
    verify.add_argument("--strict", action="store_true",
                        help="stop at the first malformed row instead of reporting it")
    verify.add_argument("--write-corrected", default=None, metavar="OUT",
                        dest="write_corrected",
                        help="also write every readable row to OUT (JSON Lines, the released "
                        "layout) with the recomputed ground truth and a note of what "
                        "changed; for source formats that offer corrections")
    verify.add_argument("--force", action="store_true",
                        help="overwrite the results of an earlier run in the --out folder, "
                        "and an existing --write-corrected file (never the input file, nor "
                        "a device or FIFO)")
    from infoseek.builders.published import INPUTS

    for name, meaning in INPUTS.items():
        verify.add_argument(f"--{name}", default=None, metavar="DIR", help=meaning)
    verify.add_argument("--quiet", action="store_true", help="no progress bar")
    verify.set_defaults(run=_verify)

    filtering = sub.add_parser(
        "filter", help="question-selection accuracy on problems whose well-specified "
        "version was solved",
        description="Join a question-selection log and a well-specified-solving log of "
        "the same problems by problem id; print unfiltered, lenient (some restored value "
        "solved) and strict (every restored value solved) accuracy with the problems kept.")
    filtering.add_argument("question_log", metavar="QS_LOG",
                           help="log of a question-selection task (logic_q, gsme_q, ...)")
    filtering.add_argument("solving_log", metavar="WS_LOG",
                           help="log of the matching *_well_specified task")
    filtering.set_defaults(run=_filter)

    from infoseek.inspect_tasks.commands import add_report_commands

    add_report_commands(sub)

    playing = sub.add_parser(
        "play", help="play a task yourself in the terminal (model infoseek/human)",
        description="Play a task as the model: the same prompts, oracle and scorers, in the "
        "text format, one sample at a time, written to an ordinary Inspect log (model "
        "infoseek/human). End each reply with an empty line; Ctrl-D gives up a sample.")
    playing.add_argument("task", metavar="TASK", help="task name, e.g. logic_mt")
    playing.add_argument("-T", action="append", default=[], dest="task_args",
                         metavar="NAME=VALUE", help="task argument, as inspect eval -T")
    playing.add_argument("--limit", type=positive, default=None,
                         help="play only the first N samples")
    playing.add_argument("--log-dir", default=None, dest="log_dir",
                         help="where the log goes (Inspect's default: ./logs)")
    playing.set_defaults(run=_play)

    from infoseek.inspect_tasks.commands import add_estimate_command

    add_estimate_command(sub, positive)
    return top


def main(argv: Sequence[str] | None = None) -> int:
    args = parser().parse_args(argv)
    return int(args.run(args))


if __name__ == "__main__":
    raise SystemExit(main())
