"""What having infoseek installed costs an unrelated eval (issue 32, item 6).

    python benchmarks/bench_entry_point.py              # 3 runs of each variant
    python benchmarks/bench_entry_point.py --runs 5
    python benchmarks/bench_entry_point.py --entry-module old_registry --path DIR
                                                        # measure another entry module

Inspect imports every installed package's `inspect_ai` entry point when an `inspect`
command starts. This runs a trivial task that has nothing to do with infoseek (one
sample, `mockllm/model`, Inspect's `match` scorer) with `python -m inspect_ai eval` in a
fresh process, alternately

- with infoseek's entry point reachable (as installed; or, with `--entry-module`, the
  entry point pointed at another module, e.g. a copy of an earlier version found on
  `--path`), and
- with infoseek's entry point removed from what `importlib.metadata` lists,

and prints each variant's median peak RSS (the child's own `ru_maxrss`, from `wait4`),
wall time and CPU time (user + system, from `wait4`), and the differences (targets: at
most 10 MB and 0.3 s). Wall times on a shared machine are noisy (CPU time less so), so it
also prints the steadier `python -X importtime` cumulative time of importing the entry
module after `inspect_ai` (median of the runs).
"""

from __future__ import annotations

import argparse
import os
import re
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ENTRY_POINT = "infoseek"
DEFAULT_MODULE = "infoseek.inspect_tasks._registry"

TRIVIAL_TASK = '''
from inspect_ai import Task, task
from inspect_ai.dataset import Sample
from inspect_ai.scorer import match


@task
def trivial():
    return Task(dataset=[Sample(input="Reply with: hi", target="hi")], scorer=match())
'''

DRIVER = '''
import importlib.metadata as metadata
import runpy
import sys

mode, module = sys.argv[1], sys.argv[2]
original = metadata.entry_points


def entry_points(**params):
    found = original(**params)
    if params.get("group") != "inspect_ai":
        return found
    kept = [ep for ep in found if ep.name != "{name}"]
    if mode == "with":
        kept.append(metadata.EntryPoint(name="{name}", value=module, group="inspect_ai"))
    return metadata.EntryPoints(kept)


metadata.entry_points = entry_points
sys.argv = ["inspect", *sys.argv[3:]]
runpy.run_module("inspect_ai", run_name="__main__")
'''.replace("{name}", ENTRY_POINT)


def run_once(mode: str, module: str, folder: Path,
             env: dict[str, str]) -> tuple[float, float, float]:
    """(peak RSS in MB, wall seconds, CPU seconds) of one `inspect eval` of the trivial
    task."""
    command = [sys.executable, str(folder / "driver.py"), mode, module, "eval",
               "trivial.py", "--model", "mockllm/model",
               "--log-dir", f"logs-{mode}", "--display", "none"]
    start = time.perf_counter()
    child = subprocess.Popen(command, cwd=folder, env=env, stdout=subprocess.DEVNULL,
                             stderr=subprocess.PIPE)
    _, status, usage = os.wait4(child.pid, 0)
    wall = time.perf_counter() - start
    child.returncode = os.waitstatus_to_exitcode(status)
    errors = child.stderr.read().decode() if child.stderr else ""
    if child.returncode != 0:
        raise SystemExit(f"the {mode} run failed ({child.returncode}): {errors[-2000:]}")
    # ru_maxrss is in KiB on Linux
    return usage.ru_maxrss / 1024, wall, usage.ru_utime + usage.ru_stime


def import_time(module: str, env: dict[str, str]) -> float:
    """Cumulative seconds of importing `module` after `inspect_ai` (-X importtime)."""
    done = subprocess.run([sys.executable, "-X", "importtime", "-c",
                           f"import inspect_ai; import {module}"], env=env,
                          capture_output=True, text=True, check=True)
    for line in done.stderr.splitlines():
        found = re.match(r"import time:\s*(\d+) \|\s*(\d+) \|\s*(.*)$", line)
        if found and found[3].strip() == module:
            return int(found[2]) / 1e6
    raise SystemExit(f"-X importtime did not list {module}")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=3, help="runs of each variant")
    parser.add_argument("--entry-module", default=DEFAULT_MODULE,
                        help="module the infoseek entry point names (default: %(default)s)")
    parser.add_argument("--path", default=None,
                        help="folder put first on PYTHONPATH (to find --entry-module)")
    args = parser.parse_args(argv)
    if args.runs < 1:
        parser.error("--runs must be at least 1")
    env = dict(os.environ)
    if args.path:
        env["PYTHONPATH"] = os.pathsep.join(filter(None, [args.path, env.get("PYTHONPATH")]))
    with tempfile.TemporaryDirectory() as name:
        folder = Path(name)
        (folder / "trivial.py").write_text(TRIVIAL_TASK)
        (folder / "driver.py").write_text(DRIVER)
        measured: dict[str, list[tuple[float, float, float]]] = {"with": [], "without": []}
        run_once("without", args.entry_module, folder, env)  # warm the file caches
        for _ in range(args.runs):
            for mode in ("with", "without"):
                measured[mode].append(run_once(mode, args.entry_module, folder, env))
    imports = statistics.median(import_time(args.entry_module, env) for _ in range(args.runs))
    rss = {mode: statistics.median(m[0] for m in runs) for mode, runs in measured.items()}
    wall = {mode: statistics.median(m[1] for m in runs) for mode, runs in measured.items()}
    cpu = {mode: statistics.median(m[2] for m in runs) for mode, runs in measured.items()}
    print(f"trivial task, mockllm/model, {args.runs} runs each; entry module "
          f"{args.entry_module}")
    print(f"{'':24}{'peak RSS (MB)':>14}{'wall (s)':>10}{'CPU (s)':>10}")
    for mode in ("with", "without"):
        print(f"{mode + ' the entry point':24}{rss[mode]:14.1f}{wall[mode]:10.2f}"
              f"{cpu[mode]:10.2f}")
    rss_delta, wall_delta = rss["with"] - rss["without"], wall["with"] - wall["without"]
    cpu_delta = cpu["with"] - cpu["without"]
    print(f"{'difference':24}{rss_delta:14.1f}{wall_delta:10.2f}{cpu_delta:10.2f}")
    print(f"targets: RSS at most 10 MB ({'met' if rss_delta <= 10 else 'NOT met'}), start-up "
          f"at most 0.3 s (wall: {'met' if wall_delta <= 0.3 else 'NOT met'}, CPU: "
          f"{'met' if cpu_delta <= 0.3 else 'NOT met'})")
    print(f"-X importtime of {args.entry_module} after inspect_ai: {imports * 1000:.1f} ms "
          f"(median of {args.runs})")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
