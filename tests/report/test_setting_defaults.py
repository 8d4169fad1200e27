"""A task argument at the default its task declares is no setting (`log_entry`): read
from the task's signature, for every argument, not a list kept by hand."""

from __future__ import annotations

from pathlib import Path

import pandas as pd

from infoseek.inspect_tasks.report.declarations import SEEK_REPORT
from infoseek.inspect_tasks.report.log_entry import (
    at_default,
    declared_defaults,
    eval_entry,
    stated_settings,
)


def _entry(**args) -> dict:
    row = pd.Series({"task_name": "infoseek/logic_mt", "model": "m/x", "status": "success",
                     "task_version": "4-A/logic-mt@1.1.0", "model_roles": None,
                     "metadata": None, **{f"task_arg_{k}": v for k, v in args.items()}})
    return eval_entry("L1", Path("a.eval"), row, SEEK_REPORT, "infoseek/logic_mt")


def test_defaults_come_from_the_signature() -> None:
    defaults = declared_defaults("infoseek/logic_mt")
    assert defaults["unanswerable"] == 0.0 and defaults["seed"] == 0
    assert defaults["queries_per_turn"] == 1 and "k" in defaults
    assert declared_defaults("logic_mt") == defaults  # a bare name is infoseek's
    assert declared_defaults("nobody/nothing") == {}


def test_an_argument_at_its_default_reads_as_no_setting() -> None:
    default = _entry(unanswerable=0.0, seed=0, queries_per_turn=1.0, per_k=2.0)
    assert default["setting.unanswerable"] is None  # what SETTINGS_OFF named by hand
    assert default["setting.seed"] is None  # a second argument, by the same rule
    assert default["setting.queries_per_turn"] is None  # 1.0 recorded for the default 1
    assert default["setting.per_k"] == 2.0  # not its default (200): a setting
    other = _entry(unanswerable=0.25, seed=3, queries_per_turn=2.0)
    assert (other["setting.unanswerable"], other["setting.seed"],
            other["setting.queries_per_turn"]) == (0.25, 3, 2.0)


def test_settings_the_page_states_keep_their_default() -> None:
    assert {"oracle", "split", "budget", "book"} <= stated_settings()
    entry = _entry(oracle="adversarial", split="default", budget=False)
    assert (entry["setting.oracle"], entry["setting.split"], entry["setting.budget"]) == (
        "adversarial", "default", False)


def test_at_default_compares_as_data() -> None:
    assert at_default("[1, 2]", [1, 2]) and at_default(2.0, 2) and at_default(None, None)
    assert not at_default(0, False) and not at_default(False, 0)
    assert at_default("0", 0)  # a number recorded as text reads as the number
    assert not at_default("x", None) and not at_default(1, None) and not at_default("x", 0)
    assert at_default(True, True) and not at_default(1.5, 1)
