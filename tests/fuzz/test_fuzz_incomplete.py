"""Plays the incomplete_questions fuzz catalogue (`tests/support/incomplete_fuzz_catalogue.py`)
through real offline evals, in both formats: scripted mockllm models play the model, the
simulated user and the judge; each kind's expectations are checked, and what holds for
every kind (module docstring of the catalogue)."""

from __future__ import annotations

import json
import math
from collections import defaultdict
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest
from inspect_ai import eval
from inspect_ai.log import EvalLog, EvalSample
from inspect_ai.model import (
    ChatMessageAssistant,
    ChatMessageTool,
    ChatMessageUser,
    ModelOutput,
    get_model,
)
from inspect_ai.util import store

from infoseek.contract import STOP_REASONS, STORE_TURNS
from infoseek.inspect_tasks.incomplete_questions import incomplete_questions
from infoseek.solvers.incomplete.numbers import stated_values
from infoseek.solvers.incomplete.user import USER_REVEAL, USER_UNKNOWN
from infoseek.stored_forms import problem_from_store, turns_from_store
from tests.support.common import assert_eval_success, text_output, tool_output
from tests.support.incomplete_fuzz_catalogue import KINDS, RECORDS, Call, Kind, Stopped

SCORER = "incomplete_scorer"
STOPPED = tuple(STOP_REASONS.values())
pytestmark = pytest.mark.usefixtures("no_tokenizer")


def _sample_kind() -> Kind:
    record = problem_from_store(store().get("infoseek:problem"))
    return BY_NAME[record["id"]]


BY_NAME = {kind.name: kind for kind in KINDS}


def _model_output(turn: Any, fmt: str, number: int) -> ModelOutput:
    if isinstance(turn, Stopped):
        output = _model_output(turn.turn, fmt, number)
        output.choices[0].stop_reason = turn.stop_reason  # type: ignore[assignment]
        return output
    if isinstance(turn, str):
        return text_output(turn)
    if isinstance(turn, Call) or fmt == "tool":
        content = turn.content if isinstance(turn, Call) else ""
        return tool_output(("ask_user", {"question": turn.question}), content=content,
                           id_prefix=f"fuzz-{number}-")
    return text_output(f"<question>{turn.question}</question>")


def _play_group(kinds: list[Kind], fmt: str,
                tmp_path: Path) -> tuple[EvalLog, dict[str, list[str]]]:
    first = kinds[0]
    path = tmp_path / f"{fmt}-{abs(hash(first.group(fmt)))}.json"
    path.write_text(json.dumps([{**RECORDS[k.record], "id": k.name} for k in kinds]))
    user_calls: dict[str, list[str]] = defaultdict(list)

    def model(input, tools, tool_choice, config) -> ModelOutput:
        kind = _sample_kind()
        done = len(turns_from_store(store().get(STORE_TURNS)) or [])
        turns = kind.model
        turn = turns[done] if done < len(turns) else "<answer>I cannot tell.</answer>"
        return _model_output(turn, fmt, done)

    def user(input, tools, tool_choice, config) -> ModelOutput:
        kind = _sample_kind()
        user_calls[kind.name].append(input[-1].text)
        replies = kind.user or ()
        index = len(user_calls[kind.name]) - 1
        return text_output(replies[index] if index < len(replies) else "I don't know.")

    def judge(input, tools, tool_choice, config) -> ModelOutput:
        return text_output(_sample_kind().judge or "")

    roles: dict[str, Any] = {}
    if first.user is not None:
        roles["user"] = get_model("mockllm/model", custom_outputs=user)
    if first.judge is not None:
        roles["judge"] = get_model("mockllm/model", custom_outputs=judge)
    [log] = eval(incomplete_questions(source=str(path), variant=first.variant,
                                      max_interactions=first.max_interactions, format=fmt,
                                      user=first.user_kind),
                 model=get_model("mockllm/model", custom_outputs=model),
                 model_roles=roles or None, log_dir=str(tmp_path), display="none",
                 ctl_server=False)
    assert_eval_success(log)
    return log, user_calls


@pytest.fixture(scope="module", params=["text", "tool"])
def played(request, tmp_path_factory) -> dict[str, Any]:
    """name -> (sample, its log, the user model's inputs per sample) for one format."""
    fmt = request.param
    groups: dict[tuple[Any, ...], list[Kind]] = defaultdict(list)
    for kind in KINDS:
        if fmt in kind.formats:
            groups[kind.group(fmt)].append(kind)
    out: dict[str, Any] = {"__format__": fmt}
    for kinds in groups.values():
        log, user_calls = _play_group(kinds, fmt, tmp_path_factory.mktemp(f"incomplete-{fmt}"))
        assert {s.id for s in log.samples} == {k.name for k in kinds}
        out.update({str(s.id): (s, log, user_calls) for s in log.samples})
    return out


def _states(text: str, value: Fraction) -> bool:
    return any(abs(v - value) <= Fraction(1, 10**9) * max(1, abs(value))
               for v in stated_values(text))


def _model_sees(sample: EvalSample) -> list[str]:
    first = next(i for i, m in enumerate(sample.messages) if isinstance(m, ChatMessageUser))
    return [m.text for m in sample.messages[first + 1:]
            if isinstance(m, ChatMessageUser | ChatMessageTool)]


@pytest.mark.parametrize("name", [k.name for k in KINDS])
def test_kind(name: str, played) -> None:
    kind = BY_NAME[name]
    if played["__format__"] not in kind.formats:
        pytest.skip(f"{name} is not played in the {played['__format__']} format")
    sample, log, user_calls = played[name]
    turns = turns_from_store(sample.store[STORE_TURNS])
    value = sample.scores[SCORER].value
    final = turns[-1]
    record = sample.metadata["record"]
    # what holds for every kind
    answer = None if isinstance(record["answer"], str) else Fraction(str(record["answer"]))
    if answer is not None and not _states(record["condition"], answer):
        for text in _model_sees(sample):
            assert not _states(text, answer), (name, text)
    if value["accuracy"] == 1.0:
        assert final.get("answer_reason") is None and final["behaviour"] == "boxed_answer"
    stops = [i for i, t in enumerate(turns) if t["behaviour"] in STOPPED]
    assert stops in ([], [len(turns) - 1]), (name, turns)  # a stopped reply ends it
    if stops:
        assert value["accuracy"] == 0.0 and final["answer_reason"] == final["behaviour"]
        assert final["user_reply"] is None and final["final"] is True
        assert sample.scores[SCORER].metadata.get("stop_reason") == final["behaviour"]
        assistant = [m for m in sample.messages if isinstance(m, ChatMessageAssistant)]
        assert len(assistant) == len(turns) - (final["behaviour"] ==
                                              STOP_REASONS["model_length"])
    if kind.behaviour is not None:
        assert final["behaviour"] == kind.behaviour, (name, final)
        assert value[f"behaviour_{kind.behaviour}"] == 1.0
    if kind.turns is not None:
        assert len(turns) == kind.turns, (name, turns)
    # the kind's own expectations
    if kind.credited is not None:
        assert value["accuracy"] == (1.0 if kind.credited else 0.0), (name, turns)
    if kind.answer_reason != "unchecked":
        assert final.get("answer_reason") == kind.answer_reason, (name, final)
        assert sample.scores[SCORER].metadata.get("answer_reason") == kind.answer_reason
    seen = {reason for t in turns for reason in t.get("set_aside", ())}
    assert set(kind.set_aside) <= seen, (name, [t.get("set_aside") for t in turns])
    if kind.forwarded is not None:
        asked = [t["question"] for t in turns if t["user_reply"] is not None]
        assert asked == list(kind.forwarded), (name, turns)
        if kind.user is not None:
            assert len(user_calls[name]) == len(kind.forwarded)
    if kind.replaced is not None:
        answered = next(t for t in turns if t["user_reply"] is not None)
        assert (answered["user_source"] == "model-replaced") is kind.replaced, (name, answered)
        if not kind.replaced:
            assert answered["user_reply"] == kind.user[0]
    if kind.suite_words:
        suite = {USER_REVEAL.format(condition=record["condition"]), USER_UNKNOWN}
        replies = [t["user_reply"] for t in turns if t["user_reply"] is not None]
        assert replies and set(replies) <= suite, (name, replies)
        assert all(t["user_source"] in ("model-choice", "model-unreadable") for t in turns
                   if t["user_reply"] is not None), (name, turns)
        seen = "\n".join(_model_sees(sample))
        assert kind.user[0] not in seen or kind.user[0] in ("1", "none"), (name, seen)
    for key in ("judge_invalid", "condition_acquired", "judge_disagrees"):
        expected = getattr(kind, key)
        if expected is None:
            continue
        got = value.get(key, math.nan)
        if math.isnan(expected):
            assert math.isnan(got), (name, key, got)
        else:
            assert got == expected, (name, key, got, turns)


def test_the_disagreement_metric_is_the_share_of_judged_samples(played) -> None:
    logs = {id(entry[1]): entry[1] for key, entry in played.items() if key != "__format__"}
    reported = 0
    for log in logs.values():
        values = [s.scores[SCORER].value["judge_disagrees"] for s in log.samples]
        judged = [v for v in values if not math.isnan(v)]
        metrics = log.results.scores[0].metrics
        if judged:
            reported += 1
            assert metrics["judge_disagrees"].value == pytest.approx(sum(judged) / len(judged))
        else:
            assert "judge_disagrees" not in metrics
    assert reported >= 1
