"""The change feed: every write is published here; /ws subscribers each get a bounded queue.

Publishing never blocks a writer: a subscriber that falls behind by a full
queue is dropped (its socket closes; the editor reconnects and re-reads).
"""

from __future__ import annotations

from typing import Any

import trio

SUBSCRIBER_QUEUE = 256
Event = dict[str, Any]  # one change, JSON-ready: {"type": "node_updated", "level": ..., ...}


class ChangeFeed:
    def __init__(self) -> None:
        self._subscribers: dict[int, tuple[trio.MemorySendChannel[Event], str | None]] = {}
        self._next = 0

    def publish(self, event: Event) -> None:
        for key, (send, project) in list(self._subscribers.items()):
            # A project tab hears its project and the user graph; a user tab hears the user graph.
            level = event.get("level")
            if level == "project" and event.get("project_path") != project:
                continue
            if level == "maintain" and project != "maintain":
                continue
            try:
                send.send_nowait(event)
            except (trio.WouldBlock, trio.BrokenResourceError, trio.ClosedResourceError):
                send.close()
                del self._subscribers[key]

    def subscribe(self, project: str | None) -> tuple[int, trio.MemoryReceiveChannel[Event]]:
        send, receive = trio.open_memory_channel[Event](SUBSCRIBER_QUEUE)
        key, self._next = self._next, self._next + 1
        self._subscribers[key] = (send, project)
        return key, receive

    def resubscribe(self, key: int, project: str | None) -> None:
        if key in self._subscribers:
            self._subscribers[key] = (self._subscribers[key][0], project)

    def unsubscribe(self, key: int) -> None:
        entry = self._subscribers.pop(key, None)
        if entry:
            entry[0].close()


