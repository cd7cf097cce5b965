"""The /ws forwarder: a tab whose queue the feed dropped (it fell behind) is closed, so that it reconnects."""

from __future__ import annotations

import trio

from kg_actors.feed import SUBSCRIBER_QUEUE, ChangeFeed
from kg_actors.http import ws


class _Socket:
    def __init__(self) -> None:
        self.sent: list[dict] = []
        self.closed: tuple[int, str] | None = None

    async def send_json(self, event: dict) -> None:
        self.sent.append(event)

    async def close(self, code: int = 1000, reason: str | None = None) -> None:
        self.closed = (code, reason or "")


async def test_a_subscriber_the_feed_dropped_gets_its_queue_then_a_close_asking_it_to_reconnect():
    feed = ChangeFeed()
    _, events = feed.subscribe(None)
    for i in range(SUBSCRIBER_QUEUE + 1):  # the last one overflows: the feed drops the subscriber
        feed.publish({"type": "node_updated", "level": "user", "n": i})
    socket = _Socket()
    with trio.fail_after(5):
        await ws._forward(socket, events)  # type: ignore[arg-type]  # the two calls a socket needs
    assert [e["n"] for e in socket.sent] == list(range(SUBSCRIBER_QUEUE))
    assert socket.closed is not None and socket.closed[0] == 1013 and "reconnect" in socket.closed[1]
