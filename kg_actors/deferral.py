"""Holding back what a reply implies until the client confirms it got the reply.

A reply queued for later delivery (Antigravity's hook queue) must not count as
seen, read, promoted or pushed before it arrives. Inside `holding()`, every
message sent through a mailbox that declares `deferral` is kept instead of
applied:

- "hold": the message is recorded and answered with its `held` value at once;
- "peek": its peek twin (the same message with `peek=True`, which reads without
  changing anything) is sent for the answer, and the message itself recorded.

`replay()` later sends the recorded messages, in order, with their original
arguments (their own `now`), and returns their answers. Nothing here owns state
between calls: the recorder lives for one `holding()` block.
"""

from __future__ import annotations

import contextlib
import contextvars
from collections.abc import Iterator
from typing import Any, Protocol

import attrs


class _Mailbox(Protocol):
    async def ask(self, message: Any) -> Any: ...


@attrs.frozen
class Held:
    mailbox: Any  # the actor's Mailbox
    message: Any  # the frozen message, its reply slot unused


_RECORDER: contextvars.ContextVar[list[Held] | None] = contextvars.ContextVar("kg_deferral", default=None)


@contextlib.contextmanager
def holding() -> Iterator[list[Held]]:
    """Record instead of apply, in this task (and tasks it starts) until the block ends."""
    held: list[Held] = []
    token = _RECORDER.set(held)
    try:
        yield held
    finally:
        _RECORDER.reset(token)


@contextlib.contextmanager
def applying() -> Iterator[None]:
    """Apply at once inside a holding block (the replay, a peek twin)."""
    token = _RECORDER.set(None)
    try:
        yield
    finally:
        _RECORDER.reset(token)


def active() -> bool:
    return _RECORDER.get() is not None


async def intercept(mailbox: _Mailbox, message: Any) -> tuple[bool, Any]:
    """(True, answer) when the message was held; (False, None) when it must be sent as usual."""
    held = _RECORDER.get()
    kind = getattr(message, "deferral", "")
    if held is None or not kind:
        return False, None
    held.append(Held(mailbox, message))
    if kind == "hold":
        return True, message.held_answer
    with applying():
        twin = attrs.evolve(message, peek=True, reply=type(message.reply)())
        return True, await mailbox.ask(twin)


async def replay(held: list[Held]) -> list[tuple[Any, Any]]:
    """Apply what was held, in order; (message, answer) pairs. A stopped actor's messages are skipped."""
    from .core.errors import ActorStopped

    out = []
    with applying():
        for h in held:
            fresh = attrs.evolve(h.message, reply=type(h.message.reply)())
            try:
                out.append((h.message, await h.mailbox.ask(fresh)))
            except ActorStopped:
                continue
    return out
