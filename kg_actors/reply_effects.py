"""Effects on delivery: what a reply shows counts as shown only once the reply went out.

A hook client gives the server about a second (curl --max-time 1), an MCP client its own
timeout: a reply it gave up on is never read. A push marked seen when its reply was built, or a
kg_read part taken from the pending ones, would then be lost to the session (reference finding
F38; formal/models/dropped_reply.py). While a hook endpoint or an MCP request (http.app) builds
its reply inside `collect()`, the parts that show something register what to do once it is
sent (mark it seen) and what to do when the client is gone (offer it again); the endpoint runs
one or the other, by `client_gone` just before it writes the reply.
"""

from __future__ import annotations

import contextvars
import logging
from collections.abc import Awaitable, Callable, Iterator, Mapping, MutableMapping
from contextlib import contextmanager
from typing import Any

import trio

from . import deferral, peers
from .core.errors import StorageRefused

log = logging.getLogger(__name__)

Effect = Callable[[], Awaitable[None]]
_collecting: contextvars.ContextVar[Effects | None] = contextvars.ContextVar("kg_delivery", default=None)


class Effects:
    """What a reply's parts do once it is delivered, and once it is abandoned."""

    def __init__(self) -> None:
        self._delivered: list[Effect] = []
        self._abandoned: list[Effect] = []
        self._revocable: list[Effect] = []  # the abandoned ones, kept once delivered: `revoke`

    def __bool__(self) -> bool:
        return bool(self._delivered or self._abandoned)

    @property
    def revocable(self) -> bool:
        return bool(self._revocable)

    async def delivered(self) -> None:
        revocable = list(self._abandoned)
        await self._run(self._delivered)
        self._revocable = revocable

    async def abandoned(self) -> None:
        await self._run(self._abandoned)

    async def revoke(self) -> None:
        """The client said, once its reply was sent, that it dropped it (an MCP cancel read late,
        http/cancels.py): what was handed out is offered again (a kg_read part; its nodes stay seen)."""
        todo, self._revocable = self._revocable, []
        await self._run(todo)

    async def _run(self, effects: list[Effect]) -> None:
        todo, self._delivered, self._abandoned = list(effects), [], []
        with trio.CancelScope(shield=True):  # a cancelled request must not leave half its effects
            for effect in todo:
                try:
                    await effect()
                except StorageRefused as exc:  # a full or read-only disk: expected, and said where it is refused
                    log.warning("an effect on delivery (a read stamp) was not kept: %s", exc)
                except Exception:
                    log.exception("an effect on delivery failed")


@contextmanager
def collect() -> Iterator[Effects]:
    effects = Effects()
    token = _collecting.set(effects)
    try:
        yield effects
    finally:
        _collecting.reset(token)


def defer(on_delivered: Effect, on_abandoned: Effect | None = None) -> bool:
    """Register effects with the reply being built; False when no endpoint collects them (a tool
    called in-process), or when the reply is held for later delivery (deferral.holding: Antigravity's
    queue replays them on acknowledgement): the caller then runs `on_delivered` itself."""
    effects = _collecting.get()
    if effects is None or deferral.active():  # a held reply's effects wait for its acknowledgement instead
        return False
    effects._delivered.append(on_delivered)
    if on_abandoned is not None:
        effects._abandoned.append(on_abandoned)
    return True


async def client_gone(scope: Mapping[str, Any], receive: Callable[[], Awaitable[MutableMapping[str, Any]]]) -> bool:
    """Whether the client hung up, looking without waiting (the request's body already read).

    Over a socket the connection is asked (peers.py: the server does not read it while the app
    answers). Otherwise an `http.disconnect` already queued says so. Starlette's `is_disconnected`
    asks inside an already-cancelled scope, which under trio raises before the queue is looked at;
    a deadline of now lets `receive` take a queued message first.
    """
    if peers.hung_up(scope):
        return True
    message: MutableMapping[str, Any] = {}
    with trio.move_on_after(0):
        message = await receive()
    return message.get("type") == "http.disconnect"


async def once_delivered(effect: Effect, on_abandoned: Effect | None = None) -> None:
    """Run `effect` once the reply being built is sent, or now when no endpoint collects it (or the
    reply is held for later delivery); `on_abandoned` when its client is gone by then."""
    if not defer(effect, on_abandoned):
        await effect()
