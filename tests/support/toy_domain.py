"""A toy domain that lives only in the tests: it joins the suite through the public seam
alone (`infoseek.engines.register_engine` and `infoseek.domains.register_domain`).

A lamp shows one colour, chosen by a few hidden switches (bits, each 0 or 1) through an
explicit lookup table: every full assignment of the relevant bits is one row giving a
colour. Some bits are irrelevant (no row reads them); some relevant ones are observed.
The goal is the colour, a ``choice`` answer among the labels the table uses.

Record form (besides the common fields of docs/contracts.md)::

    "engine": {"kind": "toy-lookup", "inputs": ["bit4", "bit1"],
               "labels": ["red", "green", "blue"],
               "table": {"00": "red", "01": "blue", "10": "green", "11": "green"}}

``inputs`` are the relevant bits in table order; each key of ``table`` is one full
assignment of them written as a string of 0s and 1s in that order; ``labels`` is the
target's domain (its order is the domain order). Every other variable except the target
is a bit that no row reads.

`register()` registers the engine kind and the domain; `unregister()` forgets both
(`infoseek.domains.unregister_domain`, `infoseek.engines.unregister_engine`).
"""

from __future__ import annotations

import itertools
import random
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from infoseek.analysis import (
    is_k_mss,
    minimal_sufficient_sets,
    possible_target_values,
)
from infoseek.domains import BuilderSpec, Domain, Wording, register_domain, unregister_domain
from infoseek.engine import ANY, Assignment, Engine
from infoseek.engines import EngineFormError, register_engine, unregister_engine

KIND = "toy-lookup"
"""The engine kind (not "toy-table": tests/engines/test_engine_registry.py registers a factory of
its own under that kind and leaves it registered, so the two would clash in one run)."""
SPEC = BuilderSpec(
    name="toy-table",
    build=f"{__name__}:build_split",
    version="1.0.0",
    max_k=3, default_ks=(1, 2, 3), default_per_k=2, max_per_k=50,
)
"""The toy builder, declared where it builds (its random stream is its name)."""
DOMAIN_NAME = "toy"
BIT_DOMAIN: tuple[int, ...] = (0, 1)
COLOURS: tuple[str, ...] = ("red", "green", "blue")
TARGET = "colour"
ENTITY = "the lamp"


# ------------------------------------------------------------------------ engine


def row_key(values: Sequence[int]) -> str:
    """A table key: the bits written as 0s and 1s, in input order."""
    return "".join(str(int(v)) for v in values)


class TableEngine(Engine):
    """The colour is ``table[bits of inputs]``; every bit ranges over {0, 1}.

    Feasible worlds: any assignment of the bits, with the colour its table row gives.
    The primitives enumerate the rows of the table that agree with the partial
    assignment (at most 2^len(inputs) of them)."""

    def __init__(self, bits: Sequence[str], inputs: Sequence[str], labels: Sequence[str],
                 table: Mapping[str, str], observed: Mapping[str, Any],
                 target: str = TARGET) -> None:
        self.variables = (*bits, target)
        self.target = target
        self.observed = dict(observed)
        self.inputs = tuple(inputs)
        self.labels = tuple(labels)
        self.table = dict(table)
        self._domains = {**{b: BIT_DOMAIN for b in bits}, target: self.labels}

    def domain(self, var: str) -> tuple[Any, ...]:
        return self._domains[var]

    def _merged(self, assignment: Assignment | None) -> dict[str, Any] | None:
        """Observed values plus `assignment`; None when they clash or leave a domain."""
        merged = dict(self.observed)
        for var, value in (assignment or {}).items():
            if var not in self._domains or value not in self._domains[var]:
                return None
            if var in merged and merged[var] != value:
                return None
            merged[var] = value
        return merged

    def _rows(self, merged: dict[str, Any]) -> list[tuple[dict[str, int], str]]:
        """The table rows (input values, colour) that agree with `merged`."""
        wanted = merged.get(self.target, ANY)
        rows = []
        for values in itertools.product(BIT_DOMAIN, repeat=len(self.inputs)):
            row = dict(zip(self.inputs, values))
            if any(var in merged and merged[var] != value for var, value in row.items()):
                continue
            colour = self.table[row_key(values)]
            if wanted is ANY or colour == wanted:
                rows.append((row, colour))
        return rows

    def target_values(self, assignment: Assignment | None = None) -> frozenset:
        merged = self._merged(assignment)
        if merged is None:
            return frozenset()
        return frozenset(colour for _, colour in self._rows(merged))

    def variable_values(self, var: str, assignment: Assignment | None = None,
                        target_value: Any = ANY) -> frozenset:
        merged = self._merged(assignment)
        if merged is None:
            return frozenset()
        if target_value is not ANY:
            if target_value not in self.labels or merged.get(self.target, target_value) \
                    != target_value:
                return frozenset()
            merged[self.target] = target_value
        rows = self._rows(merged)
        if not rows:
            return frozenset()
        if var == self.target:
            return frozenset(colour for _, colour in rows)
        if var in merged:
            return frozenset((merged[var],))
        if var in self.inputs:
            return frozenset(row[var] for row, _ in rows)
        return frozenset(BIT_DOMAIN)  # a bit no row reads


def engine_from_record(record: dict[str, Any]) -> TableEngine:
    """The engine factory registered for kind `KIND`."""
    spec = record["engine"]
    bits = [v for v in record["variables"] if v != record["target"]]
    return TableEngine(bits, spec["inputs"], spec["labels"], spec["table"],
                       record["observed"], record["target"])


def check_record_form(record: dict[str, Any], names: set[str]) -> None:
    """The record check registered with the engine: the table covers every assignment of
    its inputs once, with known labels; bits and the target's values are in range."""
    spec = record["engine"]
    inputs, labels, table = spec.get("inputs"), spec.get("labels"), spec.get("table")
    if not isinstance(inputs, list) or not all(isinstance(v, str) for v in inputs):
        raise EngineFormError("engine", "needs 'inputs', a list of bit names")
    unknown = [v for v in inputs if v not in names or v == record["target"]]
    if unknown or len(set(inputs)) != len(inputs):
        raise EngineFormError("engine", f"'inputs' must name distinct bits; got {inputs}")
    if not isinstance(labels, list) or not labels or not all(isinstance(v, str)
                                                             for v in labels):
        raise EngineFormError("engine", "needs 'labels', a non-empty list of colours")
    expected = {row_key(v) for v in itertools.product(BIT_DOMAIN, repeat=len(inputs))}
    if not isinstance(table, dict) or set(table) != expected:
        raise EngineFormError("engine", f"'table' must have one row for each of the "
                                        f"{len(expected)} assignments of its inputs")
    strays = sorted({c for c in table.values() if c not in labels}, key=str)
    if strays:
        raise EngineFormError("engine", f"'table' gives colours not in 'labels': {strays}")
    for var, value in record["observed"].items():
        if var == record["target"] or value not in BIT_DOMAIN:
            raise EngineFormError("observed", f"must give bits 0 or 1; {var} = {value!r}")
    values = record.get("target_values")
    if not isinstance(values, list) or not values or any(v not in labels for v in values):
        raise EngineFormError("target_values", "must be a non-empty list of the labels")


# ----------------------------------------------------------------------- builder


def _problem(rng: random.Random, k: int) -> dict[str, Any] | None:
    """One candidate problem of degree `k`, or None when the draw has another degree."""
    n_inputs = min(k + rng.randint(0, 1), SPEC.max_k + 1)
    n_bits = n_inputs + 2
    bits = [f"bit{i}" for i in range(1, n_bits + 1)]
    inputs = rng.sample(bits, n_inputs)
    labels = list(COLOURS[: rng.choice((2, 3))])
    table = {row_key(v): rng.choice(labels)
             for v in itertools.product(BIT_DOMAIN, repeat=n_inputs)}
    shown = rng.sample(inputs, n_inputs - k - rng.randint(0, min(1, n_inputs - k)))
    observed = {b: rng.choice(BIT_DOMAIN) for b in sorted(shown)}
    record: dict[str, Any] = {
        "domain": DOMAIN_NAME,
        "entity": ENTITY,
        "engine": {"kind": KIND, "inputs": inputs, "labels": labels, "table": table},
        "variables": [*bits, TARGET],
        "observed": observed,
        "target": TARGET,
    }
    engine = engine_from_record(record)
    queryable = sorted(b for b in bits if b not in observed)
    if len(engine.target_values()) < 2:
        return None
    result = minimal_sufficient_sets(engine, queryable, SPEC.max_k)
    if result.k != k:
        return None
    family = [list(s) for s in result.family]
    if not all(is_k_mss(engine, s, queryable) for s in family):
        raise AssertionError(f"the MSS search returned a set the validator refuses: {family}")
    canonical = set(family[0])
    record.update({
        "target_values": possible_target_values(engine),
        "queryable": queryable,
        "forbidden": [],
        "alternative_only": sorted({v for s in family[1:] for v in s} - canonical),
        "k": k,
        "mss_family": family,
    })
    return record


def build_split(seed: int, per_k: int, ks: Sequence[int], *, workers: int | None = None,
                progress: Callable[[int, int], None] | None = None) -> list[dict[str, Any]]:
    """`per_k` problems for each k of `ks`, drawn from ``random.Random`` seeded by the
    seed, the k and the index (so k = 1 problems do not depend on which other ks are
    built); `workers` is accepted and unused (the toy is small)."""
    bad = [k for k in ks if k not in SPEC.ks]
    if bad:
        raise ValueError(f"the toy builder makes k in 1..{SPEC.max_k}; got {bad}")
    records: list[dict[str, Any]] = []
    total = per_k * len(ks)
    for k in ks:
        for index in range(per_k):
            rng = random.Random(f"{SPEC.random_stream}:{seed}:{k}:{index}")
            for _attempt in range(1000):
                record = _problem(rng, k)
                if record is not None:
                    break
            else:
                raise ValueError(f"no toy problem of degree {k} found (seed {seed})")
            ordered = {"id": f"{SPEC.name}-k{k}-s{seed}-{index:03d}", **record,
                       "provenance": {"builder": SPEC.name, "version": SPEC.version,
                                      "seed": seed, "index": index}}
            records.append(ordered)
            if progress is not None:
                progress(len(records), total)
    return records


# ----------------------------------------------------------------- rendering


def render(record: dict[str, Any], *, forbid_alternatives: bool = False) -> str:
    """The problem as the model sees it: the table, the bits shown, the bits it may ask."""
    spec = record["engine"]
    inputs = spec["inputs"]
    lines = [f"{ENTITY.capitalize()} shows one colour, set by hidden bits (each 0 or 1). "
             f"Its colour is read from this table, where each row gives "
             f"{', '.join(inputs)} in that order:"]
    lines += [f"  {' '.join(key)} -> {colour}" for key, colour in sorted(spec["table"].items())]
    shown = record["observed"]
    lines.append("Bits shown: " + (", ".join(f"{b} = {v}" for b, v in shown.items())
                                   or "none") + ".")
    askable = [b for b in record["queryable"]
               if not (forbid_alternatives and b in record.get("alternative_only", ()))]
    lines.append("Bits you may ask about: " + ", ".join(askable) + ".")
    lines.append(f"Which colour does {ENTITY} show? One of: "
                 + ", ".join(record["target_values"]) + ".")
    return "\n".join(lines)


# ------------------------------------------------------------------- wording

QUESTION_TEMPLATE = "Question: What is <bit>?"
ANSWER_TEMPLATE = "Answer: <colour>"


def reply(entity: str, variable: str, value: Any) -> str:
    """The examiner's answer: the bit's value."""
    return f"{variable} = {value}"


WORDING = Wording(
    noun="bit",
    intro=("You are reading a lamp whose colour depends on hidden bits. Some bits are "
           "not shown; you can ask an examiner for them. Ask only for what you need, then "
           "say the colour."),
    tool_rules=("Each turn, either call the `ask` tool with one bit name (at most "
                "{per_turn} call(s) per turn), or call the `answer` tool with the colour "
                "{entity} shows. Answering ends the episode."),
    text_rules=("Each turn, end your message with question lines, one per bit (at most "
                "{per_turn} per turn), written like\n{question_template}\nwith the bit's "
                "name in place of <bit>, or with one final answer line written like\n"
                "{answer_template}\nwith the colour in place of <colour>. Giving an "
                "answer ends the episode."),
    question_template=QUESTION_TEMPLATE,
    answer_template=ANSWER_TEMPLATE,
    reminder_text=(f"End your message with question line(s) like `{QUESTION_TEMPLATE}` or "
                   "with one line starting with `Answer:` and the colour."),
    reminder_tool="Call `ask` with a bit name, or `answer` with the colour.",
    k_prediction=("Read the problem below. Do not solve it. Decide how many more bits of "
                  "{entity} must be revealed, at the least, before its colour is settled "
                  "whatever their values.\n\n{problem}\n\nEnd with one line that is exactly "
                  "one of:\n{options}"),
    mss_identification=("Read the problem below. Name the smallest set of bits whose "
                        "values settle the colour whatever they are. {size_rule}\n\n"
                        "{problem}\n\nEnd with one line listing the bit names separated "
                        "by commas, like:\nAnswer: bit1, bit2"),
    size_given="Exactly {k} bit(s) are needed.",
    size_free="Name between 1 and {max_size} bits.",
    reply=reply,
    unsure="I am not sure about {variable}.",
)


def domain(answer_kind: str = "choice") -> Domain:
    """The toy domain's declaration."""
    return Domain(
        name=DOMAIN_NAME,
        answer_kind=answer_kind,
        wording=WORDING,
        builders=(SPEC,),
        renderers={"seek": render},
    )


DOMAIN = domain()


def register() -> None:
    """Join the suite: the engine kind and the domain, one line each."""
    register_engine(KIND, engine_from_record, check_record_form)
    register_domain(DOMAIN_NAME, DOMAIN)


def unregister() -> None:
    """Forget the domain and the engine kind."""
    unregister_domain(DOMAIN_NAME)
    unregister_engine(KIND)
