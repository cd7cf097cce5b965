"""A save appends only the sessions that changed to sessions.json's journal; a fold reads as a full dump would."""

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
    registry.changed_parts()  # as the save of the four registered does
    serialized = []
    real = Session.to_json
    monkeypatch.setattr(Session, "to_json", lambda s: serialized.append(s.sid) or real(s))

    apply(registry, m.MarkSeen(views[1].sid, [("user", "a-node"), ("project", "b-node")], via="ambient", at=2.0))
    apply(registry, m.OpenHook("c2", now=3.0, push_before_full_read=True))
    apply(registry, m.NoteHook("claude", "/home/u/app"))
    changed = registry.changed_parts()
    assert sorted(serialized) == sorted(sid for sid, _ in changed) == sorted([views[1].sid, views[2].sid])
    monkeypatch.setattr(Session, "to_json", real)
    assert dict(changed) == {sid: s.to_json() for sid, s in registry.sessions.items() if sid in dict(changed)}
    assert registry.snapshot() == full_dump(registry)

    forked = apply(registry, m.Fork(views[0].sid, "c9", "claude", now=4.0))
    apply(registry, m.RenameRef("user", "a-node", "a-renamed"))
    registry.sessions.pop(views[3].sid)  # as an expiry does
    apply(registry, m.Expire(now=5.0))
    assert registry.snapshot() == full_dump(registry)
    assert forked.sid in registry.snapshot().decode() and views[3].sid not in registry.snapshot().decode()


def test_sessions_loaded_from_the_file_are_not_appended_again_until_they_change(monkeypatch):
    # The first save after each start appended every session kept: on a disk that would not take that
    # much, no session was saved at all.
    first = Registry({})
    view = apply(first, m.Register(None, "codex", now=1.0))
    other = apply(first, m.Register(None, "codex", now=1.0))
    loaded = Registry({v.sid: Session.from_json(v.sid, first.sessions[v.sid].to_json()) for v in (view, other)})
    with monkeypatch.context() as patched:
        patched.setattr(Session, "to_json", lambda s: pytest.fail("nothing changed: nothing re-serialized"))
        assert loaded.changed_parts() == []
    apply(loaded, m.Touch(view.sid, 2.0))
    assert [sid for sid, _ in loaded.changed_parts()] == [view.sid]


def test_a_stored_sessions_retired_drop_pending_is_not_carried_over():
    from kg_actors.session_actor import Session

    raw = {"start_ts": 1.0, "drop_pending": {"project:x": ["a"]}, "future_field": 3}
    session = Session.from_json("abcd1234", raw)
    assert "drop_pending" not in session.to_json() and session.to_json()["future_field"] == 3


def test_reads_and_a_hook_of_an_unknown_session_re_serialize_nothing(monkeypatch):
    registry = Registry({})
    view = apply(registry, m.Register("/home/u/app", "claude", 1.0, claude_sid="c0"))
    registry.changed_parts()
    monkeypatch.setattr(Session, "to_json", lambda s: pytest.fail("nothing changed: nothing re-serialized"))
    apply(registry, m.OpenHook("no-such-claude-session", now=2.0, push_before_full_read=True))
    apply(registry, m.FindByClaude("c0"))
    apply(registry, m.NoteHook("claude", "/home/u/app"))
    apply(registry, m.GetWriteView(view.sid, "project", "a-node"))
    assert registry.changed_parts() == []


def test_a_failed_append_leaves_its_sessions_to_the_next_one():
    registry = Registry({})
    busy, quiet = (apply(registry, m.Register("/home/u/app", "claude", 1.0, claude_sid=f"c{i}")) for i in range(2))
    registry.changed_parts()
    apply(registry, m.MarkSeen(busy.sid, [("project", "n")], via="read", at=2.0))
    parts = registry.changed_parts()
    registry.unsaved(parts)  # as the saver does when the journal refused them
    assert registry.dirty and [sid for sid, _ in registry.changed_parts()] == [busy.sid]


async def test_the_registry_answers_while_the_ticks_save_is_written_and_saves_what_changed_meanwhile(tmp_path,
                                                                                                     monkeypatch):
    """The tick's save encodes and appends in a thread beside the registry's loop (session_saves.py):
    hooks and tool calls are answered meanwhile, the journal holds the sessions as of the save's start,
    and what changed during it is saved by the next one."""
    import json
    import threading

    import trio

    from kg_actors import session_saves
    from kg_actors.session_actor import load_sessions, run_session_registry

    path = tmp_path / "sessions.json"
    path.write_text("{}")  # a store with its file: the tick appends (none yet: it would fold)
    release, writing = threading.Event(), threading.Event()
    real_write = session_saves.append

    def held_write(p, parts):
        writing.set()
        assert release.wait(10), "the test never let the write go"
        return real_write(p, parts)

    def saved_seen() -> set[str]:
        return set(load_sessions(path, 5.0)[view.sid].seen_at)

    async with trio.open_nursery() as nursery:
        sessions = await nursery.start(run_session_registry, path, {})
        view = await sessions.register(project_path=None, harness="claude-code", now=1.0)
        await sessions.mark_seen(sid=view.sid, refs=[("user", "before")], via="read", at=2.0)
        monkeypatch.setattr(session_saves, "append", held_write)
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
        assert saved_seen() == {"user:before"}  # as of the save's start, whole
        await sessions.save(now=5.0)  # the change made meanwhile kept the registry dirty
        assert saved_seen() == {"user:before", "user:during"}
        sessions.close()


async def test_the_tick_folds_a_journal_grown_past_the_file_into_it(tmp_path, monkeypatch):
    """Appends until the journal outgrows sessions.json; then the tick writes the file whole and empties it."""
    import json

    import trio

    from kg_actors import session_saves
    from kg_actors.session_actor import load_sessions, run_session_registry

    path = tmp_path / "sessions.json"
    path.write_text("{}")
    journal = session_saves.journal_of(path)
    monkeypatch.setattr(session_saves, "FOLD_MIN_BYTES", 0)
    async with trio.open_nursery() as nursery:
        sessions = await nursery.start(run_session_registry, path, {})
        view = await sessions.register(project_path=None, harness="claude-code", now=1.0)
        assert journal.exists() and json.loads(path.read_text()) == {}  # appended, the file untouched
        await sessions.save(now=2.0)  # the tick: the journal is past the file's two bytes
        assert not journal.exists() and set(json.loads(path.read_text())) == {view.sid}
        assert set(load_sessions(path, 3.0)) == {view.sid}
        nursery.cancel_scope.cancel()


def test_the_tick_folds_for_the_sessions_let_go_once_they_are_an_eighth_of_those_kept():
    from kg_actors.session_saves import let_go_due
    assert not let_go_due(0, 0) and not let_go_due(0, 1000)
    assert let_go_due(1400, 100) and let_go_due(3, 0)  # a start on a day-old file
    assert not let_go_due(124, 1000) and let_go_due(125, 1000)  # past the count, a few at every tick
