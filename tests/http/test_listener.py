"""The hook-aware listener: bulk work waits from a hook request's first bytes, not from the app's start."""

from __future__ import annotations

import socket

import trio
import trio.testing

from kg_actors.http.app import HOOK_PATHS
from kg_actors.http.listener import HookAwareListener, hook_request_starts
from kg_actors.lanes import Lanes

STARTS = hook_request_starts(HOOK_PATHS)
HOOK = b"POST /api/tool_event HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 2\r\n\r\n{}"
MCP = b"POST / HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 2\r\n\r\n{}"


def loopback_listener(lanes: Lanes) -> tuple[HookAwareListener, tuple]:
    sock = socket.socket()
    sock.bind(("127.0.0.1", 0))
    sock.listen(8)
    return HookAwareListener(sock, lanes, STARTS), sock.getsockname()


async def connect(address) -> trio.SocketStream:
    return await trio.open_tcp_stream(*address)


async def test_a_hook_request_already_in_the_socket_holds_from_accept():
    lanes = Lanes()
    listener, address = loopback_listener(lanes)
    client = await connect(address)
    await client.send_all(HOOK)
    await trio.testing.wait_all_tasks_blocked()
    stream = await listener.accept()
    assert lanes.busy()  # before hypercorn has read a byte
    assert await stream.receive_some(4096) == HOOK  # the peek left the request in the socket
    await stream.send_all(b"HTTP/1.1 200 OK\r\n\r\n")  # the reply releases the hold
    assert not lanes.busy()
    await stream.aclose()
    await client.aclose()
    await listener.aclose()


async def test_a_kept_alive_connection_holds_on_the_read_that_starts_a_hook():
    lanes = Lanes()
    listener, address = loopback_listener(lanes)
    client = await connect(address)
    stream = await listener.accept()
    await client.send_all(MCP)
    await stream.receive_some(4096)
    assert not lanes.busy()  # an MCP request is bulk work
    await client.send_all(HOOK)
    await stream.receive_some(4096)
    assert lanes.busy()
    await stream.aclose()  # a connection that closes before replying releases it too
    assert not lanes.busy()
    await client.aclose()
    await listener.aclose()


async def test_a_stalled_hook_request_stops_holding_after_the_hooks_time_limit(autojump_clock):
    lanes = Lanes(max_wait=0.05, hold_limit=1.0)
    hold = lanes.hold()
    assert lanes.busy()
    await trio.sleep(1.01)
    assert not lanes.busy()
    await lanes.step_aside()  # nothing waits for it any more
    assert trio.current_time() == 1.01
    hold.release()  # a late release is harmless
    assert not lanes.busy()


async def test_bulk_work_resuming_from_its_checkpoint_sees_a_hook_that_arrived_meanwhile(autojump_clock):
    lanes = Lanes(max_wait=0.05)
    resumed = []

    async def bulk():
        await lanes.step_aside()
        resumed.append(trio.current_time())

    async with trio.open_nursery() as nursery:
        nursery.start_soon(bulk)
        hold = lanes.hold()  # taken while the bulk task sits in its checkpoint
        await trio.sleep(0.02)
        hold.release()
    assert resumed == [0.02]


async def test_the_listener_closes_cleanly_while_accepting():
    lanes = Lanes()
    listener, _ = loopback_listener(lanes)
    async with trio.open_nursery() as nursery:
        async def accept():
            try:
                await listener.accept()
            except trio.ClosedResourceError:
                closed.set()
        closed = trio.Event()
        nursery.start_soon(accept)
        await trio.testing.wait_all_tasks_blocked()
        await listener.aclose()
        await closed.wait()
