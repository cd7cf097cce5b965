"""The delivery registry: owns every Antigravity conversation's hook queue (core/delivery.py rules).

State lives in memory only: a queued reply's effects are held messages to live
actors, so after a restart there is nothing to deliver and nothing was
recorded, the same outcome as a hook that never acknowledged.
"""

from __future__ import annotations

import logging
from collections import OrderedDict
from collections.abc import Callable
from typing import Any

import attrs
import trio

from . import actor
from . import delivery_messages as m
from .core import delivery
from .core.errors import KGError
from .deferral import Held

log = logging.getLogger(__name__)


@attrs.define
class Conversation:
    queue: delivery.Queue = attrs.field(factory=delivery.Queue)
    held: dict[int, list[Held]] = attrs.field(factory=dict)  # item id -> what it implies
    hooked: bool = False
    transcript_offset: int = 0


class Deliveries:
    def __init__(self, keep: int = delivery.CONVERSATIONS):
        self.keep = keep
        self.conversations: OrderedDict[str, Conversation] = OrderedDict()

    def _get(self, key: str) -> Conversation:
        conv = self.conversations.get(key)
        if conv is None:
            conv = self.conversations[key] = Conversation()
            while len(self.conversations) > self.keep:
                self.conversations.popitem(last=False)
        else:
            self.conversations.move_to_end(key)
        return conv

    def note_hook(self, msg: m.NoteHook) -> m.Conversation:
        conv = self._get(msg.conversation)
        out = m.Conversation(conv.hooked, conv.transcript_offset)
        conv.hooked = True
        return out

    def hooked(self, msg: m.Hooked) -> bool:
        conv = self.conversations.get(msg.conversation)
        return conv is not None and conv.hooked

    def set_transcript_offset(self, msg: m.SetTranscriptOffset) -> None:
        self._get(msg.conversation).transcript_offset = msg.offset

    def enqueue(self, msg: m.Enqueue) -> m.Enqueued:
        conv = self._get(msg.conversation)
        conv.queue, item_id, dropped = delivery.enqueue(conv.queue, msg.kind, msg.text, msg.first)
        conv.held[item_id] = list(msg.held)
        for item in dropped:
            conv.held.pop(item.id, None)
        kept = item_id not in {i.id for i in dropped}
        return m.Enqueued(item_id, len(dropped) - (0 if kept else 1), kept)

    def next_packet(self, msg: m.NextPacket) -> delivery.Packet | None:
        conv = self.conversations.get(msg.conversation)
        if conv is None:
            return None
        conv.queue, out = delivery.packet(conv.queue)
        return out

    def ack(self, msg: m.Ack) -> list[list[Held]]:
        conv = self.conversations.get(msg.conversation)
        if conv is None:
            return []
        conv.queue, done = delivery.ack(conv.queue, msg.packet_id)
        return [conv.held.pop(item.id, []) for item in done]

    def reset(self, msg: m.Reset) -> int:
        conv = self.conversations.get(msg.conversation)
        if conv is None:
            return 0
        conv.queue, dropped = delivery.reset(conv.queue)
        conv.held.clear()
        return len(dropped)


HANDLERS: dict[type[m.DeliveryMessage[Any]], Callable[[Deliveries, Any], object]] = {
    m.NoteHook: Deliveries.note_hook, m.Hooked: Deliveries.hooked,
    m.SetTranscriptOffset: Deliveries.set_transcript_offset, m.Enqueue: Deliveries.enqueue,
    m.NextPacket: Deliveries.next_packet, m.Ack: Deliveries.ack, m.Reset: Deliveries.reset,
}


async def run_deliveries(*, task_status: trio.TaskStatus[m.DeliveryHandle] = trio.TASK_STATUS_IGNORED) -> None:
    state = Deliveries()
    mailbox = actor.Mailbox[m.DeliveryMessage[Any]]("delivery registry")
    task_status.started(m.DeliveryHandle(mailbox))
    try:
        async for first in mailbox.receive:
            for msg in mailbox.burst(first):
                try:
                    msg.reply.set(HANDLERS[type(msg)](state, msg))
                except Exception as exc:  # one bad message must not take the queues down
                    log.exception("delivery registry: %s failed", msg.op)
                    msg.reply.fail(KGError(f"internal error while handling {msg.op}: {exc!r}"))
    finally:
        mailbox.drain_stopped()
