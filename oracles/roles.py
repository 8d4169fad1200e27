"""Model-backed roles: the one way any protocol asks a bound model role for a reply.

A task may bind a role (``--model-role matcher=...``, or the task's ``model_roles``) for
a part a rule plays otherwise: the seek loop's ``matcher``, Twenty Questions'
``examiner``, ``evaluator`` and ``transfer``, the incomplete-questions ``user`` and
``judge``. Every caller follows one pattern: when `role_bound(role)` it takes
`role_reply(role, user, system=...)`, else its deterministic rule. This is the one module
of the oracle layer that talks to Inspect (it calls the bound model); the rules stay
pure beside the callers.
"""

from __future__ import annotations

from inspect_ai.model import ChatMessage, ChatMessageSystem, ChatMessageUser, get_model, model_roles

from infoseek.text import storable_text


def role_bound(role: str) -> bool:
    """Whether the running evaluation binds the model role `role`."""
    return model_roles().get(role) is not None


async def role_reply(role: str, user: str, *, system: str | None = None) -> str:
    """The completion text of the model bound to `role` for one user message, after an
    optional system message ("" when the model returns no text), made storable
    (`infoseek.text.storable_text`): it may reach the history, the store or a score."""
    messages: list[ChatMessage] = []
    if system is not None:
        messages.append(ChatMessageSystem(content=system))
    messages.append(ChatMessageUser(content=user))
    output = await get_model(role=role).generate(messages)
    return storable_text(output.completion or "")
