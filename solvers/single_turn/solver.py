"""The single-turn protocols as Inspect samples and one solver (protocols §3.4-3.6).

* question_selection: a 1-sufficient problem (and, when mixed in, its well-specified
  variants) with a numbered list of every askable variable plus "No questions needed";
  a record that is well-specified as built (k = 0, MSS ``[[]]``, an ``answer``: the
  "No questions needed" rows of Planning-Q) is one ``well_specified`` sample in every
  protocol;
* detection: every 1-sufficient problem and its well-specified variants; the model gives
  the target's value or "Not sure";
* well_specified: the well-specified variants only (one per restored value).

Each sample's metadata holds the record, ``problem_id`` (the 1-sufficient problem it
comes from, for filtering), ``variant`` (``underspecified`` / ``well_specified``), the
option list ``choices``, the ``correct`` choices, the target value and the difficulty
axes (`infoseek.single_turn.difficulty_axes`) under ``axes`` and as top-level keys. The
solver makes one generate call and stores the reply's turn record
(`infoseek.solvers.single_turn.game.play_reply`) for the scorer and the reference models.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any

from inspect_ai.dataset import Sample
from inspect_ai.model import ChatMessageUser
from inspect_ai.solver import Generate, Solver, TaskState, solver

from infoseek.answers import answer_kind
from infoseek.domains import UnknownDomain, domain_of
from infoseek.records import engine_from_record
from infoseek.single_turn import (
    AXES,
    NO_QUESTION,
    NOT_SURE,
    SINGLE_TURN_PROTOCOLS,
    difficulty_axes,
    question_options,
    sufficient_options,
    well_specified_variants,
)
from infoseek.solvers.dataset import value_label
from infoseek.solvers.single_turn.game import play_reply
from infoseek.solvers.single_turn.reading import PROMPT_SETTINGS, problem_prompt, with_examples
from infoseek.solvers.turns import (
    CONTEXT_OVERFLOW,
    EpisodeWriter,
    drop_from_history,
    generate_turn,
    stopped_reason,
)
from infoseek.stored_forms import metadata_problem, sample_problem, stored_problem

Render = Callable[[dict[str, Any]], str]


def _variant_sample(protocol: str, record: dict[str, Any], problem_id: str, variant: str,
                    render: Render, setting: str) -> Sample:
    engine = engine_from_record(record)
    options = question_options(record)
    sufficient = sufficient_options(engine, options)
    axes = difficulty_axes(engine, sufficient, [*record.get("forbidden", ()),
                                                *record.get("alternative_only", ())])
    choices = options + [NO_QUESTION]
    correct = sufficient if variant == "underspecified" else [NO_QUESTION]
    if protocol == "question_selection":
        target = ", ".join(str(choices.index(c) + 1) for c in correct)
        value: Any = None
    elif variant == "underspecified":
        target, value = NOT_SURE, NOT_SURE
    else:
        value = record["answer"]
        target = _label(record, value)
    prompt = problem_prompt(protocol, setting, render(record), record, choices)
    return Sample(
        id=record["id"], input=prompt, target=target,
        metadata={"problem": metadata_problem(record), "problem_id": problem_id, "variant": variant,
                  "protocol": protocol, "choices": choices, "correct": correct,
                  "target_value": value, "k": record.get("k"), "axes": axes,
                  **{axis: axes[axis] for axis in AXES}})


def _label(record: dict[str, Any], value: Any) -> str:
    """A value as the domain's answer kind writes it (a plan set: one of its plans)."""
    try:
        return answer_kind(domain_of(record).answer_kind).label(value)
    except UnknownDomain:
        return value_label(value)


def single_turn_samples(protocol: str, records: Iterable[dict[str, Any]], render: Render, *,
                        setting: str = "zs", mix_well_specified: bool = False
                        ) -> list[Sample]:
    """The samples of `protocol` over 1-sufficient `records` (module docstring);
    `mix_well_specified` adds the well-specified variants to question selection."""
    if protocol not in SINGLE_TURN_PROTOCOLS:
        raise ValueError(f"protocol must be one of {', '.join(SINGLE_TURN_PROTOCOLS)}; "
                         f"got {protocol!r}")
    samples = []
    for record in records:
        if record.get("k") == 0 and record.get("mss_family") == [[]] and "answer" in record:
            # a well-specified problem as built (Planning-Q's "No questions needed" rows):
            # one sample of every protocol, scored like a restored variant
            samples.append(_variant_sample(protocol, record, record["id"], "well_specified",
                                           render, setting))
            continue
        variants = well_specified_variants(record)
        if protocol != "well_specified":
            samples.append(_variant_sample(protocol, record, record["id"],
                                           "underspecified", render, setting))
        if protocol != "question_selection" or mix_well_specified:
            samples.extend(_variant_sample(protocol, v, record["id"], "well_specified",
                                           render, setting) for v in variants)
    return samples


def few_shot_examples(protocol: str, records: list[dict[str, Any]], render: Render,
                      count: int) -> list[tuple[str, str]]:
    """Worked examples (prompt, ``Answer:`` line) from `records` (a split disjoint from
    the evaluated one): question selection answers with the first sufficient option;
    detection alternates "Not sure" and solved well-specified variants."""
    examples: list[tuple[str, str]] = []
    for sample in single_turn_samples(protocol, records, render):
        meta = sample.metadata or {}
        if protocol == "detection" and (meta["variant"] == "underspecified") != (
                len(examples) % 2 == 0):
            continue
        if protocol == "question_selection":
            answer = str(meta["choices"].index(meta["correct"][0]) + 1)
        else:
            answer = str(sample.target)
        examples.append((str(sample.input), f"Answer: {answer}"))
        if len(examples) == count:
            break
    if len(examples) < count:
        raise ValueError(f"only {len(examples)} few-shot examples could be made; "
                         f"{count} are needed")
    return examples


@solver
def single_turn_solver(protocol: str, setting: str = "zs",
                       examples: list[tuple[str, str]] | None = None, seed: int = 0
                       ) -> Solver:
    """One generate call on the sample's prompt; the reply's turn record goes to the store.

    Args:
        protocol: question_selection, detection or well_specified.
        setting: zs, cot or fs (fs puts `examples` before the prompt).
        examples: worked (prompt, answer line) pairs for fs.
        seed: recorded in the options (the random reference model reads it).
    """
    if protocol not in SINGLE_TURN_PROTOCOLS:
        raise ValueError(f"protocol must be one of {', '.join(SINGLE_TURN_PROTOCOLS)}; "
                         f"got {protocol!r}")
    if setting not in PROMPT_SETTINGS:
        raise ValueError(f"prompt must be one of {', '.join(PROMPT_SETTINGS)}; got "
                         f"{setting!r}")
    shots = list(examples or []) if setting == "fs" else []

    async def solve(state: TaskState, generate: Generate) -> TaskState:
        meta = state.metadata
        record: dict[str, Any] = sample_problem(meta)
        state.messages = [ChatMessageUser(content=with_examples(state.input_text, shots))]
        writer = EpisodeWriter(protocol, stored_problem(record), state.epoch)
        writer.turns([])
        writer.options({"choices": meta["choices"], "prompt": setting, "seed": seed,
                        "format": "text"})
        message = await generate_turn(state, generate)
        text = message.text if message is not None else ""
        stop = stopped_reason(state, message)  # context overflow, or cut: not read
        if stop == CONTEXT_OVERFLOW:
            drop_from_history(state, message)
        writer.turns([play_reply(protocol, record, meta["choices"], text, stop).to_dict()])
        return state

    return solve
