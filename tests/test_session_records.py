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
        aside = tmp_path / ("sessions.json.unreadable" + ("" if n == 1 else f".{n}"))
        assert aside.read_bytes() == bad and not path.exists()
