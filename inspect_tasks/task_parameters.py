"""Checking `-T` task parameters: one place, one clear line per bad value.

`inspect eval` parses every `-T` value as YAML, so a parameter may arrive as any type
(`-T k=abc` is the string "abc", `-T budget=banana` the string "banana", `-T k=[9]` a
list). Each task hands its parameters to `check_parameters`, which checks each one by
its name (`RULES`) and returns them normalised (`k` becomes a sorted list). A bad value
raises `TaskParameterError` naming the parameter, what is allowed and what was given;
it is an Inspect `PrerequisiteError`, so `inspect eval` prints that message alone and
exits non-zero, and a `ValueError`, so callers of the task functions catch it as before.

The oracles a task accepts are its domain's (`infoseek.domains.Domain.oracles`), passed
in as `oracles` (`infoseek.inspect_tasks.assembly.checked_parameters`).

Every value is type-checked before it is used, whatever YAML made of it (a list, a dict,
null, a float, a boolean where a number is wanted): a choice parameter (`-T family=`,
`-T book=`, `-T prompt=`) goes through `check_choice`, never a dict lookup. Sizes are
capped, so that no value makes a task build or play without end: `per_k` at the
builder's cap (`infoseek.domains.BuilderSpec.max_per_k`, the one `infoseek build` uses;
passed in as `max_per_k`), the counts and turn caps in `CAPS`, a seed within a signed
64-bit integer (`SEED_LIMIT`). `force_ask=true` needs turns enough to ask k questions
(`max_turns * queries_per_turn >= k`), or it could never be satisfied.

A `-T` parameter a task does not take is refused too (`UnknownParameterError`, before
the task is built; Inspect only warns), in one line naming the parameter, the task, the
closest parameter (`per_K`: `per_k`), the tasks of the same file that take it, and the
task's parameters: for the suite's and installed plug-ins' tasks, by name or file
(`_registry.REGISTERED_TASKS`; how: `inspect_private.on_unused_task_parameter`).

One parameter every such task takes outside its signature: ``-T shard=i/n``
(`infoseek.shards`) keeps the i-th of n balanced shares of the samples, by a stable hash
of each sample id, so n runs anywhere cover the task once (`infoseek merge` joins them).
Inspect leaves it out of the call like any parameter the signature lacks;
`refuse_unknown_parameter` takes it instead, refuses a bad value in one line, and has
the made task keep its share (`shard_task`; how: `inspect_private.after_task_created`).
"""

from __future__ import annotations

import difflib
import inspect
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from inspect_ai import Task
from inspect_ai.dataset import MemoryDataset

from infoseek.builders.published import INPUTS, source_format_names
from infoseek.builders.published.sources import RECORDS_SOURCE_FORMAT
from infoseek.contract import INTERACTION_FORMATS
from infoseek.inspect_tasks.inspect_private import (
    after_task_created,
    created_task_argument,
    given_model_roles,
    on_unused_task_parameter,
    record_task_arguments,
)
from infoseek.inspect_tasks.task_errors import PlainTaskError
from infoseek.shards import SHARD_PARAMETER, Shard, ShardError, parse_shard, shard_members
from infoseek.solvers.dataset import parse_k_values


class TaskParameterError(PlainTaskError):
    """A `-T` parameter with a value the task cannot use."""


class UnknownParameterError(TaskParameterError):
    """A `-T` parameter the task does not take."""


def _bad(name: str, allowed: str, value: Any) -> TaskParameterError:
    return TaskParameterError(f"-T {name} must be {allowed}; got {shown(value)}")


def shown(value: Any, limit: int = 80) -> str:
    """``repr(value)`` cut to `limit` characters (a huge YAML number has no repr: Python
    refuses to print an integer of more than 4,300 digits)."""
    try:
        text = repr(value)
    except ValueError:
        return f"an integer of about {value.bit_length() * 0.30103:.0f} digits"
    return text if len(text) <= limit else text[: limit - 3] + "..."


def _is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


SEED_LIMIT = 2**63 - 1
"""The largest seed magnitude (a signed 64-bit integer; a 5,000-digit YAML number would
otherwise fail where the seed is printed)."""

CAPS: dict[str, int] = {
    "max_turns": 1_000,
    "queries_per_turn": 1_000,
    "max_size": 1_000,
    "max_interactions": 1_000,
    "count": 2_000,
    "label_batch": 1_000,
    "limit": 10_000_000,
}
"""The largest value of each size-like parameter (`per_k`'s cap is the builder's)."""


def _integer(name: str, value: Any) -> int:
    if not _is_int(value):
        raise _bad(name, "an integer", value)
    if abs(value) > SEED_LIMIT:
        raise _bad(name, "an integer from -(2**63 - 1) to 2**63 - 1", value)
    return value


def _in_range(name: str, value: Any, low: int, cap: int | None) -> int:
    if cap is None:
        cap = CAPS.get(name)
    if not _is_int(value) or value < low:
        raise _bad(name, f"an integer >= {low}", value)
    if cap is not None and value > cap:
        raise _bad(name, f"an integer from {low} to {cap} (the cap for this task)", value)
    return value


def _positive(name: str, value: Any, cap: int | None = None) -> int:
    return _in_range(name, value, 1, cap)


def _non_negative(name: str, value: Any) -> int:
    return _in_range(name, value, 0, None)


def _flag(name: str, value: Any) -> bool:
    if not isinstance(value, bool):
        raise _bad(name, "true or false", value)
    return value


def _optional_text(name: str, value: Any) -> str | None:
    if value is None:
        return None
    if not isinstance(value, str) or not value.strip():
        raise _bad(name, "a file path or URL", value)
    return value.strip()


def _source_format(name: str, value: Any) -> str | None:
    if value is None or (isinstance(value, str) and not value.strip()):
        return None
    if not isinstance(value, str):
        choices = (*source_format_names(), RECORDS_SOURCE_FORMAT)
        raise _bad(name, f"one of {', '.join(choices)}", value)
    return value.strip()  # the domain's source formats are checked with the file


def _optional_folder(name: str, value: Any) -> str | None:
    if value is None:
        return None
    if not isinstance(value, str) or not value.strip():
        raise _bad(name, "a folder path", value)
    return value.strip()  # the source format checks the folder with the file


def _interaction_format(name: str, value: Any) -> str:
    if value in INTERACTION_FORMATS:
        return value  # (listing the source formats would import every domain)
    if value in source_format_names() or value == RECORDS_SOURCE_FORMAT:
        raise TaskParameterError(
            f"-T {name}={value} is a source format (a data file's layout): pass it as "
            f"source_format={value} (format= chooses the interaction: "
            f"{' or '.join(INTERACTION_FORMATS)})")
    raise _bad(name, f"one of {', '.join(INTERACTION_FORMATS)}", value)


RULES: dict[str, Callable[[str, Any], Any]] = {
    "per_k": _positive,
    "seed": _integer,
    "format": _interaction_format,
    "max_turns": _positive,
    "queries_per_turn": _positive,
    "max_size": _positive,
    "limit": lambda name, value: None if value is None else _positive(name, value),
    "count": _positive,
    "label_batch": _positive,
    "max_interactions": _non_negative,
    "budget": _flag,
    "force_ask": _flag,
    "carry_reasoning": _flag,
    "forbid_alternatives": _flag,
    "k_given": _flag,
    "mix_well_specified": _flag,
    "source": _optional_text,
    "source_format": _source_format,
    **{name: _optional_folder for name in INPUTS},  # a source format's extra inputs
}


def check_choice(name: str, value: Any, allowed: Sequence[Any]) -> Any:
    """`value` if it is one of `allowed` (strings, or integers: a boolean or float is never
    an integer choice); a one-line `TaskParameterError` otherwise, whatever its type."""
    options = list(allowed)
    kinds = (int,) if all(_is_int(a) for a in options) else (str,)
    if (not isinstance(value, kinds) or isinstance(value, bool)
            or all(value != a for a in options)):
        names = [str(a) for a in options]
        wanted = names[0] if len(names) == 1 else f"one of {', '.join(names)}"
        raise _bad(name, wanted, value)
    return value


def check_parameters(*, max_k: int | None = None, oracles: Sequence[str] | None = None,
                     choices: dict[str, Sequence[Any]] | None = None,
                     max_per_k: int | None = None, **params: Any) -> dict[str, Any]:
    """`params` checked and normalised: `k` against 1..`max_k` (a sorted list), `oracle`
    against `oracles`, a parameter named in `choices` against its allowed values, `per_k`
    against 1..`max_per_k`, every other one by its rule in `RULES` (sizes capped by
    `CAPS`). `source_format` and a source format's extra inputs
    (`infoseek.builders.published.INPUTS`: `rules`) need `source` (`limit` takes the
    first problems of a source or of a built split); `force_ask=true` needs
    ``max_turns * queries_per_turn`` of at least the largest k."""
    out: dict[str, Any] = {}
    for name, value in params.items():
        if name == "k":
            if max_k is None:
                raise TypeError("check_parameters: k needs max_k")
            allowed = range(1, max_k + 1)
            try:
                out[name] = parse_k_values(value, allowed)
            except ValueError:
                raise _bad(name, f"an integer from 1 to {max_k} or a list of them "
                           "(2 or [1,2])", value) from None
        elif name == "oracle":
            if oracles is None:
                raise TypeError("check_parameters: oracle needs oracles")
            out[name] = check_choice(name, value, oracles)
        elif choices and name in choices:
            out[name] = check_choice(name, value, choices[name])
        elif name == "per_k":
            out[name] = _positive(name, value, max_per_k)
        elif name in RULES:
            out[name] = RULES[name](name, value)
        else:
            raise TypeError(f"check_parameters: no rule for parameter {name!r}")
    if "source" in out and out["source"] is None:
        for needs_source in ("source_format", *INPUTS):
            if out.get(needs_source) is not None:
                raise TaskParameterError(
                    f"-T {needs_source} needs -T source=FILE (it applies to a source file; "
                    f"got {needs_source}={shown(params[needs_source])} without a source)")
    _check_force_ask(out)
    check_model_roles()
    return out


TIKTOKEN_ENCODING = "https://openaipublic.blob.core.windows.net/encodings/o200k_base.tiktoken"
"""The tokenizer file Inspect counts mockllm's tokens with (where tiktoken fetches it)."""


def check_model_roles() -> None:
    """Refuse a model role played by ``mockllm`` with its default replies (no token
    usage) when tiktoken's encoding is not cached here (module docstring); a mockllm
    given custom outputs in Python, or any other model, is left alone."""
    for role, model in given_model_roles().items():
        if _default_mockllm(model) and not _encoding_cached():
            raise TaskParameterError(
                f"--model-role {role}={model} cannot run offline: mockllm's default replies "
                "carry no token usage, so Inspect would download tiktoken's o200k_base "
                f"encoding to count them; give the {role} role a real model, or put the "
                "encoding in TIKTOKEN_CACHE_DIR")


def _default_mockllm(model: Any) -> bool:
    api = getattr(model, "api", None)
    if type(api).__name__ != "MockLLM":
        return False
    code = getattr(getattr(api, "outputs", None), "gi_code", None)
    return code is not None and code.co_filename.endswith("mockllm.py")


def _encoding_cached() -> bool:
    """Whether tiktoken holds ``o200k_base`` in memory or in its file cache (the folder
    and file name tiktoken itself uses)."""
    import hashlib
    import os
    import tempfile

    try:
        from tiktoken.registry import ENCODINGS
    except ImportError:
        return False
    if "o200k_base" in ENCODINGS:
        return True
    folder = os.environ.get("TIKTOKEN_CACHE_DIR", os.environ.get(
        "DATA_GYM_CACHE_DIR", os.path.join(tempfile.gettempdir(), "data-gym-cache")))
    if folder == "":
        return False
    name = hashlib.sha1(TIKTOKEN_ENCODING.encode()).hexdigest()
    return os.path.exists(os.path.join(folder, name))


def _check_force_ask(out: dict[str, Any]) -> None:
    """`force_ask=true` refuses answers before k questions: the turns must hold them."""
    if not out.get("force_ask") or "max_turns" not in out or not out.get("k"):
        return
    per_turn = out.get("queries_per_turn", 1)
    largest = max(out["k"])
    if out["max_turns"] * per_turn < largest:
        raise TaskParameterError(
            f"-T force_ask=true needs max_turns * queries_per_turn >= k (k={largest} "
            f"questions must fit in the turns); got max_turns={out['max_turns']}, "
            f"queries_per_turn={per_turn}")


def _task_file(factory: Callable[..., Any]) -> Path | None:
    try:
        return Path(inspect.getfile(inspect.unwrap(factory))).resolve()
    except (TypeError, OSError):
        return None


def closest_parameter(parameter: str, accepted: Sequence[str]) -> str | None:
    """The accepted parameter `parameter` was most likely meant to be: the same name in
    another case, else a near spelling (difflib ratio >= 0.8); None when none is near."""
    by_lower = {name.lower(): name for name in accepted}
    near = difflib.get_close_matches(parameter.lower(), list(by_lower), n=1, cutoff=0.8)
    return by_lower[near[0]] if near else None


def unknown_parameter_message(task: str, parameter: str, accepted: Sequence[str],
                              siblings: Sequence[str] = ()) -> str:
    """The one line refusing `-T parameter` for `task`, which takes `accepted`;
    `siblings`: the tasks of the same file that take it."""
    notes = []
    closest = closest_parameter(parameter, accepted)
    if closest is not None:
        notes.append(f"did you mean {closest}?")
    if siblings:
        notes.append(f"{', '.join(siblings)} of the same file "
                     f"{'takes' if len(siblings) == 1 else 'take'} it: name the tasks to run "
                     "(file.py@task)")
    note = f" ({'; '.join(notes)})" if notes else ""
    takes = ", ".join(accepted) if accepted else "no parameters"
    return f"-T {parameter} is not a parameter of {task}{note}; {task} takes {takes}"


def refuse_unknown_parameter(task: str, parameter: str, factory: Callable[..., Any]) -> None:
    """Raise `UnknownParameterError` for `-T parameter`, which the task `task` (its
    function `factory`) does not take, when the task is one of the suite's or an installed
    plug-in's (`_registry.REGISTERED_TASKS`, matched by the file that defines it, so a
    task file run by path counts); any other task is left to Inspect's warning."""
    from infoseek.inspect_tasks._registry import REGISTERED_TASKS

    defined_in = _task_file(factory)
    if defined_in is None:
        return
    same_file = {name: other for name, other in REGISTERED_TASKS.items()
                 if _task_file(other) == defined_in}
    if not same_file:
        return
    if parameter == SHARD_PARAMETER:
        given, value = created_task_argument(parameter)
        if given and value is not None:
            shard = checked_shard(value)
            after_task_created(task, lambda made: shard_task(made, shard))
        return
    siblings = [name.split("/")[-1] for name, other in same_file.items()
                if parameter in inspect.signature(other).parameters]
    accepted = list(inspect.signature(factory).parameters)
    raise UnknownParameterError(unknown_parameter_message(task, parameter, accepted, siblings))


def checked_shard(value: Any) -> Shard:
    """``-T shard`` as a `Shard`; a bad value (``0/3``, ``4/3``, ``a/b``) is a one-line
    `TaskParameterError` naming the parameter and the accepted form."""
    try:
        return parse_shard(value)
    except ShardError as exc:
        raise TaskParameterError(str(exc)) from None


def shard_task(task: Task, shard: Shard) -> Task:
    """`task` keeping only `shard`'s share of its samples (`infoseek.shards.shard_members`),
    the shard recorded among its task arguments; a share left empty (more shares than
    samples) is a one-line error."""
    samples = list(task.dataset)
    keep = shard_members([s.id for s in samples], shard)
    for position, sample in enumerate(samples, 1):
        if sample.id is None:
            sample.id = position  # the id Inspect gives it unsharded
    kept = [s for s in samples if str(s.id) in keep]
    if not kept:
        raise TaskParameterError(
            f"-T {SHARD_PARAMETER}={shard} leaves no sample: the task has {len(samples)} "
            f"sample(s); split it into at most {len(samples)} shares")
    task.dataset = MemoryDataset(kept, name=task.dataset.name,
                                 location=task.dataset.location,
                                 shuffled=task.dataset.shuffled)
    record_task_arguments(task, {SHARD_PARAMETER: str(shard)})
    return task


on_unused_task_parameter(refuse_unknown_parameter)
