"""The fast read of an ``.eval`` log's samples: what `samples_df` would give for the
report's columns (`reading.SAMPLE_COLUMNS`), without the transcripts.

An ``.eval`` log is a zip archive. Inspect stores a summary of every sample in
``summaries.json`` (id, epoch, the summary's metadata, error, usage) and each full sample
as ``samples/<id>_epoch_<n>.json``, whose fields come in a fixed order: id, epoch, input,
target, messages, output, scores, metadata, store, then the transcript (events,
attachments: most of the member). The report needs, of the full sample, only `FULL_FIELDS`
(the scores, the complete metadata for the problem id, the store for the turn records).

So each sample member is parsed field by field (`top_fields`) and no further once those
fields are read: the transcript after them is never parsed, and the fields between them
that are not wanted (input, messages, output) are stepped over by matching brackets, not
decoded (`skip_value`). A wanted value is decoded in full by Python's own JSON decoder, so
what is read is exactly what a full parse gives. (Decompressing a member only as far as
the wanted fields reach, through a zip stream, was measured slower than decompressing it
whole: zstd is fast, the stream's per-chunk Python is not.)

`summary_frame` returns the frame `samples_df` gives, with one difference the reader
(`reading._sample_rows`) accepts: ``scores_json`` and ``turns_json`` hold the decoded
scores and turn records rather than their JSON text (encoding them only to decode them
again cost a fifth of the read), or, given a `reduce`, one column of what it makes of
each sample as it is read (the reader keeps only the flat score columns and a few fields
per turn: a log's decoded turn records held at once took a gigabyte). It returns None
for a log not in that form (a ``.json`` log, a log still being written, summaries that
do not match the samples one to one): the caller then reads the log through `samples_df`
itself.
"""

from __future__ import annotations

import json
import re
import zipfile
from collections.abc import Callable
from json.decoder import scanstring
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pandas as pd
import pyarrow as pa

from infoseek.contract import STORE_TURNS
from infoseek.inspect_tasks.report.tokens import usage_json
from infoseek.scorers.recorded_names import current_scorer_name
from infoseek.stored_forms import sample_problem, turns_from_store

FULL_FIELDS = frozenset({"id", "epoch", "scores", "metadata", "store"})
"""The fields of a full sample the fast read takes (Inspect writes them before the
transcript, which is then never parsed)."""
SUMMARIES_MEMBER = "summaries.json"
REDUCED = "reduced"
"""The column of `summary_frame` holding what its `reduce` made of each sample."""

_SPACE = re.compile(r"[ \t\n\r]*")
_DECODER = json.JSONDecoder()
_STRING_OR_BRACKET = re.compile(r'"[^"\\]*(?:\\.[^"\\]*)*(")?|[\[\]{}]', re.DOTALL)
"""A string (its closing quote in group 1: None when the text ends inside it) or a
bracket."""


def skip_value(text: str, at: int) -> int:
    """The end of the JSON value starting at `at`, found without decoding it: a string
    by the decoder's string scanner, an array or object by counting brackets outside
    strings, anything else (number, literal) by the decoder; ValueError when the text
    ends before the value does or no value starts there."""
    first = text[at:at + 1]
    if first == '"':
        return scanstring(text, at + 1)[1]
    if first in ("[", "{"):
        depth = 0
        for match in _STRING_OR_BRACKET.finditer(text, at):
            token = match.group()
            if token[0] == '"':
                if match.group(1) is None:
                    raise ValueError("the text ends inside a string")
            elif token in "[{":
                depth += 1
            else:
                depth -= 1
                if depth == 0:
                    return match.end()
        raise ValueError("the text ends inside an array or object")
    return _DECODER.raw_decode(text, at)[1]


def top_fields(text: str, wanted: frozenset[str]) -> dict[str, Any]:
    """The `wanted` top-level fields of the JSON object `text`, read in the order they
    come and no further once all are found (the rest is never parsed; the unwanted
    fields before are stepped over, `skip_value`); ValueError on anything that is not an
    object."""
    found: dict[str, Any] = {}
    at = _SPACE.match(text, 0).end()
    if text[at:at + 1] != "{":
        raise ValueError("a sample is not a JSON object")
    at = _SPACE.match(text, at + 1).end()
    if text[at:at + 1] == "}":
        return found
    while True:
        if text[at:at + 1] != '"':
            raise ValueError("a sample's key is not a string")
        key, at = scanstring(text, at + 1)
        at = _SPACE.match(text, at).end()
        if text[at:at + 1] != ":":
            raise ValueError("a sample's key has no value")
        at = _SPACE.match(text, at + 1).end()
        if key in wanted:
            found[key], at = _DECODER.raw_decode(text, at)
            if len(found) == len(wanted):
                return found
        else:
            at = skip_value(text, at)
        at = _SPACE.match(text, at).end()
        if text[at:at + 1] == "}":
            return found
        if text[at:at + 1] != ",":
            raise ValueError("a sample's fields are not separated by commas")
        at = _SPACE.match(text, at + 1).end()


def _sample_order(sample_id: Any, epoch: Any) -> tuple[Any, str]:
    """Inspect's order of a log's samples: by epoch, then by id (numbers zero-filled)."""
    return epoch, sample_id if isinstance(sample_id, str) else str(sample_id).zfill(20)


def problem_of(metadata: Any, sample_id: Any) -> str:
    """The id of the problem a sample belongs to: the task instances of one problem (its
    target values; a single-turn problem's variants) share it, so statistics resample
    problems, not samples. It is the metadata's ``problem_id``, else the id of the problem
    record the metadata carries (``problem``, ``record``), else the sample's own id."""
    metadata = metadata if isinstance(metadata, dict) else {}
    if metadata.get("problem_id") not in (None, ""):
        return str(metadata["problem_id"])
    record = sample_problem(metadata)
    if record is None and isinstance(metadata.get("record"), dict):
        record = metadata["record"]
    if record is not None and record.get("id") not in (None, ""):
        return str(record["id"])
    return str(sample_id)


def summary_frame(path: Path, reduce: Callable[[dict, list], Any] | None = None
                  ) -> pd.DataFrame | None:
    """The frame `samples_df` gives for the report's columns, read without the
    transcripts (module docstring), or None when the log is not in that form. With
    `reduce`, each sample's decoded scores and turn records are handed to it as soon as
    they are read and the frame holds what it returns (column `REDUCED`) instead of
    ``scores_json`` and ``turns_json``."""
    if path.suffix != ".eval":
        return None
    try:
        with zipfile.ZipFile(path) as archive:
            names = list(dict.fromkeys(archive.namelist()))
            if SUMMARIES_MEMBER not in names:
                return None
            summaries = json.loads(archive.read(SUMMARIES_MEMBER))
            full: dict[tuple[str, Any], dict[str, Any]] = {}
            for name in names:  # a re-logged sample: the last member of a name counts
                if name.startswith("samples/") and name.endswith(".json"):
                    fields = top_fields(archive.read(name).decode("utf-8"), FULL_FIELDS)
                    full[(json.dumps(fields.get("id")), fields.get("epoch"))] = fields
    except (zipfile.BadZipFile, NotImplementedError, KeyError, ValueError, OSError,
            RecursionError):
        return None
    if not isinstance(summaries, list) or not summaries:
        return None
    keys = [(json.dumps(s.get("id")), s.get("epoch")) if isinstance(s, dict) else None
            for s in summaries]
    if None in keys or len(set(keys)) != len(keys) or set(keys) != set(full):
        return None
    records, scores, turns, reduced = [], [], [], []
    for summary in sorted(summaries, key=lambda s: _sample_order(s["id"], s["epoch"])):
        sample = full[(json.dumps(summary["id"]), summary["epoch"])]
        record: dict[str, Any] = {"id": str(summary["id"]), "epoch": summary["epoch"]}
        metadata = summary.get("metadata")
        for key, value in sorted((metadata if isinstance(metadata, dict) else {}).items()):
            record[f"metadata_{key}"] = (json.dumps(value) if isinstance(value, list | dict)
                                         else value)
        record["error"] = "" if summary.get("error") is None else summary["error"]
        sample_scores = {current_scorer_name(name): {"value": score.get("value"),
                                                     "metadata": score.get("metadata") or {}}
                         for name, score in (sample.get("scores") or {}).items()}
        sample_turns = turns_from_store((sample.get("store") or {}).get(STORE_TURNS)) or []
        if reduce is not None:
            reduced.append(reduce(sample_scores, sample_turns))
        else:
            scores.append(sample_scores)
            turns.append(sample_turns)
        record["problem_id"] = problem_of(sample.get("metadata"), sample.get("id"))
        record["usage_json"] = usage_json(SimpleNamespace(
            model_usage=summary.get("model_usage") or {},
            role_usage=summary.get("role_usage") or {}))
        records.append(record)
    frame = _arrow_frame(records)
    columns = {REDUCED: reduced} if reduce is not None else {"scores_json": scores,
                                                              "turns_json": turns}
    for column, values in columns.items():
        frame[column] = pd.Series(values, index=frame.index, dtype=object)
    return frame


def _arrow_frame(records: list[dict[str, Any]]) -> pd.DataFrame:
    """`records` as `samples_df` types them: a column holding values of several types
    (other than all text) as text, then every column through Arrow (a column of
    nothing but missing values as text)."""
    frame = pd.DataFrame(records)
    for column in frame.columns:
        if frame[column].dtype == object:
            kinds = {type(v) for v in frame[column].dropna()}
            if len(kinds) > 1 and not kinds <= {str, bytes}:
                frame[column] = frame[column].map(
                    lambda v: v if v is None or isinstance(v, str) else str(v))
    return pa.Table.from_pandas(frame).to_pandas(types_mapper=_arrow_dtype)


def _arrow_dtype(kind: pa.DataType) -> pd.ArrowDtype:
    return pd.ArrowDtype(pa.string() if pa.types.is_null(kind) else kind)
