"""Problem records: plain JSON dicts, the only interchange between layers.

See docs/contracts.md for the fields. This module rebuilds engines from records and
checks the fields every protocol relies on, failing with messages that say what to fix.
"""

from __future__ import annotations

import json
import os
import tempfile
from collections.abc import Iterable, Iterator
from pathlib import Path
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
    characters, names of at most `MAX_NAME_LENGTH`, a non-negative integer `k`, and an
    MSS family that is a non-empty list of sets of names, with a set of size 0 only when
    `k` is 0."""
    if not isinstance(record, dict):
        raise RecordError(f"{where}: expected a JSON object, got {type(record).__name__}")
    missing = [f for f in REQUIRED_FIELDS if f not in record]
    if missing:
        raise RecordError(f"{where}: missing field(s) {', '.join(missing)}")

    def bad(field: str, problem: str) -> RecordError:
        return RecordError(f"{where}: field {field!r} {problem}")

    if not all_text_encodes(record):
        for field, value in record.items():
            text = _unencodable(field) or _unencodable(value)
            if text is not None:
                raise bad(_encodable(field), f"holds text UTF-8 cannot encode (a lone "
                          f"surrogate in {_encodable(short_repr(text))}); write it as real "
                          "characters")
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


def all_text_encodes(value: Any) -> bool:
    """True when every text in the JSON-like `value` (keys included) encodes as UTF-8,
    decided in one go by writing it as JSON text (C code, strings as they are); False
    when one does not, or when it cannot be written as JSON: the caller then walks it
    (`_unencodable` here, `infoseek.solvers.text_format.storable`)."""
    try:
        json.dumps(value, ensure_ascii=False, default=str).encode("utf-8")
    except (UnicodeEncodeError, TypeError, ValueError, RecursionError):
        return False
    return True


def _unencodable(value: Any, depth: int = 0) -> str | None:
    """The first text inside `value` that UTF-8 cannot encode, or None."""
    if isinstance(value, str):
        try:
            value.encode("utf-8")
        except UnicodeEncodeError:
            return value
        return None
    if depth > 100:
        return None
    if isinstance(value, dict):
        items: Iterable[Any] = (x for pair in value.items() for x in pair)
    elif isinstance(value, (list, tuple)):
        items = value
    else:
        return None
    for item in items:
        found = _unencodable(item, depth + 1)
        if found is not None:
            return found
    return None


def _encodable(text: str) -> str:
    """`text` with lone surrogates written as ``\\udXXX`` escapes (printable)."""
    return text.encode("utf-8", "backslashreplace").decode("utf-8")


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


def short_repr(value: Any, limit: int = 60) -> str:
    """``repr(value)``, cut to ``limit`` characters for error messages."""
    text = repr(value)
    return text if len(text) <= limit else text[: limit - 3] + "..."


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


NOT_LEAF_KINDS = ("derived", "not_leaf")
HIDDEN_FIELDS = ("answer", "hidden_world", "released", "released_text")
"""Record fields that hold the hidden instance: kept out of what the model's side reads.
`released` and `released_text` (records loaded from released files) keep the file's own
values and wording, which for math include every quantity's value and the answer, and a
text that may show a held-out value."""


def candidate_query_names(record: dict[str, Any]) -> list[str]:
    """Names listed in ``candidate_queries`` (entries are names or
    ``{"name": ..., "kind": ...}`` objects), in record order."""
    names = []
    for entry in record.get("candidate_queries", ()) or ():
        name = entry.get("name") if isinstance(entry, dict) else entry
        if isinstance(name, str):
            names.append(name)
    return names


def not_leaf_variables(record: dict[str, Any]) -> list[str]:
    """Quantities refused with ``not_leaf`` (derived ones, where only leaves may be
    asked), sorted: the record's ``not_leaf`` list when present, else the names whose
    kind is "derived" in ``query_kinds`` ({name: kind}) or in ``candidate_queries``
    entries of the form ``{"name": ..., "kind": ...}``. Empty for logic records."""
    if "not_leaf" in record:
        return sorted(set(record["not_leaf"] or ()))
    found = {name for name, kind in (record.get("query_kinds") or {}).items()
             if kind in NOT_LEAF_KINDS}
    for entry in record.get("candidate_queries", ()) or ():
        if isinstance(entry, dict) and entry.get("kind") in NOT_LEAF_KINDS:
            found.add(entry.get("name"))
    return sorted(n for n in found if isinstance(n, str))


def askable_variables(record: dict[str, Any], forbid_alternatives: bool) -> list[str]:
    """The variables the model may ask about, sorted: ``queryable`` plus the other
    ``candidate_queries`` (distractors the oracle answers), minus ``forbidden``, minus
    ``not_leaf`` quantities, minus ``alternative_only`` when alternatives are forbidden;
    observed variables and the target are removed as a safeguard."""
    excluded = set(record.get("forbidden", ()))
    excluded.update(record.get("observed", {}))
    excluded.add(record["target"])
    excluded.update(not_leaf_variables(record))
    if forbid_alternatives:
        excluded.update(record.get("alternative_only", ()))
    pool = set(record.get("queryable", ())) | set(candidate_query_names(record))
    return sorted(pool - excluded)


def public_record(record: dict[str, Any]) -> dict[str, Any]:
    """The record without its hidden fields (`HIDDEN_FIELDS`): what the model's side may
    read (the sample store, the reference models)."""
    return {key: value for key, value in record.items() if key not in HIDDEN_FIELDS}


def stored_problem(record: dict[str, Any]) -> str:
    """The form a record takes in the sample store (``infoseek:problem``): its public
    part (`public_record`) as one line of JSON. A single string, not a nested dict,
    because Inspect snapshots and diffs the whole store at every span (each solver and
    scorer); a string costs almost nothing there, a few thousand nested values do."""
    return dumps_record(public_record(record))


def _from_text(value: Any) -> Any:
    """``value`` decoded when it is JSON text (``None`` for text that is not JSON),
    else ``value`` itself: the stored forms below are JSON text, older logs hold the
    values."""
    if not isinstance(value, str):
        return value
    try:
        return json.loads(value)
    except ValueError:
        return None


def problem_from_store(value: Any) -> dict[str, Any] | None:
    """The record that `stored_problem` wrote (a fresh dict on every call), or ``None``
    when ``value`` is not one. A dict (an older store) is returned as a copy."""
    if isinstance(value, dict):
        return json.loads(json.dumps(value))
    decoded = _from_text(value)
    return decoded if isinstance(decoded, dict) else None


def stored_turns(turns: Iterable[dict[str, Any]]) -> str:
    """The form the turn records take in the sample store (``infoseek:turns``): one
    line of JSON text holding the list, for the reason `stored_problem` gives (the store
    is snapshotted and diffed at every solver and scorer span). `turns_from_store` reads
    it back; every turn is also in the sample's transcript as its own info event."""
    return dumps_record(list(turns))


def turns_from_store(value: Any) -> list[dict[str, Any]] | None:
    """The turn records `stored_turns` wrote, or a list of them (an older log, a store
    written by hand), as fresh dicts on every call; ``[]`` for a missing value, ``None``
    when ``value`` is not a list of records."""
    if value is None:
        return []
    decoded = _from_text(json.dumps(value) if isinstance(value, list) else value)
    if not isinstance(decoded, list) or not all(isinstance(t, dict) for t in decoded):
        return None
    return decoded


def metadata_problem(record: dict[str, Any]) -> str:
    """The form a record takes in sample metadata (``problem``): one line of JSON text
    (`dumps_record`). Text for the reason `stored_problem` gives: Inspect deep-copies a
    sample's metadata, snapshots it with the task state at every solver span and walks
    it again for the sample's start event and the log; a string costs almost nothing
    there, a few thousand nested values do. `sample_problem` reads it back."""
    return dumps_record(record)


def sample_problem(metadata: Any) -> dict[str, Any] | None:
    """The problem record of a sample's metadata: decoded from the text
    `metadata_problem` wrote (a fresh dict on every call), or the dict itself where the
    metadata holds one (an older log, a sample built by hand); ``None`` when there is
    none or it is not a record."""
    if not isinstance(metadata, dict):
        return None
    decoded = _from_text(metadata.get("problem"))
    return decoded if isinstance(decoded, dict) else None


def engine_from_record(record: dict[str, Any]) -> Engine:
    """The record's engine, built by the factory registered for its ``engine.kind``
    (`infoseek.engines`)."""
    try:
        return build_engine(record)
    except UnknownEngineKind as exc:
        raise RecordError(f"{record.get('id', 'record')}: {exc}") from None


def dumps_record(record: Any) -> str:
    """Canonical one-line JSON (stable key order as built, no spaces drift)."""
    return json.dumps(record, ensure_ascii=False, separators=(",", ":"))


def write_atomically(path: str | Path, data: bytes, *, ordinary_mode: bool = False) -> None:
    """Write ``data`` to a temporary file beside ``path``, then move it into place: a
    failed write leaves no half file and an old ``path`` untouched. ``ordinary_mode``
    gives the file the permissions of an ordinary new file (the temporary one is 0600)."""
    folder = Path(path).resolve().parent
    fd, tmp = tempfile.mkstemp(dir=folder, suffix=".tmp")
    try:
        with os.fdopen(fd, "wb") as fh:
            fh.write(data)
        if ordinary_mode:
            umask = os.umask(0)
            os.umask(umask)
            os.chmod(tmp, 0o666 & ~umask)
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


def jsonl_bytes(records: Iterable[dict[str, Any]]) -> bytes:
    """The records as JSON Lines (`dumps_record` per line), UTF-8."""
    return "".join(dumps_record(record) + "\n" for record in records).encode("utf-8")


def write_jsonl(records: Iterable[dict[str, Any]], path: str | Path) -> int:
    count = 0
    with open(path, "w", encoding="utf-8", newline="\n") as fh:
        for record in records:
            fh.write(dumps_record(record) + "\n")
            count += 1
    return count


def read_jsonl(path: str | Path) -> Iterator[dict[str, Any]]:
    """The records of a JSONL file, one at a time (a caller that stops early reads no
    further), each checked by `check_record`; errors name the file, line and field.
    Whether the MSS family pins every target value is left to the task that makes the
    samples: it searches each instance's task-level k anyway (at the same cost: about
    25 ms a genereg record), and names the file and line the same way
    (`infoseek.inspect_tasks.assembly.located_errors`)."""
    path = Path(path)
    if not path.exists():
        raise RecordError(f"{path}: no such file")
    with open(path, "rb") as fh:
        for lineno, raw in enumerate(fh, 1):
            try:
                line = raw.decode("utf-8")
            except UnicodeDecodeError:
                raise RecordError(f"{path}:{lineno}: not UTF-8 text (is this a JSONL file "
                                  "of problem records?)") from None
            if not line.strip():
                continue
            try:
                record = json.loads(line)
            except json.JSONDecodeError as exc:
                raise RecordError(f"{path}:{lineno}: not valid JSON ({exc.msg})") from None
            except RecursionError:
                raise RecordError(f"{path}:{lineno}: JSON nested too deeply") from None
            check_record(record, f"{path}:{lineno}", pins=False)
            yield record
