"""`infoseek report` over a 20,000-sample sweep: cold, warm (cached) and with one new log,
beside a plain `inspect_ai.analysis.samples_df` read of the same logs.

    python benchmarks/bench_report_scale.py                  # 20,000 samples, 12 logs
    python benchmarks/bench_report_scale.py --samples 4000   # smaller

The logs are made by replicating the samples of the six small reference logs the report
tests keep (tests/report/data/scale_reference/logs: logic_mt, logic_q and
twenty_questions under infoseek/optimal and infoseek/random): each is copied into two
logs, its samples repeated under new ids and uuids (``<id>~<copy>``) up to that log's
share (logic_mt 25%, logic_q 15%, twenty_questions 10% per model), every copy with its
own eval id, so the report counts each once. The copies are written straight into the
``.eval`` zip (header, summaries, reductions, samples), as Inspect would; writing them
through `write_eval_log` costs about 70 ms a sample, longer than the report itself.

Each timed step runs in a fresh process pinned to the first two CPUs (the target is for
2 cores), the dataset and report caches in a fresh temporary folder; wall seconds and
peak resident memory (the process and its reading workers together, sampled every 250
ms) are printed, with CPU seconds (user + system of the process and its workers: on a
loaded machine the wall follows the load, the CPU much less) and each report's ratios
to the plain read:

1. plain: ``samples_df(logs)`` with its default columns (the sample summaries);
2. cold: ``build_report(logs, out, bundle=False)`` with an empty report cache (the
   transcript bundle, a copy of the logs for Inspect View, is left out);
3. warm: the same again, every log from the cache;
4. plus one: one more log added to the folder: only it is read.

The target (issue 33): 20,000 samples reported in at most 60 s and 2 GB on 2 cores.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import subprocess
import sys
import tempfile
import time
import zipfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import inspect_ai.log  # noqa: F401  (lets zipfile read and write Inspect's zstd members)
import psutil

REFERENCE = Path(__file__).resolve().parents[1] / "tests/report/data/scale_reference/logs"
SHARES = {"logic_mt": 0.25, "logic_q": 0.15, "twenty_questions": 0.10}
"""Each task's share of the samples, per model (two models: the shares sum to one half)."""
COPIES = 2
"""Logs made of each reference log."""
CPUS = "0,1"


def _compression() -> dict:
    kind = getattr(zipfile, "ZIP_ZSTANDARD", None)
    return {"compression": kind if kind is not None else zipfile.ZIP_DEFLATED}


def replicate(base: Path, out: Path, count: int, tag: str) -> int:
    """Write a copy of the log `base` holding `count` samples (its own repeated under new
    ids) and the eval id ``bench-<tag>``; the number of samples written."""
    with zipfile.ZipFile(base) as archive:
        members = {name: archive.read(name) for name in dict.fromkeys(archive.namelist())}
    header = json.loads(members["header.json"])
    start = json.loads(members["_journal/start.json"])
    summaries = json.loads(members["summaries.json"])
    reductions = json.loads(members.get("reductions.json", b"[]"))
    samples = [json.loads(data) for name, data in members.items()
               if name.startswith("samples/")]
    by_key = {(json.dumps(s["id"]), s["epoch"]): s for s in summaries}
    made_samples, made_summaries, ids = [], [], []
    copy = 0
    while len(made_samples) < count:
        for sample in samples:
            if len(made_samples) == count:
                break
            new_id = f"{sample['id']}~{copy}"
            uuid = f"{sample.get('uuid') or 'u'}-{tag}-{copy}"
            summary = dict(by_key[(json.dumps(sample["id"]), sample["epoch"])], id=new_id,
                           uuid=uuid)
            made_samples.append(dict(sample, id=new_id, uuid=uuid))
            made_summaries.append(summary)
            if new_id not in ids:
                ids.append(new_id)
        copy += 1
    for spec in (header["eval"], start["eval"]):
        spec["eval_id"] = f"bench-{tag}"
        spec["run_id"] = f"bench-run-{tag}"
        spec["dataset"]["samples"] = len(ids)
        spec["dataset"]["sample_ids"] = ids
    if header.get("results"):
        header["results"]["total_samples"] = count
        header["results"]["completed_samples"] = count
    originals = {}
    for made in made_samples:
        originals.setdefault(made["id"].rsplit("~", 1)[0], []).append(made["id"])
    for reduction in reductions:
        reduction["samples"] = [dict(entry, sample_id=new)
                                for entry in reduction.get("samples", [])
                                for new in originals.get(str(entry.get("sample_id")), [])]
    with zipfile.ZipFile(out, "w", **_compression()) as archive:
        archive.writestr("_journal/start.json", json.dumps(start))
        for sample in made_samples:
            archive.writestr(f"samples/{sample['id']}_epoch_{sample['epoch']}.json",
                             json.dumps(sample))
        archive.writestr("summaries.json", json.dumps(made_summaries))
        archive.writestr("reductions.json", json.dumps(reductions))
        archive.writestr("header.json", json.dumps(header))
    return count


def make_logs(folder: Path, total: int) -> tuple[int, list[Path]]:
    """The sweep's logs in `folder` (module docstring); (samples, files)."""
    folder.mkdir(parents=True)
    written, files = 0, []
    for base in sorted(REFERENCE.glob("*.eval")):
        share = SHARES[base.name.split(".")[0]]
        per_log = round(total * share / COPIES)
        for copy in range(COPIES):
            path = folder / f"{base.stem}.{copy}.eval"
            written += replicate(base, path, per_log, f"{base.stem}-{copy}")
            files.append(path)
    return written, files


STEP = r"""
import sys, time
sys.path.insert(0, {repo!r})
start = time.perf_counter()
if {step!r} == "plain":
    from inspect_ai.analysis import samples_df
    print("ROWS", len(samples_df({logs!r}, quiet=True)))
else:
    from infoseek.inspect_tasks.report import build
    seen = {{}}
    def read(*args, **kwargs):
        begun = time.perf_counter()
        logs = reader(*args, **kwargs)
        seen.update(logs=logs, seconds=time.perf_counter() - begun)
        return logs
    reader, build.read_logs = build.read_logs, read
    build.build_report([{logs!r}], {out!r}, bundle=False, force=True)
    logs = seen["logs"]
    print("ROWS", len(logs.samples), "READ", len(logs.fresh), "CACHED", len(logs.cached),
          "READING", round(seen["seconds"], 1))
print("SECONDS", time.perf_counter() - start)
"""


def timed(step: str, logs: Path, out: Path, env: dict[str, str]
          ) -> tuple[float, float, float, dict[str, str]]:
    """(wall seconds, CPU seconds, peak resident MB of the process tree, what it
    printed: rows, logs read and cached, seconds spent reading) of one step in a fresh
    process on the first two CPUs."""
    code = STEP.format(repo=str(Path(__file__).resolve().parents[1]), step=step,
                       logs=str(logs), out=str(out))
    command = ["taskset", "-c", CPUS, sys.executable, "-c", code]
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    process = subprocess.Popen(command, env=env, stdout=subprocess.PIPE,
                               stderr=subprocess.PIPE, text=True)
    peak = 0
    watched = psutil.Process(process.pid)
    while process.poll() is None:
        try:
            tree = [watched, *watched.children(recursive=True)]
            peak = max(peak, sum(p.memory_info().rss for p in tree if p.is_running()))
        except psutil.Error:
            pass
        time.sleep(0.25)
    wall = time.perf_counter() - start
    stdout, stderr = process.communicate()
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime + after.ru_stime) - (before.ru_utime + before.ru_stime)
    if process.returncode != 0:
        raise SystemExit(f"{step} failed:\n{stderr[-2000:]}")
    words = " ".join(line for line in stdout.splitlines() if line.startswith("ROWS")).split()
    return wall, cpu, peak / 2**20, dict(zip(words[::2], words[1::2], strict=True))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--samples", type=int, default=20_000,
                        help="samples in the sweep (default 20,000)")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="bench-report-scale-") as tmp:
        root = Path(tmp)
        env = dict(os.environ, INFOSEEK_CACHE_DIR=str(root / "cache"))
        env.pop("INFOSEEK_REPORT_CACHE", None)
        start = time.perf_counter()
        samples, files = make_logs(root / "logs", args.samples)
        size = sum(p.stat().st_size for p in files)
        print(f"made {samples} samples in {len(files)} logs ({size / 2**20:.0f} MB) in "
              f"{time.perf_counter() - start:.0f} s (replicated reference logs: see the "
              f"docstring); load average {os.getloadavg()[0]:.1f}")
        plain, plain_cpu, plain_mb, facts = timed("plain", root / "logs", root / "out", env)
        print(f"plain samples_df read:     {plain:6.1f} s wall {plain_cpu:6.1f} s CPU "
              f"{plain_mb:6.0f} MB  ({facts['ROWS']} rows)")
        rows = []
        for name in ("cold", "warm"):
            rows.append((name, *timed("report", root / "logs", root / "out", env)))
        extra = root / "logs" / "extra.eval"
        replicate(sorted(REFERENCE.glob("*.eval"))[0], extra, 100, "extra")
        rows.append(("plus one new log", *timed("report", root / "logs", root / "out", env)))
        for name, wall, cpu, mb, facts in rows:
            print(f"report, {name + ':':18}{wall:6.1f} s wall {cpu:6.1f} s CPU {mb:6.0f} MB "
                  f"({wall / plain:.1f}x the plain read's wall, {cpu / plain_cpu:.1f}x its "
                  f"CPU); {facts['ROWS']} samples, "
                  f"{facts['READ']} logs read, {facts['CACHED']} from the cache, "
                  f"{facts['READING']} s reading, the rest tables, figures and page")
        cold = rows[0][1]
        met = cold <= 60 and max(row[3] for row in rows) <= 2048
        print(f"target 60 s / 2048 MB for {samples} samples on 2 cores (cold): "
              f"{'met' if met else 'missed'} ({cold:.1f} s, "
              f"{max(row[3] for row in rows):.0f} MB peak); load average "
              f"{os.getloadavg()[0]:.1f}")


if __name__ == "__main__":
    main()
