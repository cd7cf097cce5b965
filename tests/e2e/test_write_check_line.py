"""One session's long write, its secret check held in the worker thread, holds no other session's short write:
the short one is checked on the loop and answered first, where it waited in the same line for the whole long
check (a node of 200 notes of 20,000 characters: 15 s). The long write is answered once its check ends."""

from __future__ import annotations

import os

import trio
from e2e_helpers import Session, start_server, wait_until
from mcp import Client

from kg_actors.conduct.check_line import HOLD_ENV, OFF_LOOP_CHARS


def _release(hold) -> None:
    with open(hold / "release", "w", encoding="utf-8") as fifo:  # the held check reads it to its end
        fifo.write("go")


async def test_a_short_write_answers_while_another_sessions_long_check_is_held(tmp_path):
    hold = tmp_path / "hold"
    hold.mkdir()
    os.mkfifo(hold / "release")
    srv = start_server(tmp_path, extra_env={HOLD_ENV: str(hold)})
    done: list[str] = []
    try:
        async with Client(srv.url + "/") as big_client, Client(srv.url + "/") as small_client:
            big = await Session.open(big_client, cwd=srv.project("big-proj"))
            small = await Session.open(small_client, cwd=srv.project("small-proj"))
            notes = ["the deploy script reads its config from the environment " * 40] * 3
            assert sum(map(len, notes)) > OFF_LOOP_CHARS

            async def long_write() -> None:
                await big.ok("kg_put_node", level="project", id="long-notes", gist="a long lesson", notes=notes)
                done.append("long")

            with trio.fail_after(60):
                async with trio.open_nursery() as nursery:
                    nursery.start_soon(long_write)
                    await trio.to_thread.run_sync(lambda: wait_until(lambda: (hold / "begun").exists(),
                                                                     what="the long check to begin"))
                    with trio.fail_after(20):  # it waited for the release, which never comes, where it queued
                        await small.ok("kg_put_node", level="user", id="short-note", gist="a one-line lesson")
                    done.append("short")
                    assert done == ["short"]  # the long write is still held
                    await trio.to_thread.run_sync(_release, hold)
            assert done == ["short", "long"]
            shown = await small.ok("kg_read", id="short-note")
            assert "a one-line lesson" in shown, shown
            shown = await big.ok("kg_read", id="long-notes")
            assert "a long lesson" in shown, shown
    finally:
        srv.kill()
