"""The paper's Common lists run offline through the attribute table (issue 31 item 3):
every one of the 400 distinct names of MT-InfoSeek's Common candidate pool takes a table
row, a short offline game over them runs without the evaluator-role refusal, and no
attribute has one label across the whole pool (each can tell some candidates apart)."""

from __future__ import annotations

import pytest
from inspect_ai import eval as inspect_eval

from infoseek.builders.twenty_questions.pools import (
    UNLISTED,
    constant_attributes,
    name_key,
    paper_pool,
)
from infoseek.inspect_tasks.twenty_questions import twenty_questions
from tests.support.common import assert_eval_success

pytestmark = pytest.mark.usefixtures("no_tokenizer")


def test_every_name_of_the_paper_common_pool_has_a_table_row():
    chosen = paper_pool("paper_common")
    assert len(chosen.candidates) == 400
    assert chosen.missing == ()
    assert [c.name for c in chosen.candidates if c.group == UNLISTED] == []
    # a species the table once held as an alias of a kin is its own row now: the paper
    # lists both (Jaguar and Leopard, Sea lion and Seal, Alligator and Crocodile)
    for one, other in (("Jaguar", "leopard"), ("Sea lion", "seal"),
                       ("Alligator", "crocodile"), ("Raven", "crow"), ("Moth", "butterfly")):
        assert chosen.candidate(one).row != chosen.candidate(other).row
        assert name_key(one) not in {name_key(a) for a in chosen.candidate(other).aliases}


def test_the_paper_common_pool_runs_offline(tmp_path):
    chosen = paper_pool("paper_common")
    [log] = inspect_eval(twenty_questions, task_args={"pool": "paper_common"},
                         model="infoseek/optimal", limit=2, log_dir=str(tmp_path / "logs"),
                         display="none")
    assert_eval_success(log)
    assert [s.target for s in log.samples] == list(chosen.targets[:2])
    assert all(s.scores["twenty_questions"].value["accuracy"] == 1.0 for s in log.samples)


def test_no_attribute_has_one_label_across_the_paper_common_pool():
    assert constant_attributes(paper_pool("paper_common")) == []
