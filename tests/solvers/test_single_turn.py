"""The single-turn protocols (protocols §3.4-3.6): ground truth against the referee, reading
of model picks, the reference models on logic and math, mockllm in the three prompt
settings, detection F1, difficulty correlations, and filtered accuracy from real logs."""

from __future__ import annotations

import itertools
import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from inspect_ai import eval
from inspect_ai.model import get_model

from infoseek.analysis import is_sufficient
from infoseek.builders.datasets import domain_records
from infoseek.cli import main as cli_main
from infoseek.contract import INVALID_REASONS
from infoseek.engines.cnf import CnfEngine
from infoseek.engines.horn import HornEngine
from infoseek.inspect_tasks.gsm_q import gsm_q, gsm_q_detection
from infoseek.inspect_tasks.gsme_q import gsme_q, gsme_q_detection, gsme_q_well_specified
from infoseek.inspect_tasks.logic_q import logic_q, logic_q_detection, logic_q_well_specified
from infoseek.inspect_tasks.task_errors import DataFileError
from infoseek.inspect_tasks.task_parameters import TaskParameterError
from infoseek.records import engine_from_record
from infoseek.scorers.filtered_accuracy import FilterError, filter_rows, filtered_accuracy
from infoseek.single_turn import (
    NO_QUESTION,
    NOT_SURE,
    backward_level,
    bfs_pick,
    constraint_graph_levels,
    difficulty_axes,
    question_options,
    search_levels,
    sufficient_options,
    well_specified_variants,
)
from infoseek.solvers.single_turn.reading import option_text, read_choice
from infoseek.solvers.single_turn.values import read_value
from infoseek.stored_forms import sample_problem
from tests.support import FIXTURES
from tests.support.backward_referee import referee_level
from tests.support.common import assert_eval_success, text_output

FIXTURE = FIXTURES / "published" / "questbench_logic_q.csv"


@pytest.fixture(autouse=True)
def _cache(tmp_path_factory, monkeypatch):
    monkeypatch.setenv("INFOSEEK_CACHE_DIR", str(tmp_path_factory.getbasetemp() / "cache"))


def _metrics(log) -> dict[str, float]:
    return {name: m.value for score in log.results.scores for name, m in score.metrics.items()}


def _run(task, model, tmp_path, **kwargs):
    log = eval(task, model=model, display="none", log_dir=str(tmp_path), **kwargs)[0]
    assert_eval_success(log)
    return log


# ------------------------------------------------------------------ ground truth


HAND_MADE = [["y", "not a"], ["a", "not y"], ["a", "not b", "not c"], ["b", "not a"],
             ["a", "not d"], ["y", "not z", "not f"], ["b", "not z"], ["z", "not b"]]
"""a <-> y; b and c -> a, a -> b; d -> a; z and f -> y; z <-> b; c is observed true."""


@pytest.mark.parametrize("engine_type", [HornEngine, CnfEngine])
def test_backward_levels_of_a_hand_made_problem(engine_type):
    names = ["y", "a", "b", "c", "d", "f", "z"]
    engine = engine_type(names, HAND_MADE, {"c": True}, "y")
    # a decides y in one expansion (a -> y; not a from y -> a), b in two, z in three
    # (z <-> b <-> a <-> y), although z shares a rule with y; d and f decide nothing
    assert search_levels(engine) == {"a": 1, "b": 2, "z": 3}
    assert constraint_graph_levels(engine)["z"] == 1
    assert backward_level(engine, "d") is None
    for name in ("a", "b", "d", "f", "z"):
        assert backward_level(engine, name) == referee_level(
            HAND_MADE, {"c": True}, "y", name, [False, True])
    options = ["d", "f", "z"]
    assert sufficient_options(engine, options) == ["z"]
    assert [bfs_pick(engine, options, ["z"], depth) for depth in (1, 2, 3, 10)] == \
        [None, None, "z", "z"]
    assert difficulty_axes(engine, ["z"])["num_deciding"] == 1
    axes = difficulty_axes(engine, ["z"], ["a", "b", "d", "y", "c"])
    assert axes == {"num_vars": 7, "num_constraints": 8, "depth": 3,
                    "e_bf": round(8 / 4, 4), "num_sufficient": 1, "num_deciding": 3}
    known = engine_type(names, HAND_MADE, {"c": True, "b": True}, "y")
    assert bfs_pick(known, options, [], 0) == NO_QUESTION
    assert difficulty_axes(known, [])["depth"] == 0


@pytest.mark.parametrize("builder", ["logic-mt", "gsme-mt"])
def test_sufficient_options_agree_with_the_referee_and_variants_are_known(builder):
    for record in domain_records(builder, ks=[1], per_k=12, seed=3):
        engine = engine_from_record(record)
        options = question_options(record)
        found = sufficient_options(engine, options)
        slow = [v for v in options if is_sufficient(engine, [v], use_fast_path=False)] \
            if builder == "logic-mt" else found
        assert found == slow
        family = {v for s in record["mss_family"] for v in s}
        assert set(found) == family & set(options)
        levels = search_levels(engine)
        depths = [bfs_pick(engine, options, found, d) for d in range(0, 14)]
        hits = [d is not None for d in depths]
        assert hits == sorted(hits), "deeper search never loses a hit"
        if builder == "logic-mt":  # propagation levels: found means sufficient
            assert all(v in found for v in levels if v in options)
        assert difficulty_axes(engine, found)["depth"] == max(
            (levels[v] for v in found if v in levels), default=None)
        if builder == "logic-mt":
            assert levels[record["mss_family"][0][0]] == record["derivation_depth"]
        for variant in well_specified_variants(record):
            restored = engine_from_record(variant)
            assert restored.is_known()
            assert sufficient_options(restored, question_options(variant)) == []
            assert variant["problem_id"] == record["id"]


# ------------------------------------------------------------------ reading picks

RECORD = {"domain": "logic", "entity": "Alice", "target": "tall"}
CHOICES = ["kind", "unkind", "brave", NO_QUESTION]


@pytest.mark.parametrize("text, pick", [
    ("Answer: 2", 1), ("answer: (2)", 1), ("Answer: Option 2", 1),
    ("Answer: [2]", 1), ("Answer: 2.", 1), ("**Answer:** 3", 2), ("Answer: Is Alice unkind?", 1),
    ("Answer: 2. Is Alice unkind?", 1), ("Answer: kind", 0),
    ("Thinking: kind, brave, unkind...\nAnswer: 4", 3), ("Answer: No questions needed.", 3),
    ("Answer: No questions needed", 3),
])
def test_tolerated_forms_parse(text, pick):
    assert read_choice(text, RECORD, CHOICES).pick == pick


@pytest.mark.parametrize("text, reason", [
    ("Answer: 1 or 2", "ambiguous"), ("Answer: Is Alice kind? Is Alice brave?", "ambiguous"),
    ("Answer: 2 (Is Alice brave?)", "ambiguous"),
    # issue 30, the answer-line rule: no answer line is no answer (these were a bare
    # pick, "ambiguous" and "malformed" before)
    ("2", "no_action"), ("(2)", "no_action"), ("No questions needed.", "no_action"),
    ("I would ask about kind or brave.", "no_action"),
    ("Answer: I would ask about kind or brave.", "ambiguous"),
    ("Answer: 9", "unknown"), ("Answer: 3 or 9", "ambiguous"), ("", "empty"),
    ("Answer: banana", "malformed"), ("\x00\ud800", "no_action"), (None, "empty"),
    ("Answer: 1,5", "ambiguous"), ("Answer: 1, 2", "ambiguous"), ("Answer: 2.5", "malformed"),
])
def test_ambiguous_and_garbage_picks_are_invalid(text, reason):
    reading = read_choice(text, RECORD, CHOICES)
    assert not reading.valid and reading.reason == reason


def test_values_and_not_sure():
    record = {**RECORD, "target_values": [False, True]}
    assert read_value("Answer: Not sure", record, allow_not_sure=True).pick == NOT_SURE
    assert read_value("Answer: yes", record, allow_not_sure=True).pick is True
    assert read_value("Answer: not sure, but yes", record,
                      allow_not_sure=True).reason == "ambiguous"
    assert not read_value("Answer: Not sure", record, allow_not_sure=False).valid
    assert option_text(record, "kind") == "Is Alice kind?"


# ------------------------------- issue 18: one answer line, one value, justifications

MATH = {"domain": "math", "entity": "", "target": "total"}


@pytest.mark.parametrize("text, reason", [
    ("Answer: 1\nAnswer: 3", "multiple_actions"),
    ("Answer: 3\nAnswer: 3", "multiple_actions"),
    ("Answer: 1\n" + "x" * 100_000 + "\nAnswer: 3", "multiple_actions"),
    ("Answer: 1\n**Final answer:** 3", "multiple_actions"),
    ("Answer: 2 (final answer: Is Alice unkind?)", "multiple_actions"),
    ("Answer: 2. Actually, the option after it.", "ambiguous"),
    ("Answer: 2; correction: the last one", "ambiguous"),
    ("Answer: 2 with 80% probability", "ambiguous"),
    ("Answer: 2, I guess", "ambiguous"),
    ("Answer: 2 is not it", "ambiguous"),
    ("Answer: 2 or not", "ambiguous"),
    ("Answer: (not 2)", "ambiguous"),
    ("Answer: 2\n" + "y" * 30_000, "too_long"),
])
def test_second_answers_and_self_corrections_are_never_a_pick(text, reason):
    reading = read_choice(text, RECORD, CHOICES)
    assert not reading.valid and reading.reason == reason


@pytest.mark.parametrize("text", [
    "Answer: 2 (its value is not given)",
    "Answer: 2 because its value is unknown",
    "Answer: 2 \u2014 it is not among the facts",
    "Answer: Is Alice unkind or not?",
    "Answer: 2. Is Alice unkind or not?",
    "Answer: 2, since rule 3 then settles it",
    "Answer: 2 (1 fact is missing)",
    "Options 1 and 3 would not settle it; not kind, not brave.\nAnswer: 2",
    "\n" * 200_000 + "Answer: 2",
    " " * 200_000 + "\nAnswer: 2",
])
def test_one_pick_with_a_justification_is_credited(text):
    assert read_choice(text, RECORD, CHOICES) == read_choice("Answer: 2", RECORD, CHOICES)
    assert read_choice(text, RECORD, CHOICES).pick == 1


@pytest.mark.parametrize("record, text, expected", [
    (RECORD, "Answer: Not sure\nAnswer: no", "multiple_actions"),
    (RECORD, "Answer: no\nAnswer: Not sure", "multiple_actions"),
    (RECORD, "Answer: no. Actually, yes.", "ambiguous"),
    (RECORD, "Answer: no. Actually, I was wrong there.", "ambiguous"),
    (RECORD, "Answer: yes (a guess)", "ambiguous"),
    (RECORD, "Answer: Not sure; Alice is tall", "ambiguous"),
    (RECORD, "Answer: Not sure, but probably no", "ambiguous"),
    (RECORD, "Answer: yes or Not sure", "ambiguous"),
    (RECORD, "Answer: Not sure whether Alice is tall", NOT_SURE),
    (RECORD, "Answer: Not sure whether Alice is tall or not", NOT_SURE),
    (RECORD, "Answer: Not sure, because 1 fact is missing", NOT_SURE),
    (RECORD, "Answer: I am not sure: no rule decides it", NOT_SURE),
    (RECORD, "Answer: no, because rule 3 needs Alice to be kind", False),
    (MATH, "Answer: Not sure, because 1 fact is missing", NOT_SURE),
    (MATH, "Answer: Not sure (the value of 1 quantity is not given)", NOT_SURE),
    (MATH, "Answer: Not sure whether y = 3", NOT_SURE),
    (MATH, "Answer: Not sure, but 42", "ambiguous"),
    (MATH, "Answer: Not sure; total is 42", "ambiguous"),
    (MATH, "Answer: 276; correction: 277", "ambiguous"),
    (MATH, "Answer: 276\n" + "z" * 100_000 + "\nAnswer: 277", "multiple_actions"),
    (MATH, "Answer: 43, since 40 + 3 = 43", 43),
    (MATH, "Answer: 43, because 2 facts settle it", 43),
])
def test_values_and_explained_not_sure(record, text, expected):
    record = {**record, "target_values": [False, True]} if record is RECORD else record
    reading = read_value(text, record, allow_not_sure=True)
    if expected in ("multiple_actions", "ambiguous"):
        assert not reading.valid and reading.reason == expected, reading
    else:
        assert reading.valid and reading.pick == expected, reading


_PIECES = ["Answer:", "Final answer:", "\n", " ", "2", "3", "99", "Not sure", "not",
           "or", "actually", "yes", "no", "Alice is tall", "kind", "Is Alice unkind?",
           "(", ")", ";", ",", ".", "-", "because", "whether", "rule 3", "1 fact", "80%",
           "=", "43", "40 + 3", "\u2212", "\ud800", "**", "No questions needed"]


@settings(max_examples=300, deadline=None)
@given(st.lists(st.sampled_from(_PIECES), max_size=30))
def test_no_text_makes_a_reader_raise_and_every_refusal_has_a_reason(pieces):
    text = "".join(pieces)
    record = {**RECORD, "target_values": [False, True]}
    for reading in (read_choice(text, RECORD, CHOICES),
                    read_value(text, record, allow_not_sure=True),
                    read_value(text, MATH, allow_not_sure=False)):
        assert reading.valid or reading.reason in INVALID_REASONS
        assert reading.valid == (reading.reason is None)
    if len(re.findall(r"(?im)^[ \t*]*(?:final )?answer:", text)) > 1:
        assert read_choice(text, RECORD, CHOICES).reason == "multiple_actions"


# ------------------------------------------------------------- reference models


def test_reference_models_on_logic(tmp_path):
    correct = {}
    for model in ("optimal", "bfs-3", "bfs-5", "bfs-10", "random"):
        log = _run(logic_q(per_k=30), f"infoseek/{model}", tmp_path)
        correct[model] = _metrics(log)["correct"]
        depths = [s.metadata["depth"] for s in log.samples]
        assert depths == [sample_problem(s.metadata)["derivation_depth"] for s in log.samples]
    assert correct["optimal"] == 1.0
    assert _metrics(_run(logic_q(per_k=5), "infoseek/reversed", tmp_path))["correct"] == 1.0
    # backward search finds the one askable deciding attribute iff it lies within depth
    assert correct["bfs-3"] < correct["bfs-5"] < correct["bfs-10"]
    assert correct["bfs-10"] >= 0.95
    hits = sum(d <= 3 for d in depths) / len(depths)
    assert hits <= correct["bfs-3"] <= hits + 0.25  # plus the lucky guesses
    assert correct["random"] < 0.5
    log = _run(logic_q(per_k=20, mix_well_specified=True), "infoseek/optimal", tmp_path)
    assert _metrics(log)["correct"] == 1.0
    assert {s.metadata["variant"] for s in log.samples} == {"underspecified",
                                                            "well_specified"}


def test_detection_reports_precision_recall_f1_and_baseline(tmp_path):
    log = _run(logic_q_detection(per_k=10), "infoseek/optimal", tmp_path)
    metrics = _metrics(log)
    assert metrics["correct"] == 1.0
    assert metrics["precision"] == metrics["recall"] == metrics["f1"] == 1.0
    under = sum(s.metadata["variant"] == "underspecified" for s in log.samples)
    assert metrics["random_f1"] == pytest.approx(under / len(log.samples))
    log = _run(logic_q_detection(per_k=10), "infoseek/random", tmp_path)
    metrics = _metrics(log)
    assert 0.0 <= metrics["f1"] <= 1.0 and "rho_e_bf" in metrics and "p_e_bf" in metrics
    for sample in log.samples:
        for axis in ("num_vars", "num_constraints", "depth", "e_bf"):
            assert isinstance(sample.metadata[axis], int | float)


def test_reference_models_on_math(tmp_path):
    for task in (gsme_q(per_k=8), gsm_q(per_k=8), gsme_q_detection(per_k=8),
                 gsme_q_well_specified(per_k=8)):
        log = _run(task, "infoseek/optimal", tmp_path)
        assert _metrics(log)["correct"] == 1.0, task.name
    log = _run(gsme_q(per_k=8), "infoseek/bfs-10", tmp_path)
    assert _metrics(log)["correct"] == 1.0


def test_released_questbench_logic_runs_with_source(tmp_path):
    log = _run(logic_q(source=str(FIXTURE)), "infoseek/optimal", tmp_path)
    assert _metrics(log)["correct"] == 1.0
    assert len(log.samples) == 5


def test_bad_parameters_fail_fast():
    with pytest.raises(TaskParameterError):
        logic_q(prompt="five-shot")
    with pytest.raises(TaskParameterError):
        logic_q(mix_well_specified="maybe")


def test_a_record_that_is_not_one_sufficient_is_a_one_line_error(tmp_path):
    from infoseek.jsonl import write_jsonl

    path = tmp_path / "k2.jsonl"
    write_jsonl(domain_records("logic-mt", ks=[2], per_k=1, seed=0), path)
    with pytest.raises(DataFileError, match=r"no problems with k in \[0, 1\]"):
        logic_q(source=str(path))


# ------------------------------------------------------- mockllm, three settings


def _forms(record, choices, correct):
    """Replies to a question-selection sample -> (correct, invalid): every tolerated form
    of the right pick, a wrong pick, ambiguous picks and garbage."""
    good = choices.index(correct[0]) + 1
    bad = next(i for i, c in enumerate(choices, start=1)
               if c not in correct and c != NO_QUESTION)
    question = option_text(record, correct[0])
    other = option_text(record, choices[bad - 1])
    right, wrong, invalid = (1.0, 0.0), (0.0, 0.0), (0.0, 1.0)
    return {
        # issue 30, the answer-line rule: a bare pick holds no answer line (every protocol)
        f"{good}": invalid, f"({good})": invalid, f"[{good}]": invalid,
        f"Option {good}": invalid,
        f"Answer: {good}": right, f"Answer: {good}.": right, f"**Answer:** {good}": right,
        f"Final answer: ({good})": right, f"Answer: {question}": right,
        f"Answer: {good}. {question}": right, f"Answer: {correct[0]}": right,
        f"Step by step: {other} would not settle it.\nAnswer: ({good})": right,
        f"Answer: {bad}": wrong, f"Answer: {other}": wrong,
        f"Answer: {len(choices)}": wrong,  # "No questions needed" on an open problem
        f"Answer: {good} or {bad}": invalid, f"Answer: {good}, {bad}": invalid,
        f"Answer: {question} {other}": invalid, f"Answer: {good} ({other})": invalid,
        f"Answer: {len(choices) + 1}": invalid, "Answer: 999": invalid,
        "Answer: 2.5": invalid, "lorem ipsum": invalid, "": invalid,
        "\x00\ufffd garbage": invalid,
    }


SETTINGS_BY_TASK = [(task, setting) for task in (logic_q, gsme_q, gsm_q)
                    for setting in ("zs", "cot", "fs")]


@pytest.mark.parametrize("task_function, setting", SETTINGS_BY_TASK,
                         ids=[f"{t.__name__}-{s}" for t, s in SETTINGS_BY_TASK])
def test_mockllm_in_every_prompt_setting(task_function, setting, tmp_path):
    task = task_function(per_k=1, seed=5, prompt=setting)
    meta = task.dataset[0].metadata
    forms = _forms(sample_problem(meta), meta["choices"], meta["correct"])
    assert len(meta["correct"]) == 1
    outputs = [text_output(text) for text in forms]
    model = get_model("mockllm/model", custom_outputs=outputs)
    log = _run(task, model, tmp_path, epochs=len(forms), max_samples=1)
    assert len(log.samples) == len(forms)
    for sample in log.samples:
        value = next(iter(sample.scores.values())).value
        assert (value["correct"], value["invalid"]) == forms[sample.output.completion], \
            sample.output.completion
        prompt = sample.messages[0].text
        assert prompt.count("Example ") == (4 if setting == "fs" else 0)
        assert ("step by step" in prompt) == (setting == "cot")
        if setting == "fs":
            problem = task.dataset[0].input
            assert prompt.count(str(problem)) == 1  # the examples are other problems


@pytest.mark.parametrize("task_function, setting, value", [
    (logic_q_detection, "zs", "yes"), (gsme_q_detection, "cot", "42"),
    (gsm_q_detection, "fs", "42")])
def test_mockllm_detection_never_credits_garbage(task_function, setting, value, tmp_path):
    task = task_function(per_k=1, seed=5, prompt=setting)
    garbage = ("???", "Answer: maybe", f"Answer: not sure, but {value}", "")
    forms = ["Answer: Not sure", *garbage]
    outputs = [text_output(t) for t in forms for _ in range(len(task.dataset))]
    model = get_model("mockllm/model", custom_outputs=outputs)
    log = _run(task, model, tmp_path, epochs=len(forms), max_samples=1)
    assert {s.output.completion for s in log.samples} == set(forms)
    for sample in log.samples:
        score = next(iter(sample.scores.values())).value
        text = sample.output.completion
        under = sample.metadata["variant"] == "underspecified"
        if text == "Answer: Not sure":
            assert score["said_not_sure"] == 1.0 and score["correct"] == float(under)
        else:
            assert score["said_not_sure"] == 0.0
            assert score["invalid"] == 1.0 and score["correct"] == 0.0


# ------------------------------------------------------------ filtered accuracy


def test_filter_rows_lenient_and_strict():
    questions = [("p1", "underspecified", 1.0), ("p2", "underspecified", 0.0),
                 ("p3", "underspecified", 1.0), ("p1", "well_specified", 1.0)]
    solving = [("p1", "well_specified", 1.0), ("p1", "well_specified", 0.0),
               ("p2", "well_specified", 1.0), ("p2", "well_specified", 1.0)]
    result = filter_rows(questions, solving)
    assert result["unfiltered"] == {"accuracy": 2 / 3, "kept": 3, "total": 3}
    assert result["lenient"] == {"accuracy": 0.5, "kept": 2, "total": 3}
    assert result["strict"] == {"accuracy": 0.0, "kept": 1, "total": 3}
    assert result["unmatched"] == 1


def test_filter_two_real_logs(tmp_path, capsys):
    qs = _run(logic_q(per_k=12), "infoseek/bfs-3", tmp_path / "qs")
    ws = _run(logic_q_well_specified(per_k=12), "infoseek/random", tmp_path / "ws")
    result = filtered_accuracy(qs.location, ws.location)
    solved = {}
    for sample in ws.samples:
        solved.setdefault(sample.metadata["problem_id"], []).append(
            next(iter(sample.scores.values())).value["correct"])
    assert result["lenient"]["kept"] == sum(1 for v in solved.values() if any(v))
    assert result["strict"]["kept"] == sum(1 for v in solved.values() if all(v))
    assert result["unfiltered"]["total"] == 12 and result["unmatched"] == 0
    assert cli_main(["filter", qs.location, ws.location]) == 0
    out = capsys.readouterr().out
    assert f"lenient: accuracy={result['lenient']['accuracy']:.4f}" in out
    with pytest.raises(FilterError, match="question_selection"):
        filtered_accuracy(ws.location, qs.location)
    assert cli_main(["filter", str(tmp_path / "missing.eval"), ws.location]) == 2


def test_same_seed_same_samples():
    first = [(s.id, s.input) for s in logic_q(per_k=5, prompt="fs").dataset]
    second = [(s.id, s.input) for s in logic_q(per_k=5, prompt="fs").dataset]
    assert first == second
    assert len(set(itertools.chain(first))) == len(first)
