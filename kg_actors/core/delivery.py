"""Antigravity's hook delivery queue, as pure rules: bounds, chunking, acknowledgement, reset.

Antigravity cuts MCP results above about 10 KB, so a tool reply over INLINE_BYTES
is queued per conversation and the next hook carries it in packets of at most
HOOK_BYTES. A packet is only a proposal: what it implies is recorded when the
hook acknowledges that packet, and a packet that is never acknowledged is sent
again from the same place (duplication is safe; loss is not). Everything here
counts UTF-8 bytes, the unit Antigravity counts in.
"""

from __future__ import annotations

import dataclasses

INLINE_BYTES = 3_500  # a reply up to this size goes inline (also under the CLI's 4,096 lazy-tool route)
HOOK_BYTES = 40_000  # one hook packet, framing included
FRAME_RESERVE = 700  # what the headers and the continuation line may take of a packet
QUEUE_BYTES = 1 << 20  # undelivered bytes per conversation (a preload is exempt)
QUEUE_ITEMS = 64  # undelivered replies per conversation (a preload is exempt)
CONVERSATIONS = 256  # conversations whose queues are kept; the least recently heard from goes first


def size(text: str) -> int:
    return len(text.encode("utf-8"))


@dataclasses.dataclass(frozen=True)
class Item:
    """One queued reply; `sent`: bytes of its text already acknowledged."""

    id: int
    kind: str
    text: str
    first: bool = False  # a preload: ahead of every reply, never dropped by the bound
    sent: int = 0

    @property
    def left(self) -> int:
        return size(self.text) - self.sent


@dataclasses.dataclass(frozen=True)
class Packet:
    """What one hook reply carries: `upto` maps item id -> byte offset reached by this packet."""

    id: int
    text: str
    upto: tuple[tuple[int, int], ...]
    notes: int  # how many drop notes it carries
    complete: bool  # nothing is left behind it


@dataclasses.dataclass(frozen=True)
class Queue:
    items: tuple[Item, ...] = ()
    notes: tuple[str, ...] = ()  # said once, ahead of the next packet: what the bound dropped
    next_id: int = 1
    sent: Packet | None = None  # the newest packet handed out and not yet acknowledged

    @property
    def empty(self) -> bool:
        return not self.items and not self.notes


def enqueue(queue: Queue, kind: str, text: str, first: bool = False,
            max_bytes: int = QUEUE_BYTES, max_items: int = QUEUE_ITEMS) -> tuple[Queue, int, tuple[Item, ...]]:
    """Queue `text`; returns the queue, the new item's id and the items the bound dropped (oldest first).

    A preload goes ahead of the replies and is exempt from the bound; a reply
    larger than the whole bound is dropped at once (its note says so).
    """
    item = Item(queue.next_id, kind, text, first)
    items = [i for i in queue.items if i.first] + ([item] if first else [])
    replies = [i for i in queue.items if not i.first] + ([] if first else [item])
    dropped: list[Item] = []
    while replies and (len(replies) > max_items or sum(i.left for i in replies) > max_bytes):
        dropped.append(replies.pop(0))
    notes = queue.notes + tuple(drop_note(i) for i in dropped)
    return (Queue(tuple(items + replies), notes, queue.next_id + 1, queue.sent), item.id, tuple(dropped))


def drop_note(item: Item) -> str:
    return (f"KG delivery: a queued {item.kind} reply ({item.left:,} bytes) was dropped because this "
            f"conversation's queue was full ({QUEUE_ITEMS} replies / {QUEUE_BYTES:,} bytes); nothing it showed "
            f"counts as seen. Call {item.kind} again if you still need it.")


def header(item: Item, part: int) -> str:
    return f"KG context — {item.kind}{'' if part == 0 else ' (continued)'}:\n"


CONTINUES = ("KG delivery continues: more queued memory context follows with the next hook. Call "
             "kg_sync(session_id) to trigger it; the reply is complete only after all parts arrive.")


def packet(queue: Queue, budget: int = HOOK_BYTES) -> tuple[Queue, Packet | None]:
    """The next packet from where the acknowledged bytes end; it replaces any unacknowledged one."""
    if queue.empty:
        return dataclasses.replace(queue, sent=None), None
    room = budget - FRAME_RESERVE
    blocks: list[str] = list(queue.notes)
    room -= sum(size(n) + 2 for n in blocks)
    upto: list[tuple[int, int]] = []
    complete = True
    for item in queue.items:
        head = header(item, item.sent)
        if room <= size(head) + 1:
            complete = False
            break
        raw = item.text.encode("utf-8")
        end = cut(raw, item.sent, room - size(head))
        blocks.append(head + raw[item.sent:end].decode("utf-8"))
        room -= size(blocks[-1]) + 2
        upto.append((item.id, end))
        if end < len(raw):
            complete = False
            break
    if not complete:
        blocks.append(CONTINUES)
    number = queue.next_id
    out = Packet(number, "\n\n".join(blocks), tuple(upto), len(queue.notes), complete)
    return dataclasses.replace(queue, next_id=number + 1, sent=out), out


def cut(raw: bytes, start: int, room: int) -> int:
    """Where a chunk of `raw` from `start` ends: within `room` bytes, at a line end when one is near,
    never inside a UTF-8 sequence."""
    end = start + room
    if end >= len(raw):
        return len(raw)
    line = raw.rfind(b"\n", start, end)
    if line > start + room // 2:
        return line + 1
    while end > start and (raw[end] & 0xC0) == 0x80:  # a continuation byte: back to its lead byte
        end -= 1
    return end


def ack(queue: Queue, packet_id: object) -> tuple[Queue, tuple[Item, ...]]:
    """Acknowledge the packet handed out last; returns the queue and the items it completed.

    An ack for any other packet (stale, unknown, of a queue reset since) changes nothing.
    """
    sent = queue.sent
    if sent is None or packet_id != sent.id:
        return queue, ()
    reached = dict(sent.upto)
    kept: list[Item] = []
    done: list[Item] = []
    for item in queue.items:
        if item.id not in reached:
            kept.append(item)
        elif reached[item.id] >= size(item.text):
            done.append(item)
        else:
            kept.append(dataclasses.replace(item, sent=reached[item.id]))
    return Queue(tuple(kept), queue.notes[sent.notes:], queue.next_id, None), tuple(done)


def reset(queue: Queue) -> tuple[Queue, tuple[Item, ...]]:
    """A checkpoint or a new conversation: nothing queued is delivered; returns what was dropped.

    Item and packet numbers keep counting, so an ack of a packet from before the reset matches nothing.
    """
    return Queue((), (), queue.next_id, None), queue.items
