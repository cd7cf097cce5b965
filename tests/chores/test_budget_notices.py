"""Budget notices: once per level per window per session, from the session's own harness gauge."""

import sys
import time
from pathlib import Path

from kg_actors.chores import gauge_files
from kg_actors.core.budget import notice
from kg_actors.core.chores import Reading
from kg_actors.testing import ServerProcess

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "e2e"))
from hook_helpers import Harness  # noqa: E402

NOW = 1_800_000_000.0


def reading(five=None, week=None, five_reset=NOW + 3600, week_reset=NOW + 86400):
    return Reading("claude", five, week, five_reset, week_reset, NOW)


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
