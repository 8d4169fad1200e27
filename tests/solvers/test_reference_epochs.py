"""The seeded random reference under ``--epochs``: each repeat of a sample is a fresh
draw (the stored options carry ``epoch`` from the second repeat on), and the first repeat
is the same episode as a run without epochs, so earlier logs stay comparable."""

from __future__ import annotations

import json

from inspect_ai import eval as inspect_eval

from infoseek.contract import STORE_OPTIONS, STORE_TURNS
from infoseek.inspect_tasks.logic_mt import logic_mt


def _episodes(log) -> dict[tuple[str, int], tuple[str, object]]:
    return {(s.id, s.epoch): (json.dumps(s.store[STORE_TURNS], sort_keys=True),
                              s.store[STORE_OPTIONS].get("epoch"))
            for s in log.samples}


def test_random_reference_repeats_differ_and_the_first_is_unchanged(tmp_path) -> None:
    task = logic_mt(k=[2], per_k=4)
    once, = inspect_eval(task, model="infoseek/random", log_dir=str(tmp_path / "a"),
                         display="none")
    thrice, = inspect_eval(logic_mt(k=[2], per_k=4), model="infoseek/random", epochs=3,
                           log_dir=str(tmp_path / "b"), display="none")
    single, repeated = _episodes(once), _episodes(thrice)
    ids = sorted({sample_id for sample_id, _ in single})
    assert all(single[(i, 1)] == repeated[(i, 1)] for i in ids)  # epoch 1: as before
    assert all(repeated[(i, 1)][1] is None for i in ids)
    assert all(repeated[(i, e)][1] == e for i in ids for e in (2, 3))
    differing = [i for i in ids if len({repeated[(i, e)][0] for e in (1, 2, 3)}) > 1]
    assert len(differing) >= len(ids) // 2, (len(differing), len(ids))


def test_optimal_reference_scores_one_in_every_repeat(tmp_path) -> None:
    log, = inspect_eval(logic_mt(k=[2], per_k=2), model="infoseek/optimal", epochs=2,
                        log_dir=str(tmp_path), display="none")
    assert {s.scores["sufficiency"].value["final_sufficiency"] for s in log.samples} == {1}
