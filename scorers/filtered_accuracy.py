"""Filtered question-selection accuracy (protocols §3.6): question selection counted only on
problems whose well-specified version the model solved.

Two Inspect logs are joined by problem id (sample metadata ``problem_id``): a
question-selection log and a well-specified-solving log of the same problems. Only the
underspecified question-selection samples count. A problem is kept

* leniently when at least one of its restored values was solved;
* strictly when every one of them was.

    infoseek filter logs/qs.eval logs/ws.eval
    filtered_accuracy("logs/qs.eval", "logs/ws.eval")["strict"]["accuracy"]

A problem of the question-selection log with no sample in the other log is not kept
(and counted under ``unmatched``). A log of another protocol, or one without scores, is
an error naming the file.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from inspect_ai.log import EvalLog, read_eval_log


class FilterError(ValueError):
    """A log that cannot be filtered (what to fix is in the message)."""


def _rows(log: EvalLog, path: str, protocol: str) -> list[tuple[str, str, float]]:
    """(problem id, variant, correct) of every scored sample of the log."""
    if log.status != "success" or not log.samples:
        raise FilterError(f"{path}: the log holds no finished samples (status "
                          f"{log.status}); run the evaluation to the end first")
    rows = []
    for sample in log.samples:
        meta = sample.metadata or {}
        if meta.get("protocol") != protocol:
            raise FilterError(f"{path}: sample {sample.id} is not a {protocol} sample "
                              f"(protocol {meta.get('protocol')!r}); pass the "
                              f"{protocol} log here")
        score = next(iter((sample.scores or {}).values()), None)
        value = score.value if score is not None else None
        if not isinstance(value, dict) or "correct" not in value:
            raise FilterError(f"{path}: sample {sample.id} has no 'correct' score")
        rows.append((str(meta["problem_id"]), str(meta.get("variant")),
                     float(value["correct"])))
    return rows


def _summary(values: list[float], total: int) -> dict[str, Any]:
    return {"accuracy": sum(values) / len(values) if values else 0.0,
            "kept": len(values), "total": total}


def filter_rows(question_rows: list[tuple[str, str, float]],
                solving_rows: list[tuple[str, str, float]]) -> dict[str, Any]:
    """The filtered accuracies from (problem id, variant, correct) rows of the two logs."""
    picked = {pid: correct for pid, variant, correct in question_rows
              if variant == "underspecified"}
    solved: dict[str, list[float]] = {}
    for pid, _variant, correct in solving_rows:
        solved.setdefault(pid, []).append(correct)
    lenient = [c for pid, c in picked.items() if any(solved.get(pid, []))]
    strict = [c for pid, c in picked.items() if pid in solved and all(solved[pid])]
    total = len(picked)
    return {
        "unfiltered": _summary(list(picked.values()), total),
        "lenient": _summary(lenient, total),
        "strict": _summary(strict, total),
        "unmatched": sum(1 for pid in picked if pid not in solved),
    }


def filtered_accuracy(question_log: str | Path, solving_log: str | Path) -> dict[str, Any]:
    """Join a question-selection log and a well-specified log (module docstring):
    ``{"unfiltered"|"lenient"|"strict": {"accuracy", "kept", "total"}, "unmatched"}``."""
    logs = []
    for path in (question_log, solving_log):
        try:
            logs.append(read_eval_log(str(path)))
        except FileNotFoundError:
            raise FilterError(f"{path}: no such log file") from None
        except Exception as exc:  # an unreadable file: say which, not a traceback
            raise FilterError(f"{path}: not a readable Inspect log ({exc})") from None
    return filter_rows(_rows(logs[0], str(question_log), "question_selection"),
                       _rows(logs[1], str(solving_log), "well_specified"))


def format_filtered(result: dict[str, Any]) -> str:
    """The result as the lines `infoseek filter` prints."""
    lines = []
    for name in ("unfiltered", "lenient", "strict"):
        part = result[name]
        lines.append(f"{name}: accuracy={part['accuracy']:.4f} kept={part['kept']} "
                     f"of {part['total']}")
    lines.append(f"unmatched: {result['unmatched']}")
    return "\n".join(lines)
