"""A SessionStart costs the same however many sessions are kept: its session goes to sessions.json's journal
(fsynced before the reply), not into a rewrite of the whole file; a kill -9 loses no session answered, and
a stop folds the journal into sessions.json."""

from __future__ import annotations

import json
import time

from e2e_helpers import start_server
from hook_helpers import post

from kg_actors.session_records import load_sessions

KEPT = 200


def _stored(project: str, now: float) -> dict:
    return {f"{i:08x}": {"start_ts": now - 60, "last_activity": now - 60, "project_path": project,
                         "harness": "claude-code", "claude_sid": f"stored-{i}", "seen_via": {"project:x": "preload"},
                         "seen_at": {"project:x": now - 60}} for i in range(KEPT)}


def _seed(srv) -> None:
    srv.store.mkdir(parents=True, exist_ok=True)
    (srv.store / "sessions.json").write_text(json.dumps(_stored(srv.project("app"), time.time())))


def _start(srv, claude: str) -> str:
    r = post(srv, "/api/session_bootstrap", {"cwd": srv.project("app"), "session_id": claude,
                                             "hook_event_name": "SessionStart", "source": "startup"})
    assert r.status_code == 200, r.text
    return r.json()["hookSpecificOutput"]["additionalContext"].split("session_id: ", 1)[1][:8]


def test_a_session_start_leaves_sessions_json_alone_and_a_kill_9_keeps_every_session_answered(tmp_path):
    srv = start_server(tmp_path, before_start=_seed)
    file = srv.store / "sessions.json"
    try:
        before = file.stat()
        sids = [_start(srv, f"claude-{i}") for i in range(3)]
        after = file.stat()
        # Not rewritten: the 200 other sessions cost a SessionStart nothing.
        assert (after.st_ino, after.st_size, after.st_mtime_ns) == (before.st_ino, before.st_size, before.st_mtime_ns)
        srv.kill()  # SIGKILL: no fold, no save at the end
        srv.start()
        assert [_start(srv, f"claude-{i}") for i in range(3)] == sids  # each resumed as the session it was
        assert len(load_sessions(file, time.time())) == KEPT + 3
        assert srv.stop() == 0
    finally:
        srv.kill()
    assert not file.with_name("sessions.json.journal").exists()  # folded at the stop
    assert {*sids, *_stored("", 0)} <= set(json.loads(file.read_text()))


def _journal_sids(srv) -> list[str]:
    journal = srv.store / "sessions.json.journal"
    lines = journal.read_text().splitlines() if journal.exists() else []
    return [json.loads(line)["sid"] for line in lines if line.startswith("{") and '"sid"' in line]


def test_the_first_session_start_after_a_start_appends_only_its_own_session(tmp_path):
    # It appended every session kept (200 here: 200 lines), and on a disk that would not take that much no
    # session was ever saved.
    srv = start_server(tmp_path, before_start=_seed)
    try:
        sid = _start(srv, "claude-first")
        assert _journal_sids(srv) == [sid]
    finally:
        srv.kill()
