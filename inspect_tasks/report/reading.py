"""Logs into pandas frames, through `inspect_ai.analysis` (`evals_df`, `samples_df`).

`evals_df` gives one row per log (task, model, task arguments, status). The samples come
as `samples_df` would give `SAMPLE_COLUMNS` (the summary's metadata, error and usage; the
score metadata with the uncertainty curve and the store's turn records are *full*
columns, from the complete sample), but for an ``.eval`` log without parsing the
transcripts (`eval_reader.summary_frame`: the stored sample summaries, and only the
fields each sample holds before its events); other logs go through `samples_df` itself.
Each log's read is cached (`log_cache`, keyed by path, size and mtime) and logs not in the
cache are read in parallel processes when there is much to read (`worker_count`). A log's
row of ``evals`` and its settings are made by `log_entry` (an argument at its declared
default is no setting).

:func:`read_logs` returns :class:`Logs`: ``evals`` (one row per reported log, with its
declaration), ``samples`` (one row per sample: identity, ``k`` and the other group keys,
``error``, and ``score.<scorer>.<key>`` for every score value), ``turns`` (one row per
recorded seek turn) and ``skipped`` (one line per log left out, saying why).

What makes a log an infoseek run is checked from the log, never from its task's name
(`run_problem`): it carries every scorer its declaration reads, and either its task
comes from the infoseek package (Inspect records the task's distribution in
``eval.packages`` and its registry name ``infoseek/<task>``) or those scorers are
infoseek's (each records only infoseek's metrics, ``infoseek/mean_by_group``, ...: a
plug-in's task, or a task file run by its path). A foreign task named ``logic_mt`` with
scorers named ``answer``, ``sufficiency``, ... is left out with one line. The same run
stored under two file names (one ``eval_id``) is read once, the copy named in a line.
File names are shown as text whatever their bytes (`shown_path`: a name that is not
UTF-8 keeps its odd bytes as ``\\xff`` escapes), so the tables and CSVs can be written.
Scorers go by the name they have now: a log of an earlier eval version that recorded a
scorer under an old name (``answer`` before 2-A) is read as if it carried the new one
(``final_answer``), the one alias table being
:data:`infoseek.scorers.recorded_names.RENAMED_SCORERS`.
"""

from __future__ import annotations

import json
import math
import multiprocessing as mp
import os
import tempfile
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pandas as pd
from inspect_ai.analysis import SampleColumn, evals_df, samples_df
from inspect_ai.log import read_eval_log

from infoseek.cli_files import special_kind
from infoseek.contract import STORE_TURNS
from infoseek.inspect_tasks.report import eval_reader, log_cache
from infoseek.inspect_tasks.report.declarations import TaskReport, joined, report_for
from infoseek.inspect_tasks.report.eval_reader import REDUCED, problem_of
from infoseek.inspect_tasks.report.log_entry import (  # noqa: F401  (re-exported)
    SETTING_PREFIX,
    data_identity,
    eval_entry,
    role_models,
    settings_of,
    shown_path,
)
from infoseek.inspect_tasks.report.tokens import usage_fields, usage_json
from infoseek.scorers.recorded_names import current_scorer_name
from infoseek.stored_forms import turns_from_store

INSPECT_INDEX_FILES = frozenset({"logs.json", "eval-set.json", "listing.json"})
"""Files Inspect writes beside the logs of a folder (not logs themselves)."""


class ReportError(ValueError):
    """Input the report cannot use (what to fix is in the message)."""


@dataclass
class Logs:
    evals: pd.DataFrame
    samples: pd.DataFrame
    turns: pd.DataFrame
    declarations: dict[str, TaskReport] = field(default_factory=dict)
    skipped: list[str] = field(default_factory=list)
    paths: dict[str, Path] = field(default_factory=dict)
    """Log id -> the log file as found (``evals["log"]`` is its name as text)."""
    cached: list[Path] = field(default_factory=list)
    """The files whose read came from `log_cache` (unchanged since an earlier report)."""
    fresh: list[Path] = field(default_factory=list)
    """The files read this time."""


def log_files(paths: Sequence[str | Path]) -> list[Path]:
    """Every ``.eval``/``.json`` log named or found (recursively) under a named folder,
    sorted within each folder; a path that does not exist, or is neither a file nor a
    folder (a FIFO, a device: never read), is an error."""
    found: list[Path] = []
    for raw in paths:
        path = Path(raw)
        if path.is_dir():
            found.extend(sorted(p for p in path.rglob("*")
                                if p.suffix in (".eval", ".json") and p.is_file()
                                and p.name not in INSPECT_INDEX_FILES
                                and not _in_view_bundle(p)))
        elif path.is_file():
            found.append(path)
        else:
            kind = special_kind(path)
            raise ReportError(f"{shown_path(raw)}: " + (
                f"is {kind}, not a log file or folder" if kind is not None
                else "no such log file or folder"))
    unique: list[Path] = []
    for path in found:
        if path.resolve() not in {p.resolve() for p in unique}:
            unique.append(path)
    return unique


def _in_view_bundle(path: Path) -> bool:
    """A copy of a log inside an Inspect View bundle (a report's ``viewer/logs/``):
    found when a folder holding a report is read again, and not read twice."""
    return (path.parent.name == "logs"
            and (path.parent.parent / "content-security-policy.json").is_file())


def _scores_json(sample: Any) -> str:
    """The sample's scores by the name each scorer has now (a log of an earlier eval
    version may record an old one: `infoseek.scorers.recorded_names`)."""
    scores = {}
    for name, score in (sample.scores or {}).items():
        scores[current_scorer_name(name)] = {"value": score.value,
                                             "metadata": score.metadata or {}}
    return json.dumps(scores)


def _problem_id(sample: Any) -> str:
    """The problem a sample is an instance of (`problem_of`), read from the full sample."""
    return problem_of(sample.metadata, sample.id)


def _turns_json(sample: Any) -> str:
    turns = turns_from_store((sample.store or {}).get(STORE_TURNS))
    return json.dumps(turns or [])


SAMPLE_COLUMNS = [
    SampleColumn("id", path="id", required=True, type=str),
    SampleColumn("epoch", path="epoch", required=True),
    SampleColumn("metadata_*", path="metadata"),
    SampleColumn("error", path="error", default=""),
    SampleColumn("scores_json", path=_scores_json, full=True),
    SampleColumn("turns_json", path=_turns_json, full=True),
    SampleColumn("problem_id", path=_problem_id, full=True),
    SampleColumn("usage_json", path=usage_json),
]
"""The `samples_df` columns the report reads; scores, turns and problem id need the full
sample, the recorded model usage (`tokens`) does not."""
SKIPPED_FIELDS = {"events", "messages", "attachments"}
"""Fields of the full sample the report never reads (the transcript: most of a log's
size; leaving them out reads a log about six times faster)."""


def _number(value: Any) -> float:
    if isinstance(value, bool):
        return 1.0 if value else 0.0
    if isinstance(value, int | float):
        return float(value)
    return math.nan


def _flat_scores(scores: dict[str, Any]) -> dict[str, Any]:
    flat: dict[str, Any] = {}
    for scorer, score in scores.items():
        value = score.get("value")
        if isinstance(value, dict):
            for key, item in value.items():
                flat[f"score.{scorer}.{key}"] = _number(item)
        else:
            flat[f"score.{scorer}"] = _number(value)
        for key, item in (score.get("metadata") or {}).items():
            flat[f"meta.{scorer}.{key}"] = item
    return flat


INFOSEEK_PACKAGE = "infoseek"
"""The distribution (and registry prefix) of infoseek's own tasks, scorers and metrics."""


def _readable(path: Path, staging: Path, index: int) -> Path:
    """A path Inspect can open for `path`: itself, or for a name that is not UTF-8
    (which Inspect cannot encode) a link to it with a plain name in `staging`."""
    if shown_path(path) == str(path):
        return path
    link = staging / f"log{index}{shown_path(path.suffix)}"
    link.symlink_to(path.resolve())
    return link


def _metric_names(metrics: Any) -> list[str]:
    """The metric names an `EvalScorer` records (a list of definitions, or dicts of them
    by score key)."""
    if metrics is None:
        return []
    if isinstance(metrics, dict):
        return [n for value in metrics.values() for n in _metric_names(value)]
    if isinstance(metrics, list):
        return [n for item in metrics for n in _metric_names(item)]
    name = getattr(metrics, "name", None)
    return [name] if isinstance(name, str) else []


def run_problem(spec: Any, declaration: TaskReport) -> str | None:
    """Why the log whose `EvalSpec` is `spec` (or its `spec_facts`) is not an infoseek
    run of `declaration`'s kind, or None (module docstring: the scorers the declaration
    reads, and the task's package or infoseek's metrics on those scorers)."""
    facts = spec if isinstance(spec, dict) else spec_facts(spec)
    recorded = dict(facts["scorers"])
    needed = sorted({m.scorer for table in declaration.tables for m in table.metrics})
    missing = [name for name in needed if name not in recorded]
    task = facts["task"].split("/")[-1]
    if missing:
        return (f"not an infoseek run (task {task!r} lacks the scorer(s) "
                f"{', '.join(missing)} its {declaration.protocol} report reads)")
    packaged = (INFOSEEK_PACKAGE in facts["packages"]
                and str(facts["task_registry_name"] or "").startswith(f"{INFOSEEK_PACKAGE}/"))
    if packaged:
        return None
    foreign = sorted({metric for name in needed
                      for metric in recorded[name]
                      if not metric.startswith(f"{INFOSEEK_PACKAGE}/")})
    if not foreign and all(recorded[name] for name in needed):
        return None
    return (f"not an infoseek run (task {task!r} is not from the infoseek package and its "
            f"scorers {', '.join(needed)} are not infoseek's: they record "
            f"{', '.join(foreign[:3]) or 'no metrics'})")


def spec_facts(spec: Any) -> dict[str, Any]:
    """What `run_problem` and the reader keep of a log's `EvalSpec` (plain data, so it
    can be cached): task, registry name, package names, eval id and each scorer's
    current name with its metric names."""
    return {"task": str(spec.task), "task_registry_name": spec.task_registry_name,
            "packages": sorted(spec.packages or {}),
            "eval_id": str(getattr(spec, "eval_id", "") or ""),
            "scorers": [[current_scorer_name(s.name), _metric_names(s.metrics)]
                        for s in (spec.scorers or [])]}


EVAL_FIELDS = ("task_name", "model", "status", "task_version", "model_roles", "metadata")
"""The `evals_df` columns the report reads (and the task arguments, ``task_arg_*``)."""


def _gather(path: Path) -> dict[str, Any] | str:
    """Everything the report reads of one log, as plain data (`log_cache` keeps it),
    or why it cannot be read. Which logs are reported is decided afterwards
    (`_decide`): that depends on the task reports registered now, never cached."""
    try:  # the header is read once: evals_df takes it as it is
        header = read_eval_log(str(path), header_only=True)
        evals = evals_df(header, quiet=True)
    except Exception as exc:  # any unreadable file: one line, never a traceback
        first = str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__
        return f"not an Inspect log ({first[:160]})"
    if evals.empty:
        return "not an Inspect log (no evaluation in it)"
    row = evals.iloc[0]
    task = str(row.get("task_name") or "")
    if str(row.get("status")) not in ("success", "error", "cancelled"):
        return f"task {task!r} has status {row.get('status')!r}; nothing to report yet"
    try:
        samples = eval_reader.summary_frame(path, _reduced)
        if samples is None:
            samples = samples_df(str(path), columns=SAMPLE_COLUMNS, quiet=True,
                                 exclude_fields=SKIPPED_FIELDS)
    except Exception as exc:
        return f"cannot read its samples ({str(exc).splitlines()[0][:160]})"
    scorers: set[str] = set()
    if REDUCED in samples:
        for names, _flat, _turns in samples[REDUCED]:
            scorers.update(names)
    for scores in samples.get("scores_json", pd.Series(dtype=str)):
        scorers.update(_decoded(scores, "{}"))
    data: dict[str, Any] = {
        "eval": {str(k): v for k, v in row.items()
                 if k in EVAL_FIELDS or str(k).startswith(SETTING_PREFIX)},
        "scorers": sorted(scorers), "spec": None, "header_error": None}
    try:
        data["spec"] = spec_facts(header.eval)
    except Exception as exc:  # evals_df read it, so this is unlikely: still one line
        data["header_error"] = f"cannot read its header ({str(exc).splitlines()[0][:160]})"
    data["samples"], data["turns"] = _sample_rows("", samples)
    return data


def _decide(data: dict[str, Any]) -> tuple[dict[str, Any], TaskReport, str] | str:
    """(eval row, declaration, eval id) of a gathered log, or why it is left out."""
    row = data["eval"]
    task = str(row.get("task_name") or "")
    declaration = report_for(task, set(data["scorers"]), row.get("metadata"))
    if declaration is None:
        return (f"not an infoseek log (task {task!r}, scorers "
                f"{', '.join(data['scorers']) or 'none'}: no report declared for it)")
    if data["header_error"] is not None:
        return data["header_error"]
    problem = run_problem(data["spec"], declaration)
    if problem is not None:
        return problem
    return row, declaration, data["spec"]["eval_id"]


def _decoded(value: Any, empty: str) -> Any:
    """A ``scores_json`` / ``turns_json`` cell as data: `samples_df` gives JSON text, the
    fast read (`eval_reader.summary_frame`) the decoded value itself."""
    if isinstance(value, dict | list):
        return value
    return json.loads(value or empty)


def _turn_fields(turn: dict[str, Any]) -> dict[str, Any]:
    """What the turns table keeps of one turn record."""
    queries = turn.get("queries") or []
    possible = turn.get("possible_target_values")
    return {
        "turn": turn.get("turn"), "action": turn.get("action"),
        "queries": "; ".join(str(q.get("variable") or q.get("raw") or "") for q in queries),
        "valid_queries": sum(1 for q in queries if q.get("valid")),
        "invalid_reasons": "; ".join(str(q.get("reason")) for q in queries
                                     if q.get("reason")) or (turn.get("reason") or ""),
        "answer": None if turn.get("answer") is None else json.dumps(turn["answer"]),
        "possible_count": len(possible) if isinstance(possible, list) else None,
        "known": bool(turn.get("known")),
    }


def _reduced(scores: dict[str, Any], turns: list[dict[str, Any]]
             ) -> tuple[list[str], dict[str, Any], list[dict[str, Any]]]:
    """What the report keeps of a sample's scores and turn records (its scorers, the flat
    score columns, each turn's fields): the fast read reduces each sample to this as it
    goes, so a log's decoded turn records (a Twenty Questions turn lists every value
    still possible) are never all held at once."""
    return list(scores), _flat_scores(scores), [_turn_fields(turn) for turn in turns]


def _sample_rows(log_id: str, samples: pd.DataFrame) -> tuple[list[dict], list[dict]]:
    rows: list[dict] = []
    turn_rows: list[dict] = []
    for record in samples.to_dict("records"):
        if REDUCED in record:
            _, flat, turns = record.pop(REDUCED)
        else:
            _, flat, turns = _reduced(_decoded(record.pop("scores_json", None), "{}"),
                                      _decoded(record.pop("turns_json", None), "[]"))
        error = record.get("error")
        row = {
            "log_id": log_id, "id": str(record["id"]), "epoch": int(record["epoch"]),
            "problem_id": str(record.get("problem_id") or record["id"]),
            "error": "" if error is None or (isinstance(error, float) and math.isnan(error))
            else str(error),
        }
        for key, value in record.items():
            if key.startswith("metadata_") and not (isinstance(value, str)
                                                    and value.startswith("Key removed")):
                row[key] = value
        row.update(flat)
        row.update(usage_fields(record.pop("usage_json", None)))
        row["turn_count"] = len(turns)
        rows.append(row)
        for fields in turns:
            turn_rows.append({"log_id": log_id, "id": row["id"], "epoch": row["epoch"],
                              "k": record.get("metadata_k"), **fields})
    return rows, turn_rows


def read_logs(paths: Sequence[str | Path],
              progress: Callable[[int, int], None] | None = None,
              workers: int | None = None) -> Logs:
    """Read every log of `paths` (files or folders) into :class:`Logs`: each infoseek
    run once (module docstring), every other file named in ``skipped``. A log read
    before and unchanged since comes from `log_cache`; the others are read in
    `workers` processes (None: `worker_count`)."""
    files = log_files(paths)
    if not files:
        raise ReportError("no .eval or .json logs in " + ", ".join(map(str, paths)))
    logs = Logs(pd.DataFrame(), pd.DataFrame(), pd.DataFrame())
    eval_rows: list[dict] = []
    sample_rows: list[dict] = []
    turn_rows: list[dict] = []
    first_of_run: dict[str, Path] = {}
    keys = [log_cache.log_key(path) for path in files]
    with tempfile.TemporaryDirectory(prefix="infoseek-report-names-") as staging:
        readable = [_readable(path, Path(staging), index) for index, path in enumerate(files)]
        gathered = _gathered(readable, keys, logs, workers)
        for index, (path, data) in enumerate(zip(files, gathered, strict=True)):
            result = _decide(data) if isinstance(data, dict) else data
            if isinstance(result, str):
                logs.skipped.append(f"{shown_path(path)}: {result}")
            elif result[2] in first_of_run:
                logs.skipped.append(f"{shown_path(path)}: the same run as "
                                    f"{shown_path(first_of_run[result[2]])} (eval id "
                                    f"{result[2]}); counted once")
            else:
                row, declaration, eval_id = result
                if eval_id:  # a log written without one is never taken for a copy
                    first_of_run[eval_id] = path
                entry = eval_entry(f"L{len(eval_rows) + 1}", path, row, declaration,
                                   data["spec"]["task_registry_name"])
                logs.paths[entry["log_id"]] = path
                logs.declarations[entry["task"]] = joined(
                    logs.declarations.get(entry["task"]), declaration)
                eval_rows.append(entry)
                for sample in data["samples"]:
                    sample["log_id"] = entry["log_id"]
                    sample.update(task=entry["task"], model=entry["model"])
                for turn in data["turns"]:
                    turn["log_id"] = entry["log_id"]
                sample_rows.extend(data["samples"])
                turn_rows.extend(data["turns"])
            if progress is not None:
                progress(index + 1, len(files))
    logs.evals = pd.DataFrame(eval_rows)
    logs.samples = pd.DataFrame(sample_rows, columns=None if sample_rows else
                                ["log_id", "id", "epoch", "problem_id", "error",
                                 "turn_count", "task",
                                 "model"])
    logs.turns = pd.DataFrame(turn_rows)
    return logs


PARALLEL_BYTES = 32 * 2**20
"""Below this many bytes of logs to read, they are read in this process (starting
workers would cost more than it saves)."""


def worker_count(todo: int, size: int) -> int:
    """Processes to read `todo` logs of `size` bytes in all with: one per CPU this
    process may use (at most one per log), one when there is little to read;
    ``INFOSEEK_REPORT_WORKERS`` sets it."""
    wanted = os.environ.get("INFOSEEK_REPORT_WORKERS", "").strip()
    if wanted.isdigit() and int(wanted) > 0:
        return max(1, min(int(wanted), todo))
    if size < PARALLEL_BYTES:
        return 1
    cpus = (len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity")
            else os.cpu_count() or 1)
    return max(1, min(cpus, todo))


def _gathered(files: list[Path], keys: list[dict[str, Any] | None], logs: Logs,
              workers: int | None) -> Iterator[dict[str, Any] | str]:
    """`_gather` of each file in order, from the cache where it holds the file as it is
    now; what is read afresh is cached (a reason to leave a log out never is: it may be
    a log still being written). Counts go into ``logs.cached`` / ``logs.fresh``."""
    cached = [log_cache.load(key) for key in keys]
    todo = [index for index, value in enumerate(cached) if not isinstance(value, dict)]
    size = sum(files[i].stat().st_size for i in todo if files[i].exists())
    count = workers if workers is not None else worker_count(len(todo), size)
    fresh: Iterator[dict[str, Any] | str]
    pool = None
    if count > 1 and len(todo) > 1 and "fork" in mp.get_all_start_methods():
        pool = ProcessPoolExecutor(min(count, len(todo)), mp_context=mp.get_context("fork"))
        fresh = pool.map(_gather_stored, [files[i] for i in todo], [keys[i] for i in todo])
    else:
        fresh = (_gather_stored(files[i], keys[i]) for i in todo)
    try:
        for index, value in enumerate(cached):
            if isinstance(value, dict):
                logs.cached.append(files[index])
                yield value
                continue
            logs.fresh.append(files[index])
            yield next(fresh)
    finally:
        if pool is not None:
            pool.shutdown(cancel_futures=True)


def _gather_stored(path: Path, key: dict[str, Any] | None) -> dict[str, Any] | str:
    """`_gather` of `path`, cached under `key` when it was read (in the process that
    read it: with several reading processes, the caching is shared out too)."""
    value = _gather(path)
    if isinstance(value, dict):
        log_cache.store(key, value)
    return value
