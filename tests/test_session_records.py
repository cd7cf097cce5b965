"""sessions.json as load_sessions reads it: a record it cannot read is dropped, never the start."""

from __future__ import annotations

import json

from kg_actors import session_messages as m
from kg_actors.session_actor import Registry
from kg_actors.session_records import Session, load_sessions

NOW = 1.8e9


def test_a_session_record_with_a_null_or_text_stamp_is_dropped_and_the_rest_load(tmp_path):
    path = tmp_path / "sessions.json"
    good = {"start_ts": NOW - 60, "last_activity": NOW - 30}
    path.write_text(json.dumps({"aaaa1111": good, "bbbb2222": {"start_ts": NOW, "last_activity": None},
                                "cccc3333": {"start_ts": NOW, "last_activity": "yesterday"}, "dddd4444": 7}))
    assert list(load_sessions(path, NOW)) == ["aaaa1111"]


def test_a_record_written_before_levels_loads_its_context_at_both_levels_and_none_of_its_view_stamps(tmp_path):
    """Its tables keyed by bare id could not say which level's node it saw (session_records._by_level)."""
    path = tmp_path / "sessions.json"
    old = {"start_ts": NOW - 60, "last_activity": NOW - 30, "project_path": "/home/u/app",
           "seen_via": {"shared-lesson": "preload"}, "seen_ids": ["shared-lesson", "listed-only", "user"],
           "seen_at": {"shared-lesson": NOW - 40}, "read_at": {"shared-lesson": NOW - 40},
           "pages": ["part 2"], "page_effects": [{"seen": ["shared-lesson"], "read": [["user", "shared-lesson"]]}]}
    path.write_text(json.dumps({"aaaa1111": old, "bbbb2222": {**old, "seen_at": 5}}))
    loaded = load_sessions(path, NOW)
    assert list(loaded) == ["aaaa1111"]  # a table that is not an object drops its record, not the start
    s = loaded["aaaa1111"]
    assert s.seen_via == {"user:shared-lesson": "preload", "project:shared-lesson": "preload",
                          "user:listed-only": "unknown", "project:listed-only": "unknown",
                          "user:user": "unknown", "project:user": "unknown"}  # a node may be called "user"
    assert s.seen_at == {} and s.read_at == {}
    assert s.page_effects == [{"seen": [], "read": [["user", "shared-lesson"]]}]
    registry = Registry(loaded)
    assert {("user", "shared-lesson"), ("project", "shared-lesson")} <= registry.view(s).seen
    assert registry.write_view(m.GetWriteView("aaaa1111", "project", "shared-lesson")).seen_at is None
    # What this build writes reads back as it was (a fork copies a session so).
    registry.mark_seen(m.MarkSeen("aaaa1111", [("project", "shared-lesson")], "read", NOW - 20, full=True))
    again = Session.from_json("cccc3333", json.loads(json.dumps(s.to_json())))
    assert (again.seen_via, again.seen_at, again.read_at) == (s.seen_via, s.seen_at, s.read_at)
    assert again.seen_at == {"project:shared-lesson": NOW - 20}


def test_an_unreadable_sessions_file_is_kept_aside_before_the_first_save_writes_over_it(tmp_path):
    path = tmp_path / "sessions.json"
    for n, bad in enumerate((b'{"aaaa1111": {"start_ts": 1', b'["not", "sessions"]'), 1):
        path.write_bytes(bad)
        assert load_sessions(path, NOW) == {}
        # Named as a start with no sessions (kg doctor says so); sessions.prev standing in keeps `.unreadable`.
        aside = tmp_path / ("sessions.json.unreadable-started-empty" + ("" if n == 1 else f".{n}"))
        assert aside.read_bytes() == bad and not path.exists()


def test_where_a_seen_node_went_is_kept_and_a_malformed_table_of_it_is_let_go(tmp_path):
    path = tmp_path / "sessions.json"
    rec = {"start_ts": NOW - 60, "last_activity": NOW - 30, "renamed_away": {"project:old-name": "new-name"}}
    path.write_text(json.dumps({"aaaa1111": rec, "bbbb2222": {**rec, "renamed_away": ["old-name"]},
                                "cccc3333": {**rec, "renamed_away": {"project:old-name": 5}}}))
    loaded = load_sessions(path, NOW)
    assert loaded["aaaa1111"].renamed_away == {"project:old-name": "new-name"}
    assert loaded["bbbb2222"].renamed_away == {} and loaded["cccc3333"].renamed_away == {}
    registry = Registry(loaded)
    assert registry.write_view(m.GetWriteView("aaaa1111", "project", "old-name")).renamed_to == "new-name"


def test_a_session_remembers_the_newest_renames_of_what_it_saw_and_not_its_own():
    from kg_actors.core.constants import RENAMED_AWAY_KEPT
    s = Session(sid="aaaa1111", start_ts=NOW, last_activity=NOW)
    for i in range(RENAMED_AWAY_KEPT + 5):
        s.seen_at[f"project:old-{i}"] = NOW
        s.follow_rename(f"project:old-{i}", f"project:new-{i}", f"new-{i}", by_another=True)
    assert len(s.renamed_away) == RENAMED_AWAY_KEPT and "project:old-0" not in s.renamed_away
    assert s.renamed_away[f"project:old-{RENAMED_AWAY_KEPT + 4}"] == f"new-{RENAMED_AWAY_KEPT + 4}"
    assert s.seen_at[f"project:new-{RENAMED_AWAY_KEPT + 4}"] == NOW
    s.seen_at["project:mine"] = NOW
    s.follow_rename("project:mine", "project:old-9", "old-9", by_another=False)
    assert "project:mine" not in s.renamed_away and "project:old-9" not in s.renamed_away  # a node again


def test_a_rename_away_follows_the_lesson_on_and_a_known_gone_id_no_longer_stands_in_a_write():
    s = Session(sid="aaaa1111", start_ts=NOW, last_activity=NOW)
    s.seen_at["project:first-name"] = s.read_at["project:first-name"] = NOW
    s.follow_rename("project:first-name", "project:second-name", "second-name", by_another=True)
    # Renamed on (by anyone, this session too): the old id points where the lesson is now.
    s.follow_rename("project:second-name", "project:third-name", "third-name", by_another=False)
    s.follow_rename("user:third-name", "user:other-name", "other-name", by_another=True)  # another level's node
    assert s.renamed_away == {"project:first-name": "third-name"}
    s.seen_at["project:gone-name"] = NOW
    s.forget_gone("project:first-name")
    s.forget_gone("project:gone-name")
    assert s.renamed_away == {} and "project:gone-name" not in s.seen_at
    assert s.seen_at["project:third-name"] == NOW  # what it saw of the lesson itself stays


def test_a_session_remembers_where_it_renamed_a_node_for_a_delete_under_the_old_id_not_for_a_write():
    registry = Registry({"aaaa1111": Session(sid="aaaa1111", start_ts=NOW, last_activity=NOW)})
    s = registry.sessions["aaaa1111"]
    s.follow_rename("project:first-name", "project:second-name", "second-name", by_another=False)
    s.follow_rename("project:second-name", "project:third-name", "third-name", by_another=False)  # renamed on
    assert s.renamed_here == {"project:first-name": "third-name", "project:second-name": "third-name"}
    assert registry.write_view(m.GetWriteView("aaaa1111", "project", "first-name")).renamed_to is None
    assert registry.where_renamed(m.WhereRenamed("aaaa1111", None, "first-name")) == ("project", "third-name")
    assert registry.where_renamed(m.WhereRenamed("aaaa1111", "user", "first-name")) is None  # another level's
    assert registry.where_renamed(m.WhereRenamed("zzzz9999", None, "first-name")) is None  # an unknown session
    s.follow_rename("project:other-name", "project:first-name", "first-name", by_another=False)  # a node again
    assert "project:first-name" not in s.renamed_here
    s.forget_gone("project:second-name")
    assert s.renamed_here == {"project:other-name": "first-name"}
    again = load_sessions_from(s)
    assert again.renamed_here == s.renamed_here


def load_sessions_from(s: Session) -> Session:
    return Session.from_json(s.sid, json.loads(json.dumps(s.to_json())))


def test_a_sessions_journal_that_is_not_a_regular_file_is_set_aside_and_the_file_loads(tmp_path, caplog):
    import os

    path = tmp_path / "sessions.json"
    path.write_text(json.dumps({"aaaa1111": {"start_ts": NOW - 60, "last_activity": NOW - 30}}))
    fifo = tmp_path / "sessions.json.journal"
    os.mkfifo(fifo)  # opened for reading, it would block; read through user_files it is an OSError
    assert list(load_sessions(path, NOW)) == ["aaaa1111"]
    aside = tmp_path / "sessions.json.journal.unreadable"
    assert aside.is_fifo() and not os.path.lexists(fifo)
    said = " ".join(r.getMessage() for r in caplog.records)
    assert "sessions.json.journal" in said and "not a regular file (a FIFO)" in said, said
    assert "sessions.json.journal.unreadable" in said, said


def test_kg_memorys_own_seen_tables_are_written_back_as_it_left_them_and_read_into_ours_only_once(tmp_path):
    """A user going back to kg-memory after kg found its sessions' seen state empty (kg wrote only its own,
    level-keyed tables); carried beside ours, they are never read into ours again (a context mark kg let go,
    at a compaction, is not brought back by them)."""
    path = tmp_path / "sessions.json"
    theirs = {"start_ts": NOW - 60, "last_activity": NOW - 30, "project_path": "/home/u/app", "op_count": 3,
              "seen_ids": ["lesson-a", "lesson-b"], "seen_via": {"lesson-a": "full_read", "lesson-b": "search"},
              "seen_at": {"lesson-a": NOW - 50, "lesson-b": NOW - 45}, "read_at": {"lesson-a": NOW - 40}}
    path.write_text(json.dumps({"aaaa1111": theirs}))
    s = load_sessions(path, NOW)["aaaa1111"]
    assert s.seen_via["project:lesson-a"] == "full_read" and s.seen_at == {} and s.read_at == {}
    s.seen_at["project:lesson-a"] = NOW - 10
    written = json.loads(json.dumps(s.to_json()))
    for name in ("seen_ids", "seen_via", "seen_at", "read_at"):
        bare = written[name] if name == "seen_ids" else {k: v for k, v in written[name].items() if ":" not in k}
        assert bare == theirs[name], name
    assert written["seen_at"]["project:lesson-a"] == NOW - 10
    del s.seen_via["project:lesson-b"], s.seen_via["user:lesson-b"]  # let go (a compaction)
    again = Session.from_json("aaaa1111", json.loads(json.dumps(s.to_json())))
    assert (again.seen_via, again.seen_at, again.read_at) == (s.seen_via, s.seen_at, s.read_at)
    assert again.to_json() == s.to_json()


def test_past_the_sessions_kept_a_load_keeps_the_most_recently_active_and_the_ones_active_lately(tmp_path, monkeypatch):
    from kg_actors.core import constants as C
    monkeypatch.setattr(C, "SESSIONS_KEPT", 3, raising=False)
    monkeypatch.setattr(C, "SESSION_SPARED_SECONDS", 600, raising=False)
    path = tmp_path / "sessions.json"
    idle = {f"{i:08x}": {"start_ts": NOW - 9000, "last_activity": NOW - 1000 * (i + 1)} for i in range(5)}
    busy = {"bbbb0001": {"start_ts": NOW - 9000, "last_activity": NOW - 5},
            "bbbb0002": {"start_ts": NOW - 9000, "last_activity": NOW - 100}}
    path.write_text(json.dumps({**idle, **busy, "eeee0001": {"start_ts": NOW - 2 * 86400, "last_activity": NOW - 86401}}))
    assert sorted(load_sessions(path, NOW)) == ["00000000", "bbbb0001", "bbbb0002"]


def test_on_the_tick_the_registry_lets_go_of_the_least_recently_active_past_the_sessions_kept(monkeypatch):
    from kg_actors.core import constants as C
    monkeypatch.setattr(C, "SESSIONS_KEPT", 2, raising=False)
    reg = Registry({})
    sids = [reg.register(m.Register(project_path="/p", harness="claude-code", now=NOW + i * 1000,
                                    claude_sid=f"claude-{i}")).sid for i in range(4)]
    gone = reg.expire(m.Expire(NOW + 4000))
    assert gone == 2 and sorted(reg.sessions) == sorted(sids[2:])
    assert reg.find_by_claude(m.FindByClaude("claude-0")) is None  # its harness id goes with it
    assert reg.find_by_claude(m.FindByClaude("claude-3")).sid == sids[3]


def test_loaded_sessions_share_one_string_per_ref_and_route(tmp_path):
    """Read from the file each route was a string of its own (~11 KB a session of 220 nodes seen)."""
    path = tmp_path / "sessions.json"
    rec = {"start_ts": NOW - 60, "last_activity": NOW - 30,
           "seen_via": {"project:a-lesson": "push", "project:b-lesson": "push"},
           "seen_at": {"project:a-lesson": NOW - 40}, "read_at": {"project:a-lesson": NOW - 40}}
    path.write_text(json.dumps({"aaaa1111": rec, "bbbb2222": rec}))
    a, b = load_sessions(path, NOW).values()
    assert a.seen_via == rec["seen_via"] and a.seen_at == rec["seen_at"] and a.read_at == rec["read_at"]
    routes = [v for s in (a, b) for v in s.seen_via.values()]
    assert all(v is routes[0] for v in routes)
    ref_in = {id(k) for s in (a, b) for t in (s.seen_via, s.seen_at, s.read_at) for k in t if k == "project:a-lesson"}
    assert len(ref_in) == 1


def test_the_tick_lets_go_of_the_view_sets_of_a_session_idle_a_while_and_its_next_view_is_the_same():
    from kg_actors.core import constants as C
    reg = Registry({})
    busy = reg.register(m.Register(project_path="/p", harness="claude-code", now=NOW, claude_sid="c-busy")).sid
    idle = reg.register(m.Register(project_path="/p", harness="claude-code", now=NOW, claude_sid="c-idle")).sid
    for sid in (busy, idle):
        reg.mark_seen(m.MarkSeen(sid, [("project", "a-lesson"), ("user", "b-lesson")], "push", NOW))
    before = reg.get(m.Get(idle)).seen
    later = NOW + C.SESSION_SPARED_SECONDS + 1
    reg.touch(m.Touch(busy, later))
    reg.expire(m.Expire(later))
    assert idle not in reg._frozen and busy in reg._frozen
    assert reg.get(m.Get(idle)).seen == before == {("project", "a-lesson"), ("user", "b-lesson")}


def test_a_torn_sessions_file_falls_back_to_the_save_before_kept_as_sessions_prev(tmp_path):
    from kg_actors import session_saves
    path = tmp_path / "sessions.json"
    rec = {"start_ts": NOW - 60, "last_activity": NOW - 30}
    session_saves.write_whole(path, [("aaaa1111", rec)])
    session_saves.write_whole(path, [("aaaa1111", rec), ("bbbb2222", rec)])
    assert list(json.loads((tmp_path / "sessions.prev").read_text())) == ["aaaa1111"]  # the save before
    for bad in (b'{"aaaa1111": {"start_ts": 1', b'["not", "sessions"]'):
        path.write_bytes(bad)
        assert list(load_sessions(path, NOW)) == ["aaaa1111"]
        assert (tmp_path / "sessions.json.unreadable").read_bytes() == bad
        (tmp_path / "sessions.json.unreadable").unlink()
