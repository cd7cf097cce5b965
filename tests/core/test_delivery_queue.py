"""Antigravity's hook delivery queue (core/delivery.py): bounds, chunking, acknowledgement, reset."""

from __future__ import annotations

from kg_actors.core import delivery as D


def test_a_small_reply_arrives_whole_in_one_packet_and_the_ack_completes_it():
    q, item, dropped = D.enqueue(D.Queue(), "kg_read", "line one\nline two\n")
    assert dropped == ()
    q, p = D.packet(q)
    assert p is not None and p.complete
    assert p.text == "KG context — kg_read:\nline one\nline two\n"
    q, done = D.ack(q, p.id)
    assert [i.id for i in done] == [item] and q.empty and q.sent is None


def test_a_large_reply_is_cut_into_packets_within_the_hook_limit_and_rebuilds_exactly():
    text = "".join(f"line {n:05d} — ünïcode ✓ {'x' * (n % 90)}\n" for n in range(3_000))  # ~200 KB, multibyte
    q, item, _ = D.enqueue(D.Queue(), "kg_read", text)
    got, packets = [], 0
    while True:
        q, p = D.packet(q)
        if p is None:
            break
        packets += 1
        assert D.size(p.text) <= D.HOOK_BYTES
        body = p.text
        if not p.complete:
            assert body.endswith(D.CONTINUES)
            body = body[: -len(D.CONTINUES) - 2]
        got.append(body.split(":\n", 1)[1])
        q, done = D.ack(q, p.id)
        assert bool(done) == p.complete
    assert "".join(got) == text
    assert packets == -(-D.size(text) // (D.HOOK_BYTES - D.FRAME_RESERVE)) or packets > 1


def test_an_unacknowledged_packet_is_sent_again_from_the_same_place():
    q, _, _ = D.enqueue(D.Queue(), "kg_search", "a" * 100_000)
    q, first = D.packet(q)
    q, again = D.packet(q)  # the hook never acked: the next hook gets the same bytes again
    assert first is not None and again is not None and first.text == again.text and first.id != again.id
    q, done = D.ack(q, first.id)  # an ack of the replaced packet changes nothing
    assert done == () and q.items[0].sent == 0
    q, done = D.ack(q, again.id)
    assert done == () and q.items[0].sent == dict(again.upto)[q.items[0].id] > 0


def test_the_bound_drops_the_oldest_replies_with_a_note_and_exempts_the_preload():
    q, pre, _ = D.enqueue(D.Queue(), "preload", "p" * 9_000, first=True)
    ids = []
    for n in range(D.QUEUE_ITEMS + 3):
        q, i, dropped = D.enqueue(q, f"kg_search", f"reply {n}")
        ids.append(i)
    assert len(q.items) == D.QUEUE_ITEMS + 1 and q.items[0].id == pre
    assert [i.id for i in q.items[1:]] == ids[3:]
    assert len(q.notes) == 3 and "was dropped" in q.notes[0]
    q, big, dropped = D.enqueue(q, "kg_read", "b" * (D.QUEUE_BYTES - 10))
    assert q.items[0].id == pre and q.items[-1].id == big
    assert sum(i.left for i in q.items if not i.first) <= D.QUEUE_BYTES
    q, p = D.packet(q)
    assert p is not None and p.text.startswith("KG delivery: a queued kg_search reply")
    assert p.text.index("KG context — preload") < p.text.index("KG context — kg_read")


def test_a_reply_larger_than_the_whole_bound_is_dropped_at_once():
    q, item, dropped = D.enqueue(D.Queue(), "kg_read", "z" * (D.QUEUE_BYTES + 1))
    assert [d.id for d in dropped] == [item] and not q.items and len(q.notes) == 1


def test_a_reset_drops_everything_and_a_packet_from_before_it_acks_nothing():
    q, _, _ = D.enqueue(D.Queue(), "kg_read", "r" * 50_000)
    q, old = D.packet(q)
    q, dropped = D.reset(q)
    assert len(dropped) == 1 and q.empty
    q, fresh, _ = D.enqueue(q, "preload", "new core", first=True)
    q, done = D.ack(q, old.id)
    assert done == () and [i.id for i in q.items] == [fresh]


def test_cut_never_splits_a_utf8_sequence():
    raw = ("é" * 10).encode()
    for room in range(1, 19):
        end = D.cut(raw, 0, room)
        raw[:end].decode("utf-8")  # raises if cut inside a character
        assert end <= room
