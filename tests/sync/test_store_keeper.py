"""The store keeper's autocommit timer, under Trio's MockClock: every interval, never on 0, never raising;
a commit due rides the save tick's fold when the tick comes at least as often."""

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


class _CountingKeeper(StoreKeeper):
    """Commits counted instead of run in a child process."""

    def __init__(self, root):
        super().__init__(Layout(root), _NoGraphs(), None, trio.current_time)
        self.committed: list[str] = []

    async def _commit_in_child(self, what: str) -> str | None:
        self.committed.append(what)
        return "c0ffee"

    async def commit(self, what: str = "auto-save") -> dict:  # a commit with a fold of its own
        self.committed.append("own fold: " + what)
        return {"committed": True, "commit": "c0ffee"}


async def test_a_commit_due_waits_for_the_tick_and_rides_its_fold(autojump_clock, tmp_path):
    (tmp_path / ".git").mkdir()  # a repository, as far as the keeper's check goes
    keeper = _CountingKeeper(tmp_path)
    async with trio.open_nursery() as nursery:
        nursery.start_soon(keeper.run, 900.0, 30.0)
        await trio.sleep(901)
        assert keeper.rides_tick and keeper.autocommits == 1
        nursery.cancel_scope.cancel()
    # What the timer does, awaited here (it reads the config in a thread, which a mock clock does not wait for).
    assert "next save tick" in (await keeper.autocommit())["reason"]
    assert keeper.committed == []  # due, not run: no fold of its own
    await keeper.after_tick(folded=False)  # a graph could not be saved: no half a write committed
    assert keeper.committed == [] and "could not be saved" in keeper.status()["problem"]
    await keeper.after_tick(folded=True)
    assert keeper.committed == ["auto-save"] and keeper.status()["problem"] is None
    await keeper.after_tick(folded=True)  # one commit per interval, not one per tick
    assert keeper.committed == ["auto-save"]
    # Due again at the next interval.
    assert "next save tick" in (await keeper.autocommit())["reason"]
    await keeper.after_tick(folded=True)
    assert keeper.committed == ["auto-save"] * 2


async def test_ticks_rarer_than_commits_leave_the_commit_its_own_fold(autojump_clock, tmp_path):
    (tmp_path / ".git").mkdir()
    keeper = _CountingKeeper(tmp_path)
    async with trio.open_nursery() as nursery:
        nursery.start_soon(keeper.run, 60.0, 3600.0)
        await trio.sleep(1)
        assert not keeper.rides_tick
        nursery.cancel_scope.cancel()
    for _ in range(2):
        assert (await keeper.autocommit())["committed"]
    assert keeper.committed == ["own fold: auto-save"] * 2
    await keeper.after_tick(folded=True)
    assert keeper.committed == ["own fold: auto-save"] * 2
