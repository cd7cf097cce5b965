"""A fold of sessions.json's journal cut short after the file was replaced (the journal's switch failed: its
unlink or its rename) loses no session answered after it: the next start resumes each as itself."""

from __future__ import annotations

import json
import logging
import os
import threading

import trio

from kg_actors import session_saves
from kg_actors.session_actor import load_sessions, run_session_registry
from kg_actors.storage import journal


def _failing_once(real, fails: list[str]):
    """`real`, except that its first call raises EIO (what a switch cut short on a flaky disk sees)."""

    def call(*args, **kwargs):
        if not fails:
            fails.append("failed")
            raise OSError(5, "Input/output error (the test's)")
        return real(*args, **kwargs)

    return call


async def test_sessions_started_after_a_fold_whose_journal_could_not_be_removed_survive_a_restart(
        tmp_path, monkeypatch, caplog):
    path = tmp_path / "sessions.json"
    path.write_text("{}")
    monkeypatch.setattr(session_saves, "FOLD_MIN_BYTES", 0)
    fails: list[str] = []
    monkeypatch.setattr(journal, "remove", _failing_once(journal.remove, fails))
    async with trio.open_nursery() as nursery:
        sessions = await nursery.start(run_session_registry, path, {})
        before = await sessions.register(project_path=None, harness="claude-code", now=1.0, claude_sid="a")
        with caplog.at_level(logging.INFO, logger="kg_actors"):
            await sessions.save(now=2.0)  # the tick folds; the journal's unlink fails after the file is in place
        assert fails and before.sid in json.loads(path.read_text())
        after = [await sessions.register(project_path=None, harness="claude-code", now=3.0 + i, claude_sid=f"b{i}")
                 for i in range(3)]
        nursery.cancel_scope.cancel()  # a kill before the next tick: no fold, no stop
    loaded = load_sessions(path, 9.0)  # the next start
    assert set(loaded) == {before.sid, *(v.sid for v in after)}
    assert [loaded[v.sid].claude_sid for v in after] == ["b0", "b1", "b2"]
    assert not list(tmp_path.glob("*.dropped*"))  # nothing set aside
    cut_short = [r for r in caplog.records if "sessions.json" in r.getMessage()]
    assert len(cut_short) == 1 and cut_short[0].levelno == logging.ERROR and not cut_short[0].exc_info


async def test_sessions_appended_while_a_fold_staged_and_after_its_rename_failed_survive_a_restart(
        tmp_path, monkeypatch):
    """The fold keeps what was appended while it staged (the journal's `.tmp`); its rename onto the journal fails."""
    path = tmp_path / "sessions.json"
    path.write_text("{}")
    jpath = session_saves.journal_of(path)
    monkeypatch.setattr(session_saves, "FOLD_MIN_BYTES", 0)
    release, staging = threading.Event(), threading.Event()
    real_stage = session_saves.stage

    def held_stage(p, parts):
        staging.set()
        assert release.wait(10), "the test never let the fold go"
        return real_stage(p, parts)

    real_replace, fails = os.replace, []

    def replace(src, dst, *args, **kwargs):  # only the journal's switch fails, once
        if str(dst) == str(jpath) and not fails:
            fails.append(dst)
            raise OSError(5, "Input/output error (the test's)")
        return real_replace(src, dst, *args, **kwargs)

    monkeypatch.setattr(session_saves, "stage", held_stage)
    monkeypatch.setattr(os, "replace", replace)
    async with trio.open_nursery() as nursery:
        sessions = await nursery.start(run_session_registry, path, {})
        first = await sessions.register(project_path=None, harness="claude-code", now=1.0, claude_sid="a")
        saved = trio.Event()

        async def tick():
            await sessions.save(now=2.0)
            saved.set()

        nursery.start_soon(tick)
        await trio.to_thread.run_sync(staging.wait)
        during = await sessions.register(project_path=None, harness="claude-code", now=3.0, claude_sid="b")
        release.set()
        await saved.wait()
        assert fails and set(json.loads(path.read_text())) == {first.sid}  # replaced; the switch failed
        later = await sessions.register(project_path=None, harness="claude-code", now=4.0, claude_sid="c")
        nursery.cancel_scope.cancel()
    assert set(load_sessions(path, 5.0)) == {first.sid, during.sid, later.sid}
    assert not list(tmp_path.glob("*.dropped*"))


async def test_while_the_journal_cannot_be_removed_each_save_writes_the_file_whole_and_logs_once(
        tmp_path, monkeypatch, caplog):
    path = tmp_path / "sessions.json"
    path.write_text("{}")
    jpath = session_saves.journal_of(path)
    monkeypatch.setattr(session_saves, "FOLD_MIN_BYTES", 0)

    def refused(p):
        raise OSError(13, "Permission denied (the test's)")

    monkeypatch.setattr(journal, "remove", refused)
    with caplog.at_level(logging.WARNING):
        async with trio.open_nursery() as nursery:
            sessions = await nursery.start(run_session_registry, path, {})
            views = [await sessions.register(project_path=None, harness="claude-code", now=1.0, claude_sid="a")]
            await sessions.save(now=2.0)  # the fold's switch fails
            left = jpath.read_bytes()
            for i in range(3):
                views.append(await sessions.register(project_path=None, harness="claude-code", now=3.0 + i,
                                                     claude_sid=f"b{i}"))
                # Answered once the file holds it; the journal left behind is not appended to.
                assert set(json.loads(path.read_text())) == {v.sid for v in views}
                assert jpath.read_bytes() == left
            await sessions.save(now=9.0)
            nursery.cancel_scope.cancel()
    errors = [r for r in caplog.records if r.levelno >= logging.ERROR]
    assert len(errors) == 1 and "could not be switched" in errors[0].getMessage() and not errors[0].exc_info
    assert set(load_sessions(path, 10.0)) == {v.sid for v in views}  # the old journal's records are all in it
