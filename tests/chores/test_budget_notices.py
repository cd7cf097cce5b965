"""Budget notices: once per level per window per session, from the session's own harness gauge."""

import json
import sys
import time
from pathlib import Path

import trio

from kg_actors.chores import gauge_files
from kg_actors.core.budget import notice
from kg_actors.core.chores import Reading
from kg_actors.testing import ServerProcess

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "e2e"))
from hook_helpers import Harness, post  # noqa: E402

NOW = 1_800_000_000.0


def reading(five=None, week=None, five_reset=NOW + 3600, week_reset=NOW + 86400):
    return Reading("claude", five, week, five_reset, week_reset, NOW)


def test_both_windows_past_wrap_up_say_it_once():
    text, told = notice(reading(five=92, week=96), {}, NOW)
    assert text.count("Wrap up now") == 1 and text.count("Budget:") == 1
    assert text.startswith("Budget: 5-hour quota at 92%, resets 09:00 UTC; weekly quota at 96%, resets ")
    assert told == {"five_hour": (2, NOW + 3600), "seven_day": (2, NOW + 86400)}
    mixed, _ = notice(reading(five=85, week=96), {}, NOW)  # one to plan, one to wrap up: the stronger advice
    assert mixed.count("Wrap up now") == 1 and "Plan the wrap-up" not in mixed


def test_each_level_once_per_window():
    text, told = notice(reading(five=79), {}, NOW)
    assert text is None and told == {}
    text, told = notice(reading(five=81), told, NOW)
    assert text.startswith("Budget: 5-hour quota at 81%, resets 09:00 UTC. Plan the wrap-up")
    assert notice(reading(five=85), told, NOW)[0] is None  # told already
    text, told = notice(reading(five=91), told, NOW)
    assert "Wrap up now" in text
    assert notice(reading(five=99), told, NOW)[0] is None
    # The next window starts afresh.
    assert "Plan the wrap-up" in notice(reading(five=82, five_reset=NOW + 5 * 3600), told, NOW)[0]


def test_the_week_at_90_and_95():
    assert notice(reading(week=89), {}, NOW)[0] is None
    text, told = notice(reading(week=90), {}, NOW)
    assert text.startswith("Budget: weekly quota at 90%, resets Sat 08:00 UTC. Plan")
    assert "Wrap up now" in notice(reading(week=96), told, NOW)[0]


def _frame(five):
    return {"rate_limits": {"five_hour": {"used_percentage": five, "resets_at": time.time() + 3600},
                            "seven_day": {"used_percentage": 10, "resets_at": time.time() + 86400}}}


def test_a_claude_session_is_told_once_on_the_hook_replies(tmp_path):
    srv = ServerProcess(tmp_path / "srv")
    srv.store.mkdir(parents=True)
    gauge_files.record_claude(srv.store, _frame(85), time.time())
    srv.start("--no-editor")
    try:
        project = srv.project("app")
        h = Harness(srv, project)
        h.start()
        first = h.prompt("what did we decide about deploys?")
        assert "Budget: 5-hour quota at 85%" in first.context and "Plan the wrap-up" in first.context
        again = h.read(project + "/README.md")
        assert "Budget:" not in (again.context if again.json else "")
        other = Harness(srv, project)  # another session is told for itself
        other.start()
        assert "Budget: 5-hour quota at 85%" in other.prompt("and the rollback?").context
    finally:
        srv.kill()


def test_notices_off_by_environment(tmp_path):
    srv = ServerProcess(tmp_path / "srv", {"KG_BUDGET_NOTICES": "0"})
    srv.store.mkdir(parents=True)
    gauge_files.record_claude(srv.store, _frame(95), time.time())
    srv.start("--no-editor")
    try:
        h = Harness(srv, srv.project("app"))
        h.start()
        reply = h.prompt("what did we decide about deploys?")
        assert "Budget:" not in (reply.context if reply.json else "")
    finally:
        srv.kill()


def _codex_event(five: float) -> str:
    stamp = time.strftime("%Y-%m-%dT%H:%M:%S.000Z", time.gmtime())
    return json.dumps({"timestamp": stamp, "type": "event_msg", "payload": {"type": "token_count", "rate_limits": {
        "primary": {"used_percent": five, "window_minutes": 300, "resets_at": int(time.time()) + 9000}}}}) + "\n"


def test_a_codex_session_is_told_its_own_reading_never_claude_codes(tmp_path):
    srv = ServerProcess(tmp_path / "srv")
    srv.store.mkdir(parents=True)
    gauge_files.record_claude(srv.store, _frame(95), time.time())  # Claude Code's plan, nearly spent
    srv.start("--no-editor")
    try:
        project = srv.project("app")
        codex = Harness(srv, project, kind="codex")
        codex.start()
        with open(codex.transcript, "a") as f:
            f.write(_codex_event(12.0))
        assert "Budget:" not in codex.prompt("what did we decide about deploys?").context
        # Codex's schema allows no transcript at all: still a Codex session, with no gauge of its own.
        bare = {"session_id": "codex-bare", "transcript_path": None, "cwd": project, "model": "gpt-5-codex",
                "turn_id": "t1", "hook_event_name": "UserPromptSubmit", "prompt": "and the rollback?"}
        assert "Budget:" not in json.dumps(post(srv, "/api/prompt_context", bare).json())
        # A rollout outside CODEX_HOME and ~/.codex is not read, whatever it says.
        elsewhere = Path(project) / "rollout-2026-11-30T10-00-00-x.jsonl"
        elsewhere.write_text(_codex_event(97.0))
        odd = {**bare, "session_id": "codex-odd", "transcript_path": str(elsewhere)}
        assert "Budget:" not in json.dumps(post(srv, "/api/prompt_context", odd).json())
        # Its own rollout at 85%: told, of Codex's window.
        other = Harness(srv, project, kind="codex")
        other.start()
        with open(other.transcript, "a") as f:
            f.write(_codex_event(85.0))
        assert "Budget: 5-hour quota at 85%" in other.prompt("and the rollback?").context
    finally:
        srv.kill()


def test_what_a_session_was_told_survives_a_restart(tmp_path):
    srv = ServerProcess(tmp_path / "srv")
    srv.store.mkdir(parents=True)
    gauge_files.record_claude(srv.store, _frame(85), time.time())
    srv.start("--no-editor")
    try:
        h = Harness(srv, srv.project("app"))
        h.start()
        assert "Budget: 5-hour quota at 85%" in h.prompt("what did we decide about deploys?").context
        srv.stop()
        assert h.sid in json.loads((srv.store / "budget_told.json").read_text())
        srv.start("--no-editor")
        assert "Budget:" not in h.prompt("and the rollback?").context
    finally:
        srv.kill()


def test_a_restarted_server_tells_only_the_levels_not_told_yet(tmp_path):
    from kg_actors.chores.budget_notices import REFRESH_S, BudgetNotices

    now = time.time()
    payload = {"session_id": "cc-1", "transcript_path": str(tmp_path / "cc-1.jsonl")}
    gauge_files.record_claude(tmp_path, _frame(85), now)
    assert "Plan the wrap-up" in trio.run(BudgetNotices(tmp_path, env={}).due, payload, now)
    assert trio.run(BudgetNotices(tmp_path, env={}).due, payload, now + REFRESH_S) is None  # a restart: told
    gauge_files.record_claude(tmp_path, _frame(92), now + 2 * REFRESH_S)
    assert "Wrap up now" in trio.run(BudgetNotices(tmp_path, env={}).due, payload, now + 2 * REFRESH_S)
    (tmp_path / "budget_told.json").write_text("[" * 100_000)  # unreadable: a fresh start, not a failure
    assert "Wrap up now" in trio.run(BudgetNotices(tmp_path, env={}).due, payload, now + 3 * REFRESH_S)
