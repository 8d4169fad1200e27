"""Re-verify a released file's ground truth with our exact engines.

Every row is mapped to a problem record and checked by its format's `verify`; the
outcome of a row is one of

- `agree`: no disagreement;
- `disagree`: at least one disagreement (the released k, MSS, family, answer ... is
  refuted by the exact engine, with the reason), or the row could not be read
  (`malformed_row`, with the file/row/field message);
- `undecided`: the engine cannot decide the row exactly, or the loader itself failed on
  it (`undecidable`, with the reason) — never counted as agreement.

Checks a format lists in `notes` describe the file without deciding its ground truth
(the offered-questions list differs from U(P), a stated count differs): a row may carry
notes and still agree.

`verify_source` writes `<out>/disagreements.jsonl` (one line per row that does not agree
or carries notes, in file order, with its `status`) next to `<out>/summary.json` and
returns the summary.
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from builders.jobs import run_jobs
from builders.published import (
    PublishedDataError,
    get_format,
    identify_rows,
    make_record,
    read_published,
)
from builders.published.reading import RowRef, source_name

UNDECIDED_CHECKS = frozenset({"undecidable"})


def _row_outcome(job: tuple[str, dict[str, Any], RowRef, str]) -> dict[str, Any]:
    """Verify one row (module level: it may run in a worker process)."""
    format_name, row, ref, record_id = job
    fmt = get_format(format_name)
    outcome: dict[str, Any] = {"id": record_id, "row": ref.row}
    try:
        record = make_record(fmt, row, ref, record_id)
    except PublishedDataError as exc:
        outcome.update(status="disagree", k=None, disagreements=[
            {"check": "malformed_row", "reason": str(exc)}])
        return outcome
    except Exception as exc:  # a loader failure is ours, not the row's: never agreement
        outcome.update(status="undecided", k=None, disagreements=[
            {"check": "undecidable",
             "reason": f"{ref.where()}: the loader failed on this row "
                       f"({type(exc).__name__}: {exc}); please report it"}])
        return outcome
    outcome["k"] = record.get("k")
    try:
        found = fmt.verify(record)
    except Exception as exc:  # an engine failure is reported, never counted as agreement
        found = [{"check": "undecidable",
                  "reason": f"verification failed: {type(exc).__name__}: {exc}"}]
    notes = [d for d in found if d.get("check") in fmt.notes]
    found = [d for d in found if d.get("check") not in fmt.notes]
    if not found:
        outcome["status"] = "agree"
    elif all(d.get("check") in UNDECIDED_CHECKS for d in found):
        outcome["status"] = "undecided"
    else:
        outcome["status"] = "disagree"
    outcome["disagreements"] = found
    if notes:
        outcome["notes"] = notes
    return outcome


def default_out_dir(source: str, format_name: str) -> Path:
    stem = source_name(source).split("?", 1)[0].rstrip("/").rsplit("/", 1)[-1]
    stem = stem.rsplit(".", 1)[0] or "data"
    return Path(f"{stem}.{format_name}.verify")


def summarise(outcomes: list[dict[str, Any]], *, source: str, format_name: str
              ) -> dict[str, Any]:
    """Counts by outcome, by check (rows with that check) and by k; no timings, so the
    same file gives the same summary byte for byte."""
    counts = {"agree": 0, "disagree": 0, "undecided": 0}
    by_check: dict[str, int] = {}
    by_note: dict[str, int] = {}
    by_k: dict[str, dict[str, int]] = {}
    malformed = 0
    for outcome in outcomes:
        status = outcome["status"]
        counts[status] += 1
        key = "unknown" if outcome.get("k") is None else str(outcome["k"])
        by_k.setdefault(key, {"agree": 0, "disagree": 0, "undecided": 0})[status] += 1
        for check in sorted({d["check"] for d in outcome.get("disagreements", [])}):
            by_check[check] = by_check.get(check, 0) + 1
            malformed += check == "malformed_row"
        for check in sorted({d["check"] for d in outcome.get("notes", [])}):
            by_note[check] = by_note.get(check, 0) + 1
    return {
        "source": source_name(source),
        "format": format_name,
        "rows": len(outcomes),
        **counts,
        "malformed_rows": malformed,
        "rows_by_check": dict(sorted(by_check.items())),
        "rows_by_note": dict(sorted(by_note.items())),
        "by_k": dict(sorted(by_k.items(), key=lambda kv: (not kv[0].isdigit(),
                                                         int(kv[0]) if kv[0].isdigit() else 0))),
    }


def verify_source(source: str, format: str | None = None, *, out_dir: str | Path | None = None,
                  limit: int | None = None, workers: int | None = None, strict: bool = False,
                  progress: Callable[[int, int], None] | None = None) -> dict[str, Any]:
    """Verify every row of `source` (the first `limit`); write the disagreements and
    the summary under `out_dir`; return the summary (with `out_dir` and file paths).

    A file that cannot be read, or lacks the format's columns, raises
    `PublishedDataError`; with `strict` so does the first malformed row."""
    start = time.perf_counter()
    resolved, fmt, rows = read_published(source, format, limit=limit)
    identified = identify_rows(resolved, fmt, rows)
    if strict:
        for row, (ref, rid) in zip(rows, identified, strict=True):
            make_record(fmt, row, ref, rid)
    jobs = [(fmt.name, row, ref, rid) for row, (ref, rid) in zip(rows, identified, strict=True)]
    outcomes = run_jobs(_row_outcome, jobs, workers, progress)
    summary = summarise(outcomes, source=resolved, format_name=fmt.name)
    out = Path(out_dir) if out_dir is not None else default_out_dir(resolved, fmt.name)
    out.mkdir(parents=True, exist_ok=True)
    disagreements_path = out / "disagreements.jsonl"
    with open(disagreements_path, "w", encoding="utf-8", newline="\n") as fh:
        for outcome in outcomes:
            if outcome["status"] != "agree" or outcome.get("notes"):
                fh.write(json.dumps(outcome, ensure_ascii=False, sort_keys=True) + "\n")
    summary_path = out / "summary.json"
    summary_path.write_text(json.dumps(summary, indent=2, ensure_ascii=False) + "\n",
                            encoding="utf-8")
    return {**summary, "disagreements_file": str(disagreements_path),
            "summary_file": str(summary_path), "seconds": time.perf_counter() - start}
