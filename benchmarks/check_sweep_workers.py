"""A sweep on N local workers reports as the one-process sweep (issue 33, item 2).

    python benchmarks/check_sweep_workers.py                    # suite, infoseek/optimal,
                                                                # --per-k 1, --workers 2
    python benchmarks/check_sweep_workers.py --recipe force_ask --model infoseek/random

Runs `infoseek sweep RECIPE --model M --per-k P` twice, each as its own `infoseek`
process into a fresh log folder: once in one process, once with `--workers N`
(N processes, each running one share of every run's samples). Then it reports each
folder (`infoseek report --no-bundle --quiet`, again a process each) and compares every
CSV table of the two reports: same tables, same rows in the same order, same values,
leaving out only the `source` column (it names the log files behind each row, which
differ by design). Prints the wall time of each step with the load average, every table
compared, and any difference; exits 1 when the reports differ.

Both sweeps share one dataset cache (a fresh temporary folder unless `--cache` names
one), filled by the first, so the second does not pay for the builds the first paid for;
the first sweep's time includes them.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import pandas as pd

INFOSEEK = str(Path(sys.executable).with_name("infoseek"))


class Failed(Exception):
    """An `infoseek` command exited with an error."""


def timed(args: list[str]) -> float:
    """Run one `infoseek` command; its wall seconds (`Failed` with its last line of
    error output when it fails)."""
    start = time.perf_counter()
    done = subprocess.run([INFOSEEK, *args], stdout=subprocess.DEVNULL,
                          stderr=subprocess.PIPE, text=True)
    if done.returncode:
        last = [line for line in done.stderr.splitlines() if line.strip()][-1:]
        raise Failed(f"infoseek {' '.join(args)} exited {done.returncode}: "
                     + (last[0] if last else "(no error output)"))
    return time.perf_counter() - start


def tables(report: Path) -> dict[str, pd.DataFrame]:
    """Every CSV table of a report, without its `source` column."""
    return {path.name: pd.read_csv(path).drop(columns=["source"], errors="ignore")
            for path in sorted((report / "tables").glob("*.csv"))}


def differences(one: dict[str, pd.DataFrame], many: dict[str, pd.DataFrame]) -> list[str]:
    """What differs between two reports' tables (empty: none)."""
    found = [f"table only in the one-process report: {name}" for name in one if name not in many]
    found += [f"table only in the workers' report: {name}" for name in many if name not in one]
    for name in sorted(set(one) & set(many)):
        try:
            pd.testing.assert_frame_equal(many[name], one[name], obj=name)
        except AssertionError as error:
            found.append(f"{name}: {str(error).splitlines()[0]}")
    return found


def load() -> str:
    return "load average " + ", ".join(f"{x:.1f}" for x in os.getloadavg())


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--recipe", default="suite")
    parser.add_argument("--model", default="infoseek/optimal")
    parser.add_argument("--per-k", type=int, default=1)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--cache", default=None,
                        help="dataset cache folder (default: a fresh temporary one)")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp)
        os.environ["INFOSEEK_CACHE_DIR"] = args.cache or str(root / "cache")
        sweep = ["sweep", args.recipe, "--model", args.model, "--per-k", str(args.per_k)]
        print(f"{' '.join(sweep)}  ({load()})")
        wall = timed([*sweep, "--log-dir", str(root / "one")])
        print(f"one process:           {wall:6.1f} s wall ({load()})")
        wall = timed([*sweep, "--workers", str(args.workers), "--log-dir", str(root / "many")])
        print(f"--workers {args.workers}:            {wall:6.1f} s wall ({load()})")
        for name in ("one", "many"):
            wall = timed(["report", str(root / name), "--out", str(root / f"report-{name}"),
                          "--no-bundle", "--quiet"])
            print(f"report of {name:4s}:        {wall:6.1f} s wall ({load()})")
        one, many = tables(root / "report-one"), tables(root / "report-many")
        logs = sum(1 for _ in (root / "one").rglob("*.eval"))
        print(f"{logs} logs in the one-process sweep; {len(one)} tables compared "
              f"({sum(len(frame) for frame in one.values())} rows in all)")
        found = differences(one, many)
        for line in found:
            print("DIFFERS " + line)
        print("the reports are equal (source column left out)" if not found
              else f"{len(found)} difference(s)")
        return 1 if found or not one else 0


if __name__ == "__main__":
    try:
        sys.exit(main())
    except Failed as failure:
        print(f"FAILED {failure}")
        sys.exit(1)
