"""Twenty Questions (protocols §5.6): the open game over the project's pools, and the
attribute table as a CSP for k-prediction and MSS identification.

    inspect eval inspect_tasks/twenty_questions.py --model infoseek/optimal
    inspect eval infoseek/twenty_questions --model openai/gpt-4o -T pool=thing \\
        --model-role examiner=openai/gpt-4o-mini --model-role evaluator=openai/gpt-4o-mini \\
        --model-role transfer=openai/gpt-4o
    inspect eval infoseek/twenty_questions_k_prediction --model infoseek/optimal

    inspect eval infoseek/twenty_questions --model openai/gpt-4o -T pool=paper_common \
        --model-role examiner=openai/gpt-4o-mini --model-role evaluator=openai/gpt-4o-mini
    inspect eval infoseek/twenty_questions --model openai/gpt-4o -T source=targets.txt \
        -T pool=candidates.json

Tasks: `twenty_questions` (the game: free-text yes/no questions, a final guess, an
examiner, an offline evaluator, trace transfer; one sample per target of the pool; the
pool a shipped one, the paper's lists or name-list files),
`twenty_questions_k_prediction` and `twenty_questions_mss` (problem level, over CSP
problems drawn from the common pool: some attributes of X revealed, k more needed).
"""


import hashlib
from pathlib import Path
from typing import Any

from inspect_ai import Task, task
from inspect_ai.dataset import Sample

from infoseek.builders.twenty_questions import builder
from infoseek.builders.twenty_questions.pools import (
    PAPER_POOLS,
    POOL_NAMES,
    ListPool,
    Pool,
    PoolFileError,
    file_hash,
    get_pool,
    list_pool,
    missing_rows_line,
    paper_pool,
    pools_content_hash,
    read_name_list,
)
from infoseek.contract import TASK_SOURCE
from infoseek.inspect_tasks.assembly import (
    checked_parameters,
    k_prediction_task,
    mss_task,
)
from infoseek.inspect_tasks.inspect_private import given_model_roles
from infoseek.inspect_tasks.task_parameters import TaskParameterError, check_parameters
from infoseek.inspect_tasks.task_tags import tagged
from infoseek.inspect_tasks.versions import task_version
from infoseek.inspect_tasks.viewer import viewer_arguments
from infoseek.scorers.twenty_questions import twenty_questions_scorer
from infoseek.solvers.dataset import memory_dataset
from infoseek.solvers.twenty_questions.game import (
    LABEL_BATCH,
    MAX_TURNS,
    TwentyQuestionsOptions,
)
from infoseek.solvers.twenty_questions.solver import (
    EVALUATOR_ROLE,
    EXAMINER_ROLE,
    twenty_questions_solver,
)
from infoseek.stored_forms import metadata_problem

POOL_CHOICES = (*POOL_NAMES, *PAPER_POOLS)
"""The pools a name gives; any other `pool` value is a candidates file."""


def game_samples(pool: str, source: str | None = None) -> list[Sample]:
    """One sample per target of the pool (`game_pool`); the record (hidden target
    included) rides in the metadata, the solver writes the prompt itself."""
    return pool_samples(*game_pool(pool, source))


def pool_samples(chosen: Pool, provenance: dict[str, Any]) -> list[Sample]:
    """One sample per target of `chosen`, its records carrying `provenance`."""
    return [Sample(id=r["id"], input=f"Twenty Questions over the {chosen.name} pool.",
                   target=r["answer"],
                   metadata={"problem": metadata_problem(r), "pool": chosen.name})
            for r in builder.pool_records(chosen, provenance)]


def _names(path: str, name: str) -> tuple[list[str], dict[str, str]]:
    file = Path(path)
    if not file.is_file():
        raise TaskParameterError(f"-T {name}={path}: no such file (give a JSON list of names "
                                 "or a text file with one name per line)")
    try:
        names = read_name_list(file)
    except PoolFileError as error:
        raise TaskParameterError(f"-T {name}: {error}") from None
    return names, {name: file.name, f"{name}_sha256": file_hash(file)}


def game_pool(pool: str, source: str | None = None) -> tuple[Pool, dict[str, Any]]:
    """The pool a game runs over and the provenance its records carry: a shipped pool
    (`POOL_NAMES`) as it is, the paper's lists (`PAPER_POOLS`), or a candidates file;
    `source` (a targets file) replaces the pool's targets."""
    provenance: dict[str, Any] = {"pools": pools_content_hash()}
    targets = None
    if source is not None:
        targets, found = _names(source, "source")
        provenance.update(found)
    if pool in POOL_NAMES:
        shipped = get_pool(pool)
        if targets is None:
            return shipped, provenance
        return list_pool(pool, targets, [c.name for c in shipped.candidates]), provenance
    if pool in PAPER_POOLS:
        made = paper_pool(pool, targets)
        return made, {**provenance, **dict(made.provenance)}
    candidates, found = _names(pool, "pool")
    name = builder._slug(Path(pool).stem) or "list"
    return list_pool(name, targets if targets is not None else candidates, candidates), {
        **provenance, **found}


def list_source_metadata(pool: str, source: str | None) -> dict[str, Any]:
    """``{TASK_SOURCE: {...}}`` for a game over name-list files (`infoseek.contract.TASK_SOURCE`,
    the keys `infoseek.inspect_tasks.assembly.source_metadata` writes for other tasks), so
    the report never pools runs on two lists; ``{}`` for a shipped pool or the paper's
    lists without ``-T source=``. ``files`` holds each file read (``-T source=`` first,
    then ``-T pool=``): its parameter, name and the SHA-256 of its bytes. ``file`` and
    ``sha256`` are those of the one file, or for two the names joined by `` + `` and the
    SHA-256 of their two digests, one a line (``sha256_of`` says which); ``format`` is
    ``names`` (a name list)."""
    read = [(name, Path(value)) for name, value in (("source", source), ("pool", pool))
            if value is not None and not (name == "pool" and value in POOL_CHOICES)]
    if not read:
        return {}
    files = [{"parameter": name, "file": path.name,
              "sha256": hashlib.sha256(path.read_bytes()).hexdigest()} for name, path in read]
    if len(files) == 1:
        file, digest, of = files[0]["file"], files[0]["sha256"], "file"
    else:
        file = " + ".join(f["file"] for f in files)
        digest = hashlib.sha256("".join(f["sha256"] + "\n" for f in files).encode()).hexdigest()
        of = "files"
    return {TASK_SOURCE: {"file": file, "sha256": digest, "sha256_of": of, "format": "names",
                          "files": files}}


def check_rows(chosen: Pool, pool: str, roles: set[str]) -> None:
    """Refuse, before any sample runs, a pool with candidates the table holds no row for
    when no evaluator model is bound to label them, and with such targets when no
    examiner model is bound to answer for them."""
    if not isinstance(chosen, ListPool):
        return
    if chosen.missing and EVALUATOR_ROLE not in roles:
        raise TaskParameterError(
            f"twenty_questions -T pool={pool}: {missing_rows_line(chosen)}: bind an "
            f"evaluator model to label them (--model-role {EVALUATOR_ROLE}=...) or give "
            "candidates the attribute table holds")
    if chosen.missing_targets and EXAMINER_ROLE not in roles:
        shown = ", ".join(chosen.missing_targets[:5])
        raise TaskParameterError(
            f"twenty_questions -T pool={pool}: {len(chosen.missing_targets)} targets have no "
            f"table row ({shown}{', ...' if len(chosen.missing_targets) > 5 else ''}): bind "
            f"an examiner model to answer for them (--model-role {EXAMINER_ROLE}=...)")


@task
@tagged("twenty_questions")
def twenty_questions(
    pool: str = "common",
    max_turns: int = MAX_TURNS,
    label_batch: int = LABEL_BATCH,
    seed: int = 0,
    source: str | None = None,
) -> Task:
    """Find the hidden thing with yes/no questions, then guess it (protocols §5.6).

    Args:
        pool: which targets and candidates the game uses (common: 111 targets scored over
            the table's animals, places, food and objects; thing: a THING200-like mix of
            objects, food, animals, plants and people, every candidate a target;
            paper_common, paper_thing: the MT-InfoSeek lists; or a candidates file, a JSON
            list of names or one name per line; default common).
        max_turns: most turns the model gets (>= 1; default 20; the last one a guess).
        label_batch: candidates per evaluator call when an evaluator model labels the
            questions (>= 1; default 25).
        seed: the random seed (recorded in the options; the game records do not depend on it;
            default 0).
        source: a file of problem records, instead of a built split (here a targets file:
            a JSON list of names or one name per line, in place of the pool's targets;
            default none). Candidates the attribute table holds no row for
            need an evaluator model, such targets an examiner model.
    """
    check_parameters(max_turns=max_turns, label_batch=label_batch, seed=seed, source=source)
    if not isinstance(pool, str) or not pool.strip():
        raise TaskParameterError(f"-T pool must be one of {', '.join(POOL_CHOICES)} or a "
                                 f"candidates file; got {pool!r}")
    if pool not in POOL_CHOICES and not Path(pool).is_file():
        raise TaskParameterError(f"-T pool must be one of {', '.join(POOL_CHOICES)} or a "
                                 f"candidates file; got {pool!r} (no such file)")
    options = TwentyQuestionsOptions(max_turns=max_turns, label_batch=label_batch, seed=seed)
    chosen, provenance = game_pool(pool, source)
    check_rows(chosen, pool, set(given_model_roles()))
    return Task(dataset=memory_dataset(pool_samples(chosen, provenance),
                                       f"twenty_questions_{chosen.name}"),
                solver=twenty_questions_solver(options),
                metadata={"report": "twenty_questions", **list_source_metadata(pool, source)},
                scorer=twenty_questions_scorer(), name="twenty_questions",
                version=task_version(builder.SPEC.name, builder.SPEC.data_version),
                **viewer_arguments("twenty_questions"))


@task
@tagged("twenty_questions")
def twenty_questions_k_prediction(
    k: int | list[int] = [1, 2, 3, 4],
    per_k: int = 10,
    seed: int = 0,
) -> Task:
    """State how many more attributes of X are needed before the candidates left are
    down to one (protocols §3.2).

    Args:
        k: degrees of underspecification to include (1..4; an int or a list; default [1,2,3,4]).
        per_k: problems built per k (CSP problems; >= 1; default 10).
        seed: the random seed (of the builder; an integer; default 0).
    """
    params = checked_parameters(builder.SPEC.name, k=k, per_k=per_k, seed=seed)
    return k_prediction_task("twenty_questions_k_prediction", builder.SPEC.name, params)


@task
@tagged("twenty_questions")
def twenty_questions_mss(
    k: int | list[int] = [1, 2, 3, 4],
    per_k: int = 10,
    seed: int = 0,
    k_given: bool = False,
    max_size: int = 4,
) -> Task:
    """Name a smallest set of attributes whose values settle which candidate X is
    (protocols §3.3); any set of the MSS family counts.

    Args:
        k: degrees of underspecification to include (1..4; an int or a list; default [1,2,3,4]).
        per_k: problems built per k (CSP problems; >= 1; default 10).
        seed: the random seed (of the builder; an integer; default 0).
        k_given: tell the model the set has exactly k variables (here attributes; true/false;
            default false: it names between 1 and max_size).
        max_size: most variables it may name when k is not given (here attributes; >= 1; default 4).
    """
    params = checked_parameters(builder.SPEC.name, k=k, per_k=per_k, seed=seed,
                                k_given=k_given, max_size=max_size)
    return mss_task("twenty_questions_mss", builder.SPEC.name, params)
