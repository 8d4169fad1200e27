"""The report's tables, as pandas frames (CSV) and Markdown.

A *row* is one model in one setting (the declared task arguments, `declarations`); logs
with the same row are pooled. A metric table has, for every metric and every group of
the declaration's group key (``k``; ``variant`` for single-turn tasks) and overall:
``<metric>_<key><g>`` (mean), ``..._stderr`` (sample standard deviation / sqrt(n), 0 for
one sample) and ``..._n`` (samples counted) -- the names Inspect's metrics carry in the
log, so ``final_sufficiency_k2`` here is ``final_sufficiency_k2`` there. Columns
``samples`` and ``errored`` count a row's samples and its errored ones. The extra
tables a declaration may add (order strata, detection, filtered accuracy, by-turn
curves) are `extra_tables`.
"""

from __future__ import annotations

import math
import statistics
from collections.abc import Sequence
from typing import Any

import pandas as pd

from infoseek.inspect_tasks.report.declarations import MetricSpec, TableSpec, TaskReport
from infoseek.inspect_tasks.report.reading import settings_of

MIN_STRATUM = 5
"""Strata with fewer samples are shown as "-" (as MT-InfoSeek's Table 29 does)."""
STRATA = ("all_correct", "all_incorrect", "partial_correct", "partial_incorrect")
ALWAYS_SHOWN = ("oracle", "budget", "force_ask", "prompt", "k_given", "pool")
"""Settings shown even when every row has the same value."""


def _label(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    return str(value)


def setting_labels(entry: pd.Series, declaration: TaskReport) -> dict[str, str]:
    """The row's settings as text; ``budget`` reads ``TxQ`` (turns x queries per turn)
    when the prompt states a budget, ``none`` otherwise."""
    raw = settings_of(entry, declaration.settings)
    labels = {name: _label(value) for name, value in raw.items()}
    if "budget" in raw:
        if bool(raw["budget"]):
            labels["budget"] = (f"{_label(raw.get('max_turns', '?'))}x"
                                f"{_label(raw.get('queries_per_turn', 1))}")
            labels.pop("max_turns", None)
            labels.pop("queries_per_turn", None)
        else:
            labels["budget"] = "none"
    return labels


DATA_SETTINGS = ("split", "ties")
"""Task arguments that choose the data a run is on (a split, a tie convention): part of
every row's key and said in its label whenever a log records them, equal or not."""
ROLE_FALLBACK = "rule"
"""How a label names a role the run left to the suite's rule (no model bound)."""


def data_text(entry: pd.Series | dict[str, Any]) -> str:
    """The data a log ran on, in words: ``file <name>#<hash>`` (and its source format) for a
    ``-T source=`` file, else ``built <builder>@<data version>``."""
    source = _present(entry, "data.source")
    if source:
        fmt = _present(entry, "data.format")
        return f"file {source}" + (f" ({fmt})" if fmt and fmt != "records" else "")
    builder = _present(entry, "data.builder")
    return f"built {builder}" if builder else "built (version not recorded)"


def _present(entry: pd.Series | dict[str, Any], key: str) -> str | None:
    value = entry.get(key) if hasattr(entry, "get") else None
    if value is None or (isinstance(value, float) and math.isnan(value)) or value == "":
        return None
    return str(value)


def bound_roles(entry: pd.Series | dict[str, Any]) -> dict[str, str]:
    """role -> model a log bound (``role_models``: ``role=model; ...``)."""
    out = {}
    for pair in str(_present(entry, "role_models") or "").split("; "):
        role, _, model = pair.partition("=")
        if role and model:
            out[role] = model
    return out


def row_table(evals: pd.DataFrame, declaration: TaskReport) -> pd.DataFrame:
    """One line per log, sorted by model and setting: ``log_id``, ``row`` (the row label,
    which is the row's key: logs with the same label are pooled), ``model``, the shown
    settings (those that differ, plus :data:`ALWAYS_SHOWN`), the :data:`DATA_SETTINGS`
    a log records, ``data`` (`data_text`), ``roles`` (when some log binds a model role)
    and ``note`` (what a reference model knows, `reference_note`).

    The label is the model, the settings that differ between the logs, then always the
    data settings, the source file (``source=<name>#<hash>``) and every role that some
    log of the task binds (``examiner=<model>``, or ``examiner=rule`` for a log that
    left it to the suite's rule): one row is one model, one setting and one dataset."""
    labels = [setting_labels(entry, declaration) for _, entry in evals.iterrows()]
    names = [n for n in declaration.settings if any(n in lab for lab in labels)
             and n not in DATA_SETTINGS]
    shown = [n for n in names if n in ALWAYS_SHOWN
             or len({lab.get(n, "") for lab in labels}) > 1]
    varying = [n for n in shown if len({lab.get(n, "") for lab in labels}) > 1]
    data_names = [n for n in DATA_SETTINGS
                  if any(_present(entry, "setting." + n) for _, entry in evals.iterrows())]
    roles = [bound_roles(entry) for _, entry in evals.iterrows()]
    role_names = sorted({r for bound in roles for r in bound})
    rows = []
    for (_, entry), lab, bound in zip(evals.iterrows(), labels, roles):
        row = {"log_id": entry["log_id"], "model": entry["model"]}
        row.update({n: lab.get(n, "") for n in shown})
        row.update({n: _label(_present(entry, "setting." + n) or "") for n in data_names})
        row["data"] = data_text(entry)
        words = [entry["model"], *(f"{n}={row[n]}" for n in varying if row[n]),
                 *(f"{n}={row[n]}" for n in data_names if row[n])]
        source = _present(entry, "data.source")
        if source:
            words.append("source=" + source.replace(" ", "_"))
        role_words = [f"{r}={bound.get(r, ROLE_FALLBACK)}" for r in role_names]
        if role_names:
            row["roles"] = "; ".join(role_words)
        row["row"] = " ".join([*words, *role_words])
        row["note"] = reference_note(str(entry.get("task", "")), declaration.protocol,
                                     str(entry["model"]), {**lab, **bound})
        rows.append(row)
    frame = pd.DataFrame(rows)
    if not frame["note"].astype(bool).any():
        frame = frame.drop(columns=["note"])
    order = ["model", *shown, *data_names, "data", *(["roles"] if role_names else []),
             "log_id"]
    return frame.sort_values(order, kind="stable").reset_index(drop=True)


def run_facts(entry: pd.Series, declaration: TaskReport) -> dict[str, str]:
    """What a published series is matched against for one log (`published.same_data`): its
    setting labels, its data settings and ``data.format`` / ``data.sha256`` /
    ``data.builder`` / ``data.source``."""
    facts = setting_labels(entry, declaration)
    for name in DATA_SETTINGS:
        value = _present(entry, "setting." + name)
        if value:
            facts[name] = _label(entry["setting." + name])
    for key in ("data.format", "data.sha256", "data.builder", "data.source"):
        value = _present(entry, key)
        if value:
            facts[key] = value
    return facts


REFERENCE_MODELS = "infoseek/"
"""The prefix of the reference models (`infoseek.solvers.reference`)."""


def reference_note(task: str, protocol: str, model: str, settings: dict[str, str]) -> str:
    """What a reference model's row measures, said beside it: what the reference knows,
    and where it is no floor (empty for any other model)."""
    if not model.startswith(REFERENCE_MODELS):
        return ""
    name = model[len(REFERENCE_MODELS):]
    if name == "human":
        return ("a person at the terminal (infoseek play): reads the prompt and the "
                "replies, as a model does")
    if name == "random" and protocol == "twenty_questions":
        return ("reference: asks random attribute questions, but guesses only among the "
                "candidates the exact attribute table leaves open (it knows the table): "
                "no floor for a model that must infer them")
    if (name == "random" and protocol == "seek" and task.startswith("clinguide")
            and settings.get("distractors") == "0"):
        return ("reference: at distractors=0 every askable variable is in the MSS, so "
                "every random question is an MSS question: here random is no floor (it "
                "becomes sufficient like optimal; only the order of its questions differs)")
    if name == "random":
        return "reference: random valid actions (reads the problem record, not the prompt)"
    if name == "optimal":
        return ("reference: exact policy (reads the problem record and the replies, never "
                "the hidden value)")
    return "reference model (reads the problem record, not the prompt)"


def group_label(value: Any) -> str | None:
    """The label of one group value (``k`` 2 -> "2"); None for a missing one."""
    if value is None or (isinstance(value, float) and math.isnan(value)):
        return None
    return _label(value)


def _group_sort(label: str) -> tuple[int, float, str]:
    try:
        return (0, float(label), label)
    except ValueError:
        return (1, 0.0, label)


def groups_of(samples: pd.DataFrame, group_key: str) -> list[str]:
    column = f"metadata_{group_key}"
    if column not in samples:
        return []
    found = {g for g in map(group_label, samples[column]) if g is not None}
    return sorted(found, key=_group_sort)


NOISE = 1e-12
"""Magnitudes below this are float noise (a sum of logarithms that should cancel), read as
0: no table shows ``-0.000`` and no axis scales to 1e-17."""


def denoised(value: float) -> float:
    """`value`, or 0.0 when it is float noise (:data:`NOISE`; a negative zero too)."""
    if isinstance(value, float) and not math.isnan(value) and abs(value) < NOISE:
        return 0.0
    return value


def mean_stderr(values: Sequence[float]) -> tuple[float, float, int]:
    """Mean, standard error (stdev / sqrt(n); 0 for one value) and n; NaN mean for none;
    float noise read as 0 (`denoised`)."""
    n = len(values)
    if n == 0:
        return math.nan, math.nan, 0
    stderr = statistics.stdev(values) / math.sqrt(n) if n > 1 else 0.0
    return denoised(statistics.fmean(values)), denoised(stderr), n


def metric_values(samples: pd.DataFrame, spec: MetricSpec) -> list[float]:
    """The values of a metric over `samples`: NaN (not applicable) skipped, errored samples
    as ``spec.errored_as`` (left out when None). A sample run more than once (``--epochs``,
    or the same sample in two logs of one row) counts once, with the mean of its repeats,
    as Inspect's default ``mean`` epoch reducer does: n counts samples, not repeats, and
    the standard error is over samples."""
    column = f"score.{spec.scorer}.{spec.key}"
    errored = samples["error"].astype(bool)
    values = pd.to_numeric(samples[column], errors="coerce") if column in samples \
        else pd.Series(math.nan, index=samples.index)
    if "id" in samples and samples["id"].duplicated().any():
        fill = math.nan if spec.errored_as is None else float(spec.errored_as)
        scores = values.where(~errored, fill).dropna()
        return [float(v) for v in scores.groupby(samples.loc[scores.index, "id"]).mean()]
    out = [float(v) for v in values[~errored] if not math.isnan(v)]
    if spec.errored_as is not None:
        out.extend([float(spec.errored_as)] * int(errored.sum()))
    return out


def metric_table(samples: pd.DataFrame, rows: pd.DataFrame, spec: TableSpec,
                 group_key: str) -> pd.DataFrame:
    """The metric table of one task (module docstring)."""
    groups = groups_of(samples, group_key)
    column = f"metadata_{group_key}"
    shown = [c for c in rows.columns if c not in ("log_id", "row")]
    out = []
    for label, block in rows.groupby("row", sort=False):
        mine = samples[samples["log_id"].isin(block["log_id"])]
        line: dict[str, Any] = {"label": label}
        line.update({c: block.iloc[0][c] for c in shown})
        line["kind"] = "run"
        line["source"] = " ".join(sorted(block["log_id"]))
        line["samples"] = len(mine)
        line["errored"] = int((mine["error"].astype(bool)).sum()) if len(mine) else 0
        for metric in spec.metrics:
            parts = [(f"{metric.key}_{group_key}{g}", f"no {group_key}={g} samples",
                      mine[mine[column].map(group_label) == g] if column in mine else mine[:0])
                     for g in groups]
            parts.append((metric.key, "no samples", mine))
            for name, empty, part in parts:
                mean, stderr, n = mean_stderr(metric_values(part, metric))
                line[name], line[f"{name}_stderr"], line[f"{name}_n"] = mean, stderr, n
                if n == 0:
                    line[f"{name}{WHY}"] = empty if part.empty else (
                        metric.blank or f"none of its {len(part)} samples has a value")
        out.append(line)
    table = pd.DataFrame(out)
    table = _drop_empty_metrics(table, spec, groups, group_key)
    reasons = [c for c in table.columns if c.endswith(WHY)]
    return table[[c for c in table.columns if c not in reasons] + sorted(reasons)].fillna(
        {c: "" for c in reasons})


WHY = "_why"
"""Suffix of the column saying why a run row's cell has no value (empty where it has one)."""
NOT_PUBLISHED = "not published"
"""What a published row's cell says where the paper gives no number."""


def _drop_empty_metrics(table: pd.DataFrame, spec: TableSpec, groups: list[str],
                        group_key: str) -> pd.DataFrame:
    """Leave out a metric no row has a value for (order correctness off ordered domains)."""
    drop: list[str] = []
    for metric in spec.metrics:
        names = [f"{metric.key}_{group_key}{g}" for g in groups] + [metric.key]
        if all((table[f"{n}_n"] == 0).all() for n in names if f"{n}_n" in table):
            drop.extend(c for n in names for c in (n, f"{n}_stderr", f"{n}_n", f"{n}{WHY}"))
    return table.drop(columns=[c for c in drop if c in table])


def metric_columns(table: pd.DataFrame) -> list[str]:
    """The value columns of a metric table (those with a ``_n`` partner)."""
    return [c for c in table.columns if f"{c}_n" in table.columns]


def format_cell(value: Any, stderr: Any = None, n: Any = None) -> str:
    """``0.950 ± 0.049 (20)``; a value without stderr/n (published) as ``0.950``, with a
    fourth decimal when the paper gives one (``0.0575``, not ``0.058``); no value as an
    empty cell."""
    if value is None or (isinstance(value, float) and math.isnan(value)):
        return ""
    text = _fixed(value, 3)
    if stderr is None and n is None:
        precise = _fixed(value, 4)
        text = precise if precise[-1] != "0" else text
    if stderr is not None and not (isinstance(stderr, float) and math.isnan(stderr)):
        text += f" ± {_fixed(stderr, 3)}"
    if n is not None and not (isinstance(n, float) and math.isnan(n)):
        text += f" ({int(n)})"
    return text


def _fixed(value: Any, decimals: int) -> str:
    """`value` with `decimals` decimals, never ``-0.000`` (a value that rounds to zero has
    no sign)."""
    text = f"{float(value):.{decimals}f}"
    return text[1:] if text.startswith("-") and float(text) == 0 else text


def blank_cell(kind: Any, why: Any = None) -> str:
    """The text of a metric cell with no value: why (`WHY` column) for a run row, "not
    published" for a published row."""
    if kind != "run":
        return NOT_PUBLISHED
    reason = why if isinstance(why, str) and why else "no value"
    return f"n/a ({reason})"


COUNT_COLUMNS = ("samples", "errored", "total", "unmatched", "episodes_with_reasoning", "k",
                 "turn", "entropy_games", "neig_games", "pass_mass_games")


def display_frame(table: pd.DataFrame, blanks: dict[str, str] | None = None) -> pd.DataFrame:
    """The table as the Markdown and HTML show it: one text cell per metric column (the
    CSV's ``model`` column is left out: the row label starts with it). A cell with no
    number says why: a metric cell from its `WHY` column (`blank_cell`), any other
    number column ``n/a (<reason>)`` with the reason `blanks` gives for the column (or
    for a prefix ending in ``*``), else ``n/a``."""
    values = metric_columns(table)
    keep = [c for c in table.columns if c != "model" and not c.endswith(WHY) and (
        c not in values and not c.endswith(("_stderr", "_n")) or c in values)]
    out = pd.DataFrame(index=table.index)
    kinds = table["kind"] if "kind" in table else pd.Series("run", index=table.index)
    for column in keep:
        if column in values:
            whys = table.get(f"{column}{WHY}", pd.Series("", index=table.index))
            out[column] = [
                format_cell(v, s if kind == "run" else None, n if kind == "run" else None)
                or blank_cell(kind, why)
                for v, s, n, kind, why in zip(table[column], table[f"{column}_stderr"],
                                              table[f"{column}_n"], kinds, whys)]
        elif column in COUNT_COLUMNS or column.endswith("_kept"):
            out[column] = table[column].map(format_count)
        elif not pd.api.types.is_numeric_dtype(table[column]):
            out[column] = table[column].map(format_plain)  # text: a note, a setting
        else:
            why = _blank_reason(column, blanks or {})
            out[column] = [
                (f"n/a ({why})" if why else "n/a")
                if isinstance(v, float) and math.isnan(v) else format_plain(v)
                for v in table[column]]
    return out


def _blank_reason(column: str, blanks: dict[str, str]) -> str:
    if column in blanks:
        return blanks[column]
    return next((why for key, why in blanks.items()
                 if key.endswith("*") and column.startswith(key[:-1])), "")


def format_count(value: Any) -> str:
    if value is None or (isinstance(value, float) and math.isnan(value)):
        return ""
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    return str(value)


def format_plain(value: Any) -> str:
    """A non-metric cell: empty for no value, integers as integers, floats with three
    decimals (``1.2e-05`` below 0.001)."""
    if value is None or (isinstance(value, float) and math.isnan(value)):
        return ""
    if isinstance(value, float):
        value = denoised(value)
        return f"{value:.1e}" if 0 < abs(value) < 0.001 else _fixed(value, 3)
    return _label(value)


def markdown(frame: pd.DataFrame) -> str:
    """A GitHub Markdown table of text cells (``|`` escaped)."""
    def cell(text: Any) -> str:
        return str(text).replace("|", "\\|").replace("\n", " ")

    lines = ["| " + " | ".join(cell(c) for c in frame.columns) + " |",
             "|" + "---|" * len(frame.columns)]
    for _, row in frame.iterrows():
        lines.append("| " + " | ".join(cell(v) for v in row) + " |")
    return "\n".join(lines) + "\n"


# ------------------------------------------------------------------ difficulty axes


AXES = ("num_vars", "num_constraints", "depth", "e_bf")


def axis_correlations(correct: Sequence[float], axis: Sequence[Any]) -> tuple[float, float]:
    """Spearman's rho and p of correctness with one difficulty axis (NaN when fewer than
    three pairs or either series is constant)."""
    from scipy.stats import spearmanr

    pairs = [(c, a) for c, a in zip(correct, axis)
             if isinstance(a, int | float) and not isinstance(a, bool)
             and not math.isnan(float(a)) and not math.isnan(c)]
    if len(pairs) < 3 or len({c for c, _ in pairs}) < 2 or len({a for _, a in pairs}) < 2:
        return math.nan, math.nan
    result = spearmanr([c for c, _ in pairs], [a for _, a in pairs])
    return float(result.statistic), float(result.pvalue)


def correctness(samples: pd.DataFrame, scorer: str) -> list[float]:
    column = f"score.{scorer}.correct"
    return [0.0 if err else float(v) for v, err in
            zip(samples.get(column, pd.Series([math.nan] * len(samples))),
                samples["error"].astype(bool))]


def axes_table(samples: pd.DataFrame, rows: pd.DataFrame, scorer: str) -> pd.DataFrame:
    """Spearman's rho and p of correctness (errored samples: 0) with each difficulty axis
    of protocols §4, per row (underspecified samples only when a row mixes variants)."""
    out = []
    shown = [c for c in rows.columns if c not in ("log_id", "row")]
    for _label_, block in rows.groupby("row", sort=False):
        mine = samples[samples["log_id"].isin(block["log_id"])]
        line: dict[str, Any] = {"label": _label_}
        line.update({c: block.iloc[0][c] for c in shown})
        line.update(kind="run", samples=len(mine))
        correct = correctness(mine, scorer)
        for axis in AXES:
            values = list(mine.get(f"metadata_{axis}", [math.nan] * len(mine)))
            rho, p = axis_correlations(correct, values)
            line[f"rho_{axis}"], line[f"p_{axis}"] = rho, p
        out.append(line)
    return pd.DataFrame(out)
