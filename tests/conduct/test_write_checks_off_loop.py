"""A write's secret check, past a few thousand characters, runs in a worker thread, so the loop answers hooks
meanwhile: a 48,000-character node checked on the loop held /api/health (and every hook of every session) 0.5 s.
The checks run one at a time in the order the writes came, so a write checked there reaches its graph before a
later one, short or long. A check that waits for the loop, run on the loop, would never end: a deadline (under
Trio's MockClock where no thread is waited for) fails the test instead of hanging it."""

from __future__ import annotations

import threading

import trio
import trio.testing

from kg_actors.conduct import write

LONG = 10_000  # characters: a node of a few notes, ~50 ms of checking


async def test_a_long_check_runs_while_the_loop_answers_others(autojump_clock):
    released = threading.Event()
    answered: list[str] = []

    def check() -> str:
        assert released.wait(timeout=5), "the loop never ran while the check did"
        return "checked"

    async def hook() -> None:
        answered.append("hook")  # a hook's reply, given while the check still runs
        released.set()

    with trio.fail_after(60):
        async with trio.open_nursery() as nursery:
            nursery.start_soon(hook)
            assert await write._checked(check, size=LONG) == "checked"
    assert answered == ["hook"]


async def test_checks_finish_in_the_order_the_writes_came():  # real time: a worker thread's wait is no clock's
    first_may_end = threading.Event()
    done: list[str] = []

    def long_check() -> None:
        assert first_may_end.wait(timeout=30)
        done.append("long")

    def short_check() -> None:
        done.append("short")

    async def long_write(task_status=trio.TASK_STATUS_IGNORED) -> None:
        task_status.started()
        await write._checked(long_check, size=LONG * 10)
        done.append("long reached its graph")

    async def short_write() -> None:
        await write._checked(short_check, size=10)  # sent after the long one, while it is checked
        done.append("short reached its graph")

    with trio.fail_after(60):
        async with trio.open_nursery() as nursery:
            await nursery.start(long_write)
            await trio.testing.wait_all_tasks_blocked()
            nursery.start_soon(short_write)
            await trio.testing.wait_all_tasks_blocked()
            first_may_end.set()
    assert done == ["long", "long reached its graph", "short", "short reached its graph"]


def test_a_short_write_with_none_ahead_is_checked_on_the_loop():
    async def main() -> str:
        return await write._checked(lambda: threading.current_thread().name, size=10)
    assert trio.run(main) == threading.main_thread().name
