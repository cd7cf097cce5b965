"""The `gauge` setup step: `kg gauge` offered as Claude Code's status line, wrapping the user's own."""

import json
from pathlib import Path

import pytest

from kg_actors.setup import SetupError, plan, statusline

SETTINGS = Path("/h/.claude/settings.json")
KG = ["/opt/kg/bin/kg"]


def test_offered_when_claude_code_has_no_status_line():
    step = plan.gauge_step("/bin/claude", {}, None, SETTINGS, KG)
    (action,) = step.actions
    assert action.kind == "claude_statusline" and action.argv == ("/opt/kg/bin/kg gauge",) and action.path == SETTINGS
    assert "5h N% · week M%" in action.text


def test_the_users_own_status_line_is_wrapped_not_replaced():
    settings = {"statusLine": {"type": "command", "command": "~/bin/my line.sh"}}
    (action,) = plan.gauge_step("/bin/claude", settings, None, SETTINGS, KG).actions
    assert action.argv == ("/opt/kg/bin/kg gauge --wrap '~/bin/my line.sh'",) and "my line.sh" in action.text


def test_up_to_date_skipped_or_broken_says_so():
    ours = {"statusLine": {"type": "command", "command": "/opt/kg/bin/kg gauge --wrap x"}}
    assert plan.gauge_step("/bin/claude", ours, None, SETTINGS, KG).note == "up to date"
    assert "skipped" in plan.gauge_step(None, None, None, SETTINGS, KG).note
    assert "skipped" in plan.gauge_step("/bin/claude", None, "bad JSON", SETTINGS, KG).note


def test_merged_keeps_every_other_setting():
    raw = json.dumps({"enabledPlugins": {"kg-memory@kg-local": True}, "model": "opus"}).encode()
    data = json.loads(statusline.merged(raw, "kg gauge", SETTINGS))
    assert data == {"enabledPlugins": {"kg-memory@kg-local": True}, "model": "opus",
                    "statusLine": {"type": "command", "command": "kg gauge"}}
    with pytest.raises(SetupError, match="not valid JSON"):
        statusline.merged(b"{", "kg gauge", SETTINGS)


def test_uninstall_gives_the_user_their_own_status_line_back_when_the_file_was_edited_since():
    """Claude Code rewrites settings.json often, so it is seldom restored whole: the gauge is taken out alone."""
    mine = "~/bin/my line.sh"
    wrapped = {"model": "opus", "statusLine": {"type": "command", "command": statusline.gauge_command(KG, mine),
                                               "padding": 1}}
    out = json.loads(statusline.without(json.dumps(wrapped).encode(), SETTINGS))
    assert out == {"model": "opus", "statusLine": {"type": "command", "command": mine, "padding": 1}}
    alone = {"statusLine": {"type": "command", "command": statusline.gauge_command(KG, None)}}
    assert json.loads(statusline.without(json.dumps(alone).encode(), SETTINGS)) == {}
    assert statusline.without(json.dumps({"statusLine": {"type": "command", "command": mine}}).encode(), SETTINGS) is None
    undo = plan.Undo({"gauge": {"statusline": True, "path": str(SETTINGS)}}, {SETTINGS: False}, Path("/m"),
                     Path("/r.json"), "kg-memory@kg-local")
    (gauge,) = [s for s in plan.plan_uninstall(undo) if s.name == "gauge"]
    assert [a.kind for a in gauge.actions] == ["statusline_remove"] and gauge.actions[0].path == SETTINGS
    untouched = plan.Undo(undo.done, {SETTINGS: True}, Path("/m"), Path("/r.json"), "kg-memory@kg-local")
    assert not [s for s in plan.plan_uninstall(untouched) if s.name == "gauge"]  # restored whole instead


def test_the_users_other_status_line_keys_and_their_file_s_layout_stay():
    raw = b'{\n    "statusLine": {"type": "command", "command": "~/bin/status.sh", "padding": 0},\n    "note": "\xc3\xbcn\xc3\xafcode"\n}\n'
    out = statusline.merged(raw, "/opt/kg/bin/kg gauge --wrap '~/bin/status.sh'", SETTINGS)
    data = json.loads(out)
    assert data["statusLine"] == {"type": "command", "command": "/opt/kg/bin/kg gauge --wrap '~/bin/status.sh'",
                                  "padding": 0}
    assert '\n    "note": "ünïcode"' in out.decode()  # four spaces and the text as typed, as the user wrote it
    back = json.loads(statusline.without(out, SETTINGS))
    assert back["statusLine"] == {"type": "command", "command": "~/bin/status.sh", "padding": 0}
