"""Re-verify a released file's ground truth with our exact engines.

Every row is mapped to a problem record and checked by its source format's `verify`; the
outcome of a row is one of

- `agree`: no disagreement;
- `disagree`: at least one disagreement (the released k, MSS, family, answer ... is
  refuted by the exact engine, with the reason), or the row could not be read
  (`malformed_row`, with the file/row/field message);
- `undecided`: the engine cannot decide the row exactly, or the loader itself failed on
  it (`undecidable`, with the reason) — never counted as agreement.

Checks a source format lists in `notes` describe the file without deciding its ground truth
(the offered-questions list differs from U(P), a stated count differs): a row may carry
notes and still agree.

`verify_source` writes `<out>/disagreements.jsonl` (one line per row that does not agree
or carries notes, in file order, with its `status`) next to `<out>/summary.json` and
returns the summary (its ``format`` field names the source format); results of an earlier
run in `<out>` are kept unless `force` (refused before any row is verified). A row the
source format refuses with a check of its own
(`PublishedDataError.check`) is reported under that check rather than `malformed_row`.

With `corrected` (a file path; source formats that offer `SourceFormat.correct` only), every
row that could be read is written back to that JSON Lines file in the released layout
with our recomputed ground truth, in file order, each with a note of what changed under
`CORRECTION_FIELD`; a row that could not be read cannot be corrected and is left out
(`summary["corrected_left_out"]` lists it, and its reason is in disagreements.jsonl).
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

from infoseek.builders.jobs import run_jobs
from infoseek.builders.published import (
    PublishedDataError,
    check_inputs,
    get_source_format,
    identify_rows,
    make_record,
    read_published,
)
from infoseek.builders.published.cells import RowRef
from infoseek.builders.published.reading import source_name
from infoseek.cli_files import verify_results_problem

UNDECIDED_CHECKS = frozenset({"undecidable"})
CORRECTION_FIELD = "infoseek_correction"
"""The field of a corrected row that notes what `--write-corrected` changed."""


def _row_outcome(job: tuple[str, dict[str, Any], RowRef, str, dict[str, str], bool]
                 ) -> dict[str, Any]:
    """Verify one row (module level: it may run in a worker process); with `correct`,
    also the corrected row (under the private key `_corrected`)."""
    source_format_name, row, ref, record_id, inputs, correct = job
    source_format = get_source_format(source_format_name)
    outcome: dict[str, Any] = {"id": record_id, "row": ref.row}
    try:
        record = make_record(source_format, row, ref, record_id, inputs)
    except PublishedDataError as exc:
        check = exc.check or "malformed_row"
        outcome.update(status="undecided" if check in UNDECIDED_CHECKS else "disagree",
                       k=None, disagreements=[{"check": check, "reason": str(exc)}])
        return outcome
    except Exception as exc:  # a loader failure is ours, not the row's: never agreement
        outcome.update(status="undecided", k=None, disagreements=[
            {"check": "undecidable",
             "reason": f"{ref.where()}: the loader failed on this row "
                       f"({type(exc).__name__}: {exc}); please report it"}])
        return outcome
    outcome["k"] = record.get("k")
    try:
        found = source_format.verify(record)
    except Exception as exc:  # an engine failure is reported, never counted as agreement
        found = [{"check": "undecidable",
                  "reason": f"verification failed: {type(exc).__name__}: {exc}"}]
    notes = [d for d in found if d.get("check") in source_format.notes]
    found = [d for d in found if d.get("check") not in source_format.notes]
    if not found:
        outcome["status"] = "agree"
    elif all(d.get("check") in UNDECIDED_CHECKS for d in found):
        outcome["status"] = "undecided"
    else:
        outcome["status"] = "disagree"
    outcome["disagreements"] = found
    if notes:
        outcome["notes"] = notes
    if correct and source_format.correct is not None:
        try:
            fixed, note = source_format.correct(row, record, found)
        except Exception as exc:  # never written as if corrected
            outcome.setdefault("disagreements", []).append(
                {"check": "undecidable",
                 "reason": f"correction failed: {type(exc).__name__}: {exc}"})
            if outcome["status"] == "agree":
                outcome["status"] = "undecided"
        else:
            outcome["_corrected"] = {**fixed, CORRECTION_FIELD: note}
    return outcome


def default_out_dir(source: str, source_format_name: str) -> Path:
    stem = source_name(source).split("?", 1)[0].rstrip("/").rsplit("/", 1)[-1]
    stem = stem.rsplit(".", 1)[0] or "data"
    return Path(f"{stem}.{source_format_name}.verify")


def summarise(outcomes: list[dict[str, Any]], *, source: str, source_format_name: str
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
        "format": source_format_name,
        "rows": len(outcomes),
        **counts,
        "malformed_rows": malformed,
        "rows_by_check": dict(sorted(by_check.items())),
        "rows_by_note": dict(sorted(by_note.items())),
        "by_k": dict(sorted(by_k.items(), key=lambda kv: (not kv[0].isdigit(),
                                                         int(kv[0]) if kv[0].isdigit() else 0))),
    }


def verify_source(source: str, source_format: str | None = None, *,
                  out_dir: str | Path | None = None,
                  limit: int | None = None, workers: int | None = None, strict: bool = False,
                  progress: Callable[[int, int], None] | None = None,
                  inputs: Mapping[str, Any] | None = None,
                  corrected: str | Path | None = None, force: bool = True
                  ) -> dict[str, Any]:
    """Verify every row of `source` (the first `limit`); write the disagreements and
    the summary under `out_dir`; return the summary (with `out_dir` and file paths).
    `source_format`: the file's source format (None: detected from its columns). `inputs`:
    the source format's extra inputs (`infoseek.builders.published.INPUTS`). `corrected`: also
    write the corrected rows there (see the module docstring). `force`: write over the
    results of an earlier run in the output folder; without it they are kept and a
    `PublishedDataError` says so, before any row is verified (`infoseek verify` passes
    its ``--force``).

    A file that cannot be read, lacks the source format's columns or inputs, or whose
    source format cannot correct rows when `corrected` is asked for, raises
    `PublishedDataError`; with `strict` so does the first malformed row."""
    start = time.perf_counter()
    if source_format and corrected is not None:
        _check_correctable(get_source_format(source_format))
    resolved, chosen, rows = read_published(source, source_format, limit=limit, inputs=inputs)
    if corrected is not None:
        _check_correctable(chosen)
    out = Path(out_dir) if out_dir is not None else default_out_dir(resolved, chosen.name)
    problem = verify_results_problem(out, force)
    if problem is not None:
        raise PublishedDataError(problem)
    checked = check_inputs(chosen, inputs)
    identified = identify_rows(resolved, chosen, rows)
    if strict:
        for row, (ref, rid) in zip(rows, identified, strict=True):
            make_record(chosen, row, ref, rid, checked)
    jobs = [(chosen.name, row, ref, rid, checked, corrected is not None)
            for row, (ref, rid) in zip(rows, identified, strict=True)]
    outcomes = run_jobs(_row_outcome, jobs, workers, progress)
    fixed_rows = [outcome.pop("_corrected", None) for outcome in outcomes]
    summary = summarise(outcomes, source=resolved, source_format_name=chosen.name)
    out.mkdir(parents=True, exist_ok=True)
    disagreements_path = out / "disagreements.jsonl"
    with open(disagreements_path, "w", encoding="utf-8", newline="\n") as fh:
        for outcome in outcomes:
            if outcome["status"] != "agree" or outcome.get("notes"):
                fh.write(json.dumps(outcome, ensure_ascii=False, sort_keys=True) + "\n")
    if corrected is not None:
        summary["corrected_rows"] = sum(row is not None for row in fixed_rows)
        summary["corrected_left_out"] = [outcome["id"] for outcome, row
                                         in zip(outcomes, fixed_rows, strict=True)
                                         if row is None]
        _write_corrected(Path(corrected), [row for row in fixed_rows if row is not None])
    summary_path = out / "summary.json"
    summary_path.write_text(json.dumps(summary, indent=2, ensure_ascii=False) + "\n",
                            encoding="utf-8")
    extra = {} if corrected is None else {"corrected_file": str(corrected)}
    return {**summary, "disagreements_file": str(disagreements_path),
            "summary_file": str(summary_path), **extra,
            "seconds": time.perf_counter() - start}


def _check_correctable(source_format: Any) -> None:
    if source_format.correct is None:
        raise PublishedDataError(f"source format {source_format.name} cannot write corrected rows "
                                 "(--write-corrected): it offers no correction")


def _write_corrected(path: Path, rows: list[dict[str, Any]]) -> None:
    """The corrected rows as JSON Lines, written atomically."""
    from infoseek.jsonl import write_atomically

    text = "".join(json.dumps(row, ensure_ascii=False) + "\n" for row in rows)
    write_atomically(path, text.encode("utf-8"), ordinary_mode=True)
