"""Fuzz test of the offered "cannot be determined" form (issue 34) through the real seek
loop: every kind of `tests.support.fuzz_undetermined_catalogue` (the form in its allowed
forms, hedges, second values, self-corrections, wordings that are not the form) played by
the scripted model on `logic_mt`, on a task that offers the form:

- ``-T unanswerable=0.25``: on an unanswerable sample (the form is right) and on an
  ordinary one (yes is right; the form is wrong);
- ``-T oracle=withholding_all``: every sample's right answer is the form.

One `inspect_ai.eval` per (setting, side, format); each kind is one sample cloned from
one k = 1 sample. Checked as the main fuzz test checks (`check_play`: no error, nothing
leaked, garbage refused with one of its reasons and never credited, wrong never credited,
valid credited), and on the unanswerable mix the `undetermined` scorer's
``said_undetermined`` agrees: 1 exactly where the form was read.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from inspect_ai import Task
from inspect_ai.dataset import Sample

from infoseek.contract import UNDETERMINED
from infoseek.inspect_tasks.logic_mt import logic_mt
from infoseek.record_views import askable_variables
from infoseek.stored_forms import sample_problem
from tests.fuzz.test_fuzz_outputs import Run, check_play, fuzz_problem, play_kinds
from tests.support.common import forbid_tokenizer
from tests.support.fuzz import FORMATS, VALID, FuzzProblem
from tests.support.fuzz_undetermined_catalogue import (
    ORDINARY,
    UNANSWERABLE,
    UNDETERMINED_CATALOGUE,
    undetermined_kinds,
)

MAX_TURNS = 2
SETTINGS: dict[str, Callable[[str], Task]] = {
    "unanswerable": lambda fmt: logic_mt(k=[1], per_k=8, unanswerable=0.25, format=fmt,
                                         max_turns=MAX_TURNS),
    "withholding_all": lambda fmt: logic_mt(k=[1], per_k=2, oracle="withholding_all",
                                            forbid_alternatives=False, format=fmt,
                                            max_turns=MAX_TURNS),
}
RUNS = [("unanswerable", UNANSWERABLE), ("unanswerable", ORDINARY),
        ("withholding_all", UNANSWERABLE)]


def _undetermined_problem(fmt: str, metadata: dict[str, Any]) -> FuzzProblem:
    """The kinds' view of a sample whose right answer is the form."""
    record = sample_problem(metadata)
    askable = askable_variables(record, bool(metadata.get("forbid_alternatives", True)))
    refused = sorted(record.get("forbidden") or [])
    return FuzzProblem(
        task="logic_mt", fmt=fmt, entity=record.get("entity", "Alice"),
        target=record["target"], answer_kind="boolean", truth=UNDETERMINED, mss=(),
        spare=askable[0], refused=refused[0] if refused else "", refused_reason="forbidden",
        observed=sorted(record["observed"])[0] if record["observed"] else "",
        askable=tuple(askable))


def _base(built: Task, setting: str, side: str, fmt: str) -> tuple[Sample, FuzzProblem]:
    """The first sample of `side` that suits the kinds, and the kinds' view of it."""
    for sample in built.dataset:
        undetermined = setting == "withholding_all" or str(sample.id).endswith("-unanswerable")
        if side == UNANSWERABLE and undetermined:
            return sample, _undetermined_problem(fmt, sample.metadata)
        if side == ORDINARY and not undetermined:
            problem = fuzz_problem("logic_mt", fmt, sample.metadata)
            if problem is not None:
                return sample, problem
    raise AssertionError(f"no {side} sample of {setting} suits the kinds")


def _run(setting: str, side: str, fmt: str, log_dir: str) -> Run:
    built = SETTINGS[setting](fmt)
    base, problem = _base(built, setting, side, fmt)
    kinds = [k.kind for k in undetermined_kinds(fmt, side)]
    return play_kinds(built, f"logic_mt_{setting}_{side}", fmt, base, problem, kinds,
                      log_dir)


@pytest.fixture(scope="module")
def runs(tmp_path_factory: pytest.TempPathFactory):
    """Runs each (setting, side, format) eval once, on first use."""
    log_dir = str(tmp_path_factory.mktemp("fuzz-undetermined-logs"))
    done: dict[tuple[str, str, str], Run] = {}

    def get(setting: str, side: str, fmt: str) -> Run:
        if (setting, side, fmt) not in done:
            with forbid_tokenizer():
                done[(setting, side, fmt)] = _run(setting, side, fmt, log_dir)
        return done[(setting, side, fmt)]

    return get


def _params() -> list[Any]:
    params = []
    for setting, side in RUNS:
        for fmt in FORMATS:
            for kind in undetermined_kinds(fmt, side):
                marks = ([pytest.mark.xfail(strict=True, reason=kind.xfail)] if kind.xfail
                         else [])
                params.append(pytest.param(setting, side, fmt, kind.kind.name, marks=marks,
                                           id=f"{setting}-{side}-{fmt}-{kind.kind.name}"))
    return params


def test_the_catalogue_covers_both_sides_and_formats() -> None:
    names = [k.kind.name for k in UNDETERMINED_CATALOGUE]
    assert len(names) == len(set(names)) and len(names) >= 25
    for fmt in FORMATS:
        for side in (UNANSWERABLE, ORDINARY):
            expects = {k.kind.expect for k in undetermined_kinds(fmt, side)}
            assert "garbage" in expects and len(undetermined_kinds(fmt, side)) >= 10


@pytest.mark.parametrize(("setting", "side", "fmt", "name"), _params())
def test_model_output(runs, setting: str, side: str, fmt: str, name: str) -> None:
    run = runs(setting, side, fmt)
    play = run.plays[name]
    check_play(run, play)
    if setting != "unanswerable":
        return
    said = run.samples[name].scores["undetermined"].value["said_undetermined"]
    read_as_the_form = play.kind.expect == VALID or name == "und_on_an_ordinary_sample"
    assert said == (1.0 if read_as_the_form else 0.0), said
