"""The published numbers (``published.json``), checked on load, and the reference rows
the report adds beside a run of the same task and setting.

A *series* is one metric of one task in one setting from one paper table, per model and
per group (``k``, or ``all`` for an overall figure). It applies to a report row when every
setting the series names has that value in the row's settings (the task arguments as
the report labels them: ``budget`` ``none`` or ``TxQ``, flags ``true``/``false``).

Each series names the data it was measured on (``data.name``) and which runs of ours are
on the same data (``data.same_as``: any one of its conditions, each a set of facts that
must all hold: ``format``, the source format of the ``-T source=`` file the run read;
``sha256``, a prefix of that file's hash; ``builder``, the builder of a built split;
``setting``, task arguments as labelled; a condition naming neither ``format`` nor
``sha256`` holds only for a run that read no ``-T source=`` file: the paper's pool with
targets of one's own is not the paper's data). A series that applies to some run on the same
data is a ``published`` row beside the runs; one whose setting applies but whose data no
run shares is a ``different data`` row, which the report shows apart: a number measured
on other problems is never set beside a run as if it were comparable.
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
        _check_data(series.get("data"), where)
        for model, values in series["values"].items():
            if not isinstance(values, dict) or not all(
                    isinstance(v, int | float) and 0 <= v < 1000 for v in values.values()):
                raise PublishedDataError(f"{where}: values of {model!r} must map groups "
                                         "to numbers")
    for index, block in enumerate(data.get("order_strata") or []):
        _check_data(block.get("data"), f"{DATA_FILE}: order_strata {index}")
        for row in block.get("rows") or []:
            for stratum in STRATA:
                cell = row.get(stratum)
                if cell is not None and not (isinstance(cell, dict)
                                             and {"accuracy", "n"} <= set(cell)):
                    raise PublishedDataError(f"{DATA_FILE}: order_strata {index}: "
                                             f"{stratum} must be null or accuracy and n")
    return data


MATCH_KEYS = ("format", "sha256", "builder", "setting")
"""What a ``data.same_as`` condition may name (module docstring)."""
NOT_STATED = "not stated"
"""A published row's setting the paper's table does not name."""
PUBLISHED = "published"
DIFFERENT_DATA = "different data"
"""The ``kind`` of a published row on the same data as a run, and on other data."""


def _check_data(data: Any, where: str) -> None:
    """A series' ``data``: ``name`` (text) and ``same_as`` (a list of conditions)."""
    if not isinstance(data, dict) or not isinstance(data.get("name"), str) \
            or not data["name"].strip():
        raise PublishedDataError(f"{where}: 'data' must name the data the numbers were "
                                 "measured on ('name')")
    same_as = data.get("same_as")
    if not isinstance(same_as, list):
        raise PublishedDataError(f"{where}: 'data.same_as' must be a list of conditions")
    for condition in same_as:
        if not isinstance(condition, dict) or not condition \
                or not set(condition) <= set(MATCH_KEYS):
            raise PublishedDataError(f"{where}: a 'data.same_as' condition must name some "
                                     f"of {', '.join(MATCH_KEYS)}; got {condition!r}")
        if not isinstance(condition.get("setting", {}), dict):
            raise PublishedDataError(f"{where}: 'data.same_as' setting must be an object")


def same_data(data: dict[str, Any], run: dict[str, str]) -> bool:
    """Whether `run` (its setting labels and ``data.format``, ``data.sha256``,
    ``data.builder``) is on the data a series names."""
    def holds(condition: dict[str, Any]) -> bool:
        builder = str(run.get("data.builder") or "").split("@")[0]
        on_file = bool(condition.get("format") or condition.get("sha256"))
        return ((not condition.get("format") or run.get("data.format") == condition["format"])
                and (not condition.get("sha256")
                     or str(run.get("data.sha256") or "").startswith(condition["sha256"]))
                and (on_file or not run.get("data.source"))  # a built split: no file read
                and (not condition.get("builder") or builder == condition["builder"])
                and _applies(condition.get("setting") or {}, run))

    return any(holds(condition) for condition in data["same_as"])


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
                   runs: list[dict[str, str]], columns: list[str]) -> pd.DataFrame:
    """Published rows for a metric table: one per (paper table, setting, model) with a
    series of the task whose setting applies to some run and whose metric is shown;
    ``kind`` is ``published`` when some run it applies to is on the same data, else
    ``different data`` (`same_data`), and ``data`` names the data it was measured on."""
    rows: dict[tuple, dict[str, Any]] = {}
    for series in published()["series"]:
        if series["task"] != task or series["metric"] not in metrics:
            continue
        if series["group_key"] != group_key:
            continue
        applies = [run for run in runs if _applies(series["setting"], run)]
        if not applies:
            continue
        kind = PUBLISHED if any(same_data(series["data"], run) for run in applies) \
            else DIFFERENT_DATA
        for model, values in series["values"].items():
            key = (series["source"], series["table"], json.dumps(series["setting"]), model)
            row = rows.setdefault(key, {
                "model": f"{model} ({kind_word(kind)})", "kind": kind,
                "source": source_label(series["source"], series["table"]),
                **{c: series["setting"].get(c, NOT_STATED) for c in columns},
                "data": series["data"]["name"],
            })
            for group, value in values.items():
                name = (series["metric"] if group == "all"
                        else f"{series['metric']}_{group_key}{group}")
                row[name], row[f"{name}_stderr"], row[f"{name}_n"] = value, math.nan, math.nan
    return pd.DataFrame(list(rows.values()))


def kind_word(kind: str) -> str:
    """How a published row's label says its kind: ``published`` or ``published,
    different data``."""
    return PUBLISHED if kind == PUBLISHED else f"{PUBLISHED}, {DIFFERENT_DATA}"


def reference_strata(task: str, runs: list[dict[str, str]]) -> pd.DataFrame:
    """Published coverage x order strata (MT-InfoSeek Table 29) for a task, with ``kind``
    and ``data`` as in `reference_rows`."""
    out = []
    for block in published().get("order_strata") or []:
        applies = [run for run in runs if _applies(block["setting"], run)]
        if block["task"] != task or not applies:
            continue
        kind = PUBLISHED if any(same_data(block["data"], run) for run in applies) \
            else DIFFERENT_DATA
        for row in block["rows"]:
            line: dict[str, Any] = {"model": f"{row['model']} ({kind_word(kind)})",
                                    "kind": kind, "k": str(row["k"]),
                                    "source": source_label(block["source"], block["table"]),
                                    "data": block["data"]["name"]}
            for stratum in STRATA:
                cell = row.get(stratum)
                line[f"accuracy_{stratum}"] = math.nan if cell is None else cell["accuracy"]
                line[f"n_{stratum}"] = 0 if cell is None else cell["n"]
            out.append(line)
    return pd.DataFrame(out)
