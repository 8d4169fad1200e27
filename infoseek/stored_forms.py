"""The forms a problem record and its turn records take inside an Inspect sample: one
line of JSON text each in the sample store (``infoseek:problem``, ``infoseek:turns``)
and in the sample metadata (``problem``), written here and read back here.
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from typing import Any

from infoseek.contract import STORE_OPTIONS
from infoseek.jsonl import dumps_record
from infoseek.record_views import public_record


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


def stored_option(store: Any, name: str) -> Any:
    """The episode option `name` the solver wrote to the store (`STORE_OPTIONS`): the one
    place a scorer reads an option from, with no default of its own. A sample no infoseek
    solver played has none, and scoring it is an error that says so."""
    options = store.get(STORE_OPTIONS)
    if not isinstance(options, dict) or name not in options:
        raise KeyError(f"the episode's stored options ({STORE_OPTIONS}) hold no {name!r}: "
                       "only samples an infoseek solver played can be scored")
    return options[name]
