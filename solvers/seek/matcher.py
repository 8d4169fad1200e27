"""Free-text questions in the seek loop: the ``matcher`` model role maps a question that
names no listed variable to one, or refuses it as ``not_sure`` (`infoseek.oracles.matcher`).

Without a bound ``matcher`` role nothing changes: only listed names count. With one, each
query the parser refused as ``unknown`` (it named no variable of the problem) goes to the
matcher with the names still askable; a name it returns is asked like a typed one (a
name asked before is ``repeated``), anything else is refused with ``not_sure``. The
matcher never sees a value, and a query it does not map reveals nothing.
"""

from __future__ import annotations

import dataclasses
import json
import re
from collections.abc import Sequence

from infoseek.contract import ACTION_ASK, ParsedQuery, ParsedTurn
from infoseek.oracles.matcher import MATCHER_ROLE, matcher_messages, read_matcher_reply
from infoseek.oracles.roles import role_bound, role_reply


def question_text(raw: str) -> str:
    """The question a query holds: a text line as written, or the argument of a tool call
    recorded as ``ask({"variable": ...})``."""
    found = re.fullmatch(r"\s*ask\((\{.*\})\)\s*", raw, flags=re.DOTALL)
    if found:
        try:
            arguments = json.loads(found.group(1))
        except ValueError:
            return raw
        if isinstance(arguments, dict) and isinstance(arguments.get("variable"), str):
            return arguments["variable"]
    return raw


async def match_question(question: str, names: Sequence[str], noun: str) -> str | None:
    """The listed name the matcher maps `question` to, or None."""
    system, user = matcher_messages(question, names, noun)
    return read_matcher_reply(await role_reply(MATCHER_ROLE, user, system=system), names)


async def matched_turn(parsed: ParsedTurn, *, askable: Sequence[str], asked: Sequence[str],
                       noun: str) -> ParsedTurn:
    """`parsed` with its ``unknown`` queries mapped by the matcher (module docstring);
    `parsed` itself when no matcher is bound or nothing needs matching."""
    if parsed.kind != ACTION_ASK or not any(q.reason == "unknown" for q in parsed.queries):
        return parsed
    if not role_bound(MATCHER_ROLE):
        return parsed
    taken = set(asked) | {q.variable for q in parsed.queries if q.valid}
    queries: list[ParsedQuery] = []
    for query in parsed.queries:
        if query.reason != "unknown":
            queries.append(query)
            continue
        name = await match_question(question_text(query.raw), askable, noun)
        if name is None:
            queries.append(ParsedQuery(query.raw, None, False, "not_sure"))
        elif name in taken:
            queries.append(ParsedQuery(query.raw, name, False, "repeated"))
        else:
            taken.add(name)
            queries.append(ParsedQuery(query.raw, name, True, None))
    return dataclasses.replace(parsed, queries=tuple(queries))
