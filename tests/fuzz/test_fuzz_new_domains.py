"""Fuzz test of the ``choice`` answer kind through the real seek loop (`genereg_mt`:
attractor ids; `clinguide_mt`: guideline recommendations).

The same machinery as `tests.fuzz.test_fuzz_outputs`: every kind of `tests.support.fuzz_catalogue`
that applies to the ``choice`` answer kind and the format (the generic junk, hostile
and malformed turns and tool calls, plus the choice kinds: hedges such as ``S1 or S2``
and ``probably S1``, every option at once, the echoed ``Answer: <...>`` template line,
an unlisted choice, the other option, and the valid forms that differ from the label
in case, markdown, quotes, punctuation or spacing) is one sample cloned from one k = 1
problem, played by the scripted model, one eval per (task, format) with two turns.

Checked exactly as there (`check_play`): eval success and read-back, no sample error,
the hidden option never stated by the loop unless earned, garbage and hedges invalid
with a reason and accuracy exactly 0 (or credited after a clean recovery), the other
option never credited, valid forms credited.
"""

from __future__ import annotations

from typing import Any

import pytest

from infoseek.inspect_tasks.clinguide_mt import clinguide_mt
from infoseek.inspect_tasks.genereg_mt import genereg_mt
from infoseek.record_views import askable_variables
from infoseek.stored_forms import sample_problem
from tests.fuzz.test_fuzz_outputs import Run, check_play, play_kinds
from tests.support.common import forbid_tokenizer
from tests.support.fuzz import (
    FORMATS,
    GARBAGE,
    VALID,
    FuzzProblem,
)
from tests.support.fuzz_catalogue import kinds_for

MAX_TURNS = 2
ANSWER_KIND = "choice"
TASKS = {
    # forbid_alternatives: a gene found only in another MSS is a refused question
    "genereg_mt": lambda fmt: genereg_mt(k=[1], per_k=4, target="attractor", format=fmt,
                                         max_turns=MAX_TURNS, forbid_alternatives=True),
    # marker targets: the options are 0 and 1, the same words as every gene's value
    "genereg_mt_marker": lambda fmt: genereg_mt(k=[1], per_k=4, target="marker",
                                                format=fmt, max_turns=MAX_TURNS,
                                                forbid_alternatives=True),
    "clinguide_mt": lambda fmt: clinguide_mt(k=[1], per_k=2, format=fmt, max_turns=MAX_TURNS),
}
RUNS = [(task, fmt) for task in TASKS for fmt in FORMATS]
# kinds that need a variable the oracle refuses, for problems that have none
NEEDS_REFUSED = {"ask_refused_variable"}
# tasks whose problems have no refused variable (every other task must offer one)
NO_REFUSED = {"clinguide_mt", "genereg_mt_marker"}


def _fuzz_problem(task: str, fmt: str, metadata: dict[str, Any]) -> FuzzProblem | None:
    record = sample_problem(metadata)
    truth = metadata.get("target_value")
    truth = str(truth) if isinstance(truth, int) and not isinstance(truth, bool) else truth
    forbid = bool(metadata.get("forbid_alternatives", False))
    askable = askable_variables(record, forbid)
    in_mss = {name for member in record["mss_family"] for name in member}
    spare = [name for name in askable if name not in in_mss]
    options = tuple(str(v) for v in record.get("target_values") or [])
    refused = list(record.get("alternative_only") or []) if forbid else []
    if (record["k"] != 1 or not record["observed"] or not spare or len(options) < 2
            or not isinstance(truth, str) or truth not in options):
        return None
    return FuzzProblem(
        task=task, fmt=fmt, entity=record.get("entity", "the patient"),
        target=record["target"], answer_kind=ANSWER_KIND, truth=truth,
        mss=tuple(record["mss_family"][0]), spare=spare[0],
        refused=refused[0] if refused else "", refused_reason="forbidden",
        observed=sorted(record["observed"])[0], askable=tuple(askable), options=options)


def _kinds(fmt: str, problem: FuzzProblem) -> list:
    return [kind for kind in kinds_for(fmt, ANSWER_KIND)
            if problem.refused or kind.name not in NEEDS_REFUSED]


def _run(task: str, fmt: str, log_dir: str) -> Run:
    built = TASKS[task](fmt)
    suitable = [(sample, problem) for sample in built.dataset
                if (problem := _fuzz_problem(task, fmt, sample.metadata)) is not None]
    assert suitable, f"no sample of {task} suits the fuzz kinds"
    # a problem with a refused variable, where there is one, so every kind is played
    base, problem = next((pair for pair in suitable if pair[1].refused), suitable[0])
    return play_kinds(built, task, fmt, base, problem, _kinds(fmt, problem), log_dir)


@pytest.fixture(scope="module")
def runs(tmp_path_factory: pytest.TempPathFactory):
    """Runs each (task, format) eval once, on first use (datasets built in a tmp cache)."""
    log_dir = str(tmp_path_factory.mktemp("fuzz-choice-logs"))
    cache = str(tmp_path_factory.mktemp("fuzz-choice-cache"))
    done: dict[tuple[str, str], Run] = {}

    def get(task: str, fmt: str) -> Run:
        if (task, fmt) not in done:
            with pytest.MonkeyPatch.context() as patch, forbid_tokenizer():
                patch.setenv("INFOSEEK_CACHE_DIR", cache)
                done[(task, fmt)] = _run(task, fmt, log_dir)
        return done[(task, fmt)]

    return get


def _play_params() -> list[Any]:
    params = []
    for task, fmt in RUNS:
        for kind in kinds_for(fmt, ANSWER_KIND):
            modes = ["persist", "recover"] if kind.expect == GARBAGE and kind.recover else [
                "valid" if kind.expect == VALID else "persist"]
            for mode in modes:
                name = f"{kind.name}~recover" if mode == "recover" else kind.name
                params.append(pytest.param(task, fmt, name, id=f"{task}-{fmt}-{name}"))
    return params


def test_choice_kinds_cover_the_checklist() -> None:
    """Hedges, an echoed template, injection, a wrong option and valid label variants are
    all in the catalogue for the choice kind, in both formats."""
    for fmt in FORMATS:
        names = {kind.name for kind in kinds_for(fmt, ANSWER_KIND)}
        assert {"choice_or_other", "choice_probably", "choice_two_listed", "choice_injection",
                "wrong_clean_answer", "choice_lowercase", "choice_markdown_quoted",
                "choice_trailing_period", "empty", "huge_text_1mb"} <= names, fmt
    assert "choice_template_echo" in {k.name for k in kinds_for("text", ANSWER_KIND)}
    assert "tool_broken_json" in {k.name for k in kinds_for("tool", ANSWER_KIND)}


@pytest.mark.parametrize(("task", "fmt"), RUNS)
def test_eval_succeeds_and_reads_back(runs, task: str, fmt: str) -> None:
    run = runs(task, fmt)
    assert run.log.status == "success", run.log.error
    assert run.read_error is None, f"the log cannot be read back: {run.read_error}"
    assert set(run.samples) == set(run.plays)
    assert not [name for name, s in run.samples.items() if s.error is not None]


@pytest.mark.parametrize(("task", "fmt", "name"), _play_params())
def test_model_output(runs, task: str, fmt: str, name: str) -> None:
    run = runs(task, fmt)
    if name.split("~")[0] in NEEDS_REFUSED and task in NO_REFUSED:
        pytest.skip(f"{task} has no refused variable")
    check_play(run, run.plays[name])


def test_the_choice_leak_check_sees_a_stated_option() -> None:
    """The choice leak check is not vacuous: a message naming the hidden option alone
    leaks; one naming every option, or only the model's own words, does not."""
    from tests.fuzz.test_fuzz_outputs import leaks

    p = FuzzProblem(task="t", fmt="text", entity="the cell", target="attractor",
                    answer_kind=ANSWER_KIND, truth="S1", mss=("G2",), spare="G3",
                    refused="", refused_reason="forbidden", observed="I1",
                    askable=("G2", "G3"), options=("S1", "S2"))
    assert leaks(p, ["The cell is in S1."], []) == ["The cell is in S1."]
    assert leaks(p, ["attractor = s1"], [])
    assert not leaks(p, ["Answer with one of: S1, S2."], [])
    assert not leaks(p, ["The cell is in S2."], [])
    assert not leaks(p, ["S10 is not an option"], [])
    assert not leaks(p, ["You wrote: probably S1"], ["probably S1"])
