"""Free-text questions in the seek loop: the ``matcher`` model role maps a question that
names no listed variable to one, or refuses it as ``not_sure`` (`infoseek.oracles.matcher`).

Without a bound ``matcher`` role nothing changes: only listed names count. With one, each
query the parser refused as ``unknown`` (it named no variable of the problem) goes to the
matcher with the names still askable; a name it returns is asked like a typed one (a
name asked before is ``repeated``), anything else is refused with ``not_sure``. The
matcher never sees a value, and a query it does not map reveals nothing.

Measured, not trusted (protocols §3.8): a question the parser read exactly (it names one
askable variable) is also sent to the matcher, as an audit whose pick changes nothing;
the pick is wrong unless it is that variable (`record_role_reply`, role ``matcher``). A
pick for an ``unknown`` question has no exact truth and is recorded unmeasured. So a
bound matcher costs one extra call per exactly-read valid query. A matcher model that
raises leaves the query as the rule reads it (``unknown``: only listed names count), its
exception recorded in the role ledger.
"""

from __future__ import annotations

import dataclasses
import json
import re
from collections.abc import Sequence

from inspect_ai.util import store

from infoseek.contract import ACTION_ASK, STORE_TURNS, ParsedQuery, ParsedTurn
from infoseek.oracles.matcher import MATCHER_ROLE, matcher_messages, read_matcher_reply
from infoseek.oracles.roles import RoleCall, record_role_reply, role_bound, role_call
from infoseek.stored_forms import turns_from_store


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


async def match_question(question: str, names: Sequence[str], noun: str) -> RoleCall:
    """The matcher's call for `question` (its reply, or the exception it raised)."""
    system, user = matcher_messages(question, names, noun)
    return await role_call(MATCHER_ROLE, user, system=system)


def _turn_number() -> int:
    """The number of the turn being read: one more than the turns in the store."""
    return len(turns_from_store(store().get(STORE_TURNS)) or []) + 1


async def matched_turn(parsed: ParsedTurn, *, askable: Sequence[str], asked: Sequence[str],
                       noun: str) -> ParsedTurn:
    """`parsed` with its ``unknown`` queries mapped by the matcher (module docstring);
    `parsed` itself when no matcher is bound or nothing needs matching. Its valid
    queries are audited (module docstring)."""
    if parsed.kind != ACTION_ASK or not role_bound(MATCHER_ROLE):
        return parsed
    turn = _turn_number()
    for query in parsed.queries:  # the audit: exact truth, the pick changes nothing
        if query.valid and query.variable is not None:
            call = await match_question(question_text(query.raw), askable, noun)
            pick = None if call.text is None else read_matcher_reply(call.text, askable)
            record_role_reply(MATCHER_ROLE, turn=turn, raised=call.raised, audit=True,
                              wrong=None if call.text is None else pick != query.variable,
                              truth=query.variable, pick=pick)
    if not any(q.reason == "unknown" for q in parsed.queries):
        return parsed
    taken = set(asked) | {q.variable for q in parsed.queries if q.valid}
    queries: list[ParsedQuery] = []
    for query in parsed.queries:
        if query.reason != "unknown":
            queries.append(query)
            continue
        call = await match_question(question_text(query.raw), askable, noun)
        record_role_reply(MATCHER_ROLE, turn=turn, wrong=None, raised=call.raised,
                          audit=False)
        if call.text is None:  # the role raised: the rule's reading stands
            queries.append(query)
            continue
        name = read_matcher_reply(call.text, askable)
        if name is None:
            queries.append(ParsedQuery(query.raw, None, False, "not_sure"))
        elif name in taken:
            queries.append(ParsedQuery(query.raw, name, False, "repeated"))
        else:
            taken.add(name)
            queries.append(ParsedQuery(query.raw, name, True, None))
    return dataclasses.replace(parsed, queries=tuple(queries))
