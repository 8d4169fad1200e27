"""End-to-end tests of the Inspect scorers: a real offline ``inspect_ai.eval`` on tiny
in-test tasks with ``mockllm/model``, checking metric names and values in the log."""

from __future__ import annotations

import math

import pytest
from inspect_ai import Task, eval
from inspect_ai.dataset import Sample
from inspect_ai.log import EvalLog, read_eval_log
from inspect_ai.model import ModelOutput, get_model
from inspect_ai.solver import Generate, TaskState, solver

from infoseek.scorers.group_metric import log_metrics
from infoseek.scorers.problem_level import k_prediction_scorer, mss_identification_scorer
from infoseek.scorers.seek import seek_scorers, seek_values
from infoseek.stored_forms import sample_problem
from tests.support.common import text_output

BOTH = [False, True]


def mock_model(replies: dict[str, str] | None = None):
    """``mockllm/model`` answering each sample by its input text (order-independent)."""
    replies = replies or {}

    def respond(messages, tools, tool_choice, config) -> ModelOutput:
        prompt = messages[-1].text
        return text_output(replies.get(prompt, "Done."))

    return get_model("mockllm/model", custom_outputs=respond)


def run(task: Task, model, tmp_path) -> EvalLog:
    [log] = eval(task, model=model, display="none", log_dir=str(tmp_path))
    assert log.status == "success", log.error
    return log


def metric_values(log: EvalLog) -> dict[str, float]:
    assert log.results is not None
    assert len(log.results.scores) == 1
    return {name: m.value for name, m in log.results.scores[0].metrics.items()}


# ---------------------------------------------------------------------------
# seek protocol


def _query(variable, valid=True, reason=None):
    return {
        "raw": variable,
        "variable": variable,
        "valid": valid,
        "reason": reason,
        "value": True if valid else None,
        "reply": "...",
    }


def _turn(number, action, queries=(), possible=BOTH, answer=None):
    return {
        "turn": number,
        "action": action,
        "queries": list(queries),
        "answer": answer,
        "answer_raw": None if answer is None else f"Answer: {answer}",
        "possible_target_values": list(possible),
        "known": len(possible) == 1,
    }


PROBLEM_K1 = {
    "id": "p1",
    "target_values": BOTH,
    "queryable": ["a", "b"],
    "k": 1,
    "mss_family": [["a"]],
}
PROBLEM_K2 = {
    "id": "p2",
    "target_values": BOTH,
    "queryable": ["a", "b", "c", "d"],
    "k": 2,
    "mss_family": [["a", "b"]],
}

SEEK_SAMPLES = [
    # k=1: one right question, right answer
    Sample(
        id="s1",
        input="s1",
        target="true",
        metadata={
            "k": 1,
            "target_value": True,
            "problem": PROBLEM_K1,
            "store_problem": True,
            "fixture_turns": [
                _turn(1, "ask", [_query("a")], possible=[True]),
                _turn(2, "answer", possible=[True], answer=True),
            ],
        },
    ),
    # k=2: the canonical MSS, sufficient after turn 2, right answer
    Sample(
        id="s2",
        input="s2",
        target="false",
        metadata={
            "k": 2,
            "target_value": False,
            "problem": PROBLEM_K2,
            "store_problem": True,
            "fixture_turns": [
                _turn(1, "ask", [_query("a")]),
                _turn(2, "ask", [_query("b")], possible=[False]),
                _turn(3, "answer", possible=[False], answer=False),
            ],
        },
    ),
    # k=2: an unknown name, a distractor, then a wrong guess; problem only in metadata
    Sample(
        id="s3",
        input="s3",
        target="true",
        metadata={
            "k": 2,
            "target_value": True,
            "problem": PROBLEM_K2,
            "store_problem": False,
            "fixture_turns": [
                _turn(1, "invalid", [_query("zzz", valid=False, reason="unknown")]),
                _turn(2, "ask", [_query("d")]),
                _turn(3, "answer", answer=False),
            ],
        },
    ),
]


@solver
def replay_turns():
    """Writes the sample's hand-made turn records to the store, as the seek loop would."""

    async def solve(state: TaskState, generate: Generate) -> TaskState:
        state = await generate(state)
        if state.metadata["store_problem"]:
            state.store.set("infoseek:problem", sample_problem(state.metadata))
        state.store.set("infoseek:initial_possible", list(BOTH))
        state.store.set("infoseek:turns", state.metadata["fixture_turns"])
        write_options(state)
        return state

    return solve


def write_options(state: TaskState) -> None:
    """The options a solver stores, where scorers read them (forbidding alternatives
    unless the sample's metadata says otherwise)."""
    state.store.set("infoseek:options", {
        "forbid_alternatives": state.metadata.get("forbid_alternatives", True)})


@solver
def answer_with_options():
    """Generates once and stores the options, as the problem-level solver does."""

    async def solve(state: TaskState, generate: Generate) -> TaskState:
        state = await generate(state)
        write_options(state)
        return state

    return solve


@pytest.fixture(scope="module")
def seek_log(tmp_path_factory) -> EvalLog:
    task = Task(dataset=SEEK_SAMPLES, solver=replay_turns(), scorer=seek_scorers())
    return run(task, mock_model(), tmp_path_factory.mktemp("seek"))


def scorer_metrics(log: EvalLog) -> dict[str, dict[str, float]]:
    assert log.results is not None
    return {
        s.name: {name: m.value for name, m in s.metrics.items()} for s in log.results.scores
    }


def test_seek_metric_names_and_values(seek_log):
    by_scorer = scorer_metrics(seek_log)
    assert list(by_scorer) == ["final_answer", "sufficiency", "queries", "invalid"]
    metrics = log_metrics(seek_log)
    assert len(metrics) == sum(len(m) for m in by_scorer.values())  # no name twice

    expected = {
        "final_answer": {
            "accuracy": 2 / 3,
            "accuracy_k1": 1.0,
            "accuracy_k2": 0.5,
            "accuracy_stderr": 1 / 3,
        },
        "sufficiency": {
            "final_sufficiency": 2 / 3,
            "final_sufficiency_k1": 1.0,
            "final_sufficiency_k2": 0.5,
            # s3 never became sufficient: excluded, not counted as zero
            "turn_to_sufficiency": 1.5,
            "turn_to_sufficiency_k1": 1.0,
            "turn_to_sufficiency_k2": 2.0,
            "total_turns": 5 / 3,
            "total_turns_k1": 1.0,
            "total_turns_k2": 2.0,
            "over_questioning": 0.0,
        },
        "queries": {
            "first_turn_hit": 2 / 3,
            "first_turn_hit_k1": 1.0,
            "first_turn_hit_k2": 0.5,
            # only s2 made two valid queries
            "second_turn_hit": 1.0,
            "second_turn_hit_k2": 1.0,
            "query_correctness": 2 / 3,
            "query_correctness_k2": 0.5,
            "query_coverage": 2 / 3,
            "query_coverage_k1": 1.0,
            "query_coverage_k2": 0.5,
            "best_mss_hits": 2 / 3,
        },
        "invalid": {
            "invalid_total": 1 / 3,
            "invalid_total_k1": 0.0,
            "invalid_total_k2": 0.5,
            "invalid_unknown": 1 / 3,
        },
    }
    for scorer_name, values in expected.items():
        for name, value in values.items():
            assert name in by_scorer[scorer_name], (scorer_name, name)
            assert by_scorer[scorer_name][name] == pytest.approx(value), name

    # not applicable anywhere (no required order) or nowhere defined for k=1
    assert not any(name.startswith("order_correctness") for name in metrics)
    assert "second_turn_hit_k1" not in metrics
    # the invalid scorer lists only the reasons that occurred, overall only
    assert sorted(by_scorer["invalid"]) == sorted(
        ["invalid_total", "invalid_total_stderr", "invalid_total_k1", "invalid_total_k2",
         "invalid_unknown"])
    # per-group stderr is off by default
    assert "accuracy_k2_stderr" not in metrics
    # no stray prefixes from the metric or scorer names
    assert not any("/" in name or "mean_by_group" in name for name in metrics)


def test_seek_sample_scores(seek_log):
    samples = {sample.id: sample for sample in seek_log.samples}
    s1, s3 = samples["s1"].scores, samples["s3"].scores
    assert s1["final_answer"].answer == "yes"
    assert s1["final_answer"].value == {"accuracy": 1.0}
    assert s1["sufficiency"].metadata["uncertainty_curve"] == [2.0, 1.0, 1.0]
    assert s1["sufficiency"].metadata["entropy_curve"] == [1.0, 0.0, 0.0]
    assert s1["invalid"].metadata["invalid_reasons"] == {}
    assert s3["final_answer"].answer == "no"
    assert math.isnan(s3["sufficiency"].value["turn_to_sufficiency"])
    assert s3["invalid"].metadata["invalid_reasons"] == {"unknown": 1}
    assert "not sufficient" in s3["sufficiency"].explanation
    assert s3["invalid"].explanation == "1 invalid: unknown=1"
    assert "order_correctness" not in s1["queries"].value
    merged = seek_values(samples["s2"].scores)
    assert merged["accuracy"] == 1.0 and merged["final_sufficiency"] == 1.0
    assert merged["invalid_total"] == 0.0 and merged["query_coverage"] == 1.0


def test_seek_turn_count_agrees_with_total_turns(seek_log):
    """The explanation counts the turns as `total_turns` does (turns before the answer)
    and names the answering turn by its transcript number."""
    for sample in seek_log.samples:
        sufficiency = sample.scores["sufficiency"]
        turns = sample.metadata["fixture_turns"]
        before = int(sufficiency.value["total_turns"])
        assert before == len(turns) - 1
        assert sufficiency.explanation.startswith(
            f"{before} turn(s) + answer (turn {turns[-1]['turn']})"), sufficiency.explanation


def test_seek_log_round_trip(seek_log):
    again = read_eval_log(seek_log.location)
    assert log_metrics(again) == pytest.approx(log_metrics(seek_log))


# ---------------------------------------------------------------------------
# problem-level protocols


def _problem(k, family, *, withheld=True):
    """A record; `alternative_only` (the names only in non-canonical MSSs) as the builders
    write it, or left empty (`withheld=False`) as in QuestBench Logic-Q records."""
    alternatives = sorted({v for s in family[1:] for v in s} - set(family[0]))
    return {
        "id": f"q{k}",
        "k": k,
        "variables": ["a", "b", "c", "d", "y"],
        "queryable": ["a", "b", "c", "d"],
        "alternative_only": alternatives if withheld else [],
        "mss_family": family,
    }


def test_k_prediction_metrics_in_log(tmp_path):
    samples = [
        Sample(id="k1", input="k1", metadata={"k": 1, "problem": _problem(1, [["a"]])}),
        Sample(id="k2a", input="k2a", metadata={"k": 2, "problem": _problem(2, [["a", "b"]])}),
        # k only inside the problem record
        Sample(id="k2b", input="k2b", metadata={"problem": _problem(2, [["a", "b"]])}),
    ]
    replies = {
        "k1": "The rules need one fact.\nAnswer: 1",
        "k2a": "Answer: 1",
        "k2b": "Answer: ambiguous but not sure how many",
    }
    task = Task(dataset=samples, scorer=k_prediction_scorer())
    log = run(task, mock_model(replies), tmp_path)
    metrics = metric_values(log)
    expected = {
        "accuracy": 1 / 3,
        "accuracy_k1": 1.0,
        "accuracy_k2": 0.0,
        "under": 1 / 3,
        "under_k1": 0.0,
        "under_k2": 0.5,
        "over": 0.0,
        "unsure": 1 / 3,
        "unsure_k2": 0.5,
        "invalid": 0.0,
        "invalid_k2": 0.0,
        "under_stderr": 1 / 3,
    }
    for name, value in expected.items():
        assert metrics[name] == pytest.approx(value), name
    assert "under_k2_stderr" not in metrics  # per-group stderr is off by default
    answers = {sample.id: sample.scores["k_prediction_scorer"].answer for sample in log.samples}
    assert answers == {"k1": "1", "k2a": "1", "k2b": "unsure"}


def test_mss_identification_metrics_in_log(tmp_path):
    family = [["a", "b"], ["a", "c"]]
    samples = [
        Sample(id="m1", input="m1", metadata={"k": 1, "problem": _problem(1, [["a"]])}),
        # the alternative MSS counts only when alternatives are allowed
        Sample(
            id="m2",
            input="m2",
            metadata={"k": 2, "problem": _problem(2, family), "forbid_alternatives": False},
        ),
        Sample(id="m3", input="m3", metadata={"k": 2, "problem": _problem(2, family)}),
    ]
    replies = {
        "m1": "I think a matters.",  # no Answer line
        "m2": "Answer: A, c",
        "m3": "Answer: a, c, wings",
    }
    task = Task(dataset=samples, solver=answer_with_options(),
                scorer=mss_identification_scorer())
    log = run(task, mock_model(replies), tmp_path)
    metrics = metric_values(log)
    expected = {
        "exact": 1 / 3,
        "exact_k1": 0.0,
        "exact_k2": 0.5,
        "jaccard": (0 + 1 + 1 / 3) / 3,
        "jaccard_k2": (1 + 1 / 3) / 2,
        "recall": 0.5,
        "recall_k2": 0.75,
        "invalid": 1 / 3,
        "invalid_k1": 1.0,
        "invalid_k2": 0.0,
        "unknown_names": 1 / 3,
        "unknown_names_k2": 0.5,
        "predicted_size": 4 / 3,
    }
    for name, value in expected.items():
        assert metrics[name] == pytest.approx(value), name
    scores = {sample.id: sample.scores["mss_identification_scorer"] for sample in log.samples}
    assert scores["m2"].answer == "a, c"
    assert scores["m2"].metadata == {"canonical_only": False}
    # issue 30 class 2: a name that is no variable is never exact, and says why
    assert scores["m3"].metadata == {"canonical_only": True, "reason": "unknown"}
    assert scores["m1"].answer is None


def test_mss_identification_without_withheld_alternatives_takes_the_best_member(tmp_path):
    """QuestBench-style records list every sufficient single variable and withhold none:
    forbidding alternatives does not single out the (arbitrary) first one."""
    samples = [Sample(id="q", input="q", metadata={
        "k": 1, "problem": _problem(1, [["a"], ["c"]], withheld=False)})]
    log = run(Task(dataset=samples, solver=answer_with_options(),
                   scorer=mss_identification_scorer()),
              mock_model({"q": "Answer: c"}), tmp_path)
    assert metric_values(log)["exact"] == 1.0
    assert log.samples[0].scores["mss_identification_scorer"].metadata == {
        "canonical_only": False}


def test_mss_identification_explicit_canonical_only(tmp_path):
    family = [["a", "b"], ["a", "c"]]
    samples = [
        Sample(
            id="m",
            input="m",
            metadata={"k": 2, "problem": _problem(2, family), "forbid_alternatives": False},
        )
    ]
    task = Task(dataset=samples, scorer=mss_identification_scorer(canonical_only=True))
    log = run(task, mock_model({"m": "Answer: a, c"}), tmp_path)
    assert metric_values(log)["exact"] == 0.0
