"""The per-group mean metric every infoseek scorer reports (:func:`mean_by_group`), and
every metric of a log read back as one dict (:func:`log_metrics`).

Scores are dicts of floats; the metric reports the mean of every key overall and per
group of a sample-metadata key (``k`` by default), with standard errors. NaN and None
values are "not applicable" and skipped. Metric names are described in
:mod:`infoseek.scorers.seek`.
"""

from __future__ import annotations

import math
import statistics
from typing import Any

from inspect_ai.log import EvalLog
from inspect_ai.scorer import Metric, SampleScore, Value, metric

from infoseek.stored_forms import sample_problem


def _as_float(value: Any) -> float | None:
    """A numeric score value as a float; ``None`` for missing, NaN or non-numeric."""
    if isinstance(value, bool):
        return 1.0 if value else 0.0
    if isinstance(value, int | float) and not math.isnan(value):
        return float(value)
    return None


def _group_of(metadata: dict[str, Any] | None, group_key: str) -> str | None:
    """The group label of a sample: ``metadata[group_key]``, else the same key of the
    ``problem`` record in the metadata; integral floats print without ``.0``."""
    if not metadata:
        return None
    value = metadata.get(group_key)
    if value is None and "problem" in metadata:
        value = (sample_problem(metadata) or {}).get(group_key)
    if value is None:
        return None
    if isinstance(value, float) and value.is_integer():
        value = int(value)
    return str(value)


def _group_order(label: str) -> tuple[int, float, str]:
    try:
        return (0, float(label), label)
    except ValueError:
        return (1, 0.0, label)


def _stderr(values: list[float]) -> float:
    if len(values) < 2:
        return 0.0
    return statistics.stdev(values) / math.sqrt(len(values))


def prefixes(value: str | tuple[str, ...] | list[str] | None) -> tuple[str, ...]:
    """Name prefixes as the tuple `str.startswith` takes, from a tuple, a list (how a log
    records a tuple), a single string, or None (none)."""
    if value is None:
        return ()
    if isinstance(value, str):
        return (value,)
    return tuple(str(item) for item in value)


@metric
def mean_by_group(
    group_key: str = "k", overall_stderr: bool = True, group_stderr: bool = False,
    overall_only: tuple[str, ...] = (), skip_zero: tuple[str, ...] = (),
) -> Metric:
    """Mean of every key of dict-valued scores, overall and per sample-metadata group.

    For each value key ``name`` it reports ``name`` (mean of the samples whose value is
    a number; None/NaN skipped), ``name_stderr`` (if ``overall_stderr``), and per group
    ``g`` of ``group_key`` (read from the sample metadata, or from its ``problem``
    record) ``name_<group_key><g>`` (plus ``..._stderr`` if ``group_stderr``). Samples
    without a group count only towards the overall value. Keys with no value at all
    are left out.

    Args:
      group_key: sample metadata key to group by (default ``"k"``).
      overall_stderr: also report the standard error of the overall mean.
      group_stderr: also report the standard error of each group mean.
      overall_only: name prefixes reported overall only, without stderr (the invalid-query
        counts by reason, which would otherwise crowd the display).
      skip_zero: name prefixes left out when every sample's value is 0 (reasons that
        never occurred).

    The prefixes may come as a list or a single string: Inspect records the arguments of
    a metric in the log header as JSON (a tuple becomes a list) and rebuilds the metric
    from them when it recovers a killed run (`inspect log recover`) or re-scores a log.
    """

    overall_only, skip_zero = prefixes(overall_only), prefixes(skip_zero)

    def compute(scores: list[SampleScore]) -> Value:
        names: list[str] = []
        overall: dict[str, list[float]] = {}
        grouped: dict[str, dict[str, list[float]]] = {}
        for sample_score in scores:
            value = sample_score.score.value
            if not isinstance(value, dict):
                continue
            group = _group_of(sample_score.sample_metadata, group_key)
            for name, raw in value.items():
                if name not in overall:
                    names.append(name)
                    overall[name] = []
                number = _as_float(raw)
                if number is None:
                    continue
                overall[name].append(number)
                if group is not None:
                    grouped.setdefault(name, {}).setdefault(group, []).append(number)

        result: dict[str, float] = {}
        for name in names:
            brief = name.startswith(overall_only)
            if name.startswith(skip_zero) and not any(overall[name]):
                continue
            if overall[name]:
                result[name] = statistics.fmean(overall[name])
                if brief:
                    continue
                if overall_stderr:
                    result[f"{name}_stderr"] = _stderr(overall[name])
            groups = {} if brief else grouped.get(name, {})
            for group in sorted(groups, key=_group_order):
                label = f"{name}_{group_key}{group}"
                result[label] = statistics.fmean(groups[group])
                if group_stderr:
                    result[f"{label}_stderr"] = _stderr(groups[group])
        return result

    return compute


def log_metrics(log: EvalLog) -> dict[str, float]:
    """Every metric of a log, from all its scorers, as ``{name: value}`` (metric names
    do not repeat across the seek scorers)."""
    if log.results is None:
        return {}
    return {
        name: metric.value
        for eval_score in log.results.scores
        for name, metric in eval_score.metrics.items()
    }
