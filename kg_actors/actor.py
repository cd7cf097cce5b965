"""The two actor primitives: a one-shot reply slot and a bounded mailbox.

An actor reads `Request`s from its mailbox one at a time and resolves each
slot synchronously; the caller awaits the slot, and an actor-side error is
re-raised in the caller. When an actor stops, whatever is left in its inbox is
answered with ActorStopped, so no caller waits forever.
"""

from __future__ import annotations

from typing import Any

import attrs
import outcome
import trio

from .core.constants import MAILBOX_BURST, MAILBOX_SIZE
from .core.errors import ActorStopped


class ReplySlot:
    __slots__ = ("_event", "_outcome")

    def __init__(self) -> None:
        self._event = trio.Event()
        self._outcome: outcome.Outcome | None = None

    @property
    def done(self) -> bool:
        return self._outcome is not None

    def set(self, value: Any) -> None:
        if self._outcome is None:
            self._outcome = outcome.Value(value)
            self._event.set()

    def fail(self, error: BaseException) -> None:
        if self._outcome is None:
            self._outcome = outcome.Error(error)
            self._event.set()

    async def wait(self) -> Any:
        await self._event.wait()
        assert self._outcome is not None
        return self._outcome.unwrap()


@attrs.frozen
class Request:
    """One message: the intent (`op`), its arguments, and where the answer goes."""

    op: str
    args: dict
    reply: ReplySlot


class Mailbox:
    """The private side of an actor's channel, plus the `ask` its handle uses."""

    def __init__(self, name: str, size: int = MAILBOX_SIZE):
        self.name = name
        self.send, self.receive = trio.open_memory_channel[Request](size)

    async def ask(self, op: str, **args: Any) -> Any:
        slot = ReplySlot()
        try:
            await self.send.send(Request(op, args, slot))
        except (trio.ClosedResourceError, trio.BrokenResourceError):
            raise ActorStopped(f"{self.name} is not running") from None
        return await slot.wait()

    async def tell(self, op: str, **args: Any) -> None:
        """A message whose answer nobody waits for: it is queued in order, so a later ask sees its effect."""
        req = Request(op, args, ReplySlot())
        try:
            self.send.send_nowait(req)
        except trio.WouldBlock:  # a full mailbox: wait for room, as an ask would
            await self.send.send(req)
        except (trio.ClosedResourceError, trio.BrokenResourceError):
            raise ActorStopped(f"{self.name} is not running") from None

    def burst(self, first: Request, limit: int = MAILBOX_BURST):
        """`first` and what is already queued behind it (up to `limit`), without a checkpoint between.

        For an actor whose messages are all quick: a caller's ask waits one
        scheduling round, not one round per message queued ahead of it.
        """
        yield first
        for _ in range(limit - 1):
            try:
                yield self.receive.receive_nowait()
            except (trio.WouldBlock, trio.EndOfChannel):
                return

    def drain_stopped(self) -> None:
        """Answer everything still queued: the actor is gone."""
        self.send.close()
        while True:
            try:
                req = self.receive.receive_nowait()
            except (trio.WouldBlock, trio.EndOfChannel, trio.ClosedResourceError):
                break
            req.reply.fail(ActorStopped(f"{self.name} stopped"))
