"""Problem records: plain JSON dicts, the only interchange between layers.

See docs/contracts.md for the fields. This module checks the fields every protocol
relies on, failing with messages that say what to fix, and rebuilds a record's engine.
What each side may read of a record is `infoseek.record_views`; the forms records take
in the sample store and metadata, `infoseek.stored_forms`; JSON Lines files of records,
`infoseek.jsonl`.
"""

from __future__ import annotations

import json
from typing import Any

from infoseek.analysis import task_level_k
from infoseek.engine import Engine
from infoseek.engines import (
    EngineFormError,
    UnknownEngineKind,
    build_engine,
    check_engine_form,
    engine_kinds,
)
from infoseek.text import all_text_encodes, escaped_surrogates, first_unencodable, short_repr

REQUIRED_FIELDS = ("id", "domain", "engine", "variables", "observed", "target", "queryable", "k",
                   "mss_family")
MAX_ID_LENGTH = 200
"""The longest record id (characters). An id names the sample and, inside Inspect's log,
the sample's file: a 200,000-character id made the log writer fail with no sample
written. A longer id is a data error (`check_record`, `check_shape`)."""
MAX_NAME_LENGTH = 1_000
"""The longest variable name (characters): names are shown to the model and key the
observed values; a longer one is a data error."""


class RecordError(ValueError):
    """A problem record is malformed; the message names the record and field.
    `record_id`: the id of the record, when the message names it by id only (so that the
    caller can add where it was read)."""

    def __init__(self, message: str, *, record_id: Any = None) -> None:
        super().__init__(message)
        self.record_id = record_id


def check_record(record: Any, where: str = "record", *, pins: bool = True) -> None:
    """Raise `RecordError` naming `where` and the field when `record` cannot be used:
    its shape (`check_shape`: every text UTF-8 can encode, a bounded id and names, a
    non-empty MSS family), an MSS family of sets of variables that are neither the target
    nor observed,
    the common fields (types and the names they refer to), the engine's own form
    (clauses or equations over known variables; the engine must build), logic
    `target_values`, and math `hidden_world` and `answer` (exact numbers); every value
    in `target_values` must be one the engine leaves possible and, with `pins`, one that
    some set of the MSS family pins (what a task computes each instance's k from: a
    family that pins none, e.g. ``[]`` or ``[[]]`` for an underspecified problem, is
    refused here, not when the samples are made)."""
    check_shape(record, where)

    def bad(field: str, problem: str) -> RecordError:
        return RecordError(f"{where}: field {field!r} {problem}")

    variables = record["variables"]
    names = set(variables)
    if not isinstance(record["target"], str) or record["target"] not in names:
        raise bad("target", f"{short_repr(record['target'])} is not in 'variables'")
    for field in ("queryable", "forbidden", "alternative_only"):
        value = record.get(field, [])
        if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
            raise bad(field, "must be a list of names")
        unknown = [v for v in value if v not in names]
        if unknown:
            raise bad(field, f"names unknown variables {unknown[:5]}")
    observed = record["observed"]
    if not isinstance(observed, dict):
        raise bad("observed", f"must be an object {{variable: value}}, got "
                              f"{type(observed).__name__}")
    unknown = [v for v in observed if v not in names]
    if unknown:
        raise bad("observed", f"names unknown variables {unknown[:5]}")
    family = record["mss_family"]
    unknown = sorted({v for s in family for v in s} - names)
    if unknown:
        raise bad("mss_family", f"names unknown variables {unknown[:5]}")
    _check_engine(record, names, bad)
    try:
        engine = engine_from_record(record)
    except (ValueError, TypeError, KeyError, AttributeError) as exc:
        raise bad("engine", f"does not build: {exc}") from None
    _check_target_values(record, engine, bad)
    if record.get("target_values") == []:
        return  # observations that contradict the rules: no instance to pose or pin
    for mss in family:
        inside = [v for v in mss if v == record["target"] or v in observed]
        if inside:
            what = "the target" if inside[0] == record["target"] else "an observed variable"
            raise bad("mss_family", f"holds {what} ({short_repr(inside[0])}); its sets list "
                                    "variables to ask")
    if pins:
        _check_family_pins(record, engine, bad)


def check_shape(record: Any, where: str = "record") -> None:
    """The checks of `check_record` that need no engine, cheap enough for every record a
    task loads (built, released or ours): a JSON object with the required fields, every
    text (keys included) one UTF-8 can encode (a lone surrogate, ``"\\ud800"`` in JSON,
    cannot be sent to a model nor written to a log), an id of at most `MAX_ID_LENGTH`
    characters, names of at most `MAX_NAME_LENGTH`, a non-negative integer `k`, no value
    listed twice in `target_values` (each is one task instance and names its sample),
    and an MSS family that is a non-empty list of sets of names, with a set of size 0
    only when `k` is 0."""
    if not isinstance(record, dict):
        raise RecordError(f"{where}: expected a JSON object, got {type(record).__name__}")
    missing = [f for f in REQUIRED_FIELDS if f not in record]
    if missing:
        raise RecordError(f"{where}: missing field(s) {', '.join(missing)}")

    def bad(field: str, problem: str) -> RecordError:
        return RecordError(f"{where}: field {field!r} {problem}")

    if not all_text_encodes(record):
        for field, value in record.items():
            text = first_unencodable(field) or first_unencodable(value)
            if text is not None:
                raise bad(escaped_surrogates(field), "holds text UTF-8 cannot encode (a "
                          f"lone surrogate in {escaped_surrogates(short_repr(text))}); write "
                          "it as real characters")
    record_id = record["id"]
    if not isinstance(record_id, (str, int)) or isinstance(record_id, bool):
        raise bad("id", "must be a string")
    if isinstance(record_id, str) and not record_id.strip():
        raise bad("id", "must not be empty")
    if len(str(record_id)) > MAX_ID_LENGTH:
        raise bad("id", f"is {len(str(record_id)):,} characters long; at most "
                        f"{MAX_ID_LENGTH} ({short_repr(record_id, 40)})")
    variables = record["variables"]
    if not isinstance(variables, list) or not all(isinstance(v, str) for v in variables):
        raise bad("variables", "must be a list of names")
    long_names = [v for v in variables if len(v) > MAX_NAME_LENGTH]
    if long_names:
        raise bad("variables", f"has a name of {len(long_names[0]):,} characters; at most "
                               f"{MAX_NAME_LENGTH} ({short_repr(long_names[0], 40)})")
    for field in ("domain", "entity"):
        if field in record and (not isinstance(record[field], str)
                                or not record[field].strip()):
            raise bad(field, f"must be a non-empty text; got {short_repr(record[field])}")
    k = record["k"]
    if not isinstance(k, int) or isinstance(k, bool) or k < 0:
        raise bad("k", "must be a non-negative integer")
    repeated = _repeated_value(record.get("target_values"))
    if repeated:
        raise bad("target_values", f"lists {short_repr(repeated[0])} twice; each value is one "
                  "task instance (its sample is named after it): list it once")
    family = record["mss_family"]
    if not isinstance(family, list) or not all(
            isinstance(s, list) and all(isinstance(v, str) for v in s) for s in family):
        raise bad("mss_family", "must be a list of lists of names")
    if not family:
        raise bad("mss_family", "is empty: it lists the minimal sufficient sets, canonical "
                                "first ([[]] when nothing is missing)")
    if k > 0 and any(not s for s in family):
        raise bad("mss_family", f"holds an empty set, but k is {k}: with nothing asked "
                                "the target is not known")


def _repeated_value(values: Any) -> tuple[Any] | None:
    """``(value,)``: the first value `values` (a list) holds twice, compared as JSON
    writes them (``true`` and ``1`` differ); None when none repeats or `values` is no
    list."""
    if not isinstance(values, list):
        return None
    seen: set[str] = set()
    for value in values:
        key = json.dumps(value, sort_keys=True, default=repr)
        if key in seen:
            return (value,)
        seen.add(key)
    return None


def _check_family_pins(record: dict[str, Any], engine: Engine, bad: Any) -> None:
    """Each value of ``target_values`` is pinned by some set of the MSS family (the
    task-level k of the instance exists; `infoseek.analysis.task_level_k`)."""
    values = record.get("target_values")
    if not isinstance(values, list) or "hidden_world" in record:
        return
    for value in values:
        try:
            task_level_k(engine, record["mss_family"], value)
        except ValueError:
            raise bad("mss_family", f"does not pin the target value {short_repr(value)}: "
                      "none of its sets makes the target known (is every set sufficient?)"
                      ) from None
        if len(values) == 2:
            return  # with two values, a set that pins one pins the other


def _check_target_values(record: dict[str, Any], engine: Engine, bad: Any) -> None:
    """Every value listed in ``target_values`` is one the engine leaves possible under
    the observations (each becomes a task instance whose task-level k is searched for;
    a value the engine rules out has none)."""
    values = record.get("target_values")
    if not isinstance(values, list):
        return  # absent (a record with a hidden world) or refused by the engine's check
    possible = engine.target_values()
    ruled_out = [v for v in values if v not in possible]
    if ruled_out:
        shown = ", ".join(short_repr(v) for v in ruled_out[:5])
        still = sorted(map(short_repr, possible))
        raise bad("target_values", f"of record {short_repr(record['id'])} lists {shown}, "
                  f"which the engine rules out under the observations (possible: "
                  f"{', '.join(still) or 'none: the observations contradict the rules'})")


def _check_engine(record: dict[str, Any], names: set[str], bad: Any) -> None:
    """The engine's kind is registered and the record has the form its engine needs
    (the check registered with the engine, `infoseek.engines.register_engine`)."""
    try:
        check_engine_form(record, names)
    except UnknownEngineKind as exc:
        why = f"; {exc.plugin_problem}" if exc.plugin_problem else ""
        raise bad("engine", "must be an object with a registered kind "
                            f"({', '.join(engine_kinds())}){why}") from None
    except EngineFormError as exc:
        raise bad(exc.field, exc.problem) from None


def engine_from_record(record: dict[str, Any]) -> Engine:
    """The record's engine, built by the factory registered for its ``engine.kind``
    (`infoseek.engines`)."""
    try:
        return build_engine(record)
    except UnknownEngineKind as exc:
        raise RecordError(f"{record.get('id', 'record')}: {exc}") from None
