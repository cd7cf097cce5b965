"""The store keeper's autocommit timer, under Trio's MockClock: every interval, never on 0, never raising."""

from __future__ import annotations

import trio

from kg_actors.storage.layout import Layout
from kg_actors.sync.keeper import StoreKeeper


class _NoGraphs:
    def loaded(self):
        return []


async def test_autocommit_runs_once_per_interval_and_says_how_to_start(autojump_clock, tmp_path):
    keeper = StoreKeeper(Layout(tmp_path), _NoGraphs(), None, trio.current_time)
    async with trio.open_nursery() as nursery:
        await nursery.start(keeper.serve)
        nursery.start_soon(keeper.run, 900.0)
        await trio.sleep(3 * 900 + 1)
        assert keeper.autocommits == 3
        # Not a repository: the answer says how to make it one, and nothing failed.
        assert "kg init-git" in (await keeper.autocommit())["reason"]
        assert keeper.status()["problem"] is None
        nursery.cancel_scope.cancel()


async def test_interval_zero_turns_autocommit_off(autojump_clock, tmp_path):
    keeper = StoreKeeper(Layout(tmp_path), _NoGraphs(), None, trio.current_time)
    await keeper.run(0)  # returns at once, without waiting for anything
    assert trio.current_time() == 0 and keeper.autocommits == 0


async def test_jobs_run_one_at_a_time(autojump_clock, tmp_path):
    keeper = StoreKeeper(Layout(tmp_path), _NoGraphs(), None, trio.current_time)
    running, most = 0, 0

    async def job():
        nonlocal running, most
        running += 1
        most = max(most, running)
        await trio.sleep(5)
        running -= 1

    async with trio.open_nursery() as nursery:
        await nursery.start(keeper.serve)
        async with trio.open_nursery() as callers:
            for _ in range(4):
                callers.start_soon(keeper.exclusive, job)
        assert most == 1 and trio.current_time() >= 20
        keeper.close()
