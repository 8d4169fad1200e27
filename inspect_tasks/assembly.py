"""Task assembly for every domain: the thin task files call these with a builder name
from `infoseek.domains` and their checked `-T` parameters.

    params = checked_parameters("logic-mt", k=k, per_k=per_k, ...)
    return seek_task("logic_mt", "logic-mt", params)

`checked_parameters` checks every parameter at once (`infoseek.inspect_tasks.task_parameters`)
against the builder's k range and the domain's oracles and fills in the builder's
defaults; `task_records` loads the records (`infoseek.builders.datasets.domain_records`), turning
a bad file into a one-line error; the task functions pick the domain's renderer, build
the samples (`infoseek.solvers.dataset`) and put solver and scorers together. Nothing here names
a domain.

Every task carries a version (Inspect's `Task(version=...)`, `eval.task_version` in the
log): the suite's eval version and the data it runs on, ``"2-A/logic-mt@1.1.0"``
(`registered_task_version`; the format is `infoseek.inspect_tasks.versions`).
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import fields
from pathlib import Path
from typing import Any

from inspect_ai import Task
from inspect_ai.dataset import MemoryDataset, Sample

from infoseek.builders.datasets import domain_records, full_information_records
from infoseek.builders.published import INPUTS
from infoseek.builders.published.reading import is_url, resolve_source, source_name
from infoseek.contract import OFFERS_UNDETERMINED, TASK_SOURCE
from infoseek.domains import Domain, get_builder
from infoseek.inspect_tasks.task_errors import DataFileError, readable_data_errors
from infoseek.inspect_tasks.task_parameters import (
    TaskParameterError,
    check_choice,
    check_parameters,
)
from infoseek.inspect_tasks.unanswerable import (
    UNDETERMINED_LINES,
    checked_unanswerable,
    with_unanswerable,
)
from infoseek.inspect_tasks.versions import task_version
from infoseek.inspect_tasks.viewer import viewer_arguments
from infoseek.jsonl import dumps_record
from infoseek.oracles import ORACLE_POLICIES, WITHHOLDING_ALL_POLICY, WITHHOLDING_POLICY
from infoseek.records import RecordError, check_shape
from infoseek.scorers.problem_level import k_prediction_scorer, mss_identification_scorer
from infoseek.scorers.seek import seek_scorers
from infoseek.solvers.dataset import memory_dataset, problem_samples, seek_samples
from infoseek.solvers.problem_level.game import ProblemLevelOptions
from infoseek.solvers.problem_level.solver import problem_level_solver
from infoseek.solvers.seek.game import SeekOptions
from infoseek.solvers.seek.prompts import K_PREDICTION_MAX
from infoseek.solvers.seek.solver import seek_solver
from infoseek.solvers.seek.tools import agent_message_limit, seek_agent_solver, seek_setup

SEEK_PLAYERS: tuple[str, ...] = ("loop", "react")
"""Who plays a seek task's episode (`-T solver=`): the built-in loop, or Inspect's `react()`
agent through the real `ask` / `answer` tools (`infoseek.solvers.seek.tools`)."""


def registered_task_version(builder: str) -> str:
    """The version of a task over the registered builder `builder`: the eval version and
    the builder's data version (``"2-A/logic-mt@1.1.0"``; `versions.task_version`)."""
    return task_version(builder, get_builder(builder)[1].data_version)


def accepted_oracles(domain: Domain) -> tuple[str, ...]:
    """The oracle policies `domain`'s seek tasks accept, the first the default: its
    declaration's, else every policy of the oracle table; the withholding oracle and its
    "or none" variant (`infoseek.oracles.withholding`) in every domain."""
    declared = domain.oracles if domain.oracles is not None else ORACLE_POLICIES
    return (*declared, *(name for name in (WITHHOLDING_POLICY, WITHHOLDING_ALL_POLICY)
                         if name not in declared))


def check_every_route_closable(builder: str, records: list[dict[str, Any]]) -> None:
    """`-T oracle=withholding_all` keeps the target open exactly only where its target
    has two values and the oracle may choose its replies (no hidden world): there an open
    state allows both values, so the oracle can always reply within one
    (`infoseek.oracles.policies`). Elsewhere a `TaskParameterError` in one line."""
    if all(len(r.get("target_values") or ()) == 2 and "hidden_world" not in r
           for r in records):
        return
    raise TaskParameterError(f"-T oracle=withholding_all needs problems whose target has two "
                             f"values and no hidden world (logic_mt); the {builder} "
                             "problems do not have that: use -T oracle=withholding")


def checked_parameters(builder: str, **params: Any) -> dict[str, Any]:
    """The task's `-T` parameters checked and normalised (`k` a sorted list, `per_k` the
    builder's default when None, at most the builder's cap `max_per_k`); raises
    `TaskParameterError` naming the bad one."""
    domain, spec = get_builder(builder)
    if params.get("per_k", 0) is None:
        params["per_k"] = spec.default_per_k
    return check_parameters(max_k=spec.max_k, oracles=accepted_oracles(domain),
                            max_per_k=spec.max_per_k, **params)


def task_records(builder: str, params: dict[str, Any]) -> list[dict[str, Any]]:
    """The records a task runs on (`infoseek.builders.datasets.domain_records`); a file that
    cannot be read is a one-line error (`infoseek.inspect_tasks.task_errors`). A released file's
    extra inputs (`infoseek.builders.published.INPUTS`, e.g. ``params["rules"]``) go with it. A
    callable
    ``params["select"]`` keeps only the records it accepts (a task's own filter, e.g. one
    problem family of a builder that makes several)."""
    with readable_data_errors():
        records = domain_records(builder, ks=params["k"], per_k=params.get("per_k"),
                                 seed=params.get("seed", 0), source=params.get("source"),
                                 source_format=params.get("source_format"),
                                 limit=params.get("limit"),
                                 inputs={name: params.get(name) for name in INPUTS})
        where = params.get("source") or f"the {builder} builder"
        for index, record in enumerate(records, 1):
            check_shape(record, f"{where}: problem {index}")
    select = params.get("select")
    return records if select is None else [r for r in records if select(r)]


def source_metadata(source: Any, records: list[dict[str, Any]]) -> dict[str, Any]:
    """``{TASK_SOURCE: {...}}`` for a task that read `source` (`infoseek.contract.TASK_SOURCE`:
    the file's name, the SHA-256 of its bytes, or of the `records` read when it is a URL,
    and the source format of its rows), so the report never pools runs on two files;
    ``{}`` for a built split."""
    if not source:
        return {}
    where = resolve_source(source)
    if is_url(where):
        digest = hashlib.sha256("\n".join(dumps_record(r) for r in records).encode())
        of = "records"
    else:
        digest = hashlib.sha256(Path(where).read_bytes())
        of = "file"
    formats = sorted({str((r.get("provenance") or {}).get("format") or "records")
                      for r in records if isinstance(r, dict)})
    return {TASK_SOURCE: {"file": source_name(where), "sha256": digest.hexdigest(),
                          "sha256_of": of, "format": ", ".join(formats) or "records"}}


@contextmanager
def located_errors(params: dict[str, Any]) -> Iterator[None]:
    """A `RecordError` raised while the samples are made (a record its renderer cannot
    show, a family that pins no value) as a one-line `DataFileError` that names the
    source file and, for our JSONL records, the line of the record."""
    try:
        yield
    except RecordError as exc:
        source = params.get("source")
        where = f"{source}: " if source else ""
        line = record_line(source, exc) if source else None
        if line is not None:
            where = f"{source}:{line}: "
        raise DataFileError(f"{where}{exc}") from None


def record_line(source: str, error: RecordError) -> int | None:
    """The line of a local JSONL `source` holding the record an error names (looked up
    only when there is an error to report), or None."""
    record_id = getattr(error, "record_id", None)
    path = Path(source)
    if record_id is None or not path.is_file() or path.suffix.lower() != ".jsonl":
        return None
    with open(path, "rb") as fh:
        for lineno, raw in enumerate(fh, 1):
            try:
                if json.loads(raw).get("id") == record_id:
                    return lineno
            except (ValueError, AttributeError):
                continue
    return None


def samples_dataset(samples: list[Sample], name: str) -> MemoryDataset:
    """The task's dataset; no sample at all (every record filtered out or dropped) is a
    one-line error at task load, never an eval that runs nothing and exits 0."""
    if not samples:
        raise DataFileError(f"{name}: no samples to run (the records chosen by the "
                            "parameters give no task instance; check k, family/target, "
                            "distractors or the source file)")
    return memory_dataset(samples, name)


def _render(builder: str, renderer: str, forbid_alternatives: bool):
    domain, _ = get_builder(builder)
    render = domain.renderer(renderer)
    return lambda record: render(record, forbid_alternatives=forbid_alternatives)


def offered_options(params: dict[str, Any], options_type: type) -> dict[str, Any]:
    """The checked parameters that name a field of `options_type` (a protocol's options,
    e.g. `SeekOptions`): the options the task offers. An option a task does not offer
    keeps the default of its options type, the one place it is written."""
    return {option.name: params[option.name] for option in fields(options_type)
            if option.name in params}


def seek_options(builder: str, params: dict[str, Any], records: list[dict[str, Any]], *,
                 full_information: bool = False) -> SeekOptions:
    """The seek options of a task, made once from its checked `params`: the options they
    name (`offered_options`), with the domain's first oracle when they name none. Full
    information asks one variable per turn with no budget line and no force-ask, and
    replies from the hidden world when every one of the task's `records` holds one."""
    given = offered_options(params, SeekOptions)
    given["oracle"] = params.get("oracle") or accepted_oracles(get_builder(builder)[0])[0]
    if full_information:
        given.update(queries_per_turn=1, budget=False, force_ask=False)
        if all("hidden_world" in r for r in records):
            given["oracle"] = "world"  # else each record gives one observed world per value
    return SeekOptions(**given)


def seek_task(name: str, builder: str, params: dict[str, Any], *, renderer: str = "seek",
              full_information: bool = False, unanswerable: Any = 0,
              player: str = "loop") -> Task:
    """The seek loop (protocols §3.1) over the builder's records, with the options
    `params` name (`seek_options`). `full_information`: every hidden value is revealed
    first (records with a hidden world), so the model can answer at once: the reasoning
    upper bound. `unanswerable`: the share of problems no question can settle mixed in
    (`infoseek.inspect_tasks.unanswerable`; 0: none). `player`: who plays the episode
    (`SEEK_PLAYERS`). The task's setup starts each sample's
    episode (`seek_setup`), so ``task_with(task, solver=...)`` keeps it."""
    player = check_choice("solver", player, SEEK_PLAYERS)
    share = checked_unanswerable(unanswerable, builder, params.get("source"))
    records = task_records(builder, params)
    options = seek_options(builder, params, records, full_information=full_information)
    if options.oracle == WITHHOLDING_ALL_POLICY:
        check_every_route_closable(builder, records)
    if full_information:
        records = [full for r in records for full in full_information_records(r)]
    forbid = options.forbid_alternatives
    with located_errors(params):
        samples = seek_samples(records, _render(builder, renderer, forbid),
                               forbid_alternatives=forbid)
    samples = with_unanswerable(samples, builder, share, seed=params.get("seed", 0),
                                fmt=options.format, render=_render(builder, renderer, forbid),
                                forbid_alternatives=forbid, select=params.get("select"))
    if share:  # every sample, ordinary ones too: the answer form is offered to all
        for sample in samples:
            sample.metadata = {**(sample.metadata or {}), OFFERS_UNDETERMINED: True}
    if options.oracle == WITHHOLDING_ALL_POLICY and not share:
        for sample in samples:  # "cannot be determined" is the right answer: show its form
            sample.input = f"{sample.input}\n\n{UNDETERMINED_LINES[options.format]}"
    kind = "full_information" if full_information else "seek"
    agent = player == "react"
    return Task(dataset=samples_dataset(samples, name), setup=seek_setup(options),
                solver=seek_agent_solver(options) if agent else seek_solver(options),
                **({"message_limit": agent_message_limit(options)} if agent else {}),
                scorer=seek_scorers(withholding=options.oracle in (WITHHOLDING_POLICY,
                                                                   WITHHOLDING_ALL_POLICY),
                                    undetermined=share > 0),
                metadata={"report": kind, **source_metadata(params.get("source"), records)},
                name=name, version=registered_task_version(builder), **viewer_arguments(kind))


def k_prediction_task(name: str, builder: str, params: dict[str, Any], *,
                      renderer: str = "seek") -> Task:
    """k-prediction (protocols §3.2); the prompt offers every count up to the largest k asked
    for (at least 1..4)."""
    options = ProblemLevelOptions("k_prediction", max_k=max(K_PREDICTION_MAX, *params["k"]),
                                  **offered_options(params, ProblemLevelOptions))
    records = task_records(builder, params)
    with located_errors(params):
        samples = problem_samples(records,
                                  _render(builder, renderer, options.forbid_alternatives))
    return Task(dataset=samples_dataset(samples, name), solver=problem_level_solver(options),
                metadata={"report": "k_prediction",
                          **source_metadata(params.get("source"), records)},
                scorer=k_prediction_scorer(), name=name, version=registered_task_version(builder),
                **viewer_arguments("k_prediction"))


def mss_task(name: str, builder: str, params: dict[str, Any], *,
             renderer: str = "seek") -> Task:
    """MSS identification (protocols §3.3): against the canonical MSS when alternatives are
    forbidden, else any MSS of the family counts."""
    options = ProblemLevelOptions("mss_identification",
                                  **offered_options(params, ProblemLevelOptions))
    forbid = options.forbid_alternatives
    records = task_records(builder, params)
    with located_errors(params):
        samples = problem_samples(records, _render(builder, renderer, forbid),
                                  extra_metadata={"forbid_alternatives": forbid})
    return Task(dataset=samples_dataset(samples, name), solver=problem_level_solver(options),
                metadata={"report": "mss", **source_metadata(params.get("source"), records)},
                scorer=mss_identification_scorer(canonical_only=forbid), name=name,
                version=registered_task_version(builder), **viewer_arguments("mss"))
