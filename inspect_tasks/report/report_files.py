"""The files a report writes beside its tables and figures: the static Inspect View
bundle of the logs (``viewer/``, `bundle_logs`) and the long form of what was read
(``samples.csv``, ``turns.csv``, ``logs.csv``, `write_long_form`).
"""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

import pandas as pd

from infoseek.inspect_tasks.report.reading import Logs

VIEWER = "viewer"
"""The bundle's folder in the report."""


def order_columns(table: pd.DataFrame, leading: list[str]) -> pd.DataFrame:
    """`leading` columns first, the reference ``note`` last."""
    first = [c for c in leading if c in table.columns]
    last = [c for c in ("note",) if c in table.columns and c not in first]
    return table[first + [c for c in table.columns if c not in first + last] + last]



def bundle_logs(files: list[Path], out: Path) -> tuple[Path | None, dict[str, str], str | None]:
    """Stage the logs in one folder and run ``inspect view bundle`` on it. Returns the
    bundle folder, log id -> URL base, and why it failed (None on success)."""
    target = out / VIEWER
    if target.exists():
        shutil.rmtree(target)
    with tempfile.TemporaryDirectory(prefix="infoseek-report-") as staging:
        names: dict[str, str] = {}
        for log_id, path in files:
            name = bundle_name(log_id, Path(path))
            shutil.copyfile(path, Path(staging) / name)
            names[log_id] = name
        command = [sys.executable, "-m", "inspect_ai", "view", "bundle", "--log-dir", staging,
                   "--output-dir", str(target), "--overwrite"]
        result = subprocess.run(command, capture_output=True, text=True)
    if result.returncode != 0 or not (target / "index.html").exists():
        lines = (result.stderr or result.stdout).strip().splitlines()
        return None, {}, lines[-1] if lines else f"exit status {result.returncode}"
    return target, {log_id: f"{VIEWER}/index.html#/logs/{name}"
                    for log_id, name in names.items()}, None


def bundle_name(log_id: str, path: Path) -> str:
    """The log's file name in the bundle: ``<log id>_<name>``, or ``<log id><suffix>``
    for a name that is not UTF-8 (it goes into the page's links)."""
    try:
        path.name.encode("utf-8")
    except UnicodeEncodeError:
        return f"{log_id}{path.suffix}"
    return f"{log_id}_{path.name}"


def write_long_form(logs: Logs, out: Path, links: dict[str, str]) -> None:
    """``samples.csv`` (with each sample's transcript URL when bundled), ``turns.csv`` and
    ``logs.csv``."""
    settings = [c for c in logs.evals.columns if c.startswith("setting.")]
    meta = logs.evals[["log_id", "log", "task", "model", *settings]]
    samples = logs.samples.drop(columns=["task", "model"]).merge(meta, on="log_id")
    if links:
        samples["transcript"] = [
            f"{links[log_id]}/samples/sample/{sample_id}/{epoch}"
            for log_id, sample_id, epoch in zip(samples["log_id"], samples["id"],
                                                samples["epoch"])]
    for column in samples.columns:
        if samples[column].map(lambda v: isinstance(v, dict | list)).any():
            samples[column] = samples[column].map(
                lambda v: json.dumps(v) if isinstance(v, dict | list) else v)
    leading = ["log_id", "log", "task", "model", "id", "epoch", "metadata_k", "error"]
    samples = order_columns(samples, leading)
    samples.to_csv(out / "samples.csv", index=False)
    turns = logs.turns
    if not turns.empty:
        turns = turns.merge(logs.evals[["log_id", "task", "model"]], on="log_id")
        turns = order_columns(turns, ["log_id", "task", "model", "id", "epoch", "k", "turn"])
    turns.to_csv(out / "turns.csv", index=False)
    counts = logs.samples.groupby("log_id").agg(
        samples=("id", "size"), errored=("error", lambda e: int(e.astype(bool).sum())))
    logs.evals.merge(counts, on="log_id", how="left").to_csv(out / "logs.csv", index=False)
