"""sessions.json is re-serialized only for the sessions that changed, and reads as a full dump would."""

import pytest

from kg_actors import session_messages as m
from kg_actors.session_actor import HANDLERS, Registry, Session
from kg_actors.storage import files


def apply(registry: Registry, msg: m.SessionMessage):
    """As the registry actor handles a message."""
    result = HANDLERS[type(msg)](registry, msg)
    registry.note_changed(msg, result)
    return result


def full_dump(registry: Registry) -> bytes:
    return files.dump_json({sid: s.to_json() for sid, s in registry.sessions.items()}, indent=None)


def test_the_snapshot_matches_a_full_dump_through_every_kind_of_change(monkeypatch):
    registry = Registry({})
    views = [apply(registry, m.Register("/home/u/app", "claude", 1.0, claude_sid=f"c{i}"))
             for i in range(4)]
    assert registry.snapshot() == full_dump(registry)
    serialized = []
    real = Session.to_json
    monkeypatch.setattr(Session, "to_json", lambda s: serialized.append(s.sid) or real(s))

    apply(registry, m.MarkSeen(views[1].sid, [("user", "a-node"), ("project", "b-node")], via="ambient", at=2.0))
    apply(registry, m.OpenHook("c2", now=3.0, push_before_full_read=True))
    apply(registry, m.NoteHook("claude", "/home/u/app"))
    snap = registry.snapshot()
    assert sorted(serialized) == sorted([views[1].sid, views[2].sid])  # only the two that changed
    monkeypatch.setattr(Session, "to_json", real)
    assert snap == full_dump(registry)

    forked = apply(registry, m.Fork(views[0].sid, "c9", "claude", now=4.0))
    apply(registry, m.RenameRef("user", "a-node", "a-renamed"))
    registry.sessions.pop(views[3].sid)  # as an expiry does
    apply(registry, m.Expire(now=5.0))
    assert registry.snapshot() == full_dump(registry)
    assert forked.sid in registry.snapshot().decode() and views[3].sid not in registry.snapshot().decode()


def test_a_session_registered_from_the_file_is_serialized_once_then_reused(monkeypatch):
    first = Registry({})
    view = apply(first, m.Register(None, "codex", now=1.0))
    loaded = Registry({view.sid: Session.from_json(view.sid, first.sessions[view.sid].to_json())})
    assert loaded.snapshot() == full_dump(loaded)
    monkeypatch.setattr(Session, "to_json", lambda s: pytest.fail("nothing changed: nothing re-serialized"))
    loaded.snapshot()


def test_a_stored_sessions_retired_drop_pending_is_not_carried_over():
    from kg_actors.session_actor import Session

    raw = {"start_ts": 1.0, "drop_pending": {"project:x": ["a"]}, "future_field": 3}
    session = Session.from_json("abcd1234", raw)
    assert "drop_pending" not in session.to_json() and session.to_json()["future_field"] == 3


def test_reads_and_a_hook_of_an_unknown_session_re_serialize_nothing(monkeypatch):
    registry = Registry({})
    view = apply(registry, m.Register("/home/u/app", "claude", 1.0, claude_sid="c0"))
    registry.snapshot()
    monkeypatch.setattr(Session, "to_json", lambda s: pytest.fail("nothing changed: nothing re-serialized"))
    apply(registry, m.OpenHook("no-such-claude-session", now=2.0, push_before_full_read=True))
    apply(registry, m.FindByClaude("c0"))
    apply(registry, m.NoteHook("claude", "/home/u/app"))
    apply(registry, m.GetWriteView(view.sid, "project", "a-node"))
    registry.snapshot()


def test_a_session_changed_save_after_save_is_not_held_and_one_gone_quiet_is(monkeypatch):
    registry = Registry({})
    busy, quiet = (apply(registry, m.Register("/home/u/app", "claude", 1.0, claude_sid=f"c{i}")) for i in range(2))
    registry.snapshot()
    for t in (2.0, 3.0, 4.0):
        apply(registry, m.MarkSeen(busy.sid, [("project", f"n{t}")], via="read", at=t))
        if t == 2.0:
            apply(registry, m.MarkSeen(quiet.sid, [("project", "q")], via="read", at=t))
        assert registry.snapshot() == full_dump(registry)
    # Busy on two saves running: made anew each time, never held; the quiet one is held as saved.
    assert set(registry._saved_json) == {quiet.sid}
    expected, serialized = full_dump(registry), []
    real = Session.to_json
    monkeypatch.setattr(Session, "to_json", lambda s: serialized.append(s.sid) or real(s))
    assert registry.snapshot() == expected  # nothing changed: the busy one is made once more
    assert serialized == [busy.sid]
    serialized.clear()
    registry.snapshot()
    assert serialized == []  # and held from then on


async def test_the_registry_answers_while_the_ticks_save_is_written_and_saves_what_changed_meanwhile(tmp_path,
                                                                                                     monkeypatch):
    """The tick's save encodes and writes in a thread beside the registry's loop (session_saves.py):
    hooks and tool calls are answered meanwhile, the file holds the sessions as of the save's start,
    and what changed during it is saved by the next one."""
    import json
    import threading

    import trio

    from kg_actors import session_saves
    from kg_actors.session_actor import run_session_registry

    path = tmp_path / "sessions.json"
    release, writing = threading.Event(), threading.Event()
    real_write = session_saves.write

    def held_write(p, parts):
        writing.set()
        assert release.wait(10), "the test never let the write go"
        return real_write(p, parts)

    async with trio.open_nursery() as nursery:
        sessions = await nursery.start(run_session_registry, path, {})
        view = await sessions.register(project_path=None, harness="claude-code", now=1.0)
        await sessions.mark_seen(sid=view.sid, refs=[("user", "before")], via="read", at=2.0)
        monkeypatch.setattr(session_saves, "write", held_write)
        saved = trio.Event()

        async def tick():
            await sessions.save(now=3.0)
            saved.set()

        nursery.start_soon(tick)
        await trio.to_thread.run_sync(writing.wait)  # the save's thread is in the write
        # Answered while the file is being written: the registry does not wait for it.
        await sessions.mark_seen(sid=view.sid, refs=[("user", "during")], via="read", at=4.0)
        assert (await sessions.get(sid=view.sid)).seen == {("user", "before"), ("user", "during")}
        assert not saved.is_set()
        release.set()
        await saved.wait()
        on_disk = json.loads(path.read_text())[view.sid]
        assert set(on_disk["seen_at"]) == {"user:before"}  # as of the save's start, whole
        await sessions.save(now=5.0)  # the change made meanwhile kept the registry dirty
        assert set(json.loads(path.read_text())[view.sid]["seen_at"]) == {"user:before", "user:during"}
        sessions.close()
