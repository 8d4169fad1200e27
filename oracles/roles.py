"""Model-backed roles: the one way any protocol asks a bound model role for a reply, and
the ledger in which every role reply is measured against the exact truth the suite holds.

A task may bind a role (``--model-role matcher=...``, or the task's ``model_roles``) for
a part a rule plays otherwise: the seek loop's ``matcher``, Twenty Questions'
``examiner``, ``evaluator`` and ``transfer``, the incomplete-questions ``user`` and
``judge``. Every caller follows one pattern: when `role_bound(role)` it takes
`role_call(role, user, system=...)`, and when that call raised (``RoleCall.raised``) or
its reply is unusable it plays its deterministic rule instead, so a role's failure never
makes the sample an error. This is the one module of the oracle layer that talks to
Inspect (it calls the bound model and writes the ledger); the rules stay pure beside the
callers.

Measured, not trusted (protocols §3.8): each caller records every model reply of a role
with `record_role_reply` in the sample store (`STORE_ROLES`): the role, the turn, whether
the call raised (the exception's type and message), and whether the reply was wrong
against the suite's exact truth (``None`` where the suite holds no truth for it). The
scorers turn the ledger into per-role counts (`infoseek.scorers.role_metrics`).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from inspect_ai.model import ChatMessage, ChatMessageSystem, ChatMessageUser, get_model, model_roles
from inspect_ai.util import LimitExceededError, store

from infoseek.contract import STORE_ROLES
from infoseek.text import storable_text

MAX_ERROR_CHARS = 500
"""The recorded text of a role's exception is cut to this many characters."""


def role_bound(role: str) -> bool:
    """Whether the running evaluation binds the model role `role`."""
    return model_roles().get(role) is not None


async def role_reply(role: str, user: str, *, system: str | None = None) -> str:
    """The completion text of the model bound to `role` for one user message, after an
    optional system message ("" when the model returns no text), made storable
    (`infoseek.text.storable_text`): it may reach the history, the store or a score.
    Raises what the model raises; callers use `role_call`."""
    messages: list[ChatMessage] = []
    if system is not None:
        messages.append(ChatMessageSystem(content=system))
    messages.append(ChatMessageUser(content=user))
    output = await get_model(role=role).generate(messages)
    return storable_text(output.completion or "")


@dataclass(frozen=True)
class RoleCall:
    """One call of a role: its reply text, or (``text is None``) the exception it raised
    as ``"TypeName: message"``."""

    text: str | None
    raised: str | None = None


async def role_call(role: str, user: str, *, system: str | None = None) -> RoleCall:
    """`role_reply`, with any exception of the role's model caught and returned
    (`RoleCall.raised`): the caller then plays its rule. A sample limit (time, tokens,
    messages) is not the role's failure and still ends the sample as Inspect decides."""
    try:
        return RoleCall(await role_reply(role, user, system=system))
    except LimitExceededError:
        raise
    except Exception as error:  # a role never errors the sample
        return RoleCall(None, storable_text(f"{type(error).__name__}: {error}")[:MAX_ERROR_CHARS])


def record_role_reply(role: str, *, turn: int | None, wrong: bool | None,
                      raised: str | None = None, **details: Any) -> None:
    """Append one measured role reply to the sample's ledger (`STORE_ROLES`): ``wrong``
    is True or False against the suite's exact truth, None when it holds none (or the
    call raised: the rule answered instead); `details` (plain values) are kept beside."""
    entry = {"role": role, "turn": turn, "wrong": wrong, "raised": raised, **details}
    ledger = list(store().get(STORE_ROLES) or [])
    ledger.append(entry)
    store().set(STORE_ROLES, ledger)


def role_ledger() -> list[dict[str, Any]]:
    """The measured role replies of the running sample so far."""
    return list(store().get(STORE_ROLES) or [])
