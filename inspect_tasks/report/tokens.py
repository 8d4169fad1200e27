"""Tokens and cost of each run row, from the model usage Inspect records per sample.

Inspect records two tallies on every sample: ``model_usage`` (model name -> `ModelUsage`,
every call of every model) and ``role_usage`` (role name -> `ModelUsage`, the calls made
through ``get_model(role=...)``: infoseek's examiner, evaluator, user, judge and matcher
roles). The model under test is everything that is not a role call: its tokens are the
sum of ``model_usage`` less the sum of ``role_usage`` (exact, also when a role is bound
to the same model as the one under test). The role calls are counted apart.

Token kinds follow Inspect's `ModelUsage`: ``input`` is the prompt tokens sent uncached
(``input_tokens`` plus ``input_tokens_cache_write``: a cache write is still sent),
``cached`` the prompt tokens read from a provider's cache (``input_tokens_cache_read``,
which Inspect keeps out of ``input_tokens``), ``output`` the generated tokens (reasoning
included, as providers bill it).

Cost (`--prices FILE`): a JSON or YAML mapping of model name (as the log names it, e.g.
``openai/gpt-4o``) to prices per million tokens, ``input`` and ``output`` required,
``cached`` (cache reads) and ``cache_write`` optional, each priced as ``input`` when
absent. A row's cost sums every model its samples called, role models included; a model
that spent tokens and has no price makes the cell ``n/a (no price: <model>)``, never a
partial sum. A model that spent no token costs nothing whatever its price: a reference
player (``infoseek/optimal``, ``infoseek/random``) calls no language model and records
zero tokens, which the row's note says in words, so its 0 is not read as missing usage.
"""

from __future__ import annotations

import json
import math
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import pandas as pd

KINDS = ("input", "cached", "output")
PRICE_KEYS = ("input", "output", "cached", "cache_write")
REFERENCE_PREFIX = "infoseek/"
"""Models of this provider are the reference players and the person of `infoseek play`
(`HUMAN_MODEL`): they call no language model."""
HUMAN_MODEL = "infoseek/human"


class PricesError(ValueError):
    """A prices file the report cannot use (the message names what to fix; `build`
    raises it as a `ReportError`: this module is imported by `reading`)."""


# ------------------------------------------------------------------ per sample


def _counts(usage: Any) -> dict[str, int]:
    """One `ModelUsage` (or its dict form) as input / cache_write / cached / output, and
    ``cache_reported``: 1 when the provider reported cache reads at all (Inspect keeps
    ``input_tokens_cache_read`` None when it did not, and a sum of calls None only when
    none did), else 0."""
    if usage is None:
        return {"input": 0, "cache_write": 0, "cached": 0, "output": 0,
                "cache_reported": 0}
    get = usage.get if isinstance(usage, Mapping) else lambda k: getattr(usage, k, None)
    return {"input": int(get("input_tokens") or 0),
            "cache_write": int(get("input_tokens_cache_write") or 0),
            "cached": int(get("input_tokens_cache_read") or 0),
            "output": int(get("output_tokens") or 0),
            "cache_reported": int(get("input_tokens_cache_read") is not None)}


def usage_json(sample: Any) -> str:
    """A sample's recorded usage as JSON text, ``{"models": {name: counts}, "roles":
    {role: counts}}`` (counts as in `_counts`): the `samples_df` column the report
    reads (the sample summary carries both tallies)."""
    models = getattr(sample, "model_usage", None) or {}
    roles = getattr(sample, "role_usage", None) or {}
    return json.dumps({"models": {name: _counts(u) for name, u in sorted(models.items())},
                       "roles": {name: _counts(u) for name, u in sorted(roles.items())}})


def usage_fields(text: Any) -> dict[str, Any]:
    """The sample-row columns of one sample's usage JSON: ``usage_json`` (kept for the
    cost), ``tokens.<kind>`` for the model under test and ``tokens.roles.<kind>`` for the
    role calls (kinds `KINDS`, input counting cache writes)."""
    usage = json.loads(text) if isinstance(text, str) and text else {}
    models = usage.get("models") or {}
    roles = usage.get("roles") or {}

    def total(tally: dict[str, dict[str, int]]) -> dict[str, int]:
        out = {"input": 0, "cached": 0, "output": 0}
        for counts in tally.values():
            out["input"] += counts["input"] + counts["cache_write"]
            out["cached"] += counts["cached"]
            out["output"] += counts["output"]
        return out

    every, role = total(models), total(roles)
    fields: dict[str, Any] = {"usage_json": json.dumps(usage) if usage else "",
                              "tokens.recorded": bool(models),
                              "tokens.cache_reported": any(
                                  counts.get("cache_reported", 1) for counts in models.values())}
    for kind in KINDS:
        fields[f"tokens.{kind}"] = every[kind] - role[kind]
        fields[f"tokens.roles.{kind}"] = role[kind]
    return fields


# ------------------------------------------------------------------ prices


def load_prices(path: str | Path) -> dict[str, dict[str, float]]:
    """The prices file (module docstring) as model -> {input, output, cached,
    cache_write} per million tokens; anything else raises `PricesError` in one line."""
    import yaml

    where = f"--prices {path}"
    try:
        text = Path(path).read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise PricesError(f"{where}: cannot read it ({exc.__class__.__name__}: "
                          f"{str(exc).splitlines()[0] if str(exc) else ''})") from None
    try:
        data = yaml.safe_load(text)
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        at = f" at line {mark.line + 1}" if mark is not None else ""
        raise PricesError(f"{where}: not valid JSON or YAML{at}; write a mapping of model "
                          "name -> {input: ..., output: ...}") from None
    if not isinstance(data, dict) or not data:
        raise PricesError(f"{where}: expected a mapping of model name -> {{input: ..., "
                          f"output: ...}} (prices per million tokens), got "
                          f"{type(data).__name__ if data else 'nothing'}")
    prices: dict[str, dict[str, float]] = {}
    for model, entry in data.items():
        if not isinstance(model, str) or not model.strip():
            raise PricesError(f"{where}: model name {model!r} must be text such as "
                              "'openai/gpt-4o'")
        if not isinstance(entry, dict):
            raise PricesError(f"{where}: {model}: expected {{input: ..., output: ...}} "
                              f"(prices per million tokens), got {entry!r}")
        unknown = sorted(str(k) for k in entry if k not in PRICE_KEYS)
        if unknown:
            raise PricesError(f"{where}: {model}: unknown key {unknown[0]!r} (keys: "
                              f"{', '.join(PRICE_KEYS)})")
        for key in ("input", "output"):
            if key not in entry:
                raise PricesError(f"{where}: {model}: missing {key!r} (price per million "
                                  "tokens)")
        row: dict[str, float] = {}
        for key, value in entry.items():
            if (isinstance(value, bool) or not isinstance(value, int | float)
                    or not math.isfinite(value) or value < 0):
                raise PricesError(f"{where}: {model}: {key} must be a number >= 0 (price "
                                  f"per million tokens), got {value!r}")
            row[key] = float(value)
        row.setdefault("cached", row["input"])
        row.setdefault("cache_write", row["input"])
        prices[model.strip()] = row
    return prices


def _cost(counts: dict[str, int], price: dict[str, float]) -> float:
    return (counts["input"] * price["input"] + counts["cache_write"] * price["cache_write"]
            + counts["cached"] * price["cached"] + counts["output"] * price["output"]) / 1e6


# ------------------------------------------------------------------ the table


def _model_totals(usage_texts: pd.Series) -> dict[str, dict[str, int]]:
    totals: dict[str, dict[str, int]] = {}
    for text in usage_texts:
        if not isinstance(text, str) or not text:
            continue
        for model, counts in (json.loads(text).get("models") or {}).items():
            into = totals.setdefault(model, dict.fromkeys(counts, 0))
            for key, value in counts.items():
                into[key] = into.get(key, 0) + value
    return totals


def _role_text(usage_texts: pd.Series, samples: int) -> str:
    totals: dict[str, dict[str, int]] = {}
    for text in usage_texts:
        if not isinstance(text, str) or not text:
            continue
        for role, counts in (json.loads(text).get("roles") or {}).items():
            into = totals.setdefault(role, {"input": 0, "cached": 0, "output": 0})
            into["input"] += counts["input"] + counts["cache_write"]
            into["cached"] += counts["cached"]
            into["output"] += counts["output"]
    return "; ".join(
        f"{role}: {c['input'] / samples:.1f} in, {c['cached'] / samples:.1f} cached, "
        f"{c['output'] / samples:.1f} out" for role, c in sorted(totals.items()))


def tokens_table(samples: pd.DataFrame, rows: pd.DataFrame,
                 prices: dict[str, dict[str, float]] | None = None) -> pd.DataFrame | None:
    """One line per run row: samples, the model under test's input / cached / output
    tokens per sample and in all, the role calls' per sample (and per role, in
    ``roles``), with `prices` the cost in all and per sample; None when no log of these
    rows has a usage column (the report was given nothing to count)."""
    if "tokens.input" not in samples:
        return None
    out = []
    for label, block in rows.groupby("row", sort=False):
        model = str(block.iloc[0]["model"])
        mine = samples[samples["log_id"].isin(block["log_id"])]
        count = len(mine)
        recorded = bool(mine["tokens.recorded"].fillna(False).astype(bool).any())
        line: dict[str, Any] = {"label": label, "model": model, "kind": "run",
                                "samples": count}
        totals = {kind: float(mine[f"tokens.{kind}"].fillna(0).sum()) if recorded
                  else math.nan for kind in KINDS}
        line["cached_why"] = "" if recorded else "no usage recorded"
        if (recorded and not model.startswith(REFERENCE_PREFIX)
                and not mine["tokens.cache_reported"].fillna(True).astype(bool).any()):
            totals["cached"] = math.nan  # unknown, not 0: the provider never said
            line["cached_why"] = "the provider reports no cache reads"
        for kind in KINDS:
            line[f"{kind}_per_sample"] = totals[kind] / count if count else math.nan
        for kind in KINDS:
            line[f"{kind}_total"] = totals[kind]
        for kind in KINDS:
            total = float(mine[f"tokens.roles.{kind}"].fillna(0).sum())
            line[f"roles_{kind}_per_sample"] = total / count if count else math.nan
        line["roles"] = _role_text(mine["usage_json"], count) if count else ""
        if prices is not None:
            line.update(_row_cost(mine["usage_json"], recorded, count, prices))
        if model.startswith(REFERENCE_PREFIX):
            player = "a person" if model == HUMAN_MODEL else "reference player"
            line["note"] = (f"{player} ({model}): calls no language model, so its "
                            "own tokens (and their cost) are exactly 0"
                            + ("; role calls counted apart" if line["roles"] else ""))
        elif not recorded:
            line["note"] = "the log records no model usage for these samples"
        else:
            line["note"] = ""
        out.append(line)
    table = pd.DataFrame(out)
    if not (table[[c for c in table.columns if c.startswith("roles_")]].fillna(0) != 0
            ).to_numpy().any():
        table = table.drop(columns=[c for c in table.columns if c.startswith("roles_")]
                           + ["roles"])
    return table


def _row_cost(usage_texts: pd.Series, recorded: bool, count: int,
              prices: dict[str, dict[str, float]]) -> dict[str, Any]:
    if not recorded:
        return {"cost": math.nan, "cost_per_sample": math.nan,
                "cost_why": "no usage recorded"}
    totals = _model_totals(usage_texts)
    spent = {m: c for m, c in totals.items() if any(c.values())}
    missing = sorted(m for m in spent if m not in prices)
    if missing:
        return {"cost": math.nan, "cost_per_sample": math.nan,
                "cost_why": f"no price: {', '.join(missing)}"}
    cost = sum(_cost(c, prices[m]) for m, c in spent.items())
    return {"cost": cost, "cost_per_sample": cost / count if count else math.nan,
            "cost_why": ""}


def _tokens_cell(value: Any, why: Any = "") -> str:
    if value is None or (isinstance(value, float) and math.isnan(value)):
        return f"n/a ({why or 'no usage recorded'})"
    return f"{value:.1f}" if float(value) % 1 else str(int(value))


def _cost_cell(value: Any, why: Any) -> str:
    if value is None or (isinstance(value, float) and math.isnan(value)):
        return f"n/a ({why or 'no cost'})"
    return f"{value:.4f}" if value >= 0.0001 or value == 0 else f"{value:.2e}"


def tokens_display(table: pd.DataFrame) -> pd.DataFrame:
    """The text cells of `tokens_table`: token counts (per-sample means to one decimal),
    cost to 4 decimals in the prices file's currency, and a cell with no number saying
    why (``n/a (no price: <model>)``, ``n/a (no usage recorded)``, and for the cached
    columns ``n/a (the provider reports no cache reads)``)."""
    out = pd.DataFrame(index=table.index)
    for column in table.columns:
        if column in ("model", "cost_why", "cached_why"):
            continue
        if column in ("cost", "cost_per_sample"):
            out[column] = [_cost_cell(v, w) for v, w in zip(table[column],
                                                           table["cost_why"])]
        elif column in ("cached_per_sample", "cached_total") and "cached_why" in table:
            out[column] = [_tokens_cell(v, w) for v, w in zip(table[column],
                                                             table["cached_why"])]
        elif column.endswith(("_per_sample", "_total")):
            out[column] = table[column].map(_tokens_cell)
        elif column == "samples":
            out[column] = table[column].map(lambda v: str(int(v)))
        else:
            out[column] = table[column].fillna("").astype(str)
    return out


TOKENS_TITLE = ("Tokens per sample (model under test; role calls counted apart) from "
                "the logs' recorded model usage")


# ------------------------------------------------------------------ estimates

CHARS_PER_TOKEN = 4
"""The estimate's ratio: about four characters of English text per token for the
common BPE tokenizers. No tokenizer is involved (none is available offline), so every
count made with it is an estimate, and is labelled one."""


def estimated_tokens(chars: int) -> int:
    """Tokens estimated from a character count: ``ceil(chars / 4)`` (`CHARS_PER_TOKEN`)."""
    return -(-int(chars) // CHARS_PER_TOKEN)


def _message_chars(message: Any) -> int:
    """Characters of one chat message as a model reads it: its text, and an assistant
    message's tool calls as ``name`` plus JSON arguments."""
    chars = len(message.text or "")
    for call in getattr(message, "tool_calls", None) or []:
        chars += len(call.function) + len(json.dumps(call.arguments, sort_keys=True))
    return chars


def _tools_chars(tools: Any) -> int:
    """Characters of the tool definitions sent with a call (name, description and the
    JSON of the parameters schema), which a provider counts as prompt."""
    chars = 0
    for tool in tools or []:
        chars += len(tool.name) + len(tool.description or "")
        chars += len(json.dumps(tool.parameters.model_dump(exclude_none=True),
                                sort_keys=True))
    return chars


def call_estimate(event: Any) -> tuple[int, int]:
    """(prompt, output) tokens estimated for one `ModelEvent`: the prompt is every
    input message plus the tool definitions, the output the first choice's message."""
    prompt = sum(_message_chars(m) for m in event.input) + _tools_chars(event.tools)
    output = 0
    if event.output is not None and event.output.choices:
        output = _message_chars(event.output.choices[0].message)
    return estimated_tokens(prompt), estimated_tokens(output)


def episode_estimate(sample: Any) -> dict[str, int]:
    """Estimated tokens of one sample's episode, from its model events (the player's
    calls; calls made through a model role are counted apart): ``first_prompt`` (the
    first call's prompt), ``prompt`` (every call's prompt summed: each call sends the
    whole conversation again, as a provider bills it without caching), ``output``,
    ``calls`` and ``role_calls``. The log must be read with its attachments resolved
    (``read_eval_log(..., resolve_attachments=True)``): a long text is otherwise a
    short ``attachment://`` reference, which is refused rather than counted."""
    from inspect_ai.event import ModelEvent

    out = {"first_prompt": 0, "prompt": 0, "output": 0, "calls": 0, "role_calls": 0}
    for event in sample.events or []:
        if not isinstance(event, ModelEvent):
            continue
        if event.role is not None:
            out["role_calls"] += 1
            continue
        if any((m.text or "").startswith("attachment://") for m in event.input):
            raise ValueError(f"sample {sample.id}: a model call holds attachment "
                             "references; read the log with resolve_attachments=True")
        prompt, output = call_estimate(event)
        if out["calls"] == 0:
            out["first_prompt"] = prompt
        out["calls"] += 1
        out["prompt"] += prompt
        out["output"] += output
    return out
