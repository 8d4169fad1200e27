"""The extra tables a declaration names (`TaskReport.extras`) beyond its metric tables:
ClinGuide's order strata, detection precision / recall / F1 (of "Not sure", and of
"cannot be determined" under ``-T unanswerable=``), filtered question-selection
accuracy and the Twenty Questions by-turn curves. The metric tables, the difficulty-axis
correlations and the cell formats are `infoseek.inspect_tasks.report.tables`."""

from __future__ import annotations

import math
import statistics
from collections.abc import Iterable
from typing import Any

import pandas as pd

from infoseek.inspect_tasks.report.tables import (
    MIN_STRATUM,
    STRATA,
    correctness,
    denoised,
    display_frame,
    group_label,
    groups_of,
)
from infoseek.scorers.undetermined import detection_rates


def order_strata_table(samples: pd.DataFrame, rows: pd.DataFrame) -> pd.DataFrame:
    """ClinGuide accuracy by coverage (all / partial) x order (correct / incorrect) per row
    and k: ``accuracy_<stratum>`` and ``n_<stratum>``; errored samples count as wrong in
    the stratum their recorded turns put them in (they have none, so they are left out
    of every stratum and counted in ``errored``)."""
    out = []
    shown = [c for c in rows.columns if c not in ("log_id", "row")]
    for _label_, block in rows.groupby("row", sort=False):
        mine = samples[samples["log_id"].isin(block["log_id"])]
        for k in groups_of(mine, "k") + ["all"]:
            part = mine if k == "all" else mine[mine["metadata_k"].map(group_label) == k]
            line: dict[str, Any] = {"label": _label_}
            line.update({c: block.iloc[0][c] for c in shown})
            line.update(kind="run", k=k, samples=len(part),
                        errored=int(part["error"].astype(bool).sum()))
            scored = part[~part["error"].astype(bool)]
            for stratum in STRATA:
                coverage, order = stratum.split("_")
                want_cov = 1.0 if coverage == "all" else 0.0
                want_ord = 1.0 if order == "correct" else 0.0
                mask = ((scored.get("score.order_strata.coverage_all") == want_cov)
                        & (scored.get("score.order_strata.order_correct") == want_ord))
                values = scored.loc[mask, "score.order_strata.accuracy"].dropna().tolist() \
                    if "score.order_strata.accuracy" in scored else []
                line[f"accuracy_{stratum}"] = statistics.fmean(values) if values else math.nan
                line[f"n_{stratum}"] = len(values)
            out.append(line)
    return pd.DataFrame(out)


def order_strata_display(table: pd.DataFrame) -> pd.DataFrame:
    plain = table[[c for c in table.columns if not c.startswith(("accuracy_", "n_"))]]
    out = display_frame(plain)
    for stratum in STRATA:
        out[stratum.replace("_", "/")] = [
            "-" if n < MIN_STRATUM else f"{100 * a:.1f}% (N={int(n)})"
            for a, n in zip(table[f"accuracy_{stratum}"], table[f"n_{stratum}"])]
    return out


def detection_table(samples: pd.DataFrame, rows: pd.DataFrame) -> pd.DataFrame:
    """Precision, recall and F1 of "Not sure" per row, the proportional random baseline's
    F1 (the share of underspecified samples) and the not-sure rate. An errored sample
    counts as not having said "Not sure" (it can only lower recall)."""
    out = []
    shown = [c for c in rows.columns if c not in ("log_id", "row")]
    for _label_, block in rows.groupby("row", sort=False):
        mine = samples[samples["log_id"].isin(block["log_id"])]
        said = [0.0 if err else float(v or 0.0) for v, err in
                zip(mine.get("score.detection_scorer.said_not_sure", []),
                    mine["error"].astype(bool))]
        under = [1.0 if str(v) == "underspecified" else 0.0
                 for v in mine.get("metadata_variant", [])]
        hits = sum(1 for a, b in zip(said, under) if a and b)
        predicted, actual = sum(said), sum(under)
        precision = hits / predicted if predicted else 0.0
        recall = hits / actual if actual else 0.0
        f1 = 2 * precision * recall / (precision + recall) if precision + recall else 0.0
        line: dict[str, Any] = {"label": _label_}
        line.update({c: block.iloc[0][c] for c in shown})
        line.update(kind="run", samples=len(mine),
                    errored=int(mine["error"].astype(bool).sum()),
                    precision=precision, recall=recall, f1=f1,
                    random_f1=actual / len(mine) if len(mine) else 0.0,
                    not_sure_rate=predicted / len(mine) if len(mine) else 0.0)
        out.append(line)
    return pd.DataFrame(out)


def undetermined_table(samples: pd.DataFrame, rows: pd.DataFrame) -> pd.DataFrame:
    """Precision, recall and F1 of "cannot be determined" per row (``-T unanswerable=``;
    the ``undetermined`` scorer's own rule, `infoseek.scorers.undetermined`), the share
    of unanswerable samples, the rate of saying it, and ``stopped_before_cap`` over the
    unanswerable samples. An errored sample counts as not having said it."""
    out = []
    shown = [c for c in rows.columns if c not in ("log_id", "row")]
    for label, block in rows.groupby("row", sort=False):
        mine = samples[samples["log_id"].isin(block["log_id"])]
        if "score.undetermined.said_undetermined" not in mine or \
                mine["score.undetermined.said_undetermined"].isna().all():
            continue  # a run without unanswerable problems: nothing to detect
        errored = mine["error"].astype(bool).tolist()
        said = [not err and _number(v) == 1.0 for v, err in
                zip(mine.get("score.undetermined.said_undetermined", []), errored)]
        # which samples no question can settle: the scorer's value, else (an errored
        # sample has none) the sample's metadata
        truth = [_number(v) == 1.0 if _number(v) is not None else m is True
                 for v, m in zip(mine.get("score.undetermined.unanswerable",
                                          [None] * len(mine)),
                                 mine.get("metadata_unanswerable", [None] * len(mine)))]
        stopped = [x for v, t, err in zip(mine.get("score.undetermined.stopped_before_cap",
                                                   [None] * len(mine)), truth, errored)
                   if t and (x := 0.0 if err else _number(v)) is not None]
        line: dict[str, Any] = {"label": label}
        line.update({c: block.iloc[0][c] for c in shown})
        line.update(kind="run", samples=len(mine), errored=sum(errored),
                    unanswerable_samples=sum(truth),
                    **{k.removeprefix("undetermined_"): v
                       for k, v in detection_rates(list(zip(said, truth))).items()},
                    said_rate=sum(said) / len(mine) if len(mine) else 0.0,
                    stopped_before_cap=(sum(stopped) / len(stopped) if stopped
                                        else float("nan")))
        out.append(line)
    return pd.DataFrame(out)


def _number(value: Any) -> float | None:
    """A score cell as a float; None for a missing or NaN one."""
    try:
        number = float(value)
    except (TypeError, ValueError):
        return None
    return None if number != number else number


def filtered_table(samples: pd.DataFrame, question_rows: pd.DataFrame,
                   solving: Iterable[tuple[str, pd.DataFrame]],
                   data_of: dict[str, str] | None = None) -> pd.DataFrame:
    """Filtered question-selection accuracy (protocols §3.6) for every question-selection row
    and well-specified log of the same model on the same data (`data_of`: log id -> its
    data, `tables.data_text`; a well-specified run on another file or split never filters
    this one), joined by problem id (`infoseek.scorers.filtered_accuracy.filter_rows`)."""
    from infoseek.scorers.filtered_accuracy import filter_rows

    def triples(part: pd.DataFrame, scorer: str) -> list[tuple[str, str, float]]:
        return [(str(pid), str(variant), c) for pid, variant, c in
                zip(part["metadata_problem_id"], part["metadata_variant"],
                    correctness(part, scorer))]

    out = []
    solving = list(solving)
    for _label_, block in question_rows.groupby("row", sort=False):
        mine = samples[samples["log_id"].isin(block["log_id"])]
        model = block.iloc[0]["model"]
        data = {(data_of or {}).get(log_id) for log_id in block["log_id"]}
        for ws_task, ws in solving:
            ws = ws[ws["model"] == model]
            if data_of is not None:
                ws = ws[ws["log_id"].map(data_of).isin(data)]
            if ws.empty or "metadata_problem_id" not in mine:
                continue
            result = filter_rows(triples(mine, "single_turn_scorer"),
                                 triples(ws, "single_turn_scorer"))
            line: dict[str, Any] = {"model": model, "row": _label_, "kind": "run",
                                    "solving_task": ws_task}
            for name in ("unfiltered", "lenient", "strict"):
                line[f"{name}_accuracy"] = result[name]["accuracy"]
                line[f"{name}_kept"] = result[name]["kept"]
            line["total"] = result["unfiltered"]["total"]
            line["unmatched"] = result["unmatched"]
            out.append(line)
    return pd.DataFrame(out)


TURN_CURVES = ("entropy", "neig", "pass_mass")
"""The per-turn curves a Twenty Questions game records (``<curve>_tNN`` score values of
the ``twenty_questions`` scorer)."""


def turn_columns(samples: pd.DataFrame, curve: str, scorer: str = "twenty_questions"
                 ) -> list[tuple[int, str]]:
    """``(turn, column)`` of every recorded turn of `curve`, in turn order."""
    prefix = f"score.{scorer}.{curve}_t"
    found = [(int(c[len(prefix):]), c) for c in samples.columns
             if c.startswith(prefix) and c[len(prefix):].isdigit()]
    return sorted(found)


def by_turn_table(samples: pd.DataFrame, rows: pd.DataFrame) -> pd.DataFrame:
    """Per row and turn: the mean remaining entropy after the turn (nats; a game's last
    value carried to the turn cap, as the scorer records it), the mean nEIG and pass mass
    of the questions asked at that turn, and how many games each mean is over. Errored
    games have no curve and are left out (``errored`` counts them)."""
    out = []
    shown = [c for c in rows.columns if c not in ("log_id", "row")]
    turns = sorted({t for curve in TURN_CURVES for t, _c in turn_columns(samples, curve)})
    for _label_, block in rows.groupby("row", sort=False):
        mine = samples[samples["log_id"].isin(block["log_id"])]
        scored = mine[~mine["error"].astype(bool)]
        for turn in turns:
            line: dict[str, Any] = {"label": _label_}
            line.update({c: block.iloc[0][c] for c in shown})
            line.update(kind="run", turn=turn, samples=len(mine),
                        errored=int(mine["error"].astype(bool).sum()))
            for curve in TURN_CURVES:
                column = f"score.twenty_questions.{curve}_t{turn:02d}"
                values = [float(v) for v in pd.to_numeric(scored.get(column, pd.Series(
                    dtype=float)), errors="coerce") if not math.isnan(v)]
                line[curve] = denoised(statistics.fmean(values)) if values else math.nan
                line[f"{curve}_games"] = len(values)
            out.append(line)
    return pd.DataFrame(out)


def role_table(samples: pd.DataFrame, rows: pd.DataFrame,
               evals: pd.DataFrame | None = None) -> pd.DataFrame | None:
    """Model-backed roles measured against exact truth (protocols, Model roles): per row
    and role, the role replies measured, wrong, raised, the pooled error rate (wrong /
    measured) and the seeker's episodes touched by a wrong role reply
    (``role_error_episodes``, counted apart); None when no run bound a role model."""
    from infoseek.scorers.role_metrics import ROLE_ERROR_EPISODES, ROLES

    def columns(suffix: str) -> list[str]:
        return [c for c in samples.columns
                if c.startswith("score.") and c.endswith(f".{suffix}")]

    if not any(columns(f"role_{role}_measured") for role in ROLES):
        return None
    out = []
    for label, block in rows.groupby("row", sort=False):
        mine = samples[samples["log_id"].isin(block["log_id"])]

        def total(suffix: str, frame: pd.DataFrame = mine) -> float:
            return float(sum(pd.to_numeric(frame[c], errors="coerce").fillna(0).sum()
                             for c in columns(suffix)))

        touched = [c for c in columns(ROLE_ERROR_EPISODES)]
        episodes = int(mine[touched].apply(pd.to_numeric, errors="coerce").fillna(0)
                       .max(axis=1).sum()) if touched else 0
        for role in ROLES:
            if not columns(f"role_{role}_measured"):
                continue
            measured, wrong = total(f"role_{role}_measured"), total(f"role_{role}_wrong")
            raised = total(f"role_{role}_raised")
            if not (measured or raised):
                continue
            out.append({"label": label, "model": block.iloc[0]["model"], "kind": "run",
                        "role": role, "role_model": _role_model(evals, block, role),
                        "measured": int(measured), "wrong": int(wrong),
                        "error_rate": wrong / measured if measured else float("nan"),
                        "raised": int(raised), "role_error_episodes": episodes,
                        "samples": len(mine)})
    return pd.DataFrame(out) if out else None


def _role_model(evals: pd.DataFrame | None, block: pd.DataFrame, role: str) -> str:
    """The model(s) the row's logs bound to `role` (``eval.model_roles``), or ``-``."""
    if evals is None or "role_models" not in evals:
        return "-"
    names = set()
    for text in evals[evals["log_id"].isin(block["log_id"])]["role_models"]:
        for pair in str(text or "").split("; "):
            name, _, model = pair.partition("=")
            if name == role and model:
                names.add(model)
    return ", ".join(sorted(names)) or "-"
