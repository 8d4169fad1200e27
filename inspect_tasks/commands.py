"""The `infoseek` subcommands that read or make logs: `report`, `k50`, `sweep`, `merge`
and `estimate`. They live in the task layer, beside what they run; the command's front
door, `infoseek.cli`, adds them (`add_report_commands`, `add_estimate_command`).

A command that reads logs (`report`, `k50`) takes them as ``LOGS...`` (files or folders)
through `_logs_command`; every failure the report layer names (`ReportError`,
`SweepError`, `MergeError`) ends the command with status 2 and its one-line message.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

from infoseek.cli import positive, progress_line
from infoseek.cli_files import output_problem


def _report(args: argparse.Namespace) -> int:
    from infoseek.inspect_tasks.report import ReportError, build_report

    progress = None if args.quiet else progress_line(sys.stderr)
    try:
        report = build_report(args.logs, args.out, bundle=args.bundle, progress=progress,
                              notice=lambda line: print(f"infoseek report: {line}",
                                                        file=sys.stderr),
                              force=args.force,
                              compare=[tuple(pair) for pair in args.compare or []],
                              prices=args.prices)
    except ReportError as exc:
        print(f"infoseek report: {exc}", file=sys.stderr)
        return 2
    for line in report.skipped:
        print(f"infoseek report: left out {line}", file=sys.stderr)
    tables = sum(len(s.tables) for s in report.sections)
    pictures = sum(len(s.figures) for s in report.sections)
    print(f"{len(report.logs)} log(s), {report.samples} sample(s) ({report.errored} errored), "
          f"{len(report.sections)} task(s): {tables} tables, {pictures} figures -> "
          f"{report.out / 'index.html'}")
    return 0


def _k50(args: argparse.Namespace) -> int:
    from infoseek.inspect_tasks.report import ReportError
    from infoseek.inspect_tasks.report.k50 import k50_lines

    try:
        lines = k50_lines(args.logs)
    except ReportError as exc:
        print(f"infoseek k50: {exc}", file=sys.stderr)
        return 2
    print("\n".join(lines))
    return 0


def _sweep(args: argparse.Namespace) -> int:
    from infoseek.inspect_tasks.report.sweeps import SweepError, run_sweep

    if args.workers > 1:
        return _sweep_workers(args)
    try:
        done = run_sweep(args.recipe, args.model, args.log_dir, task=args.task,
                         per_k=args.per_k, max_samples=args.max_samples,
                         shard=args.shard, display="plain" if args.shard else None)
    except SweepError as exc:
        print(f"infoseek sweep: {exc}", file=sys.stderr)
        return 2
    if args.shard:  # one worker of `--workers N`: the parent says how to report
        print(f"sweep {args.recipe}, share {args.shard}: "
              f"{'every run finished' if done else 'some runs failed'}")
        return 0 if done else 1
    print(f"sweep {args.recipe}: {'every run finished' if done else 'some runs failed'}; "
          f"report it with: infoseek report {args.log_dir} --out <folder>")
    return 0 if done else 1


def _sweep_workers(args: argparse.Namespace) -> int:
    """`sweep --workers N`: N processes, the i-th running every run's i-th share of the
    samples (`-T shard=i/N`) as its own eval set in ``<log-dir>/shard-i-of-N``; the report
    of the log folder pools the shares into the one-process rows."""
    import subprocess

    from infoseek.cli_files import folder_problem
    from infoseek.inspect_tasks.report.sweeps import SweepError, build_splits

    problem = folder_problem(args.log_dir, "--log-dir")
    if problem is not None:
        print(f"infoseek sweep: {problem}", file=sys.stderr)
        return 2
    try:  # once here, not once in each worker
        build_splits(args.recipe, args.task, args.per_k, workers=args.workers)
    except SweepError as exc:
        print(f"infoseek sweep: {exc}", file=sys.stderr)
        return 2
    workers = []
    for index in range(1, args.workers + 1):
        share = f"{index}/{args.workers}"
        folder = str(Path(args.log_dir) / f"shard-{index}-of-{args.workers}")
        command = [sys.executable, "-m", "infoseek.cli", "sweep", args.recipe,
                   "--log-dir", folder, "--per-k", str(args.per_k), "--shard", share,
                   *(x for m in args.model for x in ("--model", m))]
        if args.task:
            command += ["--task", args.task]
        if args.max_samples:
            command += ["--max-samples", str(args.max_samples)]
        workers.append((share, subprocess.Popen(command)))
    codes = [(share, worker.wait()) for share, worker in workers]
    failed = [f"{share} (exit status {code})" for share, code in codes if code != 0]
    print(f"sweep {args.recipe} on {args.workers} workers: "
          + (f"shares {', '.join(failed)} did not finish" if failed else "every share finished")
          + f"; report it with: infoseek report {args.log_dir} --out <folder>")
    return max(code for _, code in codes)


def _merge(args: argparse.Namespace) -> int:
    from infoseek.inspect_tasks.shard_logs import MergeError, write_merged

    if args.out.suffix not in (".eval", ".json"):
        print(f"infoseek merge: -o {args.out} must end in .eval or .json (the log format "
              "to write)", file=sys.stderr)
        return 2
    problem = output_problem(str(args.out), args.force, option="-o",
                             inputs=[str(p) for p in args.logs])
    if problem is not None:
        print(f"infoseek merge: {problem}", file=sys.stderr)
        return 2
    try:
        merged = write_merged(args.logs, args.out)
    except MergeError as exc:
        print(f"infoseek merge: {exc}", file=sys.stderr)
        return 2
    print(f"{len(args.logs)} shard log(s) of {merged.eval.task}, "
          f"{merged.eval.dataset.samples} sample(s) -> {args.out}")
    return 0


def _logs_command(sub: Any, name: str, run: Callable[[argparse.Namespace], int], *,
                  help: str, description: str) -> argparse.ArgumentParser:
    """A subcommand of `sub` whose first argument is ``LOGS...`` (log files or folders)."""
    command = sub.add_parser(name, help=help, description=description)
    command.add_argument("logs", nargs="+", metavar="LOGS", help="log files or folders")
    command.set_defaults(run=run)
    return command


def add_report_commands(sub: Any) -> None:
    """Add `report`, `k50`, `sweep` and `merge`, in that order, to the subparsers `sub`."""
    reporting = _logs_command(
        sub, "report", _report, help="tables, figures and an HTML page from logs",
        description="Read logs (files or folders) and write per-task Markdown and CSV "
        "tables with the published numbers beside them, PNG figures, samples.csv and "
        "turns.csv (long form), and one self-contained index.html. A log that is not an "
        "infoseek log is named in one line and the others are still reported.")
    reporting.add_argument("--out", required=True,
                           help="folder to write (created; never a file or a device; an "
                           "earlier report there is kept unless --force)")
    reporting.add_argument("--force", action="store_true",
                           help="replace an earlier report in --out (its tables/, "
                           "figures/, viewer/ and files; nothing else there)")
    reporting.add_argument("--no-bundle", dest="bundle", action="store_false",
                           help="no Inspect View bundle of the logs (viewer/), so no "
                           "transcript links")
    reporting.add_argument("--quiet", action="store_true", help="no progress bar")
    reporting.add_argument("--compare", nargs=2, action="append", metavar=("A", "B"),
                           help="paired differences A - B with bootstrap intervals over "
                           "problems; A and B are models (compared in each setting both "
                           "ran) or row labels; repeatable. Without it every two models "
                           "that ran the same samples in one setting are compared")
    reporting.add_argument("--prices", metavar="FILE", default=None,
                           help="JSON or YAML file: model name -> {input, output, and "
                           "optionally cached, cache_write} in price per million tokens; "
                           "adds total and per-sample cost to each task's tokens table "
                           "(docs/tokens.md)")

    _logs_command(
        sub, "k50", _k50, help="k50 per model and task from logs, and the k to run next",
        description="Read logs (files or folders) and print, per task and row (model and "
        "setting), the k at which final sufficiency falls to one half with a bootstrap "
        "interval, and which k to run next until the fit brackets one half or the "
        "builder's largest k is reached (docs/reports.md, k50).")

    from infoseek.inspect_tasks.report.sweeps import RECIPES

    sweeping = sub.add_parser(
        "sweep", help="run one of the papers' sweeps with inspect eval-set",
        description="Run a recipe (one registered task per setting) with Inspect's "
        "eval_set into --log-dir; the same command resumes an unfinished sweep. "
        "Recipes: " + "; ".join(f"{r.name}: {r.description}" for r in RECIPES.values()))
    sweeping.add_argument("recipe", choices=list(RECIPES), metavar="RECIPE",
                          help="one of: " + ", ".join(RECIPES))
    sweeping.add_argument("--model", action="append", required=True,
                          help="model to evaluate (repeat for several)")
    sweeping.add_argument("--log-dir", required=True, dest="log_dir",
                          help="eval-set log folder (one per sweep)")
    sweeping.add_argument("--task", default=None,
                          help="the task a seek-setting recipe varies (default logic_mt; "
                          "prompt_modes: logic_q)")
    sweeping.add_argument("--per-k", type=positive, default=10, dest="per_k",
                          help="problems per k of every task (default 10)")
    sweeping.add_argument("--max-samples", type=positive, default=None, dest="max_samples",
                          help="samples run at once (Inspect's --max-samples)")
    sweeping.add_argument("--workers", type=positive, default=1,
                          help="local processes to run the sweep on (default 1): each runs "
                          "one share of every run's samples (-T shard=i/N) into "
                          "<log-dir>/shard-i-of-N; rerun the same command to resume")
    sweeping.add_argument("--shard", default=None, help=argparse.SUPPRESS)
    sweeping.set_defaults(run=_sweep)

    merging = sub.add_parser(
        "merge", help="one Inspect log of the shards of a task (-T shard=i/n)",
        description="Merge the logs of the n shards of one run (-T shard=1/n ... n/n, run "
        "anywhere) into one log, as if the task had run unsharded: every sample, the "
        "metrics recomputed over all of them. Logs of different tasks, settings or "
        "models, a shard missing or given twice, or an unfinished shard are refused.")
    merging.add_argument("logs", nargs="+", metavar="LOGS", help="the shards' log files")
    merging.add_argument("-o", "--out", required=True, type=Path,
                         help="the merged log to write (.eval or .json; an existing file is "
                         "kept unless --force)")
    merging.add_argument("--force", action="store_true", help="overwrite an existing -o")
    merging.set_defaults(run=_merge)


def _estimate(args: argparse.Namespace) -> int:
    from infoseek.inspect_tasks.play import PlayError, parse_task_args
    from infoseek.inspect_tasks.report import estimate

    def notice(line: str) -> None:
        if not args.quiet:
            print(f"infoseek estimate: {line}", file=sys.stderr, flush=True)

    try:
        task_args = parse_task_args(args.task_args)
        for name in args.tasks:  # every name and -T checked before any task is built
            estimate.checked_task(name, task_args)
        rows = estimate.estimate_rows(args.tasks, args.samples, task_args, notice)
    except (estimate.EstimateError, PlayError) as exc:
        print(f"infoseek estimate: {exc}", file=sys.stderr)
        return 2
    print(estimate.estimate_note(args.samples))
    print("\n".join(estimate.table_lines(rows, args.markdown)))
    return 0


def add_estimate_command(sub: Any, positive: Callable[[str], int]) -> None:
    """Add `estimate` to the subparsers `sub` (`positive`: the command's integer type)."""
    estimating = sub.add_parser(
        "estimate", help="estimated tokens a run of each task will send, before running it",
        description="Build each task (at its defaults, or with the -T arguments, which "
        "every task given must take), play a few of its samples with the infoseek/random "
        "reference player (no language model), and print per task its sample count and "
        "the tokens estimated as ceil(characters / 4): the first prompt per sample, "
        "holding for any model, and whole episodes, the random player's. An estimate, "
        "not a tokenizer's count (docs/tokens.md).")
    estimating.add_argument("tasks", nargs="+", metavar="TASKS",
                            help="task names, e.g. logic_mt gsme_q")
    estimating.add_argument("-T", action="append", default=[], dest="task_args",
                            metavar="NAME=VALUE", help="task argument, as inspect eval -T")
    estimating.add_argument("--samples", type=positive, default=5,
                            help="samples played per task, spread over its dataset "
                            "(default 5)")
    estimating.add_argument("--markdown", action="store_true", help="a Markdown table")
    estimating.add_argument("--quiet", action="store_true",
                            help="no progress lines on standard error")
    estimating.set_defaults(run=_estimate)
