"""A graceful stop (http/drain.py): idle connections close, a request on its way or in progress is waited for."""

from __future__ import annotations

import trio
import trio.testing

from kg_actors.http.drain import Drain


async def test_a_drain_closes_the_idle_waits_for_the_busy_and_the_sent_then_says_so():
    drain, log = Drain(), []
    release = trio.Event()

    async def idle(name: str, pending: bool) -> None:
        with drain.idle(lambda: pending) as waiting:
            await (release.wait() if pending else trio.sleep_forever())
        log.append((name, waiting.cancelled_caught))

    async def busy() -> None:
        with drain.serving():
            await release.wait()
        log.append(("busy", False))

    async with trio.open_nursery() as nursery:
        nursery.start_soon(idle, "idle", False)
        nursery.start_soon(idle, "sent", True)  # its request is in the socket: it will be served
        nursery.start_soon(busy)
        await trio.testing.wait_all_tasks_blocked()
        async with trio.open_nursery() as stopping:
            done: list[bool] = []

            async def stop() -> None:
                done.append(await drain.drain(5))
            stopping.start_soon(stop)
            await trio.testing.wait_all_tasks_blocked()
            assert log == [("idle", True)] and not done  # the idle one closed; the others awaited
            release.set()
        assert done == [True] and sorted(log) == [("busy", False), ("idle", True), ("sent", False)]
    with drain.idle(lambda: False) as late:  # a connection that starts waiting after the drain: closed
        await trio.sleep(0)
    assert late.cancelled_caught


async def test_a_drain_gives_up_after_its_seconds(autojump_clock):
    drain = Drain()
    async with trio.open_nursery() as nursery:
        async def stuck() -> None:
            with drain.serving():
                await trio.sleep_forever()
        nursery.start_soon(stuck)
        await trio.testing.wait_all_tasks_blocked()
        with trio.fail_after(60):
            assert await drain.drain(5) is False
        nursery.cancel_scope.cancel()
