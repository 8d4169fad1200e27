"""The logs of a task's shards (`-T shard=i/n`, `infoseek.shards`) merged into one Inspect
log, as if the task had run unsharded: `infoseek merge LOGS -o merged.eval`.

The shards must be the n shares of one run: the same task and task version, the same
task arguments but the shard, the same model, model arguments, roles, generation and
sample settings (epochs, limits), the same scorers and data; each finished
(``success``); every share ``1/n .. n/n`` present once. Anything else is refused in one
line naming the two logs and what differs (`MergeError`). Shards may come from other
processes or machines: nothing run-local (log folder, connection and sample limits, the
time it ran) is compared.

The merged log holds every sample of the shards (ordered by id and epoch), the task
arguments without the shard, the dataset's size and ids, the usage summed and the time
from the first start to the last end. Its results are recomputed from the merged
samples with the metrics the log header records, by Inspect's own
`inspect_ai.log.recompute_metrics`, the path `inspect log recover` and score edits
take, so each metric is the task's metric over all its samples. Its eval id is derived
from the shards' (the same shards merge to the same log, byte for byte apart from the
zip container's timestamps).
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from inspect_ai.log import EvalLog, read_eval_log, recompute_metrics, write_eval_log

from infoseek.shards import SHARD_PARAMETER, Shard, ShardError, missing_shards, parse_shard

CONFIG_COMPARED = ("epochs", "epochs_reducer", "limit", "sample_id", "message_limit",
                   "token_limit", "time_limit", "working_limit", "fail_on_error",
                   "continue_on_fail", "score_display")
"""The `EvalConfig` fields that change which samples run or how they are scored; the
others (log folder, concurrency) belong to the process that ran the shard."""


class MergeError(ValueError):
    """Logs that are not the shards of one run (what to fix is in the message)."""


def _name(path: str | Path) -> str:
    return Path(path).name


def _plain(value: Any) -> Any:
    dump = getattr(value, "model_dump", None)
    return dump(exclude_none=True) if callable(dump) else value


def run_identity(log: EvalLog) -> dict[str, Any]:
    """What the shards of one run share (module docstring), by name."""
    spec = log.eval
    args = {k: v for k, v in (spec.task_args or {}).items() if k != SHARD_PARAMETER}
    config = _plain(spec.config) or {}
    return {
        "task": spec.task,
        "task version": spec.task_version,
        "task arguments (other than shard)": args,
        "solver": (spec.solver, spec.solver_args),
        "model": spec.model,
        "model arguments": spec.model_args,
        "model base URL": spec.model_base_url,
        "model roles": {role: _plain(m) for role, m in (spec.model_roles or {}).items()},
        "generation settings": _plain(spec.model_generate_config),
        "sample settings": {key: config.get(key) for key in CONFIG_COMPARED},
        "scorers": [_plain(s) for s in (spec.scorers or [])],
        "dataset": spec.dataset.name,
        "task metadata": spec.metadata,
    }


def shard_of(log: EvalLog, where: str) -> Shard:
    """The share a log ran (its recorded ``shard`` task argument)."""
    value = (log.eval.task_args or {}).get(SHARD_PARAMETER)
    if value is None:
        raise MergeError(f"{where}: not a shard's log (its task arguments record no "
                         f"{SHARD_PARAMETER}=i/n; run each share with -T {SHARD_PARAMETER}=i/n)")
    try:
        return parse_shard(value)
    except ShardError as exc:
        raise MergeError(f"{where}: {exc}") from None


def _shown(value: Any) -> str:
    text = repr(value)
    return text if len(text) <= 80 else text[:77] + "..."


def check_shards(logs: Sequence[EvalLog], names: Sequence[str]) -> list[Shard]:
    """The share of each log; a `MergeError` naming what keeps them from being the shards
    of one run."""
    shards = [shard_of(log, name) for log, name in zip(logs, names)]
    for log, name in zip(logs, names):
        if log.status != "success":
            raise MergeError(f"{name}: the shard's run has status {log.status!r}; rerun that "
                             "share to the end before merging")
    first = run_identity(logs[0])
    for log, name, shard in zip(logs[1:], names[1:], shards[1:]):
        other = run_identity(log)
        for key, value in first.items():
            if other[key] != value:
                raise MergeError(f"{names[0]} and {name} are not shards of one run: their "
                                 f"{key} differ ({_shown(value)} vs {_shown(other[key])})")
        if shard.count != shards[0].count:
            raise MergeError(f"{names[0]} and {name} split the task differently "
                             f"({SHARD_PARAMETER}={shards[0]} vs {shard})")
    missing, repeated = missing_shards(shards)
    if repeated:
        twice = [n for n, s in zip(names, shards) if s == repeated[0]]
        raise MergeError(f"{SHARD_PARAMETER}={repeated[0]} is given twice ({', '.join(twice)}); "
                         "give each share once")
    if missing:
        raise MergeError(f"the share(s) {', '.join(map(str, missing))} of {shards[0].count} are "
                         "missing; merge all of them")
    return shards


def _sample_key(sample: Any) -> tuple[str, int]:
    return str(sample.id), int(sample.epoch)


def merge_logs(paths: Sequence[str | Path]) -> EvalLog:
    """One log of the shards' logs at `paths` (module docstring)."""
    if not paths:
        raise MergeError("no logs given; name the logs of the shards")
    names = [_name(p) for p in paths]
    logs = []
    for path, name in zip(paths, names):
        if not Path(path).is_file():
            raise MergeError(f"{path}: no such log file")
        try:
            logs.append(read_eval_log(str(path)))
        except Exception as exc:  # any unreadable file: one line, never a traceback
            first = (str(exc).strip().splitlines() or [type(exc).__name__])[0]
            raise MergeError(f"{name}: not an Inspect log ({first[:160]})") from None
    shards = check_shards(logs, names)
    ordered = [log for _, log in sorted(zip(shards, logs), key=lambda pair: pair[0])]
    samples = sorted((s for log in ordered for s in (log.samples or [])), key=_sample_key)
    keys = [_sample_key(s) for s in samples]
    if len(set(keys)) != len(keys):
        raise MergeError("the shards hold the same sample twice; they were not made from "
                         "the same dataset (rerun the shards with the same parameters)")
    merged = ordered[0].model_copy(deep=True)
    spec = merged.eval
    spec.task_args = {k: v for k, v in spec.task_args.items() if k != SHARD_PARAMETER}
    spec.task_args_passed = {k: v for k, v in spec.task_args_passed.items()
                             if k != SHARD_PARAMETER}
    digest = hashlib.sha256("\n".join(log.eval.eval_id for log in ordered).encode())
    spec.eval_id = digest.hexdigest()[:22]
    spec.created = min(log.eval.created for log in ordered)
    ids = list(dict.fromkeys(str(s.id) for s in samples))
    spec.dataset.samples = len(ids)
    spec.dataset.sample_ids = [s.id for s in samples if s.epoch == samples[0].epoch] \
        if samples else []
    merged.samples = samples
    merged.stats.started_at = min(log.stats.started_at for log in ordered)
    merged.stats.completed_at = max(log.stats.completed_at for log in ordered)
    merged.stats.model_usage = _summed([log.stats.model_usage for log in ordered])
    merged.stats.role_usage = _summed([log.stats.role_usage for log in ordered])
    recompute_metrics(merged)
    if merged.results is not None:
        merged.results.total_samples = sum(
            log.results.total_samples for log in ordered if log.results is not None)
    return merged


def _summed(usages: Sequence[dict[str, Any]]) -> dict[str, Any]:
    total: dict[str, Any] = {}
    for usage in usages:
        for model, used in usage.items():
            total[model] = used if model not in total else total[model] + used
    return total


def write_merged(paths: Sequence[str | Path], out: str | Path) -> EvalLog:
    """Merge the shards' logs (`merge_logs`) and write the result to `out` (``.eval`` or
    ``.json``, by its suffix)."""
    merged = merge_logs(paths)
    write_eval_log(merged, str(out))
    return merged
