"""The actor primitives: a one-shot reply slot, the message base, and a bounded mailbox.

A message is a frozen attrs class that names its intent and carries its reply
slot; `Message[R]` says what the slot answers. An actor reads messages from
its mailbox one at a time and resolves each slot synchronously; the caller
awaits the slot, and an actor-side error is re-raised in the caller. When an
actor stops, whatever is left in its inbox is answered with ActorStopped, so
no caller waits forever.

Each message class declares `op`, its intent's name: the name of the typed
method its handle has for it, and what logs and tests call it (`by_name`).
"""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable, Generator, Iterable, Iterator
from typing import Any, ClassVar, Generic, TypeVar

import attrs
import outcome
import trio

from . import deferral
from .core.constants import MAILBOX_BURST, MAILBOX_SIZE
from .core.errors import ActorStopped

R = TypeVar("R")
M = TypeVar("M", bound="Message[Any]")
T = TypeVar("T")
log = logging.getLogger(__name__)


class ReplySlot(Generic[R]):
    __slots__ = ("_event", "_outcome")

    def __init__(self) -> None:
        self._event = trio.Event()
        self._outcome: outcome.Outcome[R] | None = None

    @property
    def done(self) -> bool:
        return self._outcome is not None

    def set(self, value: R) -> None:
        if self._outcome is None:
            self._outcome = outcome.Value(value)
            self._event.set()

    def fail(self, error: BaseException) -> None:
        if self._outcome is None:
            self._outcome = outcome.Error(error)
            self._event.set()

    async def wait(self) -> R:
        await self._event.wait()
        assert self._outcome is not None
        return self._outcome.unwrap()


@attrs.frozen
class Message(Generic[R]):
    """One request: its fields are the arguments, `reply` is where the answer goes."""

    op: ClassVar[str]  # the intent's name: its handle's method (by_name)
    # What a reply held for later delivery does with this message (deferral.py): "" sends it,
    # "hold" keeps it and answers `held_answer`, "peek" asks its `peek=True` twin and keeps it.
    deferral: ClassVar[str] = ""
    held_answer: ClassVar[Any] = None
    reply: ReplySlot[R] = attrs.field(factory=ReplySlot, kw_only=True, eq=False, repr=False)


def by_name(base: type[M], names: Iterable[object]) -> dict[str, type[M]]:
    """Intent name -> message class, for the subclasses of `base` among `names` (a module's)."""
    out: dict[str, type[M]] = {}
    for cls in names:
        if isinstance(cls, type) and issubclass(cls, base) and "op" in cls.__dict__:
            assert cls.op not in out, f"two messages named {cls.op!r}"
            out[cls.op] = cls
    return out


class Mailbox(Generic[M]):
    """The private side of an actor's channel, plus the `ask` its handle uses."""

    def __init__(self, name: str, size: int = MAILBOX_SIZE):
        self.name = name
        self.send, self.receive = trio.open_memory_channel[M](size)

    def waiting(self) -> bool:
        """Whether a message waits to be taken (someone is held while the actor does its own work)."""
        return self.receive.statistics().current_buffer_used > 0

    async def ask(self, message: Message[R]) -> R:
        if message.deferral and deferral.active():
            held, answer = await deferral.intercept(self, message)
            if held:
                return answer  # type: ignore[no-any-return]  # the message's declared held answer
        try:
            await self.send.send(message)  # type: ignore[arg-type]  # Message[R] is an M by construction
        except (trio.ClosedResourceError, trio.BrokenResourceError):
            raise ActorStopped(f"{self.name} is not running") from None
        return await message.reply.wait()

    async def tell(self, message: M) -> None:
        """A message whose answer nobody waits for: it is queued in order, so a later ask sees its effect."""
        if getattr(message, "deferral", "") and deferral.active() and (await deferral.intercept(self, message))[0]:
            return
        try:
            self.send.send_nowait(message)
        except trio.WouldBlock:  # a full mailbox: wait for room, as an ask would
            await self.send.send(message)
        except (trio.ClosedResourceError, trio.BrokenResourceError):
            raise ActorStopped(f"{self.name} is not running") from None

    def burst(self, first: M, limit: int = MAILBOX_BURST) -> Iterator[M]:
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
                message = self.receive.receive_nowait()
            except (trio.WouldBlock, trio.EndOfChannel, trio.ClosedResourceError):
                break
            message.reply.fail(ActorStopped(f"{self.name} stopped"))


async def prepared(steps: Generator[None, None, T], pause: Callable[[], Awaitable[None]], name: str,
                   op: str, failed: T) -> T:
    """An actor's stepwise read-only preparation of a message, pausing between its steps; `failed` if it
    raises (the message still runs)."""
    try:
        while True:
            next(steps)
            await pause()
    except StopIteration as done:
        value: T = done.value
        return value
    except Exception:
        log.exception("%s: preparing %s failed", name, op)
        return failed
