"""Inspect conventions of the tasks (issue 32, item 7): tags on every task, the bare task
name, and `--epochs` on one small task of each protocol."""

from __future__ import annotations

import pytest
from inspect_ai import eval as inspect_eval

from infoseek.inspect_tasks._registry import PACKAGED_TASKS
from infoseek.inspect_tasks.task_tags import DOMAINS, SINGLE_TURN
from tests.tasks.tiny_runs import tiny_task

ONE_PER_PROTOCOL = {"seek": "logic_mt", "full_information": "gsm_mt_full",
                    "k_prediction": "logic_k_prediction", "mss": "logic_mss",
                    "question_selection": "logic_q", "detection": "logic_q_detection",
                    "well_specified": "logic_q_well_specified",
                    "incomplete": "incomplete_questions", "twenty_questions": "twenty_questions"}


@pytest.mark.parametrize("name", sorted(PACKAGED_TASKS))
def test_every_task_is_tagged_with_its_domain_protocol_and_turns(name: str) -> None:
    made = tiny_task(name)
    protocol = made.metadata["report"]
    turns = "single-turn" if protocol in SINGLE_TURN else "multi-turn"
    assert made.tags[0] in DOMAINS
    assert made.tags == list(dict.fromkeys([made.tags[0], protocol, turns]))
    assert made.name == name  # the bare name, by file or by registry name alike


def test_one_task_per_protocol_is_listed() -> None:
    protocols = {tiny_task(name).metadata["report"] for name in ONE_PER_PROTOCOL.values()}
    assert protocols == set(ONE_PER_PROTOCOL)
    every = {tiny_task(name).metadata["report"] for name in PACKAGED_TASKS}
    assert every == set(ONE_PER_PROTOCOL)


def run_epochs(names: list[str], tmp_path) -> None:
    logs = inspect_eval([tiny_task(name) for name in names], model="infoseek/random",
                        epochs=2, limit=1, display="none", log_dir=str(tmp_path))
    for name, log in zip(names, logs, strict=True):
        assert log.status == "success", (name, log.error)
        assert log.eval.config.epochs == 2
        assert [sample.epoch for sample in log.samples] == [1, 2], name
        # the first scorer is the headline one; a scorer whose values do not apply to
        # any sample (queries in a full-information run) has no metrics
        assert log.results.scores[0].metrics, name


def test_epochs_run_a_multi_turn_and_a_single_turn_task(tmp_path) -> None:
    run_epochs(["logic_mt", "logic_q"], tmp_path)


@pytest.mark.slow
def test_epochs_run_one_task_of_every_protocol(tmp_path) -> None:
    run_epochs(sorted(ONE_PER_PROTOCOL.values()), tmp_path)
