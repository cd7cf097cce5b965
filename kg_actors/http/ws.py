"""The /ws change feed: each socket hears the writes of the graphs it subscribed to.

A socket gets its own forwarder task (scoped to the socket), fed by a bounded
queue from the ChangeFeed; the handler itself reads the client's messages
(`ping`, `{"type": "subscribe", "project_path": ...}`).
"""

from __future__ import annotations

import json
from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING

import trio
from starlette.websockets import WebSocket, WebSocketDisconnect

from ..conduct import graphs
from ..core.errors import InvalidInput

if TYPE_CHECKING:
    from ..feed import Event
    from .guard import RuntimeParts


def endpoint(runtime: RuntimeParts) -> Callable[[WebSocket], Awaitable[None]]:
    async def ws(websocket: WebSocket) -> None:
        await websocket.accept()
        try:
            watched = graphs.watched_project(websocket.query_params.get("project_path"))
        except InvalidInput:
            watched = None  # the tab's subscribe message says so again, and hears why it is refused
        key, events = runtime.feed.subscribe(watched)
        try:
            await websocket.send_json({"type": "connected"})
            async with trio.open_nursery() as nursery:
                nursery.start_soon(_forward, websocket, events)
                try:
                    await _read(websocket, runtime, key)
                finally:
                    nursery.cancel_scope.cancel()
        except* WebSocketDisconnect:
            pass  # the tab closed
        finally:
            runtime.feed.unsubscribe(key)

    return ws


async def _read(websocket: WebSocket, runtime: RuntimeParts, key: int) -> None:
    while True:
        frame = await websocket.receive()
        if frame["type"] == "websocket.disconnect":
            raise WebSocketDisconnect(frame.get("code", 1000))
        message = frame.get("text")
        if message is None:
            continue  # a binary frame: the feed speaks text only (it was json.loads(None): a traceback)
        if message == "ping":
            await websocket.send_json({"type": "pong"})
            continue
        try:
            data = json.loads(message)
        except ValueError:
            continue
        if isinstance(data, dict) and data.get("type") == "subscribe":
            try:
                watched = graphs.watched_project(data.get("project_path"))
            except InvalidInput as exc:  # confirmed, it heard nothing: `…/alpha/` never matched an event
                await websocket.send_json({"type": "error", "field": exc.field, "error": str(exc)})
                continue
            runtime.feed.resubscribe(key, watched)
            # Answered with the path as the tab sent it: the page matches its answer by that.
            await websocket.send_json({"type": "subscribed", "project_path": data.get("project_path")})


async def _forward(websocket: WebSocket, events: trio.MemoryReceiveChannel[Event]) -> None:
    async for event in events:
        try:
            await websocket.send_json(event)
        except (WebSocketDisconnect, RuntimeError, OSError):
            return
    # The feed closed this socket's queue: it fell behind. Close the socket too, so that the tab
    # reconnects and re-reads (it stayed open, answering pings, deaf to every write after).
    try:
        await websocket.close(code=1013, reason="the change feed fell behind: reconnect and re-read")
    except (RuntimeError, OSError):
        pass
