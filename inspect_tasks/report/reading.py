"""Logs into pandas frames, through `inspect_ai.analysis` (`evals_df`, `samples_df`).

Nothing here parses a log file: `evals_df` gives one row per log (task, model, task
arguments, status), `samples_df` one row per sample. `samples_df` leaves out metadata and
score fields over 1 KiB by default, so the columns that per-turn curves need (the score
metadata with the uncertainty curve, the store's turn records) are *full* columns, read
from the complete sample.

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
import os
import tempfile
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pandas as pd
from inspect_ai.analysis import SampleColumn, evals_df, samples_df
from inspect_ai.log import read_eval_log

from infoseek.cli_files import special_kind
from infoseek.contract import STORE_TURNS, TASK_SOURCE
from infoseek.inspect_tasks.report.declarations import TaskReport, report_for
from infoseek.inspect_tasks.report.tokens import usage_fields, usage_json
from infoseek.scorers.recorded_names import current_scorer_name
from infoseek.stored_forms import sample_problem, turns_from_store

SETTING_PREFIX = "task_arg_"
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


def shown_path(path: str | Path) -> str:
    """`path` as text that can be written anywhere: a file name whose bytes are not
    UTF-8 keeps them as ``\\xff`` escapes (Python holds them as lone surrogates, which
    no UTF-8 file or terminal takes)."""
    return os.fsencode(str(path)).decode("utf-8", "backslashreplace")


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


def problem_of(metadata: Any, sample_id: Any) -> str:
    """The id of the problem a sample belongs to: the task instances of one problem (its
    target values; a single-turn problem's variants) share it, so statistics resample
    problems, not samples. It is the metadata's ``problem_id``, else the id of the problem
    record the metadata carries (``problem``, ``record``), else the sample's own id."""
    metadata = metadata if isinstance(metadata, dict) else {}
    if metadata.get("problem_id") not in (None, ""):
        return str(metadata["problem_id"])
    record = sample_problem(metadata)
    if record is None and isinstance(metadata.get("record"), dict):
        record = metadata["record"]
    if record is not None and record.get("id") not in (None, ""):
        return str(record["id"])
    return str(sample_id)


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


def _setting_value(value: Any) -> Any:
    if value is None or (isinstance(value, float) and math.isnan(value)):
        return None
    return value


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
    """Why the log whose `EvalSpec` is `spec` is not an infoseek run of `declaration`'s
    kind, or None (module docstring: the scorers the declaration reads, and the task's
    package or infoseek's metrics on those scorers)."""
    recorded = {current_scorer_name(s.name): s for s in (spec.scorers or [])}
    needed = sorted({m.scorer for table in declaration.tables for m in table.metrics})
    missing = [name for name in needed if name not in recorded]
    task = spec.task.split("/")[-1]
    if missing:
        return (f"not an infoseek run (task {task!r} lacks the scorer(s) "
                f"{', '.join(missing)} its {declaration.protocol} report reads)")
    packaged = (INFOSEEK_PACKAGE in (spec.packages or {})
                and str(spec.task_registry_name or "").startswith(f"{INFOSEEK_PACKAGE}/"))
    if packaged:
        return None
    foreign = sorted({metric for name in needed
                      for metric in _metric_names(recorded[name].metrics)
                      if not metric.startswith(f"{INFOSEEK_PACKAGE}/")})
    if not foreign and all(_metric_names(recorded[name].metrics) for name in needed):
        return None
    return (f"not an infoseek run (task {task!r} is not from the infoseek package and its "
            f"scorers {', '.join(needed)} are not infoseek's: they record "
            f"{', '.join(foreign[:3]) or 'no metrics'})")


def _read_one(path: Path) -> tuple[pd.Series, pd.DataFrame, TaskReport, str] | str:
    """(eval row, samples, declaration, eval id), or why the log is left out."""
    try:
        evals = evals_df(str(path), quiet=True)
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
        samples = samples_df(str(path), columns=SAMPLE_COLUMNS, quiet=True,
                             exclude_fields=SKIPPED_FIELDS)
    except Exception as exc:
        return f"cannot read its samples ({str(exc).splitlines()[0][:160]})"
    scorers: set[str] = set()
    for text in samples.get("scores_json", pd.Series(dtype=str)):
        scorers.update(json.loads(text or "{}"))
    declaration = report_for(task, scorers, row.get("metadata"))
    if declaration is None:
        return (f"not an infoseek log (task {task!r}, scorers "
                f"{', '.join(sorted(scorers)) or 'none'}: no report declared for it)")
    try:
        spec = read_eval_log(str(path), header_only=True).eval
    except Exception as exc:  # evals_df read it, so this is unlikely: still one line
        return f"cannot read its header ({str(exc).splitlines()[0][:160]})"
    problem = run_problem(spec, declaration)
    if problem is not None:
        return problem
    return row, samples, declaration, str(spec.eval_id or "")


def _sample_rows(log_id: str, samples: pd.DataFrame) -> tuple[list[dict], list[dict]]:
    rows: list[dict] = []
    turn_rows: list[dict] = []
    for record in samples.to_dict("records"):
        scores = json.loads(record.pop("scores_json", None) or "{}")
        turns = json.loads(record.pop("turns_json", None) or "[]")
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
        row.update(_flat_scores(scores))
        row.update(usage_fields(record.pop("usage_json", None)))
        row["turn_count"] = len(turns)
        rows.append(row)
        for turn in turns:
            queries = turn.get("queries") or []
            possible = turn.get("possible_target_values")
            turn_rows.append({
                "log_id": log_id, "id": row["id"], "epoch": row["epoch"],
                "k": record.get("metadata_k"),
                "turn": turn.get("turn"), "action": turn.get("action"),
                "queries": "; ".join(str(q.get("variable") or q.get("raw") or "")
                                     for q in queries),
                "valid_queries": sum(1 for q in queries if q.get("valid")),
                "invalid_reasons": "; ".join(str(q.get("reason")) for q in queries
                                             if q.get("reason")) or (turn.get("reason") or ""),
                "answer": None if turn.get("answer") is None else json.dumps(turn["answer"]),
                "possible_count": len(possible) if isinstance(possible, list) else None,
                "known": bool(turn.get("known")),
            })
    return rows, turn_rows


def read_logs(paths: Sequence[str | Path],
              progress: Callable[[int, int], None] | None = None) -> Logs:
    """Read every log of `paths` (files or folders) into :class:`Logs`: each infoseek
    run once (module docstring), every other file named in ``skipped``."""
    files = log_files(paths)
    if not files:
        raise ReportError("no .eval or .json logs in " + ", ".join(map(str, paths)))
    logs = Logs(pd.DataFrame(), pd.DataFrame(), pd.DataFrame())
    eval_rows: list[dict] = []
    sample_rows: list[dict] = []
    turn_rows: list[dict] = []
    first_of_run: dict[str, Path] = {}
    with tempfile.TemporaryDirectory(prefix="infoseek-report-names-") as staging:
        for index, path in enumerate(files):
            result = _read_one(_readable(path, Path(staging), index))
            if isinstance(result, str):
                logs.skipped.append(f"{shown_path(path)}: {result}")
            elif result[3] in first_of_run:
                logs.skipped.append(f"{shown_path(path)}: the same run as "
                                    f"{shown_path(first_of_run[result[3]])} (eval id "
                                    f"{result[3]}); counted once")
            else:
                row, samples, declaration, eval_id = result
                if eval_id:  # a log written without one is never taken for a copy
                    first_of_run[eval_id] = path
                entry = _eval_entry(f"L{len(eval_rows) + 1}", path, row, declaration)
                logs.paths[entry["log_id"]] = path
                logs.declarations[entry["task"]] = declaration
                eval_rows.append(entry)
                rows, turns = _sample_rows(entry["log_id"], samples)
                for sample in rows:
                    sample.update(task=entry["task"], model=entry["model"])
                sample_rows.extend(rows)
                turn_rows.extend(turns)
            if progress is not None:
                progress(index + 1, len(files))
    logs.evals = pd.DataFrame(eval_rows)
    logs.samples = pd.DataFrame(sample_rows, columns=None if sample_rows else
                                ["log_id", "id", "epoch", "problem_id", "error",
                                 "turn_count", "task",
                                 "model"])
    logs.turns = pd.DataFrame(turn_rows)
    return logs


def _eval_entry(log_id: str, path: Path, row: pd.Series, declaration: TaskReport
                ) -> dict[str, Any]:
    """One row of ``Logs.evals``: the log's id, its file (as text), task, model, status,
    version, protocol and its settings (``setting.<task argument>``)."""
    entry = {"log_id": log_id, "log": shown_path(path), "file": shown_path(path.name),
             "task": str(row["task_name"]).split("/")[-1],
             "model": str(row["model"]), "status": str(row["status"]),
             "task_version": row.get("task_version"),
             "protocol": declaration.protocol,
             "role_models": role_models(row.get("model_roles"))}
    for key, value in row.items():
        if str(key).startswith(SETTING_PREFIX):
            entry["setting." + str(key)[len(SETTING_PREFIX):]] = _setting_value(value)
    entry.update(data_identity(row.get("metadata"), entry.get("setting.source"),
                               row.get("task_version")))
    return entry


def data_identity(metadata: Any, source: Any, task_version: Any) -> dict[str, Any]:
    """What a log ran on: ``data.builder`` (the builder and data version after the ``/``
    of its task version), and for a ``-T source=`` file ``data.source`` (``name#<first 12
    hex digits of its SHA-256>``, or ``name#unhashed`` from a log written before tasks
    recorded it, `infoseek.contract.TASK_SOURCE`), ``data.sha256`` and ``data.format``."""
    recorded = _recorded_metadata(metadata).get(TASK_SOURCE)
    version = str(task_version or "")
    out: dict[str, Any] = {"data.builder": version.split("/", 1)[-1] or None,
                           "data.source": None, "data.sha256": None, "data.format": None}
    if isinstance(recorded, dict) and recorded.get("file"):
        digest = str(recorded.get("sha256") or "")
        out.update({"data.source": f"{recorded['file']}#{digest[:12] or 'unhashed'}",
                    "data.sha256": digest or None,
                    "data.format": recorded.get("format") or None})
    elif isinstance(source, str) and source.strip():
        out["data.source"] = f"{shown_path(Path(source.strip()).name)}#unhashed"
    return out


def _recorded_metadata(value: Any) -> dict[str, Any]:
    if isinstance(value, str):
        try:
            value = json.loads(value)
        except ValueError:
            return {}
    return value if isinstance(value, dict) else {}


def role_models(value: Any) -> str | None:
    """``role=model`` pairs of a log's bound model roles (``eval.model_roles``, a dict or
    its JSON text), joined by ``; ``, or None when it binds none."""
    if isinstance(value, str):
        try:
            value = json.loads(value)
        except ValueError:
            return None
    if not isinstance(value, dict) or not value:
        return None
    pairs = []
    for role, model in sorted(value.items()):
        name = model.get("model") if isinstance(model, dict) else model
        pairs.append(f"{role}={name}")
    return "; ".join(pairs)


def settings_of(entry: dict[str, Any] | pd.Series, names: Iterable[str]) -> dict[str, Any]:
    """The declared settings a log row carries (task arguments it was run with)."""
    out: dict[str, Any] = {}
    for name in names:
        key = "setting." + name
        if key in entry and _setting_value(entry[key]) is not None:
            out[name] = entry[key]
    return out
