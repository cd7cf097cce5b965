"""What the delivery registry (Antigravity's per-conversation hook queues) answers to, and its handle."""

from __future__ import annotations

from typing import Any

import attrs

from . import actor
from .core import delivery
from .deferral import Held


@attrs.frozen
class Conversation:
    """What a hook needs to know of a conversation: whether a hook came before, how far its transcript was read."""

    hooked: bool
    transcript_offset: int


@attrs.frozen
class Enqueued:
    item_id: int
    dropped: int  # older replies the bound dropped to make room
    kept: bool  # False: the reply alone is larger than the whole queue bound


@attrs.frozen
class DeliveryMessage(actor.Message[actor.R]):
    pass


@attrs.frozen
class NoteHook(DeliveryMessage[Conversation]):
    """A hook of this conversation arrived: its queue is kept (least recently heard from goes first)."""

    op = "note_hook"
    conversation: str
    now: float


@attrs.frozen
class Hooked(DeliveryMessage[bool]):
    op = "hooked"
    conversation: str


@attrs.frozen
class SetTranscriptOffset(DeliveryMessage[None]):
    op = "set_transcript_offset"
    conversation: str
    offset: int


@attrs.frozen
class Enqueue(DeliveryMessage[Enqueued]):
    op = "enqueue"
    conversation: str
    kind: str
    text: str
    held: list[Held]  # what the reply implies, applied when its last byte is acknowledged
    first: bool = False


@attrs.frozen
class NextPacket(DeliveryMessage["delivery.Packet | None"]):
    op = "next_packet"
    conversation: str


@attrs.frozen
class Ack(DeliveryMessage["list[list[Held]]"]):
    """The hook printed packet `packet_id`: the effects of the items it completed, to apply now."""

    op = "ack"
    conversation: str
    packet_id: int


@attrs.frozen
class Reset(DeliveryMessage[int]):
    """A checkpoint or a new conversation: drop what is queued (its effects never apply); how many."""

    op = "reset"
    conversation: str


BY_NAME: dict[str, type[DeliveryMessage[Any]]] = actor.by_name(DeliveryMessage, list(globals().values()))


@attrs.frozen
class DeliveryHandle:
    _mailbox: actor.Mailbox[DeliveryMessage[Any]]

    def close(self) -> None:
        self._mailbox.send.close()

    async def note_hook(self, conversation: str, now: float) -> Conversation:
        return await self._mailbox.ask(NoteHook(conversation, now))

    async def hooked(self, conversation: str) -> bool:
        return await self._mailbox.ask(Hooked(conversation))

    async def set_transcript_offset(self, conversation: str, offset: int) -> None:
        return await self._mailbox.ask(SetTranscriptOffset(conversation, offset))

    async def enqueue(self, conversation: str, kind: str, text: str, held: list[Held],
                      first: bool = False) -> Enqueued:
        return await self._mailbox.ask(Enqueue(conversation, kind, text, held, first))

    async def next_packet(self, conversation: str) -> delivery.Packet | None:
        return await self._mailbox.ask(NextPacket(conversation))

    async def ack(self, conversation: str, packet_id: int) -> list[list[Held]]:
        return await self._mailbox.ask(Ack(conversation, packet_id))

    async def reset(self, conversation: str) -> int:
        return await self._mailbox.ask(Reset(conversation))
