"""The plain-text interaction format: turning a reference decision into text lines.

Models without tools act through lines of text, one action per line:

    Question: Is Alice kind?
    Answer: Alice is not kind.

`render_text_action` writes such lines for a decision made by a reference strategy
(`infoseek.solvers.reference.strategy.decide`), so the reference models speak exactly the
format the text-mode solver parses.
"""

from __future__ import annotations

from typing import Any

from infoseek.domains import domain_of
from infoseek.text import all_text_encodes, storable_text

DEFAULT_ENTITY = "Alice"


def render_text_action(decision: dict[str, Any], problem: dict[str, Any]) -> str:
    """Render a reference decision as the text a model would write.

    Args:
        decision: `{"kind": "ask", "variables": [...]}`, `{"kind": "answer", "value": v}`
            or `{"kind": "text", "text": "..."}`.
        problem: the problem record; `domain`, `entity` (default "Alice") and `target`
            are read.

    Returns:
        One question line per asked variable, in the wording of the record's domain
        (`infoseek.domains.Wording.question`: `Question: Is <entity> <var>?` for logic,
        `Question: What is <var>?` for math); for an answer on a boolean target
        `Answer: <entity> is <target>.` or `Answer: <entity> is not <target>.`; for any
        other answer value `Answer: <value>`; free text unchanged.
    """
    kind = decision.get("kind")
    entity = problem.get("entity") or DEFAULT_ENTITY

    if kind == "ask":
        variables = decision.get("variables")
        if not isinstance(variables, list | tuple) or not variables:
            raise ValueError(f"an 'ask' decision needs a non-empty variable list: {decision!r}")
        wording = domain_of(problem).wording
        return "\n".join(wording.question(entity, variable) for variable in variables)

    if kind == "answer":
        if "value" not in decision:
            raise ValueError(f"an 'answer' decision needs a value: {decision!r}")
        value = decision["value"]
        if isinstance(value, bool):
            target = problem.get("target")
            if not target:
                raise ValueError("a boolean answer needs problem['target'] to name the target")
            negation = "" if value else "not "
            return f"Answer: {entity} is {negation}{target}."
        return f"Answer: {value}"

    if kind == "text":
        text = decision.get("text")
        if not isinstance(text, str):
            raise ValueError(f"a 'text' decision needs a string text: {decision!r}")
        return text

    raise ValueError(f"unknown decision kind {kind!r}; expected 'ask', 'answer' or 'text'")


# ------------------------------------------------------------------ storing model text
# Text a model wrote may hold characters that cannot be written as UTF-8 (a lone
# surrogate such as "\ud800", e.g. half of an emoji split by a provider). Inspect hashes
# every message it sends to a model with a strict UTF-8 encoder while writing the log,
# so such a character anywhere in the history sinks the whole eval. The solvers pass
# every text they keep (history, turn records, store) through `storable_text`.


def storable(value: Any) -> Any:
    """A copy of a JSON-like value (str, list, tuple, dict) whose strings, keys included,
    are `storable_text`; the value itself when nothing needed replacing. A container whose
    text all encodes (`infoseek.text.all_text_encodes`, one JSON write) is not walked."""
    if isinstance(value, dict | list | tuple) and all_text_encodes(value):
        return value
    return _storable_walk(value)


def _storable_walk(value: Any) -> Any:
    if isinstance(value, str):
        return storable_text(value)
    if isinstance(value, dict):
        cleaned = {_storable_walk(k): _storable_walk(v) for k, v in value.items()}
        same = all(a is b and c is d for (a, c), (b, d) in zip(value.items(), cleaned.items(),
                                                              strict=True))
        return value if same else cleaned
    if isinstance(value, list | tuple):
        items = [_storable_walk(item) for item in value]
        if all(a is b for a, b in zip(value, items, strict=True)):
            return value
        return type(value)(items) if isinstance(value, tuple) else items
    return value
