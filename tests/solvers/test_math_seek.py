"""Math problems on the generic seek machinery: the arithmetic engine over the rationals
(values cannot be enumerated) with a world-backed oracle, `not_leaf` refusals, numeric
answers and the reference models, through real `inspect_ai.eval` runs, fully offline.

The records are built by hand: T = B + P, P = B + F * B (so T = B * (2 + F)) with leaves
B and F, plus a distractor subgraph Y = X * 2.
"""

from __future__ import annotations

import json
from typing import Any

import pytest
from inspect_ai import Task, eval
from inspect_ai.dataset import MemoryDataset, Sample
from inspect_ai.log import EvalLog, EvalSample
from inspect_ai.model import get_model

from infoseek.analysis import feasible_rows, is_sufficient
from infoseek.engine import (
    UNBOUNDED,
    UnboundedDomainError,
    json_value,
    ordered_values,
    possible_values_record,
)
from infoseek.engines.arith.engine import ArithEngine
from infoseek.oracles import WORLD_POLICY, Oracle, check_query
from infoseek.record_views import askable_variables, not_leaf_variables
from infoseek.records import engine_from_record
from infoseek.scorers.group_metric import log_metrics
from infoseek.scorers.seek import seek_scorers, seek_values
from infoseek.scorers.seek_metrics import answers_match, episode_metrics
from infoseek.scorers.seek_turns import uncertainty_curves
from infoseek.solvers.reference.strategy import decide
from infoseek.solvers.seek.game import SeekOptions
from infoseek.solvers.seek.parse_context import ParseContext
from infoseek.solvers.seek.parsing import parse_number_answer, parse_text_turn
from infoseek.solvers.seek.solver import seek_solver
from infoseek.solvers.seek.tool_parsing import parse_tool_calls
from infoseek.stored_forms import problem_from_store, turns_from_store
from tests.support.common import assert_eval_success, text_output, tool_output


def math_record(rid: str, hidden: dict[str, Any], observed: dict[str, Any] | None = None
                ) -> dict[str, Any]:
    observed = observed or {}
    engine = ArithEngine(["T", "P", "B", "F", "X", "Y"],
                         [["T", "B + P"], ["P", "B + F * B"], ["Y", "X * 2"]], observed, "T")
    answer = json_value(engine.world_target(hidden))
    queryable = [v for v in ("B", "F") if v not in observed]
    kinds = {"B": "leaf", "F": "leaf", "P": "derived", "X": "irrelevant_leaf", "Y": "derived"}
    return {
        "id": rid,
        "domain": "math",
        "engine": {"kind": "arith", "equations": [["T", "B + P"], ["P", "B + F * B"],
                                                  ["Y", "X * 2"]]},
        "variables": ["T", "P", "B", "F", "X", "Y"],
        "descriptions": {"T": "the total cost", "P": "the price of the pens",
                         "B": "the price of a book", "F": "the pen factor",
                         "X": "the number of apples", "Y": "the number of pears"},
        "observed": observed,
        "target": "T",
        "hidden_world": hidden,
        "answer": answer,
        "queryable": queryable,
        "candidate_queries": [{"name": n, "kind": kinds[n]} for n in kinds
                              if n not in observed],
        "k": len(queryable),
        "mss_family": [queryable],
    }


K2 = math_record("math-k2", {"B": 6, "F": 5, "X": 3})  # T = 6 * 7 = 42
K1 = math_record("math-k1", {"B": 6, "F": 5, "X": 3}, observed={"B": 6})
HALF = math_record("math-half", {"B": 5, "F": "13/2", "X": 3})  # T = 5 * 17/2 = 85/2


pytestmark = pytest.mark.usefixtures("no_tokenizer")


def math_task(records: list[dict[str, Any]], fmt: str = "tool", **options: Any) -> Task:
    samples = [
        Sample(input=f"Find {r['target']}.", target=json.dumps(r["answer"]), id=r["id"],
               metadata={"problem": r, "target_value": r["answer"],
                         "hidden_world": r["hidden_world"], "k": r["k"]})
        for r in records
    ]
    return Task(dataset=MemoryDataset(samples),
                solver=seek_solver(SeekOptions(format=fmt, **options)),
                scorer=seek_scorers(), name="math_seek_test")


def run(task: Task, model: Any, tmp_path) -> EvalLog:
    [log] = eval(task, model=model, log_dir=str(tmp_path), display="log")
    assert_eval_success(log)
    return log


def turns_of(sample: EvalSample) -> list[dict[str, Any]]:
    return turns_from_store(sample.store.get("infoseek:turns"))


def value(sample: EvalSample, name: str) -> float:
    return seek_values(sample.scores)[name]


def assert_hidden_answer_never_replied(sample: EvalSample, record: dict[str, Any]) -> None:
    secret = str(record["answer"])
    for turn in turns_of(sample):
        for query in turn["queries"]:
            assert query["variable"] != record["target"] or not query["valid"]
            reply = query["reply"] or ""
            assert secret not in reply.replace(" ", ""), reply


# ------------------------------------------------------------------ core pieces


def test_records_and_engine_facts() -> None:
    engine = engine_from_record(K2)
    assert K2["answer"] == 42 and HALF["answer"] == "85/2"
    assert is_sufficient(engine, ["B", "F"]) and not is_sufficient(engine, ["B"])
    assert not_leaf_variables(K2) == ["P", "Y"]
    assert askable_variables(K2, True) == ["B", "F", "X"]
    assert askable_variables(K1, True) == ["F", "X"]


def test_unbounded_values_are_marked_not_enumerated() -> None:
    engine = engine_from_record(K2)
    assert possible_values_record(engine.target_values(), engine.domain("T")) == UNBOUNDED
    assert possible_values_record(engine.target_values({"B": 6, "F": 5}),
                                  engine.domain("T")) == [42]
    # an unlistable domain falls back to sorted order
    assert ordered_values({3, 1, 2}, engine.domain("T")) == [1, 2, 3]
    with pytest.raises(UnboundedDomainError, match="'B'"):
        feasible_rows(engine, ["B"])


def test_world_backed_oracle() -> None:
    engine = engine_from_record(HALF)
    for policy in ("adversarial", "cooperative", "random", WORLD_POLICY):
        oracle = Oracle(engine, "85/2", policy=policy, hidden_world=HALF["hidden_world"])
        assert oracle.world_backed
        assert oracle.possible_target_values() == UNBOUNDED and not oracle.known()
        assert oracle.reply("B") == 5
        assert oracle.reply("X") == 3
        assert oracle.reply("Y") == 6  # a quantity outside the world is computed from it
        assert oracle.reply("F") == "13/2"
        assert oracle.known() and oracle.possible_target_values() == ["85/2"]
    with pytest.raises(ValueError, match="hidden world"):
        Oracle(engine, "85/2")
    with pytest.raises(ValueError, match="hidden value"):
        Oracle(engine, 42, hidden_world=HALF["hidden_world"])
    with pytest.raises(ValueError, match="contradicts"):
        Oracle(engine_from_record(K1), 42, hidden_world={"B": 7, "F": 5, "X": 3})


def test_check_query_not_leaf() -> None:
    common = dict(variables=K2["variables"], askable=askable_variables(K2, True),
                  observed=[], target="T", asked=[], not_leaf=not_leaf_variables(K2))
    assert check_query("P", **common) == "not_leaf"
    assert check_query("T", **common) == "target"
    assert check_query("B", **common) is None
    assert check_query("X", **common) is None


# ------------------------------------------------------------------ parsing


def _parse_text(message: str):
    context = ParseContext(
        entity="", variables=K2["variables"], askable=askable_variables(K2, True),
        observed=[], target="T", queries_per_turn=1, not_leaf=not_leaf_variables(K2),
        descriptions=K2["descriptions"], answer_kind="number")
    return parse_text_turn(message, context)


@pytest.mark.parametrize("line, variable, reason", [
    ("Question: What is B?", "B", None),
    ("Question: B", "B", None),
    ("Question: what is the value of F?", "F", None),
    ("Question: What is the price of a book?", "B", None),
    ("Question: the pen factor", "F", None),
    ("Question: What is P?", "P", "not_leaf"),
    ("Question: What is the total cost?", "T", "target"),
    ("Question: What is Q?", None, "unknown"),
])
def test_quantity_questions(line: str, variable: str | None, reason: str | None) -> None:
    turn = _parse_text(line)
    [query] = turn.queries
    assert (query.variable, query.reason, query.valid) == (variable, reason, reason is None)


def test_what_is_names_the_attribute_without_descriptions() -> None:
    """protocols §3.8: a question naming exactly one attribute asks for it, whatever the
    phrasing, descriptions or not (logic problems)."""
    context = ParseContext(entity="Alice", variables=["kind"], askable=["kind"],
                           observed=[], target="t")
    turn = parse_text_turn("Question: What is kind?", context)
    assert turn.queries[0].variable == "kind" and turn.queries[0].valid


@pytest.mark.parametrize("raw, expected", [
    ("42", 42), ("42.0", 42), ("42 dollars", 42), ("about 42 dollars", None),
    ("85/2", "85/2"), ("$1,200", 1200),
    ("T = 10 + 32 = 42", 42), ("-3.5", "-7/2"), ("no idea", None), ("", None),
])
def test_parse_number_answer(raw: str, expected: Any) -> None:
    assert parse_number_answer(raw) == expected


def test_numeric_answers_in_both_formats() -> None:
    assert _parse_text("Answer: 42 dollars").answer_value == 42
    assert _parse_text("Answer: about 42 dollars").reason == "ambiguous"  # a hedge (issue 18)
    assert _parse_text("Answer: I do not know").reason == "malformed"
    context = ParseContext(entity="", variables=K2["variables"], askable=["B"], observed=[],
                           target="T", answer_kind="number")
    assert parse_tool_calls([("answer", {"value": "85/2"})], context).answer_value == "85/2"
    assert parse_tool_calls([("answer", {"value": 42})], context).answer_value == 42


def test_metrics_handle_the_unbounded_marker() -> None:
    turns = [{"turn": 1, "action": "ask", "queries": [], "possible_target_values": UNBOUNDED,
              "known": False},
             {"turn": 2, "action": "ask", "queries": [], "possible_target_values": [42],
              "known": True}]
    curves = uncertainty_curves(turns, initial_possible=UNBOUNDED)
    assert curves["uncertainty_curve"] == [None, None, 1.0]
    assert curves["entropy_curve"] == [None, None, 0.0]
    metrics = episode_metrics(K2, turns, 42, initial_possible=UNBOUNDED)
    assert metrics["accuracy"] == 0.0
    assert answers_match("85/2", 42.5) and answers_match(42, "42") and answers_match(
        "85/2", "85/2")


# ---------------------------------------------------------------- reference strategy


def test_optimal_strategy_asks_the_canonical_mss() -> None:
    options = SeekOptions().stored()
    assert decide("optimal", "seek", K2, [], options) == {"kind": "ask", "variables": ["B"]}
    turns = [{"queries": [{"variable": "B", "valid": True, "value": 6}]}]
    assert decide("optimal", "seek", K2, turns, options) == {"kind": "ask", "variables": ["F"]}
    turns.append({"queries": [{"variable": "F", "valid": True, "value": 5}]})
    assert decide("optimal", "seek", K2, turns, options) == {"kind": "answer", "value": 42}


# ------------------------------------------------------------------ end to end


@pytest.mark.parametrize("fmt", ["tool", "text"])
def test_optimal_end_to_end(fmt: str, tmp_path) -> None:
    records = [K2, K1, HALF]
    log = run(math_task(records, fmt), "infoseek/optimal", tmp_path)
    assert len(log.samples) == 3
    by_id = {r["id"]: r for r in records}
    for sample in log.samples:
        record = by_id[sample.id]
        assert value(sample, "final_sufficiency") == 1.0
        assert value(sample, "accuracy") == 1.0, sample.scores["final_answer"].explanation
        assert value(sample, "total_turns") == record["k"]
        assert value(sample, "invalid_total") == 0.0
        turns = turns_of(sample)
        assert turns[0]["possible_target_values"] == (UNBOUNDED if record["k"] > 1
                                                      else [record["answer"]])
        assert turns[-1]["known"] is True
        assert sample.store.get("infoseek:initial_possible") == UNBOUNDED
        stored = problem_from_store(sample.store.get("infoseek:problem"))
        assert "answer" not in stored and "hidden_world" not in stored
        curve = sample.scores["sufficiency"].metadata["uncertainty_curve"]
        assert curve[0] is None and curve[-1] == 1.0
        assert_hidden_answer_never_replied(sample, record)
    assert log_metrics(log)["accuracy"] == 1.0


def test_random_end_to_end(tmp_path) -> None:
    log = run(math_task([K2, K1, HALF], "tool", max_turns=2), "infoseek/random", tmp_path)
    for sample in log.samples:
        turns = turns_of(sample)
        assert turns[-1]["action"] == "answer"
        assert 0.0 <= value(sample, "accuracy") <= 1.0
        for turn in turns:
            for query in turn["queries"]:
                assert query["valid"] and query["variable"] in ("B", "F", "X")


@pytest.mark.parametrize("final", ["42", "42.0", "42 dollars"])
def test_scripted_text_episode(final: str, tmp_path) -> None:
    outputs = [
        text_output("I need the pens.\nQuestion: What is P?"),  # derived: refused
        text_output("Question: What is the total cost?"),  # the target: refused
        text_output("Question: What is B?"),
        text_output("Question: the pen factor"),
        text_output(f"So T = 6 * 7.\nAnswer: {final}"),
    ]
    model = get_model("mockllm/model", custom_outputs=outputs)
    log = run(math_task([K2], "text"), model, tmp_path)
    [sample] = log.samples
    turns = turns_of(sample)
    reasons = [q["reason"] for t in turns for q in t["queries"]]
    assert reasons == ["not_leaf", "target", None, None]
    assert "derived" in turns[0]["queries"][0]["reply"]
    assert turns[2]["queries"][0]["reply"] == "B = 6"
    assert value(sample, "accuracy") == 1.0
    assert value(sample, "final_sufficiency") == 1.0
    assert value(sample, "invalid_not_leaf") == 1.0
    assert value(sample, "invalid_target") == 1.0
    assert_hidden_answer_never_replied(sample, K2)


def test_scripted_tool_episode_fraction(tmp_path) -> None:
    outputs = [
        tool_output(("ask", {"variable": "P"})),
        tool_output(("ask", {"variable": "T"})),
        tool_output(("ask", {"variable": "X"})),  # a distractor leaf: answered, wastes a turn
        tool_output(("ask", {"variable": "B"})),
        tool_output(("ask", {"variable": "F"})),
        tool_output(("answer", {"value": "85/2"})),
    ]
    model = get_model("mockllm/model", custom_outputs=outputs)
    log = run(math_task([HALF], "tool"), model, tmp_path)
    [sample] = log.samples
    turns = turns_of(sample)
    assert [q["reason"] for t in turns for q in t["queries"]] == [
        "not_leaf", "target", None, None, None]
    assert [q["value"] for t in turns for q in t["queries"] if q["valid"]] == [3, 5, "13/2"]
    assert turns[-1]["answer"] == "85/2"
    assert value(sample, "accuracy") == 1.0
    assert_hidden_answer_never_replied(sample, HALF)


def test_scripted_wrong_answer(tmp_path) -> None:
    outputs = [text_output("Question: B"), text_output("Answer: 36")]
    model = get_model("mockllm/model", custom_outputs=outputs)
    log = run(math_task([K2], "text"), model, tmp_path)
    [sample] = log.samples
    assert value(sample, "accuracy") == 0.0
    assert value(sample, "final_sufficiency") == 0.0
