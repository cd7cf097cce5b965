"""The root's shutdown: every actor gets its deadline and the store is let go, whatever a save does;
a cancel from outside the server still gives the actors their grace period to fold and save."""

from __future__ import annotations

import json
import logging
import signal
import threading
import time

import trio

from kg_actors.config import Config
from kg_actors.core import graph_ops
from kg_actors.core.constants import SHUTDOWN_GRACE_SECONDS
from kg_actors.runtime import run_server
from kg_actors.session_handle import SessionHandle
from kg_actors.storage import lock
from kg_actors.testing import write_store


def _config(root) -> Config:
    return Config(root=root, port=0, editor=False, save_interval=3600, autocommit_interval=0)


async def test_a_stop_whose_session_save_outlasts_the_grace_period_still_ends_and_lets_the_store_go(
        tmp_path, home, mock_clock, monkeypatch):
    root = tmp_path / "store"

    async def save_forever(self, now=None):
        await trio.sleep_forever()

    with trio.fail_after(100 * SHUTDOWN_GRACE_SECONDS):  # virtual seconds
        async with trio.open_nursery() as nursery:
            rt = await nursery.start(run_server, _config(root), time.time, True)
            await rt.directory.get("user")
            # From here, a wait with every task still for a (real) second jumps the clock to its deadline:
            # the saves' threads take less, so only the deadlines' waits are skipped.
            mock_clock.autojump_threshold = 1.0
            monkeypatch.setattr(SessionHandle, "save", save_forever)
            signal.raise_signal(signal.SIGTERM)
    lock.release(lock.claim(root))  # the server let the store go


async def test_a_cancel_from_outside_still_folds_the_graphs_into_their_files(tmp_path, home):
    root = tmp_path / "store"
    with trio.fail_after(60):
        async with trio.open_nursery() as nursery:
            rt = await nursery.start(run_server, _config(root), time.time, False)
            user = await rt.directory.get("user")
            await user.put_node(node_id="kept-at-stop", gist="folded into user.json at stop", notes=None,
                                touches=None, now=time.time(), writer=graph_ops.Writer(session=None))
            nursery.cancel_scope.cancel()
    saved = json.loads((root / "user.json").read_text())
    assert "kept-at-stop" in json.dumps(saved)
    assert not (root / "user.json.journal").exists()
    lock.release(lock.claim(root))


async def test_a_tick_that_meets_a_stopped_graph_actor_logs_no_traceback(tmp_path, home, caplog):
    # A `kg stop` during writes: the tick asked actors the stop had closed, and logged "tick failed" tracebacks.
    from kg_actors import runtime

    root = tmp_path / "store"
    with trio.fail_after(60):
        async with trio.open_nursery() as nursery:
            rt = await nursery.start(run_server, _config(root), time.time, False)
            user = await rt.directory.get("user")
            await user.close()  # as stop_all does, while the tick still holds the handle
            caplog.clear()
            caplog.set_level("DEBUG", logger="kg_actors.runtime")
            assert not await runtime._tick(rt)
            nursery.cancel_scope.cancel()
    said = [r for r in caplog.records if r.name == "kg_actors.runtime" and "tick" in r.getMessage()]
    assert said and all(r.levelname == "DEBUG" and r.exc_info is None for r in said), [
        (r.levelname, r.getMessage()) for r in said]
    lock.release(lock.claim(root))


async def test_a_stop_while_a_project_loads_does_not_wait_for_the_load_and_says_so_at_info(
        tmp_path, home, caplog, monkeypatch):
    """`kg stop` just after a start on a big store moved over: the project's load (settling 20,000 nodes takes
    seconds) is thrown away by the stop, which waited for it all the same (10-12 s, past the wait of a `kg
    start` behind it) and logged the cut as an ERROR with a traceback. Here the load is held until the
    test lets it go: the server must have stopped while it was still held."""
    from kg_actors import directory

    root, cwd = tmp_path / "store", home / "big-proj"
    cwd.mkdir()
    write_store(root, projects={"big-proj": {"nodes": {"n1": {"id": "n1", "gist": "a lesson"}}, "edges": {},
                                             "_meta": {"project_path": str(cwd)}}})
    entered, release, left = threading.Event(), threading.Event(), threading.Event()
    settle = directory.settle_and_derive

    def held(graph, *args, **kwargs):
        if graph.kind == "project":
            entered.set()
            release.wait(120)  # a bound only a broken stop meets: the test sets it
            left.set()
        return settle(graph, *args, **kwargs)

    monkeypatch.setattr(directory, "settle_and_derive", held)
    caplog.set_level("INFO", logger="kg_actors.directory")
    try:
        with trio.fail_after(60):  # a hang guard only
            async with trio.open_nursery() as nursery:
                await nursery.start(run_server, _config(root), time.time, False)
                # The server loads the project last written at start (warm_start.py).
                assert await trio.to_thread.run_sync(entered.wait, 60)
                nursery.cancel_scope.cancel()
        stopped_while_held = not left.is_set()
    finally:
        release.set()
    assert stopped_while_held, "the stop waited for a load it throws away"
    said = [r for r in caplog.records if r.name == "kg_actors.directory"]
    assert any(r.levelno == logging.INFO and "was cut short: the server is stopping" in r.getMessage() for r in said)
    assert not [r.getMessage() for r in said if r.levelno >= logging.ERROR or r.exc_info]
    lock.release(lock.claim(root))
