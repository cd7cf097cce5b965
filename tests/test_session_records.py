"""sessions.json as load_sessions reads it: a record it cannot read is dropped, never the start."""

from __future__ import annotations

import json

from kg_actors.session_records import load_sessions

NOW = 1.8e9


def test_a_session_record_with_a_null_or_text_stamp_is_dropped_and_the_rest_load(tmp_path):
    path = tmp_path / "sessions.json"
    good = {"start_ts": NOW - 60, "last_activity": NOW - 30}
    path.write_text(json.dumps({"aaaa1111": good, "bbbb2222": {"start_ts": NOW, "last_activity": None},
                                "cccc3333": {"start_ts": NOW, "last_activity": "yesterday"}, "dddd4444": 7}))
    assert list(load_sessions(path, NOW)) == ["aaaa1111"]
