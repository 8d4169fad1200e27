"""`infoseek report` pools the logs of a task's shards (`-T shard=i/n`) into exactly the rows
the unsharded run gives: same row labels, same samples, same numbers in every table. The
shard is no setting of a row (no report declaration names it), so the n logs share one
row label; only the column naming the logs behind a row (``source``: ``L1`` vs ``L1 L2
L3``) tells them apart. The merged log (`infoseek merge`) reports the same rows too."""

from __future__ import annotations

from pathlib import Path

import pandas as pd
import pytest
from inspect_ai import eval as inspect_eval
from inspect_ai.log import read_eval_log

from infoseek.inspect_tasks.report import build_report
from infoseek.inspect_tasks.shard_logs import write_merged

TASK_ARGS = {"k": [1, 2], "per_k": 2, "oracle": "random"}
LOG_COLUMNS = {"source", "log_id", "log", "file", "setting.shard"}
"""Columns that name the logs behind a row or sample, not what was measured (the long
form's ``setting.shard`` says which share ran a sample)."""


@pytest.fixture(scope="module")
def reports(tmp_path_factory) -> dict[str, Path]:
    tmp = tmp_path_factory.mktemp("shard-report")
    for shard in (None, "1/3", "2/3", "3/3"):
        args = {**TASK_ARGS, **({"shard": shard} if shard else {})}
        folder = tmp / ("whole" if shard is None else "shards")
        for model in ("infoseek/optimal", "infoseek/random"):
            log = inspect_eval("infoseek/logic_mt", task_args=args, model=model,
                               display="none", log_dir=str(folder))[0]
            assert log.status == "success"
    shard_logs = sorted((tmp / "shards").glob("*.eval"))
    by_model: dict[str, list[Path]] = {}
    for path in shard_logs:
        by_model.setdefault("random" if "random" in _model_of(path) else "optimal",
                            []).append(path)
    for model, paths in by_model.items():
        write_merged(paths, tmp / "merged" / f"{model}.eval")
    out = {}
    for name in ("whole", "shards", "merged"):
        out[name] = tmp / f"report-{name}"
        build_report([tmp / name], out[name], bundle=False)
    return out


def _model_of(path: Path) -> str:
    return read_eval_log(str(path), header_only=True).eval.model


def _table(path: Path) -> pd.DataFrame:
    frame = pd.read_csv(path)
    kept = frame.drop(columns=[c for c in frame.columns if c in LOG_COLUMNS])
    order = [c for c in ("label", "task", "model", "id", "epoch", "turn") if c in kept]
    return kept.sort_values(order).reset_index(drop=True) if order else kept


@pytest.mark.parametrize("other", ["shards", "merged"])
def test_shards_pool_into_the_rows_of_the_unsharded_run(reports, other) -> None:
    whole, pooled = reports["whole"], reports[other]
    tables = sorted(p.relative_to(whole) for p in whole.rglob("*.csv"))
    assert sorted(p.relative_to(pooled) for p in pooled.rglob("*.csv")) == tables
    assert any("headline" in str(t) for t in tables)
    for table in tables:
        if table.name == "logs.csv":
            continue  # one line per log: three logs per row against one
        pd.testing.assert_frame_equal(_table(pooled / table), _table(whole / table),
                                      check_dtype=False, obj=str(table))
    headline = _table(whole / "tables" / "logic_mt.headline.csv")
    assert list(headline["model"]) == ["infoseek/optimal", "infoseek/random"]
    assert list(headline["samples"]) == [8, 8]
    shards_named = pd.read_csv(pooled / "tables" / "logic_mt.headline.csv")["source"]
    assert list(shards_named.str.split().map(len)) == ([3, 3] if other == "shards" else [1, 1])
    ran_in = pd.read_csv(pooled / "samples.csv").get("setting.shard")
    if other == "shards":
        assert sorted(set(ran_in)) == ["1/3", "2/3", "3/3"]
    else:
        assert ran_in is None
