"""sessions.json and its journal on a disk that refuses them: /health, `kg status` and `kg doctor` name the
failing save while the server runs, and `kg stop` says what its last save could not keep (it said "stopped",
exit 0, and every session then resumed as new).

A real server started by `kg start` (its server.log is what `kg stop` reads once it exited); the disk's
refusal is storage/faults.py's (tests run as root: permissions refuse nothing).
"""

from __future__ import annotations

import json
import os
import urllib.request

import pytest

from e2e_helpers import health_at, kg, wait_until

from kg_actors.testing import free_port


def _session_start(env: dict, cwd: str, claude: str) -> str:
    body = json.dumps({"cwd": cwd, "session_id": claude, "hook_event_name": "SessionStart", "source": "startup"})
    req = urllib.request.Request(f"http://127.0.0.1:{env['KG_HTTP_PORT']}/api/session_bootstrap", body.encode(),
                                 {"Content-Type": "application/json"})
    with urllib.request.urlopen(req, timeout=30) as r:
        return json.loads(r.read())["hookSpecificOutput"]["additionalContext"].split("session_id: ", 1)[1][:8]


def test_a_sessions_save_the_disk_refuses_is_named_by_health_status_and_stop(tmp_path):
    home, flag = tmp_path / "home", tmp_path / "disk-refuses"
    (home / "app").mkdir(parents=True)
    env = dict(os.environ, HOME=str(home), KG_HOME=str(tmp_path / "store"), KG_HTTP_PORT=str(free_port()),
               KG_EDITOR_PORT=str(free_port()), KG_SAVE_INTERVAL="3600", KG_AUTOCOMMIT_INTERVAL="0",
               KG_TEST_STORAGE_FAULT=str(flag))
    assert kg(["start", "--no-editor"], env).returncode == 0
    try:
        kept = _session_start(env, str(home / "app"), "claude-kept")
        flag.write_text("EFBIG")
        _session_start(env, str(home / "app"), "claude-refused")  # answered all the same
        trouble = wait_until(lambda: (health_at(env) or {}).get("sessions_in_trouble"), what="the failed save named")
        assert trouble["kind"] == "not_saved" and "File too large" in trouble["why"], trouble
        status = kg(["status"], env)
        assert "kg: sessions: " in status.stdout and "could not be saved" in status.stdout, status.stdout
        doctor = kg(["doctor"], env)
        assert doctor.returncode == 1 and "FAIL  sessions" in doctor.stdout, doctor.stdout
        stop = kg(["stop"], env)
        assert stop.returncode == 1 and "could not be saved" in stop.stderr, (stop.stdout, stop.stderr)
        assert "sessions changed since are lost" in stop.stderr and "File too large" in stop.stderr, stop.stderr
        flag.unlink()
        assert kg(["start", "--no-editor"], env).returncode == 0
        assert (health_at(env) or {}).get("sessions_in_trouble") is None
        assert _session_start(env, str(home / "app"), "claude-kept") == kept  # saved before the refusal
        stop = kg(["stop"], env)
        assert (stop.returncode, stop.stderr) == (0, ""), stop.stderr
    finally:
        kg(["stop"], env)


@pytest.mark.parametrize("code, fix, not_fix", [
    ("EACCES", "give the server's user write permission in {store} (`chmod u+w {store}`", "free space"),
    ("ENOSPC", "free space on the disk holding {store} (df {store})", "chmod"),
])
def test_the_fix_said_for_a_refused_save_is_the_one_for_its_cause(tmp_path, code, fix, not_fix):
    """`kg stop` said "free space on the store's disk" for a store it may not write in, and status's fix line
    named both causes; each says the fix of the cause the disk gave."""
    home, flag = tmp_path / "home", tmp_path / "disk-refuses"
    (home / "app").mkdir(parents=True)
    store = tmp_path / "store"
    env = dict(os.environ, HOME=str(home), KG_HOME=str(store), KG_HTTP_PORT=str(free_port()),
               KG_EDITOR_PORT=str(free_port()), KG_SAVE_INTERVAL="3600", KG_AUTOCOMMIT_INTERVAL="0",
               KG_TEST_STORAGE_FAULT=str(flag))
    assert kg(["start", "--no-editor"], env).returncode == 0
    fix = fix.format(store=store)
    try:
        _session_start(env, str(home / "app"), "claude-kept")
        flag.write_text(code)
        _session_start(env, str(home / "app"), "claude-refused")
        wait_until(lambda: (health_at(env) or {}).get("sessions_in_trouble"), what="the failed save named")
        status = kg(["status"], env)
        line = status.stdout.split("kg: sessions: ", 1)[1].split("\n")[1]
        assert line.startswith(f"    fix: {fix}") and not_fix not in line, status.stdout
        stop = kg(["stop"], env)
        assert stop.returncode == 1 and f"; {fix}" in stop.stderr and not_fix not in stop.stderr, stop.stderr
    finally:
        flag.unlink(missing_ok=True)
        kg(["stop"], env)


def test_a_graph_whose_last_save_and_rescue_fail_is_named_by_stop_with_its_journal_and_status_exits_1(tmp_path):
    """The store refusing writes under a running server: `kg status` fails while a save fails, and `kg stop`
    names the graph whose save and rescue both failed (only the log's CRITICAL line said it) and its journal."""
    from rpc_helpers import Conn, session_id

    home, flag, store = tmp_path / "home", tmp_path / "disk-refuses", tmp_path / "store"
    (home / "app").mkdir(parents=True)
    env = dict(os.environ, HOME=str(home), KG_HOME=str(store), KG_HTTP_PORT=str(free_port()),
               KG_EDITOR_PORT=str(free_port()), KG_SAVE_INTERVAL="3600", KG_AUTOCOMMIT_INTERVAL="0",
               KG_TEST_STORAGE_FAULT=str(flag))
    assert kg(["start", "--no-editor"], env).returncode == 0
    try:
        conn = Conn(int(env["KG_HTTP_PORT"]), timeout=10)
        text, err = conn.tool("kg_read", cwd=str(home / "app"))
        assert not err, text
        text, err = conn.tool("kg_put_node", session_id=session_id(text), level="project", id="kept-in-journal",
                              gist="an answered change not yet folded into graph.json")
        assert not err, text
        flag.write_text("EACCES")
        _session_start(env, str(home / "app"), "claude-refused")
        wait_until(lambda: (health_at(env) or {}).get("sessions_in_trouble"), what="the failed save named")
        status = kg(["status"], env)
        assert status.returncode == 1 and "kg: sessions: " in status.stdout, (status.returncode, status.stdout)
        stop = kg(["stop"], env)
        journal = next(store.glob("projects/*/graph.json.journal"))
        assert stop.returncode == 1 and "graph project:app" in stop.stderr, stop.stderr
        assert str(journal) in stop.stderr and "sessions.json" in stop.stderr, stop.stderr
        assert stop.stderr.count("kg: stopped (pid") == 1, stop.stderr  # said once, with what failed listed
        assert "kept-in-journal" in journal.read_text()
    finally:
        flag.unlink(missing_ok=True)
        kg(["stop"], env)
