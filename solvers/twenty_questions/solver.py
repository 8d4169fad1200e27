"""The Twenty Questions solver: the guesser's loop, the `examiner` role that answers it,
the offline `evaluator` role that labels every asked question for every candidate of the
declared pool, and trace transfer to a `transfer` role (protocols §5.6).

Roles (``--model-role examiner=...`` etc., or a task's ``model_roles``); each has a
deterministic fallback over the attribute table (`infoseek.solvers.twenty_questions.game`):

- ``examiner`` sees the hidden target and the guesser's turn; its reply must be Yes, No,
  Partially, Not applicable or the confirmation; anything else is recorded
  (``examiner_raw``, ``examiner_valid: false``) and replaced by Not applicable. Without the
  role, the table answers questions that name an attribute, Not applicable otherwise.
- ``evaluator`` labels each question for all candidates, `label_batch` per call, with one
  retry of a batch whose reply does not parse; a batch still unreadable is recorded as
  ``fail`` labels (counted by the scorer). Without the role, the table labels.
- ``transfer`` reads the finished dialogue and names X. Without it, the candidate the
  labelled dialogue leaves (every label equal to the evidence) is named, when one is left.

A win is decided here from the guess and the target's names, never from the examiner;
its verdict (``examiner_confirmed``) is kept beside. Turns count every guesser turn, the
winning one included. Turn records go to the store (`STORE_TURNS`) before every
generate call; `STORE_FINAL` holds the outcome.
"""

from __future__ import annotations

from typing import Any

from inspect_ai.model import ChatMessageSystem, ChatMessageUser
from inspect_ai.solver import Generate, Solver, TaskState, solver

from infoseek.oracles.roles import record_role_reply, role_bound, role_call
from infoseek.solvers.text_format import storable_text
from infoseek.solvers.turns import (
    EpisodeWriter,
    generate_turn,
)
from infoseek.solvers.twenty_questions.game import (
    CONFIRMED,
    EVIDENCE,
    FAILED,
    GameTable,
    TwentyQuestionsOptions,
    consistent_candidates,
    label_problems,
    read_examiner,
    read_guess,
    read_labels,
    read_turn,
    table_answer,
    table_labels,
    table_truth,
    truth_labels,
)
from infoseek.solvers.twenty_questions.prompts import (
    EVALUATOR_RETRY,
    EVALUATOR_SYSTEM,
    EVALUATOR_USER,
    EXAMINER_SYSTEM,
    FINAL_TURN,
    GUESSER_SYSTEM,
    INVALID_NOTE,
    TRANSFER_SYSTEM,
    TURN_NOTE,
    pool_text,
)
from infoseek.stored_forms import sample_problem, stored_problem

PROTOCOL = "twenty_questions"
EXAMINER_ROLE, EVALUATOR_ROLE, TRANSFER_ROLE = "examiner", "evaluator", "transfer"
LABEL_ATTEMPTS = 2


async def examine(turn_text: str, named: str | None, target: str,
                  table: GameTable, turn: int | None = None) -> dict[str, Any]:
    """The examiner's answer to one question or guess. A model's answer is measured
    against the table (`table_truth`: wrong when unreadable or when its evidence differs
    from the table's; unmeasured where the table holds no answer); a model that raises
    gets the table's answer (``examiner_source: table-after-error``, ``examiner_error``)."""
    error = None
    if not role_bound(EXAMINER_ROLE):
        raw, source = table_answer(turn_text, named, target, table), "table"
    else:
        call = await role_call(EXAMINER_ROLE, turn_text,
                               system=EXAMINER_SYSTEM.format(target=target))
        if call.text is None:
            raw, source = table_answer(turn_text, named, target, table), "table-after-error"
            error = call.raised
        else:
            raw, source = call.text, "model"
    answer, valid = read_examiner(raw, turn_text)
    if source != "table":
        truth = table_truth(turn_text, named, target, table)
        wrong: bool | None = None
        if source == "model" and (truth is not None or not valid):
            wrong = not valid or EVIDENCE[answer] != EVIDENCE[truth or answer]
        record_role_reply(EXAMINER_ROLE, turn=turn, wrong=wrong, raised=error,
                          truth=truth, answer=answer)
    return {"examiner_raw": raw, "examiner_answer": answer, "examiner_valid": valid,
            "examiner_source": source, "examiner_confirmed": answer == CONFIRMED,
            "evidence": EVIDENCE[answer], "examiner_error": error}


async def label_question(question: str, named: str | None, table: GameTable,
                         batch: int, turn: int | None = None) -> dict[str, Any]:
    """Every candidate's label of one question, in pool order. A model's labels are
    measured against the table's (`truth_labels`; a ``fail`` label counts wrong;
    unmeasured where the table holds none); a batch whose call raised gets the table's
    labels (its exception in ``label_errors``)."""
    if not role_bound(EVALUATOR_ROLE):
        return {"labels": table_labels(question, named, table), "label_source": "table",
                "label_retries": 0}
    labels: list[str] = []
    from_model: list[bool] = []
    errors: list[str] = []
    retries = 0
    rule = table_labels(question, named, table)
    for start in range(0, len(table.candidates), batch):
        names = list(table.candidates[start:start + batch])
        listing = "\n".join(f"{i}. {n}" for i, n in enumerate(names, 1))
        prompt = EVALUATOR_USER.format(question=question, candidates=listing)
        found, raised, asked = None, None, prompt
        for attempt in range(LABEL_ATTEMPTS):
            retries += attempt > 0
            call = await role_call(EVALUATOR_ROLE, asked, system=EVALUATOR_SYSTEM)
            if call.text is None:
                raised = call.raised or "error"
                break
            found = read_labels(call.text, len(names))
            if found is not None:
                break
            # the retry says what was wrong: the same request would get the same reply
            asked = (f"{prompt}\n\n" + EVALUATOR_RETRY.format(
                problems=label_problems(call.text, len(names), names)))
        if raised is not None:  # the table labels this batch
            errors.append(raised)
            labels.extend(rule[start:start + len(names)])
            from_model.extend([False] * len(names))
        else:
            labels.extend(found if found is not None else [FAILED] * len(names))
            from_model.extend([True] * len(names))
    truth = truth_labels(question, named, table)
    measured = ([m and want is not None for m, want in zip(from_model, truth, strict=True)]
                if truth is not None else [False] * len(labels))
    checked = sum(measured)
    wrong_labels = sum(m and got != want for m, got, want in zip(measured, labels,
                                                                  truth or labels, strict=True))
    record_role_reply(EVALUATOR_ROLE, turn=turn,
                      wrong=None if not checked else wrong_labels > 0,
                      raised="; ".join(errors) or None, checked=checked, errors=wrong_labels)
    return {"labels": labels, "label_source": "model", "label_retries": retries,
            "label_errors": errors}


def dialogue_text(turns: list[dict[str, Any]]) -> str:
    return "\n".join(f"Q{t['turn']}: {t['question']}\nA{t['turn']}: {t['examiner_answer']}"
                     for t in turns if t.get("question"))


async def transfer(turns: list[dict[str, Any]], table: GameTable, pool: str) -> dict[str, Any]:
    """Trace transfer: the `transfer` role (or the suite's belief) names X."""
    asked = [t for t in turns if t.get("question")]
    error = None
    if role_bound(TRANSFER_ROLE):
        call = await role_call(TRANSFER_ROLE,
                               dialogue_text(turns) or "(no questions were asked)",
                               system=TRANSFER_SYSTEM.format(pool_text=pool_text(pool)))
        record_role_reply(TRANSFER_ROLE, turn=None, wrong=None, raised=call.raised)
        if call.text is not None:
            turn = read_turn(call.text, table, final_turn=True)
            return {"transfer_raw": call.text, "transfer_guess": turn.guess,
                    "transfer_source": "model", "transfer_reason": turn.reason}
        error = call.raised
    left = consistent_candidates(table, [(t["labels"], t["evidence"]) for t in asked])
    return {"transfer_raw": None, "transfer_guess": left[0] if len(left) == 1 else None,
            "transfer_source": "table" if error is None else "table-after-error",
            "transfer_error": error,
            "transfer_reason": None if len(left) == 1 else f"{len(left)} candidates left"}


def game_prompt(pool: str, max_turns: int) -> str:
    return GUESSER_SYSTEM.format(pool_text=pool_text(pool), max_turns=max_turns)


@solver
def twenty_questions_solver(options: TwentyQuestionsOptions | None = None) -> Solver:
    """The game, then labelling and trace transfer (module docstring), under `options`
    (`infoseek.solvers.twenty_questions.game.TwentyQuestionsOptions`, checked when made;
    none: its defaults), e.g. ``twenty_questions_solver(TwentyQuestionsOptions(max_turns=5))``."""
    opts = TwentyQuestionsOptions() if options is None else options
    max_turns, label_batch = opts.max_turns, opts.label_batch

    async def solve(state: TaskState, generate: Generate) -> TaskState:
        record = sample_problem(state.metadata)
        target = record["answer"]
        table = GameTable.from_record(record)
        turns: list[dict[str, Any]] = []
        writer = EpisodeWriter(PROTOCOL, stored_problem(record), state.epoch)

        def write(final_turn: bool) -> None:
            writer.options({**opts.stored(), "final_turn": final_turn})
            writer.turns(turns)

        state.messages = [ChatMessageSystem(content=game_prompt(record["pool"], max_turns)),
                          ChatMessageUser(content=TURN_NOTE.format(turn=1, max_turns=max_turns)
                                          + " Ask your first question.")]
        win = False
        for number in range(1, max_turns + 1):
            final = number == max_turns
            write(final)
            message = await generate_turn(state, generate)
            text = message.text if message is not None else ""
            turn = read_turn(text, table, final_turn=final)
            entry: dict[str, Any] = {
                "turn": number, "action": turn.kind, "raw": storable_text(text or ""),
                "question": turn.question, "guess": turn.guess, "guess_raw": turn.guess_raw,
                "reason": turn.reason, "final_turn": final, "win": False}
            if turn.kind != "invalid":
                asked = turn.question or f"Is X {turn.guess_raw}?"
                entry.update(await examine(asked, turn.guess, target, table, number))
                entry["win"] = win = turn.guess == target
            turns.append(entry)
            write(final)
            if win or turn.kind == "guess" or final:
                break
            reply = (INVALID_NOTE.get(turn.reason or "", INVALID_NOTE["no_action"])
                     if turn.kind == "invalid" else entry["examiner_answer"])
            nxt = number + 1
            note = (FINAL_TURN.format(turn=nxt) if nxt == max_turns
                    else TURN_NOTE.format(turn=nxt, max_turns=max_turns))
            if message is None:
                state.messages.append(ChatMessageUser(content=note))
            else:
                state.messages.append(ChatMessageUser(content=f"{reply}\n\n{note}"))
        for entry in turns:
            if entry.get("question"):
                entry.update(await label_question(entry["question"], entry["guess"], table,
                                                  label_batch, entry["turn"]))
        final = {"win": win, "turns": len(turns), "target": target,
                 **await transfer(turns, table, record["pool"])}
        write(True)
        writer.final(final)
        return state

    return solve


__all__ = ["read_guess", "twenty_questions_solver"]
