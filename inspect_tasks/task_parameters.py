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
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from infoseek.builders.published import INPUTS, format_names
from infoseek.builders.published.sources import INTERACTION_FORMATS, RECORDS_FORMAT
from infoseek.inspect_tasks.task_errors import PlainTaskError
from infoseek.solvers.dataset import parse_k_values


class TaskParameterError(PlainTaskError):
    """A `-T` parameter with a value the task cannot use."""


def _bad(name: str, allowed: str, value: Any) -> TaskParameterError:
    return TaskParameterError(f"-T {name} must be {allowed}; got {value!r}")


def _is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _integer(name: str, value: Any) -> int:
    if not _is_int(value):
        raise _bad(name, "an integer", value)
    return value


def _positive(name: str, value: Any) -> int:
    if not _is_int(value) or value < 1:
        raise _bad(name, "an integer >= 1", value)
    return value


def _non_negative(name: str, value: Any) -> int:
    if not _is_int(value) or value < 0:
        raise _bad(name, "an integer >= 0", value)
    return value


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
        raise _bad(name, f"one of {', '.join((*format_names(), RECORDS_FORMAT))}", value)
    return value.strip()  # the domain's formats are checked with the file


def _optional_folder(name: str, value: Any) -> str | None:
    if value is None:
        return None
    if not isinstance(value, str) or not value.strip():
        raise _bad(name, "a folder path", value)
    return value.strip()  # the format checks the folder with the file


def _interaction_format(name: str, value: Any) -> str:
    if value in format_names() or value == RECORDS_FORMAT:
        raise TaskParameterError(
            f"-T {name}={value} is a data file format: pass it as "
            f"source_format={value} (format= chooses the interaction: "
            f"{' or '.join(INTERACTION_FORMATS)})")
    if value not in INTERACTION_FORMATS:
        raise _bad(name, f"one of {', '.join(INTERACTION_FORMATS)}", value)
    return value


RULES: dict[str, Callable[[str, Any], Any]] = {
    "per_k": _positive,
    "seed": _integer,
    "format": _interaction_format,
    "max_turns": _positive,
    "queries_per_turn": _positive,
    "max_size": _positive,
    "limit": lambda name, value: None if value is None else _positive(name, value),
    "count": _positive,
    "max_interactions": _non_negative,
    "budget": _flag,
    "force_ask": _flag,
    "carry_reasoning": _flag,
    "forbid_alternatives": _flag,
    "k_given": _flag,
    "mix_well_specified": _flag,
    "source": _optional_text,
    "source_format": _source_format,
    **{name: _optional_folder for name in INPUTS},  # a released format's extra inputs
}


def check_choice(name: str, value: Any, allowed: Sequence[str]) -> str:
    if not isinstance(value, str) or value not in allowed:
        wanted = allowed[0] if len(allowed) == 1 else f"one of {', '.join(allowed)}"
        raise _bad(name, wanted, value)
    return value


def check_parameters(*, max_k: int | None = None, oracles: Sequence[str] | None = None,
                     choices: dict[str, Sequence[str]] | None = None,
                     **params: Any) -> dict[str, Any]:
    """`params` checked and normalised: `k` against 1..`max_k` (a sorted list), `oracle`
    against `oracles`, a parameter named in `choices` against its allowed values, every
    other one by its rule in `RULES`. `limit`, `source_format` and a released format's
    extra inputs (`infoseek.builders.published.INPUTS`: `rules`) need `source`."""
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
        elif name in RULES:
            out[name] = RULES[name](name, value)
        else:
            raise TypeError(f"check_parameters: no rule for parameter {name!r}")
    if "source" in out and out["source"] is None:
        for needs_source in ("limit", "source_format", *INPUTS):
            if out.get(needs_source) is not None:
                raise TaskParameterError(
                    f"-T {needs_source} needs -T source=FILE (it applies to a source file; "
                    f"got {needs_source}={params[needs_source]!r} without a source)")
    return out
