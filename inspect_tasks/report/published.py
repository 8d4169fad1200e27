"""The published numbers (``published.json``), checked on load, and the reference rows
the report adds beside a run of the same task and setting.

A *series* is one metric of one task in one setting from one paper table, per model and
per group (``k``, or ``all`` for an overall figure). It applies to a report row when every
setting the series names has that value in the row's settings (the task arguments as
the report labels them: ``budget`` ``none`` or ``TxQ``, flags ``true``/``false``).
"""

from __future__ import annotations

import json
import math
from functools import lru_cache
from importlib import resources
from typing import Any

import pandas as pd

from infoseek.inspect_tasks.report.tables import STRATA

DATA_FILE = "published.json"


class PublishedDataError(ValueError):
    """The data file breaks its format (the message names the series and field)."""


def _check(data: Any) -> dict[str, Any]:
    if not isinstance(data, dict) or data.get("format") != 1:
        raise PublishedDataError(f"{DATA_FILE}: expected an object with format 1")
    sources = data.get("sources")
    if not isinstance(sources, dict):
        raise PublishedDataError(f"{DATA_FILE}: 'sources' must map source keys to names")
    citations = data.get("citations")
    if not isinstance(citations, dict) or set(citations) != set(sources):
        raise PublishedDataError(f"{DATA_FILE}: 'citations' must give one reference per "
                                 "source")
    for index, series in enumerate(data.get("series") or []):
        where = f"{DATA_FILE}: series {index}"
        for name, kind in (("task", str), ("source", str), ("table", str), ("setting", dict),
                           ("metric", str), ("group_key", str), ("values", dict)):
            if not isinstance(series.get(name), kind):
                raise PublishedDataError(f"{where}: '{name}' must be a {kind.__name__}")
        if series["source"] not in sources:
            raise PublishedDataError(f"{where}: unknown source {series['source']!r}")
        for model, values in series["values"].items():
            if not isinstance(values, dict) or not all(
                    isinstance(v, int | float) and 0 <= v < 1000 for v in values.values()):
                raise PublishedDataError(f"{where}: values of {model!r} must map groups "
                                         "to numbers")
    for index, block in enumerate(data.get("order_strata") or []):
        for row in block.get("rows") or []:
            for stratum in STRATA:
                cell = row.get(stratum)
                if cell is not None and not (isinstance(cell, dict)
                                             and {"accuracy", "n"} <= set(cell)):
                    raise PublishedDataError(f"{DATA_FILE}: order_strata {index}: "
                                             f"{stratum} must be null or accuracy and n")
    return data


@lru_cache(maxsize=1)
def published() -> dict[str, Any]:
    """The checked contents of ``published.json``."""
    package = resources.files("infoseek.inspect_tasks.report")
    text = package.joinpath(DATA_FILE).read_text(encoding="utf-8")
    return _check(json.loads(text))


def _applies(setting: dict[str, str], labels: dict[str, str]) -> bool:
    return all(labels.get(name) == value for name, value in setting.items())


def source_label(source: str, table: str) -> str:
    """``MT-InfoSeek Table 14``: the paper's short name and the table (full references:
    the data file's ``citations``)."""
    return f"{published()['sources'][source]} {table}"


def reference_rows(task: str, metrics: list[str], group_key: str,
                   row_labels: list[dict[str, str]], columns: list[str]) -> pd.DataFrame:
    """Published rows for a metric table: one per (paper table, setting, model) with a
    series of the task whose setting applies to some row and whose metric is shown."""
    rows: dict[tuple, dict[str, Any]] = {}
    for series in published()["series"]:
        if series["task"] != task or series["metric"] not in metrics:
            continue
        if series["group_key"] != group_key:
            continue
        if not any(_applies(series["setting"], labels) for labels in row_labels):
            continue
        for model, values in series["values"].items():
            key = (series["source"], series["table"], json.dumps(series["setting"]), model)
            row = rows.setdefault(key, {
                "model": f"{model} (published)", "kind": "published",
                "source": source_label(series["source"], series["table"]),
                **{c: series["setting"].get(c, "") for c in columns},
            })
            for group, value in values.items():
                name = (series["metric"] if group == "all"
                        else f"{series['metric']}_{group_key}{group}")
                row[name], row[f"{name}_stderr"], row[f"{name}_n"] = value, math.nan, math.nan
    return pd.DataFrame(list(rows.values()))


def reference_strata(task: str, row_labels: list[dict[str, str]]) -> pd.DataFrame:
    """Published coverage x order strata (MT-InfoSeek Table 29) for a task."""
    out = []
    for block in published().get("order_strata") or []:
        if block["task"] != task or not any(_applies(block["setting"], labels)
                                            for labels in row_labels):
            continue
        for row in block["rows"]:
            line: dict[str, Any] = {"model": f"{row['model']} (published)",
                                    "kind": "published", "k": str(row["k"]),
                                    "source": source_label(block["source"], block["table"])}
            for stratum in STRATA:
                cell = row.get(stratum)
                line[f"accuracy_{stratum}"] = math.nan if cell is None else cell["accuracy"]
                line[f"n_{stratum}"] = 0 if cell is None else cell["n"]
            out.append(line)
    return pd.DataFrame(out)
