"""Incomplete questions (protocols §3.7) built from the grade-school story templates.

One record per (seed, index), deterministic: pick a template, instantiate it with seeded
numbers (`infoseek.builders.math.templates`) and reveal every leaf, so the target is Known. Then
pick one revealed goal-relevant leaf as the *condition* and keep it only when the
arithmetic engine confirms that

* with every other leaf revealed and that leaf withheld, the target is not Known, and
* the withheld leaf alone is sufficient for the reduced problem (every value of it makes
  the target Known; in particular its true value restores the answer), i.e. the single
  leaf is a 1-sufficient set.

Templates or draws without such a leaf are retried with the next attempt, and a draw
whose word problem and condition repeat an earlier record's is retried too. Each record

    {"id": "incomplete-math-s0-0000",
     "question": "<every value sentence> <every equation sentence> <question>",
     "condition": "<the withheld leaf's value sentence>",
     "new_question": "<the same word problem without that sentence>",
     "answer": 42,
     "provenance": {"builder", "version", "seed", "index", "attempt", "template",
                    "theme", "condition_variable", "variables", "engine", "observed",
                    "target"}}

`provenance` holds the full problem (every leaf's value in `observed`), so the engine
can re-check a record: see `check_incomplete_record`.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterable
from typing import Any

from infoseek.analysis import is_sufficient
from infoseek.builders.jobs import BuildError, check_ks
from infoseek.builders.math.gsm_text import render_word_problem, value_sentence
from infoseek.builders.math.templates import TEMPLATES, TEMPLATES_CONTENT_HASH, instantiate
from infoseek.domains import BuilderSpec
from infoseek.engines.arith.engine import ArithEngine, encode_rational, parse_rational

SPEC = BuilderSpec(
    name="incomplete-math",
    build=f"{__name__}:build_split",
    version="1.0.0",
    data_hash=TEMPLATES_CONTENT_HASH[:12],
    random_stream="incomplete_math:1.0.0+templates-1.0.0",
    max_k=1, default_ks=(1,), default_per_k=200, max_per_k=2_000,
)
"""The incomplete-questions builder (k = 1: the withheld condition alone is sufficient).
It is no seek builder of the math domain: `infoseek.builders.math.released.incomplete`
serves its records, cached under its name and data version (the templates' hash). The
random stream is the text each record's generator was seeded with when the builder was
called ``incomplete_math`` and its version (then ``1.0.0+templates-1.0.0``) was part of
it, kept so that a seed draws the same problems."""
MAX_ATTEMPTS = 100


def _engine(problem: dict[str, Any], observed: dict[str, Any]) -> ArithEngine:
    return ArithEngine(problem["variables"], problem["engine"]["equations"], observed,
                       problem["target"])


def condition_checks(problem: dict[str, Any], condition: str) -> list[str]:
    """What fails for `condition` as the withheld leaf of `problem` (empty: it is fine).

    `problem` has `variables`, `engine` (arith), `observed` (every leaf) and `target`."""
    errors: list[str] = []
    full = _engine(problem, problem["observed"])
    if condition not in full.leaves:
        return [f"{condition!r} is not a leaf"]
    if condition not in full.goal_relevant_leaves():
        errors.append(f"{condition!r} is not goal-relevant")
    if not full.is_known():
        errors.append("the full problem does not make the target Known")
    reduced_observed = {v: x for v, x in problem["observed"].items() if v != condition}
    reduced = _engine(problem, reduced_observed)
    if reduced.is_known():
        errors.append(f"the target is still Known without {condition!r}")
    if not reduced.is_known({condition: problem["observed"][condition]}):
        errors.append(f"revealing {condition!r} does not make the target Known")
    if not is_sufficient(reduced, [condition]):
        errors.append(f"{condition!r} alone is not sufficient for the reduced problem")
    return errors


def check_incomplete_record(record: dict[str, Any]) -> list[str]:
    """Re-check a built record from scratch with the engine (empty: valid)."""
    prov = record["provenance"]
    condition = prov["condition_variable"]
    errors = condition_checks(prov, condition)
    full = _engine(prov, prov["observed"])
    [value] = full.target_values() or [None]
    if value is None or parse_rational(record["answer"]) != value:
        errors.append("answer differs from the engine's value of the target")
    if record["condition"] not in record["question"]:
        errors.append("the condition sentence is not in the question")
    if record["condition"] in record["new_question"]:
        errors.append("the condition sentence is still in the new question")
    return errors


def _candidate(rng: random.Random) -> dict[str, Any] | None:
    template = TEMPLATES[rng.randrange(len(TEMPLATES))]
    inst = instantiate(template, rng)
    problem = {
        "variables": list(inst["variables"]),
        "engine": {"kind": "arith", "equations": inst["equations"]},
        "observed": {},
        "target": inst["goal"],
    }
    free = _engine(problem, {})
    problem["observed"] = {v: encode_rational(inst["values"][v]) for v in free.leaves}
    relevant = list(free.goal_relevant_leaves())
    rng.shuffle(relevant)
    condition = next((c for c in relevant if not condition_checks(problem, c)), None)
    if condition is None:
        return None
    story = {"observed": problem["observed"], "hidden_world": problem["observed"],
             "engine": problem["engine"], "sentences": inst["sentences"],
             "descriptions": inst["descriptions"], "variables": problem["variables"],
             "target": problem["target"]}
    question = render_word_problem(story)["text"]
    without = dict(story, observed={v: x for v, x in problem["observed"].items()
                                    if v != condition})
    new_question = render_word_problem(without)["text"]
    sentence = value_sentence(story, condition)
    if sentence not in question or sentence in new_question:
        return None
    answer = _engine(problem, problem["observed"]).world_target(problem["observed"])
    if answer.denominator != 1:
        return None
    return {
        "question": question,
        "condition": sentence,
        "new_question": new_question,
        "answer": int(answer),
        "provenance": {"template": inst["template"], "theme": inst["theme"],
                       "condition_variable": condition, **problem},
    }


def build_record(seed: int, index: int, seen: set[tuple[str, str]] | None = None,
                 ) -> dict[str, Any]:
    """One verified record; deterministic in (seed, index) and the `seen` keys (the
    (question, condition) pairs of earlier records, skipped)."""
    for attempt in range(MAX_ATTEMPTS):
        rng = random.Random(f"{SPEC.random_stream}:{seed}:{index}:{attempt}")
        found = _candidate(rng)
        if found is None:
            continue
        key = (found["question"], found["condition"])
        if seen is not None and key in seen:
            continue
        record = {"id": f"{SPEC.name}-s{seed}-{index:04d}", **found}
        record["provenance"] = {"builder": SPEC.name, "version": SPEC.version,
                                "seed": seed, "index": index, "attempt": attempt,
                                **found["provenance"]}
        errors = check_incomplete_record(record)
        if errors:
            raise BuildError(
                f"{record['id']}: the built record fails its checks: {errors}")
        if seen is not None:
            seen.add(key)
        return record
    raise BuildError(f"no incomplete-question record after {MAX_ATTEMPTS} attempts "
                     f"(seed={seed}, index={index})")


def build_split(seed: int = 0, per_k: int = SPEC.default_per_k,
                ks: Iterable[int] = SPEC.default_ks,
                *, workers: int | None = None,
                progress: Callable[[int, int], None] | None = None) -> list[dict[str, Any]]:
    """`per_k` verified records (k = 1 is the only k), in index order, no (question,
    condition) repeated; `workers` is accepted and unused (each record depends on the ones
    before it)."""
    if isinstance(per_k, bool) or not isinstance(per_k, int) or per_k < 1:
        raise ValueError(f"per_k must be a positive integer, got {per_k!r}")
    check_ks(ks, SPEC.max_k, per_k)
    seen: set[tuple[str, str]] = set()
    records = []
    for index in range(per_k):
        records.append(build_record(seed, index, seen))
        if progress:
            progress(index + 1, per_k)
    return records
