"""`-T shard=i/n` on every task, and `infoseek merge` of the shards' logs (issue 33, item 2):
the n shards of a run, merged, equal the unsharded run sample for sample and metric for
metric, for a seek task (with the optimal and the random reference), a single-turn task
and Twenty Questions."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from inspect_ai import eval as inspect_eval
from inspect_ai.log import EvalLog, read_eval_log

from infoseek.cli import main as infoseek_main
from infoseek.inspect_tasks.shard_logs import MergeError, merge_logs, write_merged
from infoseek.inspect_tasks.task_parameters import TaskParameterError
from infoseek.shards import (
    Shard,
    ShardError,
    missing_shards,
    parse_shard,
    shard_members,
    shard_sizes,
)

ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.quick
@pytest.mark.parametrize("text, shard", [("1/1", Shard(1, 1)), ("2/3", Shard(2, 3)),
                                         (" 3 / 3 ", Shard(3, 3))])
def test_a_shard_is_read_as_i_of_n(text, shard) -> None:
    assert parse_shard(text) == shard
    assert str(shard) == text.replace(" ", "")


@pytest.mark.quick
@pytest.mark.parametrize("value", ["0/3", "4/3", "a/b", "3", "1/0", "-1/3", "1/3/4", 3, 0.5,
                                   ["1/3"], None, "1/10001"])
def test_a_bad_shard_is_refused_in_one_line_naming_the_form(value) -> None:
    with pytest.raises(ShardError) as info:
        parse_shard(value)
    message = str(info.value)
    assert "\n" not in message
    assert message.startswith("-T shard must be i/n with whole numbers 1 <= i <= n")
    assert message.endswith(f"got {value!r}")


@pytest.mark.quick
def test_the_shares_are_disjoint_balanced_and_cover_every_sample() -> None:
    ids = [f"logic-mt-s0-k{k}-{n:04d}-{v}" for k in (1, 2) for n in range(23)
           for v in ("yes", "no")]
    for count in range(1, 8):
        shares = [shard_members(ids, Shard(i, count)) for i in range(1, count + 1)]
        assert set().union(*shares) == set(ids)
        assert sum(len(s) for s in shares) == len(ids)
        assert sorted(len(s) for s in shares) == sorted(shard_sizes(len(ids), count))
        assert max(map(len, shares)) - min(map(len, shares)) <= 1


@pytest.mark.quick
def test_the_deal_is_pinned_and_does_not_use_pythons_salted_hash() -> None:
    ids = [f"s{i}" for i in range(10)]
    pinned = [{"s0", "s2", "s3", "s7"}, {"s4", "s8", "s9"}, {"s1", "s5", "s6"}]
    assert [shard_members(ids, Shard(i, 3)) for i in (1, 2, 3)] == pinned
    # the same deal in another interpreter with another string-hash salt
    code = ("from infoseek.shards import Shard, shard_members; "
            "print(sorted(shard_members([f's{i}' for i in range(10)], Shard(2, 3))))")
    for salt in ("1", "2"):
        done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                              env={**os.environ, "PYTHONHASHSEED": salt}, check=True)
        assert done.stdout.strip() == "['s4', 's8', 's9']"
    # ids 3 and "3" are one id, as in a log; a missing id is its 1-based position
    assert shard_members([None, None, 3], Shard(1, 1)) == {"1", "2", "3"}
    with pytest.raises(ShardError, match="distinct sample ids"):
        shard_members([None, "1"], Shard(1, 2))


@pytest.mark.quick
def test_missing_and_repeated_shares_are_named() -> None:
    assert missing_shards([Shard(1, 3), Shard(3, 3), Shard(3, 3)]) == ([Shard(2, 3)],
                                                                       [Shard(3, 3)])


def run(tmp: Path, task: str, args: dict, model: str, shard: str | None = None) -> EvalLog:
    task_args = {**args, **({"shard": shard} if shard else {})}
    log = inspect_eval(task, task_args=task_args, model=model, display="none",
                       log_dir=str(tmp))[0]
    assert log.status == "success", log.error
    return log


def _values(log: EvalLog) -> dict:
    """Every sample's scores (values, answers, explanations, metadata) by (id, epoch);
    JSON text, so that NaN (not applicable) equals NaN."""
    return {(str(s.id), s.epoch): json.dumps(
        {name: [score.value, score.answer, score.explanation, score.metadata]
         for name, score in (s.scores or {}).items()}, sort_keys=True, default=str)
        for s in log.samples or []}


def _metrics(log: EvalLog) -> str:
    assert log.results is not None
    return json.dumps({f"{s.name}/{name}": m.value for s in log.results.scores
                       for name, m in s.metrics.items()}, sort_keys=True)


CASES = {
    "seek-optimal": ("infoseek/logic_mt", {"k": [1, 2], "per_k": 3}, "infoseek/optimal"),
    "seek-random": ("infoseek/logic_mt", {"k": [1, 2], "per_k": 3}, "infoseek/random"),
    "single-turn": ("infoseek/logic_q", {"per_k": 5}, "infoseek/optimal"),
    "twenty-questions": ("infoseek/twenty_questions", {"source": "TARGETS"},
                         "infoseek/optimal"),
}


@pytest.fixture(scope="module")
def runs(tmp_path_factory) -> dict[str, tuple[EvalLog, list[Path]]]:
    """Each case run unsharded and as three shards (the shards' log files)."""
    out = {}
    for case, (task, args, model) in CASES.items():
        tmp = tmp_path_factory.mktemp(case)
        if args.get("source") == "TARGETS":
            targets = tmp / "targets.json"
            targets.write_text(json.dumps(["dog", "cat", "apple", "car", "chair", "banana",
                                           "horse"]))
            args = {**args, "source": str(targets)}
        whole = run(tmp / "whole", task, args, model)
        for i in (1, 2, 3):
            run(tmp / "shards", task, args, model, f"{i}/3")
        out[case] = whole, sorted((tmp / "shards").glob("*.eval"), key=_share)
    return out


def _share(path: Path) -> str:
    """A shard log's share ("1/3"): the order of the list the tests slice. Not the file
    name, whose leading timestamp ties when two shards start in the same second."""
    return read_eval_log(str(path), header_only=True).eval.task_args["shard"]


@pytest.mark.parametrize("case", sorted(CASES))
def test_three_shards_merged_equal_the_unsharded_run(case, runs, tmp_path) -> None:
    whole, shard_files = runs[case]
    shards = [read_eval_log(str(p)) for p in shard_files]
    assert sorted(s.eval.task_args["shard"] for s in shards) == ["1/3", "2/3", "3/3"]
    counts = sorted(len(s.samples or []) for s in shards)
    assert counts[-1] - counts[0] <= 1 and counts[0] >= 1
    merged_path = tmp_path / "merged.eval"
    assert infoseek_main(["merge", *map(str, shard_files), "-o", str(merged_path)]) == 0
    merged = read_eval_log(str(merged_path))
    assert merged.status == "success"
    assert _values(merged) == _values(whole)
    assert len(_values(whole)) == whole.eval.dataset.samples
    assert _metrics(merged) == _metrics(whole)
    assert merged.eval.task_args == whole.eval.task_args
    assert "shard" not in merged.eval.task_args_passed
    assert sorted(map(str, merged.eval.dataset.sample_ids)) == sorted(
        map(str, whole.eval.dataset.sample_ids))
    assert merged.results.total_samples == whole.results.total_samples
    assert merged.results.completed_samples == whole.results.completed_samples


def test_merge_refuses_what_is_not_one_run(runs, tmp_path, capsys) -> None:
    _, optimal = runs["seek-optimal"]
    whole, random = runs["seek-random"]
    with pytest.raises(MergeError, match=r"are not shards of one run: their model differ "
                       r"\('infoseek/optimal' vs 'infoseek/random'\)"):
        merge_logs([optimal[0], *random[1:]])
    with pytest.raises(MergeError, match=r"the share\(s\) 3/3 of 3 are missing"):
        merge_logs(optimal[:2])
    with pytest.raises(MergeError, match=r"shard=1/3 is given twice"):
        merge_logs([optimal[0], optimal[0], *optimal[1:]])
    single, _ = runs["single-turn"]
    with pytest.raises(MergeError, match="not a shard's log"):
        merge_logs([single.location, *optimal])
    _, questions = runs["single-turn"]
    with pytest.raises(MergeError, match="their task differ"):
        merge_logs([questions[0], *optimal[1:]])
    assert infoseek_main(["merge", *map(str, optimal[:2]), "-o",
                          str(tmp_path / "m.eval")]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and err.startswith("infoseek merge: the share(s) 3/3")
    assert not (tmp_path / "m.eval").exists()
    assert infoseek_main(["merge", *map(str, optimal), "-o", str(tmp_path / "m.txt")]) == 2


def test_the_same_shards_merge_to_the_same_log(runs, tmp_path) -> None:
    _, files = runs["seek-random"]
    one = write_merged(files, tmp_path / "a.json")
    two = write_merged(list(reversed(files)), tmp_path / "b.json")
    assert one.eval.eval_id == two.eval.eval_id
    assert (tmp_path / "a.json").read_bytes() == (tmp_path / "b.json").read_bytes()


@pytest.mark.parametrize("value", ["0/3", "4/3", "a/b"])
def test_a_task_refuses_a_bad_shard_before_building(value) -> None:
    with pytest.raises(TaskParameterError) as info:
        inspect_eval("infoseek/logic_mt", task_args={"k": [1], "per_k": 1, "shard": value},
                     model="infoseek/optimal", display="none")
    assert str(info.value) == (f"-T shard must be i/n with whole numbers 1 <= i <= n (2/3: "
                               f"the second of three shares), n at most 10000; got {value!r}")


def test_more_shares_than_samples_is_refused() -> None:
    with pytest.raises(TaskParameterError, match=r"-T shard=5/5 leaves no sample: the task "
                       r"has 2 sample\(s\); split it into at most 2 shares"):
        inspect_eval("infoseek/logic_mt", task_args={"k": [1], "per_k": 1, "shard": "5/5"},
                     model="infoseek/optimal", display="none")


def test_the_command_line_takes_shard_on_a_task_file(tmp_path) -> None:
    inspect_cli = Path(sys.executable).with_name("inspect")
    done = subprocess.run(
        [str(inspect_cli), "eval", "inspect_tasks/logic_mt.py", "-T", "k=1", "-T", "per_k=1",
         "-T", "shard=2/2", "--model", "infoseek/optimal", "--log-dir", str(tmp_path)],
        cwd=ROOT, capture_output=True, text=True, timeout=300,
        env={**os.environ, "COLUMNS": "1000"})
    assert done.returncode == 0, done.stderr[-2000:]
    (log_file,) = tmp_path.glob("*.eval")
    log = read_eval_log(str(log_file))
    assert log.eval.task_args["shard"] == "2/2" and len(log.samples) == 1
