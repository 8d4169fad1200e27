"""Fuzz test of model output through the real seek loop (issue 8, protocols §3.8).

Every kind of `tests.support.fuzz_catalogue.CATALOGUE` (junk, hostile and malformed text or tool
calls, hedged and exotic answers, and unusual valid forms) is played by the scripted
`infoseek_fuzz/script` model in every seek task (`logic_mt`: yes/no answers;
`gsme_mt`, `gsme_mt_ext`, `gsm_mt`: numeric answers) and both interaction formats.
There is one `inspect_ai.eval` per (task, format): each kind is one sample (two for the
garbage kinds marked ``recover``, also played with a recovery), cloned from one k = 1
problem of the task, so the whole catalogue costs eight evals (about a minute on two
cores).

For every eval: status ``success``, and the log reads back from disk with every sample.
For every sample (read from the log on disk):

- it has no error and a seek score;
- nothing the loop sent back to the model states the hidden value, unless the model had
  earned it by a valid question or had written it itself;
- ``garbage``: the bad turn carries an invalid reason (one of the kind's reasons when it
  lists some) and, played to the end (the same garbage on every turn), accuracy is
  exactly 0; played with a recovery, the episode goes on through the canonical MSS and
  the clean answer is credited;
- ``wrong``: accuracy is exactly 0;
- ``valid``: the turn is accepted (an oracle reply to the question, or a credited
  answer) and no invalid reason is recorded for it.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

import pytest
from inspect_ai import Task, eval
from inspect_ai.dataset import MemoryDataset, Sample
from inspect_ai.log import EvalLog, EvalSample, read_eval_log
from inspect_ai.model import ChatMessageAssistant, ChatMessageTool, get_model

from infoseek.inspect_tasks.gsm_mt import gsm_mt
from infoseek.inspect_tasks.gsme_mt import gsme_mt
from infoseek.inspect_tasks.gsme_mt_ext import gsme_mt_ext
from infoseek.inspect_tasks.logic_mt import logic_mt
from infoseek.record_views import askable_variables, not_leaf_variables
from infoseek.stored_forms import sample_problem, turns_from_store
from tests.support.common import forbid_tokenizer, loop_messages
from tests.support.fuzz import (
    FORMATS,
    FUZZ_MODEL,
    GARBAGE,
    VALID,
    WRONG,
    Calls,
    FuzzProblem,
    Text,
    install,
    sample_problem_id,
)
from tests.support.fuzz_catalogue import CATALOGUE, Play, kinds_for, plays_for

MAX_TURNS = 2  # a bad turn, one question, the answer on the final turn
TASKS = {
    "logic_mt": (logic_mt, "boolean"),
    "gsme_mt": (gsme_mt, "number"),
    "gsme_mt_ext": (gsme_mt_ext, "number"),
    "gsm_mt": (gsm_mt, "number"),
}
RUNS = [(task, fmt) for task in TASKS for fmt in FORMATS]
# One text run carries the model's reasoning forward, so the history kept for the model
# is checked in both settings (issue 8 item 6: a native tool call in the text format).
RUN_OPTIONS = {("logic_mt", "text"): {"carry_reasoning": True}}


# ------------------------------------------------------------------ building the runs


def fuzz_problem(task: str, fmt: str, metadata: dict[str, Any]) -> FuzzProblem | None:
    """The kinds' view of a sample, or None when the sample lacks what some kind needs
    (a refused variable, an observed one, a spare askable one, an integer answer)."""
    record = sample_problem(metadata)
    truth = metadata.get("target_value", record.get("answer"))
    forbid = bool(metadata.get("forbid_alternatives", True))
    askable = askable_variables(record, forbid)
    in_mss = {name for member in record["mss_family"] for name in member}
    spare = [name for name in askable if name not in in_mss]
    if TASKS[task][1] == "boolean":
        refused, reason = list(record.get("alternative_only") or []), "forbidden"
        if truth is not True:  # True: the value a hedge is read as today
            return None
    else:
        refused, reason = list(not_leaf_variables(record)), "not_leaf"
        # an integer answer of two digits or more, which no correction or refusal holds
        if not isinstance(truth, int) or isinstance(truth, bool) or truth < 10:
            return None
    if record["k"] != 1 or not refused or not record["observed"] or not spare:
        return None
    return FuzzProblem(
        task=task, fmt=fmt, entity=record.get("entity", "Alice"), target=record["target"],
        answer_kind=TASKS[task][1], truth=truth, mss=tuple(record["mss_family"][0]),
        spare=spare[0], refused=refused[0], refused_reason=reason,
        observed=sorted(record["observed"])[0], askable=tuple(askable),
        descriptions=dict(record.get("descriptions") or {}),
    )


@dataclass
class Run:
    task: str
    fmt: str
    problem: FuzzProblem
    plays: dict[str, Play]
    log: EvalLog | None = None
    read_back: EvalLog | None = None
    read_error: str | None = None
    samples: dict[str, EvalSample] = field(default_factory=dict)


def _run(task: str, fmt: str, log_dir: str) -> Run:
    task_fn, _ = TASKS[task]
    built = task_fn(k=[1], per_k=8, format=fmt, max_turns=MAX_TURNS,
                    **RUN_OPTIONS.get((task, fmt), {}))
    base, problem = None, None
    for sample in built.dataset:
        problem = fuzz_problem(task, fmt, sample.metadata)
        if problem is not None:
            base = sample
            break
    assert base is not None, f"no sample of {task} suits the fuzz kinds"
    return play_kinds(built, task, fmt, base, problem,
                      kinds_for(fmt, problem.answer_kind), log_dir)


def play_kinds(built: Task, task: str, fmt: str, base: Sample, problem: FuzzProblem,
               kinds: list, log_dir: str) -> Run:
    """One eval of `built` whose samples are copies of `base`, one per play of each of
    `kinds` (the scripted model plays it); the log is read back from disk."""
    record = sample_problem(base.metadata)
    plays: dict[str, Play] = {}
    samples = []
    for kind in kinds:
        for play in plays_for(kind, problem):
            problem_id = sample_problem_id(record["id"], task, fmt, play.name)
            install(problem_id, play.turns)
            plays[play.name] = play
            samples.append(base.model_copy(update={
                "id": play.name,
                "metadata": {**base.metadata, "problem": {**record, "id": problem_id}},
            }))
    built.dataset = MemoryDataset(samples, name=f"fuzz_{task}")
    run = Run(task, fmt, problem, plays)
    # fail_on_error=False: a kind that errors its sample fails its own test (and
    # test_eval_succeeds_and_reads_back), not every kind of the run
    [run.log] = eval(built, model=get_model(FUZZ_MODEL), log_dir=log_dir, display="none",
                     max_samples=len(samples), fail_on_error=False)
    try:
        run.read_back = read_eval_log(run.log.location)
        run.samples = {str(s.id): s for s in run.read_back.samples or []}
    except Exception as error:  # reported by test_eval_succeeds_and_reads_back
        run.read_error = f"{type(error).__name__}: {error}"
        run.samples = {str(s.id): s for s in run.log.samples or []}
    return run


@pytest.fixture(scope="module")
def runs(tmp_path_factory: pytest.TempPathFactory):
    """Runs each (task, format) eval once, on first use."""
    log_dir = str(tmp_path_factory.mktemp("fuzz-logs"))
    done: dict[tuple[str, str], Run] = {}

    def get(task: str, fmt: str) -> Run:
        if (task, fmt) not in done:
            with forbid_tokenizer():
                done[(task, fmt)] = _run(task, fmt, log_dir)
        return done[(task, fmt)]

    return get


# ---------------------------------------------------------------------- checks


def check_history(sample: EvalSample) -> None:
    """The history stays valid for every provider: each tool call of an assistant turn
    the conversation went on from has a tool message, before the next assistant turn."""
    messages = sample.messages
    for index, message in enumerate(messages):
        if not isinstance(message, ChatMessageAssistant) or not message.tool_calls:
            continue
        following = messages[index + 1 :]
        if not any(isinstance(m, ChatMessageAssistant) for m in following):
            continue  # the last turn: nothing was sent after it
        answered: set[str] = set()
        for later in following:
            if isinstance(later, ChatMessageAssistant):
                break
            if isinstance(later, ChatMessageTool) and later.tool_call_id:
                answered.add(later.tool_call_id)
        missing = [c.function for c in message.tool_calls if c.id not in answered]
        assert not missing, f"tool calls without a tool message in the history: {missing}"


def _model_pieces(play: Play, turns: list[dict[str, Any]]) -> list[str]:
    """What the model itself wrote (a loop message may quote it back)."""
    pieces: list[str] = []
    for turn in play.turns:
        if isinstance(turn, Text):
            pieces.extend(line.strip() for line in turn.content.splitlines())
        elif isinstance(turn, Calls):
            pieces.extend(str(v) for spec in turn.calls for v in spec[1].values())
    for turn in turns:
        pieces.append(str(turn.get("answer_raw") or ""))
        pieces.extend(str(q.get("raw") or "") for q in turn.get("queries") or [])
    return sorted({p for p in pieces if len(p) >= 3}, key=len, reverse=True)


def _earned_replies(turns: list[dict[str, Any]]) -> list[str]:
    return [q["reply"] for t in turns for q in t.get("queries") or []
            if q.get("valid") is True and q.get("reply")]


def leaks(problem: FuzzProblem, messages: list[str], allowed: list[str]) -> list[str]:
    """The messages that state the hidden value, once every piece of `allowed` (oracle
    replies to valid questions, text quoted from the model's own output) is set aside.

    A yes/no value leaks when a message states it and not its opposite (a message that
    states both tells nothing); a number leaks when it appears on its own, or after
    ``<target> =``; a choice leaks when a message names its option and no other."""
    target = re.escape(problem.target)
    found = []
    for message in messages:
        rest = message
        for piece in sorted(allowed, key=len, reverse=True):
            rest = rest.replace(piece, " ")
        if problem.answer_kind == "boolean":
            positive = re.search(
                rf"\bis\s+{target}\b|\b(?:yes|true)\b[^.\n]*\b{target}\b"
                rf"|\b{target}\s*[=:]\s*(?:yes|true)\b", rest, re.IGNORECASE)
            negative = re.search(
                rf"\bnot\s+{target}\b|\b(?:no|false)\b[^.\n]*\b{target}\b"
                rf"|\b{target}\s*[=:]\s*(?:no|false)\b", rest, re.IGNORECASE)
            told, other = (positive, negative) if problem.truth else (negative, positive)
            if told and not other:
                found.append(message)
        elif problem.answer_kind == "choice":
            # a choice leaks when a message names the hidden option and no other one
            named = {o for o in problem.options
                     if re.search(rf"(?<!\w){re.escape(str(o))}(?!\w)", rest, re.IGNORECASE)}
            if str(problem.truth) in named and len(named) == 1:
                found.append(message)
        elif (re.search(rf"(?<![\d.]){problem.number}(?!\d)", rest)
              or re.search(rf"(?<!\w){target}\s*=\s*[-\d]", rest)):
            found.append(message)
    return found


def check_no_leak(problem: FuzzProblem, play: Play, sample: EvalSample,
                  turns: list[dict[str, Any]]) -> None:
    """Nothing the loop sent back states the hidden value unless the model earned it."""
    allowed = _earned_replies(turns) + _model_pieces(play, turns)
    leaked = leaks(problem, loop_messages(sample), allowed)
    assert not leaked, f"the hidden value leaks in {leaked}"


def _score_values(sample: EvalSample) -> dict[str, Any]:
    """The values of every scorer of the sample, in one dict (the seek metrics may be
    carried by one scorer or split across several)."""
    values: dict[str, Any] = {}
    for score in (sample.scores or {}).values():
        if isinstance(score.value, dict):
            values.update(score.value)
    return values


def _turn_reasons(turn: dict[str, Any]) -> set[str]:
    reasons = {q.get("reason") for q in turn.get("queries") or [] if q.get("valid") is not True}
    if turn.get("action") not in ("ask", "answer"):
        reasons.add(turn.get("reason"))
    return {r for r in reasons if r}


def check_play(run: Run, play: Play) -> None:
    sample = run.samples.get(play.name)
    assert sample is not None, (
        f"sample missing from the log (eval status {run.log.status}: {run.log.error})")
    assert sample.error is None, f"sample error: {sample.error.message}"
    turns = list(turns_from_store(sample.store.get("infoseek:turns")) or [])
    assert [t["turn"] for t in turns] == list(range(1, len(turns) + 1)), turns
    assert len(turns) > play.bad_index, f"the bad turn was never played: {turns}"
    scores = _score_values(sample)
    assert "accuracy" in scores and "invalid_total" in scores, f"no seek scores: {scores}"
    bad = turns[play.bad_index]
    reasons = _turn_reasons(bad)
    summary = (f"bad turn: action={bad['action']!r} reason={bad.get('reason')!r} "
               f"reasons={sorted(reasons)} answer={bad.get('answer')!r} "
               f"answer_raw={str(bad.get('answer_raw'))[:80]!r}; "
               f"accuracy={scores['accuracy']}")
    check_no_leak(run.problem, play, sample, turns)
    check_history(sample)
    expect = play.kind.expect

    if expect == GARBAGE:
        assert reasons, f"garbage recorded no invalid reason; {summary}"
        if play.kind.reasons is not None:
            assert reasons & set(play.kind.reasons), (
                f"expected a reason in {list(play.kind.reasons)}; {summary}")
        assert scores["invalid_total"] >= 1.0, summary
    if expect == WRONG or (expect == GARBAGE and play.mode == "persist"):
        assert scores["accuracy"] == 0.0, f"credited; {summary}"
    if play.mode == "recover":
        later = turns[play.bad_index + 1 :]
        assert later and later[-1]["action"] == "answer", f"the episode did not go on: {turns}"
        for turn in later[:-1]:
            assert turn["action"] == "ask" and all(q["valid"] for q in turn["queries"]), turn
        assert scores["accuracy"] == 1.0, f"the clean answer after it was not credited; {summary}"
        assert scores["final_sufficiency"] == 1.0, summary
    if expect == VALID:
        assert not reasons, f"a valid turn was refused; {summary}"
        if play.kind.asks_first:
            assert bad["action"] == "ask", summary
            query = bad["queries"][0]
            assert query["valid"] and query["variable"] == run.problem.first, query
            assert query["reply"] and query["value"] is not None, query
        else:
            assert bad["action"] == "answer", summary
        assert scores["accuracy"] == 1.0, f"not credited; {summary}"
        assert scores["invalid_total"] == 0.0, summary


# ------------------------------------------------------------------------ tests


def _play_params() -> list[Any]:
    params = []
    for task, fmt in RUNS:
        for kind in kinds_for(fmt, TASKS[task][1]):
            modes = ["persist", "recover"] if kind.expect == GARBAGE and kind.recover else [
                "valid" if kind.expect == VALID else "persist"]
            for mode in modes:
                name = f"{kind.name}~recover" if mode == "recover" else kind.name
                params.append(pytest.param(task, fmt, name, id=f"{task}-{fmt}-{name}"))
    return params


def test_catalogue_covers_the_issue() -> None:
    """At least 90 kinds; every format and answer kind has garbage and valid kinds."""
    names = [kind.name for kind in CATALOGUE]
    assert len(names) == len(set(names))
    assert len(names) >= 90
    for fmt in FORMATS:
        for answer_kind in ("boolean", "number", "choice"):
            expects = {kind.expect for kind in kinds_for(fmt, answer_kind)}
            assert expects >= {GARBAGE, VALID}, (fmt, answer_kind)


def _problem(answer_kind: str, truth: Any) -> FuzzProblem:
    return FuzzProblem(task="t", fmt="text", entity="Clara", target="pompous" if answer_kind
                       == "boolean" else "T", answer_kind=answer_kind, truth=truth,
                       mss=("kind",), spare="tall", refused="rude", refused_reason="forbidden",
                       observed="calm", askable=("kind", "tall"))


def test_the_leak_check_sees_a_stated_value() -> None:
    """The leak check is not vacuous: it flags a stated value, and only that."""
    yes, no, number = _problem("boolean", True), _problem("boolean", False), _problem("number", 276)
    assert leaks(yes, ["Yes, Clara is pompous."], []) == ["Yes, Clara is pompous."]
    assert leaks(yes, ["pompous = true"], [])
    assert leaks(no, ["No, Clara is not pompous."], [])
    assert not leaks(no, ["Yes, Clara is pompous."], [])  # the wrong value tells nothing
    assert not leaks(yes, ["Answer: Clara is pompous.\nAnswer: Clara is not pompous."], [])
    assert not leaks(yes, ["Cannot answer about 'pompous': it is the goal."], [])
    assert not leaks(yes, ["You wrote: Clara is pompous or not"], ["Clara is pompous or not"])
    assert leaks(number, ["T = 276"], []) and leaks(number, ["the total is 276 dollars"], [])
    assert not leaks(number, ["hours = 2760", "x = 1276"], [])
    assert not leaks(number, ["speed = 276"], ["speed = 276"])  # an earned reply


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
    check_play(run, run.plays[name])
