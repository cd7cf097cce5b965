"""A write's secret check, past a few thousand characters, runs in a worker thread, so the loop answers hooks
meanwhile: a 48,000-character node checked on the loop held /api/health (and every hook of every session) 0.5 s.
Long checks run one at a time in the order the writes came; a short write is checked on the loop at once,
never behind a long one (a node of 200 notes of 20,000 characters held every other session's short write 15 s). A check that waits for the loop, run on the loop, would never end: a deadline (under
Trio's MockClock where no thread is waited for) fails the test instead of hanging it."""

from __future__ import annotations

import threading

import trio
import trio.testing

from kg_actors.conduct import check_line

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
            assert await check_line.checked(check, size=LONG) == "checked"
    assert answered == ["hook"]


async def test_a_short_write_is_checked_while_a_long_check_runs_and_long_ones_keep_their_order():
    # real time: a worker thread's wait is no clock's
    first_may_end = threading.Event()
    done: list[str] = []

    def long_check(name: str) -> None:
        if name == "long 1":
            assert first_may_end.wait(timeout=30)
        done.append(name)

    def short_check() -> None:
        done.append("short")
        first_may_end.set()  # the long check ends only once the short write was checked

    async def long_write(name: str, task_status=trio.TASK_STATUS_IGNORED) -> None:
        task_status.started()
        await check_line.checked(long_check, name, size=LONG * 10)

    with trio.fail_after(60):
        async with trio.open_nursery() as nursery:
            await nursery.start(long_write, "long 1")
            await trio.testing.wait_all_tasks_blocked()
            await nursery.start(long_write, "long 2")
            await trio.testing.wait_all_tasks_blocked()
            await check_line.checked(short_check, size=10)  # sent after both, while the first is checked
    assert done == ["short", "long 1", "long 2"]


def test_a_short_write_is_checked_on_the_loop():
    async def main() -> str:
        return await check_line.checked(lambda: threading.current_thread().name, size=10)
    assert trio.run(main) == threading.main_thread().name
