"""Hook replies first (hook_priority.py): bulk work yields to the hooks in flight, for a bounded while.

A hook counts from its request's first bytes at the listener (before the HTTP
server parses it) to its reply's first send; a graph actor's write steps wait for it.
"""

from __future__ import annotations

import socket

import trio
import trio.testing

from kg_actors.core import constants as C
from kg_actors.core import graph_ops
from kg_actors.core.model import GraphData
from kg_actors.graph_actor import run_graph_actor
from kg_actors.hook_priority import HOOK_PATHS, HookAwareListener, HookPriority, hook_request_starts

STARTS = hook_request_starts(HOOK_PATHS)
HOOK = b"POST /api/tool_event HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 2\r\n\r\n{}"
MCP = b"POST / HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 2\r\n\r\n{}"


def loopback_listener(priority: HookPriority) -> tuple[HookAwareListener, tuple]:
    sock = socket.socket()
    sock.bind(("127.0.0.1", 0))
    sock.listen(8)
    return HookAwareListener(sock, priority, STARTS), sock.getsockname()


async def connect(address) -> trio.SocketStream:
    return await trio.open_tcp_stream(*address)


async def test_a_hook_request_already_in_the_socket_holds_from_accept():
    priority = HookPriority()
    listener, address = loopback_listener(priority)
    client = await connect(address)
    await client.send_all(HOOK)
    await trio.testing.wait_all_tasks_blocked()
    stream = await listener.accept()
    assert priority.busy()  # before the HTTP server has read a byte
    assert await stream.receive_some(4096) == HOOK  # the peek left the request in the socket
    await stream.send_all(b"HTTP/1.1 200 OK\r\n\r\n")  # the reply releases the hold
    assert not priority.busy()
    await stream.aclose()
    await client.aclose()
    await listener.aclose()


async def test_a_kept_alive_connection_holds_on_the_read_that_starts_a_hook():
    priority = HookPriority()
    listener, address = loopback_listener(priority)
    client = await connect(address)
    stream = await listener.accept()
    await client.send_all(MCP)
    await stream.receive_some(4096)
    assert not priority.busy()  # an MCP request is bulk work
    await client.send_all(HOOK)
    await stream.receive_some(4096)
    assert priority.busy()
    await stream.aclose()  # a connection that closes before replying releases it too
    assert not priority.busy()
    await client.aclose()
    await listener.aclose()


async def test_a_stalled_hook_request_stops_holding_after_the_hooks_time_limit(autojump_clock):
    priority = HookPriority(max_wait=0.05, hold_limit=1.0)
    hold = priority.hook_begins()
    assert priority.busy()
    await trio.sleep(1.01)
    assert not priority.busy()
    await priority.yield_to_hooks()  # nothing waits for it any more
    assert trio.current_time() == 1.01
    hold.end()  # a late release is harmless
    assert not priority.busy()


async def test_bulk_work_resuming_from_its_checkpoint_sees_a_hook_that_arrived_meanwhile(autojump_clock):
    priority = HookPriority(max_wait=0.05)
    resumed = []

    async def bulk():
        await priority.yield_to_hooks()
        resumed.append(trio.current_time())

    async with trio.open_nursery() as nursery:
        nursery.start_soon(bulk)
        hold = priority.hook_begins()  # taken while the bulk task sits in its checkpoint
        await trio.sleep(0.02)
        hold.end()
    assert resumed == [0.02]


async def test_the_listener_closes_cleanly_while_accepting():
    priority = HookPriority()
    listener, _ = loopback_listener(priority)
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


async def test_no_hook_in_flight_means_no_wait(autojump_clock):
    priority = HookPriority(max_wait=0.05)
    await priority.yield_to_hooks()
    assert trio.current_time() == 0


async def test_bulk_waits_until_every_hook_in_flight_is_done(autojump_clock):
    priority = HookPriority(max_wait=0.05)
    resumed = []

    async def hook(seconds):
        with priority.serving_hook():
            await trio.sleep(seconds)

    async def bulk():
        await priority.yield_to_hooks()
        resumed.append(trio.current_time())

    async with trio.open_nursery() as nursery:
        nursery.start_soon(hook, 0.01)
        nursery.start_soon(hook, 0.03)  # overlapping: bulk waits for the later one
        await trio.sleep(0)
        nursery.start_soon(bulk)
    assert resumed == [0.03]


async def test_bulk_waits_at_most_the_bound(autojump_clock):
    priority = HookPriority(max_wait=0.05)
    resumed = []

    async def bulk():
        await priority.yield_to_hooks()
        resumed.append(trio.current_time())

    with priority.serving_hook():  # a hook that is itself waiting on the bulk work must not deadlock
        async with trio.open_nursery() as nursery:
            nursery.start_soon(bulk)
    assert resumed == [0.05]
    await priority.yield_to_hooks()  # and once it is over, nothing waits
    assert trio.current_time() == 0.05


async def test_a_graph_write_waits_for_the_hook_reply_in_flight(tmp_path):
    priority = HookPriority(max_wait=10.0)
    release = trio.Event()

    async def hook():
        with priority.serving_hook():
            await release.wait()

    async def write(handle):
        result = await handle.put_node(node_id="a-lesson-written-meanwhile", gist="a lesson", notes=None,
                                       touches=None, now=100.0, writer=graph_ops.Writer(session="aaaa1111"))
        assert result.created

    async with trio.open_nursery() as nursery:
        handle = await nursery.start(run_graph_actor, "user", "user", tmp_path / "g.json", GraphData("user"),
                                     None, 365, priority.yield_to_hooks)
        async with trio.open_nursery() as inner:
            inner.start_soon(hook)
            await trio.testing.wait_all_tasks_blocked()
            inner.start_soon(write, handle)
            await trio.testing.wait_all_tasks_blocked()
            assert "a-lesson-written-meanwhile" not in handle.snapshot().nodes  # the write waits for the hook
            release.set()
        assert "a-lesson-written-meanwhile" in handle.snapshot().nodes
        await handle.close()


async def test_yielding_is_a_checkpoint_even_with_no_hook_in_flight():
    priority = HookPriority(max_wait=0.05)
    with trio.testing.assert_checkpoints():  # so the steps it separates are separate rounds
        await priority.yield_to_hooks()


async def test_under_a_steady_stream_of_hooks_each_bulk_step_still_gets_its_turn(autojump_clock):
    priority = HookPriority(max_wait=1.0)
    resumed = []

    async def hook(start, seconds):
        await trio.sleep(start)
        with priority.serving_hook():
            await trio.sleep(seconds)

    async def bulk():
        await trio.sleep(0.002)
        await priority.yield_to_hooks()
        resumed.append(trio.current_time())

    async with trio.open_nursery() as nursery:
        nursery.start_soon(hook, 0.0, 0.01)  # in flight when the step pauses: waited for
        nursery.start_soon(hook, 0.005, 0.02)  # begins while it waits: not waited for
        nursery.start_soon(bulk)
    assert resumed == [0.01]


async def test_an_mcp_turn_waits_for_the_hooks_in_flight_and_one_turn_at_a_time(autojump_clock):
    priority = HookPriority(bulk_slots=1, max_wait=0.05)
    turns = []

    async def mcp(name):
        await priority.take_bulk_turn()
        turns.append((name, trio.current_time()))
        await trio.sleep(0.01)
        priority.give_back_bulk_turn()

    with priority.serving_hook():
        async with trio.open_nursery() as nursery:
            nursery.start_soon(mcp, "first")
            nursery.start_soon(mcp, "second")
            await trio.sleep(0.02)
            assert turns == []  # the hook in flight goes first (up to the bound)
    assert sorted(name for name, _ in turns) == ["first", "second"]
    assert turns[0][1] >= 0.05  # the hook in flight held both for the whole bound
    assert turns[1][1] - turns[0][1] >= 0.01  # one served at a time


async def test_the_server_serves_its_set_number_of_mcp_requests_at_once_and_queues_the_rest(autojump_clock):
    priority = HookPriority()  # the server's own: C.MCP_CONCURRENT_REQUESTS turns
    started: list[float] = []

    async def mcp():
        await priority.take_bulk_turn()
        started.append(trio.current_time())
        await trio.sleep(1.0)  # a write waiting on its fsync, say
        priority.give_back_bulk_turn()

    async with trio.open_nursery() as nursery:
        for _ in range(C.MCP_CONCURRENT_REQUESTS + 1):
            nursery.start_soon(mcp)
    assert C.MCP_CONCURRENT_REQUESTS > 1  # a waiting write does not hold the others up
    assert started[:-1] == [0.0] * C.MCP_CONCURRENT_REQUESTS  # these at once
    assert started[-1] == 1.0  # the next when a turn is given back

